#!/usr/bin/python3
"""Verifies a hand receipt (stud-receipt-v1, docs/fairness.md). Exit 0 only when every
check holds; otherwise exit 1 naming each check that failed (2: unreadable input).

  verify.py RECEIPT.json [--newhand NEWHAND.json] [--update U.json ...]
            [--cards CARDS.json ...] [--keys KEYS.json] [--my-seed SEAT:HEX ...]

RECEIPT.json: {"transcript", "signature", "public_key": base64, "key_id": 16 hex digits}
  (the receipt of HandUpdate.receipt and the key GetSigningKeys lists for its key_id).
--newhand   the NewHand answer (proto JSON): the server seed commitment (and, without
            players' seeds, the deck root) published before any card must be the receipt's.
--update    any later answer (e.g. the one that closed seeding, which publishes the deck
            root): its commitments must be the receipt's and its card proofs must hold.
--cards     card proofs ({position, card, salt, path}, anywhere in the JSON: a PrivateView,
            a HandUpdate, a list): each must lead to the receipt's deck root.
--keys      a GetSigningKeys answer: the receipt's key must be one of its keys.
--my-seed   the seed a seat sent (hex): the receipt must carry it for that seat.

Checks: the Ed25519 signature and key id; the transcript's form; the commitments against
the answers given; every proof against the deck root and against the card and position
the public log shows; and when the transcript reveals the server seed: its commitment,
the whole deck recomputed from the seeds (stud-shuffle-v1), its root, every card in the
log and every shown card at the position the deal gives it.
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import receipt as rc  # noqa: E402
import stud_shuffle as ss  # noqa: E402
from receipt import Failure  # noqa: E402


def b64(value, what):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    try:
        s = str(value).strip()
        s = s.replace("-", "+").replace("_", "/")
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (ValueError, TypeError):
        raise Failure("%s is not base64" % what)


class Verifier:
    def __init__(self):
        self.failures = []
        self.passed = []

    def check(self, ok, what):
        (self.passed if ok else self.failures).append(what)
        return ok

    def signature(self, rec, keys):
        try:
            import nacl.exceptions
            import nacl.signing
        except ImportError:
            raise Failure("python3-nacl is missing (apt-get install python3-nacl)")
        transcript = b64(rec.get("transcript", ""), "transcript")
        sig = b64(rec.get("signature", ""), "signature")
        pk = b64(rec.get("public_key", ""), "public_key")
        key_id = str(rec.get("key_id", ""))
        if not self.check(len(pk) == 32, "public key is 32 bytes"):
            return transcript
        want = hashlib.sha256(pk).digest()[:8].hex()
        self.check(key_id == want, "key_id %s is SHA-256(public key)[:8] (%s)" % (key_id, want))
        if keys is not None:
            listed = [b64(rc.field(k, "public_key"), "keys public_key")
                      for k in (rc.field(keys, "keys") or [])]
            self.check(pk in listed, "the public key is one GetSigningKeys lists")
        ok = len(sig) == 64
        if ok:
            try:
                nacl.signing.VerifyKey(pk).verify(transcript, sig)
            except (nacl.exceptions.BadSignatureError, ValueError):
                ok = False
        self.check(ok, "Ed25519 signature over the transcript")
        return transcript

    def transcript(self, t):
        self.hand_id = rc.unhex(t.get("hand_id", ""), "hand_id", 16)
        seats = t.get("seats")
        self.check(isinstance(seats, list) and 0 < len(seats) <= 8, "seats listed")
        self.service = t.get("dealing") == "SERVICE"
        self.commitment = self.root = None
        self.seeds = []
        if self.service and "server_seed_commitment" not in t:
            raise Failure("the receipt has no server seed commitment: the hand was not dealt "
                          "by stud-shuffle-v1 (a hand started before it), nothing to check")
        if self.service:
            self.commitment = rc.unhex(t.get("server_seed_commitment", ""),
                                       "server_seed_commitment", 32)
            self.root = rc.unhex(t.get("deck_root", ""), "deck_root", 32)
            seeds = t.get("player_seeds")
            if seeds is None:
                seeds = [""] * len(seats or [])
            self.seeds = [rc.unhex(s, "player_seeds[%d]" % i) for i, s in enumerate(seeds)]
            self.check(len(self.seeds) == len(seats or []), "one player seed per seat")
            self.check(all(len(s) <= 64 for s in self.seeds), "player seeds are at most 64 bytes")
        self.derived = None
        if "server_seed" in t:
            self.check(self.service, "a server seed only in a SERVICE hand")
            seed = rc.unhex(t["server_seed"], "server_seed", 32)
            self.check(hmac.compare_digest(ss.sha256(seed), self.commitment or b""),
                       "SHA-256(server_seed) is the server seed commitment")
            self.derived = ss.Derived(seed, self.hand_id, self.seeds)
            self.check(hmac.compare_digest(self.derived.root, self.root or b""),
                       "the deck recomputed from the seeds has the receipt's deck root")
        deck = self.derived.codes() if self.derived else None
        order = self.derived.recycle_order if self.derived else None
        self.deal = rc.Deal(t.get("log") or [], deck and [ss.card_index(c) for c in deck], order)
        if self.derived:
            self.logged_cards()
            self.shown_cards(t.get("shown") or [])

    def logged_cards(self):
        bad = [(k, s, c, p) for k, s, c, p in self.deal.draws
               if c and (p is None or self.derived.codes()[p] != c)]
        self.check(not bad, "every card in the log is the deck's card at its position%s" %
                   ("" if not bad else ": %s at seat %d is not" % (bad[0][2], bad[0][1])))

    def shown_cards(self, shown):
        codes = self.derived.codes()
        for entry in shown:
            seat = int(entry.get("seat", 0))
            dealt = sorted(codes[p] for p in self.deal.seat_positions(seat) if p is not None)
            self.check(sorted(entry.get("cards") or []) == dealt,
                       "seat %d showed the cards the deck dealt it (%s)" % (seat, " ".join(dealt)))

    def commitments(self, answer, name, at_newhand):
        fair = rc.find(answer, "fairness")
        pv_id = rc.find(answer, "hand_id")
        if pv_id is not None:
            self.check(pv_id == self.hand_id.hex(), "%s is for the receipt's hand" % name)
        if not self.service:
            return
        if not self.check(isinstance(fair, dict), "%s carries the fairness data" % name):
            return
        c = b64(rc.field(fair, "server_seed_commitment") or "", "server_seed_commitment")
        self.check(c == self.commitment, "%s published the receipt's server seed commitment" % name)
        root = b64(rc.field(fair, "deck_root") or "", "deck_root")
        if root or not at_newhand:
            self.check(root == self.root, "%s published the receipt's deck root" % name)
        self.proofs(answer, name)

    def proofs(self, obj, name):
        proofs = rc.proofs_in(obj)
        by_position = {p: c for _, _, c, p in self.deal.draws if c and p is not None}
        for pr in proofs:
            p = int(pr.get("position", 0))
            card = str(pr.get("card", ""))
            salt = b64(pr.get("salt", ""), "salt")
            path = [b64(x, "path") for x in pr.get("path") or []]
            what = "%s: %s at position %d" % (name, card, p)
            self.check(self.root is not None and ss.verify_card(self.root, p, card, salt, path),
                       what + " is proven against the deck root")
            if p in by_position:
                self.check(by_position[p] == card,
                           what + " is the card the log shows there (%s)" % by_position[p])
            if self.derived:
                self.check(0 <= p < 52 and self.derived.codes()[p] == card and
                           self.derived.salts[p] == salt, what + " is the recomputed deck's")
        return len(proofs)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Failure("cannot read %s: %s" % (path, e))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("receipt")
    ap.add_argument("--newhand")
    ap.add_argument("--update", action="append", default=[])
    ap.add_argument("--cards", action="append", default=[])
    ap.add_argument("--keys")
    ap.add_argument("--my-seed", action="append", default=[])
    ap.add_argument("-q", "--quiet", action="store_true", help="print failures only")
    args = ap.parse_args(argv)
    v = Verifier()
    try:
        rec = load(args.receipt)
        if isinstance(rec.get("receipt"), dict):  # a HandUpdate with its receipt
            rec = dict(rec["receipt"], **{k: rec[k] for k in ("public_key",) if k in rec})
        transcript = v.signature(rec, load(args.keys) if args.keys else None)
        v.transcript(rc.parse_transcript(transcript))
        if args.newhand:
            v.commitments(load(args.newhand), "the NewHand answer", True)
        for path in args.update:
            v.commitments(load(path), path, False)
        for path in args.cards:
            n = v.proofs(load(path), path)
            v.check(n > 0, "%s holds card proofs" % path)
        for spec in args.my_seed:
            seat, _, hexseed = spec.partition(":")
            i = int(seat) - 1
            v.check(0 <= i < len(v.seeds) and v.seeds[i] == rc.unhex(hexseed, "--my-seed"),
                    "seat %s's seed is in the receipt" % seat)
    except Failure as e:
        for what in v.failures:
            print("FAILED: %s" % what, file=sys.stderr)
        print("verify: REFUSED: %s" % e, file=sys.stderr)
        return 2
    if not args.quiet:
        for what in v.passed:
            print("ok: %s" % what)
    for what in v.failures:
        print("FAILED: %s" % what, file=sys.stderr)
    print("verify: %s (%d checks, %d failed)" %
          ("receipt verified" if not v.failures else "REFUSED", len(v.passed) + len(v.failures),
           len(v.failures)), file=sys.stderr if v.failures else sys.stdout)
    return 1 if v.failures else 0


if __name__ == "__main__":
    sys.exit(main())
