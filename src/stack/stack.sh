#!/usr/bin/env bash
# The WeCom Inbox dev stack: PostgreSQL (XA), Artemis, Redis (see redis.sh), Liberty with the app.
#   stack.sh run [--nodes 2] [--no-demo]
#                            build, start everything, print the URLs, then let the WeCom simulator feed the
#                            app a realistic stream (and play WeCom's API); Ctrl-C stops what it started.
#                            --nodes 2: a second Liberty node (nodes.sh) and HAProxy (haproxy.sh) in front of
#                            both on LB_PORT, the public callback port the demo then posts to
#   stack.sh dev [--no-demo] [--keep-services]
#                            the same services, then `mvn liberty:dev` (hot reload of src/main) with the simulator
#                            in the background; q stops it
#   stack.sh stop            stop everything a previous run started (every node, HAProxy)
#   stack.sh services-start  database + broker + schema only (what `mvn verify` uses around its tests)
#   stack.sh services-stop
#   stack.sh status
. "$(dirname "$0")/lib.sh"
load_secrets
HERE=$ROOT/src/stack

# Liberty reads its server.env at start: the non-secret one from liberty/ plus this run's secrets
# and connection settings. (The plugin writes it without a trailing newline: never append blindly.)
write_liberty_env() {
  [ -d "$SERVER_DIR" ] || return 0
  {
    [ -f "$ROOT/liberty/server.env" ] && sed -e '$a\' "$ROOT/liberty/server.env"
    liberty_env_lines
  } > "$SERVER_DIR/server.env.new"
  chmod 600 "$SERVER_DIR/server.env.new"; mv "$SERVER_DIR/server.env.new" "$SERVER_DIR/server.env"
}

# NAME=value, one per line: what the server needs from this stack (its secrets included).
liberty_env_lines() {
  local name
  # ARTEMIS_MONITOR_*: queue depths and the route check read the broker's management API (Jolokia) on the
  # console port as the read-only monitor user; the console admin's password never reaches the server
  for name in DB_HOST DB_PORT DB_NAME DB_USER DB_PASSWORD BROKER_HOST BROKER_PORT BROKER_BACKUP_PORT BROKER_USER \
              BROKER_PASSWORD REDIS_HOST REDIS_PORT HTTP_PORT HTTPS_PORT ADMIN_USER ADMIN_PASSWORD KEYSTORE_PASSWORD \
              ARTEMIS_CONSOLE_PORT ARTEMIS_MONITOR_USER ARTEMIS_MONITOR_PASSWORD WECOM_API_BASE_URL \
              $(wecom_app_variables) $(handler_text_variables); do
    printf '%s=%s\n' "$name" "${!name:-}"
  done
  # the dev and test stack call the admin API and the dashboard over plain HTTP (127.0.0.1 only); production
  # keeps the default, HTTPS only (docs/deploy.md, "The admin login")
  printf 'WECOM_SECURITY_ADMIN_REQUIRES_TLS=%s\n' "${WECOM_SECURITY_ADMIN_REQUIRES_TLS:-false}"
  # the simulator, the benchmarks and HAProxy post from 127.0.0.1, up to 500 callbacks/s: exempt from the
  # per-source limits, which are for the internet (SlowClientsIT attacks from 127.0.0.2 and up)
  printf 'WECOM_INGEST_LIMIT_EXEMPT_SOURCES=%s\n' "${WECOM_INGEST_LIMIT_EXEMPT_SOURCES:-127.0.0.1}"
}

# Welcome and bot texts (wecom.welcome.<app>.text, wecom.bot.<app>.reply-text) as environment variables.
handler_text_variables() { compgen -v | grep -E '^WECOM_(WELCOME|BOT)_[A-Z0-9_]+$' || true; }

