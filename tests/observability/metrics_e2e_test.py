#!/usr/bin/python3
"""End-to-end metrics test: the real stud_server and a real Prometheus server
(Debian's `prometheus`), both on 127.0.0.1 with ports chosen at run time.

Plays hands, makes a few calls that are refused (bad tokens, an illegal
action), then asks Prometheus' HTTP API for the series and values. Also runs
`promtool check metrics` on the live /metrics endpoint and checks that
Prometheus loaded deploy/prometheus/rules.yml and evaluates its recording
rules. Every wait is bounded; every process is killed by its own PID, also on
failure.

Usage: metrics_e2e_test.py --server PATH/stud_server --source_dir REPO
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testing"))
from server_process import error_reason, generate_stubs  # noqa: E402

ARGS = None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def wait_for(what, fn, timeout=30.0, interval=0.2):
    """Polls fn() until it returns a truthy value; fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = fn()
            if last:
                return last
        except Exception as e:  # not up yet
            last = e
        time.sleep(interval)
    raise AssertionError("timed out waiting for %s (last: %r)" % (what, last))


class Procs:
    """Child processes, killed by PID at cleanup."""

    def __init__(self):
        self.procs = []

    def start(self, cmd, **kw):
        p = subprocess.Popen(cmd, **kw)
        self.procs.append(p)
        return p

    def stop_all(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


class MetricsE2E(unittest.TestCase):
    HANDS = 3

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.procs = Procs()
        try:
            cls._start()
        except BaseException:
            cls.procs.stop_all()
            cls.tmp.cleanup()
            raise

    @classmethod
    def _start(cls):
        generate_stubs(os.path.join(ARGS.source_dir, "proto"), cls.tmp.name)
        import grpc
        from stud.v1 import stud_pb2, stud_pb2_grpc
        cls.pb = stud_pb2
        key_file = os.path.join(cls.tmp.name, "keys.txt")
        with open(key_file, "w") as f:
            f.write("1:%s\n2:%s\n" % ("11" * 32, "22" * 32))
        cls.err_path = os.path.join(cls.tmp.name, "server.err")
        cls.err = open(cls.err_path, "w")
        cls.server = cls.procs.start(
            [ARGS.server, "--listen", "127.0.0.1:0", "--metrics_listen", "127.0.0.1:0", "--key_file", key_file,
             "--allow_preset"], stdout=subprocess.PIPE, stderr=cls.err, text=True)
        line = cls.server.stdout.readline().strip()
        if not line.startswith("stud_server listening on "):
            raise RuntimeError("server did not start: %r" % line)
        cls.address = line.rsplit(" ", 1)[1]

        def metrics_port():
            with open(cls.err_path) as f:
                for l in f:
                    ev = json.loads(l)
                    if ev.get("event") == "metrics_listening":
                        return ev["port"]
            return None
        cls.metrics_port = wait_for("metrics_listening log line", metrics_port, timeout=10)
        cls.metrics_url = "http://127.0.0.1:%d/metrics" % cls.metrics_port

        cls.prom_port = free_port()
        cls.prom = "http://127.0.0.1:%d" % cls.prom_port
        config = os.path.join(cls.tmp.name, "prometheus.yml")
        rules = os.path.join(ARGS.source_dir, "deploy", "prometheus", "rules.yml")
        with open(config, "w") as f:
            f.write("global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                    "rule_files: ['%s']\n"
                    "scrape_configs:\n"
                    "  - job_name: stud\n"
                    "    static_configs: [{targets: ['127.0.0.1:%d']}]\n" % (rules, cls.metrics_port))
        cls.prom_log = open(os.path.join(cls.tmp.name, "prometheus.log"), "w")
        cls.procs.start(["prometheus", "--config.file=" + config,
                         "--storage.tsdb.path=" + os.path.join(cls.tmp.name, "tsdb"),
                         "--web.listen-address=127.0.0.1:%d" % cls.prom_port], stdout=cls.prom_log,
                        stderr=subprocess.STDOUT)
        wait_for("prometheus ready", lambda: "Ready" in http_get(cls.prom + "/-/ready"), timeout=60)

        # Traffic only after a first scrape, so that rate() sees the increase.
        def first_scrape():
            r = json.loads(http_get(cls.prom + "/api/v1/query?" + urllib.parse.urlencode(
                {"query": 'up{job="stud"} == 1'})))["data"]["result"]
            return len(r) == 1
        wait_for("first scrape", first_scrape, timeout=30)
        cls.channel = grpc.insecure_channel(cls.address)
        cls.stub = stud_pb2_grpc.StudServiceStub(cls.channel)
        cls.actions_ok = 0
        cls._traffic(grpc)

    @classmethod
    def tearDownClass(cls):
        try:
            cls.channel.close()
        except Exception:
            pass
        cls.procs.stop_all()
        cls.err.close()
        cls.prom_log.close()
        cls.tmp.cleanup()

    @classmethod
    def _traffic(cls, grpc):
        pb = cls.pb
        deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        for h in range(cls.HANDS):
            req = pb.NewHandRequest(variant=pb.VARIANT_STUD, stakes=pb.Stakes(preset="$1-$2"),
                                    dealing_mode=pb.DEALING_MODE_PRESET, preset_deck=deck)
            for i in range(1, 4):
                req.seats.add(seat=i, stack=1000)
            update = cls.stub.NewHand(req, timeout=10).update
            for _ in range(300):
                if update.public_view.phase == pb.PHASE_COMPLETE:
                    break
                kinds = {a.kind: a for a in update.legal_actions}
                pick = None
                for k in (pb.ACTION_KIND_SHOW, pb.ACTION_KIND_CHECK, pb.ACTION_KIND_CALL, pb.ACTION_KIND_BRING_IN):
                    if k in kinds:
                        pick = kinds[k]
                        break
                pick = pick or update.legal_actions[0]
                update = cls.stub.ApplyAction(pb.ApplyActionRequest(
                    token=update.token,
                    action=pb.Action(kind=pick.kind, seat=update.to_act, amount_to=pick.amount_to)),
                    timeout=10).update
                cls.actions_ok += 1
            assert update.public_view.phase == pb.PHASE_COMPLETE, "hand %d did not finish" % h
            cls.last_token = update.token
        # Refusals: a malformed token, an altered token, an action on a finished hand.
        for token in (b"short", cls.last_token[:-1] + bytes([cls.last_token[-1] ^ 1])):
            try:
                cls.stub.GetView(pb.GetViewRequest(token=token), timeout=10)
                raise AssertionError("bad token accepted")
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.UNAUTHENTICATED, e
        try:
            cls.stub.ApplyAction(pb.ApplyActionRequest(
                token=cls.last_token, action=pb.Action(kind=pb.ACTION_KIND_CHECK, seat=1)), timeout=10)
            raise AssertionError("action on a complete hand accepted")
        except grpc.RpcError as e:
            cls.rejected_code = e.code()
        # Bytes that are not a NewHandRequest (a field tag with no value, a
        # length past the end, field number 0): answered before any handler.
        cls.undecodable = []
        raw_new_hand = cls.channel.unary_unary("/stud.v1.StudService/NewHand")
        for payload in (b"\xff\xff\xff\xff", b"\x12\x40\x01", b"\x00\x01"):
            try:
                raw_new_hand(payload, timeout=10)
                raise AssertionError("undecodable request accepted")
            except grpc.RpcError as e:
                cls.undecodable.append((e.code(), e.details(), error_reason(e)))

    def query(self, expr):
        url = self.prom + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
        body = json.loads(http_get(url))
        self.assertEqual(body["status"], "success", body)
        return body["data"]["result"]

    def value(self, expr):
        r = self.query(expr)
        return float(r[0]["value"][1]) if len(r) == 1 else None

    def wait_value(self, expr, want, timeout=30):
        wait_for("%s == %s" % (expr, want), lambda: self.value(expr) == want, timeout=timeout)

    def test_target_is_up(self):
        self.wait_value('up{job="stud"}', 1.0)

    def test_rpc_counts_and_latency_histogram(self):
        self.wait_value('stud_rpc_requests_total{method="NewHand",code="OK"}', float(self.HANDS))
        self.wait_value('stud_rpc_requests_total{method="ApplyAction",code="OK"}', float(self.actions_ok))
        self.wait_value('stud_rpc_requests_total{method="GetView",code="UNAUTHENTICATED"}', 2.0)
        self.wait_value('stud_rpc_duration_seconds_count{method="ApplyAction",code="OK"}', float(self.actions_ok))
        self.wait_value('stud_rpc_duration_seconds_bucket{method="ApplyAction",code="OK",le="+Inf"}',
                        float(self.actions_ok))
        # Buckets from 10 µs: every call is counted in some finite bucket up to 10 s.
        self.wait_value('stud_rpc_duration_seconds_bucket{method="ApplyAction",code="OK",le="10"}',
                        float(self.actions_ok))
        self.wait_value('sum(stud_rpc_in_flight_requests)', 0.0)
        p99 = wait_for("p99", lambda: self.value(
            'histogram_quantile(0.99, sum by (le) (stud_rpc_duration_seconds_bucket{method="ApplyAction"}))'))
        self.assertGreater(p99, 0.0)
        self.assertLess(p99, 1.0)

    def test_hands_started_and_finished(self):
        self.wait_value('stud_hands_started_total{variant="STUD",dealing_mode="PRESET"}', float(self.HANDS))
        self.wait_value('stud_hands_finished_total{variant="STUD",dealing_mode="PRESET"}', float(self.HANDS))
        # Every variant x dealing mode exists from start-up (zeros), for dashboards.
        self.wait_value('count(stud_hands_started_total)', 9.0)
        self.wait_value('stud_hands_started_total{variant="RAZZ",dealing_mode="LIVE"}', 0.0)

    def test_token_and_action_rejections(self):
        self.wait_value('stud_token_rejections_total{reason="TOKEN_MALFORMED"}', 1.0)
        self.wait_value('stud_token_rejections_total{reason="TOKEN_AUTHENTICATION_FAILED"}', 1.0)
        self.wait_value('stud_token_rejections_total{reason="TOKEN_UNKNOWN_KEY"}', 0.0)
        import grpc
        if self.rejected_code == grpc.StatusCode.FAILED_PRECONDITION:
            self.wait_value('sum(stud_actions_rejected_total)', 1.0)
        # Every irregularity rule ID exists from start-up, at zero until a ruling.
        n = wait_for("rulings series", lambda: self.value('count(stud_irregularity_rulings_total)'))
        self.assertGreaterEqual(n, 11.0)
        self.wait_value('stud_irregularity_rulings_total{rule_id="STUD-IRR-EXP-1"}', 0.0)

    def test_undecodable_requests_are_invalid_argument_and_counted(self):
        import grpc
        self.assertEqual(len(self.undecodable), 3)
        for code, details, reason in self.undecodable:
            self.assertEqual(code, grpc.StatusCode.INVALID_ARGUMENT)
            self.assertIn("not a valid stud.v1.NewHandRequest", details)
            self.assertEqual(reason, "INVALID_ARGUMENT")
        self.wait_value('stud_rpc_undecodable_requests_total{method="NewHand"}', 3.0)
        self.wait_value('stud_rpc_undecodable_requests_total{method="ApplyAction"}', 0.0)
        self.wait_value('stud_rpc_requests_total{method="NewHand",code="INVALID_ARGUMENT"}', 3.0)

    def test_hand_cache_counts(self):
        # One replica: every action's token is the one this server last answered
        # with (the hand kept decoded), the refused action on the finished hand
        # too; the altered token is looked up and missed, the short one is not
        # looked up (shorter than an authentication tag).
        self.wait_value('stud_hand_cache_lookups_total{result="hit"}', float(self.actions_ok + 1))
        self.wait_value('stud_hand_cache_lookups_total{result="miss"}', 1.0)
        self.wait_value('stud_hand_cache_evictions_total', 0.0)
        self.wait_value('stud_hand_cache_capacity', 1024.0)

    def test_info_metrics(self):
        self.wait_value('stud_sealing_key_info{key_id="2"}', 1.0)
        self.wait_value('count(stud_build_info)', 1.0)
        self.wait_value('stud_trace_spans_dropped_total{reason="queue_full"}', 0.0)

    def test_recording_rules_loaded_and_evaluated(self):
        rules = json.loads(http_get(self.prom + "/api/v1/rules"))["data"]["groups"]
        names = {r.get("name") for g in rules for r in g["rules"]}
        for want in ("stud:rpc_requests:rate5m", "stud:rpc_errors:ratio_rate5m", "StudHighErrorRatio",
                     "StudHighLatencyP99", "StudTokenRejectionSpike", "StudTraceSpansDropped"):
            self.assertIn(want, names)
        wait_for("recording rule result", lambda: self.query('stud:rpc_requests:rate5m{method="NewHand",code="OK"}'),
                 timeout=30)
        self.wait_value('stud:rpc_errors:ratio_rate5m{method="NewHand"}', 0.0)

    def test_promtool_check_metrics_on_live_endpoint(self):
        text = http_get(self.metrics_url)
        r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_startup_log_is_json_without_secrets(self):
        with open(self.err_path) as f:
            events = [json.loads(l) for l in f if l.strip()]
        startup = [e for e in events if e["event"] == "startup"]
        self.assertEqual(len(startup), 1)
        self.assertEqual(startup[0]["key_ids"], "1,2")
        with open(self.err_path) as f:
            self.assertNotIn("11" * 32, f.read())
        rejected = [e for e in events if e["event"] == "token_rejected"]
        self.assertEqual(len(rejected), 2)
        for e in rejected:
            self.assertEqual(len(e["trace_id"]), 32)
            self.assertEqual(len(e["span_id"]), 16)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--source_dir", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
