#!/usr/bin/env bash
# The randomized fault campaign (issue 23; src/test/java/io/wecominbox/crash/ChaosCampaignIT.java): ROUNDS rounds
# of WeCom traffic on two Liberty nodes behind HAProxy with the broker pair, one or two seeded faults a round
# (kill -9 of a node, PostgreSQL restarted fast or immediate, broker failover and failback, Redis restarted, the
# network to the database or the brokers cut), each round checked and printed as one line with its seed.
#   src/bench/chaos.sh ROUNDS [SEED]     SEED: the first round's (default: random, printed); a round's own seed
#                                        with ROUNDS=1 replays that round's faults
# Appends the batch (date, commit, rounds, faults by kind, violations with their seeds, every round line) to
# docs/chaos-campaign.md; the whole Maven log is kept in target/chaos/.
# Settings: CHAOS_FAULTS (all; e.g. "all,-NET_CUT_DB"), CHAOS_TRAFFIC_SECONDS (20), CHAOS_EVENTS_PER_SECOND (6),
# CHAOS_TIME_SCALE (0.25), CHAOS_OWN_STACK (true).
# CHAOS_OWN_STACK=true: the campaign runs on a stack of its own beside the defaults another checkout's `mvn
# verify` uses: its own ports, Liberty server name, broker pair and Redis, and a PRIVATE PostgreSQL cluster
# (DB_PORT 5442, made from Debian's binaries by src/stack/postgres.sh): the campaign restarts its database, and
# must never restart a cluster other people's sessions use. Any of the variables below set beforehand wins.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
ROUNDS=${1:?usage: src/bench/chaos.sh ROUNDS [SEED]}
SEED=${2:-}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive number" >&2; exit 2; }
[ -z "$SEED" ] || [[ $SEED =~ ^-?[0-9]+$ ]] || { echo "SEED must be a number" >&2; exit 2; }

HTTP=9080 SERVER=wecomInboxTest
if [ "${CHAOS_OWN_STACK:-true}" = true ]; then
  HTTP=${HTTP_PORT:-9180} SERVER=${LIBERTY_SERVER:-wecomChaos}
  export HTTPS_PORT=${HTTPS_PORT:-9543} BROKER_PORT=${BROKER_PORT:-61716} \
    ARTEMIS_CONSOLE_PORT=${ARTEMIS_CONSOLE_PORT:-8261} DB_PORT=${DB_PORT:-5442} DB_NAME=${DB_NAME:-wecom_chaos} \
    REDIS_PORT=${REDIS_PORT:-6490} WECOM_SIM_API_PORT=${WECOM_SIM_API_PORT:-9191}
fi

OUT=$ROOT/target/chaos
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
LOG=$OUT/batch-$STAMP.log
mkdir -p "$OUT"
rm -f "$OUT/rounds.tsv"
COMMIT=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml server.xml || echo "+changes")

echo "[chaos] $ROUNDS rounds${SEED:+ from seed $SEED} on commit $COMMIT; log: $LOG" >&2
set +e
mvn -B -ntp verify -Dit.test=ChaosCampaignIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false -Dwecom.http.port="$HTTP" -Dliberty.server="$SERVER" \
  -Dchaos.rounds="$ROUNDS" ${SEED:+-Dchaos.seed="$SEED"} -Dchaos.faults="${CHAOS_FAULTS:-all}" \
  -Dchaos.trafficSeconds="${CHAOS_TRAFFIC_SECONDS:-20}" -Dchaos.eventsPerSecond="${CHAOS_EVENTS_PER_SECOND:-6}" \
  -Dchaos.timeScale="${CHAOS_TIME_SCALE:-0.25}" 2>&1 | tee "$LOG"
rc=${PIPESTATUS[0]}
set -e

if [ ! -s "$OUT/rounds.tsv" ]; then
  echo "[chaos] no round ran (Maven exit $rc); nothing added to docs/chaos-campaign.md. See $LOG" >&2
  exit 1
fi

DOC=$ROOT/docs/chaos-campaign.md
played=$(wc -l < "$OUT/rounds.tsv")
first=$(sed -n 's/.*first seed \(-\?[0-9]*\).*/\1/p' "$LOG" | head -n 1)
by_kind=$(cut -f3 "$OUT/rounds.tsv" | tr ',' '\n' | sort | uniq -c | awk '{ printf "%s%s %s", sep, $2, $1; sep=", " }')
violations=$(awk -F'\t' '$4 > 0 { printf "%sseed %s (%s)", sep, $2, $4; sep="; " }' "$OUT/rounds.tsv")
# one row in the results table (above its end marker), the round lines at the end of the file
row="| $STAMP | $(date -u '+%Y-%m-%d %H:%M') | $COMMIT | $played of $ROUNDS${CHAOS_FAULTS:+ ($CHAOS_FAULTS)} | $first | $by_kind | ${violations:-none} |"
MARK='<!-- chaos.sh adds a row above this line -->'
grep -qF -- "$MARK" "$DOC" || { echo "[chaos] $DOC lacks its marker line: $MARK" >&2; exit 1; }
awk -v row="$row" -v mark="$MARK" '$0 == mark { print row } { print }' "$DOC" > "$DOC.new" && mv "$DOC.new" "$DOC"
{
  echo
  echo "### Batch $STAMP ($COMMIT)"
  echo
  echo '```'
  cut -f5 "$OUT/rounds.tsv"
  echo '```'
} >> "$DOC"
echo "[chaos] $played rounds, violations: ${violations:-none}; added to $DOC (Maven exit $rc)" >&2
exit "$rc"
