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
: "${REDIS_HOST:=127.0.0.1}" "${REDIS_PORT:=6379}"
: "${HTTP_PORT:=9080}" "${HTTPS_PORT:=9443}"
# Test runs (mvn verify sets STACK_FRESH=true) get a disposable database of their own, emptied at start,
# beside the one the demo keeps.
if [ "${STACK_FRESH:-false}" = true ] && [[ $DB_NAME != *_test ]]; then DB_NAME="${DB_NAME}_test"; fi
export DB_HOST DB_PORT DB_NAME DB_USER BROKER_HOST BROKER_PORT BROKER_USER ARTEMIS_CONSOLE_PORT \
       ARTEMIS_ADMIN_USER REDIS_HOST REDIS_PORT HTTP_PORT HTTPS_PORT

random_secret() { head -c 18 /dev/urandom | base64 | tr -d '/+=' | head -c 20; }

# Secrets nobody configured are generated once per checkout and kept in target/stack/secrets.env (0600).
# A value from the environment always wins and is never written to disk.
load_secrets() {
  [ -f "$SECRETS_FILE" ] && . "$SECRETS_FILE"
  local changed=0 name
  for name in DB_PASSWORD BROKER_PASSWORD ARTEMIS_ADMIN_PASSWORD; do
    if [ -z "${!name:-}" ]; then
      printf -v "$name" '%s' "$(random_secret)"; changed=1
      ( umask 077; printf '%s=%s\n' "$name" "${!name}" >> "$SECRETS_FILE" )
    fi
    export "${name?}"
  done
  [ $changed = 1 ] && log "generated dev secrets in $SECRETS_FILE"
  return 0
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for_port() { # host port seconds what
  local i
  for ((i = 0; i < $3 * 5; i++)); do port_open "$1" "$2" && return 0; sleep 0.2; done
  die "$4 did not open $1:$2 within $3 s"
}

is_local_host() { case "$1" in 127.*|localhost|::1) return 0;; *) return 1;; esac; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
