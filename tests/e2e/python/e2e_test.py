#!/usr/bin/python3
"""End-to-end tests of the real stud_server binary from a foreign client
(Debian's python3-grpcio; run with /usr/bin/python3, not a pyenv python).

Usage: e2e_test.py --server PATH/stud_server --proto_dir PATH/proto

Stubs are generated at start-up with protoc + grpc_python_plugin (the same
protoc as the C++ build) into a temporary directory. Servers listen on
127.0.0.1 port 0 and are stopped with SIGTERM by their own PIDs.
"""
import argparse
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testing"))
from server_process import error_reason, generate_stubs, start_server, stop_server  # noqa: E402

ARGS = None
GEN = None


class ServerProcess:
    """A stud_server child on an ephemeral loopback port."""

    def __init__(self, key_file=None, allow_preset=True, extra=(), tls_root=None, stderr=None,
                 allow_deck_reveal=True):
        args = list(extra)
        if key_file:
            args += ["--key_file", key_file]
        if allow_preset:
            args.append("--allow_preset")
        if allow_deck_reveal:  # a trusted client checks the deck commitment (GetView reveal_deck)
            args.append("--allow_deck_reveal")
        self.proc, self.address = start_server(ARGS.server, args, stderr=stderr or subprocess.DEVNULL)
        import grpc
        from stud.v1 import stud_pb2_grpc
        if tls_root:
            creds = grpc.ssl_channel_credentials(root_certificates=tls_root)
            self.channel = grpc.secure_channel(self.address, creds,
                                               options=[("grpc.ssl_target_name_override", "localhost")])
        else:
            self.channel = grpc.insecure_channel(self.address)
        self.stub = stud_pb2_grpc.StudServiceStub(self.channel)

    def stop(self):
        """SIGTERM (graceful drain); returns the exit code (None if it had to be killed)."""
        self.channel.close()
        return stop_server(self.proc, timeout=15)[0]


def natural_deck():
    return [r + s for r in "23456789TJQKA" for s in "cdhs"]


