#!/usr/bin/env bash
# More Liberty nodes beside the build's server (node 1, LIBERTY_SERVER), in the same wlp.
# Usage: nodes.sh create|start|stop|kill|status N   (N >= 2; start, stop, kill and status also take 1)
#   create  server ${LIBERTY_SERVER}N whose server.xml, bootstrap.properties, jvm.options, configDropins/, jdbc/
#           and the entries of apps/ and resources/ are links to node 1's (the same WAR and configuration, never
#           a second copy),
#           and whose server.env is node 1's with its own HTTP_PORT, HTTPS_PORT and NODE_NAME; its logs,
#           workarea, unpacked WAR, keystore and transaction log are its own (server output directory)
#   start   create (again: picks up what node 1 gained since), start, wait until /health/ready answers
#   stop    `server stop`;  kill: kill -9 (no shutdown at all, as a crash);  status: process and readiness
# Ports: NODE<N>_HTTP_PORT / NODE<N>_HTTPS_PORT, by default HTTP_PORT+N-1 / HTTPS_PORT+N-1 (node 2: +1).
# Node 1's server.env is the one stack.sh services-start writes: run that first.
. "$(dirname "$0")/lib.sh"

node_name() { [ "$1" = 1 ] && echo "$LIBERTY_SERVER" || echo "$LIBERTY_SERVER$1"; }
node_dir() { echo "$WLP_DIR/usr/servers/$(node_name "$1")"; }
node_http_port() { local name=NODE$1_HTTP_PORT; echo "${!name:-$((HTTP_PORT + $1 - 1))}"; }
node_https_port() { local name=NODE$1_HTTPS_PORT; echo "${!name:-$((HTTPS_PORT + $1 - 1))}"; }
node_pid_file() { echo "$WLP_DIR/usr/servers/.pid/$(node_name "$1").pid"; }

# ln -sfn to node 1's entry, relative so the wlp can move; a real file or directory in the way is refused.
link_to_node1() { # dir entry
  local target=../$LIBERTY_SERVER/$2
  [ -e "$SERVER_DIR/$2" ] || return 0
  if [ -e "$1/$2" ] && [ ! -L "$1/$2" ]; then
    die "$1/$2 is a real file, not a link to node 1's: remove it (one configuration for every node)"
  fi
  ln -sfn "$target" "$1/$2"
}

link_entries_to_node1() { # dir subdir entry-not-shared
  local entry name
  [ -L "$1/$2" ] && rm "$1/$2" # a link to node 1's whole directory, as an earlier version made
  mkdir -p "$1/$2"
  for entry in "$SERVER_DIR/$2"/*; do
    name=$(basename "$entry")
    [ -e "$entry" ] && [ "$name" != "$3" ] || continue
    ln -sfn "../../$LIBERTY_SERVER/$2/$name" "$1/$2/$name"
  done
}

create() { # N
  local n=$1 dir entry
  [ "$n" -ge 2 ] 2>/dev/null || die "nodes.sh create takes a node number >= 2 (node 1 is the build's server)"
  [ -f "$SERVER_DIR/server.xml" ] || die "node 1 ($SERVER_DIR) is missing: build first (stack.sh run or mvn verify)"
  [ -f "$SERVER_DIR/server.env" ] || die "node 1 has no server.env yet: run stack.sh services-start first"
  dir=$(node_dir "$n")
  mkdir -p "$dir" # a fresh build has node 1 only
  for entry in server.xml wecom-inbox.xml bootstrap.properties jvm.options configDropins dropins jdbc; do
    link_to_node1 "$dir" "$entry"
  done
  # apps/ and resources/ hold what each server writes for itself: apps/expanded (where Liberty unpacks a WAR:
  # two nodes unpacking into one directory broke the application's start) and resources/security (each node
  # makes its own keystore, same KEYSTORE_PASSWORD). Their other entries are links to node 1's.
  link_entries_to_node1 "$dir" apps expanded
  link_entries_to_node1 "$dir" resources security
  # node 1's environment (secrets, database, broker, Redis, WeCom apps) with this node's ports and name.
  # NODE_NAME is the node in metrics and its transaction recovery identity (server.xml variable node.name).
  local name_var=NODE${n}_NAME
  {
    grep -v -E '^(HTTP_PORT|HTTPS_PORT|NODE_NAME)=' "$SERVER_DIR/server.env" | sed -e '$a\'
    printf 'HTTP_PORT=%s\nHTTPS_PORT=%s\nNODE_NAME=%s\n' "$(node_http_port "$n")" "$(node_https_port "$n")" \
      "${!name_var:-$(node_name "$n")}"
  } > "$dir/server.env.new"
  chmod 600 "$dir/server.env.new"; mv "$dir/server.env.new" "$dir/server.env"
}

wait_node_ready() { # N
  local i port; port=$(node_http_port "$1")
  for i in $(seq 1 180); do
    curl -fsS "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1 && return 0
    pid_alive "$(node_pid_file "$1")" || die "node $1 exited; see $(node_dir "$1")/logs/messages.log"
    sleep 1
  done
  die "node $1 not ready after 180 s; see $(node_dir "$1")/logs/messages.log"
}

start() { # N
  [ "$1" = 1 ] || create "$1"
  if pid_alive "$(node_pid_file "$1")"; then log "node $1 ($(node_name "$1")) already running"; return 0; fi
  port_open 127.0.0.1 "$(node_http_port "$1")" \
    && die "port $(node_http_port "$1") is taken by something else: choose another NODE$1_HTTP_PORT"
  log "starting node $1 ($(node_name "$1")) on :$(node_http_port "$1")"
  "$WLP_DIR/bin/server" start "$(node_name "$1")" >/dev/null < /dev/null
  wait_node_ready "$1"
}

stop() { # N
  [ -d "$(node_dir "$1")" ] || return 0
  "$WLP_DIR/bin/server" stop "$(node_name "$1")" >/dev/null 2>&1 < /dev/null || true
}

kill_node() { # N
  local pid_file; pid_file=$(node_pid_file "$1")
  pid_alive "$pid_file" || { log "node $1 is not running"; return 0; }
  kill -KILL "$(cat "$pid_file")"; log "killed node $1 (kill -9)"
}

status() { # N
  local port; port=$(node_http_port "$1")
  if pid_alive "$(node_pid_file "$1")"; then
    printf 'node %s (%s) running %s on :%s, ready: %s\n' "$1" "$(node_name "$1")" "$(cat "$(node_pid_file "$1")")" \
      "$port" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)"
  else
    printf 'node %s (%s) stopped\n' "$1" "$(node_name "$1")"
  fi
}

n=${2:-}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "usage: nodes.sh create|start|stop|kill|status N"
case ${1:-} in
  create) create "$n" ;;
  start) start "$n" ;;
  stop) stop "$n" ;;
  kill) kill_node "$n" ;;
  status) status "$n" ;;
  *) die "usage: nodes.sh create|start|stop|kill|status N" ;;
esac
