#!/usr/bin/env bash
# Redis for WeCom Inbox's dedup hot tier. Usage: redis.sh start | stop | status
#   Test runs (STACK_FRESH=true) with a redis-server binary: a private, empty, non-persistent Redis on
#   REDIS_PORT (default 6390) that tests may stop and start; pid under target/stack/pids.
#   Otherwise: the configured Redis (REDIS_HOST:REDIS_PORT) if it answers; else none, and the application
#   falls back to its in-process hot tier (one node only).
# The outcome goes to target/stack/redis.env (REDIS_HOST, REDIS_PORT, REDIS_OWNED) for stack.sh and tests;
# a later `redis.sh start` (a test restarting Redis) brings back the same private instance.
. "$(dirname "$0")/lib.sh"
PID_FILE=$STACK_DIR/pids/redis.pid
STATE=$STACK_DIR/redis.env
DATA_DIR=$STACK_DIR/redis

write_state() { # host port owned
  printf 'REDIS_HOST=%s\nREDIS_PORT=%s\nREDIS_OWNED=%s\n' "$1" "$2" "$3" > "$STATE"
}

start_private() { # port
  mkdir -p "$DATA_DIR"
  if port_open 127.0.0.1 "$1"; then
    die "port $1 is taken by something this stack did not start: choose another REDIS_PORT"
  fi
  log "starting a private Redis on 127.0.0.1:$1 (no persistence)"
  setsid nohup redis-server --bind 127.0.0.1 --port "$1" --save "" --appendonly no --dir "$DATA_DIR" \
    --protected-mode yes > "$STACK_DIR/logs/redis.log" 2>&1 < /dev/null &
  echo $! > "$PID_FILE"
  local i
  for ((i = 0; i < 50; i++)); do
    port_open 127.0.0.1 "$1" && { write_state 127.0.0.1 "$1" true; return 0; }
    pid_alive "$PID_FILE" || die "Redis exited at start; see $STACK_DIR/logs/redis.log"
    sleep 0.2
  done
  die "Redis did not open 127.0.0.1:$1 within 10 s; see $STACK_DIR/logs/redis.log"
}

start() {
  if pid_alive "$PID_FILE"; then
    if [ "${STACK_FRESH:-false}" != true ]; then log "private Redis already running (pid $(cat "$PID_FILE"))"; return; fi
    stop # a test run starts from an empty Redis
  fi
  # a restart by a test: the same private instance again
  if [ -f "$STATE" ] && grep -q '^REDIS_OWNED=true' "$STATE" && [ "${STACK_FRESH:-false}" != true ]; then
    start_private "$(sed -n 's/^REDIS_PORT=//p' "$STATE")"; return
  fi
  if [ "${STACK_FRESH:-false}" = true ] && command -v redis-server >/dev/null 2>&1; then
    start_private "$REDIS_PORT"; return
  fi
  if [ -n "$REDIS_HOST" ] && port_open "$REDIS_HOST" "$REDIS_PORT"; then
    log "using the Redis at $REDIS_HOST:$REDIS_PORT (not ours: tests will not stop it)"
    write_state "$REDIS_HOST" "$REDIS_PORT" false; return
  fi
  log "no Redis at ${REDIS_HOST:-?}:$REDIS_PORT and no redis-server to start: the app uses its in-process hot tier"
  write_state "" "$REDIS_PORT" false
}

stop() { stop_pid_file "$PID_FILE" "the private Redis"; }

case ${1:-start} in
  start) start ;;
  stop) stop ;;
  status) pid_alive "$PID_FILE" && echo "running $(cat "$PID_FILE")" || echo stopped ;;
  *) die "usage: redis.sh start|stop|status" ;;
esac
