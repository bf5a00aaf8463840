#!/usr/bin/python3
"""End-to-end: stud_cli export / replay against a real stud_server (port 0).

Usage: history_cli_test.py --server PATH --cli PATH --examples DIR --phh_dir DIR

Checks: export --from-run writes a PHH record that replay accepts (exit 0);
run --token_out + export TOKENFILE gives the public record with ?? cards and a
seat's view with its own cards; --reveal is refused without the server flag;
every real hand in the data set replays with exit 0; a corrupted record exits 1
and names the action and the rule.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile

FAILED = []


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        FAILED.append(what)
        if detail:
            print("---- output ----\n" + detail + "\n----------------")


def start_server(path, *flags):
    proc = subprocess.Popen([path, "--listen", "127.0.0.1:0", "--metrics_listen="] + list(flags),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith("stud_server listening on "):
        proc.kill()
        raise RuntimeError("server did not start: %r" % line)
    return proc, line.rsplit(" ", 1)[1]


def stop(proc):
    proc.stdout.close()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--phh_dir", required=True)
    args = ap.parse_args()
    hand = os.path.join(args.examples, "stud_completion_cap.hand")
    archive, archive_addr = start_server(args.server, "--allow_preset", "--allow_history_reveal")
    plain, plain_addr = start_server(args.server, "--allow_preset")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            def cli(addr, *rest):
                return subprocess.run([args.cli, "--server", addr] + list(rest), capture_output=True, text=True,
                                      timeout=60)

            out = os.path.join(tmp, "full.phh")
            r = cli(archive_addr, "--reveal", "--phh_out", out, "export", "--from-run", hand)
            check(r.returncode == 0, "export --from-run --reveal exits 0", r.stdout + r.stderr)
            check("PASS" in r.stderr, "the hand file's own output goes to stderr", r.stderr)
            text = open(out).read() if os.path.exists(out) else ""
            check("variant = 'F7S'" in text and "??" not in text and "finishing_stacks" in text,
                  "the revealed record has every card and the result", text)
            r = cli(archive_addr, "replay", out)
            check(r.returncode == 0 and "OK:" in r.stdout, "replay of the exported record exits 0", r.stdout + r.stderr)

            token = os.path.join(tmp, "hand.token")
            r = cli(plain_addr, "--token_out", token, "run", hand)
            check(r.returncode == 0 and os.path.exists(token), "run --token_out saves the token", r.stdout + r.stderr)
            r = cli(plain_addr, "export", token)
            check(r.returncode == 0 and "'d dh p1 ????" in r.stdout, "export TOKENFILE: the public record hides down cards",
                  r.stdout + r.stderr)
            public = os.path.join(tmp, "public.phh")
            with open(public, "w") as f:
                f.write(r.stdout)
            r = cli(plain_addr, "replay", public)
            check(r.returncode == 0, "the public record replays with exit 0", r.stdout + r.stderr)
            r = cli(plain_addr, "--viewer", "1", "export", token)
            check(r.returncode == 0 and "'d dh p1 ????" not in r.stdout and "'d dh p2 ????" in r.stdout,
                  "export --viewer 1 writes seat 1's own cards only", r.stdout + r.stderr)
            r = cli(plain_addr, "--reveal", "export", token)
            check(r.returncode == 1 and "PERMISSION_DENIED" in r.stderr,
                  "--reveal without --allow_history_reveal on the server is refused", r.stdout + r.stderr)

            files = sorted(f for f in os.listdir(args.phh_dir) if f.endswith(".phh"))
            bad = [f for f in files if cli(plain_addr, "replay", os.path.join(args.phh_dir, f)).returncode != 0]
            check(len(files) == 30 and not bad, "all 30 real hands replay with exit 0", "failed: %s" % bad)

            src = open(os.path.join(args.phh_dir, "wsop2023_43_5_48_02_09_20_F7S8.phh")).read()
            corrupt = os.path.join(tmp, "corrupt.phh")
            with open(corrupt, "w") as f:
                f.write(src.replace("'p5 cbr 250000', 'p1 cbr 500000'", "'p5 cbr 300000', 'p1 cbr 500000'"))
            r = cli(plain_addr, "replay", corrupt)
            check(r.returncode == 1 and "DIFFERS at action #7 'p5 cbr 300000'" in r.stdout
                  and re.search(r"rule STUD-BRING-5", r.stdout) is not None,
                  "a corrupted record exits 1 naming the action and the rule", r.stdout + r.stderr)
            r = cli(plain_addr, "replay", os.path.join(tmp, "missing.phh"))
            check(r.returncode == 2, "a missing file exits 2", r.stdout + r.stderr)
    finally:
        stop(archive)
        stop(plain)
    print("%d check(s) failed" % len(FAILED) if FAILED else "all checks passed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
