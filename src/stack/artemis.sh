#!/usr/bin/env bash
# ActiveMQ Artemis for WeCom Inbox: a primary/backup pair of instances under target/stack, created from the
# distribution the build unpacked (target/artemis-dist) with the dev base broker.xml and the app's broker fragment.
#   artemis.sh start | stop | kill | status    the primary on BROKER_PORT (what every test run uses)
#   artemis.sh start-backup | stop-backup | kill-backup | status-backup
#                                              its backup on BROKER_BACKUP_PORT (BROKER_PORT+1), console
#                                              ARTEMIS_BACKUP_CONSOLE_PORT (ARTEMIS_CONSOLE_PORT+1)
#   artemis.sh kill-primary                    kill -9 of the primary (same as kill)
#   artemis.sh live                            prints primary, backup or none: which one serves clients
#
# The pair shares one store: the backup's broker.xml points at the primary's journal directory and waits for
# the journal's file lock, which the live broker holds (released by the kernel when it dies, even on kill -9).
# Why shared store and not replication: on one machine a local directory is as available as the brokers, and
# a file lock cannot split: only one broker is ever live. A replicated pair of two brokers cannot vote (a quorum
# needs three primary/backup pairs or a lock manager such as ZooKeeper), so a network hiccup between them would
# leave either two live brokers (split brain) or none.
# Failback: on. The primary is the home of the pair: its ports and console are what the stack, the tests and an
# admin look at first. When it is started again, the live backup hands the journal back and turns passive.
. "$(dirname "$0")/lib.sh"
load_secrets
PRIMARY=$STACK_DIR/artemis
BACKUP=$STACK_DIR/artemis-backup
# the one store of the pair (where the single broker always kept it, so a fresh test run empties it as before)
SHARED_DATA=$PRIMARY/data
# the two brokers of the pair know each other by these (the cluster connection of broker.xml)
: "${ARTEMIS_CLUSTER_USER:=wecom-pair}"

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

# The role's settings: instance directory, ports, pid file, log and its <ha-policy>.
role() {
  case $1 in
    primary)
      INSTANCE=$PRIMARY PORT=$BROKER_PORT CONSOLE_PORT=$ARTEMIS_CONSOLE_PORT
      PID_FILE=$STACK_DIR/pids/artemis.pid LOG_FILE=$STACK_DIR/logs/artemis.log
      # failover-on-shutdown: an admin's stop of the primary (maintenance) hands over to a running backup
      HA_POLICY='<ha-policy><shared-store><primary><failover-on-shutdown>true</failover-on-shutdown></primary></shared-store></ha-policy>' ;;
    backup)
      INSTANCE=$BACKUP PORT=$BROKER_BACKUP_PORT CONSOLE_PORT=$ARTEMIS_BACKUP_CONSOLE_PORT
      PID_FILE=$STACK_DIR/pids/artemis-backup.pid LOG_FILE=$STACK_DIR/logs/artemis-backup.log
      # allow-failback: when the primary starts again the live backup gives the journal back and waits again
      HA_POLICY='<ha-policy><shared-store><backup><allow-failback>true</allow-failback></backup></shared-store></ha-policy>' ;;
  esac
  ROLE=$1
}

# The journal as `artemis create` chose and timed it on this disk: ASYNCIO where libaio loads (Debian's
# libaio1), else NIO, and the buffer timeout its sync test measured (one synced write's time). Kept beside the
# instance, because our broker.xml replaces the one create wrote. Durability is the same either way: every
# commit waits for its synced write (journal-datasync).
keep_journal_tuning() {
  local created=$INSTANCE/etc/broker.xml value name
  for name in journal-type journal-buffer-timeout journal-max-io; do
    value=$(sed -n "s|.*<$name>\([^<]*\)</$name>.*|\1|p" "$created" | head -n 1)
    [ -n "$value" ] || die "artemis create wrote no <$name> into $created"
    printf '%s=%s\n' "$name" "$value"
  done > "$INSTANCE/etc/journal-tuning.properties"
}

journal_tuning() {
  local tuning=$INSTANCE/etc/journal-tuning.properties
  if [ -f "$tuning" ]; then
    JOURNAL_TYPE=$(sed -n 's/^journal-type=//p' "$tuning")
    JOURNAL_BUFFER_TIMEOUT=$(sed -n 's/^journal-buffer-timeout=//p' "$tuning")
    JOURNAL_MAX_IO=$(sed -n 's/^journal-max-io=//p' "$tuning")
  else # an instance from before the tuning was kept: the NIO settings it always had
    JOURNAL_TYPE=NIO JOURNAL_BUFFER_TIMEOUT=100000 JOURNAL_MAX_IO=1
    log "the $ROLE broker's instance predates the journal tuning: NIO as before (docs/operations.md, Broker pair)"
    return 0
  fi
  [ "$JOURNAL_TYPE" = ASYNCIO ] \
    || log "the $ROLE broker's journal is $JOURNAL_TYPE: libaio was not found when its instance was created (apt-get install libaio1; docs/operations.md, Broker pair)"
}

