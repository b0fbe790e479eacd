#!/usr/bin/env bash
# Mix benchmark, the one a user would run (issue 21 item 4): what WeCom, the customer and the operator see when
# WeCom delivers its realistic mix to the real callback URL. Two apps in turn, signed and encrypted; 20 % adds
# with a WelcomeCode, 80 % members' text messages (conversation, crm and the bot, whose reply goes through the
# API); the consumers running against a fake WeCom API 100 ± 30 ms away; open loop in steps, WeCom's re-send
# of the same bytes when no 200 came within 5 s. Per step: answered within 5 s, ACK p50/p99/p99.9, welcomes
# sent/expired/p99, each handler's backlog and drain time, CPU per event per process. pgbench's single-row
# insert before and after, and a closed loop with the consumers running as a ratio to it.
#
#   src/bench/mix-bench.sh [MixBenchMain options]   e.g. --rates 100,200,300,500,700,1000 --step-seconds 20 --pause-seconds 25
#
# The environment (INGEST_BENCH_ROOT, INGEST_BENCH_BUILD_DIR, BENCH_API_PORT, INGEST_BENCH_NODES, PGBENCH) and
# how the stack is found or started: src/bench/bench-lib.sh, as for ingest-bench.sh. The report goes to stdout
# and to <build dir>/bench/mix-bench-<time>.md, preceded by the machine's facts. Options: MixBenchMain with
# none prints them (io.wecominbox.devstack.bench.MixBenchOptions).
. "$(dirname "$0")/bench-lib.sh"
bench_prepare mix-bench
# beside the report: every first attempt of the steps with its due instant, to lay a slow second beside the GC log
bench_run mix-bench io.wecominbox.devstack.bench.MixBenchMain --command "src/bench/mix-bench.sh${*:+ $*}" \
  --ack-log "$OUT_DIR/mix-bench-$STAMP-acks.csv" "$@"