# The demo apps get a welcome and a bot reply unless you configured your own (not for test runs: the tests
# configure theirs in src/test/liberty). ASCII on purpose: the JVM decodes environment variables with the
# locale's charset; non-ASCII texts belong in a server.xml <variable> (UTF-8), as the tests' drop-in shows.
demo_handler_texts() {
  local app upper name
  for app in ${WECOM_APPS//,/ }; do
    upper=$(printf '%s' "$app" | tr 'a-z-' 'A-Z_')
    name=WECOM_WELCOME_${upper}_TEXT
    [ -n "${!name:-}" ] || export "$name=Hello, thanks for adding us! This is the $app team: ask us anything here."
    name=WECOM_BOT_${upper}_REPLY_TEXT
    [ -n "${!name:-}" ] || export "$name=Got it, we will get back to you soon. (auto-reply from $app)"
  done
}

# Test runs: the server calls the WeCom API simulator that the integration tests run in their own JVM on
# this fixed port (WECOM_SIM_API_PORT, default 9091), never the real WeCom.
use_test_wecom_api() {
  : "${WECOM_SIM_API_PORT:=9091}"
  WECOM_API_BASE_URL=http://127.0.0.1:$WECOM_SIM_API_PORT
  export WECOM_SIM_API_PORT WECOM_API_BASE_URL
}

migrate() {
  log "migrating the schema (Flyway, src/main/resources/db/migration)"
  java -cp "$("$HERE/classpath.sh")" io.wecominbox.devstack.MigrateMain
}

# The Redis redis.sh settled on (a private one, the configured one, or none: REDIS_HOST empty).
use_redis_state() {
  local state=$STACK_DIR/redis.env
  [ -f "$state" ] || return 0
  REDIS_HOST=$(sed -n 's/^REDIS_HOST=//p' "$state"); REDIS_PORT=$(sed -n 's/^REDIS_PORT=//p' "$state")
  REDIS_OWNED=$(sed -n 's/^REDIS_OWNED=//p' "$state")
  export REDIS_HOST REDIS_PORT REDIS_OWNED
}

# The settings this stack really uses (non-secret), for tests and tools to read back.
write_stack_env() {
  local name
  for name in DB_HOST DB_PORT DB_NAME DB_USER BROKER_HOST BROKER_PORT BROKER_USER ARTEMIS_CONSOLE_PORT \
              BROKER_BACKUP_PORT ARTEMIS_BACKUP_CONSOLE_PORT ARTEMIS_ADMIN_USER ARTEMIS_MONITOR_USER REDIS_HOST REDIS_PORT \
              REDIS_OWNED HTTP_PORT HTTPS_PORT WECOM_SIM_API_PORT \
              WECOM_API_BASE_URL ADMIN_USER; do
    printf '%s=%s\n' "$name" "${!name:-}"
  done > "$STACK_DIR/stack.env"
}

services_start() {
  if [ "${STACK_FRESH:-false}" = true ]; then
    # the transaction log lives in the test database (schema wecom_tranlog), which the run recreates; a file
    # log left by a server from before that (node 1's or a further node's, nodes.sh) must not outlive the
    # database and journal it refers to either
    rm -rf "$SERVER_DIR/tranlog" "$SERVER_DIR"[0-9]*/tranlog
    # an aborted run leaves its deployment behind (a crash suite's app drop-in, Arquillian's dropins WAR);
    # the next run's own deploy would then clash with it ("two applications called wecom-inbox")
    rm -f "$SERVER_DIR/configDropins/overrides/crash-test-app.xml" "$SERVER_DIR/dropins/wecom-inbox.war"
    use_test_wecom_api
  fi
  write_stack_env
  "$HERE/postgres.sh" ensure
  "$HERE/artemis.sh" start
  "$HERE/redis.sh" start
  use_redis_state
  write_stack_env
  migrate
  write_liberty_env
}

services_stop() {
  "$HERE/redis.sh" stop || true
  # the backup first: the primary's shutdown would otherwise hand the journal over to it (failover-on-shutdown)
  "$HERE/artemis.sh" stop-backup || true
  "$HERE/artemis.sh" stop || true
  "$HERE/postgres.sh" stop || true
}

liberty_pid() { cat "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid" 2>/dev/null; }

liberty_stop() {
  [ -x "$WLP_DIR/bin/server" ] || return 0
  "$HERE/haproxy.sh" stop || true
  local dir
  for dir in "$SERVER_DIR"[0-9]*; do # the further nodes first (nodes.sh): node 1 holds their configuration
    [ -d "$dir" ] && { "$HERE/nodes.sh" stop "${dir##*"$LIBERTY_SERVER"}" || true; }
  done
  "$WLP_DIR/bin/server" stop "$LIBERTY_SERVER" >/dev/null 2>&1 || true
}

# liberty:deploy leaves the app installed in the server; Arquillian (mvn verify) deploys its own copy of
# the same name, and the two clash (its test runner is then missing). Undo the deploy when a run ends.
liberty_undeploy() {
  rm -f "$SERVER_DIR"/configDropins/defaults/install_apps_configuration_*.xml "$SERVER_DIR/apps/wecom-inbox.war.xml"
}

build_for_run() {
  log "building the app and the Liberty server (mvn package, liberty:create, liberty:deploy)"
  (cd "$ROOT" && mvn -B -q -DskipTests -Dstack.skip=true -Dit.config.skip=true \
      -Dwecom.build.dir="$BUILD_DIR" -Dliberty.server="$LIBERTY_SERVER" \
      pre-integration-test liberty:deploy >&2)
  rm -f "$SERVER_DIR/configDropins/overrides/arquillian.xml"
}

wait_ready() {
  local i
  for i in $(seq 1 180); do
    curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1 && return 0
    pid_alive "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid" || die "Liberty exited; see $SERVER_DIR/logs/messages.log"
    sleep 1
  done
  die "Liberty not ready after 180 s; see $SERVER_DIR/logs/messages.log"
}

TAIL_PID=
SIMULATOR_PID=
shutdown() {
  trap - INT TERM EXIT
  # Best effort from here on: one step failing (e.g. the simulator already finished, so kill fails) must
  # not leave the server, the broker or Redis running.
  set +e
  log "stopping"
  [ -n "$TAIL_PID" ] && kill "$TAIL_PID" 2>/dev/null
  [ -n "$SIMULATOR_PID" ] && kill "$SIMULATOR_PID" 2>/dev/null
  liberty_stop
  liberty_undeploy
  services_stop
  exit 0
}

# The simulator reads the same wecom.apps / wecom.app.<name>.* keys as the app: give it this run's.
write_simulator_config() {
  local file=$STACK_DIR/simulator.properties name key
  ( umask 077
    printf 'wecom.apps=%s\n' "$WECOM_APPS"
    for name in $(wecom_app_variables); do
      [ "$name" = WECOM_APPS ] && continue
      key=$(printf '%s' "${name#WECOM_APP_}" | tr 'A-Z_' 'a-z-')
      # WECOM_APP_CUSTOMER_CORP_ID -> wecom.app.customer.corp-id (app names here have no underscore)
      printf 'wecom.app.%s.%s=%s\n' "${key%%-*}" "${key#*-}" "${!name}"
    done ) > "$file"
  echo "$file"
}

start_demo() { # public port (the node's, or the load balancer's)
  local config
  config=$(write_simulator_config)
  log "the WeCom simulator feeds the app a realistic stream (scenario demo; its fake API on :$SIMULATOR_API_PORT)"
  java -cp "$("$HERE/classpath.sh")" io.wecominbox.simulator.SimulatorMain --config "$config" \
      --callback-base "http://127.0.0.1:$1/wecom/callback" --api-port "$SIMULATOR_API_PORT" \
      --scenario demo --time-scale 0.1 --status-every-s 5 --linger-s 5 &
  SIMULATOR_PID=$!
}

run() {
  local demo=true nodes=1
  while [ $# -gt 0 ]; do
    case $1 in
      --no-demo) demo=false ;;
      --nodes) nodes=${2:-}; shift ;;
      *) die "usage: stack.sh run [--nodes 2] [--no-demo]" ;;
    esac
    shift
  done
  [[ $nodes =~ ^[12]$ ]] || die "--nodes takes 1 or 2"
  trap shutdown INT TERM EXIT
  : "${SIMULATOR_API_PORT:=9090}"
  # With the demo, the app calls the simulator instead of WeCom (unless you configured a base URL)
  [ $demo = true ] && export WECOM_API_BASE_URL=${WECOM_API_BASE_URL:-http://127.0.0.1:$SIMULATOR_API_PORT}
  demo_handler_texts
  build_for_run
  services_start
  log "starting Liberty"
  "$WLP_DIR/bin/server" start "$LIBERTY_SERVER" >/dev/null
  wait_ready
  local public_port=$HTTP_PORT
  if [ "$nodes" = 2 ]; then
    "$HERE/nodes.sh" start 2
    : "${LB_PORT:=$((HTTP_PORT + 2))}"; export LB_PORT
    LB_NODES=2 "$HERE/haproxy.sh" start
    public_port=$LB_PORT
    cat >&2 <<TXT

  Two nodes behind HAProxy (src/stack/haproxy.sh status shows which ones it routes to).
    load balancer     http://127.0.0.1:$LB_PORT/wecom/callback/{app}   <- WeCom's callback URL
    HAProxy stats     http://127.0.0.1:${LB_STATS_PORT:-$((LB_PORT + 100))}/
    node 1            http://127.0.0.1:$HTTP_PORT  ($LIBERTY_SERVER, log $SERVER_DIR/logs/messages.log)
    node 2            http://127.0.0.1:${NODE2_HTTP_PORT:-$((HTTP_PORT + 1))}  (${LIBERTY_SERVER}2, log ${SERVER_DIR}2/logs/messages.log)
  The URLs below are node 1's.
TXT
  fi
  cat >&2 <<TXT

  WeCom Inbox is up.
    app (callbacks)   http://127.0.0.1:$public_port/wecom/callback/{app}
    health            http://127.0.0.1:$HTTP_PORT/health
    dashboard         http://127.0.0.1:$HTTP_PORT/dashboard/  (user $ADMIN_USER, password ADMIN_PASSWORD in $SECRETS_FILE)
    metrics           https://127.0.0.1:$HTTPS_PORT/metrics   (same login; HTTPS only, self-signed in dev)
    admin API         http://127.0.0.1:$HTTP_PORT/openapi/ui
    broker console    http://127.0.0.1:$ARTEMIS_CONSOLE_PORT/console  (user $ARTEMIS_ADMIN_USER, password in $SECRETS_FILE)
    database          postgresql://$DB_USER@$DB_HOST:$DB_PORT/$DB_NAME  (password in $SECRETS_FILE)
    server log        $SERVER_DIR/logs/messages.log
  Ctrl-C stops everything this command started.

TXT
  local logs=("$SERVER_DIR/logs/messages.log")
  [ "$nodes" = 2 ] && logs+=("${SERVER_DIR}2/logs/messages.log")
  if [ $demo = true ]; then
    start_demo "$public_port"
    # the servers' warnings and errors, not their whole logs, beside the simulator's status lines
    tail -n 0 -F "${logs[@]}" | grep --line-buffered -E ' [WE] ' &
  else
    tail -n 0 -F "${logs[@]}" &
  fi
  TAIL_PID=$!
  wait
}

