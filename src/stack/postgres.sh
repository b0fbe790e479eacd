#!/usr/bin/env bash
# PostgreSQL for WeCom Inbox: use the one configured (DB_HOST/DB_PORT) when it answers, else start a
# private one under target/stack. Either way XA needs max_prepared_transactions > 0, our role and our
# database. Usage: postgres.sh ensure | stop | restart [fast|immediate] | can-restart [fast|immediate]
#   restart: restarts the server the stack uses (its private one, or the local Debian cluster on DB_PORT).
#            fast (default): sessions end, a checkpoint, prepared (XA) transactions survive. immediate: the
#            postmaster and every backend quit at once, no checkpoint, crash recovery at the start (as after a
#            power cut; prepared transactions survive too, from the WAL). Refuses with exit code 3 for a
#            server it cannot restart (remote, or local but not a Debian cluster; immediate: not the embedded
#            one either): the caller decides.
#   STACK_POSTGRES=auto      (default) the configured server if it answers, else a private one from Debian's
#                            binaries, else an embedded one (binaries from Maven Central, needs only a JDK)
#   STACK_POSTGRES=embedded  always the embedded one; STACK_POSTGRES=debian always the Debian one
#                            (both need DB_PORT free, or already serving our own private one)
. "$(dirname "$0")/lib.sh"
load_secrets
: "${PG_ADMIN_USER:=postgres}" "${STACK_POSTGRES:=auto}"
export PG_ADMIN_USER # DatabasePrepMain reads it
PGDATA_DIR=$STACK_DIR/pgdata
# Its own data dir: zonky's PostgreSQL is another major version than Debian's, and runs as another user
# (absolute: the orphan check finds it in the postmaster's command line)
EMBEDDED_DATA_DIR=$(cd "$STACK_DIR" && pwd)/pgdata-embedded
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

# Without psql: the same check and role/database set-up over JDBC (it cannot restart a server).
prepare_with_java() {
  local cp rc=0
  cp=$("$ROOT/src/stack/classpath.sh")
  java -cp "$cp" io.wecominbox.devstack.DatabasePrepMain || rc=$?
  case $rc in
    0) ;;
    3) log "no admin access to it: assuming role $DB_USER and database $DB_NAME exist" ;;
    *) die "PostgreSQL at $DB_HOST:$DB_PORT is not usable for XA (see above)" ;;
  esac
}

prepare_server() {
  if ! command -v psql >/dev/null; then
    prepare_with_java
  elif psql_admin -c 'SELECT 1' >/dev/null 2>&1; then
    enable_xa
    create_role_and_database
  else
    log "no admin access to it: assuming role $DB_USER and database $DB_NAME exist"
  fi
}

# For a test run: drop and recreate the disposable database, first rolling back what a killed server left
# prepared there (a prepared transaction pins its database; ROLLBACK PREPARED must run inside it).
reset_test_database() {
  [ "${STACK_FRESH:-false}" = true ] || return 0
  [ "$(psql_admin -c "SELECT count(*) FROM pg_database WHERE datname = '$DB_NAME'")" = 0 ] && return 0
  local gid
  for gid in $(psql_admin -c "SELECT gid FROM pg_prepared_xacts WHERE database = '$DB_NAME'"); do
    PGPASSWORD="${PG_ADMIN_PASSWORD:-}" psql -X -q -tA -h "$DB_HOST" -p "$DB_PORT" -U "$PG_ADMIN_USER" \
      -d "$DB_NAME" -c "ROLLBACK PREPARED '$gid'" >/dev/null
  done
  log "dropping the test database $DB_NAME (a fresh one for this run)"
  psql_admin -c "DROP DATABASE \"$DB_NAME\" WITH (FORCE)"
}

create_role_and_database() {
  reset_test_database
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
  local bin=$1
  if [ ! -f "$PGDATA_DIR/PG_VERSION" ]; then
    log "initialising a private PostgreSQL in $PGDATA_DIR"
    mkdir -p "$PGDATA_DIR"; [ "$(id -u)" = 0 ] && chown postgres "$PGDATA_DIR" "$STACK_DIR/logs"
    debian_run "$bin/initdb" -D "$PGDATA_DIR" -U "$PG_ADMIN_USER" --auth=trust -E UTF8 >/dev/null
  fi
  log "starting the private PostgreSQL on port $DB_PORT"
  # pg_ctl opens the log as postgres: an earlier embedded run (as root) may have left it root's
  if [ "$(id -u)" = 0 ]; then touch "$STACK_DIR/logs/postgres.log"; chown postgres "$STACK_DIR/logs/postgres.log"; fi
  debian_run "$bin/pg_ctl" -D "$PGDATA_DIR" -l "$STACK_DIR/logs/postgres.log" -w start \
    -o "-p $DB_PORT -c listen_addresses=127.0.0.1 -c max_prepared_transactions=100 -c unix_socket_directories=/tmp" >/dev/null
  echo "debian $bin" > "$PRIVATE_PID"
  create_role_and_database
}

