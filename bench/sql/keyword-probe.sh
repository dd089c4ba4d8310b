#!/bin/bash
# A keyword's lookup as a search makes it (inbox_keyword_ticket_ids, as the big client's tenant),
# twice a second on one connection, printing each one's time in ms: run it beside a realtime
# bench to see what a search pays while messages come in (bench/history.md, twenty-second stop).
#
#   bash bench/sql/keyword-probe.sh 150 'INV/2026/80123' > /tmp/probe.txt
#
# The database is BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/bench.
set -euo pipefail
seconds=${1:?seconds}
keyword=${2:?keyword}
url=${BENCH_DATABASE_URL:-${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/bench}}
client=$(psql "$url" -Atc "select id from clients where slug = 'bench-big'")
pattern="%$(printf '%s' "$keyword" | tr '[:upper:]' '[:lower:]')%"
{
  echo "select set_config('app.client_id', '$client', false), set_config('role', 'app_tenant', false),"
  echo "       set_config('random_page_cost', '1.1', false), set_config('jit', 'off', false) \\g /dev/null"
  echo '\timing on'
  for _ in $(seq $((seconds * 2))); do
    echo "select 'probe', count(*) from inbox_keyword_ticket_ids('$client', \$k\$$keyword\$k\$, \$k\$$pattern\$k\$, null, 5000);"
    echo 'select pg_sleep(0.5) \g /dev/null'
  done
} | psql "$url" -At | awk '/^probe/ { timed = 1; next } timed && /^Time:/ { print $2; fflush(); timed = 0 }'
