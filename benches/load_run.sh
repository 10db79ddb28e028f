#!/usr/bin/env bash
# A bounded load run on loopback: a fresh database (SQLite file, or a fresh
# PostgreSQL database), the release binary, an admin made with
# `pitboss admin create`, then `examples/load.rs commits` with TABLES tables
# committing hands for SECONDS seconds, the server's memory sampled every
# second. The load generator checks afterwards that every acknowledged hand is
# present exactly once and that every stack and the pool reconcile.
#
#   benches/load_run.sh sqlite 300 32
#   PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres benches/load_run.sh postgres 300 32
#
# On PostgreSQL the service connects as PG_ADMIN_URL (no query string) says, to the new
# database, with PG_URL_OPTIONS appended (default: through the server's Unix
# socket, `?host=/var/run/postgresql`, when it answers; set it to
# empty for TCP, with TLS where the server offers it, or to
# `?sslmode=disable` for TCP without TLS), and a pool of DATABASE_POOL_SIZE
# connections (default 8). docs/operations.md says why. Where the server's
# autovacuum is off, the script runs VACUUM (ANALYZE) as it would
# (PG_VACUUM_EVERY seconds, default 60; 0: never).
#
# After the load phase it prints what a hand cost in CPU, the service,
# PostgreSQL and the load generator apart (docs/benchmarks.md, 2026-12-03,
# third).
#
# Needs `cargo build --release --bins --examples` first. PITBOSS_BIN names
# another build of the service to run (a copy of an earlier build, to compare
# two side by side).
set -euo pipefail
backend=${1:-sqlite}
seconds=${2:-60}
tables=${3:-32}
cd "$(dirname "$0")/.."
bin=${PITBOSS_BIN:-target/release/pitboss}
load=target/release/examples/load
for exe in "$bin" "$load"; do
  [ -x "$exe" ] || { echo "$exe: not found (build first: cargo build --release --bins --examples)" >&2; exit 2; }
done
work=$(mktemp -d)
# (Only the processes started here: `kill 0` would stop the whole group.)
trap 'kill ${server:+"$server"} ${vacuum:+"$vacuum"} 2>/dev/null || true; rm -rf "$work"' EXIT
case "$backend" in
  sqlite) export DATABASE_URL="$work/load.sqlite" ;;
  postgres)
    admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
    name=pitboss_load_$$
    psql "$admin" -qc "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
    # Unless told, the Unix socket when it answers (its rules in
    # pg_hba.conf may differ), else TCP.
    if [ -z "${PG_URL_OPTIONS+set}" ]; then
      PG_URL_OPTIONS=""
      if psql "${admin}?host=/var/run/postgresql" -qAtc 'SELECT 1' >/dev/null 2>&1; then
        PG_URL_OPTIONS="?host=/var/run/postgresql"
      fi
    fi
    export DATABASE_URL="${admin%/*}/$name$PG_URL_OPTIONS"
    export DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-8}
    echo "PostgreSQL database $name, a pool of $DATABASE_POOL_SIZE, connection options '$PG_URL_OPTIONS'"
    ;;
  *) echo "backend: sqlite or postgres" >&2; exit 2 ;;
esac
echo 'load-run-password' | "$bin" admin create --username load --role admin --role floor >/dev/null
PITBOSS_TOKEN=$("$bin" admin token --username load --label "load run")
export PITBOSS_TOKEN
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BIND_ADDR=127.0.0.1:$port RUST_LOG=error "$bin" serve &
server=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
# PostgreSQL keeps its planner's statistics by autovacuum, which
# docs/operations.md asks to keep on. On a server where it is off (this
# project's machines), the script does what it would: VACUUM (ANALYZE) of the
# load database 10 s into the run and then every PG_VACUUM_EVERY seconds
# (default 60, autovacuum's naptime; 0: never). Without it every plan made
# while the tables were small is kept for the whole run.
vacuum_every=${PG_VACUUM_EVERY:-60}
if [ "$backend" = postgres ] && [ "$vacuum_every" != 0 ] \
    && [ "$(psql "$admin" -qAtc 'SHOW autovacuum')" = off ]; then
  echo "autovacuum is off on this server: VACUUM (ANALYZE) at 10 s, then every $vacuum_every s"
  ( sleep 10
    while kill -0 "$server" 2>/dev/null; do
      psql "${admin%/*}/$name" -qc 'VACUUM (ANALYZE)' >/dev/null 2>&1 || true
      sleep "$vacuum_every"
    done ) &
  vacuum=$!
