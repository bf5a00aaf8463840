#!/usr/bin/python3
"""Writes tests/data/fairness/receipts.json: signed stud-receipt-v1 receipts of hands
dealt by the Python reference, each with what a verifier must conclude ("expect"):
honest hands (sealed and revealed, with and without players' seeds) and the cheats every
verifier must refuse (a flipped transcript byte, a swapped card, a changed seed, a wrong
key, an operator's re-sealed deck). Deterministic (Ed25519 signatures are), so the file
is committed and ctest Fairness.Vectors checks it is current.

The hands are simple (every seat to showdown, no recycle); the log lines have the shape
of the service's ("<index> <TYPE> seat=N street=S [card=XX] [up] ... rule=ID"). Real hands
come from stud_server in Fairness.EndToEnd.

  /usr/bin/python3 tests/fairness/make_receipts.py [--out PATH] [--check]
"""

import argparse
import base64
import copy
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "fairness"))
import stud_shuffle as ss  # noqa: E402
import nacl.signing  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "fairness", "receipts.json")
SIGNER = nacl.signing.SigningKey(hashlib.sha256(b"stud receipts test key").digest())
OTHER = nacl.signing.SigningKey(hashlib.sha256(b"stud receipts other key").digest())


def b64(raw):
    return base64.b64encode(raw).decode()


def h(label, n):
    return hashlib.sha256(label.encode()).digest()[:n] if n <= 32 else (
        hashlib.sha256(label.encode()).digest() + hashlib.sha256((label + "+").encode()).digest()
    )[:n]


def deal(n):
    """Positions of a SERVICE deal to n <= 6 seats who all reach showdown (docs/dealing.md):
    3rd street three passes (down, down, up), then a burn and one card each on 4th-7th."""
    pos = 0
    ops = []  # (kind, seat, street, position, face_up)
    for pass_ in range(3):
        for s in range(1, n + 1):
            ops.append(("deal", s, 3, pos, pass_ == 2))
            pos += 1
    for street in (4, 5, 6, 7):
        ops.append(("burn", 0, street, pos, False))
        pos += 1
        for s in range(1, n + 1):
            ops.append(("deal", s, street, pos, street != 7))
            pos += 1
    return ops


def proof_json(d, p):
    pr = d.proof(p)
    out = {"card": pr["card"], "salt": b64(pr["salt"]), "path": [b64(x) for x in pr["path"]]}
    if p:
        out["position"] = p  # proto3 JSON leaves out a zero
    return out