# `mvn liberty:dev` against the dev services: the server is built once with the pieces dev mode does not
# copy (the resource adapter, the JDBC classes), then dev mode recompiles and redeploys on every change under
# src/main; the app calls the WeCom simulator's fake API, which also plays the demo stream once the server is
# ready (--no-demo: the API only). Press q (or Ctrl-C) to stop; the services stop too unless --keep-services.
SIMULATOR_LOG=
dev() {
  local demo=true keep_services=false status=0
  while [ $# -gt 0 ]; do
    case $1 in
      --no-demo) demo=false ;;
      --keep-services) keep_services=true ;;
      *) die "usage: stack.sh dev [--no-demo] [--keep-services]" ;;
    esac
    shift
  done
  : "${SIMULATOR_API_PORT:=9090}"
  export WECOM_API_BASE_URL=${WECOM_API_BASE_URL:-http://127.0.0.1:$SIMULATOR_API_PORT}
  demo_handler_texts
  build_for_run
  liberty_undeploy # dev mode deploys the app itself, as a loose application
  services_start
  trap 'dev_stop $keep_services' EXIT
  trap 'exit 130' INT TERM
  start_simulator_for_dev $demo
  # dev mode rewrites the server's server.env from liberty/: this stack's settings and secrets reach the
  # server through the environment it inherits instead
  local line
  while IFS= read -r line; do export "${line%%=*}=${line#*=}"; done < <(liberty_env_lines)
  log "mvn liberty:dev: http://127.0.0.1:$HTTP_PORT/health, dashboard http://127.0.0.1:$HTTP_PORT/dashboard/;" \
      "simulator log $SIMULATOR_LOG; q stops"
  (cd "$ROOT" && mvn -Dstack.skip=true -Dit.config.skip=true -DskipITs=true -Dwecom.build.dir="$BUILD_DIR" \
      -Dliberty.server="$LIBERTY_SERVER" liberty:dev) || status=$?
  exit $status
}

