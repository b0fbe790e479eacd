#!/usr/bin/env bash
# Retention at volume (issue 22 item 5): what a month of callback_log costs to remove, as a dropped partition
# against the DELETE and VACUUM the unpartitioned table needed, what the upgrade to the partitioned table (V73)
# costs, and the erasure's rate. On a PostgreSQL of your choice, in two databases of its own (dropped at the end).
#   src/bench/retention-bench.sh [ROWS]      ROWS deliveries (default 3000000) over the three months before this one
# Needs psql. PG_HOST, PG_PORT, PG_ADMIN_USER (127.0.0.1, 5432, postgres; PGPASSWORD if it wants one): a role that
# may create databases. Rows are ~1.2 KB each, like a text message's delivery: 3 million take ~3.7 GB, twice.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROWS=${1:-3000000}
: "${PG_HOST:=127.0.0.1}" "${PG_PORT:=5432}" "${PG_ADMIN_USER:=postgres}"
A=wecom_retention_bench_a
B=wecom_retention_bench_b
sql() { local db=$1; shift; psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_ADMIN_USER" -d "$db" -v ON_ERROR_STOP=1 -qAt "$@"; }
seconds() { awk -v s="$1" -v e="$(date +%s%N)" 'BEGIN { printf "%.2f", (e - s) / 1e9 }'; }
migrate() { # DB [TARGET]
  DB_HOST=$PG_HOST DB_PORT=$PG_PORT DB_NAME=$1 DB_USER=$PG_ADMIN_USER DB_PASSWORD=${PGPASSWORD:-} FLYWAY_TARGET=${2:-} \
    java -cp "$("$ROOT/src/stack/classpath.sh")" io.wecominbox.devstack.MigrateMain > /dev/null
}

for db in $A $B; do sql postgres -c "DROP DATABASE IF EXISTS $db"; done
sql postgres -c "CREATE DATABASE $A"
migrate $A 72
first=$(sql $A -c "SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '3 months'")
echo "filling $ROWS deliveries from $first on (schema V72, unpartitioned)"
sql $A -c "INSERT INTO callback_log (received_at, app, corp_id, agent_id, query_string, raw_body, plaintext, msg_type,
    event_type, event_key, event_created_at, attempt, remote_addr, outcome, published_at)
  SELECT timestamptz '$first' + g * (interval '89 days' / $ROWS), 'customer', 'ww0123456789', '1000002',
    'msg_signature=0123456789abcdef0123456789abcdef01234567&timestamp=1764700000&nonce=123456', repeat('A', 600),
    '<xml><ToUserName><![CDATA[ww0123456789]]></ToUserName><FromUserName><![CDATA[member' || (g % 5000)
      || ']]></FromUserName><CreateTime>1764700000</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[hello '
      || g || ']]></Content><MsgId>' || g || '</MsgId><AgentID>1000002</AgentID></xml>',
    'text', 'text', 'customer:msg:' || g, now(), 1, '10.0.0.1', 'ENQUEUED', now()
  FROM generate_series(1, $ROWS) g"
echo "table: $(sql $A -c "SELECT pg_size_pretty(pg_total_relation_size('callback_log'))")"
sql postgres -c "CREATE DATABASE $B TEMPLATE $A"

t=$(date +%s%N); migrate $A
echo "upgrade to the partitioned table (V73, V74): $(seconds "$t") s"
month=$(sql $A -c "SELECT 'callback_log_p' || to_char(timestamptz '$first' AT TIME ZONE 'UTC', 'YYYYMM')")
rows=$(sql $A -c "SELECT count(*) FROM $month")
t=$(date +%s%N); sql $A -c "DROP TABLE $month"
echo "the oldest month ($rows rows) as a partition: DROP TABLE $(seconds "$t") s"
t=$(date +%s%N); sql $B -c "DELETE FROM callback_log WHERE received_at < timestamptz '$first' + interval '1 month'"
d=$(seconds "$t"); t=$(date +%s%N); sql $B -c "VACUUM callback_log"
echo "the same month unpartitioned: DELETE $d s, then VACUUM $(seconds "$t") s"
# the retention job's erasure statement (CallbackLogRetention), 200 batches of 1000, each its own transaction
t=$(date +%s%N)
for _ in $(seq 200); do
  echo "UPDATE callback_log SET raw_body = '', plaintext = '', content_erased_at = now()
    WHERE (callback_log_id, received_at) IN (SELECT callback_log_id, received_at FROM callback_log
      WHERE content_erased_at IS NULL AND received_at < now() - interval '30 days' AND published_at IS NOT NULL
      ORDER BY received_at LIMIT 1000 FOR UPDATE SKIP LOCKED);"
done | sql $A > /dev/null
echo "erasure: $(sql $A -c "SELECT count(*) FROM callback_log WHERE content_erased_at IS NOT NULL") deliveries in $(seconds "$t") s (200 batches of 1000)"
for db in $A $B; do sql postgres -c "DROP DATABASE $db"; done
