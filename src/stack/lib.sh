# Shared by the dev-stack scripts. Sourced, not run.
# Everything the stack makes lives under target/stack (STACK_DIR); nothing outside the project is touched
# except a PostgreSQL the user pointed us at (we create our role and database there, and on a local
# Debian cluster we set max_prepared_transactions, which XA needs).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${WECOM_BUILD_DIR:-$ROOT/target}
STACK_DIR=${STACK_DIR:-$BUILD_DIR/stack}
LIBERTY_SERVER=${LIBERTY_SERVER:-wecomInbox}
WLP_DIR=$BUILD_DIR/liberty/wlp
SERVER_DIR=$WLP_DIR/usr/servers/$LIBERTY_SERVER
SECRETS_FILE=$STACK_DIR/secrets.env
mkdir -p "$STACK_DIR/logs" "$STACK_DIR/pids"

log()  { printf '[stack] %s\n' "$*" >&2; }
die()  { printf '[stack] ERROR: %s\n' "$*" >&2; exit 1; }

# Defaults for what the user did not configure. Same names as the server.xml variables' env overrides.
: "${DB_HOST:=127.0.0.1}" "${DB_PORT:=5432}" "${DB_NAME:=wecom_inbox}" "${DB_USER:=wecom}"
: "${BROKER_HOST:=127.0.0.1}" "${BROKER_PORT:=61616}" "${BROKER_USER:=wecom}"
: "${ARTEMIS_CONSOLE_PORT:=8161}" "${ARTEMIS_ADMIN_USER:=admin}"
# the application's read-only management user at the broker (role monitor: src/main/broker/wecom-inbox-management.xml)
: "${ARTEMIS_MONITOR_USER:=wecom-monitor}"
# the broker pair's backup (artemis.sh start-backup): next to the primary's ports
: "${BROKER_BACKUP_PORT:=$((BROKER_PORT + 1))}" "${ARTEMIS_BACKUP_CONSOLE_PORT:=$((ARTEMIS_CONSOLE_PORT + 1))}"
# test runs start a private Redis of their own (src/stack/redis.sh), away from a shared one on 6379
if [ "${STACK_FRESH:-false}" = true ]; then : "${REDIS_PORT:=6390}"; fi
: "${REDIS_HOST:=127.0.0.1}" "${REDIS_PORT:=6379}"
: "${HTTP_PORT:=9080}" "${HTTPS_PORT:=9443}"
: "${ADMIN_USER:=admin}"
# Test runs (mvn verify sets STACK_FRESH=true) get a disposable database of their own, emptied at start,
# beside the one the demo keeps.
if [ "${STACK_FRESH:-false}" = true ] && [[ $DB_NAME != *_test ]]; then DB_NAME="${DB_NAME}_test"; fi
export DB_HOST DB_PORT DB_NAME DB_USER BROKER_HOST BROKER_PORT BROKER_USER ARTEMIS_CONSOLE_PORT \
       BROKER_BACKUP_PORT ARTEMIS_BACKUP_CONSOLE_PORT ARTEMIS_ADMIN_USER ARTEMIS_MONITOR_USER REDIS_HOST REDIS_PORT \
       HTTP_PORT HTTPS_PORT ADMIN_USER

random_secret() { head -c 18 /dev/urandom | base64 | tr -d '/+=' | head -c 20; }

# Secrets nobody configured are generated once per checkout and kept in target/stack/secrets.env (0600).
# A value from the environment always wins and is never written to disk.
load_secrets() {
  [ -f "$SECRETS_FILE" ] && . "$SECRETS_FILE"
  local changed=0 name
  for name in DB_PASSWORD BROKER_PASSWORD ARTEMIS_ADMIN_PASSWORD ARTEMIS_MONITOR_PASSWORD ARTEMIS_CLUSTER_PASSWORD \
              ADMIN_PASSWORD KEYSTORE_PASSWORD; do
    if [ -z "${!name:-}" ]; then
      printf -v "$name" '%s' "$(random_secret)"; changed=1
      ( umask 077; printf '%s=%s\n' "$name" "${!name}" >> "$SECRETS_FILE" )
    fi
    export "${name?}"
  done
  load_wecom_apps || changed=1
  [ $changed = 1 ] && log "generated dev secrets in $SECRETS_FILE"
  return 0
}

