#!/usr/bin/env bash
# ActiveMQ Artemis for WeCom Inbox: an instance under target/stack/artemis, created from the distribution
# the build unpacked (target/artemis-dist) with the dev base broker.xml and the app's broker fragment.
# Usage: artemis.sh start | stop | status
. "$(dirname "$0")/lib.sh"
load_secrets
INSTANCE=$STACK_DIR/artemis
PID_FILE=$STACK_DIR/pids/artemis.pid

artemis_home() {
  local home
  home=$(ls -d "$BUILD_DIR"/artemis-dist/apache-artemis-* 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$home" ]; then
    log "unpacking the Artemis distribution (mvn dependency:unpack)"
    (cd "$ROOT" && mvn -B -q dependency:unpack@unpack-artemis >&2)
    home=$(ls -d "$BUILD_DIR"/artemis-dist/apache-artemis-* | sort -V | tail -n 1)
  fi
  echo "$home"
}

create_instance() {
  local home; home=$(artemis_home)
  if [ ! -x "$INSTANCE/bin/artemis" ]; then
    log "creating the broker instance in $INSTANCE"
    "$home/bin/artemis" create --silent --force --name wecom-inbox \
      --user "$ARTEMIS_ADMIN_USER" --password "$ARTEMIS_ADMIN_PASSWORD" --role amq --require-login \
      --host "$BROKER_HOST" --default-port "$BROKER_PORT" \
      --http-host 127.0.0.1 --http-port "$ARTEMIS_CONSOLE_PORT" \
      --nio --no-amqp-acceptor --no-mqtt-acceptor --no-stomp-acceptor --no-hornetq-acceptor \
      --java-memory 512M "$INSTANCE" > "$STACK_DIR/logs/artemis-create.log" 2>&1 \
      || die "artemis create failed; see $STACK_DIR/logs/artemis-create.log"
  fi
  # Our configuration always wins, so an edit of either file applies on the next start: the dev broker's
  # base, then the application's fragment merged into it exactly as docs/deploy.md tells an admin to.
  sed -e "s/@BROKER_HOST@/$BROKER_HOST/g" -e "s/@BROKER_PORT@/$BROKER_PORT/g" \
    "$ROOT/src/stack/artemis/broker.xml" > "$INSTANCE/etc/broker.xml"
  java "$ROOT/src/devstack/java/io/wecominbox/devstack/MergeBrokerFragment.java" \
    "$INSTANCE/etc/broker.xml" "$ROOT/src/main/broker/wecom-inbox-broker.xml" \
    || die "could not merge src/main/broker/wecom-inbox-broker.xml into $INSTANCE/etc/broker.xml"
  # The application's own user (role app: send/consume/browse), beside the console admin (role amq).
  local users=$INSTANCE/etc/artemis-users.properties roles=$INSTANCE/etc/artemis-roles.properties
  # `artemis create` leaves these without a trailing newline: appending blindly would glue two lines
  sed -i -e '$a\' "$users" "$roles"
  sed -i "/^$BROKER_USER *=/d" "$users"; printf '%s = %s\n' "$BROKER_USER" "$BROKER_PASSWORD" >> "$users"
  sed -i '/^app *=/d' "$roles"; printf 'app = %s\n' "$BROKER_USER" >> "$roles"
  sed -i "/^$ARTEMIS_ADMIN_USER *=/d" "$users"
  printf '%s = %s\n' "$ARTEMIS_ADMIN_USER" "$ARTEMIS_ADMIN_PASSWORD" >> "$users"
  chmod 600 "$users"
}

start() {
  if pid_alive "$PID_FILE"; then log "broker already running (pid $(cat "$PID_FILE"))"; return; fi
  if port_open "$BROKER_HOST" "$BROKER_PORT"; then
    # not ours to configure: readiness (check handler-routes) names any handler queue or divert it lacks
    log "using the broker already listening on $BROKER_HOST:$BROKER_PORT as it is (/health/ready checks its routes)"; return
  fi
  create_instance
  # a test run starts from an empty journal: no messages or prepared transactions from an earlier run
  [ "${STACK_FRESH:-false}" = true ] && rm -rf "$INSTANCE/data"
  log "starting Artemis on $BROKER_HOST:$BROKER_PORT (console http://127.0.0.1:$ARTEMIS_CONSOLE_PORT/console)"
  # setsid: a Ctrl-C in the terminal reaches the run script, which stops the broker in order
  setsid nohup "$INSTANCE/bin/artemis" run > "$STACK_DIR/logs/artemis.log" 2>&1 < /dev/null &
  echo $! > "$PID_FILE"
  local i
  for ((i = 0; i < 300; i++)); do
    port_open "$BROKER_HOST" "$BROKER_PORT" && return 0
    pid_alive "$PID_FILE" || die "Artemis exited at start; see $STACK_DIR/logs/artemis.log"
    sleep 0.2
  done
  die "Artemis did not open $BROKER_HOST:$BROKER_PORT within 60 s; see $STACK_DIR/logs/artemis.log"
}

stop() {
  pid_alive "$PID_FILE" || { rm -f "$PID_FILE"; return 0; }
  local pid; pid=$(cat "$PID_FILE")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  local i; for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$PID_FILE"; log "stopped Artemis"
}

case ${1:-start} in
  start) start ;;
  stop) stop ;;
  kill) pid_alive "$PID_FILE" && kill -KILL -- "-$(cat "$PID_FILE")"; rm -f "$PID_FILE" ;;
  status) pid_alive "$PID_FILE" && echo "running $(cat "$PID_FILE")" || echo stopped ;;
  *) die "usage: artemis.sh start|stop|kill|status" ;;
esac
