#!/usr/bin/env bash
# Consumer benchmark: the handlers alone, fed through the broker's events topic as the ingest feeds them
# (no HTTP, no ACK path), with the WeCom API simulator answering 100 ms away (jitter, 1 % slow tail).
#
#   src/bench/consumer-bench.sh [ConsumerBenchMain options]   e.g. --rates 100,200,400 --burst 10000@300
#
# Starts the dev stack without the demo (stack.sh run --no-demo, same environment variables and ports) with
# the server calling the benchmark's simulator on BENCH_API_PORT (default 9092), runs
# io.wecominbox.devstack.bench.ConsumerBenchMain, prints a markdown table, and stops the stack.
# CONSUMER_BENCH_ROOT=/path/to/another/checkout benchmarks that checkout's app with this bench (e.g. main).
HERE=$(cd "$(dirname "$0")/../.." && pwd)
# this checkout's bench classes, whichever app is measured
CLASSPATH_NOW=$("$HERE/src/stack/classpath.sh")
[ -n "${CONSUMER_BENCH_ROOT:-}" ] && export WECOM_BUILD_DIR=$CONSUMER_BENCH_ROOT/target
. "$HERE/src/stack/lib.sh"
load_secrets
: "${BENCH_API_PORT:=9092}"
export BENCH_API_PORT WECOM_API_BASE_URL=http://127.0.0.1:$BENCH_API_PORT
APP_ROOT=${CONSUMER_BENCH_ROOT:-$ROOT}
RUN_LOG=$STACK_DIR/logs/consumer-bench-run.log

run_stack_for_bench "$APP_ROOT" "$RUN_LOG"
LIBERTY_PID=$(cat "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid" 2>/dev/null || true)
ARTEMIS_PID=$(cat "$STACK_DIR/pids/artemis.pid" 2>/dev/null || true)
POSTGRES_PID=
for lock in "/var/run/postgresql/.s.PGSQL.$DB_PORT.lock" "/tmp/.s.PGSQL.$DB_PORT.lock"; do
  [ -r "$lock" ] && { POSTGRES_PID=$(head -n 1 "$lock"); break; }
done
# BENCH_JFR=1: a JFR profile of Liberty for the whole run, summarized at the end (where the time went)
JFR_FILE=$BUILD_DIR/bench/consumer-bench-$(date -u +%Y%m%dT%H%M%SZ).jfr
if [ -n "${BENCH_JFR:-}" ] && [ -n "$LIBERTY_PID" ]; then
  mkdir -p "$(dirname "$JFR_FILE")"
  jcmd "$LIBERTY_PID" JFR.start name=consumerbench settings=profile filename="$JFR_FILE" >/dev/null
fi
log "stack ready; consumer benchmark on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xms256m -Xmx1g -cp "$CLASSPATH_NOW" io.wecominbox.devstack.bench.ConsumerBenchMain \
  --api-port "$BENCH_API_PORT" --clock-ticks "$(getconf CLK_TCK)" \
  --watch "liberty=$LIBERTY_PID,artemis=$ARTEMIS_PID,postgres=$POSTGRES_PID" "$@"
if [ -n "${BENCH_JFR:-}" ] && [ -n "$LIBERTY_PID" ]; then
  jcmd "$LIBERTY_PID" JFR.stop name=consumerbench >/dev/null
  java -cp "$CLASSPATH_NOW" io.wecominbox.devstack.bench.JfrHotMethods "$JFR_FILE" 15
fi