class Hand:
    def __init__(self, name, n, seeds, reveal, server_seed, hand_id):
        self.name, self.n, self.reveal = name, n, reveal
        self.server_seed, self.hand_id = server_seed, hand_id
        self.player_seeds = seeds is not None
        self.seeds = seeds if seeds is not None else [b""] * n
        self.d = ss.Derived(server_seed, hand_id, self.seeds)
        self.deck = self.d.codes()  # an operator's re-seal edits these
        self.ops = deal(n)

    def dealt(self, seat):
        return [self.deck[p] for k, s, _, p, _ in self.ops if k == "deal" and s == seat]

    def transcript(self):
        names = {3: "THIRD", 4: "FOURTH", 5: "FIFTH", 6: "SIXTH", 7: "SEVENTH"}
        log = ["ANTE seat=%d street=THIRD amount=1 rule=STUD-SETUP-2" % s
               for s in range(1, self.n + 1)]
        for kind, seat, street, p, up in self.ops:
            if kind == "burn":
                log.append("BURN seat=0 street=%s rule=STUD-DEAL-3" % names[street])
            else:
                log.append("DEAL seat=%d street=%s%s rule=STUD-DEAL-%d" % (
                    seat, names[street], " card=%s up" % self.deck[p] if up else "",
                    1 if street == 3 else 2))
        log += ["SHOW seat=%d street=SHOWDOWN" % s for s in range(1, self.n + 1)]
        log += ["AWARD seat=1 street=SHOWDOWN pot=0 half=WHOLE amount=%d" % self.n,
                "HAND_END seat=0 street=SHOWDOWN"]
        log = ["%d %s" % (i, line) for i, line in enumerate(log)]
        t = {"format": "stud-receipt-v1", "hand_id": self.hand_id.hex(), "variant": "STUD",
             "dealing": "SERVICE",
             "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
             "seats": [{"seat": s, "stack": 1000} for s in range(1, self.n + 1)],
             "server_seed_commitment": self.d.server_seed_commitment.hex(),
             "deck_root": self.d.root.hex(),
             "player_seeds": [s.hex() for s in self.seeds],
             "log": log,
             "shown": [{"seat": s, "cards": self.dealt(s)} for s in range(1, self.n + 1)],
             "rulings": [{"rule": "STUD-BRING-1", "seat": 1}],
             "pots": [{"amount": self.n, "winners": [1]}],
             "version": len(log)}
        if self.reveal:
            t["server_seed"] = self.server_seed.hex()
        return t

    def newhand(self):
        fair = {"shuffle": "stud-shuffle-v1",
                "serverSeedCommitment": b64(self.d.server_seed_commitment)}
        if not self.player_seeds:  # dealt at once: the root and the door cards' proofs
            fair["deckRoot"] = b64(self.d.root)
            fair["cardProofs"] = [proof_json(self.d, 2 * self.n + i) for i in range(self.n)]
        else:
            fair["playerSeeds"] = True
        if self.reveal:
            fair["reveal"] = "REVEAL_POLICY_AT_END"
        return {"update": {"publicView": {"handId": self.hand_id.hex(), "fairness": fair}}}

    def seeded_update(self):
        """The answer to the last seed (or the close): the root and the door cards."""
        return {"update": {"publicView": {"handId": self.hand_id.hex(), "fairness": {
            "shuffle": "stud-shuffle-v1", "serverSeedCommitment": b64(self.d.server_seed_commitment),
            "deckRoot": b64(self.d.root),
            "cardProofs": [proof_json(self.d, 2 * self.n + i) for i in range(self.n)]}}}}

    def seat_cards(self, seat):
        """Seat's PrivateView proofs: every card dealt to it."""
        ps = [p for k, s, _, p, _ in self.ops if k == "deal" and s == seat]
        return {"seat": seat, "cardProofs": [proof_json(self.d, p) for p in ps]}


def sign(transcript, key=SIGNER, pk=None):
    data = json.dumps(transcript, separators=(",", ":"), ensure_ascii=False).encode()
    pub = bytes(pk if pk is not None else key.verify_key)
    return {"transcript": b64(data), "signature": b64(key.sign(data).signature),
            "public_key": b64(pub), "key_id": hashlib.sha256(pub).digest()[:8].hex()}


def case(name, hand, expect, why, receipt=None, cards=True, **extra):
    c = {"name": name, "expect": expect, "why": why,
         "receipt": receipt or sign(hand.transcript()), "newhand": hand.newhand()}
    if hand.player_seeds:
        c["updates"] = [hand.seeded_update()]
    if cards:
        c["cards"] = [hand.seat_cards(1)]
    c.update(extra)
    return c