class E2E(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from stud.v1 import stud_pb2
        cls.pb = stud_pb2
        cls.tmp = tempfile.TemporaryDirectory()
        cls.key_file = os.path.join(cls.tmp.name, "keys.txt")
        with open(cls.key_file, "w") as f:
            f.write("# test ring\n1:%s\n2:%s\n" % ("11" * 32, "22" * 32))
        cls.a = ServerProcess(cls.key_file)
        cls.b = ServerProcess(cls.key_file)

    @classmethod
    def tearDownClass(cls):
        cls.a.stop()
        cls.b.stop()
        cls.tmp.cleanup()

    def new_hand(self, stub, variant, stacks, mode=None, views=(), preset=None):
        pb = self.pb
        req = pb.NewHandRequest(variant=variant, stakes=pb.Stakes(preset="$1-$2"),
                                dealing_mode=mode or pb.DEALING_MODE_SERVICE,
                                private_view_seats=list(views))
        for i, stack in enumerate(stacks, start=1):
            req.seats.add(seat=i, stack=stack)
        if preset:
            req.preset_deck.extend(preset)
        return stub.NewHand(req, timeout=10).update

    def choose(self, update, rng, aggression):
        pb = self.pb
        legal = list(update.legal_actions)
        kinds = {a.kind: a for a in legal}
        for k in (pb.ACTION_KIND_SHOW,):
            if k in kinds:
                return kinds[k]
        aggressive = [a for a in legal if a.kind in (pb.ACTION_KIND_RAISE, pb.ACTION_KIND_BET,
                                                      pb.ACTION_KIND_COMPLETE)]
        passive = [a for a in legal if a.kind in (pb.ACTION_KIND_CALL, pb.ACTION_KIND_CHECK,
                                                   pb.ACTION_KIND_BRING_IN)]
        if aggressive and rng.random() < aggression:
            return rng.choice(aggressive)
        return passive[0] if passive else legal[0]

    def check_views(self, update, own_cards_seen):
        """No view shows another seat's down card (until that seat shows at
        showdown); no card is shown that was not dealt."""
        shown = {sv.seat for sv in update.public_view.seats if sv.shown}
        # Every seat's private view is requested, so this is every card in play.
        in_play = {c.card for pv in update.private_views for c in pv.cards}
        if update.public_view.common_card:
            in_play.add(update.public_view.common_card)
        visible = [c.card for sv in update.public_view.seats for c in sv.cards]
        visible += [op.card for op in update.operations]
        visible += [op.card for pv in update.private_views for op in pv.operations]
        for card in visible:
            if card:
                self.assertIn(card, in_play)  # never a burn or an undealt card
        for pv in update.private_views:
            for op in pv.operations:
                if (op.type == self.pb.OPERATION_TYPE_DEAL and not op.face_up and op.seat != pv.seat
                        and op.seat not in shown):
                    self.assertEqual(op.card, "")
            for c in pv.cards:
                self.assertNotEqual(c.card, "")
                own_cards_seen.setdefault(pv.seat, set()).add(c.card)
        for op in update.operations:
            if op.type == self.pb.OPERATION_TYPE_BURN:
                self.assertEqual(op.card, "")
            if op.type == self.pb.OPERATION_TYPE_DEAL and not op.face_up and op.seat not in shown:
                self.assertEqual(op.card, "")

    def play(self, variant, stacks, seed, alternate=True):
        """Plays a whole hand, alternating servers on every call; returns the last update."""
        pb = self.pb
        rng = random.Random(seed)
        servers = [self.a.stub, self.b.stub] if alternate else [self.a.stub]
        n = len(stacks)
        update = self.new_hand(servers[0], variant, stacks, views=range(1, n + 1))
        total = sum(stacks)
        own = {}
        for step in range(400):
            self.check_views(update, own)
            view = update.public_view
            self.assertEqual(sum(s.stack for s in view.seats) + view.pot_total, total)
            if view.phase == pb.PHASE_COMPLETE:
                break
            # Seed 0 raises whenever it may, so short stacks go all-in: side pots.
            a = self.choose(update, rng, 1.0 if seed % 10 == 0 else 0.4)
            req = pb.ApplyActionRequest(token=update.token, expected_version=update.version,
                                        private_view_seats=list(range(1, n + 1)),
                                        action=pb.Action(kind=a.kind, seat=update.to_act,
                                                         amount_to=a.amount_to))
            update = servers[(step + 1) % len(servers)].ApplyAction(req, timeout=10).update
        self.assertEqual(update.public_view.phase, pb.PHASE_COMPLETE)
        # Undealt cards never appeared; the deck commitment verifies. The final
        # update carries the commitment alone: the deck comes on request.
        self.assertEqual(len(update.public_view.deck_commitment.revealed_deck), 0)
        revealed = servers[-1].GetView(pb.GetViewRequest(token=update.token, reveal_deck=True),
                                       timeout=10).update
        dc = revealed.public_view.deck_commitment
        self.assertEqual(dc.commitment, update.public_view.deck_commitment.commitment)
        self.assertEqual(len(dc.revealed_deck), 52)
        msg = "".join(dc.revealed_deck).encode() + b"/" + "".join(dc.revealed_recycle_order).encode() \
            + dc.revealed_salt
        self.assertEqual(hashlib.sha256(msg).digest(), dc.commitment)
        for seat, cards in own.items():
            for c in cards:
                self.assertIn(c, dc.revealed_deck)
        return update, total

    def test_complete_hands_every_variant_side_pots_alternating_servers(self):
        pb = self.pb
        side_pots = 0
        for variant in (pb.VARIANT_STUD, pb.VARIANT_STUD_HI_LO, pb.VARIANT_RAZZ):
            for seed in range(4):
                stacks = [5000, 700, 1500, 5000, 300][: 3 + seed % 3]
                update, total = self.play(variant, stacks, seed * 10)
                view = update.public_view
                self.assertEqual(view.pot_total, 0)
                self.assertEqual(sum(s.stack for s in view.seats), total)
                settled = self.b.stub.ResolveShowdown(pb.ResolveShowdownRequest(token=update.token),
                                                      timeout=10)
                self.assertEqual(sum(settled.won.values()), sum(p.amount for p in settled.pots))
                side_pots += max(0, len(settled.pots) - 1)
                for seat in view.seats:  # final stack = start - committed + won
                    self.assertEqual(seat.stack, stacks[seat.seat - 1] - seat.committed
                                     + settled.won.get(seat.seat, 0), (variant, seed, seat.seat))
        self.assertGreater(side_pots, 0, "no hand built a side pot")

    def test_tampered_token_is_rejected(self):
        import grpc
        pb = self.pb
        update = self.new_hand(self.a.stub, pb.VARIANT_STUD, [1000, 1000])
        token = bytearray(update.token)
        token[len(token) // 2] ^= 0x01
        with self.assertRaises(grpc.RpcError) as ctx:
            self.a.stub.GetView(pb.GetViewRequest(token=bytes(token)), timeout=10)
        self.assertEqual(ctx.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        self.assertEqual(error_reason(ctx.exception), "TOKEN_AUTHENTICATION_FAILED")
        with self.assertRaises(grpc.RpcError) as ctx:
            self.a.stub.GetView(pb.GetViewRequest(token=bytes(token[:10])), timeout=10)
        self.assertEqual(error_reason(ctx.exception), "TOKEN_MALFORMED")

    def test_preset_refused_without_server_option(self):
        import grpc
        pb = self.pb
        strict = ServerProcess(self.key_file, allow_preset=False)
        try:
            with self.assertRaises(grpc.RpcError) as ctx:
                self.new_hand(strict.stub, pb.VARIANT_STUD, [1000, 1000], mode=pb.DEALING_MODE_PRESET,
                              preset=natural_deck())
            self.assertEqual(ctx.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)
            self.assertIn("--allow_preset", ctx.exception.details())
        finally:
            strict.stop()
        update = self.new_hand(self.a.stub, pb.VARIANT_STUD, [1000, 1000], mode=pb.DEALING_MODE_PRESET,
                               preset=natural_deck(), views=[1])
        self.assertEqual([c.card for c in update.private_views[0].cards], ["2c", "2h", "3c"])

    def test_illegal_action_has_rule_id(self):
        import grpc
        pb = self.pb
        update = self.new_hand(self.a.stub, pb.VARIANT_STUD, [1000, 1000])
        req = pb.ApplyActionRequest(token=update.token, action=pb.Action(
            kind=pb.ACTION_KIND_BET, seat=update.to_act, amount_to=12345))
        with self.assertRaises(grpc.RpcError) as ctx:
            self.a.stub.ApplyAction(req, timeout=10)
        self.assertEqual(ctx.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)
        self.assertTrue(error_reason(ctx.exception).startswith("STUD-"))

    def test_same_request_same_answer_on_both_servers(self):
        pb = self.pb
        update = self.new_hand(self.a.stub, pb.VARIANT_STUD_HI_LO, [1000, 1000, 1000])
        a = update.legal_actions[0]
        req = pb.ApplyActionRequest(token=update.token, private_view_seats=[1, 2],
                                    action=pb.Action(kind=a.kind, seat=update.to_act, amount_to=a.amount_to))
        first = self.a.stub.ApplyAction(req, timeout=10)
        again = self.a.stub.ApplyAction(req, timeout=10)
        other = self.b.stub.ApplyAction(req, timeout=10)
        self.assertEqual(first, again)
        self.assertEqual(first, other)
        self.assertEqual(first.update.token, other.update.token)


class ServerOperations(unittest.TestCase):
    """Health, graceful drain, keys, message limits and TLS of the real binary."""

    def test_health_serving_and_clean_exit_on_sigterm(self):
        import health_pb2
        import health_pb2_grpc
        server = ServerProcess()
        stub = health_pb2_grpc.HealthStub(server.channel)
        for name in ("", "stud.v1.StudService"):
            resp = stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=10)
            self.assertEqual(resp.status, health_pb2.HealthCheckResponse.SERVING)
        self.assertEqual(server.stop(), 0)

    def test_ephemeral_key_warns_and_other_servers_cannot_open(self):
        import grpc
        from stud.v1 import stud_pb2 as pb
        with tempfile.TemporaryFile("w+") as err:
            one = ServerProcess(stderr=err)
            two = ServerProcess()
            try:
                req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"))
                req.seats.add(seat=1, stack=1000)
                req.seats.add(seat=2, stack=1000)
                token = one.stub.NewHand(req, timeout=10).update.token
                with self.assertRaises(grpc.RpcError) as ctx:
                    two.stub.GetView(pb.GetViewRequest(token=token), timeout=10)
                self.assertEqual(error_reason(ctx.exception), "TOKEN_UNKNOWN_KEY")
            finally:
                one.stop()
                two.stop()
            err.seek(0)
            self.assertIn("EPHEMERAL", err.read())

    def test_oversized_request_is_refused(self):
        import grpc
        from stud.v1 import stud_pb2 as pb
        server = ServerProcess(extra=["--max_message_bytes", "4096"])
        try:
            with self.assertRaises(grpc.RpcError) as ctx:
                server.stub.GetView(pb.GetViewRequest(token=b"x" * 10000), timeout=10)
            self.assertEqual(ctx.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)
        finally:
            server.stop()

    def test_bad_key_file_fails_fast(self):
        with tempfile.NamedTemporaryFile("w", suffix=".keys") as f:
            f.write("1:nothex\n")
            f.flush()
            proc = subprocess.run([ARGS.server, "--listen", "127.0.0.1:0", "--key_file", f.name],
                                  capture_output=True, text=True, timeout=15)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("64 hex", proc.stderr)
        self.assertEqual(proc.stdout, "")

    def test_out_of_range_hand_cache_fails_fast(self):
        for value in ("-1", "100000000"):
            proc = subprocess.run([ARGS.server, "--listen", "127.0.0.1:0", "--metrics_listen=",
                                   "--hand_cache=" + value], capture_output=True, text=True, timeout=15)
            self.assertNotEqual(proc.returncode, 0, value)
            self.assertIn("--hand_cache: " + value + " is not 0 (off) to 262144 hands", proc.stderr)

    @unittest.skipUnless(shutil.which("openssl"), "openssl not installed")
    def test_tls_when_certificate_files_are_given(self):
        from stud.v1 import stud_pb2 as pb
        with tempfile.TemporaryDirectory() as d:
            cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                            "-keyout", key, "-out", cert], check=True, capture_output=True, timeout=60)
            with open(cert, "rb") as f:
                root = f.read()
            server = ServerProcess(extra=["--tls_cert", cert, "--tls_key", key], tls_root=root)
            try:
                req = pb.LegalActionsRequest(token=b"", seat=1)
                import grpc
                with self.assertRaises(grpc.RpcError) as ctx:
                    server.stub.LegalActions(req, timeout=10)
                # Reaching the service's own validation proves the TLS handshake worked.
                self.assertEqual(ctx.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
            finally:
                self.assertEqual(server.stop(), 0)


def main():
    global ARGS, GEN
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--proto_dir", required=True)
    ARGS, rest = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as gen:
        generate_stubs(ARGS.proto_dir, gen, health=True)
        unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
