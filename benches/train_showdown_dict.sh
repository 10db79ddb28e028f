#!/usr/bin/env bash
# Trains the zstd dictionary of stored showdowns' format 3
# (src/service/showdown3.dict, see src/service/showdown_z.rs) on the results
# a year's database holds, and prints what it saves on results held out.
#
#   benches/train_showdown_dict.sh [DATABASE_URL] [OUT]
#
# DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/year1, OUT to
# src/service/showdown3.dict. The database is the one examples/year.rs builds
# (20,000 hands: 50 four-seat tables, 400 hands each; its deals are seeded):
#
#   createdb -h 127.0.0.1 -U postgres year1
#   cargo run --release --example year -- postgres://postgres@127.0.0.1:5432/year1 20000
#   pip install zstandard==0.25.0      # bundles zstd 1.5.7
#   benches/train_showdown_dict.sh
#
# Training takes the results as stored (the text of serde_json::to_string of
# the settlement result) of tables 1 to 30: three sets of 4,000 (every third
# hand, from the first, second and third), each with the trainer's segment
# size k at 1250, 1511 and 1750 (d 8, all samples trained on, the tables
# fitted to zstd level 15; the service compresses at 12, about 9 bytes a
# result larger than at 15 in a fifth of the time). The dictionary that
# packs tables 31 to 40 the
# smallest is kept; tables 41 to 50 are held out for the figures printed at
# the end (format 2 as stored against format 3, whose sizes are measured as
# the service compresses: the same level, the same parameters). zstd's
# trainer (ZDICT fastCover, as python-zstandard's train_dictionary runs it in
# one thread) is deterministic: the same database, parameters and zstd
# version give the same bytes (run twice here: the same digest), and so the
# digest that src/service/showdown_z.rs pins. It is erratic across
# parameters, though (a few bytes a hand between neighbouring k), hence the
# search. A stored showdown of any format (1, 2 or 3) is read, so a database
# written by any version serves.
#
# The dictionary must never change once showdowns are stored with it: a new
# one is a new format.
set -euo pipefail

URL="${1:-postgres://postgres@127.0.0.1:5432/year1}"
OUT="${2:-$(dirname "$0")/../src/service/showdown3.dict}"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
ROWS="$(mktemp)"
trap 'rm -f "$ROWS"' EXIT

psql "$URL" -At -F ' ' -v ON_ERROR_STOP=1 -c "
  SELECT h.table_id, h.number, encode(s.showdown_z, 'hex')
  FROM showdowns s JOIN hands h ON h.id = s.hand_id
  WHERE s.showdown_z IS NOT NULL
  ORDER BY h.table_id, h.number" >"$ROWS"

python3 - "$ROWS" "$OUT" "$HERE/src/service" <<'PY'
import hashlib, os, statistics, sys, zlib
import zstandard as zstd

rows_path, out_path, service = sys.argv[1:4]
DICT_SIZE = 32 * 1024      # bytes; the dictionary of format 3
SAMPLES = 4000             # results trained on
SEGMENTS = (1250, 1511, 1750)  # the trainer's k, about a result's length
TRAIN_LAST = 40            # tables 1 to 30 trained on, 31 to 40 choose, the rest held out
LEVEL = 12                 # zstd's level, src/service/showdown_z.rs LEVEL_3
TRAIN_LEVEL = 15           # the level the pinned dictionary's tables were fitted to
DICT_1 = open(f"{service}/showdown.dict", "rb").read()
MAGIC_AND_HEADER = bytes([0x28, 0xB5, 0x2F, 0xFD, 0])
# The dictionary format 3 was written with (read before OUT is written).
DICT_3 = os.path.exists(f"{service}/showdown3.dict") and zstd.ZstdDecompressor(
    dict_data=zstd.ZstdCompressionDict(open(f"{service}/showdown3.dict", "rb").read()))

def inflate(body):
    z = zlib.decompressobj(-15, zdict=DICT_1)
    return z.decompress(body) + z.flush()

def seats_bytes(body, fmt=2):
    """Format 2's or 3's seats and cards (see src/service/showdown_z.rs)."""
    count = body[0]
    if fmt == 3:
        largest = 1
        for left in range(52, 52 - 13 * count, -1):
            largest *= left
        return 1 + count + ((largest - 1).bit_length() + 7) // 8
    return 1 + count * 2 + (count * 13 * 6 + 7) // 8

