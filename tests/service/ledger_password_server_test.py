#!/usr/bin/python3
"""The stud_server binary with a password-protected ledger Redis (and
Sentinels with their own password): the passwords come from files
(--ledger_password_file, --ledger_sentinel_password_file) or the environment,
never from the command line.

Starts Debian's redis-server with requirepass (read from a config file, not an
argument) on a free loopback port, then stud_server:
  1. --ledger redis://... --ledger_password_file (right password): a hand is
     dealt and advanced; the password is in neither /proc/PID/cmdline nor the
     server's log;
  2. the same with STUD_LEDGER_PASSWORD in the environment;
  3. a wrong password: the server starts (the ledger may come back), its
     startup log says the password was refused, every hand call fails closed
     (UNAVAILABLE LEDGER_UNAVAILABLE, no token), the metric
     stud_ledger_connect_failures_total{cause="auth"} counts it, and neither
     password is in the log or the answer;
  4. a password in the --ledger URL: refused at startup (exit code not 0);
     so is a --ledger_token_names that is neither digest nor tag;
  5. redis-sentinel:// with a Sentinel that has requirepass of its own and
     --ledger_sentinel_password_file: a hand is dealt; neither password is on
     the command line; a wrong Sentinel password fails closed,
     cause="sentinel_auth".
Every child is stopped by its own PID at the end, also when a check fails.
Every wait is bounded. A missing redis-server fails the test; it never skips.

Usage: ledger_password_server_test.py --server PATH/stud_server --proto_dir PATH/proto
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
from server_process import error_reason, generate_stubs, start_server, stop_server  # noqa: E402

REDIS_CANDIDATES = ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
RIGHT = "right-" + os.urandom(8).hex()
WRONG = "wrong-" + os.urandom(8).hex()
SENTINEL_PW = "sentinel-" + os.urandom(8).hex()


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port, auth=None):
    """True when the server on `port` answers PING (after AUTH `auth`)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            if auth:
                s.sendall(b"AUTH %s\r\n" % auth.encode())
                if not s.recv(64).startswith(b"+OK"):
                    return False
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(binary, directory, config, auth, sentinel=False, timeout=10):
    """redis-server (or a Sentinel) from a config file (the password is in the
    file, not on its command line); returns (Popen, port) once it answers."""
    port = free_port()
    path = os.path.join(directory, "sentinel.conf" if sentinel else "redis.conf")
    with open(path, "w") as f:
        os.fchmod(f.fileno(), 0o600)
        f.write("port %d\nbind 127.0.0.1\ndaemonize no\ndir %s\nlogfile %s\n%s"
                % (port, directory, path + ".log", config))
    cmd = [binary, path] + (["--sentinel"] if sentinel else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if answers(port, auth):
            return proc, port
        time.sleep(0.05)
    proc.kill()
    proc.wait(timeout=10)
    raise RuntimeError("%s on port %d did not answer within %d s (log: %s.log)"
                       % (cmd, port, timeout, path))


def metric(metrics_port, name, labels):
    """The value of one series on the server's /metrics, or None."""
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % metrics_port, timeout=5).read().decode()
    for line in text.splitlines():
        if line.startswith(name + "{" + labels + "}") or (not labels and line.startswith(name + " ")):
            return float(line.rsplit(" ", 1)[1])
    return None


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, ok, what):
        print(("ok: " if ok else "FAIL: ") + what)
        if not ok:
            self.failures.append(what)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--proto_dir", required=True)
    args = ap.parse_args()
    redis_binary = next((p for p in REDIS_CANDIDATES if os.access(p, os.X_OK)), None)
    if redis_binary is None:
        print("FAIL: redis-server not found: install Debian's redis-server (tools/install-deps.sh)")
        return 1
    work = tempfile.mkdtemp(prefix="stud-ledger-password-")
    generate_stubs(args.proto_dir, work)
    import grpc  # noqa: E402
    from stud.v1 import stud_pb2 as pb, stud_pb2_grpc as pb_grpc  # noqa: E402

    def new_hand(address):
        stub = pb_grpc.StudServiceStub(grpc.insecure_channel(address))
        req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"),
                                dealing_mode=pb.DEALING_MODE_SERVICE)
        for i in range(1, 4):
            req.seats.add(seat=i, stack=1000)
        return stub, stub.NewHand(req, timeout=10)

    def secret_file(name, value):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(value + "\n")
        return path

    checks = Checks()
    children = []
    try:
        redis_dir = os.path.join(work, "redis")
        os.mkdir(redis_dir)
        redis, redis_port = start_redis(redis_binary, redis_dir, "requirepass %s\n" % RIGHT, RIGHT)
        children.append(redis)
        url = "redis://127.0.0.1:%d" % redis_port
        right_file = secret_file("right", RIGHT)
        wrong_file = secret_file("wrong", WRONG)

        def serve(flags, env=None):
            metrics_port = free_port()
            err = open(os.path.join(work, "server-%d.err" % metrics_port), "w+")
            proc, address = start_server(args.server, ["--metrics_listen=127.0.0.1:%d" % metrics_port] + flags,
                                         stderr=err, env=env)
            children.append(proc)
            return proc, address, metrics_port, err

        def finish(proc, err):
            code, _ = stop_server(proc)
            children.remove(proc)
            err.seek(0)
            return code, err.read()

        def cmdline(proc):
            with open("/proc/%d/cmdline" % proc.pid, "rb") as f:
                return f.read().decode(errors="replace")

        # 1. The right password from a file.
        proc, address, _, err = serve(["--ledger", url, "--ledger_password_file", right_file])
        line = cmdline(proc)
        checks.expect(RIGHT not in line and "--ledger_password_file" in line,
                      "the password is not on stud_server's command line (/proc/PID/cmdline)")
        stub, resp = new_hand(address)
        checks.expect(bool(resp.update.token), "NewHand with the password from --ledger_password_file")
        u = resp.update
        act = pb.ApplyActionRequest(token=u.token, action=pb.Action(seat=u.to_act, kind=u.legal_actions[0].kind,
                                                                     amount_to=u.legal_actions[0].amount_to))
        checks.expect(stub.ApplyAction(act, timeout=10).update.version == 1, "ApplyAction through the ledger")
        code, log = finish(proc, err)
        checks.expect(code == 0 and RIGHT not in log, "clean exit; the password is not in the log")

        # 2. The right password from the environment.
        env = dict(os.environ, STUD_LEDGER_PASSWORD=RIGHT)
        proc, address, _, err = serve(["--ledger", url], env=env)
        checks.expect(RIGHT not in cmdline(proc), "STUD_LEDGER_PASSWORD: not on the command line")
        checks.expect(bool(new_hand(address)[1].update.token), "NewHand with STUD_LEDGER_PASSWORD")
        finish(proc, err)

        # 3. A wrong password: the server starts, every hand call fails closed.
        proc, address, metrics_port, err = serve(["--ledger", url, "--ledger_password_file", wrong_file])
        try:
            new_hand(address)
            checks.expect(False, "a wrong password: NewHand must fail")
        except grpc.RpcError as e:
            checks.expect(e.code() == grpc.StatusCode.UNAVAILABLE and error_reason(e) == "LEDGER_UNAVAILABLE",
                          "a wrong password: NewHand is UNAVAILABLE LEDGER_UNAVAILABLE (%s %s)"
                          % (e.code().name, error_reason(e)))
            checks.expect("refused the password" in e.details() and WRONG not in e.details()
                          and RIGHT not in e.details(), "the answer says why and holds no password: %r"
                          % e.details())
        auth_failures = metric(metrics_port, "stud_ledger_connect_failures_total", 'cause="auth"')
        checks.expect(auth_failures is not None and auth_failures >= 1,
                      "stud_ledger_connect_failures_total{cause=\"auth\"} = %r" % auth_failures)
        code, log = finish(proc, err)
        checks.expect("refused the password" in log, "the startup log says the password was refused")
        checks.expect(WRONG not in log and RIGHT not in log, "no password in the log")

        # 4. A password in the URL is refused at startup.
        run = subprocess.run([args.server, "--listen", "127.0.0.1:0", "--metrics_listen=",
                              "--ledger", "redis://:%s@127.0.0.1:%d" % (RIGHT, redis_port)],
                             capture_output=True, text=True, timeout=20)
        checks.expect(run.returncode != 0 and "readable by anyone" in run.stderr + run.stdout,
                      "a password in --ledger is refused at startup (exit %d)" % run.returncode)
        run = subprocess.run([args.server, "--listen", "127.0.0.1:0", "--metrics_listen=",
                              "--ledger", "redis://127.0.0.1:%d" % redis_port,
                              "--ledger_token_names", "hash"],
                             capture_output=True, text=True, timeout=20)
        checks.expect(run.returncode != 0
                      and "--ledger_token_names: 'hash' is neither digest nor tag"
                      in run.stderr + run.stdout,
                      "an unknown --ledger_token_names is refused at startup (exit %d)"
                      % run.returncode)

        # 5. A Sentinel with its own password.
        sentinel_dir = os.path.join(work, "sentinel")
        os.mkdir(sentinel_dir)
        sentinel, sentinel_port = start_redis(
            redis_binary, sentinel_dir,
            "sentinel monitor ledger 127.0.0.1 %d 1\nsentinel auth-pass ledger %s\nrequirepass %s\n"
            % (redis_port, RIGHT, SENTINEL_PW), SENTINEL_PW, sentinel=True)
        children.append(sentinel)
        sentinel_url = "redis-sentinel://127.0.0.1:%d/ledger" % sentinel_port
        sentinel_file = secret_file("sentinel-password", SENTINEL_PW)
        proc, address, _, err = serve(["--ledger", sentinel_url, "--ledger_password_file", right_file,
                                       "--ledger_sentinel_password_file", sentinel_file])
        line = cmdline(proc)
        checks.expect(SENTINEL_PW not in line and RIGHT not in line,
                      "redis-sentinel://: neither password on the command line")
        checks.expect(bool(new_hand(address)[1].update.token),
                      "NewHand through a Sentinel with --ledger_sentinel_password_file")
        finish(proc, err)
        proc, address, metrics_port, err = serve(["--ledger", sentinel_url, "--ledger_password_file", right_file,
                                                  "--ledger_sentinel_password_file", wrong_file])
        try:
            new_hand(address)
            checks.expect(False, "a wrong Sentinel password: NewHand must fail")
        except grpc.RpcError as e:
            checks.expect(e.code() == grpc.StatusCode.UNAVAILABLE and error_reason(e) == "LEDGER_UNAVAILABLE"
                          and "refused the password" in e.details() and WRONG not in e.details(),
                          "a wrong Sentinel password: UNAVAILABLE LEDGER_UNAVAILABLE: %r" % e.details())
        refused = metric(metrics_port, "stud_ledger_connect_failures_total", 'cause="sentinel_auth"')
        checks.expect(refused is not None and refused >= 1,
                      "stud_ledger_connect_failures_total{cause=\"sentinel_auth\"} = %r" % refused)
        code, log = finish(proc, err)
        checks.expect(WRONG not in log and SENTINEL_PW not in log, "no Sentinel password in the log")
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        checks.expect(False, str(e))
    finally:
        for c in children:
            c.kill()
            c.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print("PASS" if not checks.failures else "%d failure(s)" % len(checks.failures))
    return 0 if not checks.failures else 1


if __name__ == "__main__":
    sys.exit(main())