create_instance() {
  local home; home=$(artemis_home)
  if [ ! -x "$INSTANCE/bin/artemis" ]; then
    log "creating the $ROLE broker instance in $INSTANCE"
    local pair=()
    # what `create` writes for these goes into a broker.xml we replace below (the same settings, without its
    # UDP discovery, which would find the other stacks' brokers on this machine)
    [ "$ROLE" = backup ] && pair=(--shared-store --backup --data "$SHARED_DATA"
      --cluster-user "$ARTEMIS_CLUSTER_USER" --cluster-password "$ARTEMIS_CLUSTER_PASSWORD")
    "$home/bin/artemis" create --silent --force --name wecom-inbox \
      --user "$ARTEMIS_ADMIN_USER" --password "$ARTEMIS_ADMIN_PASSWORD" --role amq --require-login \
      --host "$BROKER_HOST" --default-port "$PORT" "${pair[@]}" \
      --http-host 127.0.0.1 --http-port "$CONSOLE_PORT" \
      --no-amqp-acceptor --no-mqtt-acceptor --no-stomp-acceptor --no-hornetq-acceptor \
      --java-memory 512M "$INSTANCE" > "$STACK_DIR/logs/artemis-$ROLE-create.log" 2>&1 \
      || die "artemis create failed; see $STACK_DIR/logs/artemis-$ROLE-create.log"
    keep_journal_tuning
  fi
  journal_tuning
  # Our configuration always wins, so an edit of either file applies on the next start: the dev broker's
  # base, then the application's fragment merged into it exactly as docs/deploy.md tells an admin to.
  local other=backup; [ "$ROLE" = backup ] && other=primary
  sed -e "s/@BROKER_HOST@/$BROKER_HOST/g" -e "s/@BROKER_PORT@/$PORT/g" -e "s|@DATA_DIR@|$SHARED_DATA|g" \
    -e "s/@JOURNAL_TYPE@/$JOURNAL_TYPE/" -e "s/@JOURNAL_BUFFER_TIMEOUT@/$JOURNAL_BUFFER_TIMEOUT/" \
    -e "s/@JOURNAL_MAX_IO@/$JOURNAL_MAX_IO/" \
    -e "s|@HA_POLICY@|$HA_POLICY|" -e "s/@PRIMARY_PORT@/$BROKER_PORT/g" -e "s/@BACKUP_PORT@/$BROKER_BACKUP_PORT/g" \
    -e "s/@SELF_CONNECTOR@/$ROLE/" -e "s/@OTHER_CONNECTOR@/$other/" -e "s/@CLUSTER_USER@/$ARTEMIS_CLUSTER_USER/" \
    -e "s|@CLUSTER_PASSWORD@|$ARTEMIS_CLUSTER_PASSWORD|" \
    "$ROOT/src/stack/artemis/broker.xml" > "$INSTANCE/etc/broker.xml"
  chmod 600 "$INSTANCE/etc/broker.xml" # it holds the cluster password
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
  # The application's management user (role monitor): reads queue and divert attributes, invokes nothing, so
  # the app server never holds the console admin's password (docs/deploy.md, section 3, as an admin does it).
  sed -i "/^$ARTEMIS_MONITOR_USER *=/d" "$users"
  printf '%s = %s\n' "$ARTEMIS_MONITOR_USER" "$ARTEMIS_MONITOR_PASSWORD" >> "$users"
  sed -i '/^monitor *=/d' "$roles"; printf 'monitor = %s\n' "$ARTEMIS_MONITOR_USER" >> "$roles"
  chmod 600 "$users"
  java "$ROOT/src/devstack/java/io/wecominbox/devstack/MergeManagementFragment.java" \
    "$INSTANCE/etc/management.xml" "$ROOT/src/main/broker/wecom-inbox-management.xml" \
    || die "could not merge src/main/broker/wecom-inbox-management.xml into $INSTANCE/etc/management.xml"
  # Jolokia lets in only the roles listed here; what each role may do there is management.xml's
  grep -q '^HAWTIO_ROLES=' "$INSTANCE/etc/artemis.profile" \
    || die "$INSTANCE/etc/artemis.profile has no HAWTIO_ROLES line: the monitor role cannot be let in to Jolokia"
  sed -i "s/^HAWTIO_ROLES=.*/HAWTIO_ROLES='amq,monitor'/" "$INSTANCE/etc/artemis.profile"
}

