#!/usr/bin/env bash
# The WeCom Inbox dev stack: PostgreSQL (XA), Artemis, Redis if there is one, Liberty with the app.
#   stack.sh run             build, start everything, print the URLs; Ctrl-C stops what it started
#   stack.sh stop            stop everything a previous run started
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
    local name
    # ARTEMIS_*: the queue-depth metrics read the broker's management API (Jolokia) on the console port
    for name in DB_HOST DB_PORT DB_NAME DB_USER DB_PASSWORD BROKER_HOST BROKER_PORT BROKER_USER \
                BROKER_PASSWORD REDIS_HOST REDIS_PORT HTTP_PORT HTTPS_PORT ADMIN_USER ADMIN_PASSWORD KEYSTORE_PASSWORD \
                ARTEMIS_CONSOLE_PORT ARTEMIS_ADMIN_USER ARTEMIS_ADMIN_PASSWORD $(wecom_app_variables); do
      printf '%s=%s\n' "$name" "${!name}"
    done
  } > "$SERVER_DIR/server.env.new"
  chmod 600 "$SERVER_DIR/server.env.new"; mv "$SERVER_DIR/server.env.new" "$SERVER_DIR/server.env"
}

migrate() {
  log "migrating the schema (Flyway, src/main/resources/db/migration)"
  java -cp "$("$HERE/classpath.sh")" io.wecominbox.devstack.MigrateMain
}

# The settings this stack really uses (non-secret), for tests and tools to read back.
write_stack_env() {
  local name
  for name in DB_HOST DB_PORT DB_NAME DB_USER BROKER_HOST BROKER_PORT BROKER_USER ARTEMIS_CONSOLE_PORT \
              ARTEMIS_ADMIN_USER REDIS_HOST REDIS_PORT HTTP_PORT HTTPS_PORT ADMIN_USER; do
    printf '%s=%s\n' "$name" "${!name}"
  done > "$STACK_DIR/stack.env"
}

services_start() {
  if [ "${STACK_FRESH:-false}" = true ]; then
    # the server's transaction log must not outlive the database and journal it refers to
    rm -rf "$SERVER_DIR/tranlog"
  fi
  write_stack_env
  "$HERE/postgres.sh" ensure
  "$HERE/artemis.sh" start
  if port_open "$REDIS_HOST" "$REDIS_PORT"; then log "Redis answers at $REDIS_HOST:$REDIS_PORT"
  else log "no Redis at $REDIS_HOST:$REDIS_PORT"; fi
  migrate
  write_liberty_env
}

services_stop() {
  "$HERE/artemis.sh" stop || true
  "$HERE/postgres.sh" stop || true
}

liberty_pid() { cat "$WLP_DIR/usr/servers/.pid/$LIBERTY_SERVER.pid" 2>/dev/null; }

liberty_stop() {
  [ -x "$WLP_DIR/bin/server" ] || return 0
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
shutdown() {
  trap - INT TERM EXIT
  log "stopping"
  [ -n "$TAIL_PID" ] && kill "$TAIL_PID" 2>/dev/null
  liberty_stop
  liberty_undeploy
  services_stop
  exit 0
}

run() {
  trap shutdown INT TERM EXIT
  build_for_run
  services_start
  log "starting Liberty"
  "$WLP_DIR/bin/server" start "$LIBERTY_SERVER" >/dev/null
  wait_ready
  cat >&2 <<TXT

  WeCom Inbox is up.
    app (callbacks)   http://127.0.0.1:$HTTP_PORT/wecom/callback/{app}
    health            http://127.0.0.1:$HTTP_PORT/health
    dashboard         http://127.0.0.1:$HTTP_PORT/dashboard/  (user $ADMIN_USER, password ADMIN_PASSWORD in $SECRETS_FILE)
    metrics           https://127.0.0.1:$HTTPS_PORT/metrics   (same login; HTTPS only, self-signed in dev)
    admin API         http://127.0.0.1:$HTTP_PORT/openapi/ui
    broker console    http://127.0.0.1:$ARTEMIS_CONSOLE_PORT/console  (user $ARTEMIS_ADMIN_USER, password in $SECRETS_FILE)
    database          postgresql://$DB_USER@$DB_HOST:$DB_PORT/$DB_NAME  (password in $SECRETS_FILE)
    server log        $SERVER_DIR/logs/messages.log
  Ctrl-C stops everything this command started.

TXT
  tail -n 0 -F "$SERVER_DIR/logs/messages.log" &
  TAIL_PID=$!
  wait
}

case ${1:-} in
  run) run ;;
  stop) liberty_stop; liberty_undeploy; services_stop ;;
  services-start) services_start ;;
  services-stop) services_stop ;;
  status)
    "$HERE/artemis.sh" status
    curl -fsS "http://127.0.0.1:$HTTP_PORT/health" 2>/dev/null || echo "Liberty: not answering" ;;
  *) die "usage: stack.sh run|stop|services-start|services-stop|status" ;;
esac
