"""What the Python test drivers share: Python stubs for stud.v1 generated from
proto/, a real stud_server child on an ephemeral loopback port, started with a
bounded wait for its ready line and stopped by its own PID, and the
ErrorInfo.reason of a failed call.

Runs under Debian's /usr/bin/python3 (python3-grpcio, protoc and
grpc_python_plugin from Debian's packages).
"""
import select
import signal
import subprocess
import sys

READY = "stud_server listening on "
HEALTH_DIR = "/usr/share/grpc-proto/grpc/health/v1"
_PLUGIN = "--plugin=protoc-gen-grpc=/usr/bin/grpc_python_plugin"


def generate_stubs(proto_dir, out_dir, health=False):
    """stud.v1 and google.rpc stubs (plus grpc.health.v1's as the top-level
    module health_pb2 when `health`) into out_dir, which joins sys.path."""
    files = ["stud/v1/stud.proto", "stud/v1/options.proto", "google/rpc/status.proto",
             "google/rpc/error_details.proto"]
    subprocess.run(["protoc", "-I", proto_dir, "--python_out", out_dir, "--grpc_out", out_dir, _PLUGIN] + files,
                   check=True)
    if health:
        # A top-level module: a grpc/ package in out_dir would shadow grpcio.
        subprocess.run(["protoc", "-I", HEALTH_DIR, "--python_out", out_dir, "--grpc_out", out_dir, _PLUGIN,
                        "health.proto"], check=True)
    sys.path.insert(0, out_dir)


def start_server(path, args=(), stderr=subprocess.DEVNULL, env=None, timeout=20):
    """Starts `path --listen 127.0.0.1:0 ARGS...` and waits at most `timeout`
    seconds for its ready line. Returns (Popen, "host:port"); stdout stays a
    text pipe. Raises RuntimeError (after killing the child) if it never gets ready."""
    proc = subprocess.Popen([path, "--listen", "127.0.0.1:0"] + list(args), stdout=subprocess.PIPE,
                            stderr=stderr, text=True, env=env)
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline().strip() if ready else ""
    if not line.startswith(READY):
        proc.kill()
        _, err = proc.communicate(timeout=10)
        raise RuntimeError("stud_server did not print its ready line within %d s: %r %s" % (timeout, line, err or ""))
    return proc, line[len(READY):]


def stop_server(proc, timeout=20):
    """SIGTERM (the server drains, then exits); SIGKILL if it is still running
    after `timeout` seconds. Returns (exit code or None if it had to be killed,
    the rest of stdout + stderr when they are pipes)."""
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, (out or "") + (err or "")
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate(timeout=10)
        return None, (out or "") + (err or "")


def error_reason(err):
    """ErrorInfo.reason from a grpc.RpcError's grpc-status-details-bin trailer, or ""
    (needs the stubs of generate_stubs on sys.path)."""
    from google.rpc import error_details_pb2, status_pb2
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            st = status_pb2.Status.FromString(value)
            for any_msg in st.details:
                info = error_details_pb2.ErrorInfo()
                if any_msg.Unpack(info):
                    return info.reason
    return ""
