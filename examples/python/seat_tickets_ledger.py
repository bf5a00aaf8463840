#!/usr/bin/python3
"""A stud.v1 hand with seat tickets and the hand ledger: the platform deals,
hands each player only their own ticket, and each player's client acts for
its own seat with the latest token and its ticket.

  stud_server --listen 127.0.0.1:50051 --seat_tickets=required --ledger redis://127.0.0.1:6379
  /usr/bin/python3 examples/python/seat_tickets_ledger.py --server 127.0.0.1:50051

The server must run in the "seat tickets + hand ledger" mode of docs/api.md
("Threat model"): --seat_tickets=required and --ledger redis://HOST:PORT. The
example shows, and checks, that a seat's client sees its own down cards and
nobody else's, that acting for another seat is PERMISSION_DENIED
(SEAT_TICKET_WRONG_SEAT), that a call without a ticket is PERMISSION_DENIED
(SEAT_TICKET_REQUIRED), and that replaying an older token to fork the hand is
ABORTED (TOKEN_SUPERSEDED). Then it plays the hand out (bring in, check or
call, show) and resolves the showdown. Exit code 0 when every check held.

Needs Debian's python3-grpcio and protobuf, protoc and grpc_python_plugin
(tools/install-deps.sh): the stubs are generated from proto/ into a temporary
directory at start-up. Every call has a 10 s deadline.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEADLINE = 10  # seconds, every call


def load_stubs(proto_dir, out_dir):
    files = ["stud/v1/stud.proto", "stud/v1/options.proto", "google/rpc/status.proto",
             "google/rpc/error_details.proto"]
    subprocess.run(["protoc", "-I", proto_dir, "--python_out", out_dir, "--grpc_out", out_dir,
                    "--plugin=protoc-gen-grpc=/usr/bin/grpc_python_plugin"] + files, check=True)
    sys.path.insert(0, out_dir)


def error_info(err):
    """(reason, metadata) of the ErrorInfo in grpc-status-details-bin, or ("", {})."""
    from google.rpc import error_details_pb2, status_pb2
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason, dict(info.metadata)
    return "", {}


def cards(seat_cards):
    return " ".join((c.card or "[xx]") + ("" if c.face_up else "*") for c in seat_cards)


class Checks:
    """The example's claims; each is printed and counted."""

    def __init__(self):
        self.failed = []

    def expect(self, ok, what):
        print("   check: %s ... %s" % (what, "ok" if ok else "FAILED"))
        if not ok:
            self.failed.append(what)


class PlayerClient:
    """One player's device: it knows its seat and its own ticket, nothing else.
    The platform pushes it the latest token after every action."""

    def __init__(self, pb, stub, seat, ticket):
        self.pb, self.stub, self.seat, self.ticket = pb, stub, seat, ticket
        self.token = b""

    def view(self):
        return self.stub.GetView(self.pb.GetViewRequest(
            token=self.token, private_view_seats=[self.seat], seat_ticket=self.ticket), timeout=DEADLINE).update

    def act(self, kind, amount_to=0, seat=None):
        return self.stub.ApplyAction(self.pb.ApplyActionRequest(
            token=self.token, seat_ticket=self.ticket, private_view_seats=[self.seat],
            action=self.pb.Action(kind=kind, seat=self.seat if seat is None else seat, amount_to=amount_to)),
            timeout=DEADLINE).update

    def legal(self):
        return self.stub.LegalActions(self.pb.LegalActionsRequest(
            token=self.token, seat=self.seat, seat_ticket=self.ticket), timeout=DEADLINE)


def expect_refusal(checks, grpc, call, code, reason, what):
    try:
        call()
    except grpc.RpcError as err:
        got, meta = error_info(err)
        extra = "".join(" %s=%s" % (k, meta[k]) for k in ("token_version", "latest_version") if k in meta)
        print("   refused: %s %s%s: %s" % (err.code().name, got, extra, err.details()))
        checks.expect(err.code() == code and got == reason, "%s is %s %s" % (what, code.name, reason))
        return
    checks.expect(False, "%s is %s %s (it was accepted)" % (what, code.name, reason))


