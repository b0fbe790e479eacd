#!/usr/bin/env bash
# Ingest benchmark: POST /wecom/callback/{app} with signed, encrypted, unique events, twice: with every handler
# queue paused (callbacks stored and enqueued, nobody consuming) and with every consumer running (calling a
# fake WeCom API). Each time a closed loop at fixed concurrency and open loop at rising fixed arrival rates
# until saturation. Beside them pgbench (single-row insert; the same insert committed in two phases) at that
# concurrency against the same PostgreSQL database, before and after; last, a cold start (server stopped and
# started, then 200/s for 30 s from the first ready answer). CPU per component from /proc.
#
#   src/bench/ingest-bench.sh [IngestBenchMain options]     e.g. --rates 50,100,200,400 --concurrency 16
#
# It talks to the app only over HTTP (callbacks, /health/ready), to the broker only through its management
# API (Jolokia on the console port), to PostgreSQL through pgbench, and reads /proc: it measures any checkout.
#   INGEST_BENCH_ROOT=/path/to/checkout    the app to measure (default: this one); the bench is always this
#                                          checkout's
#   INGEST_BENCH_BUILD_DIR=/path           that app's build dir (default: WECOM_BUILD_DIR for this checkout,
#                                          $INGEST_BENCH_ROOT/target for another)
#   BENCH_API_PORT=N                       the fake WeCom API's port (default WECOM_SIM_API_PORT, else 9092)
#   INGEST_BENCH_NODES=2                   the app as two nodes behind HAProxy (stack.sh run --nodes 2): the
#                                          callbacks go to the load balancer (LB_PORT), the CPU of every node
#                                          is reported, and the cold phase (one node's restart) is left out
# With no ready server on HTTP_PORT it starts that checkout's stack (stack.sh run --no-demo, which also builds
# it) with the server calling the fake API, and stops it at the end. With one already up it uses it as it is
# (then the consumers call whatever WeCom API that stack was given). Same environment as the dev stack
# (HTTP_PORT, DB_*, LIBERTY_SERVER, ...). The report goes to stdout and to <build dir>/bench/ingest-bench-<time>.md,
# preceded by the machine's facts. PGBENCH=/path/to/pgbench overrides where pgbench is looked for.
HERE=$(cd "$(dirname "$0")/../.." && pwd)
# this checkout's bench classes, whichever app is measured
CLASSPATH_NOW=$("$HERE/src/stack/classpath.sh")
APP_ROOT=$(cd "${INGEST_BENCH_ROOT:-$HERE}" && pwd)
if [ -n "${INGEST_BENCH_BUILD_DIR:-}" ]; then
  export WECOM_BUILD_DIR=$INGEST_BENCH_BUILD_DIR
elif [ "$APP_ROOT" != "$HERE" ]; then
  export WECOM_BUILD_DIR=$APP_ROOT/target
fi
. "$HERE/src/stack/lib.sh"
load_secrets
export WECOM_APPS $(wecom_app_variables) DB_PASSWORD ARTEMIS_ADMIN_USER ARTEMIS_ADMIN_PASSWORD

find_pgbench() {
  local candidate
  # the versioned Debian binary before PATH's pg_wrapper, which may pick another major version
  for candidate in "${PGBENCH:-}" $(ls -d /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V -r) \
                   "$(command -v pgbench || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && { echo "$candidate"; return 0; }
  done
  return 1
}

PGBENCH_BIN=$(find_pgbench) || die "pgbench not found (looked at \$PGBENCH, PATH, /usr/lib/postgresql/*/bin).
  Install it: apt-get install postgresql-contrib (Debian/Ubuntu; postgresql-client on newer releases), or
  set PGBENCH=/path/to/pgbench."

API_ARGS=()
if curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1; then
  log "using the WeCom Inbox already ready on http://127.0.0.1:$HTTP_PORT as it is"
  [ -n "${BENCH_API_PORT:-}" ] && API_ARGS=(--api-port "$BENCH_API_PORT")
else
  : "${BENCH_API_PORT:=${WECOM_SIM_API_PORT:-9092}}"
  export WECOM_API_BASE_URL=http://127.0.0.1:$BENCH_API_PORT
  API_ARGS=(--api-port "$BENCH_API_PORT")
  run_stack_for_bench "$APP_ROOT" "$STACK_DIR/logs/ingest-bench-run.log"
fi
NODES=${INGEST_BENCH_NODES:-1}
TARGET_PORT=$HTTP_PORT
NODE_ARGS=()
if [ "$NODES" -gt 1 ]; then
  TARGET_PORT=${LB_PORT:-$((HTTP_PORT + 2))}
  # node 1 answers first; the other nodes and HAProxy come after it
  for i in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$TARGET_PORT/health/ready" >/dev/null 2>&1 && break
    [ "$i" = 300 ] && die "no load balancer answers on $TARGET_PORT (INGEST_BENCH_NODES=$NODES wants stack.sh run --nodes $NODES)"
    sleep 1
  done
  for n in $(seq 2 "$NODES"); do
    NODE_ARGS+=(--watch "liberty$n=$(cat "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER$n.pid" 2>/dev/null || true)")
  done
  # one node's restart says nothing about two; the phases asked for on the command line still win
  NODE_ARGS+=(--phases pgbench,paused,running)
  log "measuring $NODES nodes through the load balancer on $TARGET_PORT"
