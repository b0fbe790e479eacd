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
# The environment (INGEST_BENCH_ROOT, INGEST_BENCH_BUILD_DIR, BENCH_API_PORT, INGEST_BENCH_NODES, PGBENCH) and
# how the stack is found or started: src/bench/bench-lib.sh. With INGEST_BENCH_NODES=2 the cold phase (one
# node's restart) is left out. The report goes to stdout and to <build dir>/bench/ingest-bench-<time>.md,
# preceded by the machine's facts.
. "$(dirname "$0")/bench-lib.sh"
bench_prepare ingest-bench
PHASES=()
# one node's restart says nothing about two; the phases asked for on the command line still win
[ "$NODES" -gt 1 ] && PHASES=(--phases pgbench,paused,running)
# the cold phase: "STARTING" tells the driver where the stop ends and the start begins
RESTART="'$WLP_DIR/bin/server' stop '$LIBERTY_SERVER' >/dev/null; echo STARTING; \
'$WLP_DIR/bin/server' start '$LIBERTY_SERVER' >/dev/null"
bench_run ingest-bench io.wecominbox.devstack.bench.IngestBenchMain --command "src/bench/ingest-bench.sh${*:+ $*}" \
  --restart-command "$RESTART" --liberty-pid-file "$LIBERTY_PID_FILE" "${PHASES[@]}" "$@"
