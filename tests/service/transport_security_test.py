#!/usr/bin/python3
"""Transport security and tenants on the real stud_server binary.

TLS and mutual TLS with certificates made here by openssl (a server CA, a
client CA and a rogue CA), caller authentication with per-tenant API keys
(--tenant_keys_file and STUD_TENANT_KEYS), tokens bound to their tenant, and
no secret in the logs: every line the server writes at --log_level=debug
during the whole run is searched for every sealing key, every tenant key and
every key a caller sent.

Usage: transport_security_test.py --server PATH/stud_server --proto_dir PATH/proto
(Debian's /usr/bin/python3 with python3-grpcio; openssl from Debian.)
"""
import argparse
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
from server_process import error_reason, generate_stubs, start_server, stop_server  # noqa: E402

ARGS = None
CERTS = None


def openssl(*args):
    subprocess.run(["openssl"] + list(args), check=True, capture_output=True, timeout=60)


def make_certs(d):
    """CA-signed server and client certificates (EC P-256, one day)."""
    def ca(name):
        key, cert = os.path.join(d, name + ".key"), os.path.join(d, name + ".pem")
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                "-subj", "/CN=" + name, "-keyout", key, "-out", cert)
        return key, cert

    def leaf(name, ca_key, ca_cert, ext):
        key, csr, cert = (os.path.join(d, name + s) for s in (".key", ".csr", ".pem"))
        extfile = os.path.join(d, name + ".ext")
        with open(extfile, "w") as f:
            f.write(ext + "\n")
        openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-subj", "/CN=" + name, "-keyout", key, "-out", csr)
        openssl("x509", "-req", "-in", csr, "-CA", ca_cert, "-CAkey", ca_key, "-CAcreateserial", "-days", "1",
                "-extfile", extfile, "-out", cert)
        return key, cert

    server_ca = ca("server-ca")
    client_ca = ca("client-ca")
    rogue_ca = ca("rogue-ca")
    certs = {
        "server_ca": server_ca[1], "client_ca": client_ca[1], "rogue_ca": rogue_ca[1],
        "server": leaf("server", *server_ca, "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                                             "extendedKeyUsage=serverAuth"),
        "client": leaf("client", *client_ca, "extendedKeyUsage=clientAuth"),
        "rogue_client": leaf("rogue-client", *rogue_ca, "extendedKeyUsage=clientAuth"),
    }
    return certs


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Server:
    def __init__(self, extra=(), env=None):
        self.proc, address = start_server(ARGS.server, ["--metrics_listen=", "--log_level=debug"] + list(extra),
                                          stderr=subprocess.PIPE, env=dict(os.environ, **(env or {})))
        self.port = int(address.rsplit(":", 1)[1])

    def stop(self):
        """SIGTERM; returns (exit code, everything written on stdout and stderr)."""
        return stop_server(self.proc)


def stub(port, root=None, client=None, plaintext=False):
    import grpc
    from stud.v1 import stud_pb2_grpc
    if plaintext:
        channel = grpc.insecure_channel("127.0.0.1:%d" % port)
    else:
        key, cert = client if client else (None, None)
        creds = grpc.ssl_channel_credentials(root_certificates=read(root),
                                             private_key=read(key) if key else None,
                                             certificate_chain=read(cert) if cert else None)
        channel = grpc.secure_channel("localhost:%d" % port, creds)
    return channel, stud_pb2_grpc.StudServiceStub(channel)


def new_hand_request():
    from stud.v1 import stud_pb2 as pb
    req = pb.NewHandRequest(variant=pb.VARIANT_STUD, dealing_mode=pb.DEALING_MODE_SERVICE)
    req.stakes.preset = "$15-$30"
    for s in (1, 2, 3):
        req.seats.add(seat=s, stack=100000)
    return req


class TransportSecurityTest(unittest.TestCase):
    def call(self, stub_, req=None, metadata=None):
        import grpc
        try:
            return stub_.NewHand(req or new_hand_request(), timeout=10, metadata=metadata), None
        except grpc.RpcError as e:
            return None, e

    def test_tls(self):
        import grpc
        server = Server(["--tls_cert", CERTS["server"][1], "--tls_key", CERTS["server"][0]])
        try:
            ch, s = stub(server.port, root=CERTS["server_ca"])
            resp, err = self.call(s)
            self.assertIsNone(err)
            self.assertTrue(resp.update.token)
            ch.close()
            # A client that does not trust the server's CA, and a plaintext client, get nowhere.
            for name, (ch, s) in (("untrusted CA", stub(server.port, root=CERTS["rogue_ca"])),
                                  ("plaintext", stub(server.port, plaintext=True))):
                resp, err = self.call(s)
                self.assertIsNotNone(err, name)
                self.assertEqual(err.code(), grpc.StatusCode.UNAVAILABLE, name)
                ch.close()
        finally:
            code, logs = server.stop()
        self.assertEqual(code, 0)
        self.assertIn('"tls":true', logs)
        self.assertIn('"mutual_tls":false', logs)

    def test_mutual_tls(self):
        import grpc
        server = Server(["--tls_cert", CERTS["server"][1], "--tls_key", CERTS["server"][0],
                         "--tls_client_ca", CERTS["client_ca"]])
        try:
            ch, s = stub(server.port, root=CERTS["server_ca"], client=CERTS["client"])
            resp, err = self.call(s)
            self.assertIsNone(err, err)
            ch.close()
            for name, client in (("no client certificate", None),
                                 ("certificate from another CA", CERTS["rogue_client"]),
                                 ("server certificate as client", CERTS["server"])):
                ch, s = stub(server.port, root=CERTS["server_ca"], client=client)
                resp, err = self.call(s)
                self.assertIsNotNone(err, name)
                self.assertEqual(err.code(), grpc.StatusCode.UNAVAILABLE, name)
                ch.close()
        finally:
            code, logs = server.stop()
        self.assertEqual(code, 0)
        self.assertIn('"mutual_tls":true', logs)

    def test_connect_listener_serves_tls_with_the_same_certificate(self):
        import json
        import socket
        import ssl
        import urllib.error
        import urllib.request
        with socket.socket() as probe:  # a free port for --connect_listen (its log line is read at the end)
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = Server(["--tls_cert", CERTS["server"][1], "--tls_key", CERTS["server"][0],
                         "--connect_listen=127.0.0.1:%d" % port])
        body = json.dumps({"variant": "VARIANT_STUD", "stakes": {"preset": "$15-$30"},
                           "seats": [{"seat": 1, "stack": "1000"}, {"seat": 2, "stack": "1000"}]}).encode()

        def post(scheme, context=None):
            req = urllib.request.Request("%s://localhost:%d/stud.v1.StudService/NewHand" % (scheme, port), data=body,
                                         headers={"content-type": "application/json"})
            with urllib.request.urlopen(req, timeout=10, context=context) as resp:
                return resp.status, json.loads(resp.read())
        try:
            status, answer = post("https", ssl.create_default_context(cafile=CERTS["server_ca"]))
            self.assertEqual(status, 200)
            self.assertTrue(answer["update"]["token"])
            # A client that does not trust the server's CA, and plain HTTP, get no answer.
            with self.assertRaises(urllib.error.URLError):
                post("https", ssl.create_default_context(cafile=CERTS["rogue_ca"]))
            with self.assertRaises((urllib.error.URLError, ConnectionError, OSError)):
                post("http")
        finally:
            code, logs = server.stop()
        self.assertEqual(code, 0)
        self.assertIn('"event":"connect_listening","address":"127.0.0.1:%d"' % port, logs)
        self.assertIn('"tls":true', logs)

    def test_connect_listener_refuses_mutual_tls(self):
        proc = subprocess.run([ARGS.server, "--listen", "127.0.0.1:0", "--metrics_listen=",
                               "--tls_cert", CERTS["server"][1], "--tls_key", CERTS["server"][0],
                               "--tls_client_ca", CERTS["client_ca"], "--connect_listen=127.0.0.1:0"],
                              capture_output=True, text=True, timeout=15)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--connect_listen does not ask for client certificates", proc.stderr)

    def test_mutual_tls_flag_needs_tls(self):
        proc = subprocess.run([ARGS.server, "--listen", "127.0.0.1:0", "--metrics_listen=",
                               "--tls_client_ca", CERTS["client_ca"]], capture_output=True, text=True, timeout=15)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--tls_client_ca needs --tls_cert", proc.stderr)

    def tenants_and_logs(self, via_env):
        import grpc
        from stud.v1 import stud_pb2 as pb
        sealing = "7:" + os.urandom(32).hex()
        acme, bet = os.urandom(32).hex(), os.urandom(32).hex()
        forged = os.urandom(32).hex()
        with tempfile.TemporaryDirectory() as d:
            keys = os.path.join(d, "keys")
            tenants = os.path.join(d, "tenants")
            with open(keys, "w") as f:
                f.write(sealing + "\n")
            with open(tenants, "w") as f:
                f.write("# tenant API keys\nacme:%s\nbet:%s\n" % (acme, bet))
            extra = ["--key_file", keys]
            env = None
            if via_env:
                env = {"STUD_TENANT_KEYS": "acme:%s, bet:%s" % (acme, bet)}
            else:
                extra += ["--tenant_keys_file", tenants]
            server = Server(extra, env=env)
            try:
                ch, s = stub(server.port, plaintext=True)
                as_acme = [("x-stud-tenant", "acme"), ("x-stud-api-key", acme)]
                as_bet = [("x-stud-tenant", "bet"), ("x-stud-api-key", bet)]
                resp, err = self.call(s, metadata=as_acme)
                self.assertIsNone(err, err)
                token = resp.update.token
                for md in (None, [("x-stud-tenant", "acme"), ("x-stud-api-key", forged)],
                           [("x-stud-tenant", "acme"), ("x-stud-api-key", bet)],
                           [("x-stud-tenant", "mallory"), ("x-stud-api-key", forged)],
                           [("x-stud-tenant", "acme"), ("x-stud-api-key", acme[:-2])]):
                    _, err = self.call(s, metadata=md)
                    self.assertEqual(err.code(), grpc.StatusCode.UNAUTHENTICATED, md)
                    self.assertEqual(error_reason(err), "CALLER_UNAUTHENTICATED")
                # acme's hand with bet's credentials.
                with self.assertRaises(grpc.RpcError) as ctx:
                    s.GetView(pb.GetViewRequest(token=token, private_view_seats=[1]), timeout=10, metadata=as_bet)
                self.assertEqual(ctx.exception.code(), grpc.StatusCode.PERMISSION_DENIED)
                self.assertEqual(error_reason(ctx.exception), "TOKEN_TENANT_MISMATCH")
                view = s.GetView(pb.GetViewRequest(token=token), timeout=10, metadata=as_acme)
                self.assertEqual(view.update.token, token)
                ch.close()
            finally:
                code, logs = server.stop()
        self.assertEqual(code, 0)
        self.assertIn('"tenants":2', logs)
        self.assertIn("token_rejected", logs)  # the refusals were logged (debug level) ...
        for name, secret in (("sealing key", sealing.split(":")[1]), ("acme key", acme), ("bet key", bet),
                             ("forged key", forged), ("truncated key", acme[:-2])):
            for form in (secret, secret.upper(), bytes.fromhex(secret[:32]).hex()):
                self.assertNotIn(form, logs, name + " must never be logged")  # ... without any secret

    def test_tenants_from_file_and_no_secret_in_logs(self):
        self.tenants_and_logs(via_env=False)

    def test_tenants_from_env_and_no_secret_in_logs(self):
        self.tenants_and_logs(via_env=True)

    def test_bad_tenant_key_file_stops_start_up_without_echoing_it(self):
        secret = os.urandom(31).hex() + "zz"
        with tempfile.NamedTemporaryFile("w", suffix=".keys") as f:
            f.write("acme:%s\n" % secret)
            f.flush()
            proc = subprocess.run([ARGS.server, "--listen", "127.0.0.1:0", "--metrics_listen=",
                                   "--tenant_keys_file", f.name], capture_output=True, text=True, timeout=15)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("64 hex", proc.stderr)
        self.assertNotIn(secret[:20], proc.stderr + proc.stdout)


def main():
    global ARGS, CERTS
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--proto_dir", required=True)
    ARGS, rest = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as gen, tempfile.TemporaryDirectory() as certs:
        generate_stubs(ARGS.proto_dir, gen)
        CERTS = make_certs(certs)
        unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
