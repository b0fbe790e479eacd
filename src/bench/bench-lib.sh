#!/usr/bin/env bash
# What the benchmarks that drive the app over HTTP share (ingest-bench.sh, mix-bench.sh), sourced by them: the
# app to measure and its stack (started here when none is ready), pgbench, the pids whose CPU is reported, the
# machine's facts at the head of the report, and the run of one Java main of io.wecominbox.devstack.bench.
#   INGEST_BENCH_ROOT=/path/to/checkout    the app to measure (default: this one); the bench is always this
#                                          checkout's
#   INGEST_BENCH_BUILD_DIR=/path           that app's build dir (default: WECOM_BUILD_DIR for this checkout,
#                                          $INGEST_BENCH_ROOT/target for another)
#   BENCH_API_PORT=N                       the fake WeCom API's port (default WECOM_SIM_API_PORT, else 9092)
#   INGEST_BENCH_NODES=2                   the app as two nodes behind HAProxy (stack.sh run --nodes 2): the
#                                          callbacks go to the load balancer (LB_PORT), the CPU of every node
#                                          is reported
#   BENCH_PROFILE=1                        profile the run: JFR (settings=profile) on Liberty and Artemis,
#                                          summarized by stage and hot frame, and PostgreSQL's statements by
#                                          total time (pg_stat_statements, reset at the start; it needs
#                                          shared_preload_libraries=pg_stat_statements and a superuser,
#                                          PG_ADMIN_USER, default postgres), appended to the report
# With no ready server on HTTP_PORT the app's stack is started (stack.sh run --no-demo, which also builds it)
# with the server calling the fake API, and stopped at the end. With one already up it is used as it is (then
# the consumers call whatever WeCom API that stack was given). Same environment as the dev stack (HTTP_PORT,
# DB_*, LIBERTY_SERVER, ...). PGBENCH=/path/to/pgbench overrides where pgbench is looked for.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
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

psql_q() { command -v psql >/dev/null && PGPASSWORD=$DB_PASSWORD psql -X -At -h "$DB_HOST" -p "$DB_PORT" \
  -U "$DB_USER" -d "$DB_NAME" -c "$1" 2>/dev/null || echo "?"; }

