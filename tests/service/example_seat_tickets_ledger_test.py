#!/usr/bin/python3
"""Runs examples/python/seat_tickets_ledger.py against a real stud_server in
the "seat tickets + hand ledger" mode (docs/api.md, "Threat model").

Starts Debian's redis-server on a free loopback port with a temporary
directory, then stud_server with --seat_tickets=required and --ledger
redis://127.0.0.1:PORT, runs the example, and checks its exit code and the
lines that show each claim. Redis and the server are stopped by their own
PIDs at the end, also when a check fails. A missing redis-server fails the
test with a message; it never skips. Every wait is bounded.

Usage: example_seat_tickets_ledger_test.py --server PATH/stud_server
       --example PATH/seat_tickets_ledger.py --proto_dir PATH/proto
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
from server_process import start_server, stop_server  # noqa: E402

REDIS_CANDIDATES = ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
EXAMPLE_TIMEOUT = 90  # seconds

# Lines the example must print (substrings), in this order.
EXPECTED = [
    "3 seat tickets + a table ticket",
    "refused: PERMISSION_DENIED SEAT_TICKET_REQUIRED",
    "check: seat 1 sees its own down cards and no other seat's ... ok",
    "check: seat 2 sees its own down cards and no other seat's ... ok",
    "check: seat 3 sees its own down cards and no other seat's ... ok",
    "refused: PERMISSION_DENIED SEAT_TICKET_WRONG_SEAT",  # another seat's private view
    "refused: PERMISSION_DENIED SEAT_TICKET_WRONG_SEAT",  # acting for another seat
    "check: acting for another seat is PERMISSION_DENIED SEAT_TICKET_WRONG_SEAT ... ok",
    "refused: ABORTED TOKEN_SUPERSEDED token_version=",
    "check: a call on an older token is ABORTED TOKEN_SUPERSEDED ... ok",
    "== showdown",
    "won: ",
    "check: the hand was played to the end and the pot awarded ... ok",
    "example finished: OK",
]


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_ping(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(binary, directory, timeout=10):
    """redis-server on a free loopback port; returns (Popen, port) once it answers PING."""
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", directory,
                             "--appendonly", "yes", "--save", "", "--daemonize", "no",
                             "--logfile", os.path.join(directory, "redis.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        if redis_ping(port):
            return proc, port
        time.sleep(0.05)
    proc.kill()
    proc.wait(timeout=10)
    raise RuntimeError("redis-server on port %d did not answer PING within %d s (log: %s/redis.log)"
                       % (port, timeout, directory))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True, help="the stud_server binary")
    ap.add_argument("--example", required=True, help="examples/python/seat_tickets_ledger.py")
    ap.add_argument("--proto_dir", required=True)
    args = ap.parse_args()

    redis_binary = next((p for p in REDIS_CANDIDATES if os.access(p, os.X_OK)), None)
    if redis_binary is None:
        print("FAIL: redis-server not found (/usr/bin/redis-server): install Debian's redis-server "
              "package (tools/install-deps.sh does)")
        return 1

    workdir = tempfile.mkdtemp(prefix="stud-example-ledger-")
    redis = server = None
    failures = []
    try:
        redis, redis_port = start_redis(redis_binary, workdir)
        server, address = start_server(args.server, ["--metrics_listen=", "--seat_tickets=required",
                                                     "--ledger", "redis://127.0.0.1:%d" % redis_port])
        print("redis-server on 127.0.0.1:%d, stud_server on %s" % (redis_port, address))
        try:
            run = subprocess.run(["/usr/bin/python3", args.example, "--server", address,
                                  "--proto_dir", args.proto_dir],
                                 capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            print(out)
            failures.append("the example did not finish within %d s" % EXAMPLE_TIMEOUT)
        else:
            print(run.stdout, end="")
            if run.stderr:
                print(run.stderr, end="", file=sys.stderr)
            if run.returncode != 0:
                failures.append("the example exited with %d" % run.returncode)
            lines = run.stdout.splitlines()
            at = 0
            for want in EXPECTED:
                found = next((i for i in range(at, len(lines)) if want in lines[i]), None)
                if found is None:
                    failures.append("missing (in order): %r" % want)
                else:
                    at = found + 1
    except RuntimeError as e:
        failures.append(str(e))
    finally:
        if server is not None:
            code, rest = stop_server(server)
            if code != 0:
                failures.append("stud_server exited with %s: %s" % (code, rest[-2000:]))
        if redis is not None:
            redis.kill()
            redis.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)

    for f in failures:
        print("FAIL: " + f)
    print("PASS" if not failures else "%d failure(s)" % len(failures))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
