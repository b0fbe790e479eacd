#!/usr/bin/env bash
# docs/deploy.md followed literally, on a broker made by `artemis create` and a Liberty server made by
# `server create` in a fresh Open Liberty unpacked from Maven Central (never the build's runtime or server):
# the check CI runs (deploy/DeployCheckIT, its own Failsafe execution). Each step names its section of
# docs/deploy.md; the server's server.xml is the page's example, taken from the page itself.
#   deploy-check.sh prepare                artifacts, database + schema, broker, Liberty server (sections 1-4)
#   deploy-check.sh start [--without VAR]  start the server; with --without, the secret file VAR (a Liberty
#                                          variable such as db.password) is left out: the server must stop by itself
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
# a Liberty of the check's own, unpacked from the openliberty-runtime zip (section 4)
WLP=$DIR/wlp
SERVER_DIR=$WLP/usr/servers/$DEPLOY_LIBERTY_SERVER
# the secrets as one file per Liberty variable, outside the server (VARIABLE_SOURCE_DIRS, section 4)
SECRET_FILES=$DIR/server-secrets
ENCRYPTION_KEY_DIR=$DIR/server-encryption-key
BROKER=$DIR/broker
mkdir -p "$DIR/logs" "$DIR/artifacts"

log() { printf '[deploy-check] %s\n' "$*" >&2; }
die() { printf '[deploy-check] FAILED: %s\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
stack_value() { { sed -n "s/^$1=//p" "$BUILD_DIR/stack/stack.env" 2>/dev/null || true; } | tail -n 1; }
random_secret() { head -c 18 /dev/urandom | base64 | tr -d '/+=' | head -c 20; }

# This run's secrets, made once by prepare (mode 0600, under target/, never committed).
SECRETS=$DIR/secrets.env
load_secrets() {
  [ -f "$SECRETS" ] || die "run prepare first"
  . "$SECRETS"
}

DB_HOST_USED=${DEPLOY_DB_HOST:-$(stack_value DB_HOST)}; DB_HOST_USED=${DB_HOST_USED:-127.0.0.1}
DB_PORT_USED=${DEPLOY_DB_PORT:-$(stack_value DB_PORT)}; DB_PORT_USED=${DB_PORT_USED:-5432}

# The non-secret settings of docs/deploy.md section 4, as the environment the server starts with; the secrets
# are files (secret_files), never in the server's environment.
server_environment() {
  unset DB_PASSWORD BROKER_PASSWORD ADMIN_PASSWORD KEYSTORE_PASSWORD
  export DB_HOST=$DB_HOST_USED DB_PORT=$DB_PORT_USED DB_NAME=$DEPLOY_DB_NAME DB_USER=$DEPLOY_DB_USER
  export BROKER_HOST=127.0.0.1 BROKER_PORT=$DEPLOY_BROKER_PORT BROKER_USER=wecom
  # one broker, no pair (docs/deploy.md): nothing else is tried when it refuses
  export BROKER_CONNECTION_PARAMETERS="host=127.0.0.1;port=$DEPLOY_BROKER_PORT"
  export BROKER_CONNECTOR_CLASSES=org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory
  export HTTP_HOST=127.0.0.1 HTTP_PORT=$DEPLOY_HTTP_PORT HTTPS_PORT=$DEPLOY_HTTPS_PORT
  # the read-only management user of section 3, never the broker's admin
  export WECOM_BROKER_MANAGEMENT_URL=http://127.0.0.1:$DEPLOY_CONSOLE_PORT/console/jolokia
  export WECOM_BROKER_MANAGEMENT_USER=wecom-monitor
  export REDIS_HOST= # section 5: no Redis, the hot tier runs in-process
  export WECOM_API_BASE_URL=http://127.0.0.1:$DEPLOY_SIM_API_PORT
  local app upper suffix
  for app in ${WECOM_APPS//,/ }; do
    upper=$(printf '%s' "$app" | tr 'a-z-' 'A-Z_')
    for suffix in TOKEN ENCODING_AES_KEY SECRET; do unset "WECOM_APP_${upper}_${suffix}"; done
    export "WECOM_WELCOME_${upper}_TEXT=Welcome (deploy check)" "WECOM_BOT_${upper}_REPLY_TEXT=Noted (deploy check)"
  done
}

# Section 4, "Secrets": one file per Liberty variable, mode 0600, in a directory of VARIABLE_SOURCE_DIRS. The
# passwords Liberty itself uses (data source, resource adapter, keystore, registry) are encoded with
# securityUtility and a key of the check's own; those the application reads (the management user's, the
# WeCom apps' keys) are plain.
secret_files() {
  local app upper
  rm -rf "$SECRET_FILES" "$ENCRYPTION_KEY_DIR"
  ( umask 077
    mkdir -p "$SECRET_FILES" "$ENCRYPTION_KEY_DIR"
    # the key the {aes} values are encoded with, as the variable wlp.password.encryption.key, in a directory
    # of its own (a copy of the secrets' directory alone then reveals nothing)
    local key; key=$(random_secret)
    printf '%s' "$key" > "$ENCRYPTION_KEY_DIR/wlp.password.encryption.key"
    encoded() { printf '%s' "$("$WLP/bin/securityUtility" encode --encoding=aes --key="$key" "$1")"; }
    encoded "$DB_PASSWORD" > "$SECRET_FILES/db.password"
    encoded "$BROKER_PASSWORD" > "$SECRET_FILES/broker.password"
    encoded "$KEYSTORE_PASSWORD" > "$SECRET_FILES/keystore.password"
    encoded "$ADMIN_PASSWORD" > "$SECRET_FILES/admin.password"
    printf '%s' "$ARTEMIS_MONITOR_PASSWORD" > "$SECRET_FILES/wecom.broker.management.password"
    for app in ${WECOM_APPS//,/ }; do
      upper=$(printf '%s' "$app" | tr 'a-z-' 'A-Z_')
      local token="WECOM_APP_${upper}_TOKEN" key="WECOM_APP_${upper}_ENCODING_AES_KEY" secret="WECOM_APP_${upper}_SECRET"
      printf '%s' "${!token:-}" > "$SECRET_FILES/wecom.app.$app.token"
      printf '%s' "${!key:-}" > "$SECRET_FILES/wecom.app.$app.encoding-aes-key"
      printf '%s' "${!secret:-}" > "$SECRET_FILES/wecom.app.$app.secret"
    done )
  grep -q '^{aes}' "$SECRET_FILES/db.password" || die "securityUtility encode gave no {aes} value"
}

# Section 4, "TLS": a key pair whose certificate a CA signed (here the check's own CA, made with keytool), in a
# PKCS12 keystore the server's keyStore element names. The CA's certificate goes to ca.pem for the clients.
tls_keystore() {
  local tls=$DIR/tls store=$SERVER_DIR/resources/security/key.p12 ca_pass
  rm -rf "$tls"; mkdir -p "$tls" "$SERVER_DIR/resources/security"
  ca_pass=$(random_secret)
  keytool -genkeypair -alias ca -keyalg RSA -keysize 2048 -dname "CN=WeCom Inbox deploy check CA" \
    -ext bc:c -validity 30 -keystore "$tls/ca.p12" -storetype PKCS12 -storepass "$ca_pass" > /dev/null 2>&1
  keytool -exportcert -rfc -alias ca -keystore "$tls/ca.p12" -storepass "$ca_pass" -file "$tls/ca.pem" > /dev/null 2>&1
  keytool -genkeypair -alias default -keyalg RSA -keysize 2048 -dname "CN=localhost" -validity 30 \
    -keystore "$store" -storetype PKCS12 -storepass "$KEYSTORE_PASSWORD" > /dev/null 2>&1
  keytool -certreq -alias default -keystore "$store" -storepass "$KEYSTORE_PASSWORD" -file "$tls/server.csr" > /dev/null 2>&1
  keytool -gencert -rfc -alias ca -keystore "$tls/ca.p12" -storepass "$ca_pass" -infile "$tls/server.csr" \
    -outfile "$tls/server.pem" -validity 30 -ext SAN=dns:localhost,ip:127.0.0.1 \
    -ext KU=digitalSignature,keyEncipherment -ext EKU=serverAuth > /dev/null 2>&1
  keytool -importcert -noprompt -alias ca -keystore "$store" -storepass "$KEYSTORE_PASSWORD" -file "$tls/ca.pem" > /dev/null 2>&1
  keytool -importcert -alias default -keystore "$store" -storepass "$KEYSTORE_PASSWORD" -file "$tls/server.pem" \
    > /dev/null 2>&1 || die "the CA-signed certificate did not go into $store"
}

# The page's example server.xml: the fenced block after the marker line in docs/deploy.md.
example_server_xml() {
  awk '/<!-- deploy-check: the example server.xml -->/ { marked = 1; next }
       marked && /^```xml/ { inside = 1; next }
       inside && /^```/ { exit }
       inside { print }' "$ROOT/docs/deploy.md"
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
  local pg_version liberty_version
  pg_version=$(sed -n 's:.*<postgresql.version>\(.*\)</postgresql.version>.*:\1:p' "$ROOT/pom.xml" | head -n 1)
  liberty_version=$(sed -n 's:.*<liberty.runtime.version>\(.*\)</liberty.runtime.version>.*:\1:p' "$ROOT/pom.xml" | head -n 1)
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

  log "4. Liberty: a fresh Open Liberty $liberty_version, server create $DEPLOY_LIBERTY_SERVER, the documented pieces"
  [ -f "$WLP/usr/servers/.pid/$DEPLOY_LIBERTY_SERVER.pid" ] && "$WLP/bin/server" stop "$DEPLOY_LIBERTY_SERVER" > /dev/null 2>&1
  rm -rf "$WLP" "$DIR/unpack-markers"
  (cd "$ROOT" && mvn -B -q -ntp dependency:unpack \
      "-Dartifact=io.openliberty:openliberty-runtime:$liberty_version:zip" "-DoutputDirectory=$DIR" \
      -Dmdep.overWriteReleases=true "-DmarkersDirectory=$DIR/unpack-markers" >&2) \
    || die "could not unpack openliberty-runtime $liberty_version"
  [ -x "$WLP/bin/server" ] || die "no Liberty at $WLP"
  "$WLP/bin/server" create "$DEPLOY_LIBERTY_SERVER" > "$DIR/logs/server-create.log" 2>&1 || die "server create failed"
  mkdir -p "$SERVER_DIR/jdbc" "$SERVER_DIR/resources" "$SERVER_DIR/apps" "$SERVER_DIR/configDropins/defaults"
  cp "$ROOT/liberty/wecom-inbox.xml" "$SERVER_DIR/wecom-inbox.xml"
  cp "$ROOT/liberty/configDropins/defaults/wecom-handlers.xml" "$SERVER_DIR/configDropins/defaults/"
  cp "$DIR/artifacts/postgresql-$pg_version.jar" "$SERVER_DIR/jdbc/postgresql.jar"
  cp "$BUILD_DIR/wecom-inbox-jdbc.jar" "$SERVER_DIR/jdbc/wecom-inbox-jdbc.jar"
  cp "$BUILD_DIR/artemis.rar" "$SERVER_DIR/resources/artemis.rar"
  cp "$BUILD_DIR/wecom-inbox.war" "$SERVER_DIR/apps/wecom-inbox.war"
  example_server_xml > "$SERVER_DIR/server.xml"
  grep -q '<include location="wecom-inbox.xml"/>' "$SERVER_DIR/server.xml" \
    || die "docs/deploy.md's example server.xml was not found (or has no include)"
  # "Features": every feature the include names is in this Liberty (the full runtime has them all)
  local feature installed
  installed=$("$WLP/bin/productInfo" featureInfo 2>/dev/null)
  for feature in $(sed -n 's:.*<feature>\(.*\)</feature>.*:\1:p' "$SERVER_DIR/wecom-inbox.xml"); do
    grep -qxF "$feature" <<< "$installed" || die "feature $feature is not installed in $WLP"
  done
  secret_files
  # replaces the server.env of `server create`, whose keystore_password the example does not use
  printf 'VARIABLE_SOURCE_DIRS=%s:%s\n' "$SECRET_FILES" "$ENCRYPTION_KEY_DIR" > "$SERVER_DIR/server.env"
  tls_keystore
  log "prepared: broker on $DEPLOY_BROKER_PORT (console $DEPLOY_CONSOLE_PORT), server $SERVER_DIR"
}

server_pid() { cat "$WLP/usr/servers/.pid/$DEPLOY_LIBERTY_SERVER.pid" 2>/dev/null || true; }

start() {
  load_secrets
  server_environment
  local without= named=
  if [ "${1:-}" = --without ]; then
    without=$2
    [ -f "$SECRET_FILES/$without" ] || die "no secret file $without in $SECRET_FILES"
    # the variable's environment form, as the server's message names it (db.password -> DB_PASSWORD)
    named=$(printf '%s' "$without" | tr 'a-z.-' 'A-Z__')
    mv "$SECRET_FILES/$without" "$DIR/$without.aside"
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
    mv "$DIR/$without.aside" "$SECRET_FILES/$without"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && die "the server still runs without $without"
    grep -h "WeCom Inbox stops the server: not set: .*$named" "$SERVER_DIR/logs/messages.log" >&2 \
      || die "the server stopped without naming $named; see $SERVER_DIR/logs/messages.log"
    return 0
  fi
  for ((i = 0; i < 180; i++)); do
    if curl -fsS "http://127.0.0.1:$DEPLOY_HTTP_PORT/health/ready" > "$DIR/ready.json" 2>/dev/null; then
      log "ready: $(cat "$DIR/ready.json")"
      # section 4, "TLS": the HTTPS port presents the CA-signed certificate, for the name and the address
      curl -fsS --cacert "$DIR/tls/ca.pem" "https://localhost:$DEPLOY_HTTPS_PORT/health/ready" > /dev/null \
        || die "HTTPS does not present the certificate signed by $DIR/tls/ca.pem (for localhost)"
      curl -fsS --cacert "$DIR/tls/ca.pem" "https://127.0.0.1:$DEPLOY_HTTPS_PORT/health/ready" > /dev/null \
        || die "HTTPS does not present the certificate signed by $DIR/tls/ca.pem (for 127.0.0.1)"
      log "TLS: the certificate signed by the check's CA"
      return 0
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
  *) die "usage: deploy-check.sh prepare | start [--without VARIABLE] | stop-server | stop" ;;
esac
