#!/usr/bin/python3
"""ctest Fairness.Vectors: one set of vectors through every implementation.

  1. tests/data/fairness/vectors.json and receipts.json are what their generators write
     (tools/fairness/make_vectors.py, tests/fairness/make_receipts.py).
  2. The Python reference (tools/fairness/stud_shuffle.py) recomputes every vector and
     checks every audit path; a proof moved, changed or with a flipped hash is refused.
  3. The Python verifier (tools/fairness/verify.py, as a command) on every receipt: exit 0
     for the honest ones, non-zero naming the failed check for each forgery (a flipped
     transcript byte, a swapped card, a changed seed, a wrong key, a re-sealed deck).
  4. stud_cli verify (--cli) on every receipt, as verify.py.
  5. The C++ implementation (--cxx BINARY: tests/service/fairness_vectors_test.cc, the
     service's stud-shuffle-v1 and deck tree against the same vectors.json).
  6. The browser verifier (web/test/fairness.test.mjs) in Node's WebCrypto and in headless
     chromium (--node NODE; --no-browser leaves chromium out).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "fairness")
TOOLS = os.path.join(ROOT, "tools", "fairness")
sys.path.insert(0, TOOLS)
import stud_shuffle as ss  # noqa: E402

failures = []


def expect(ok, what):
    print("%s %s" % ("ok  " if ok else "FAIL", what), flush=True)
    if not ok:
        failures.append(what)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def generators():
    for script in (os.path.join(TOOLS, "make_vectors.py"),
                   os.path.join(ROOT, "tests", "fairness", "make_receipts.py")):
        p = run([sys.executable, script, "--check"])
        expect(p.returncode == 0, "%s --check: the committed file is current %s" %
               (os.path.basename(script), p.stderr.strip()))


def python_reference(vectors):
    for u in vectors["uniform"]:
        words = bytes.fromhex(u["words"])
        chunks = iter([words[i:i + 4] for i in range(0, len(words), 4)])
        expect(ss.uniform(lambda: next(chunks), u["m"]) == u["value"],
               "uniform(%d) on %s" % (u["m"], u["words"]))
    for c in vectors["cases"]:
        d = ss.Derived(bytes.fromhex(c["server_seed"]), bytes.fromhex(c["hand_id"]),
                       [bytes.fromhex(s) for s in c["player_seeds"]])
        got = {"deck": d.codes(), "deck_indexes": d.deck, "recycle_order": d.recycle_order,
               "salts": [s.hex() for s in d.salts], "leaves": [x.hex() for x in d.leaves],
               "deck_root": d.root.hex(), "prk": d.prk.hex(), "context": d.context.hex(),
               "server_seed_commitment": d.server_seed_commitment.hex()}
        expect(all(got[k] == c[k] for k in got), "Python reference: %s" % c["name"])
        expect(sorted(d.deck) == list(range(52)) and sorted(d.recycle_order) == list(range(52)),
               "deck and recycle order are permutations: %s" % c["name"])
        for a in c["audit_paths"]:
            p, salt = a["position"], bytes.fromhex(a["salt"])
            path = [bytes.fromhex(x) for x in a["path"]]
            expect(ss.verify_card(d.root, p, a["card"], salt, path), "proof of position %d" % p)
            flipped = [bytes([path[0][0] ^ 1]) + path[0][1:]] + path[1:]
            other = c["deck"][(p + 1) % 52]
            expect(not ss.verify_card(d.root, (p + 1) % 52, a["card"], salt, path) and
                   not ss.verify_card(d.root, p, other, salt, path) and
                   not ss.verify_card(d.root, p, a["card"], salt, flipped) and
                   not ss.verify_card(d.root, p, a["card"], salt, path[:-1]),
                   "proof of position %d refused moved, for another card, flipped, cut" % p)


def case_files(d, c):
    """The case's inputs as files: (receipt, newhand, updates, cards, keys or None)."""
    def put(name, obj):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            json.dump(obj, f)
        return path
    return (put("receipt.json", c["receipt"]), put("newhand.json", c["newhand"]),
            [put("update%d.json" % i, u) for i, u in enumerate(c.get("updates", []))],
            [put("cards%d.json" % i, u) for i, u in enumerate(c.get("cards", []))],
            put("keys.json", c["keys"]) if "keys" in c else None)


