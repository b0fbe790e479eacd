#!/usr/bin/env bash
# PostgreSQL for WeCom Inbox: use the one configured (DB_HOST/DB_PORT) when it answers, else start a
# private one under target/stack. Either way XA needs max_prepared_transactions > 0, our role and our
# database. Usage: postgres.sh ensure | stop
. "$(dirname "$0")/lib.sh"
load_secrets
: "${PG_ADMIN_USER:=postgres}"
PGDATA_DIR=$STACK_DIR/pgdata
PRIVATE_PID=$STACK_DIR/pids/postgres.private

psql_admin() {
  PGPASSWORD="${PG_ADMIN_PASSWORD:-}" PGCONNECT_TIMEOUT=3 psql -X -q -tA -v ON_ERROR_STOP=1 \
    -h "$DB_HOST" -p "$DB_PORT" -U "$PG_ADMIN_USER" -d postgres "$@"
}

debian_cluster_on_port() { # prints "version name" of the local Debian cluster listening on DB_PORT
  command -v pg_lsclusters >/dev/null || return 1
  pg_lsclusters -h 2>/dev/null | awk -v p="$DB_PORT" '$3 == p { print $1, $2; exit }' | grep .
}

enable_xa() {
  local mpt
  mpt=$(psql_admin -c 'SHOW max_prepared_transactions')
  [ "$mpt" -gt 0 ] && { log "max_prepared_transactions = $mpt"; return; }
  local cluster
  if is_local_host "$DB_HOST" && cluster=$(debian_cluster_on_port); then
    log "max_prepared_transactions is 0: setting it to 100 and restarting cluster $cluster (XA needs it)"
    psql_admin -c 'ALTER SYSTEM SET max_prepared_transactions = 100'
    # shellcheck disable=SC2086
    pg_ctlcluster --skip-systemctl-redirect $cluster restart
    wait_for_port "$DB_HOST" "$DB_PORT" 30 PostgreSQL
    local i; for i in $(seq 1 50); do psql_admin -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done
  else
    die "PostgreSQL at $DB_HOST:$DB_PORT has max_prepared_transactions = 0; XA needs it > 0.
  Ask its administrator for: ALTER SYSTEM SET max_prepared_transactions = 100; and a restart."
  fi
}

create_role_and_database() {
  local sql_pw=${DB_PASSWORD//\'/\'\'}
  if [ "$(psql_admin -c "SELECT count(*) FROM pg_roles WHERE rolname = '$DB_USER'")" = 0 ]; then
    log "creating role $DB_USER"
    psql_admin -c "CREATE ROLE \"$DB_USER\" LOGIN PASSWORD '$sql_pw'"
  else
    psql_admin -c "ALTER ROLE \"$DB_USER\" LOGIN PASSWORD '$sql_pw'" >/dev/null
  fi
  if [ "$(psql_admin -c "SELECT count(*) FROM pg_database WHERE datname = '$DB_NAME'")" = 0 ]; then
    log "creating database $DB_NAME"
    psql_admin -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$DB_USER\""
  fi
}

start_private_postgres() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$bin" ] && [ -x "$bin/initdb" ] && command -v psql >/dev/null; then
    start_debian_private "$bin"
  else
    start_embedded
  fi
}

# A private cluster from the machine's PostgreSQL binaries, run as the postgres user when we are root.
start_debian_private() {
  local bin=$1 run=()
  [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
  if [ ! -f "$PGDATA_DIR/PG_VERSION" ]; then
    log "initialising a private PostgreSQL in $PGDATA_DIR"
    mkdir -p "$PGDATA_DIR"; [ "$(id -u)" = 0 ] && chown postgres "$PGDATA_DIR" "$STACK_DIR/logs"
    "${run[@]}" "$bin/initdb" -D "$PGDATA_DIR" -U "$PG_ADMIN_USER" --auth=trust -E UTF8 >/dev/null
  fi
  log "starting the private PostgreSQL on port $DB_PORT"
  "${run[@]}" "$bin/pg_ctl" -D "$PGDATA_DIR" -l "$STACK_DIR/logs/postgres.log" -w start \
    -o "-p $DB_PORT -c listen_addresses=127.0.0.1 -c max_prepared_transactions=100 -c unix_socket_directories=/tmp" >/dev/null
  echo "debian $bin" > "$PRIVATE_PID"
  create_role_and_database
}

# No PostgreSQL binaries on this machine: a real PostgreSQL from Maven Central (zonky), run by a JVM.
start_embedded() {
  local cp
  cp=$("$ROOT/src/stack/classpath.sh")
  log "starting an embedded PostgreSQL (from Maven Central) on port $DB_PORT"
  nohup java -cp "$cp" io.wecominbox.devstack.EmbeddedPostgresMain --port "$DB_PORT" --data "$PGDATA_DIR" \
      --user "$DB_USER" --database "$DB_NAME" > "$STACK_DIR/logs/postgres.log" 2>&1 &
  echo "embedded $!" > "$PRIVATE_PID"
  wait_for_port "$DB_HOST" "$DB_PORT" 90 "embedded PostgreSQL"
  local i; for i in $(seq 1 100); do grep -q 'READY' "$STACK_DIR/logs/postgres.log" && return; sleep 0.2; done
  die "embedded PostgreSQL did not get ready; see $STACK_DIR/logs/postgres.log"
}

stop_private() {
  [ -f "$PRIVATE_PID" ] || return 0
  read -r kind what < "$PRIVATE_PID"
  case $kind in
    debian)
      local run=(); [ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
      "${run[@]}" "$what/pg_ctl" -D "$PGDATA_DIR" -m fast -w stop >/dev/null 2>&1 || true ;;
    embedded)
      kill "$what" 2>/dev/null || true
      local i; for i in $(seq 1 100); do kill -0 "$what" 2>/dev/null || break; sleep 0.2; done ;;
  esac
  rm -f "$PRIVATE_PID"; log "stopped the private PostgreSQL"
}

case ${1:-ensure} in
  ensure)
    if port_open "$DB_HOST" "$DB_PORT"; then
      log "using PostgreSQL at $DB_HOST:$DB_PORT"
      if command -v psql >/dev/null && psql_admin -c 'SELECT 1' >/dev/null 2>&1; then
        enable_xa
        create_role_and_database
      else
        log "no admin access to it: assuming role $DB_USER and database $DB_NAME exist"
      fi
    else
      is_local_host "$DB_HOST" || die "PostgreSQL at $DB_HOST:$DB_PORT does not answer"
      start_private_postgres
    fi ;;
  stop) stop_private ;;
  *) die "usage: postgres.sh ensure|stop" ;;
esac