random_alnum() { LC_ALL=C tr -dc 'A-Za-z0-9' < /dev/urandom | head -c "$1" || true; }
random_hex() { od -An -N "$1" -tx1 /dev/urandom | tr -d ' \n'; }

# Demo WeCom apps for the dev stack (the simulator plays WeCom with the same values). Names follow
# MicroProfile Config's environment mapping: wecom.app.customer.corp-id <- WECOM_APP_CUSTOMER_CORP_ID.
# Returns 1 when it generated something. The EncodingAESKey uses EncodingAesKeys.generate()'s alphabet
# (43 letters and digits): any such string is a valid key, and this runs before anything is compiled.
WECOM_KEY_SUFFIXES="CORP_ID TOKEN ENCODING_AES_KEY AGENT_ID SECRET"
load_wecom_apps() {
  local generated=0 app upper key name value corp agent=1000002
  if [ -z "${WECOM_APPS:-}" ]; then
    WECOM_APPS=customer,contacts; generated=1
    ( umask 077; printf 'WECOM_APPS=%s\n' "$WECOM_APPS" >> "$SECRETS_FILE" )
  fi
  export WECOM_APPS
  # One demo corp with two self-built apps, as a real WeCom corp would have.
  corp=${WECOM_DEMO_CORP_ID:-ww$(random_hex 8)}
  for app in ${WECOM_APPS//,/ }; do
    upper=$(printf '%s' "$app" | tr 'a-z-' 'A-Z_')
    for key in $WECOM_KEY_SUFFIXES; do
      name=WECOM_APP_${upper}_$key
      if [ -z "${!name:-}" ]; then
        case $key in
          CORP_ID) value=$corp ;;
          TOKEN) value=$(random_alnum 24) ;;
          ENCODING_AES_KEY) value=$(random_alnum 43) ;;
          AGENT_ID) value=$agent ;;
          SECRET) value=$(random_alnum 43) ;;
        esac
        printf -v "$name" '%s' "$value"; generated=1
        ( umask 077; printf '%s=%s\n' "$name" "$value" >> "$SECRETS_FILE" )
      fi
      export "${name?}"
    done
    agent=$((agent + 1))
  done
  return $((generated == 0 ? 0 : 1))
}

# Every WECOM_APPS / WECOM_APP_* variable set now, one NAME per line (for server.env).
wecom_app_variables() { compgen -v | grep -E '^WECOM_APPS$|^WECOM_APP_[A-Z0-9_]+$' || true; }

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for_port() { # host port seconds what
  local i
  for ((i = 0; i < $3 * 5; i++)); do port_open "$1" "$2" && return 0; sleep 0.2; done
  die "$4 did not open $1:$2 within $3 s"
}

is_local_host() { case "$1" in 127.*|localhost|::1) return 0;; *) return 1;; esac; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Stops the process of a pid file (TERM, up to 5 s, then KILL) and removes the file.
stop_pid_file() { # pid-file what
  pid_alive "$1" || { rm -f "$1"; return 0; }
  local pid i; pid=$(cat "$1")
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$1"; log "stopped $2"
}

# For benchmark scripts: `stack.sh run --no-demo` of the checkout $1 in the background (log $2), stopped when
# the calling script exits; returns once the server answers ready (at most 300 s).
run_stack_for_bench() {
  local root=$1 run_log=$2 i
  mkdir -p "$(dirname "$run_log")"
  "$root/src/stack/stack.sh" run --no-demo ${INGEST_BENCH_NODES:+--nodes "$INGEST_BENCH_NODES"} > "$run_log" 2>&1 &
  BENCH_STACK_PID=$!
  trap 'kill -TERM "$BENCH_STACK_PID" 2>/dev/null && wait "$BENCH_STACK_PID" 2>/dev/null; log "stack stopped"' EXIT
  log "starting the stack of $root (log: $run_log)"
  for i in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$HTTP_PORT/health/ready" >/dev/null 2>&1 && return 0
    kill -0 "$BENCH_STACK_PID" 2>/dev/null || die "the stack did not start; see $run_log"
    sleep 1
  done
  die "the stack is not ready after 300 s; see $run_log"
}