# No PostgreSQL binaries on this machine: a real PostgreSQL from Maven Central (zonky), run by a JVM.
# A capped heap and C1 only: the JVM just supervises the server. zonky unpacks the binaries in memory
# (64 MB was too little for PostgreSQL 17): RSS ~200 MB after that first start, ~90 MB on later ones.
start_embedded() {
  local cp pid i log_file=$STACK_DIR/logs/postgres.log
  cp=$("$ROOT/src/stack/classpath.sh")
  log "starting an embedded PostgreSQL (from Maven Central) on port $DB_PORT"
  nohup java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$cp" \
      io.wecominbox.devstack.EmbeddedPostgresMain --port "$DB_PORT" --data "$EMBEDDED_DATA_DIR" \
      --user "$DB_USER" --database "$DB_NAME" < /dev/null > "$log_file" 2>&1 &
  pid=$!
  echo "embedded $pid" > "$PRIVATE_PID"
  # The first start unpacks the binaries and runs initdb; stop waiting as soon as the JVM gives up.
  for ((i = 0; i < 900; i++)); do
    grep -q 'READY' "$log_file" && { log "embedded PostgreSQL ready (log: $log_file)"; return 0; }
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PRIVATE_PID"; tail -n 15 "$log_file" >&2
      die "embedded PostgreSQL failed to start; see $log_file"
    fi
    sleep 0.2
  done
  die "embedded PostgreSQL not ready after 180 s; see $log_file"
}

is_embedded_jvm() { # pid: is it our live EmbeddedPostgresMain? (not a recycled pid; a zombie has no cmdline)
  tr '\0' ' ' 2>/dev/null < "/proc/$1/cmdline" | grep -q 'EmbeddedPostgresMain'
}

# A postmaster that outlived its JVM (kill -9) keeps the port: fast shutdown (SIGINT), then immediate.
stop_embedded_orphan() {
  local pid i
  pid=$(head -n 1 "$EMBEDDED_DATA_DIR/postmaster.pid" 2>/dev/null || true)
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline" | grep -qF -- "$EMBEDDED_DATA_DIR" || return 0
  log "stopping the orphaned embedded postmaster $pid"
  kill -INT "$pid" 2>/dev/null || return 0
  # down = postmaster.pid removed (the process may linger as a zombie where init reaps slowly)
  for ((i = 0; i < 300; i++)); do [ -f "$EMBEDDED_DATA_DIR/postmaster.pid" ] || return 0; sleep 0.2; done
  log "it did not stop within 60 s: immediate shutdown"
  kill -QUIT "$pid" 2>/dev/null || true
}

debian_run() { # runs a Debian PostgreSQL binary as the postgres user when we are root
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Is the private PostgreSQL recorded in PRIVATE_PID running? Prints its kind.
private_running() {
  [ -f "$PRIVATE_PID" ] || return 1
  local kind what
  read -r kind what < "$PRIVATE_PID"
  case $kind in
    embedded) is_embedded_jvm "$what" && echo embedded ;;
    debian)   debian_run "$what/pg_ctl" -D "$PGDATA_DIR" status >/dev/null 2>&1 && echo debian ;;
    *) return 1 ;;
  esac
}

stop_private() {
  local kind what i
  if [ -f "$PRIVATE_PID" ]; then
    read -r kind what < "$PRIVATE_PID"
    case $kind in
      debian)
        debian_run "$what/pg_ctl" -D "$PGDATA_DIR" -m fast -w stop >/dev/null 2>&1 || true ;;
      embedded)
        # SIGTERM: its shutdown hook stops PostgreSQL (fast) and waits up to 65 s for it to be gone
        if is_embedded_jvm "$what"; then
          kill "$what" 2>/dev/null || true
          for ((i = 0; i < 400; i++)); do is_embedded_jvm "$what" || break; sleep 0.1; done
        fi ;;
    esac
    rm -f "$PRIVATE_PID"; log "stopped the private PostgreSQL"
  fi
  stop_embedded_orphan
}