fi
touch "$work/heap"
# The server's RSS every second; at the first second of each minute also what
# /metrics says of its memory: SQLite's allocations (its page caches and
# statements), the C library's malloc (in use, held) and what mimalloc has
# committed.
( i=0; while kill -0 "$server" 2>/dev/null; do
    awk '/VmRSS/ {print $2}' "/proc/$server/status" 2>/dev/null || true
    if [ $((i % 60)) = 0 ]; then
      # (A scrape that fails or is not known prints "-", so that the minutes
      # still line up with the RSS.)
      { curl -fs --max-time 2 "http://127.0.0.1:$port/metrics" || true; } | awk '
        BEGIN {sqlite = "-"; in_use = "-"; held = "-"; mi = "-"}
        /^pitboss_sqlite_heap_bytes/ {sqlite = int($2 / 1048576)}
        /^pitboss_malloc_bytes\{state="in_use"\}/ {in_use = int($2 / 1048576)}
        /^pitboss_malloc_bytes\{state="held"\}/ {held = int($2 / 1048576)}
        /^pitboss_mimalloc_committed_bytes/ {mi = int($2 / 1048576)}
        END {print sqlite, in_use, held, mi}' >> "$work/heap" || true
    fi
    i=$((i + 1))
    sleep 1
  done ) > "$work/rss" &
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$server/status"; }
# A process's own user and system time so far, in clock ticks (0 when it is
# not there). Its name, in parentheses after its pid, may hold spaces: the
# fields are counted after it (utime and stime, the 14th and 15th of the
# whole line, are the 12th and 13th after the name).
own_ticks() { { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null || true; } | awk '{t = $12 + $13} END {print t + 0}'; }
# CPU time so far, in clock ticks, on one line: the service's; PostgreSQL's
# (every process named postgres on this machine, with the children the
# postmaster has reaped: a VACUUM's backend that has ended; 0 when the server
# is on another machine); the load generator's; and the whole machine's, busy
# and in all.
cpu_ticks() {
  {
    own_ticks "$server"
    # (A postgres process's name has no space; a process that ends meanwhile
    # is one file fewer, not a failure.)
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk '$2 == "(postgres)" {t += $14 + $15 + $16 + $17} END {print t + 0}'
    own_ticks "$(pgrep -f "^$load commits http://127.0.0.1:$port " | head -1 || true)"
    awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat
  } | tr '\n' ' '
}
# What a hand cost in CPU over the load phase, each part apart, and how busy
# the machine was: where a hand's time goes, and whether the cores were idle.
cpu_report() { # TICKS_BEFORE TICKS_AFTER HANDS
  awk -v hz="$(getconf CLK_TCK)" -v hands="$3" -v before="$1" -v after="$2" 'BEGIN {
    # (Nothing to say without the first reading, or without hands.)
    if (split(before, b) < 5 || split(after, a) < 5 || hands <= 0) exit
    us = 1e6 / hz / hands
    own = (a[1] - b[1]) + (a[2] - b[2]) + (a[3] - b[3])
    printf "CPU a hand over the load phase, µs: service %.0f, PostgreSQL %.0f, load generator %.0f, the rest of the machine %.0f; all %.0f (the machine %.0f %% busy)\n",
      (a[1] - b[1]) * us, (a[2] - b[2]) * us, (a[3] - b[3]) * us, ((a[4] - b[4]) - own) * us, (a[4] - b[4]) * us,
      100 * (a[4] - b[4]) / (a[5] - b[5])
  }'
}
"$load" commits "http://127.0.0.1:$port" "$tables" "$seconds" | while IFS= read -r line; do
  echo "$line"
  case "$line" in
    # The tables are set up: the load phase starts.
    "set up "*) ticks_before=$(cpu_ticks) ;;
    # The load phase is over: what it cost, and the server's memory before the
    # verification reads.
    committed*)
      cpu_report "${ticks_before:-}" "$(cpu_ticks)" "$(echo "$line" | awk '{print $2}')"
      echo "server memory (RSS) at the end of the load phase: $(rss) MB" ;;
  esac
done
rss_end=$(awk '/VmRSS/ {print $2}' "/proc/$server/status")
rss_peak=$(sort -n "$work/rss" | tail -1)
rss_start=$(head -1 "$work/rss")
echo "server memory (RSS): start $((rss_start / 1024)) MB, peak $((rss_peak / 1024)) MB, after the verification reads $((rss_end / 1024)) MB"
# Whether memory stays flat under load: the first sample of each minute.
echo "server memory (RSS) at each minute, MB: $(awk 'NR % 60 == 1 {printf "%d ", $1 / 1024}' "$work/rss")"
# What the allocators say at the same moments: SQLite's own allocations (its
# page caches and statements; 0 on PostgreSQL); through the C library's malloc
# (SQLite's, libpq's, zstd's; glibc only) what is allocated and what it holds from
# the system; and what mimalloc, the service's own allocator, has committed.
echo "allocated by SQLite, MB: $(awk '{printf "%s ", $1}' "$work/heap")"
echo "allocated through malloc, MB: $(awk '{printf "%s ", $2}' "$work/heap")"
echo "held by malloc, MB: $(awk '{printf "%s ", $3}' "$work/heap")"
echo "committed by mimalloc, MB: $(awk '{printf "%s ", $4}' "$work/heap")"
kill "$server"
wait "$server" 2>/dev/null || true
if [ "$backend" = postgres ]; then psql "$admin" -qc "DROP DATABASE IF EXISTS $name WITH (FORCE)"; fi
