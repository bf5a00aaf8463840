"""Mixed-load soak of the real stud_server: every RPC, every variant, SERVICE,
PRESET and LIVE dealing, irregularity reports, for --seconds (30 in CI; the
documented run is 600). Worker threads play whole hands: NewHand, then
ApplyAction to the end (LIVE: the table reports every card the dealer owes),
with LegalActions, GetView and random RuleIrregularity reports along the way,
ResolveShowdown, ExportHandHistory and ReplayHandHistory of the export at the
end; now and then the stateless ResolveShowdown.

Pass: no call fails other than the refusals the API documents for what was
asked (INVALID_ARGUMENT, FAILED_PRECONDITION with a rule ID, ABORTED), every
hand finishes, and the server's resident memory is flat: the mean of the last
fifth of the run within 5 % of the mean of the second fifth (the first is
warm-up).

Usage: mixed_soak_test.py --server PATH --proto_dir DIR [--seconds N] [--workers N]
"""
import argparse
import collections
import os
import random
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
import server_process  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Soak:
    def __init__(self, grpc, pb, pb_grpc, address, seconds):
        self.grpc, self.pb = grpc, pb
        self.stub = pb_grpc.StudServiceStub(grpc.insecure_channel(address))
        self.deadline = time.time() + seconds
        self.lock = threading.Lock()
        self.calls = collections.Counter()
        self.refused = collections.Counter()
        self.errors = []
        self.hands = collections.Counter()
        self.rulings = 0

    def call(self, name, req, expect_ok=True):
        try:
            resp = getattr(self.stub, name)(req, timeout=10)
            with self.lock:
                self.calls[name] += 1
            return resp
        except self.grpc.RpcError as e:  # noqa: PERF203
            code = e.code()
            documented = code in (self.grpc.StatusCode.INVALID_ARGUMENT,
                                  self.grpc.StatusCode.FAILED_PRECONDITION,
                                  self.grpc.StatusCode.ABORTED)
            with self.lock:
                self.calls[name] += 1
                if documented and not expect_ok:
                    self.refused[(name, code.name)] += 1
                else:
                    self.errors.append("%s: %s %s" % (name, code.name, e.details()))
            return None

    def play(self, rng):
        pb = self.pb
        mode = rng.choice([pb.DEALING_MODE_SERVICE, pb.DEALING_MODE_PRESET, pb.DEALING_MODE_LIVE])
        variant = rng.choice([pb.VARIANT_STUD, pb.VARIANT_STUD_HI_LO, pb.VARIANT_RAZZ])
        # LIVE hands stay at 6 seats or fewer: the table's deck never runs out.
        seats = rng.randint(2, 6 if mode == pb.DEALING_MODE_LIVE else 8)
        req = pb.NewHandRequest(variant=variant, stakes=pb.Stakes(preset=rng.choice(["$1-$2", "$15-$30"])),
                                dealing_mode=mode, locale=rng.choice([pb.LOCALE_EN, pb.LOCALE_ES]),
                                private_view_seats=[1])
        for i in range(1, seats + 1):
            req.seats.add(seat=i, stack=rng.randint(40, 4000))
        deck = DECK[:]
        rng.shuffle(deck)
        if mode == pb.DEALING_MODE_PRESET:
            req.preset_deck.extend(deck)
        start = self.call("NewHand", req)
        if start is None:
            return
        u = start.update
        reported = set()
        for _ in range(600):
            if u.public_view.phase == pb.PHASE_COMPLETE or time.time() > self.deadline + 30:
                break
            r = rng.random()
            if r < 0.08:
                self.call("LegalActions", pb.LegalActionsRequest(token=u.token, seat=rng.randint(0, seats)))
            elif r < 0.14:
                self.call("GetView", pb.GetViewRequest(token=u.token, private_view_seats=[rng.randint(1, seats)]))
            elif r < 0.17:
                rep = pb.IrregularityReport(kind=rng.randint(1, 16), seat=rng.randint(1, seats))
                resp = self.call("RuleIrregularity", pb.RuleIrregularityRequest(token=u.token, report=rep),
                                 expect_ok=False)
                if resp is not None:
                    u = resp.update
                    with self.lock:
                        self.rulings += 1
                continue
            if u.HasField("expected_deal"):
                nxt = u.expected_deal
                kinds = {la.kind for la in u.legal_actions}
                if nxt.step == pb.DEAL_STEP_RESHUFFLE:
                    action = pb.Action(kind=pb.ACTION_KIND_RESHUFFLE)
                elif pb.ACTION_KIND_DEAL not in kinds:
                    action = pb.Action(kind=pb.ACTION_KIND_BURN)
                else:
                    card = next(c for c in deck if c not in reported)
                    reported.add(card)
                    action = pb.Action(kind=pb.ACTION_KIND_DEAL, seat=nxt.seat, card=card, face_up=nxt.face_up)
            elif u.legal_actions:
                la = rng.choice(list(u.legal_actions))
                action = pb.Action(kind=la.kind, seat=u.to_act, amount_to=la.amount_to)
            else:
                break
            resp = self.call("ApplyAction", pb.ApplyActionRequest(token=u.token, action=action))
            if resp is None:
                return
            u = resp.update
        if u.public_view.phase != pb.PHASE_COMPLETE:
            with self.lock:
                self.errors.append("hand did not finish (mode %d)" % mode)
            return
        with self.lock:
            self.hands[pb.DealingMode.Name(mode)] += 1
        self.call("ResolveShowdown", pb.ResolveShowdownRequest(token=u.token))
        exported = self.call("ExportHandHistory", pb.ExportHandHistoryRequest(token=u.token))
        if exported is not None and rng.random() < 0.5:
            replay = self.call("ReplayHandHistory", pb.ReplayHandHistoryRequest(phh=exported.phh),
                               expect_ok=False)
            # A hand with irregularity rulings carries them in _rulings, which
            # PHH cannot replay (docs/api.md); any other must replay exactly.
            if replay is not None and replay.HasField("divergence") and "_rulings" not in exported.phh:
                with self.lock:
                    self.errors.append("replay of an exported hand diverged: %s" % replay.divergence)

    def worker(self, seed):
        rng = random.Random(seed)
        while time.time() < self.deadline:
            self.play(rng)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--proto_dir", required=True)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--workers", type=int, default=6)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="stud_soak_")
    server_process.generate_stubs(args.proto_dir, tmp)
    import grpc  # noqa: E402
    from stud.v1 import stud_pb2, stud_pb2_grpc  # noqa: E402

    proc, address = server_process.start_server(args.server, ["--allow_preset"])
    failures = []
    try:
        soak = Soak(grpc, stud_pb2, stud_pb2_grpc, address, args.seconds)
        threads = [threading.Thread(target=soak.worker, args=(s,)) for s in range(args.workers)]
        for t in threads:
            t.start()
        samples = []
        t0 = time.time()
        while any(t.is_alive() for t in threads):
            samples.append((time.time() - t0, rss_kib(proc.pid)))
            time.sleep(1)
        for t in threads:
            t.join()
        fifth = max(1, len(samples) // 5)
        early = sum(s for _, s in samples[fifth:2 * fifth]) / max(1, len(samples[fifth:2 * fifth]))
        late = sum(s for _, s in samples[-fifth:]) / fifth
        growth = (late - early) / early if early else 0.0
        total = sum(soak.calls.values())
        print("soak %d s, %d workers: %d calls (%s), %d hands %s, %d rulings, refused as documented %s, "
              "%d errors; RSS %.1f MiB -> %.1f MiB (%+.1f %%)" % (
                  args.seconds, args.workers, total, dict(soak.calls), sum(soak.hands.values()),
                  dict(soak.hands), soak.rulings, dict(soak.refused), len(soak.errors), early / 1024,
                  late / 1024, 100 * growth))
        for e in soak.errors[:10]:
            print("error:", e)
        if soak.errors:
            failures.append("%d errors" % len(soak.errors))
        if any(soak.hands[m] == 0 for m in ("DEALING_MODE_SERVICE", "DEALING_MODE_PRESET", "DEALING_MODE_LIVE")):
            failures.append("a dealing mode finished no hand: %r" % dict(soak.hands))
        if abs(growth) > 0.05:
            failures.append("RSS not flat: %+.1f %%" % (100 * growth))
    finally:
        code, _ = server_process.stop_server(proc)
        if code != 0:
            failures.append("server exit code %r" % code)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
