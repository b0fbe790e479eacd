#!/usr/bin/env bash
# Ingest benchmark: POST /wecom/callback/{app} with signed, encrypted, unique events at rising fixed arrival
# rates until saturation, a closed-loop run at fixed concurrency, and pgbench (single-row insert; the same
# insert committed in two phases) at that concurrency against the same PostgreSQL database.
#
#   src/bench/ingest-bench.sh [IngestBenchMain options]     e.g. --rates 50,100,200,400 --concurrency 16
#
# Runs against a dev stack that is already up (src/stack/stack.sh run, or services-start + server start)
# with the same environment (HTTP_PORT, DB_NAME, LIBERTY_SERVER, WECOM_BUILD_DIR, ...). The report goes to
# stdout and to $WECOM_BUILD_DIR/bench/ingest-bench-<time>.md, preceded by the machine's facts.
# PGBENCH=/path/to/pgbench overrides where pgbench is looked for.
. "$(dirname "$0")/../stack/lib.sh"
load_secrets
export WECOM_APPS $(wecom_app_variables) DB_PASSWORD

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

curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1 \
  || die "no ready WeCom Inbox on http://127.0.0.1:$HTTP_PORT: start the stack first with the same environment"

LIBERTY_PID=$(cat "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid" 2>/dev/null || true)
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
cleanup() {
  command -v psql >/dev/null && PGPASSWORD=$DB_PASSWORD psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" \
    -d "$DB_NAME" -c "DROP TABLE IF EXISTS bench_pgbench_insert" >/dev/null 2>&1 || true
  rm -f "$BODY"
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
  echo "Liberty: $(grep -E '^-X' "$SERVER_DIR/jvm.options" 2>/dev/null | paste -sd ' '); pools: $(grep -oE '<connectionManager [^/]*' \
"$SERVER_DIR/server.xml" 2>/dev/null | grep -oE 'maxPoolSize="[0-9]+"' | paste -sd ' ')."
  echo
} > "$REPORT"

log "pgbench: $PGBENCH_BIN; report: $REPORT"
COMMAND="src/bench/ingest-bench.sh${*:+ $*}"
set +e
java -Xms256m -Xmx1g -XX:+UseSerialGC -cp "$("$ROOT/src/stack/classpath.sh")" \
  io.wecominbox.devstack.bench.IngestBenchMain \
  --base-url "http://127.0.0.1:$HTTP_PORT" --pgbench "$PGBENCH_BIN" \
  --watch "liberty=$LIBERTY_PID" --watch "artemis=$ARTEMIS_PID" --watch "postgres=$POSTGRES_PID" \
  --clock-ticks "$(getconf CLK_TCK)" --report "$BODY" --command "$COMMAND" "$@"
status=$?
set -e
[ $status = 0 ] || die "the benchmark failed (exit $status)"
cat "$BODY" >> "$REPORT"
echo
log "report: $REPORT"