ensure() {
  local kind
  case $STACK_POSTGRES in auto|embedded|debian) ;; *) die "STACK_POSTGRES must be auto, embedded or debian" ;; esac
  if ! kind=$(private_running); then
    kind=; rm -f "$PRIVATE_PID"
    stop_embedded_orphan # one that outlived its JVM (kill -9) holds the port: ours, with or without a record
  fi
  if [ -n "$kind" ]; then
    [ "$STACK_POSTGRES" = auto ] || [ "$STACK_POSTGRES" = "$kind" ] ||
      die "our private $kind PostgreSQL runs on port $DB_PORT; run postgres.sh stop first to switch to $STACK_POSTGRES"
    log "our private $kind PostgreSQL is running on port $DB_PORT"
    prepare_server
  elif port_open "$DB_HOST" "$DB_PORT"; then
    [ "$STACK_POSTGRES" = auto ] ||
      die "$DB_HOST:$DB_PORT is taken by a server we did not start; STACK_POSTGRES=$STACK_POSTGRES needs a free DB_PORT"
    log "using PostgreSQL at $DB_HOST:$DB_PORT"
    prepare_server
  else
    is_local_host "$DB_HOST" || die "PostgreSQL at $DB_HOST:$DB_PORT does not answer"
    case $STACK_POSTGRES in
      auto) start_private_postgres ;;
      embedded) start_embedded ;;
      debian) local bin
              bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
              [ -n "$bin" ] && [ -x "$bin/initdb" ] && command -v psql >/dev/null ||
                die "STACK_POSTGRES=debian needs PostgreSQL's server binaries and psql (apt-get install postgresql)"
              start_debian_private "$bin" ;;
    esac
  fi
}

REFUSED=3
refuse() { printf '[stack] REFUSED: %s\n' "$*" >&2; exit $REFUSED; }

# For tests of a database outage mid-run (and operators): whichever server this stack uses, restarted.
restart() { # [fast|immediate]
  local mode=${1:-fast} kind what cluster
  case $mode in fast|immediate) ;; *) die "restart mode must be fast or immediate" ;; esac
  if kind=$(private_running); then
    read -r kind what < "$PRIVATE_PID"
    case $kind in
      debian)
        log "restarting the private PostgreSQL on port $DB_PORT ($mode)"
        debian_run "$what/pg_ctl" -D "$PGDATA_DIR" -m "$mode" -w -t 60 restart >/dev/null ;;
      embedded)
        [ "$mode" = fast ] || refuse "the embedded PostgreSQL is only restarted fast (its JVM stops it)"
        log "restarting the embedded PostgreSQL on port $DB_PORT"
        stop_private
        start_embedded ;;
    esac
  elif ! is_local_host "$DB_HOST"; then
    refuse "PostgreSQL at $DB_HOST:$DB_PORT is remote: this script does not restart other machines' servers"
  elif cluster=$(debian_cluster_on_port); then
    log "restarting the local Debian cluster $cluster on port $DB_PORT ($mode)"
    # shellcheck disable=SC2086
    pg_ctlcluster --skip-systemctl-redirect -m "$mode" $cluster restart
  else
    refuse "PostgreSQL at $DB_HOST:$DB_PORT was not started by this stack and is not a local Debian cluster"
  fi
  wait_for_port "$DB_HOST" "$DB_PORT" 60 PostgreSQL
  local i; for i in $(seq 1 100); do psql_admin -c 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.2; done
  die "PostgreSQL at $DB_HOST:$DB_PORT does not accept connections after the restart"
}

# Whether restart would restart the server (exit 0) or refuse (exit 3), asked before a test starts an outage
# scenario, so that it is skipped up front instead of halfway.
can_restart() { # [fast|immediate]
  local kind what
  if kind=$(private_running); then
    read -r kind what < "$PRIVATE_PID"
    [ "$kind" = embedded ] && [ "${1:-fast}" = immediate ] && exit $REFUSED
    return 0
  fi
  is_local_host "$DB_HOST" && debian_cluster_on_port >/dev/null && return 0
  exit $REFUSED
}

case ${1:-ensure} in
  ensure) ensure ;;
  stop) stop_private ;;
  restart) restart "${2:-fast}" ;;
  can-restart) can_restart "${2:-fast}" ;;
  *) die "usage: postgres.sh ensure|stop|restart [fast|immediate]|can-restart [fast|immediate]" ;;
esac
