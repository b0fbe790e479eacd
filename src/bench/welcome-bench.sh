#!/usr/bin/env bash
# Welcome latency benchmark (a script, not a test): from the start of WeCom's callback POST to the moment the
# server's send_welcome_msg for that event reaches the fake WeCom API, at a steady rate.
#   src/bench/welcome-bench.sh [--rate 10] [--seconds 60] [--warmup 10]
# Starts the dev stack without the demo (stack.sh run --no-demo, same environment variables and ports) with
# the server calling the benchmark's fake API on BENCH_API_PORT (default 9092), runs
# io.wecominbox.devstack.bench.WelcomeLatencyBench (src/devstack/java), prints p50/p90/p99/max, and stops the stack.
. "$(dirname "$0")/../stack/lib.sh"
load_secrets
: "${BENCH_API_PORT:=9092}"
export BENCH_API_PORT WECOM_API_BASE_URL=http://127.0.0.1:$BENCH_API_PORT
RUN_LOG=$STACK_DIR/logs/bench-run.log

run_stack_for_bench "$ROOT" "$RUN_LOG"
log "stack ready; benchmark on $(nproc) cores"
java -cp "$("$ROOT/src/stack/classpath.sh")" io.wecominbox.devstack.bench.WelcomeLatencyBench --api-port "$BENCH_API_PORT" "$@"
