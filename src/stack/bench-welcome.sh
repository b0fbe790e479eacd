#!/usr/bin/env bash
# Welcome latency benchmark (a script, not a test): from the start of WeCom's callback POST to the moment the
# server's send_welcome_msg for that event reaches the fake WeCom API, at a steady rate.
#   src/stack/bench-welcome.sh [--rate 10] [--seconds 60] [--warmup 10]
# Starts the dev stack without the demo (stack.sh run --no-demo, same environment variables and ports) with
# the server calling the benchmark's fake API on BENCH_API_PORT (default 9092), runs
# io.wecominbox.bench.WelcomeLatencyBench (src/test/java), prints p50/p90/p99/max, and stops the stack.
. "$(dirname "$0")/lib.sh"
load_secrets
: "${BENCH_API_PORT:=9092}"
export BENCH_API_PORT WECOM_API_BASE_URL=http://127.0.0.1:$BENCH_API_PORT
RUN_LOG=$STACK_DIR/logs/bench-run.log

"$ROOT/src/stack/stack.sh" run --no-demo > "$RUN_LOG" 2>&1 &
RUN_PID=$!
stop_stack() { kill -TERM "$RUN_PID" 2>/dev/null && wait "$RUN_PID" 2>/dev/null; log "stack stopped"; }
trap stop_stack EXIT

log "starting the stack (log: $RUN_LOG)"
for i in $(seq 1 300); do
  curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1 && break
  kill -0 "$RUN_PID" 2>/dev/null || die "the stack did not start; see $RUN_LOG"
  sleep 1
done
curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1 || die "the stack is not ready after 300 s"
log "stack ready; benchmark on $(nproc) cores"
java -cp "$("$ROOT/src/stack/classpath.sh")" io.wecominbox.bench.WelcomeLatencyBench --api-port "$BENCH_API_PORT" "$@"
