#!/usr/bin/python3
"""A stud.v1 client in Python: deal a hand, show the views, play it out,
handle a rule error, resolve the showdown, and export the hand as PHH.

  /usr/bin/python3 examples/python/stud_client.py --server 127.0.0.1:50051
  /usr/bin/python3 examples/python/stud_client.py --stud_server build/service/stud_server

Needs Debian's python3-grpcio and protobuf (tools/install-deps.sh), protoc and
grpc_python_plugin: the stubs are generated from proto/ into a temporary
directory at start-up. With --stud_server the example starts its own server on
127.0.0.1 port 0 and stops it at the end (the test suite runs it that way).
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load_stubs(proto_dir, out_dir):
    files = ["stud/v1/stud.proto", "stud/v1/options.proto", "google/rpc/status.proto",
             "google/rpc/error_details.proto"]
    subprocess.run(["protoc", "-I", proto_dir, "--python_out", out_dir, "--grpc_out", out_dir,
                    "--plugin=protoc-gen-grpc=/usr/bin/grpc_python_plugin"] + files, check=True)
    sys.path.insert(0, out_dir)


def rule_id_of(err):
    """The rule ID of a refused action: ErrorInfo.reason in grpc-status-details-bin."""
    from google.rpc import error_details_pb2, status_pb2
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason
    return ""


def cards(seat_cards):
    return " ".join((c.card or "[xx]") + ("" if c.face_up else "*") for c in seat_cards)


def show_views(pb, update):
    pv = update.public_view
    print("-- %s, %s, pot %d, to act: seat %d" % (pb.Street.Name(pv.street), pb.Phase.Name(pv.phase),
                                                  pv.pot_total, update.to_act))
    for s in pv.seats:
        print("   public  seat %d stack %6d  %s" % (s.seat, s.stack, cards(s.cards)))
    for v in update.private_views:
        print("   private seat %d          %s" % (v.seat, cards(v.cards)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", help="address of a running stud_server")
    ap.add_argument("--stud_server", help="start this stud_server binary on 127.0.0.1:0")
    ap.add_argument("--proto_dir", default=os.path.join(HERE, "..", "..", "proto"))
    args = ap.parse_args()
    if not args.server and not args.stud_server:
        ap.error("give --server or --stud_server")

    tmp = tempfile.TemporaryDirectory()
    load_stubs(args.proto_dir, tmp.name)
    import grpc
    from stud.v1 import stud_pb2 as pb, stud_pb2_grpc

    proc = None
    address = args.server
    if args.stud_server:
        proc = subprocess.Popen([args.stud_server, "--listen", "127.0.0.1:0", "--metrics_listen="],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        address = proc.stdout.readline().strip().rsplit(" ", 1)[1]  # "stud_server listening on HOST:PORT"
    channel = grpc.insecure_channel(address)
    stub = stud_pb2_grpc.StudServiceStub(channel)
    saw_rule_error = False
    try:
        # 1. Deal: three seats, the service shuffles; ask for every seat's private view.
        req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"),
                                dealing_mode=pb.DEALING_MODE_SERVICE, private_view_seats=[1, 2, 3])
        for seat in (1, 2, 3):
            req.seats.add(seat=seat, stack=2000)
        update = stub.NewHand(req, timeout=10).update
        show_views(pb, update)

        # 2. A rule error: the seat that must bring in tries to bet instead.
        try:
            stub.ApplyAction(pb.ApplyActionRequest(token=update.token, action=pb.Action(
                kind=pb.ACTION_KIND_BET, seat=update.to_act, amount_to=10_000)), timeout=10)
        except grpc.RpcError as err:
            rule = rule_id_of(err)
            print("refused: %s, rule %s: %s" % (err.code().name, rule, err.details()))
            saw_rule_error = err.code() == grpc.StatusCode.FAILED_PRECONDITION and rule.startswith("STUD-")

        # 3. Play it out: bring in, then check or call; show at showdown.
        prefer = [pb.ACTION_KIND_BRING_IN, pb.ACTION_KIND_CHECK, pb.ACTION_KIND_CALL, pb.ACTION_KIND_SHOW]
        street = update.public_view.street
        while update.public_view.phase != pb.PHASE_COMPLETE:
            legal = sorted(update.legal_actions, key=lambda a: prefer.index(a.kind) if a.kind in prefer else 9)
            pick = legal[0]
            resp = stub.ApplyAction(pb.ApplyActionRequest(
                token=update.token, expected_version=update.version, private_view_seats=[1, 2, 3],
                action=pb.Action(kind=pick.kind, seat=update.to_act, amount_to=pick.amount_to)), timeout=10)
            update = resp.update
            for a in update.announcements:
                print("   dealer: " + a.text)
            if update.public_view.street != street:
                street = update.public_view.street
                show_views(pb, update)

        # 4. The showdown: pots, winners, hands.
        result = stub.ResolveShowdown(pb.ResolveShowdownRequest(token=update.token), timeout=10)
        for h in result.hands:
            print("   seat %d shows %s" % (h.seat, h.high_name))
        for p in result.pots:
            print("   pot %d of %d to seats %s (%s)" % (p.index, p.amount, list(p.high_winners), p.rule_id))
        print("   won: %s" % dict(result.won))

        # 5. The hand as a PHH hand history, and its replay through the rules.
        phh = stub.ExportHandHistory(pb.ExportHandHistoryRequest(token=update.token), timeout=10).phh
        verdict = stub.ReplayHandHistory(pb.ReplayHandHistoryRequest(phh=phh), timeout=10)
        print("PHH export replayed: " + verdict.summary)
        ok = saw_rule_error and sum(result.won.values()) > 0 and verdict.matches
    finally:
        channel.close()
        if proc:
            proc.stdout.close()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=15)
        tmp.cleanup()
    print("example finished: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
