#!/usr/bin/python3
"""The local stack (deploy/local-stack.sh) as the deployment tests drive it:
Stack starts one in its own state directory and reads what it wrote, Player
plays complete hands through its load balancer with safe retries, play_many
plays many at once. stack_test.py sets ARGS (the server, the stack script).
"""
import collections
import os
import random
import re
import signal
import subprocess
import threading
import time

ARGS = None
CALL_TIMEOUT = 10


def token_key_id(token):
    return int.from_bytes(token[3:7], "big")  # "SK" | format | key id (big-endian)


class Stack:
    """deploy/local-stack.sh in its own state directory; stopped by SIGTERM."""

    def __init__(self, tmp, name="stack", extra=()):
        self.dir = os.path.join(tmp, name)
        self.out = open(os.path.join(tmp, name + ".out"), "w+")
        self.proc = subprocess.Popen([ARGS.stack, "up", "--server", ARGS.server, "--dir", self.dir,
                                      "--parent-pid", str(os.getpid())] + list(extra),
                                     stdout=self.out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            env = self.env()
            if env.get("READY") == "1":
                break
            if self.proc.poll() is not None:
                raise RuntimeError("local-stack.sh exited: " + self.output())
            time.sleep(0.1)
        else:
            self.stop()
            raise RuntimeError("local-stack.sh not ready in 60 s: " + self.output())
        self.lb = env["LB_ADDR"]
        self.replicas = {i: "127.0.0.1:" + env["REPLICA_%d_PORT" % i] for i in range(1, int(env["REPLICAS"]) + 1)}
        print(self.output(), flush=True)

    def env(self):
        try:
            with open(os.path.join(self.dir, "stack.env")) as f:
                return dict(line.strip().split("=", 1) for line in f if "=" in line)
        except FileNotFoundError:
            return {}

    def output(self):
        self.out.seek(0)
        return self.out.read()

    def ctl(self, *args, timeout=120):
        return subprocess.run([ARGS.stack] + list(args) + ["--dir", self.dir], capture_output=True, text=True,
                              timeout=timeout, check=True).stdout

    def rotate(self, *args, timeout=180):
        script = os.path.join(os.path.dirname(ARGS.stack), "rotate-keys.sh")
        return subprocess.run([script] + list(args) + ["--dir", self.dir], capture_output=True, text=True,
                              timeout=timeout)

    def pid(self, i):
        with open(os.path.join(self.dir, "replica-%d.pid" % i)) as f:
            return int(f.read())

    def access_log(self):
        """[(upstream address, hand id, grpc status)] in order, one per call."""
        calls = []
        with open(os.path.join(self.dir, "nginx", "access.log")) as f:
            for line in f:
                up = re.search(r"upstream=(\S+)", line).group(1)
                hand = re.search(r"hand=(\S+)", line).group(1)
                grpc = re.search(r"grpc_status=(\S+)", line).group(1)
                calls.append((up, hand, grpc))
        return calls

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.out.close()


class Player:
    """Plays complete hands through one channel to the load balancer; counts
    safe retries by reason."""

    def __init__(self, address):
        import grpc
        from stud.v1 import stud_pb2, stud_pb2_grpc
        self.grpc, self.pb = grpc, stud_pb2
        self.channel = grpc.insecure_channel(address)
        self.stub = stud_pb2_grpc.StudServiceStub(self.channel)
        self.retries = collections.Counter()
        self.lock = threading.Lock()

    def call(self, method, request, hand_id):
        for attempt in range(40):
            try:
                # No metadata for a hand not named yet (hand_id None).
                return getattr(self.stub, method)(request, timeout=CALL_TIMEOUT,
                                                  metadata=(("x-stud-hand-id", hand_id),) if hand_id else None)
            except self.grpc.RpcError as e:
                if e.code() != self.grpc.StatusCode.UNAVAILABLE:
                    raise
                # Not delivered, or refused by a draining replica. Every stud call is a
                # pure function of its request: repeating it cannot change a hand.
                with self.lock:
                    self.retries[e.code().name] += 1
                time.sleep(min(0.05 * (attempt + 1), 0.5))
        raise RuntimeError("%s of hand %s: still failing after 40 attempts" % (method, hand_id))

    def play(self, hand_id, seed, pause=0.0, on_step=None, by_view=False):
        """One complete hand; returns (final update, starting stacks, key ids seen).
        by_view: as a client that learns the hand's id from NewHand's answer:
        NewHand without x-stud-hand-id, every later call with PublicView.hand_id."""
        pb = self.pb
        rng = random.Random(seed)
        stacks = [rng.choice([300, 800, 2000, 5000]) for _ in range(rng.randint(2, 6))]
        variant = [pb.VARIANT_STUD, pb.VARIANT_STUD_HI_LO, pb.VARIANT_RAZZ][seed % 3]
        req = pb.NewHandRequest(variant=variant, stakes=pb.Stakes(preset="$1-$2"))
        for i, stack in enumerate(stacks, start=1):
            req.seats.add(seat=i, stack=stack)
        update = self.call("NewHand", req, None if by_view else hand_id).update
        if by_view:
            hand_id = update.public_view.hand_id
        total = sum(stacks)
        keys = [token_key_id(update.token)]
        for step in range(500):
            view = update.public_view
            assert sum(s.stack for s in view.seats) + view.pot_total == total, (hand_id, step)
            if view.phase == pb.PHASE_COMPLETE:
                break
            legal = list(update.legal_actions)
            aggressive = [a for a in legal if a.kind in (pb.ACTION_KIND_RAISE, pb.ACTION_KIND_BET,
                                                          pb.ACTION_KIND_COMPLETE)]
            passive = [a for a in legal if a.kind in (pb.ACTION_KIND_CALL, pb.ACTION_KIND_CHECK,
                                                       pb.ACTION_KIND_BRING_IN, pb.ACTION_KIND_SHOW)]
            a = rng.choice(aggressive) if aggressive and rng.random() < 0.4 else (passive or legal)[0]
            if pause:
                time.sleep(pause)
            if on_step:
                on_step(hand_id, step)
            areq = pb.ApplyActionRequest(token=update.token, expected_version=update.version,
                                         action=pb.Action(kind=a.kind, seat=update.to_act, amount_to=a.amount_to))
            update = self.call("ApplyAction", areq, hand_id).update
            keys.append(token_key_id(update.token))
        assert update.public_view.phase == pb.PHASE_COMPLETE, hand_id
        return update, stacks, keys

    def check_settled(self, hand_id, update, stacks):
        """Final stacks exact: start - committed + won, and the pot is empty."""
        pb = self.pb
        view = update.public_view
        assert view.pot_total == 0, hand_id
        assert sum(s.stack for s in view.seats) == sum(stacks), hand_id
        settled = self.call("ResolveShowdown", pb.ResolveShowdownRequest(token=update.token), hand_id)
        assert sum(settled.won.values()) == sum(p.amount for p in settled.pots), hand_id
        for seat in view.seats:
            assert seat.stack == stacks[seat.seat - 1] - seat.committed + settled.won.get(seat.seat, 0), \
                (hand_id, seat.seat)

    def close(self):
        self.channel.close()


def play_many(player, prefix, count, threads, pause=0.0, on_step=None, deadline_s=240, by_view=False):
    """count hands on `threads` threads; returns {hand_id: (update, stacks, keys)}; raises the first error.
    by_view: as Player.play; the hands' x-stud-hand-id is then their PublicView.hand_id."""
    results, errors = {}, []
    ids = ["%s-%03d" % (prefix, n) for n in range(count)]
    lock = threading.Lock()

    def worker(k):
        for n in range(k, count, threads):
            hand_id = ids[n]
            try:
                update, stacks, keys = player.play(hand_id, n * 7919 + len(prefix), pause, on_step, by_view)
                player.check_settled(update.public_view.hand_id if by_view else hand_id, update, stacks)
                with lock:
                    results[hand_id] = (update, stacks, keys)
            except Exception as e:  # noqa: BLE001 - reported below with the hand id
                with lock:
                    errors.append("%s: %r" % (hand_id, e))
                return

    ts = [threading.Thread(target=worker, args=(k,), daemon=True) for k in range(threads)]
    for t in ts:
        t.start()
    end = time.time() + deadline_s
    for t in ts:
        t.join(max(0.0, end - time.time()))
    if any(t.is_alive() for t in ts):
        errors.append("hands still running after %d s" % deadline_s)
    if errors:
        raise AssertionError("; ".join(errors[:5]))
    return results
