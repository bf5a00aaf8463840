#!/usr/bin/python3
"""Statelessness across replicas, proven on the local stack (deploy/local-stack.sh):
three stud_server replicas sharing a key ring behind nginx grpc_pass.

  * spread: many concurrent complete hands through the load balancer; the nginx
    access log (upstream address per call, x-stud-hand-id metadata) shows each hand's
    consecutive calls landing on different replicas; exact stacks at the end.
  * SIGKILL of a replica mid-hand: every hand finishes on the others.
  * rolling restart (SIGTERM, drain, start) of all three while hands are in play.
  * key rotation during play (deploy/rotate-keys.sh add, promote, retire) with
    no call refused at any step.
  * with --ledger (a second, short stack; redis-server from Debian): hands whose
    calls alternate between replicas share one Redis ledger, an older token is
    refused TOKEN_SUPERSEDED by every replica, the exact retry is identical,
    and the Redis stops with the stack.
  * with --hand-affinity (a third, short stack): a client that names its hand
    (x-stud-hand-id = PublicView.hand_id after NewHand) has all its later calls on
    one replica, which finds the hand kept decoded (the replicas' cache hits).

The client retries on UNAVAILABLE only (the call did not reach a live
replica, a draining one refused it, or its connection closed under it), as a
gRPC retry policy would; any other failure fails the test. Every retry is
counted and printed.

The stack and the players are in stack_harness.py.

Run with Debian's python3 (python3-grpcio):
  stack_test.py --server build/service/stud_server --proto_dir proto --stack deploy/local-stack.sh
"""
import argparse
import collections
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
from server_process import error_reason, generate_stubs  # noqa: E402

import stack_harness  # noqa: E402
from stack_harness import CALL_TIMEOUT, Player, Stack, play_many, token_key_id  # noqa: E402

