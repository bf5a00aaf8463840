#!/usr/bin/python3
"""ctest Fairness.EndToEnd: real hands through a running stud_server, their receipts
verified by tools/fairness/verify.py (and refused once altered).

  e2e_receipt_test.py --server PATH/stud_server --proto_dir PATH/proto [--node NODE] [--cli CLI]

With --node the browser verifier (web/test/fairness_cli.mjs) and with --cli stud_cli verify
check the same receipts.

Hands (every seat calls down to showdown, so seven and eight seats run out of cards):
  * Stud, 3 seats, no players' seeds, sealed: the receipt, the NewHand commitments and
    every seat's card proofs verify;
  * Razz, 7 seats, players' seeds (one seat silent, closed by the table), the seed
    revealed at the end: the whole deck is recomputed and the log followed through the
    reshuffle (STUD-DECK-1);
  * Stud Hi-Lo, 8 seats, revealed, no players' seeds: through the common card
    (STUD-DECK-5).
Each receipt is also refused with one transcript byte flipped, with another key, and
against another hand's NewHand answer. The server signs with a key from
--signing_keys_file; GetSigningKeys must list it. Stubs are generated from proto/ at
start; the server listens on 127.0.0.1 port 0 and is stopped by its own PID.
"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "testing"))
from server_process import generate_stubs, start_server, stop_server  # noqa: E402

VERIFY = os.path.join(ROOT, "tools", "fairness", "verify.py")
failures = []


def expect(ok, what):
    print("%s %s" % ("ok  " if ok else "FAIL", what), flush=True)
    if not ok:
        failures.append(what)


def b64(raw):
    return base64.b64encode(raw).decode()


class Hand:
    """One hand played to the end through the stub: every answer kept."""

    def __init__(self, pb, stub, variant, seats, player_seeds=False, reveal=False, silent=()):
        from google.protobuf import json_format
        self.dict = lambda m: json_format.MessageToDict(m)
        req = pb.NewHandRequest(variant=variant, stakes=pb.Stakes(preset="$1-$2"),
                                dealing_mode=pb.DEALING_MODE_SERVICE,
                                private_view_seats=list(range(1, seats + 1)))
        for i in range(1, seats + 1):
            req.seats.add(seat=i, stack=100000)
        req.fairness.player_seeds = player_seeds
        if reveal:
            req.fairness.reveal = pb.REVEAL_POLICY_AT_END
        self.newhand = stub.NewHand(req, timeout=10)
        update = self.newhand.update
        self.updates, self.seeds = [], {}
        apply = lambda action: stub.ApplyAction(pb.ApplyActionRequest(  # noqa: E731
            token=update.token, expected_version=update.version,
            private_view_seats=list(range(1, seats + 1)), action=action), timeout=10).update
        if player_seeds:
            for seat in range(1, seats + 1):
                if seat in silent:
                    continue
                seed = hashlib.sha256(b"seat %d" % seat).digest()[:seat * 8 % 64 + 1]
                self.seeds[seat] = seed
                update = apply(pb.Action(kind=pb.ACTION_KIND_SEED, seat=seat, seed=seed))
            if silent:  # the table closes seeding for the silent seats (STUD-DEAL-6)
                update = apply(pb.Action(kind=pb.ACTION_KIND_SEED, seat=0))
            self.updates.append(update)  # the answer that ended seeding: the root
        for _ in range(500):
            if update.public_view.phase == pb.PHASE_COMPLETE:
                break
            kinds = {a.kind: a for a in update.legal_actions}
            for k in (pb.ACTION_KIND_SHOW, pb.ACTION_KIND_CHECK, pb.ACTION_KIND_CALL,
                      pb.ACTION_KIND_BRING_IN):
                if k in kinds:
                    a = kinds[k]
                    break
            else:
                a = update.legal_actions[0]
            update = apply(pb.Action(kind=a.kind, seat=update.to_act, amount_to=a.amount_to))
        self.final = update
        self.complete = update.public_view.phase == pb.PHASE_COMPLETE


def verify_js(node, tmp, name, receipt, newhand, updates=(), cards=(), keys=None, my_seeds=()):
    """The browser verifier (web/client/src/receipt_check.ts) in Node's WebCrypto."""
    path = os.path.join(tmp, "%s.case.json" % name)
    with open(path, "w") as f:
        json.dump({"receipt": receipt, "newhand": newhand, "updates": list(updates),
                   "cards": list(cards), "keys": keys, "mySeeds": list(my_seeds)}, f)
    return subprocess.run([node, "test/fairness_cli.mjs", path], capture_output=True, text=True,
                          timeout=120, cwd=os.path.join(ROOT, "web"))