launch() {
  log "starting the Artemis $ROLE on $BROKER_HOST:$PORT (console http://127.0.0.1:$CONSOLE_PORT/console)"
  mkdir -p "$SHARED_DATA"
  # setsid: a Ctrl-C in the terminal reaches the run script, which stops the broker in order
  setsid nohup "$INSTANCE/bin/artemis" run > "$LOG_FILE" 2>&1 < /dev/null &
  echo $! > "$PID_FILE"
}

start() {
  role primary
  if pid_alive "$PID_FILE"; then log "broker already running (pid $(cat "$PID_FILE"))"; return; fi
  if port_open "$BROKER_HOST" "$BROKER_PORT"; then
    # not ours to configure: readiness (check handler-routes) names any handler queue or divert it lacks
    log "using the broker already listening on $BROKER_HOST:$BROKER_PORT as it is (/health/ready checks its routes)"; return
  fi
  create_instance
  # a test run starts from an empty journal: no messages or prepared transactions from an earlier run
  # (never under a live backup: that journal is its)
  if [ "${STACK_FRESH:-false}" = true ] && ! pid_alive "$STACK_DIR/pids/artemis-backup.pid"; then
    rm -rf "$SHARED_DATA"
  fi
  pid_alive "$STACK_DIR/pids/artemis-backup.pid" && log "a backup runs: the primary takes the journal back (failback)"
  launch
  local i
  # with a live backup this includes the failback: it stops serving, then the primary opens its port
  for ((i = 0; i < 300; i++)); do
    port_open "$BROKER_HOST" "$BROKER_PORT" && return 0
    pid_alive "$PID_FILE" || die "Artemis exited at start; see $LOG_FILE"
    sleep 0.2
  done
  die "Artemis did not open $BROKER_HOST:$BROKER_PORT within 60 s; see $LOG_FILE"
}

start_backup() {
  role backup
  if pid_alive "$PID_FILE"; then log "backup already running (pid $(cat "$PID_FILE"))"; return; fi
  port_open "$BROKER_HOST" "$PORT" && die "something else listens on $BROKER_HOST:$PORT (BROKER_BACKUP_PORT)"
  create_instance
  launch
  local i
  # A passive backup opens no acceptor: it is ready once it holds the backup lock and waits for the primary's
  # (AMQ221109), or it is live at once when no primary holds the journal.
  for ((i = 0; i < 300; i++)); do
    grep -q 'AMQ221109' "$LOG_FILE" 2>/dev/null && { log "backup waiting for the primary to fail"; return 0; }
    port_open "$BROKER_HOST" "$PORT" && { log "backup is live (no primary held the journal)"; return 0; }
    pid_alive "$PID_FILE" || die "the Artemis backup exited at start; see $LOG_FILE"
    sleep 0.2
  done
  die "the Artemis backup did not get ready within 60 s; see $LOG_FILE"
}

stop() {
  pid_alive "$PID_FILE" || { rm -f "$PID_FILE"; return 0; }
  local pid; pid=$(cat "$PID_FILE")
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  local i; for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$PID_FILE"; log "stopped the Artemis $ROLE"
}

kill9() {
  if pid_alive "$PID_FILE"; then
    local pid; pid=$(cat "$PID_FILE")
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
    local i; for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$PID_FILE"
}

status() { pid_alive "$PID_FILE" && echo "running $(cat "$PID_FILE")" || echo stopped; }

# Which broker serves clients: only the live one of a shared-store pair opens its acceptor (a passive backup
# has none), so the port that accepts tells it. The admin's view is the live one's console (docs/operations.md).
live() {
  if port_open "$BROKER_HOST" "$BROKER_PORT"; then
    echo "primary $BROKER_HOST:$BROKER_PORT console http://127.0.0.1:$ARTEMIS_CONSOLE_PORT/console"
  elif port_open "$BROKER_HOST" "$BROKER_BACKUP_PORT"; then
    echo "backup $BROKER_HOST:$BROKER_BACKUP_PORT console http://127.0.0.1:$ARTEMIS_BACKUP_CONSOLE_PORT/console"
  else
    echo none; return 1
  fi
}

case ${1:-start} in
  start) start ;;
  stop) role primary; stop ;;
  kill|kill-primary) role primary; kill9 ;;
  status) role primary; status ;;
  start-backup) start_backup ;;
  stop-backup) role backup; stop ;;
  kill-backup) role backup; kill9 ;;
  status-backup) role backup; status ;;
  live) live ;;
  *) die "usage: artemis.sh start|stop|kill|status|start-backup|stop-backup|kill-backup|status-backup|kill-primary|live" ;;
esac