def build():
    sealed = Hand("sealed", 3, None, False, h("r/s1", 32), h("r/h1", 16))
    seeded = Hand("seeded", 3, [h("r/p1", 64), b"\x2a", b""], True, h("r/s2", 32), h("r/h2", 16))
    plain_revealed = Hand("plain", 5, None, True, h("r/s3", 32), h("r/h3", 16))
    seeded_sealed = Hand("seeded sealed", 2, [b"north", b"south"], False,
                         h("r/s4", 32), h("r/h4", 16))
    keys = {"keys": [{"keyId": hashlib.sha256(bytes(SIGNER.verify_key)).digest()[:8].hex(),
                      "publicKey": b64(bytes(SIGNER.verify_key))}]}
    cases = [
        case("sealed hand, no players' seeds, seat 1's cards", sealed, True, "honest",
             keys=keys),
        case("revealed hand, a 64-byte seed, a 1-byte seed and a closed seat", seeded, True,
             "honest", keys=keys, my_seeds=["1:" + seeded.seeds[0].hex(), "2:2a"]),
        case("revealed hand, five seats, no players' seeds", plain_revealed, True, "honest"),
        case("sealed hand with players' seeds", seeded_sealed, True, "honest",
             my_seeds=["2:" + b"south".hex()]),
    ]
    for hand in (sealed, seeded):
        r = sign(hand.transcript())
        raw = bytearray(base64.b64decode(r["transcript"]))
        raw[len(raw) // 2] ^= 0x01
        cases.append(case("%s: one transcript byte flipped" % hand.name, hand, False,
                          "signature", dict(r, transcript=b64(bytes(raw)))))
        wrong = sign(hand.transcript(), key=OTHER, pk=bytes(SIGNER.verify_key))
        cases.append(case("%s: signed by another key" % hand.name, hand, False, "signature", wrong))
        cases.append(case("%s: the other key presented as the signer" % hand.name, hand, False,
                          "key not listed by GetSigningKeys", sign(hand.transcript(), key=OTHER),
                          keys=keys))
    # A swapped card: seat 1 is said to have shown another card (the operator re-signs).
    for hand in (seeded, plain_revealed):
        t = hand.transcript()
        t["shown"][0]["cards"][0] = hand.deck[51]
        cases.append(case("%s: seat 1's shown card swapped" % hand.name, hand, False,
                          "shown card not the deck's", sign(t)))
    # A swapped upcard in the log, proofs unchanged (the log disagrees with the proven card).
    t = sealed.transcript()
    i = next(i for i, line in enumerate(t["log"]) if " DEAL seat=1 street=THIRD card=" in line)
    t["log"][i] = "%d DEAL seat=1 street=THIRD card=%s up rule=STUD-DEAL-1" % (i, sealed.deck[50])
    cases.append(case("sealed: seat 1's door card swapped in the log", sealed, False,
                      "log disagrees with the proof", sign(t)))
    # A proof of a card the seat did not get.
    c = case("sealed: a proof names another card at seat 1's position", sealed, False, "proof")
    c["cards"][0]["cardProofs"][0]["card"] = sealed.deck[51]
    cases.append(c)
    # A changed seed.
    t = seeded.transcript()
    t["player_seeds"][1] = "2b"
    cases.append(case("seeded: seat 2's seed changed", seeded, False, "deck root", sign(t)))
    t = seeded_sealed.transcript()
    t["player_seeds"][1] = b"soutH".hex()
    cases.append(case("seeded sealed: seat 2's seed changed", seeded_sealed, False,
                      "the seat's own seed", sign(t), my_seeds=["2:" + b"south".hex()]))
    # The operator's re-seal: two undealt cards swapped, the tree rebuilt and signed.
    for hand in (sealed, seeded):
        forged = copy.deepcopy(hand)
        a, b = 50, 51  # never dealt to 3 seats
        d = forged.d
        d.deck[a], d.deck[b] = d.deck[b], d.deck[a]
        d.leaves = [ss.leaf_hash(p, ss.card_code(d.deck[p]), d.salts[p]) for p in range(52)]
        d.root = ss.merkle_root(d.leaves)
        forged.deck = d.codes()
        c = case("%s: re-sealed deck (positions 50 and 51 swapped, root rebuilt)" % hand.name,
                 forged, False, "root differs from the one published before the first card",
                 sign(forged.transcript()))
        c["newhand"] = hand.newhand()
        if hand.player_seeds:
            c["updates"] = [hand.seeded_update()]
        cases.append(c)
    return {"format": "stud-receipt-v1 test receipts", "generator": "tests/fairness/make_receipts.py",
            "public_key": b64(bytes(SIGNER.verify_key)), "cases": cases}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = json.dumps(build(), indent=1) + "\n"
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print("%s differs from what make_receipts.py writes" % args.out, file=sys.stderr)
                return 1
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