def verify(tmp, name, receipt, newhand, updates=(), cards=(), keys=None, my_seeds=()):
    def put(suffix, obj):
        path = os.path.join(tmp, "%s.%s.json" % (name, suffix))
        with open(path, "w") as f:
            json.dump(obj, f)
        return path
    cmd = [sys.executable, VERIFY, put("receipt", receipt), "--newhand", put("newhand", newhand)]
    for i, u in enumerate(updates):
        cmd += ["--update", put("update%d" % i, u)]
    for i, c in enumerate(cards):
        cmd += ["--cards", put("cards%d" % i, c)]
    if keys is not None:
        cmd += ["--keys", put("keys", keys)]
    for s in my_seeds:
        cmd += ["--my-seed", s]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--proto_dir", required=True)
    ap.add_argument("--node", help="also run the browser verifier in Node")
    ap.add_argument("--cli", help="also run stud_cli verify")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fairness-e2e-")
    generate_stubs(args.proto_dir, tmp)
    import grpc
    from stud.v1 import stud_pb2 as pb, stud_pb2_grpc
    seed = hashlib.sha256(b"fairness e2e signing key").digest()
    keys_file = os.path.join(tmp, "signing_keys.txt")
    with open(keys_file, "w") as f:
        f.write("# test signing key\ne2e:%s\n" % b64(seed))
    proc, address = start_server(args.server, ["--signing_keys_file", keys_file])
    try:
        channel = grpc.insecure_channel(address)
        stub = stud_pb2_grpc.StudServiceStub(channel)
        keys = stub.GetSigningKeys(pb.GetSigningKeysRequest(), timeout=10)
        keys_json = json_of(keys)
        import nacl.signing
        public = bytes(nacl.signing.SigningKey(seed).verify_key)
        expect(len(keys.keys) >= 1 and keys.keys[0].public_key == public and
               keys.keys[0].key_id == hashlib.sha256(public).digest()[:8].hex(),
               "GetSigningKeys lists the configured key with its key id")
        hands = {
            "stud3-sealed": Hand(pb, stub, pb.VARIANT_STUD, 3),
            "razz7-seeded-revealed": Hand(pb, stub, pb.VARIANT_RAZZ, 7, player_seeds=True,
                                          reveal=True, silent=(4,)),
            "hilo8-revealed": Hand(pb, stub, pb.VARIANT_STUD_HI_LO, 8, reveal=True),
        }
        for name, h in hands.items():
            expect(h.complete, "%s: the hand completes" % name)
            r = h.final.receipt
            expect(len(r.transcript) > 0 and len(r.signature) == 64, "%s: a receipt (%d bytes "
                   "of transcript)" % (name, len(r.transcript)))
            key = next((k.public_key for k in keys.keys if k.key_id == r.key_id), b"")
            receipt = {"transcript": b64(r.transcript), "signature": b64(r.signature),
                       "public_key": b64(key), "key_id": r.key_id}
            newhand = json_of(h.newhand)
            updates = [json_of(u) for u in h.updates] + [json_of(h.final)]
            cards = [json_of(pv) for pv in h.final.private_views]
            my = ["%d:%s" % (s, v.hex()) for s, v in h.seeds.items()]
            p = verify(tmp, name, receipt, newhand, updates, cards, keys_json, my)
            expect(p.returncode == 0, "%s: verify.py verifies the receipt %s" % (
                name, (p.stdout + p.stderr).strip().splitlines()[-1] if p.returncode == 0
                else p.stdout + p.stderr))
            if args.cli:
                files = [os.path.join(tmp, "%s.%s.json" % (name, s)) for s in
                         ["update%d" % i for i in range(len(updates))]]
                p = subprocess.run(
                    [args.cli, "--newhand", os.path.join(tmp, name + ".newhand.json"),
                     "--update", ",".join(files),
                     "--cards", ",".join(os.path.join(tmp, "%s.cards%d.json" % (name, i))
                                         for i in range(len(cards))),
                     "--keys", os.path.join(tmp, name + ".keys.json"), "--my_seed", ",".join(my),
                     "verify", os.path.join(tmp, name + ".receipt.json")],
                    capture_output=True, text=True, timeout=60)
                expect(p.returncode == 0, "%s: stud_cli verify verifies it %s" % (
                    name, (p.stdout + p.stderr).strip()[-1500:] if p.returncode else ""))
            if args.node:
                p = verify_js(args.node, tmp, name, receipt, newhand, updates, cards, keys_json, my)
                expect(p.returncode == 0, "%s: the browser verifier verifies it %s" % (
                    name, (p.stdout + p.stderr).strip()[-1500:]))
            t = json.loads(r.transcript)
            expect(("server_seed" in t) == (name != "stud3-sealed"),
                   "%s: the server seed is in the transcript only when revealed" % name)
            if name.startswith("razz7"):
                expect(any(" RECYCLE " in line for line in t["log"]),
                       "razz7: the log holds the reshuffle (STUD-DECK-1) the verifier followed")
                expect(t["player_seeds"][3] == "", "razz7: the silent seat's seed is empty")
            if name.startswith("hilo8"):
                expect(any(" COMMON_CARD " in line for line in t["log"]),
                       "hilo8: the log holds the common card (STUD-DECK-5)")
            raw = bytearray(r.transcript)
            raw[len(raw) // 3] ^= 0x20
            p = verify(tmp, name + "-flipped", dict(receipt, transcript=b64(bytes(raw))), newhand)
            expect(p.returncode != 0, "%s: one flipped transcript byte is refused" % name)
            if args.node:
                p = verify_js(args.node, tmp, name + "-flipped",
                              dict(receipt, transcript=b64(bytes(raw))), newhand)
                expect(p.returncode == 1, "%s: ... and by the browser verifier" % name)
            other = bytes(nacl.signing.SigningKey(bytes(32)).verify_key)
            p = verify(tmp, name + "-otherkey", dict(receipt, public_key=b64(other),
                       key_id=hashlib.sha256(other).digest()[:8].hex()), newhand)
            expect(p.returncode != 0, "%s: another public key is refused" % name)
        p = verify(tmp, "mixed", json.loads(json.dumps(receipt)), json_of(hands["stud3-sealed"].newhand))
        expect(p.returncode != 0, "a receipt checked against another hand's NewHand answer is refused")
        channel.close()
    finally:
        stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failures" % len(failures))
    return 1 if failures else 0


def json_of(message):
    from google.protobuf import json_format
    return json_format.MessageToDict(message)


if __name__ == "__main__":
    sys.exit(main())