# bench_prepare NAME: pgbench found, the stack ready (started if need be), TARGET_PORT, NODES, NODE_WATCH, the
# pids, and REPORT (<build dir>/bench/NAME-<time>.md) begun with the machine's facts; BODY is where the Java
# main writes its part.
bench_prepare() {
  local name=$1 n lock artemis_home
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
    # Liberty's collections in a GC log of the run (its pauses stop the callbacks too; server start reads JVM_ARGS)
    mkdir -p "$BUILD_DIR/bench"
    LIBERTY_GC_LOG=$BUILD_DIR/bench/$name-$(date -u +%Y%m%dT%H%M%SZ)-liberty-gc-%p.log
    export JVM_ARGS="${JVM_ARGS:+$JVM_ARGS }-Xlog:gc:file=$LIBERTY_GC_LOG:time,uptime"
    run_stack_for_bench "$APP_ROOT" "$STACK_DIR/logs/$name-run.log"
  fi
  NODES=${INGEST_BENCH_NODES:-1}
  TARGET_PORT=$HTTP_PORT
  NODE_WATCH=()
  if [ "$NODES" -gt 1 ]; then
    TARGET_PORT=${LB_PORT:-$((HTTP_PORT + 2))}
    # node 1 answers first; the other nodes and HAProxy come after it
    for i in $(seq 1 300); do
      curl -fsS "http://127.0.0.1:$TARGET_PORT/health/ready" >/dev/null 2>&1 && break
      [ "$i" = 300 ] && die "no load balancer answers on $TARGET_PORT (INGEST_BENCH_NODES=$NODES wants stack.sh run --nodes $NODES)"
      sleep 1
    done
    for n in $(seq 2 "$NODES"); do
      NODE_WATCH+=(--watch "liberty$n=$(cat "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER$n.pid" 2>/dev/null || true)")
    done
    log "measuring $NODES nodes through the load balancer on $TARGET_PORT"
  fi
  LIBERTY_PID_FILE=$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid
  LIBERTY_PID=$(cat "$LIBERTY_PID_FILE" 2>/dev/null || true)
  ARTEMIS_PID=$(cat "$STACK_DIR/pids/artemis.pid" 2>/dev/null || true)
  # The postmaster that owns DB_PORT (first line of its socket lock file), for its CPU; local servers only.
  POSTGRES_PID=
  if is_local_host "$DB_HOST"; then
    for lock in "/var/run/postgresql/.s.PGSQL.$DB_PORT.lock" "/tmp/.s.PGSQL.$DB_PORT.lock"; do
      [ -r "$lock" ] && { POSTGRES_PID=$(head -n 1 "$lock"); break; }
    done
  fi
  # The stack's private Redis (redis.sh); a shared one is not ours to measure, so no CPU column then.
  REDIS_PID=$(cat "$STACK_DIR/pids/redis.pid" 2>/dev/null || true)
  [ -n "$REDIS_PID" ] && ! kill -0 "$REDIS_PID" 2>/dev/null && REDIS_PID=

  OUT_DIR=$BUILD_DIR/bench
  mkdir -p "$OUT_DIR"
  STAMP=$(date -u +%Y%m%dT%H%M%SZ)
  REPORT=$OUT_DIR/$name-$STAMP.md
  BODY=$OUT_DIR/.$name-$STAMP.body.md

  # If the driver dies (Ctrl-C, kill), its scratch table must not stay behind; it drops it itself otherwise.
  # (The ingest bench resumes the handler queues itself too.) A stack we started is stopped after that.
  STACK_TRAP=$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")
  trap bench_cleanup EXIT

  artemis_home=$(ls -d "$BUILD_DIR"/artemis-dist/apache-artemis-* 2>/dev/null | sort -V | tail -n 1 || true)
  # Start from a vacuumed database, as autovacuum keeps a production one. Where it is off, each run's dead rows
  # (the relay writes every callback_log row a second time) made the next run's statements slower.
  local vacuum_start=$SECONDS vacuumed
  vacuumed=$(psql_q 'VACUUM (ANALYZE)')
  {
    echo "Machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)), \
$(free -m | awk '/^Mem:/ {printf "%.1f GB", $2/1024}') RAM, kernel $(uname -r) (autogroup $(autogroup_state)); load average $(cut -d' ' -f1-3 /proc/loadavg) before the run."
    echo "Software: $(java -version 2>&1 | head -n 1 | sed 's/"//g'); Open Liberty \
$(sed -n 's/^com.ibm.websphere.productVersion=//p' "$WLP_DIR/lib/versions/openliberty.properties" 2>/dev/null); \
Artemis ${artemis_home##*apache-artemis-}; PostgreSQL $(psql_q 'SHOW server_version'); $("$PGBENCH_BIN" -V)."
    echo "PostgreSQL settings: fsync=$(psql_q 'SHOW fsync'), synchronous_commit=$(psql_q 'SHOW synchronous_commit'), \
wal_sync_method=$(psql_q 'SHOW wal_sync_method'), max_prepared_transactions=$(psql_q 'SHOW max_prepared_transactions'), \
shared_buffers=$(psql_q 'SHOW shared_buffers'), max_connections=$(psql_q 'SHOW max_connections'), \
autovacuum=$(psql_q 'SHOW autovacuum'); $([ "$vacuumed" = VACUUM ] && echo "vacuumed and analyzed before the run \
($((SECONDS - vacuum_start)) s)" || echo "VACUUM before the run failed: its dead rows stay")."
    echo "Artemis journal: $(grep -oE '<journal-(type|datasync|buffer-timeout|max-io)>[^<]*' "$STACK_DIR/artemis/etc/broker.xml" 2>/dev/null \
| sed 's/<journal-//; s/>/=/' | paste -sd ' ')."
    echo "App: $APP_ROOT ($(git -C "$APP_ROOT" rev-parse --abbrev-ref HEAD 2>/dev/null) \
$(git -C "$APP_ROOT" log -1 --format='%h %cI' 2>/dev/null)\
$([ -n "$(git -C "$APP_ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && echo ' + uncommitted changes')), built in $BUILD_DIR."
    echo "Liberty: $(grep -E '^-X' "$SERVER_DIR/jvm.options" 2>/dev/null | paste -sd ' '); pools: $(grep -oE '<connectionManager [^/]*' \
"$SERVER_DIR/server.xml" "$SERVER_DIR/wecom-inbox.xml" 2>/dev/null | grep -oE 'maxPoolSize="[0-9]+"' | paste -sd ' ')."
    echo
  } > "$REPORT"
  log "pgbench: $PGBENCH_BIN; report: $REPORT"
}

# The kernel's per-session scheduling groups: on, each PostgreSQL backend outside a cgroup weighs as much as all
# of Liberty, which decides the answers' tail on a small machine (docs/benchmarks.md); runs compare only alike.
autogroup_state() {
  case $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null) in
    1) echo on ;;
    0) echo off ;;
    *) echo "not in this kernel" ;;
  esac
}

bench_cleanup() {
  command -v psql >/dev/null && PGPASSWORD=$DB_PASSWORD psql -X -q -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" \
    -d "$DB_NAME" -c "DROP TABLE IF EXISTS bench_pgbench_insert" >/dev/null 2>&1 || true
  rm -f "$BODY"
  [ -n "$STACK_TRAP" ] && eval "$STACK_TRAP"
}

