#!/usr/bin/env bash
# docs/deploy.md followed literally, on a broker made by `artemis create` and a Liberty server made by
# `server create` (never the build's generated server): the check CI runs (deploy/DeployCheckIT, its own
# Failsafe execution). Each step names its section of docs/deploy.md.
#   deploy-check.sh prepare                artifacts, database + schema, broker, Liberty server (sections 1-4)
#   deploy-check.sh start [--without VAR]  start the server; with --without, VAR unset: it must stop by itself
#   deploy-check.sh stop-server            stop the server
#   deploy-check.sh stop                   stop the server and the broker
# Its own ports and names, away from the dev/test stack's (9080/9443/61616/8161); override by environment:
#   DEPLOY_HTTP_PORT 9089, DEPLOY_HTTPS_PORT 9449, DEPLOY_BROKER_PORT 61619, DEPLOY_CONSOLE_PORT 8169,
#   DEPLOY_SIM_API_PORT 9098 (the WeCom API the server calls), DEPLOY_LIBERTY_SERVER wecomDeployCheck.
# PostgreSQL: the one the stack uses (target/stack/stack.env), as "someone else's" server: a role and a
# database of the check's own are created in it (DEPLOY_DB_NAME wecom_deploy_check_test, DEPLOY_DB_USER
# wecom_deploy). WECOM_APPS / WECOM_APP_* come from the caller's environment.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${WECOM_BUILD_DIR:-$ROOT/target}
DIR=$BUILD_DIR/deploy-check
: "${DEPLOY_HTTP_PORT:=9089}" "${DEPLOY_HTTPS_PORT:=9449}" "${DEPLOY_BROKER_PORT:=61619}"
: "${DEPLOY_CONSOLE_PORT:=8169}" "${DEPLOY_SIM_API_PORT:=9098}" "${DEPLOY_LIBERTY_SERVER:=wecomDeployCheck}"
: "${DEPLOY_DB_NAME:=wecom_deploy_check_test}" "${DEPLOY_DB_USER:=wecom_deploy}"
WLP=$BUILD_DIR/liberty/wlp
SERVER_DIR=$WLP/usr/servers/$DEPLOY_LIBERTY_SERVER
BROKER=$DIR/broker
mkdir -p "$DIR/logs" "$DIR/artifacts"