def read_result(stored):
    """The result text of a stored showdown, and its size if format 2."""
    fmt, body = stored[0], stored[1:]
    if fmt == 1:
        return inflate(body).split(b"\n", 1)[1], None
    head = seats_bytes(body, fmt)
    if fmt == 2:
        return inflate(body[head:]), len(stored)
    if fmt == 3:
        # The frame as format 3 keeps it, put back together.
        window, content = body[head], body[head + 1:]
        header = (len(content) << 3 | 5).to_bytes(3, "little")
        frame = MAGIC_AND_HEADER + bytes([window]) + header + content
        return DICT_3.decompressobj().decompress(frame), None
    raise SystemExit(f"format {fmt} is unknown")

hands = []  # (table, number, result text, seats' bytes with the format byte, format 2's size, seats)
for line in open(rows_path):
    table, number, hexed = line.split()
    stored = bytes.fromhex(hexed)
    result, format_2 = read_result(stored)
    seats = 1 + seats_bytes(stored[1:], stored[0]) if stored[0] != 1 else None
    hands.append((int(table), int(number), result, seats, format_2, stored[1] if stored[0] != 1 else None))

def format_3_sizes(data, texts):
    """Format 3's size of each text's result part with dictionary `data`,
    compressed as the service does (the level's parameters for a dictionary)."""
    c = zstd.ZstdCompressor(level=LEVEL, dict_data=zstd.ZstdCompressionDict(data),
                            write_content_size=False, write_checksum=False, write_dict_id=False)
    sizes = []
    for t in texts:
        frame = c.compress(t)
        # Kept: the window byte and the one block's content.
        block = frame[len(MAGIC_AND_HEADER) + 1:]
        assert frame.startswith(MAGIC_AND_HEADER) and block[:3] == ((len(block) - 3) << 3 | 5).to_bytes(3, "little")
        sizes.append(len(frame) - len(MAGIC_AND_HEADER) - 3)
    return sizes

# zstd's trainer is erratic on texts this alike (a dictionary of whole
# results, k about a result's length): a few sample sets and segment sizes
# are tried on tables 1 to 30 and the best on tables 31 to 40 is kept.
pool = [h[2] for h in hands if h[0] <= TRAIN_LAST - 10]
check = [h[2] for h in hands if TRAIN_LAST - 10 < h[0] <= TRAIN_LAST][::4]
held = [h for h in hands if h[0] > TRAIN_LAST]
step = max(1, len(pool) // SAMPLES)
best = None
for offset in range(min(step, 3)):
    samples = [t for t in pool[offset::step]][:SAMPLES]
    # An order that mixes the tables.
    samples.sort(key=zlib.crc32)
    for k in SEGMENTS:
        trained = zstd.train_dictionary(DICT_SIZE, samples, k=k, d=8, split_point=1.0, level=TRAIN_LEVEL, threads=0)
        size = statistics.mean(format_3_sizes(trained.as_bytes(), check))
        print(f"  samples from hand {offset}, k {k}: {size:.2f} bytes on tables {TRAIN_LAST - 9} to {TRAIN_LAST}", flush=True)
        if best is None or size < best[0]:
            best = (size, trained.as_bytes(), offset, k)
_, data, offset, k = best
open(out_path, "wb").write(data)
print(f"{out_path}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
print(f"kept: samples from hand {offset}, k {k}; held out: {len(held)} hands (tables {TRAIN_LAST + 1} on)")

def deflated(hand):
    """Format 2's result part: as stored, or as zlib deflates it (within a byte)."""
    if hand[4] is not None:
        return hand[4] - hand[3]
    z = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=DICT_1)
    return len(z.compress(hand[2]) + z.flush())

four = [h for h in held if h[3] is not None]
d2 = [deflated(h) for h in four]
z3 = format_3_sizes(data, [h[2] for h in four])
# The whole value: the format byte, then each format's seats and cards.
w2 = [1 + seats_bytes(bytes([h[5]]), 2) + d for h, d in zip(four, d2)]
w3 = [1 + seats_bytes(bytes([h[5]]), 3) + z for h, z in zip(four, z3)]
mean = lambda xs: round(statistics.mean(xs), 2)
print(f"held-out results: deflate (format 2) {mean(d2)} bytes, format 3 {mean(z3)}")
print(f"held-out showdown_z: format 2 {mean(w2)} bytes, format 3 {mean(w3)};"
      f" at most 126 bytes (a 1-byte bytea header): {sum(w <= 126 for w in w3)} of {len(w3)}")
PY
