#!/usr/bin/env python3
"""Writes tests/data/fairness/vectors.json, the stud-shuffle-v1 test vectors, from the
Python reference (stud_shuffle.py). Deterministic: running it again gives the same file,
and ctest Fairness.Vectors checks that the committed file is what this script writes.

  python3 tools/fairness/make_vectors.py [--out tests/data/fairness/vectors.json] [--check]
"""

import argparse
import hashlib
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stud_shuffle as ss  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "fairness", "vectors.json")


def h(label, n):
    """n deterministic bytes named by label (vectors must not change between runs)."""
    out = b""
    k = 0
    while len(out) < n:
        out += hashlib.sha256(("stud-shuffle-v1 vectors/%s/%d" % (label, k)).encode()).digest()
        k += 1
    return out[:n]


# (name, server seed, hand id, player seeds in seat order; b"" = the seat gave none)
CASES = [
    ("counting seed, two seats, no player seeds", bytes(range(32)), bytes(range(16)),
     [b"", b""]),
    ("zero seed, eight seats, no player seeds", bytes(32), bytes(16), [b""] * 8),
    ("three seats: a 64-byte seed, a 1-byte seed, a closed seat", h("s3", 32), h("h3", 16),
     [h("p3a", 64), b"\x07", b""]),
    ("three seats, the same but the 1-byte seed changed", h("s3", 32), h("h3", 16),
     [h("p3a", 64), b"\x08", b""]),
    ("three seats, the same but the closed seat's place moved", h("s3", 32), h("h3", 16),
     [h("p3a", 64), b"", b"\x07"]),
    ("four seats, ASCII seeds", h("s4", 32), h("h4", 16),
     [b"alice", b"bob", b"carol", b"dave"]),
    ("seven seats, every seat seeded 1..64 bytes", h("s7", 32), h("h7", 16),
     [h("p7/%d" % i, n) for i, n in enumerate([1, 2, 16, 31, 32, 33, 64])]),
    ("eight seats, all 0xff seeds of 64 bytes", b"\xff" * 32, b"\xff" * 16,
     [b"\xff" * 64] * 8),
]

AUDIT_POSITIONS = [0, 1, 7, 31, 47, 48, 50, 51]


def uniform_vectors():
    """The sampler alone, on given 4-byte words: rejection at and above the limit."""
    out = []
    for m, words in [(52, [0xFFFFFFFF, 5]), (52, [2**32 - (2**32 % 52), 2**32 - (2**32 % 52) - 1]),
                     (2, [0xFFFFFFFF, 0]), (1, [0]), (51, [2**32 - (2**32 % 51), 1000])]:
        data = b"".join(struct.pack(">I", w) for w in words)
        it = iter([data[i:i + 4] for i in range(0, len(data), 4)])
        value = ss.uniform(lambda: next(it), m)
        used = len(data) // 4 - sum(1 for _ in it)
        out.append({"m": m, "words": data.hex(), "value": value, "words_read": used,
                    "limit": 2**32 - (2**32 % m)})
    return out


def case(name, server_seed, hand_id, seeds):
    d = ss.Derived(server_seed, hand_id, seeds)
    deck_stream = ss.Stream(d.prk, b"deck", d.context)
    return {
        "name": name,
        "server_seed": server_seed.hex(),
        "hand_id": hand_id.hex(),
        "player_seeds": [s.hex() for s in seeds],
        "prk": d.prk.hex(),
        "context": d.context.hex(),
        "deck_stream_first_64": deck_stream.read(64).hex(),
        "server_seed_commitment": d.server_seed_commitment.hex(),
        "deck": d.codes(),
        "deck_indexes": d.deck,
        "recycle_order": d.recycle_order,
        "salts": [s.hex() for s in d.salts],
        "leaves": [x.hex() for x in d.leaves],
        "deck_root": d.root.hex(),
        "audit_paths": [{"position": p, "card": ss.card_code(d.deck[p]),
                         "salt": d.salts[p].hex(),
                         "path": [x.hex() for x in ss.audit_path(p, d.leaves)]}
                        for p in AUDIT_POSITIONS],
    }


def build():
    return {
        "format": "stud-shuffle-v1 test vectors",
        "spec": "docs/fairness.md",
        "generator": "tools/fairness/make_vectors.py",
        "notes": "Byte strings are lowercase hex. deck[p] / deck_indexes[p] is the card at "
                 "position p (0 = first taken). recycle_order is Permutation(\"recycle\") as "
                 "card indexes. audit_paths list sibling hashes from the leaf up (RFC 6962).",
        "uniform": uniform_vectors(),
        "cases": [case(*c) for c in CASES],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when the file differs from what would be written")
    args = ap.parse_args()
    text = json.dumps(build(), indent=1) + "\n"
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print("%s differs from what make_vectors.py writes" % args.out, file=sys.stderr)
                return 1
        print("vectors up to date: %s" % args.out)
        return 0
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
