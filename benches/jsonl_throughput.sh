#!/usr/bin/env bash
# `pitboss score --jsonl` end to end on one core: N random showdowns from a
# file through the release binary, output discarded. Prints showdowns/s.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-500000}
cargo build --release --quiet
cargo run --release --quiet --example gen_showdowns -- "$n" 7 > target/showdowns.jsonl
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
start=$(date +%s.%N)
$pin ./target/release/pitboss score --jsonl < target/showdowns.jsonl > target/results.jsonl
end=$(date +%s.%N)
lines=$(wc -l < target/results.jsonl)
errors=$(grep -c '"error"' target/results.jsonl || true)
python3 -c "import sys; n=$lines; t=$end-$start; print(f'{n} showdowns in {t:.2f} s: {n/t:,.0f} showdowns/s on one core ({$errors} errors)')"