class LocalStack(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.stack = Stack(TMP)

    @classmethod
    def tearDownClass(cls):
        # What nginx saw and did (retries on another replica included), by kind.
        kinds = collections.Counter()
        try:
            with open(os.path.join(cls.stack.dir, "nginx", "error.log")) as f:
                for line in f:
                    m = re.search(r"\[(\w+)\] \d+#\d+: \*\d+ (.*?)(, client:|$)", line)
                    if m:
                        kinds["%s: %s" % (m.group(1), re.sub(r"\d+", "N", m.group(2)))] += 1
        except FileNotFoundError:
            pass
        for kind, n in kinds.most_common():
            print("nginx error.log: %4d x %s" % (n, kind))
        cls.stack.stop()

    def setUp(self):
        # Every test starts with every replica serving.
        status = self.stack.ctl("status")
        for i in self.stack.replicas:
            if "replica %d stopped" % i in status:
                self.stack.ctl("start", str(i))

    def spread(self, prefix):
        by_hand = collections.defaultdict(list)
        for up, hand, _ in self.stack.access_log():
            if hand.startswith(prefix):
                by_hand[hand].append(up)
        return by_hand

    def test_1_sequential_hand_every_call_on_another_replica(self):
        player = Player(self.stack.lb)
        try:
            update, stacks, _ = player.play("seq-000", 1)
            player.check_settled("seq-000", update, stacks)
        finally:
            player.close()
        ups = self.spread("seq-")["seq-000"]
        print("seq-000: %d calls on %s" % (len(ups), " ".join(self.short(u) for u in ups)))
        self.assertEqual(len(set(ups)), 3, ups)
        changes = sum(1 for a, b in zip(ups, ups[1:]) if a != b)
        self.assertEqual(changes, len(ups) - 1, "round robin: each call on another replica than the one before")

    def test_2_concurrent_hands_spread_over_replicas(self):
        player = Player(self.stack.lb)
        try:
            results = play_many(player, "spread", count=40, threads=8)
        finally:
            player.close()
        self.assertEqual(len(results), 40)
        by_hand = self.spread("spread-")
        per_replica = collections.Counter(u for ups in by_hand.values() for u in ups)
        pairs = sum(len(ups) - 1 for ups in by_hand.values())
        moved = sum(1 for ups in by_hand.values() for a, b in zip(ups, ups[1:]) if a != b)
        print("spread: %d hands, %d calls; per replica %s; consecutive calls of a hand on another replica: "
              "%d of %d (%.0f%%); retries %s" % (len(by_hand), sum(per_replica.values()),
                                                  {self.short(k): v for k, v in per_replica.items()}, moved,
                                                  pairs, 100.0 * moved / pairs, dict(player.retries)))
        self.assertEqual(len(by_hand), 40)
        for hand, ups in by_hand.items():
            self.assertGreaterEqual(len(set(ups)), 2, "hand %s stayed on one replica" % hand)
        self.assertEqual(set(per_replica), set(self.stack.replicas.values()))
        total = sum(per_replica.values())
        for n in per_replica.values():
            self.assertGreater(n, total / 6, per_replica)  # roughly a third each
        self.assertGreater(moved / pairs, 0.5)

    def test_3_sigkill_a_replica_mid_hand(self):
        player = Player(self.stack.lb)
        victim = 2
        killed = threading.Event()
        steps = collections.Counter()
        lock = threading.Lock()

        def on_step(hand_id, step):
            with lock:
                steps["all"] += 1
                if steps["all"] == 60 and not killed.is_set():
                    os.kill(self.stack.pid(victim), signal.SIGKILL)
                    killed.set()

        try:
            results = play_many(player, "kill", count=24, threads=6, pause=0.01, on_step=on_step)
        finally:
            player.close()
        self.assertTrue(killed.is_set())
        self.assertEqual(len(results), 24)
        dead = self.stack.replicas[victim]
        by_hand = self.spread("kill-")
        spanning = [h for h, ups in by_hand.items() if dead in ups and ups[-1] != dead]
        print("sigkill: replica %d (%s) killed after 60 actions; 24/24 hands complete with exact stacks; "
              "%d hands had calls on it before and finished elsewhere; client retries %s" % (
                  victim, dead, len(spanning), dict(player.retries)))
        self.assertGreater(len(spanning), 0, "no hand was in play on the killed replica")
        with open(os.path.join(self.stack.dir, "replica-%d.exit" % victim)) as f:
            self.assertEqual(f.read().strip(), "137")

    def test_4_rolling_restart_while_hands_are_in_play(self):
        player = Player(self.stack.lb)
        box = {}

        def run():
            try:
                box["results"] = play_many(player, "roll", count=60, threads=6, pause=0.01, deadline_s=300)
            except Exception as e:  # noqa: BLE001
                box["error"] = e

        t = threading.Thread(target=run, daemon=True)
        t.start()
        exits = []
        try:
            time.sleep(0.5)
            for i in sorted(self.stack.replicas):
                out = self.stack.ctl("restart", str(i))
                exits.append(out.strip())
                time.sleep(0.3)
            t.join(300)
        finally:
            player.close()
        self.assertNotIn("error", box, box.get("error"))
        self.assertEqual(len(box["results"]), 60)
        print("rolling restart: %s; 60/60 hands complete with exact stacks; client retries %s" % (
            "; ".join(exits), dict(player.retries)))
        for i in sorted(self.stack.replicas):
            self.assertIn("replica %d exit 0" % i, exits)  # drained and exited cleanly
            with open(os.path.join(self.stack.dir, "replica-%d.log" % i)) as f:
                log = f.read()
            self.assertIn("draining", log)
            self.assertIn("stopped", log)
        non_ok = [c for c in self.stack.access_log() if c[1].startswith("roll-") and c[2] not in ("0", "-")]
        print("rolling restart: calls answered with a gRPC error through nginx: %d" % len(non_ok))

    def test_5_key_rotation_during_play(self):
        pb = None
        # No TOKEN_UNKNOWN_KEY allowance: with the open-only step, no replica may
        # refuse a token another sealed at any moment of the rotation.
        player = Player(self.stack.lb)
        pb = player.pb
        # A hand dealt under key 1 and left waiting across the whole add roll.
        parked = player.call("NewHand", self.new_hand_request(pb), "rot-parked").update
        self.assertEqual(token_key_id(parked.token), 1)
        box = {}

        def run():
            try:
                box["results"] = play_many(player, "rot", count=36, threads=6, pause=0.08, deadline_s=300)
            except Exception as e:  # noqa: BLE001
                box["error"] = e

        t = threading.Thread(target=run, daemon=True)
        t.start()
        try:
            time.sleep(0.5)
            add = self.stack.rotate("add")
            self.assertEqual(add.returncode, 0, add.stderr)
            promote = self.stack.rotate("promote")
            self.assertEqual(promote.returncode, 0, promote.stderr)
            t.join(300)
            self.assertNotIn("error", box, box.get("error"))
            results = box["results"]
            self.assertEqual(len(results), 36)
            spanning = [h for h, (_, _, keys) in results.items() if keys[0] == 1 and keys[-1] == 2]
            print("key rotation: %d/36 hands began under key 1 and finished under key 2; retries during the "
                  "add and promote rolls %s" % (len(spanning), dict(player.retries)))
            self.assertGreater(len(spanning), 0, "no hand crossed the rotation")
            # The parked hand: the old key still opens it; the answer is sealed with the new key.
            a = parked.legal_actions[0]
            moved = player.call("ApplyAction", pb.ApplyActionRequest(
                token=parked.token, action=pb.Action(kind=a.kind, seat=parked.to_act, amount_to=a.amount_to)),
                "rot-parked").update
            self.assertEqual(token_key_id(moved.token), 2)
            # Retire key 1 once no hand needs it; a key-1 token is then refused everywhere.
            retire = self.stack.rotate("retire")
            self.assertEqual(retire.returncode, 0, retire.stderr)
            for i in sorted(self.stack.replicas):
                import grpc
                from stud.v1 import stud_pb2_grpc
                with grpc.insecure_channel(self.stack.replicas[i]) as ch:
                    stub = stud_pb2_grpc.StudServiceStub(ch)
                    with self.assertRaises(grpc.RpcError) as ctx:
                        stub.GetView(pb.GetViewRequest(token=parked.token), timeout=CALL_TIMEOUT)
                    self.assertEqual(error_reason(ctx.exception), "TOKEN_UNKNOWN_KEY")
                    stub.GetView(pb.GetViewRequest(token=moved.token), timeout=CALL_TIMEOUT)
            after = Player(self.stack.lb)
            try:
                update, stacks, keys = after.play("rot-after", 5)
                after.check_settled("rot-after", update, stacks)
                self.assertEqual(set(keys), {2})
                self.assertEqual(sum(after.retries.values()), 0)
            finally:
                after.close()
            with open(os.path.join(self.stack.dir, "keys")) as f:
                self.assertEqual(re.findall(r"^(\d+):", f.read(), re.M), ["2"])
        finally:
            player.close()

    def test_6_prometheus_scrapes_every_replica(self):
        env = self.stack.env()
        if "PROM_ADDR" not in env:
            self.skipTest("no Prometheus in the stack (the server serves no metrics, or prometheus is missing)")
        import json
        import urllib.request
        deadline = time.time() + 30
        up = {}
        while time.time() < deadline:
            with urllib.request.urlopen("http://%s/api/v1/query?query=up" % env["PROM_ADDR"], timeout=5) as r:
                result = json.load(r)["data"]["result"]
            up = {s["metric"].get("replica"): s["value"][1] for s in result}
            if len(up) == len(self.stack.replicas) and set(up.values()) == {"1"}:
                break
            time.sleep(0.5)
        print("prometheus: up by replica %s" % up)
        self.assertEqual(up, {"replica-%d" % i: "1" for i in self.stack.replicas})

    @staticmethod
    def new_hand_request(pb):
        req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"))
        req.seats.add(seat=1, stack=1000)
        req.seats.add(seat=2, stack=1000)
        return req

    def short(self, addr):
        for i, a in self.stack.replicas.items():
            if a == addr:
                return "r%d" % i
        return addr


TMP = None


class LedgerStack(unittest.TestCase):
    """deploy/local-stack.sh --ledger: three replicas, one redis-server (a few seconds)."""

    @classmethod
    def setUpClass(cls):
        if not os.path.exists("/usr/bin/redis-server"):
            raise RuntimeError("/usr/bin/redis-server missing: tools/install-deps.sh installs Debian's redis-server")
        cls.stack = Stack(TMP, "ledger-stack", ["--ledger", "--no-prometheus"])

    @classmethod
    def tearDownClass(cls):
        with open(os.path.join(cls.stack.dir, "redis", "pid")) as f:
            redis_pid = int(f.read())
        cls.stack.stop()
        try:
            os.kill(redis_pid, 0)
            raise AssertionError("redis-server %d still runs after the stack stopped" % redis_pid)
        except ProcessLookupError:
            pass

    def redis(self, *args):
        with open(os.path.join(self.stack.dir, "redis", "password")) as f:
            env = dict(os.environ, REDISCLI_AUTH=f.read().strip())
        return subprocess.run(["redis-cli", "-p", self.stack.env()["LEDGER_PORT"]] + list(args), env=env,
                              capture_output=True, text=True, timeout=10, check=True).stdout.strip()

    def test_ledger_shared_by_the_replicas(self):
        import grpc
        from stud.v1 import stud_pb2 as pb, stud_pb2_grpc
        start = time.time()
        player = Player(self.stack.lb)
        try:
            # Complete hands through the load balancer: consecutive calls on
            # different replicas, each checking and moving the one ledger entry.
            results = play_many(player, "ledger", 6, 3, deadline_s=60)
            for hand_id, (update, stacks, _) in results.items():
                player.check_settled(hand_id, update, stacks)
            self.assertGreaterEqual(int(self.redis("DBSIZE")), 6)
            by_hand = collections.defaultdict(set)
            for up, hand, _ in self.stack.access_log():
                if hand.startswith("ledger-"):
                    by_hand[hand].add(up)
            # Round robin per call over three replicas: each hand's calls cross
            # replicas (so consecutive steps were checked against the shared
            # ledger), and every replica took part. Not "each hand on all three":
            # concurrent hands interleaved in step can keep one off a replica.
            self.assertTrue(all(len(ups) >= 2 for ups in by_hand.values()), by_hand)
            self.assertEqual(len(set().union(*by_hand.values())), 3, by_hand)

            # One step of a new hand; the token before it is now stale everywhere.
            req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"))
            for seat in (1, 2, 3):
                req.seats.add(seat=seat, stack=500)
            first = player.call("NewHand", req, "ledger-old").update
            a = first.legal_actions[0]
            areq = pb.ApplyActionRequest(token=first.token, expected_version=first.version,
                                         action=pb.Action(kind=a.kind, seat=first.to_act, amount_to=a.amount_to))
            second = player.call("ApplyAction", areq, "ledger-old").update
            for i, addr in self.stack.replicas.items():
                with grpc.insecure_channel(addr) as ch:
                    stub = stud_pb2_grpc.StudServiceStub(ch)
                    # The exact retry of the last call: the same answer, on any replica.
                    again = stub.ApplyAction(areq, timeout=CALL_TIMEOUT).update
                    self.assertEqual(again.token, second.token, "replica %d" % i)
                    # A read of the older state: refused.
                    with self.assertRaises(grpc.RpcError) as ctx:
                        stub.LegalActions(pb.LegalActionsRequest(token=first.token, seat=first.to_act),
                                          timeout=CALL_TIMEOUT)
                    self.assertEqual(ctx.exception.code(), grpc.StatusCode.ABORTED, "replica %d" % i)
                    self.assertEqual(error_reason(ctx.exception), "TOKEN_SUPERSEDED", "replica %d" % i)
        finally:
            player.close()
        print("ledger stack: 6 hands + stale-token checks in %.1f s, retries %s"
              % (time.time() - start, dict(player.retries)))


class HandAffinityStack(unittest.TestCase):
    """deploy/local-stack.sh --hand-affinity: nginx hashes x-stud-hand-id, so every
    call of a hand after NewHand reaches one replica, which finds the hand it
    answered still decoded (--hand_cache)."""

    @classmethod
    def setUpClass(cls):
        cls.stack = Stack(TMP, "affinity-stack", ["--hand-affinity", "--no-prometheus"])

    @classmethod
    def tearDownClass(cls):
        cls.stack.stop()

    def cache_lookups(self):
        """Sum over the replicas of stud_hand_cache_lookups_total by result."""
        import urllib.request
        env, total = self.stack.env(), collections.Counter()
        for i in self.stack.replicas:
            url = "http://127.0.0.1:%s/metrics" % env["METRICS_%d_PORT" % i]
            with urllib.request.urlopen(url, timeout=5) as r:
                for line in r.read().decode().splitlines():
                    m = re.match(r'stud_hand_cache_lookups_total\{.*result="(\w+)".*\} (\S+)', line)
                    if m:
                        total[m.group(1)] += int(float(m.group(2)))
        return total

    def test_a_hands_calls_after_new_hand_reach_one_replica(self):
        before = self.cache_lookups()
        player = Player(self.stack.lb)
        try:
            results = play_many(player, "affinity", count=24, threads=6, by_view=True)
        finally:
            player.close()
        lookups = self.cache_lookups() - before
        ids = {update.public_view.hand_id for update, _, _ in results.values()}
        by_hand, unnamed = collections.defaultdict(list), collections.Counter()
        for up, hand, _ in self.stack.access_log():
            if hand == "-":  # nginx logs an empty variable as "-": NewHand
                unnamed[up] += 1
            else:
                by_hand[hand].append(up)
        named_calls = sum(len(ups) for ups in by_hand.values())
        homes = collections.Counter(ups[0] for ups in by_hand.values())
        print("hand affinity: %d hands, %d named calls; hands per replica %s; NewHand per replica %s; "
              "cache lookups %s; retries %s" % (len(by_hand), named_calls, dict(homes), dict(unnamed),
                                                 dict(lookups), dict(player.retries)))
        self.assertEqual(set(by_hand), ids)
        for hand, ups in by_hand.items():
            self.assertEqual(len(set(ups)), 1, "hand %s moved between replicas: %s" % (hand, ups))
        self.assertGreaterEqual(len(homes), 2, "24 hands hashed onto one replica")
        # Without the metadata nginx's hash falls back to round robin.
        self.assertEqual(sum(unnamed.values()), 24)
        self.assertEqual(set(unnamed), set(self.stack.replicas.values()), unnamed)
        # Each hand's first named call may miss (its NewHand ran elsewhere);
        # every later one finds the hand its replica answered with.
        self.assertLessEqual(lookups["miss"], 24, lookups)
        self.assertGreaterEqual(lookups["hit"], named_calls - 24, lookups)


def main():
    global TMP
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--proto_dir", required=True)
    parser.add_argument("--stack", required=True)
    args, rest = parser.parse_known_args()
    # grpc-core logs every 502 page nginx sends while a replica restarts; the test counts them itself.
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    args.server = os.path.abspath(args.server)
    args.stack = os.path.abspath(args.stack)
    stack_harness.ARGS = args
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        gen = os.path.join(tmp, "gen")
        os.mkdir(gen)
        generate_stubs(args.proto_dir, gen, health=True)
        unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