fi
LIBERTY_PID_FILE=$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid
# the cold phase: "STARTING" tells the driver where the stop ends and the start begins
RESTART="'$WLP_DIR/bin/server' stop '$LIBERTY_SERVER' >/dev/null; echo STARTING; \
'$WLP_DIR/bin/server' start '$LIBERTY_SERVER' >/dev/null"

LIBERTY_PID=$(cat "$LIBERTY_PID_FILE" 2>/dev/null || true)
ARTEMIS_PID=$(cat "$STACK_DIR/pids/artemis.pid" 2>/dev/null || true)
# The postmaster that owns DB_PORT (first line of its socket lock file), for its CPU; local servers only.
POSTGRES_PID=
if is_local_host "$DB_HOST"; then
  for lock in "/var/run/postgresql/.s.PGSQL.$DB_PORT.lock" "/tmp/.s.PGSQL.$DB_PORT.lock"; do
    [ -r "$lock" ] && { POSTGRES_PID=$(head -n 1 "$lock"); break; }
  done
fi

psql_q() { command -v psql >/dev/null && PGPASSWORD=$DB_PASSWORD psql -X -At -h "$DB_HOST" -p "$DB_PORT" \
  -U "$DB_USER" -d "$DB_NAME" -c "$1" 2>/dev/null || echo "?"; }

OUT_DIR=$BUILD_DIR/bench
mkdir -p "$OUT_DIR"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
REPORT=$OUT_DIR/ingest-bench-$STAMP.md
BODY=$OUT_DIR/.ingest-bench-$STAMP.body.md

# If the driver dies (Ctrl-C, kill), its scratch table must not stay behind; it drops it itself otherwise.
# (It resumes the handler queues itself too.) A stack we started is stopped after that.
STACK_TRAP=$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")
cleanup() {
  command -v psql >/dev/null && PGPASSWORD=$DB_PASSWORD psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" \
    -d "$DB_NAME" -c "DROP TABLE IF EXISTS bench_pgbench_insert" >/dev/null 2>&1 || true
  rm -f "$BODY"
  [ -n "$STACK_TRAP" ] && eval "$STACK_TRAP"
}
trap cleanup EXIT

artemis_home=$(ls -d "$BUILD_DIR"/artemis-dist/apache-artemis-* 2>/dev/null | sort -V | tail -n 1)
{
  echo "Machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)), \
$(free -m | awk '/^Mem:/ {printf "%.1f GB", $2/1024}') RAM, kernel $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg) before the run."
  echo "Software: $(java -version 2>&1 | head -n 1 | sed 's/"//g'); Open Liberty \
$(sed -n 's/^com.ibm.websphere.productVersion=//p' "$WLP_DIR/lib/versions/openliberty.properties" 2>/dev/null); \
Artemis ${artemis_home##*apache-artemis-}; PostgreSQL $(psql_q 'SHOW server_version'); $("$PGBENCH_BIN" -V)."
  echo "PostgreSQL settings: fsync=$(psql_q 'SHOW fsync'), synchronous_commit=$(psql_q 'SHOW synchronous_commit'), \
wal_sync_method=$(psql_q 'SHOW wal_sync_method'), max_prepared_transactions=$(psql_q 'SHOW max_prepared_transactions'), \
shared_buffers=$(psql_q 'SHOW shared_buffers'), max_connections=$(psql_q 'SHOW max_connections')."
  echo "Artemis journal: $(grep -oE '<journal-(type|datasync|buffer-timeout)>[^<]*' "$STACK_DIR/artemis/etc/broker.xml" 2>/dev/null \
| sed 's/<journal-//; s/>/=/' | paste -sd ' ')."
  echo "App: $APP_ROOT ($(git -C "$APP_ROOT" rev-parse --abbrev-ref HEAD 2>/dev/null) \
$(git -C "$APP_ROOT" log -1 --format='%h %cI' 2>/dev/null)\
$([ -n "$(git -C "$APP_ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && echo ' + uncommitted changes')), built in $BUILD_DIR."
  echo "Liberty: $(grep -E '^-X' "$SERVER_DIR/jvm.options" 2>/dev/null | paste -sd ' '); pools: $(grep -oE '<connectionManager [^/]*' \
"$SERVER_DIR/server.xml" 2>/dev/null | grep -oE 'maxPoolSize="[0-9]+"' | paste -sd ' ')."
  echo
} > "$REPORT"

log "pgbench: $PGBENCH_BIN; report: $REPORT"
COMMAND="src/bench/ingest-bench.sh${*:+ $*}"
set +e
java -Xms256m -Xmx1500m -XX:+UseSerialGC -cp "$CLASSPATH_NOW" \
  io.wecominbox.devstack.bench.IngestBenchMain \
  --base-url "http://127.0.0.1:$TARGET_PORT" --pgbench "$PGBENCH_BIN" "${API_ARGS[@]}" \
  --broker-console "http://127.0.0.1:$ARTEMIS_CONSOLE_PORT/console/jolokia" \
  --restart-command "$RESTART" --liberty-pid-file "$LIBERTY_PID_FILE" \
  --watch "liberty=$LIBERTY_PID" --watch "artemis=$ARTEMIS_PID" --watch "postgres=$POSTGRES_PID" \
  --clock-ticks "$(getconf CLK_TCK)" --report "$BODY" --command "$COMMAND" "${NODE_ARGS[@]}" "$@"
status=$?
set -e
[ $status = 0 ] || die "the benchmark failed (exit $status)"
cat "$BODY" >> "$REPORT"
echo
log "report: $REPORT"