start_simulator_for_dev() { # demo?
  local config args
  config=$(write_simulator_config)
  SIMULATOR_LOG=$STACK_DIR/logs/simulator.log
  if [ "$1" = true ]; then
    # the demo's callbacks go out once the server is ready; the API stays up for a day after the last one
    args=(--callback-base "http://127.0.0.1:$HTTP_PORT/wecom/callback" --scenario demo --time-scale 0.1
          --status-every-s 30 --linger-s 86400)
    ( for _ in $(seq 1 600); do
        curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1 && break; sleep 1
      done
      exec java -cp "$("$HERE/classpath.sh")" io.wecominbox.simulator.SimulatorMain --config "$config" \
          --api-port "$SIMULATOR_API_PORT" "${args[@]}" ) > "$SIMULATOR_LOG" 2>&1 &
  else
    java -cp "$("$HERE/classpath.sh")" io.wecominbox.simulator.SimulatorMain --config "$config" \
        --api-port "$SIMULATOR_API_PORT" --api-only > "$SIMULATOR_LOG" 2>&1 &
  fi
  SIMULATOR_PID=$!
}

dev_stop() { # keep services?
  trap - INT TERM EXIT
  set +e
  [ -n "$SIMULATOR_PID" ] && { pkill -P "$SIMULATOR_PID" 2>/dev/null; kill "$SIMULATOR_PID" 2>/dev/null; }
  "$WLP_DIR/bin/server" stop "$LIBERTY_SERVER" >/dev/null 2>&1 # dev mode stops it; this is for a killed one
  liberty_undeploy
  [ "$1" = true ] || services_stop
}

case ${1:-} in
  run) shift; run "$@" ;;
  dev) shift; dev "$@" ;;
  stop) liberty_stop; liberty_undeploy; services_stop ;;
  services-start) services_start ;;
  services-stop) services_stop ;;
  status)
    "$HERE/artemis.sh" status
    printf 'live broker: '; "$HERE/artemis.sh" live || true
    "$HERE/haproxy.sh" status
    for dir in "$SERVER_DIR"[0-9]*; do [ -d "$dir" ] && "$HERE/nodes.sh" status "${dir##*"$LIBERTY_SERVER"}"; done
    curl -fsS "http://127.0.0.1:$HTTP_PORT/health" 2>/dev/null || echo "Liberty: not answering" ;;
  *) die "usage: stack.sh run [--nodes 2] [--no-demo]|dev [--no-demo] [--keep-services]|stop|services-start|services-stop|status" ;;
esac
