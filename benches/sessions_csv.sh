#!/usr/bin/env bash
# Times the sessions CSV file of a range (`/reports/sessions.csv?from=&to=`)
# on both backends: on a SQLite database built by examples/year.rs, and on a
# new PostgreSQL database (made by `pitboss migrate`) holding a copy of the
# tables the file reads (pools, tables, players, seatings and the seatings'
# totals, stacks and seats taken), copied with the triggers off. N requests
# to each, one after the other, the release binary; prints each time and
# whether both files are the same bytes.
#
#   PITBOSS_YEAR_HANDS_PER_DAY=40000 target/release/examples/year /tmp/m.sqlite 1200000
#   benches/sessions_csv.sh /tmp/m.sqlite 2026-10-30 2026-11-28 8
#
# Adds a user `csvtimer` (accountant) to the SQLite database when it has
# none. Needs `cargo build --release --bins --examples` first, the sqlite3
# command (Debian's package sqlite3), psql, and PostgreSQL at PG_ADMIN_URL
# (default postgres://postgres@127.0.0.1:5432/postgres).
set -euo pipefail
db=${1:?the SQLite database}
from=${2:?from (YYYY-MM-DD)}
to=${3:?to (YYYY-MM-DD)}
n=${4:-8}
admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
cd "$(dirname "$0")/.."
bin=target/release/pitboss
[ -x "$bin" ] || { echo "build first: cargo build --release --bins --examples" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command" >&2; exit 2; }
work=$(mktemp -d)
name=pitboss_sessions_$$
# The service connects through the Unix socket when it answers, as
# benches/load_run.sh does (PG_URL_OPTIONS to say otherwise; empty for TCP).
if [ -z "${PG_URL_OPTIONS+set}" ]; then
  PG_URL_OPTIONS=""
  if psql "${admin}?host=/var/run/postgresql" -qAtc 'SELECT 1' >/dev/null 2>&1; then
    PG_URL_OPTIONS="?host=/var/run/postgresql"
  fi
fi
pg="${admin%/*}/$name$PG_URL_OPTIONS"
servers=()
cleanup() {
  for s in "${servers[@]}"; do kill "$s" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql "$admin" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
tables="pools casino_tables players seatings seating_totals seating_stacks open_seatings"
psql "$admin" -qc "CREATE DATABASE $name"
DATABASE_URL=$pg "$bin" migrate >/dev/null
{
  echo "SET session_replication_role = replica;"
  for t in $tables; do
    sqlite3 -header -csv "$db" "SELECT * FROM $t" > "$work/$t.csv"
    echo "\\copy $t FROM '$work/$t.csv' CSV HEADER"
  done
  echo "VACUUM ANALYZE;"
} | psql -q "$pg"
echo "copied to $name: $(psql -Atc 'SELECT count(*) FROM seating_totals' "$pg") sessions' totals"
password='sessions-csv-timer-password'
DATABASE_URL=$db "$bin" admin token --username csvtimer --label csv >/dev/null 2>&1 \
  || echo "$password" | DATABASE_URL=$db "$bin" admin create --username csvtimer --role accountant >/dev/null
echo "$password" | DATABASE_URL=$pg "$bin" admin create --username csvtimer --role accountant >/dev/null
declare -A token port
for backend in sqlite postgres; do
  url=$db
  [ "$backend" = postgres ] && url=$pg
  token[$backend]=$(DATABASE_URL=$url "$bin" admin token --username csvtimer --label csv)
  port[$backend]=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  DATABASE_URL=$url BIND_ADDR=127.0.0.1:${port[$backend]} RUST_LOG=error "$bin" serve --migrate-on-start never &
  servers+=($!)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:${port[$backend]}/readyz" >/dev/null && break; sleep 0.1; done
done
for backend in sqlite postgres; do
  times=""
  for _ in $(seq "$n"); do
    t=$(curl -fs -o "$work/$backend.csv" -w '%{time_total}' -H "Authorization: Bearer ${token[$backend]}" \
      "http://127.0.0.1:${port[$backend]}/reports/sessions.csv?from=$from&to=$to")
    times="$times $t"
  done
  echo "$backend: $(wc -c < "$work/$backend.csv") bytes, $(($(wc -l < "$work/$backend.csv") - 2)) sessions; s:$(echo "$times" | tr ' ' '\n' | sort -n | tr '\n' ' ')"
done
if cmp -s "$work/sqlite.csv" "$work/postgres.csv"; then echo "the same bytes on both"; else echo "the files differ"; exit 1; fi