# bench_run NAME MAIN_CLASS [args...]: the Java main with what every such bench gets (the callback URL, pgbench,
# the fake API's port, the broker's management API, the pids to watch, the report), then the given arguments
# (the command line's last, so they win); its report is appended to REPORT.
bench_run() {
  local name=$1 main=$2 status
  shift 2
  [ -n "${BENCH_PROFILE:-}" ] && profile_start "$name"
  set +e
  # The driver's own pauses are charged to the server (a send or an answer they delay counts as ACK latency):
  # a fixed heap with a large young generation, and a common pool of 2 so that the HTTP client's completions
  # do not start a thread each (CompletableFuture's default on a 2-core machine).
  java -Xms1500m -Xmx1500m -Xmn600m -XX:+UseSerialGC -Xlog:gc:file="$OUT_DIR/$name-$STAMP-driver-gc.log" \
    -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 -cp "$CLASSPATH_NOW" "$main" \
    --base-url "http://127.0.0.1:$TARGET_PORT" --pgbench "$PGBENCH_BIN" "${API_ARGS[@]}" \
    --broker-console "http://127.0.0.1:$ARTEMIS_CONSOLE_PORT/console/jolokia" \
    --watch "liberty=$LIBERTY_PID" --watch "artemis=$ARTEMIS_PID" --watch "postgres=$POSTGRES_PID" \
    --watch "redis=$REDIS_PID" "${NODE_WATCH[@]}" \
    --clock-ticks "$(getconf CLK_TCK)" --report "$BODY" "$@"
  status=$?
  set -e
  [ $status = 0 ] || die "the benchmark failed (exit $status)"
  cat "$BODY" >> "$REPORT"
  [ -n "${BENCH_PROFILE:-}" ] && profile_stop >> "$REPORT"
  echo
  log "report: $REPORT"
}

# BENCH_PROFILE=1: where the time went during bench_run (JFR of the JVMs, pg_stat_statements of the database).
pg_admin_q() { PGCONNECT_TIMEOUT=3 psql -X -At -h "$DB_HOST" -p "$DB_PORT" -U "${PG_ADMIN_USER:-postgres}" -d "$DB_NAME" "$@"; }
profile_start() { # name
  local jvm pid
  PROFILE_FILES=()
  for jvm in "liberty=$LIBERTY_PID" "artemis=$ARTEMIS_PID"; do
    pid=${jvm#*=}
    [ -n "$pid" ] || continue
    # `artemis run` may be a shell that started the broker's JVM: profile the JVM
    jcmd "$pid" VM.version >/dev/null 2>&1 || pid=$(pgrep -P "$pid" java | head -n 1 || true)
    [ -n "$pid" ] || continue
    PROFILE_FILES+=("${jvm%%=*}=$OUT_DIR/$1-$STAMP-${jvm%%=*}.jfr")
    jcmd "$pid" JFR.start name=bench settings=profile filename="$OUT_DIR/$1-$STAMP-${jvm%%=*}.jfr" >/dev/null \
      && PROFILE_PIDS+=("$pid") || log "JFR did not start on ${jvm%%=*} (pid $pid)"
  done
  PG_STATEMENTS=false
  if pg_admin_q -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" -c "SELECT pg_stat_statements_reset()" \
      >/dev/null 2>&1; then
    PG_STATEMENTS=true
  else
    log "pg_stat_statements unavailable (shared_preload_libraries, or no superuser ${PG_ADMIN_USER:-postgres}): no statement profile"
  fi
}

profile_stop() {
  local pid entry
  for pid in "${PROFILE_PIDS[@]}"; do jcmd "$pid" JFR.stop name=bench >/dev/null 2>&1 || true; done
  echo
  echo "## Where the time went (BENCH_PROFILE)"
  for entry in "${PROFILE_FILES[@]}"; do
    [ -s "${entry#*=}" ] || continue
    echo
    echo "### ${entry%%=*}: JFR execution samples (${entry#*=})"
    echo
    java -cp "$CLASSPATH_NOW" io.wecominbox.devstack.bench.JfrHotMethods "${entry#*=}" 15
    echo
    echo "### ${entry%%=*}: JFR waits (parks, monitors, sockets) of application threads"
    echo
    java -cp "$CLASSPATH_NOW" io.wecominbox.devstack.bench.JfrWaits "${entry#*=}" 15
  done
  if [ "$PG_STATEMENTS" = true ]; then
    echo
    echo "### PostgreSQL: statements by total execution time (pg_stat_statements, database $DB_NAME)"
    echo
    echo "| total ms | calls | mean ms | rows | statement |"
    echo "|---|---|---|---|---|"
    pg_admin_q -F $'\t' -c "SELECT round(s.total_exec_time)::bigint, s.calls, round(s.mean_exec_time::numeric, 3),
        s.rows, replace(left(regexp_replace(s.query, '\s+', ' ', 'g'), 140), '|', '\|')
      FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = current_database() ORDER BY s.total_exec_time DESC LIMIT 20" \
      | sed -e 's/\t/ | /g' -e 's/^/| /' -e 's/$/ |/'
  fi
}
PROFILE_PIDS=()