log() { printf '[deploy-check] %s\n' "$*" >&2; }
die() { printf '[deploy-check] FAILED: %s\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
stack_value() { sed -n "s/^$1=//p" "$BUILD_DIR/stack/stack.env" 2>/dev/null | tail -n 1; }
random_secret() { head -c 18 /dev/urandom | base64 | tr -d '/+=' | head -c 20; }

# This run's secrets, made once by prepare (mode 0600, under target/, never committed).
SECRETS=$DIR/secrets.env
load_secrets() {
  [ -f "$SECRETS" ] || die "run prepare first"
  . "$SECRETS"
}

DB_HOST_USED=${DEPLOY_DB_HOST:-$(stack_value DB_HOST)}; DB_HOST_USED=${DB_HOST_USED:-127.0.0.1}
DB_PORT_USED=${DEPLOY_DB_PORT:-$(stack_value DB_PORT)}; DB_PORT_USED=${DB_PORT_USED:-5432}

# The settings of docs/deploy.md section 4, as the environment the server starts with.
server_environment() {
  export DB_HOST=$DB_HOST_USED DB_PORT=$DB_PORT_USED DB_NAME=$DEPLOY_DB_NAME DB_USER=$DEPLOY_DB_USER
  export BROKER_HOST=127.0.0.1 BROKER_PORT=$DEPLOY_BROKER_PORT BROKER_USER=wecom
  # one broker, no pair (docs/deploy.md): nothing else is tried when it refuses
  export BROKER_CONNECTION_PARAMETERS="host=127.0.0.1;port=$DEPLOY_BROKER_PORT"
  export BROKER_CONNECTOR_CLASSES=org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory
  export HTTP_PORT=$DEPLOY_HTTP_PORT HTTPS_PORT=$DEPLOY_HTTPS_PORT ADMIN_USER=admin
  # the read-only management user of section 3, never the broker's admin
  export WECOM_BROKER_MANAGEMENT_URL=http://127.0.0.1:$DEPLOY_CONSOLE_PORT/console/jolokia
  export WECOM_BROKER_MANAGEMENT_USER=wecom-monitor WECOM_BROKER_MANAGEMENT_PASSWORD=$ARTEMIS_MONITOR_PASSWORD
  export REDIS_HOST= # section 5: no Redis, the hot tier runs in-process
  export WECOM_API_BASE_URL=http://127.0.0.1:$DEPLOY_SIM_API_PORT
  export DB_PASSWORD BROKER_PASSWORD ADMIN_PASSWORD KEYSTORE_PASSWORD
  local app upper
  for app in ${WECOM_APPS//,/ }; do
    upper=$(printf '%s' "$app" | tr 'a-z-' 'A-Z_')
    export "WECOM_WELCOME_${upper}_TEXT=Welcome (deploy check)" "WECOM_BOT_${upper}_REPLY_TEXT=Noted (deploy check)"
  done
}

devtools() { java -cp "$("$ROOT/src/stack/classpath.sh")" "$@"; }

prepare() {
  [ -n "${WECOM_APPS:-}" ] || die "WECOM_APPS and WECOM_APP_* must be set (the apps the server serves)"
  ( umask 077
    printf 'DB_PASSWORD=%s\nBROKER_PASSWORD=%s\nADMIN_PASSWORD=%s\nKEYSTORE_PASSWORD=%s\nARTEMIS_ADMIN_PASSWORD=%s\n' \
      "$(random_secret)" "$(random_secret)" "$(random_secret)" "$(random_secret)" "$(random_secret)" > "$SECRETS"
    printf 'ARTEMIS_MONITOR_PASSWORD=%s\n' "$(random_secret)" >> "$SECRETS" )
  load_secrets

  log "1. artifacts"
  local a
  for a in wecom-inbox.war artemis.rar wecom-inbox-jdbc.jar; do
    [ -f "$BUILD_DIR/$a" ] || die "$BUILD_DIR/$a missing: build first (mvn -DskipTests package)"
  done
  local pg_version
  pg_version=$(sed -n 's:.*<postgresql.version>\(.*\)</postgresql.version>.*:\1:p' "$ROOT/pom.xml" | head -n 1)
  (cd "$DIR/artifacts" && mvn -B -q -ntp -f "$ROOT/pom.xml" dependency:copy \
      "-Dartifact=org.postgresql:postgresql:$pg_version" "-DoutputDirectory=$DIR/artifacts" >&2)
  [ -f "$DIR/artifacts/postgresql-$pg_version.jar" ] || die "no PostgreSQL driver $pg_version"

  log "2. PostgreSQL at $DB_HOST_USED:$DB_PORT_USED: role $DEPLOY_DB_USER, database $DEPLOY_DB_NAME, schema"
  # DatabasePrepMain: the no-psql route of section 2 (checks max_prepared_transactions, creates role and
  # database); STACK_FRESH drops an earlier run's database first
  DB_HOST=$DB_HOST_USED DB_PORT=$DB_PORT_USED DB_NAME=$DEPLOY_DB_NAME DB_USER=$DEPLOY_DB_USER \
    DB_PASSWORD=$DB_PASSWORD STACK_FRESH=true devtools io.wecominbox.devstack.DatabasePrepMain \
    || die "database preparation failed"
  DB_HOST=$DB_HOST_USED DB_PORT=$DB_PORT_USED DB_NAME=$DEPLOY_DB_NAME DB_USER=$DEPLOY_DB_USER \
    DB_PASSWORD=$DB_PASSWORD devtools io.wecominbox.devstack.MigrateMain || die "migrations failed"

  log "3. Artemis: artemis create, the application's broker and management files merged, users wecom (role app)"
  log "   and wecom-monitor (role monitor, read-only management)"
  stop_broker
  local home
  home=$(ls -d "$BUILD_DIR"/artemis-dist/apache-artemis-* 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$home" ] || (cd "$ROOT" && mvn -B -q -ntp dependency:unpack@unpack-artemis >&2)
  home=$(ls -d "$BUILD_DIR"/artemis-dist/apache-artemis-* | sort -V | tail -n 1)
  rm -rf "$BROKER"
  # only the core acceptor: the other protocols' default ports would clash with other brokers here
  "$home/bin/artemis" create --silent --force --name wecom-deploy-check --user admin \
    --password "$ARTEMIS_ADMIN_PASSWORD" --role amq --require-login \
    --host 127.0.0.1 --default-port "$DEPLOY_BROKER_PORT" --http-host 127.0.0.1 --http-port "$DEPLOY_CONSOLE_PORT" \
    --no-amqp-acceptor --no-mqtt-acceptor --no-stomp-acceptor --no-hornetq-acceptor \
    --java-memory 512M "$BROKER" > "$DIR/logs/artemis-create.log" 2>&1 || die "artemis create failed"
  java "$ROOT/src/devstack/java/io/wecominbox/devstack/MergeBrokerFragment.java" \
    "$BROKER/etc/broker.xml" "$ROOT/src/main/broker/wecom-inbox-broker.xml" || die "merge failed"
  java "$ROOT/src/devstack/java/io/wecominbox/devstack/MergeManagementFragment.java" \
    "$BROKER/etc/management.xml" "$ROOT/src/main/broker/wecom-inbox-management.xml" || die "management merge failed"
  grep -q "^HAWTIO_ROLES='[^']*'" "$BROKER/etc/artemis.profile" || die "no HAWTIO_ROLES in etc/artemis.profile"
  sed -i "s/^HAWTIO_ROLES='\([^']*\)'/HAWTIO_ROLES='\1,monitor'/" "$BROKER/etc/artemis.profile"
  setsid nohup "$BROKER/bin/artemis" run > "$DIR/logs/artemis.log" 2>&1 < /dev/null &
  echo $! > "$DIR/artemis.pid"
  local i
  for ((i = 0; i < 300; i++)); do port_open "$DEPLOY_BROKER_PORT" && break; sleep 0.2; done
  port_open "$DEPLOY_BROKER_PORT" || die "broker did not start; see $DIR/logs/artemis.log"
  "$BROKER/bin/artemis" user add --silent --url "tcp://127.0.0.1:$DEPLOY_BROKER_PORT" --user admin \
    --password "$ARTEMIS_ADMIN_PASSWORD" --user-command-user wecom --user-command-password "$BROKER_PASSWORD" \
    --role app > "$DIR/logs/artemis-user.log" 2>&1 || die "artemis user add failed; see $DIR/logs/artemis-user.log"
  "$BROKER/bin/artemis" user add --silent --url "tcp://127.0.0.1:$DEPLOY_BROKER_PORT" --user admin \
    --password "$ARTEMIS_ADMIN_PASSWORD" --user-command-user wecom-monitor \
    --user-command-password "$ARTEMIS_MONITOR_PASSWORD" --role monitor >> "$DIR/logs/artemis-user.log" 2>&1 \
    || die "artemis user add (wecom-monitor) failed; see $DIR/logs/artemis-user.log"

  log "4. Liberty: server create $DEPLOY_LIBERTY_SERVER and the documented pieces"
  [ -x "$WLP/bin/server" ] || die "no Liberty runtime at $WLP (mvn liberty:create installs one)"
  "$WLP/bin/server" stop "$DEPLOY_LIBERTY_SERVER" > /dev/null 2>&1 || true
  rm -rf "$SERVER_DIR"
  "$WLP/bin/server" create "$DEPLOY_LIBERTY_SERVER" > "$DIR/logs/server-create.log" 2>&1 || die "server create failed"
  mkdir -p "$SERVER_DIR/jdbc" "$SERVER_DIR/resources" "$SERVER_DIR/apps" "$SERVER_DIR/configDropins/overrides" \
    "$SERVER_DIR/configDropins/defaults"
  cp "$ROOT/server.xml" "$SERVER_DIR/server.xml"
  cp "$ROOT/liberty/configDropins/defaults/wecom-handlers.xml" "$SERVER_DIR/configDropins/defaults/"
  cp "$ROOT/liberty/bootstrap.properties" "$ROOT/liberty/jvm.options" "$ROOT/liberty/server.env" "$SERVER_DIR/"
  cp "$DIR/artifacts/postgresql-$pg_version.jar" "$SERVER_DIR/jdbc/postgresql.jar"
  cp "$BUILD_DIR/wecom-inbox-jdbc.jar" "$SERVER_DIR/jdbc/wecom-inbox-jdbc.jar"
  cp "$BUILD_DIR/artemis.rar" "$SERVER_DIR/resources/artemis.rar"
  cp "$BUILD_DIR/wecom-inbox.war" "$SERVER_DIR/apps/wecom-inbox.war"
  cat > "$SERVER_DIR/configDropins/overrides/wecom-inbox-app.xml" <<'XML'
<server>
  <!-- the name must be wecom-inbox: the activation specs are wecom-inbox/<BeanName> -->
  <webApplication id="wecom-inbox" name="wecom-inbox" location="wecom-inbox.war" contextRoot="/"/>
</server>
XML
  log "prepared: broker on $DEPLOY_BROKER_PORT (console $DEPLOY_CONSOLE_PORT), server $SERVER_DIR"
}

server_pid() { cat "$WLP/usr/servers/.pid/$DEPLOY_LIBERTY_SERVER.pid" 2>/dev/null || true; }

start() {
  load_secrets
  server_environment
  local without=
  if [ "${1:-}" = --without ]; then
    without=$2
    unset "$without"
  fi
  rm -f "$SERVER_DIR/logs/messages.log"
  if ! "$WLP/bin/server" start "$DEPLOY_LIBERTY_SERVER" > "$DIR/logs/server-start.log" 2>&1; then
    # without a secret the server may already be gone by the time `server start` looks
    [ -n "$without" ] || die "server start failed; see $DIR/logs/server-start.log"
  fi
  local i pid
  pid=$(server_pid)
  if [ -n "$without" ]; then
    # section 4: an unset secret stops the server, naming it
    for ((i = 0; i < 180; i++)); do
      [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && die "the server still runs without $without"
    grep -h "WeCom Inbox stops the server: not set: .*$without" "$SERVER_DIR/logs/messages.log" >&2 \
      || die "the server stopped without naming $without; see $SERVER_DIR/logs/messages.log"
    return 0
  fi
  for ((i = 0; i < 180; i++)); do
    if curl -fsS "http://127.0.0.1:$DEPLOY_HTTP_PORT/health/ready" > "$DIR/ready.json" 2>/dev/null; then
      log "ready: $(cat "$DIR/ready.json")"; return 0
    fi
    kill -0 "$pid" 2>/dev/null || die "the server exited; see $SERVER_DIR/logs/messages.log"
    sleep 1
  done
  curl -sS "http://127.0.0.1:$DEPLOY_HTTP_PORT/health/ready" >&2 || true
  die "not ready after 180 s; see $SERVER_DIR/logs/messages.log"
}

stop_broker() {
  [ -f "$DIR/artemis.pid" ] || return 0
  local pid; pid=$(cat "$DIR/artemis.pid")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  local i; for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$DIR/artemis.pid"
}

stop() {
  [ -x "$WLP/bin/server" ] && "$WLP/bin/server" stop "$DEPLOY_LIBERTY_SERVER" > /dev/null 2>&1 || true
  stop_broker
}

case ${1:-} in
  prepare) prepare ;;
  start) shift; start "$@" ;;
  stop-server) "$WLP/bin/server" stop "$DEPLOY_LIBERTY_SERVER" > /dev/null 2>&1 || true ;;
  stop) stop ;;
  *) die "usage: deploy-check.sh prepare | start [--without VAR] | stop-server | stop" ;;
esac
