"""A drain that cancels nothing: SIGTERM under load (32 clients calling
NewHand, backing off on UNAVAILABLE as gRPC's retry policy does).

On SIGTERM the server turns NOT_SERVING, answers every new call UNAVAILABLE
(reason SERVER_DRAINING: retryable, nothing applied), lets the calls it
accepted finish, waits for its clients to go quiet (at most 2 s, and 1 s before
--drain_seconds), closes its listener and connections (a call on the wire then
gets UNAVAILABLE, not CANCELLED), shuts down, and exits 0 within
--drain_seconds.

Checked over --runs repetitions: no call is CANCELLED, SERVER_DRAINING answers
are seen, the listener was closed by the drain, every line the server wrote
on stderr is JSON (gRPC's own lines included), and the exit is clean.

Usage: drain_test.py --server PATH --proto_dir DIR [--runs N]
"""
import argparse
import collections
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
import server_process  # noqa: E402

CLIENTS = 32
DRAIN_S = 5


def log_event(path, event):
    """The first line of `event` in the server's JSON log; every line must parse."""
    found = None
    with open(path) as f:
        for line in f:
            ev = json.loads(line)
            if found is None and ev.get("event") == event:
                found = ev
    return found


def log_time(ev):
    return datetime.strptime(ev["ts"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


def run_once(args, grpc, pb, pb_grpc, tmp):
    err_path = os.path.join(tmp, "server.err")
    with open(err_path, "w") as err:
        proc, address = server_process.start_server(args.server, ["--drain_seconds=%d" % DRAIN_S], stderr=err)
    codes = collections.Counter()
    reasons = collections.Counter()
    cancelled_at = []
    stop = threading.Event()

    def client():
        channel = grpc.insecure_channel(address)
        stub = pb_grpc.StudServiceStub(channel)
        req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"),
                                dealing_mode=pb.DEALING_MODE_SERVICE)
        for i in range(1, 9):
            req.seats.add(seat=i, stack=1000)
        backoff = 0.05
        while not stop.is_set():
            try:
                stub.NewHand(req, timeout=10)
                codes["OK"] += 1
                backoff = 0.05
            except grpc.RpcError as e:  # noqa: PERF203
                codes[e.code().name] += 1
                if e.code() == grpc.StatusCode.CANCELLED:
                    cancelled_at.append(time.time())
                if e.code() == grpc.StatusCode.UNAVAILABLE:
                    reasons[server_process.error_reason(e) or "(connection)"] += 1
                    time.sleep(backoff * random.uniform(0.8, 1.2))
                    backoff = min(1.0, backoff * 1.6)
        channel.close()

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    sent = time.time()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=DRAIN_S + 10)
    except Exception:  # noqa: BLE001
        proc.kill()
        code = None
    exited = time.time() - sent
    time.sleep(0.3)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    shutdown = log_event(err_path, "shutdown") or {}
    drain = (log_time(shutdown) - sent) if shutdown else None
    return dict(codes=dict(codes), reasons=dict(reasons), exit=code, exited=exited, drain=drain,
                cancelled=len(cancelled_at), listeners_closed=shutdown.get("listeners_closed", 0),
                connections_closed=shutdown.get("connections_closed", 0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--proto_dir", required=True)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="stud_drain_")
    server_process.generate_stubs(args.proto_dir, tmp)
    import grpc  # noqa: E402
    from stud.v1 import stud_pb2, stud_pb2_grpc  # noqa: E402
    failures = []
    total = collections.Counter()
    for run in range(args.runs):
        r = run_once(args, grpc, stud_pb2, stud_pb2_grpc, tmp)
        total.update(r["codes"])
        print("run %d: %s" % (run + 1, r))
        if r["exit"] != 0 or r["exited"] > DRAIN_S + 1:
            failures.append("run %d: exit %r after %.1f s" % (run + 1, r["exit"], r["exited"]))
        if r["cancelled"]:
            failures.append("run %d: %d calls CANCELLED" % (run + 1, r["cancelled"]))
        if r["reasons"].get("SERVER_DRAINING", 0) == 0 or r["codes"].get("OK", 0) == 0:
            failures.append("run %d: no SERVER_DRAINING answer or no call served: %r" % (run + 1, r))
        if r["listeners_closed"] < 1:
            failures.append("run %d: the drain did not close the listener: %r" % (run + 1, r))
    print("%d runs: %s" % (args.runs, dict(total)))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