def show_own_view(checks, pb, player, update):
    """Prints what seat `player.seat` sees and checks it sees no other seat's down card."""
    mine = [v for v in update.private_views if v.seat == player.seat]
    others = [v.seat for v in update.private_views if v.seat != player.seat]
    print("   seat %d sees its own cards: %s" % (player.seat, cards(mine[0].cards) if mine else "(none)"))
    hidden_ok = True
    for s in update.public_view.seats:
        if s.seat != player.seat:
            print("   seat %d sees seat %d as:   %s" % (player.seat, s.seat, cards(s.cards)))
            if update.public_view.phase != pb.PHASE_COMPLETE:
                hidden_ok &= all(c.card == "" for c in s.cards if not c.face_up)
    checks.expect(bool(mine) and all(c.card for c in mine[0].cards) and not others and hidden_ok,
                  "seat %d sees its own down cards and no other seat's" % player.seat)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True,
                    help="HOST:PORT of a stud_server run with --seat_tickets=required and --ledger")
    ap.add_argument("--proto_dir", default=os.path.join(HERE, "..", "..", "proto"))
    args = ap.parse_args()

    tmp = tempfile.TemporaryDirectory()
    load_stubs(args.proto_dir, tmp.name)
    import grpc
    from stud.v1 import stud_pb2 as pb, stud_pb2_grpc

    channel = grpc.insecure_channel(args.server)
    stub = stud_pb2_grpc.StudServiceStub(channel)
    checks = Checks()
    try:
        grpc.channel_ready_future(channel).result(timeout=DEADLINE)

        # 1. The platform (a trusted backend) deals. NewHand takes no ticket; it
        #    returns one per seat and a table ticket. It asks for no private view.
        print("== platform: NewHand, three seats, $1-$2, the service shuffles")
        req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"),
                                dealing_mode=pb.DEALING_MODE_SERVICE)
        for seat in (1, 2, 3):
            req.seats.add(seat=seat, stack=2000)
        resp = stub.NewHand(req, timeout=DEADLINE)
        update = resp.update
        print("   hand %s, version %d, %d seat tickets + a table ticket (%d bytes each)"
              % (update.public_view.hand_id, update.version, len(resp.seat_tickets), len(resp.table_ticket)))
        checks.expect(len(resp.seat_tickets) == 3 and resp.table_ticket, "NewHand returned the tickets")

        # 2. Each player's client gets only its own ticket; the platform keeps
        #    the table ticket and pushes the latest token to everyone.
        players = {t.seat: PlayerClient(pb, stub, t.seat, t.ticket) for t in resp.seat_tickets}
        first_token = update.token

        def push(token):
            for p in players.values():
                p.token = token

        push(update.token)

        # 3. A token alone opens nothing in this mode.
        print("== a call with the token but no ticket")
        expect_refusal(checks, grpc, lambda: stub.GetView(pb.GetViewRequest(
            token=update.token, private_view_seats=[1]), timeout=DEADLINE),
            grpc.StatusCode.PERMISSION_DENIED, "SEAT_TICKET_REQUIRED", "a call without a ticket")

        # 4. Each seat sees its own cards, the others' down cards hidden.
        for seat, player in sorted(players.items()):
            print("== seat %d's client: GetView with its ticket" % seat)
            show_own_view(checks, pb, player, player.view())

        # 5. Another seat may neither peek nor act for the seat to act.
        to_act = update.to_act
        other = players[1 if to_act != 1 else 2]
        print("== seat %d's client asks for seat %d's cards" % (other.seat, to_act))
        expect_refusal(checks, grpc, lambda: stub.GetView(pb.GetViewRequest(
            token=other.token, private_view_seats=[to_act], seat_ticket=other.ticket), timeout=DEADLINE),
            grpc.StatusCode.PERMISSION_DENIED, "SEAT_TICKET_WRONG_SEAT", "another seat's private view")
        print("== seat %d's client tries to bring in for seat %d" % (other.seat, to_act))
        expect_refusal(checks, grpc, lambda: other.act(pb.ACTION_KIND_BRING_IN, seat=to_act),
                       grpc.StatusCode.PERMISSION_DENIED, "SEAT_TICKET_WRONG_SEAT", "acting for another seat")

        # 6. Play the hand out: whoever is to act does so with its own ticket.
        print("== the hand, each seat acting from its own client")
        prefer = [pb.ACTION_KIND_BRING_IN, pb.ACTION_KIND_CHECK, pb.ACTION_KIND_CALL, pb.ACTION_KIND_SHOW]
        street = update.public_view.street
        first_action = None  # (client, legal action) of the hand's first action
        replayed = False
        while update.public_view.phase != pb.PHASE_COMPLETE:
            player = players[update.to_act]
            legal = sorted(player.legal().legal_actions,
                           key=lambda a: prefer.index(a.kind) if a.kind in prefer else 9)
            pick = legal[0]
            update = player.act(pick.kind, pick.amount_to)
            if first_action is None:  # kept for the replay below: another legal choice
                first_action = (player, next((a for a in legal if a.kind != pick.kind), pick))
            print("   seat %d: %s%s -> version %d" % (player.seat, pb.ActionKind.Name(pick.kind),
                                                     " to %d" % pick.amount_to if pick.amount_to else "",
                                                     update.version))
            for a in update.announcements:
                print("   dealer: " + a.text)
            push(update.token)
            if update.public_view.street != street and update.public_view.phase != pb.PHASE_COMPLETE:
                street = update.public_view.street
                print("-- %s, pot %d" % (pb.Street.Name(street), update.public_view.pot_total))
                show_own_view(checks, pb, player, player.view())

            # 7. After the first action, the ledger knows a newer token: a
            #    client that kept the first one cannot fork the hand with it
        #    (without a ledger this fork would be accepted).
            if not replayed:
                replayed = True
                first, other_choice = first_action
                print("== seat %d's client replays the first token to %s instead (a legal action there)"
                      % (first.seat, pb.ActionKind.Name(other_choice.kind)))
                fork = pb.ApplyActionRequest(token=first_token, seat_ticket=first.ticket, action=pb.Action(
                    kind=other_choice.kind, seat=first.seat, amount_to=other_choice.amount_to))
                expect_refusal(checks, grpc, lambda: stub.ApplyAction(fork, timeout=DEADLINE),
                               grpc.StatusCode.ABORTED, "TOKEN_SUPERSEDED", "a call on an older token")

        # 8. The showdown, resolved with one seat's ticket.
        print("== showdown (resolved with seat 1's ticket)")
        result = stub.ResolveShowdown(pb.ResolveShowdownRequest(
            token=players[1].token, seat_ticket=players[1].ticket), timeout=DEADLINE)
        for h in result.hands:
            print("   seat %d shows %s" % (h.seat, h.high_name))
        for p in result.pots:
            print("   pot %d of %d to seats %s (%s)" % (p.index, p.amount, list(p.high_winners), p.rule_id))
        print("   won: %s" % dict(result.won))
        checks.expect(sum(result.won.values()) > 0, "the hand was played to the end and the pot awarded")
    finally:
        channel.close()
        tmp.cleanup()
    print("example finished: " + ("OK" if not checks.failed else "FAILED: " + "; ".join(checks.failed)))
    return 0 if not checks.failed else 1


if __name__ == "__main__":
    sys.exit(main())
