"""Connection policy (service/server/connection_policy.h) against the real
stud_server: with --max_connection_idle_seconds=2 and
--handshake_timeout_seconds=2, 200 idle connections (100 that sent only the
HTTP/2 preface and SETTINGS, 100 that sent nothing) are all closed by the
server, while a client calling every 300 ms keeps its one connection READY
and every call succeeds. With the default policy (300 s) a preface-only
connection is still open after 3 s, so the flag is what closes them.

Usage: connection_policy_test.py --server PATH --proto_dir DIR
"""
import argparse
import os
import select
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
import server_process  # noqa: E402

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
LIMIT_S = 2
WAIT_S = 15  # far above the 2 s limit: a bound on the test, not a timing claim


def open_idle(address, n, send_preface):
    host, port = address.rsplit(":", 1)
    socks = []
    for _ in range(n):
        s = socket.create_connection((host, int(port)), timeout=5)
        if send_preface:
            s.sendall(PREFACE)
        s.setblocking(False)
        socks.append(s)
    return socks


def wait_closed(socks, deadline):
    """Reads each socket until EOF; returns the sockets still open at `deadline`."""
    open_socks = set(socks)
    while open_socks and time.time() < deadline:
        ready, _, _ = select.select(list(open_socks), [], [], 0.2)
        for s in ready:
            try:
                data = s.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                data = b""
            if data == b"":
                open_socks.discard(s)
                s.close()
    return open_socks


def active_client(stud_pb2, stud_pb2_grpc, grpc, address, stop, result):
    channel = grpc.insecure_channel(address)
    states = []
    channel.subscribe(lambda st: states.append(st), try_to_connect=True)
    stub = stud_pb2_grpc.StudServiceStub(channel)
    req = stud_pb2.NewHandRequest(variant=stud_pb2.VARIANT_STUD, stakes=stud_pb2.Stakes(preset="$1-$2"),
                                  dealing_mode=stud_pb2.DEALING_MODE_SERVICE)
    for i in (1, 2, 3):
        req.seats.add(seat=i, stack=1000)
    token = stub.NewHand(req, timeout=10).update.token
    calls = failures = 0
    while not stop.is_set():
        try:
            stub.GetView(stud_pb2.GetViewRequest(token=token), timeout=5)
            calls += 1
        except grpc.RpcError as e:  # noqa: PERF203
            failures += 1
            result["error"] = str(e.code())
        time.sleep(0.3)
    result.update(calls=calls, failures=failures, states=[str(s) for s in states])
    channel.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--proto_dir", required=True)
    args = ap.parse_args()
    out_dir = tempfile.mkdtemp(prefix="stud_conn_")
    server_process.generate_stubs(args.proto_dir, out_dir)
    import grpc  # noqa: E402
    from stud.v1 import stud_pb2, stud_pb2_grpc  # noqa: E402

    failures = []
    proc, address = server_process.start_server(
        args.server, ["--max_connection_idle_seconds=%d" % LIMIT_S,
                      "--handshake_timeout_seconds=%d" % LIMIT_S])
    try:
        stop = threading.Event()
        result = {}
        t = threading.Thread(target=active_client,
                             args=(stud_pb2, stud_pb2_grpc, grpc, address, stop, result))
        t.start()
        start = time.time()
        socks = open_idle(address, 100, True) + open_idle(address, 100, False)
        still_open = wait_closed(socks, start + WAIT_S)
        closed_after = time.time() - start
        # The active client keeps calling well past the idle limit.
        time.sleep(max(0.0, start + 3 * LIMIT_S - time.time()))
        stop.set()
        t.join(timeout=20)
        print("idle connections: %d of 200 closed in %.1f s (limit %d s); active client: %d calls, %d failed, "
              "states %s" % (200 - len(still_open), closed_after, LIMIT_S, result.get("calls", 0),
                             result.get("failures", -1), result.get("states")))
        if still_open:
            failures.append("%d idle connections still open after %d s" % (len(still_open), WAIT_S))
        if result.get("failures", 1) != 0 or result.get("calls", 0) < 10:
            failures.append("the active client's calls failed: %r" % result)
        ready = [s for s in result.get("states", []) if s.endswith("READY")]
        if not ready or result["states"][-1] != ready[-1] or result["states"].count(ready[-1]) != 1:
            failures.append("the active connection did not stay READY: %r" % result.get("states"))
    finally:
        code, _ = server_process.stop_server(proc)
        if code != 0:
            failures.append("server exit code %r" % code)

    # The default policy keeps an idle connection far longer than 3 s.
    proc, address = server_process.start_server(args.server)
    try:
        socks = open_idle(address, 10, True)
        still_open = wait_closed(socks, time.time() + 3)
        print("default policy: %d of 10 preface-only connections open after 3 s" % len(still_open))
        if len(still_open) != 10:
            failures.append("default policy closed idle connections within 3 s")
        for s in still_open:
            s.close()
    finally:
        server_process.stop_server(proc)

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