def cli_verifier(cli, receipts):
    """stud_cli verify (the service's C++ fairness code) on every receipt."""
    for c in receipts["cases"]:
        with tempfile.TemporaryDirectory() as d:
            receipt, newhand, updates, cards, keys = case_files(d, c)
            cmd = [cli, "--newhand", newhand, "--update", ",".join(updates),
                   "--cards", ",".join(cards), "--my_seed", ",".join(c.get("my_seeds", []))]
            if keys:
                cmd += ["--keys", keys]
            p = run(cmd + ["verify", receipt])
            ok = p.returncode == 0 if c["expect"] else p.returncode == 1
            expect(ok, "stud_cli verify %s: %s (exit %d) %s" % (
                "verifies" if c["expect"] else "refuses", c["name"], p.returncode,
                "" if ok else (p.stdout + p.stderr).strip()[-600:]))


def python_verifier(receipts):
    verify = os.path.join(TOOLS, "verify.py")
    for c in receipts["cases"]:
        with tempfile.TemporaryDirectory() as d:
            def put(name, obj):
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    json.dump(obj, f)
                return path
            cmd = [sys.executable, verify, put("receipt.json", c["receipt"]),
                   "--newhand", put("newhand.json", c["newhand"])]
            for i, u in enumerate(c.get("updates", [])):
                cmd += ["--update", put("update%d.json" % i, u)]
            for i, u in enumerate(c.get("cards", [])):
                cmd += ["--cards", put("cards%d.json" % i, u)]
            if "keys" in c:
                cmd += ["--keys", put("keys.json", c["keys"])]
            for s in c.get("my_seeds", []):
                cmd += ["--my-seed", s]
            p = run(cmd)
            named = "FAILED" in p.stderr or "REFUSED" in p.stderr
            ok = p.returncode == 0 if c["expect"] else (p.returncode != 0 and named)
            expect(ok, "verify.py %s: %s (exit %d) %s" % (
                "verifies" if c["expect"] else "refuses", c["name"], p.returncode,
                "" if ok else (p.stdout + p.stderr).strip()[-600:]))
    p = run([sys.executable, verify, os.path.join(DATA, "missing.json")])
    expect(p.returncode == 2 and "cannot read" in p.stderr, "verify.py: an unreadable file exits 2")


def cxx(binary):
    """The service's stud-shuffle-v1 and deck tree (tests/service/fairness_vectors_test.cc,
    a gtest that reads the same vectors.json)."""
    if not os.access(binary, os.X_OK):
        expect(False, "C++ %s is built (cmake --build build --target %s)" % (
            binary, os.path.basename(binary)))
        return
    p = run([binary, "--gtest_brief=1"])
    expect(p.returncode == 0 and "PASSED" in p.stdout, "C++ %s: %s" % (
        os.path.basename(binary), p.stdout.strip().splitlines()[-1] if p.stdout.strip() else
        p.stderr.strip()[-500:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cxx", help="the C++ vectors gtest binary (empty: skipped)")
    ap.add_argument("--cli", help="stud_cli (its verify command; empty: skipped)")
    ap.add_argument("--node", default="node")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--no-js", action="store_true")
    args = ap.parse_args()
    with open(os.path.join(DATA, "vectors.json")) as f:
        vectors = json.load(f)
    with open(os.path.join(DATA, "receipts.json")) as f:
        receipts = json.load(f)
    generators()
    python_reference(vectors)
    python_verifier(receipts)
    if args.cxx:
        cxx(args.cxx)
    else:
        print("skip C++: no --cxx binary given")
    if args.cli:
        cli_verifier(args.cli, receipts)
    else:
        print("skip stud_cli verify: no --cli binary given")
    if not args.no_js:
        env = dict(os.environ)
        if args.no_browser:
            env["FAIRNESS_NO_BROWSER"] = "1"
        p = run([args.node, "--test", "test/fairness.test.mjs"], cwd=os.path.join(ROOT, "web"),
                env=env)
        expect(p.returncode == 0, "browser verifier (Node%s): %s" % (
            "" if args.no_browser else " and chromium", p.stdout.strip()[-2000:]
            if p.returncode else "vectors and receipts"))
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
