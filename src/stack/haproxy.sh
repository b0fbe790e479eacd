#!/usr/bin/env bash
# HAProxy in front of the Liberty nodes: WeCom's public callback port (LB_PORT) for every node of the stack.
# Usage: haproxy.sh start | stop | status
#   start   installs HAProxy from Debian's packages when it is missing, writes target/stack/haproxy.cfg and runs
#           it in the background (our own process, not the system service); pid under target/stack/pids
#   status  whether it runs, and each node as the load balancer sees it (UP / DOWN)
# Settings: LB_HOST (127.0.0.1), LB_PORT (HTTP_PORT+2), LB_STATS_PORT (LB_PORT+100), LB_NODES (how many Liberty
# nodes: 2), NODE2_HTTP_PORT (HTTP_PORT+1), LB_READY_CHECK (the readiness check that must be UP),
# LB_SOURCE_IN_FLIGHT (100) and LB_SOURCE_PER_SECOND (200): the per-client limits, LB_EXEMPT_SOURCES (127.0.0.1:
# the simulator and the benchmarks; space-separated addresses or CIDRs, empty for none).
. "$(dirname "$0")/lib.sh"
: "${LB_HOST:=127.0.0.1}" "${LB_PORT:=$((HTTP_PORT + 2))}" "${LB_STATS_PORT:=$((LB_PORT + 100))}"
: "${LB_NODES:=2}" "${NODE2_HTTP_PORT:=$((HTTP_PORT + 1))}"
# A node takes callbacks while it can acknowledge them: the readiness check "ack-path" is UP (it stays UP
# while the broker is down and callbacks wait in callback_log, when /health/ready as a whole answers 503).
: "${LB_READY_CHECK:=ack-path}"
: "${LB_SOURCE_IN_FLIGHT:=100}" "${LB_SOURCE_PER_SECOND:=200}" "${LB_EXEMPT_SOURCES=127.0.0.1}"
CONFIG=$STACK_DIR/haproxy.cfg
PID_FILE=$STACK_DIR/pids/haproxy.pid
LOG_FILE=$STACK_DIR/logs/haproxy.log

ensure_installed() {
  command -v haproxy >/dev/null 2>&1 && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    die "HAProxy is not installed and apt-get is not usable here (needs Debian/Ubuntu and root): install the package 'haproxy' (or put a haproxy binary on PATH) and run again"
  fi
  log "installing HAProxy from Debian's packages (apt-get install -y haproxy)"
  # the package's own service is not what the stack runs: keep apt from starting it
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy > "$STACK_DIR/logs/haproxy-install.log" 2>&1 \
    || { DEBIAN_FRONTEND=noninteractive apt-get update -q >> "$STACK_DIR/logs/haproxy-install.log" 2>&1 \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy >> "$STACK_DIR/logs/haproxy-install.log" 2>&1; } \
    || die "apt-get install haproxy failed; see $STACK_DIR/logs/haproxy-install.log"
  command -v haproxy >/dev/null 2>&1 || die "apt-get installed haproxy but it is not on PATH"
}

node_port() { # N -> that node's HTTP port
  case $1 in
    1) echo "$HTTP_PORT" ;;
    2) echo "$NODE2_HTTP_PORT" ;;
    *) local name=NODE$1_HTTP_PORT; echo "${!name:-$((HTTP_PORT + $1 - 1))}" ;;
  esac
}

write_config() {
  local n
  {
    cat <<CFG
# Written by src/stack/haproxy.sh: edit that script, not this file.
global
  log stdout format raw local0 info
  maxconn 2000

defaults
  mode http
  log global
  option httplog
  option dontlognull
  # WeCom waits 5 s for an answer, then re-sends: a node must be chosen and must answer well within that
  timeout connect 500ms
  timeout client 10s
  timeout server 4s
  timeout http-request 5s
  # a busy node's readiness can take over 1 s (seen at 50 callbacks/s on 2 cores): a check waits 2 s
  timeout check 2s
  # A connection the node refused or never accepted (a dead or stopping node) goes to another node.
  # Callbacks are POSTs and not idempotent at the HTTP level, but our ingest is (every delivery is a
  # callback_log row, duplicates are absorbed downstream); still only a request that never reached a node
  # may be re-sent: retry-on conn-failure, never on a response timeout or a broken response (the node may
  # have committed it; WeCom re-sends after its 5 s anyway).
  retries 2
  retry-on conn-failure
  option redispatch 1

frontend wecom_callbacks
  bind $LB_HOST:$LB_PORT
  # A cleartext HTTP/2 upgrade (h2c; Java's HttpClient asks for one) would make the connection a tunnel to
  # one node, no longer balanced per request: callbacks and checks stay HTTP/1.1
  http-request del-header Upgrade if { req.hdr(upgrade) -i h2c }
  http-request del-header HTTP2-Settings
  # Slow clients stop here: the whole body must arrive within timeout http-request before a node sees the
  # request, so a slow-body attack holds HAProxy's cheap sockets, never a node's (docs/deploy.md, "HTTP limits")
  option http-buffer-request
  # Per client address, the limits a node applies when it faces the internet itself; the nodes exempt HAProxy's
  # address, so these are the ones that count here (over them: 429, as a node answers); the rate over 2 s, as the
  # node allows a burst of two seconds' worth
  stick-table type ipv6 size 100k expire 30s store conn_cur,http_req_rate(2s)
  acl exempt_source src ${LB_EXEMPT_SOURCES:-255.255.255.255}
  http-request track-sc0 src if !exempt_source
  http-request deny deny_status 429 if !exempt_source { sc_conn_cur(0) gt $LB_SOURCE_IN_FLIGHT }
  http-request deny deny_status 429 if !exempt_source { sc_http_req_rate(0) gt $((2 * LB_SOURCE_PER_SECOND)) }
  # the nodes see HAProxy's address; the client's goes along for their logs and audit
  option forwardfor
  default_backend wecom_nodes

backend wecom_nodes
  balance roundrobin
  # the node answered: which one, for operators and the failover tests
  http-response set-header X-Wecom-Node %[srv_name]
  option httpchk
  http-check send meth GET uri /health/ready
  # readiness may answer 503 while the ACK path still accepts: the check looks at the JSON, not the status
  http-check expect rstring "\"name\" *: *\"$LB_READY_CHECK\" *, *\"status\" *: *\"UP\""
  # A dead node is out at its first refused connections (observe layer4) or after 3 failed checks (a hung
  # one: at most ~9 s), back after 2 good ones
  default-server inter 1s fastinter 500ms downinter 1s fall 3 rise 2 observe layer4 error-limit 2 on-error mark-down
  # When every node fails its check (all busy, say), try them anyway rather than answer 503 ourselves: a node
  # that cannot acknowledge answers 503 itself, and a dead one refuses, so the request goes to the next
  option allbackups
CFG
    for ((n = 1; n <= LB_NODES; n++)); do
      printf '  server node%d 127.0.0.1:%s check\n' "$n" "$(node_port "$n")"
    done
    for ((n = 1; n <= LB_NODES; n++)); do
      printf '  server node%d-unchecked 127.0.0.1:%s backup\n' "$n" "$(node_port "$n")"
    done
    cat <<CFG

listen stats
  bind 127.0.0.1:$LB_STATS_PORT
  stats enable
  stats uri /
  stats refresh 2s
CFG
  } > "$CONFIG.new"
  haproxy -c -q -f "$CONFIG.new" >&2 || die "HAProxy rejects the configuration it was given ($CONFIG.new)"
  mv "$CONFIG.new" "$CONFIG"
}

start() {
  if pid_alive "$PID_FILE"; then log "HAProxy already running (pid $(cat "$PID_FILE"))"; return; fi
  ensure_installed
  port_open "$LB_HOST" "$LB_PORT" && die "port $LB_PORT is taken by something this stack did not start: choose another LB_PORT"
  write_config
  log "starting HAProxy on $LB_HOST:$LB_PORT for $LB_NODES nodes (stats http://127.0.0.1:$LB_STATS_PORT/)"
  # -db: stay in the foreground (our background process, logging to its file); setsid: Ctrl-C reaches the
  # run script, which stops it in order
  setsid nohup haproxy -db -f "$CONFIG" > "$LOG_FILE" 2>&1 < /dev/null &
  echo $! > "$PID_FILE"
  local i
  for ((i = 0; i < 50; i++)); do
    port_open "$LB_HOST" "$LB_PORT" && return 0
    pid_alive "$PID_FILE" || die "HAProxy exited at start; see $LOG_FILE"
    sleep 0.2
  done
  die "HAProxy did not open $LB_HOST:$LB_PORT within 10 s; see $LOG_FILE"
}

stop() { stop_pid_file "$PID_FILE" "HAProxy"; }

# One line per node: its name, state (UP, DOWN, ...) and last check, from the stats page's CSV.
status() {
  if ! pid_alive "$PID_FILE"; then echo stopped; return 0; fi
  echo "running $(cat "$PID_FILE") on $LB_HOST:$LB_PORT (stats http://127.0.0.1:$LB_STATS_PORT/)"
  curl -fsS "http://127.0.0.1:$LB_STATS_PORT/;csv" 2>/dev/null \
    | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
               $1 == "wecom_nodes" && $2 != "BACKEND" { print $2, $col["status"], $col["check_status"] }'
}

case ${1:-start} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) die "usage: haproxy.sh start|stop|status" ;;
esac
