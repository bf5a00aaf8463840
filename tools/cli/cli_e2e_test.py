#!/usr/bin/python3
"""End-to-end test of stud_cli against the real stud_server.

Usage: cli_e2e_test.py --server PATH/stud_server --cli PATH/stud_cli --examples DIR

Starts `stud_server --listen 127.0.0.1:0 --allow_preset --allow_deck_reveal`,
reads the port from its ready line, runs every DIR/*.hand file through
`stud_cli run` (each must exit 0 and end with PASS), checks the rulings of the
LIVE examples (English and Spanish), checks that a broken expectation exits
non-zero, plays one interactive hand with piped input (the deck commitment
verified from GetView's reveal_deck), then stops the server with SIGTERM (by
its own PID). On a server without those flags, a PRESET hand file is refused
and the same interactive hand ends with the commitment "not revealed by this
server". Every wait is bounded.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "testing"))
from server_process import start_server, stop_server  # noqa: E402

def cli(args, address, command, stdin=None):
    return subprocess.run([args.cli, "--server", address, "--timeout", "10"] + command, input=stdin,
                          capture_output=True, text=True, timeout=60)


class Checker:
    def __init__(self):
        self.failures = []

    def check(self, ok, what, output=""):
        print("%s: %s" % ("ok" if ok else "FAIL", what))
        if not ok:
            self.failures.append(what)
            if output:
                print("---- output ----\n%s\n----------------" % output)

    def contains(self, output, needles, what):
        missing = [n for n in needles if n not in output]
        self.check(not missing, "%s (missing: %s)" % (what, missing) if missing else what, output)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--examples", required=True)
    args = parser.parse_args()

    c = Checker()
    proc, address = start_server(args.server, ["--allow_preset", "--allow_deck_reveal"])
    try:
        # 1. The example hand files replay and every expectation holds.
        files = sorted(glob.glob(os.path.join(args.examples, "*.hand")))
        c.check(len(files) >= 2, "at least two example hand files in %s" % args.examples)
        for path in files:
            r = cli(args, address, ["run", path])
            c.check(r.returncode == 0 and "PASS: every step and expectation held" in r.stdout,
                    "run %s exits 0 with PASS" % os.path.basename(path), r.stdout + r.stderr)
        stud = os.path.join(args.examples, "stud_completion_cap.hand")
        if os.path.exists(stud):
            r = cli(args, address, ["run", stud])
            c.contains(r.stdout, ["refused as expected: rule STUD-CAP-1: betting is capped after 3 raises",
                                  "seat 2 completes to 1500 [STUD-BRING-5]",
                                  "Winners: seat 5 +46500"], "stud example prints the cap refusal and winner")
        hilo = os.path.join(args.examples, "hilo_split.hand")
        if os.path.exists(hilo):
            r = cli(args, address, ["run", hilo])
            c.contains(r.stdout, ["seat 1 gets 6800 (high half)", "seat 2 gets 6800 (low half)",
                                  "low 5-4-3-2-A"], "hi-lo example prints the split")

        # 1b. LIVE dealing: deal reports, irregularity reports and the rulings printed.
        live = os.path.join(args.examples, "live_exposed_holecard.hand")
        c.check(os.path.exists(live), "live_exposed_holecard.hand exists")
        r = cli(args, address, ["run", live])
        c.contains(r.stdout, [
            "Seven Card Stud, LIVE dealing, cash profile, 3 seats",
            "[17] card 2 down 2c",
            "[20] irregularity HOLECARD_EXPOSED seat 2 card 2c",
            "RULING STUD-IRR-EXP-1 THIRD_CARD_DOWN (exposed_holecard = DEAL_THIRD_DOWN (cash))",
            "floor: A hole card of seat 2 (2c) was dealt face up",
            "exposed: seat 2 2c",
            "next card: seat 2 face down (3rd street)",
            "seat 2 opens 3rd street (door 2c) [STUD-BRING-1]",
            "refused as expected: rule STUD-DEAL-1: the next card goes face up to seat 1 on 4th street",
        ], "cash live example: the exposed hole card is ruled third card down and brings in")
        r = cli(args, address, ["--locale", "es", "run", live])
        c.check(r.returncode == 0, "--locale es run exits 0", r.stdout + r.stderr)
        c.contains(r.stdout, ["floor: Una carta tapada del asiento 2 (2c) se repartió descubierta"],
                   "--locale es prints the ruling in Spanish")
        misdeal = os.path.join(args.examples, "live_tournament_misdeal.hand")
        if os.path.exists(misdeal):
            r = cli(args, address, ["run", misdeal])
            c.contains(r.stdout, [
                "Seven Card Stud, LIVE dealing, tournament profile, 3 seats",
                "RULING STUD-IRR-EXP-1 MISDEAL (exposed_holecard = MISDEAL (tournament))",
                "     redeal: ",
                "chips: seat 1 stack +300, in pot -300; seat 2 stack +300, in pot -300; seat 3 stack +300",
                "Misdeal: the hand is void, no showdown. Stacks: seat 1 20000, seat 2 20000, seat 3 20000",
            ], "tournament live example: the same error is a misdeal with every ante returned")
        seventh = os.path.join(args.examples, "live_faceup_seventh.hand")
        if os.path.exists(seventh):
            r = cli(args, address, ["run", seventh])
            c.contains(r.stdout, [
                "RULING STUD-IRR-EXP-5 ALL_IN_OPTION",
                "next card: seat 3 face down (7th street)",
                "next: seat 2: declare-all-in decline-option",
                "seat 2 declares all-in [STUD-IRR-EXP-5]",
                "seat 3 opens 7th street [STUD-ORDER-4]",
                "Winners: seat 2 +5400, seat 3 +6000",
            ], "face-up final card: the option to declare all-in, then a side pot")

        out_of_turn = os.path.join(args.examples, "live_out_of_turn.hand")
        if os.path.exists(out_of_turn):
            r = cli(args, address, ["run", out_of_turn])
            c.check(r.returncode == 0, "live_out_of_turn.hand runs with every expectation met",
                    r.stdout + r.stderr)
            c.contains(r.stdout, [
                "RULING STUD-IRR-WRONG-1 ACTION_CORRECTED",
                "seat 2 acts out of turn: 1500 into the pot [STUD-IRR-WRONG-1]",
                "seat 2 gets back 1500 [STUD-IRR-WRONG-1]",
            ], "action out of turn: the chips go in and come back")

        # 2. A broken expectation or a bad file fails with a clear message and a non-zero exit.
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.hand")
            with open(bad, "w") as f:
                f.write("variant stud\nstakes $15-$30\nseats 20000 20000 20000\ndeal service\n"
                        "expect-pot 900\nexpect-stack 1 12345\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 1 and "FAILED line 6: seat 1 has 19700, expected 12345" in r.stdout,
                    "a wrong expectation exits 1 naming the line", r.stdout + r.stderr)
            with open(bad, "w") as f:
                f.write("variant stud\nstakes $15-$30\nseats 20000 20000\nseat 1 dance\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 2 and "FILE ERROR line 4" in r.stdout, "a malformed line exits 2",
                    r.stdout + r.stderr)
            with open(bad, "w") as f:
                f.write("variant stud\nstakes $15-$30\nseats 20000 20000\ndeal service\n"
                        "expect-error STUD-CAP-1 seat 1 raise 7500\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 1 and "expected refusal STUD-CAP-1 but got rule STUD-" in r.stdout,
                    "expect-error with the wrong rule ID fails", r.stdout + r.stderr)
            live_setup = "variant stud\nstakes $15-$30\nseats 20000 20000 20000\nprofile tournament\ndeal live\n"
            with open(bad, "w") as f:
                f.write(live_setup + "card 1 down Ah\ncard 2 up 2c\nexpect-ruling STUD-IRR-EXP-1 THIRD_CARD_DOWN\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 1 and "FAILED line 8: the previous step got STUD-IRR-EXP-1 MISDEAL, expected "
                    "STUD-IRR-EXP-1 THIRD_CARD_DOWN" in r.stdout and "RULING STUD-IRR-EXP-1 MISDEAL" in r.stdout,
                    "a wrong expect-ruling exits 1 naming the ruling received", r.stdout + r.stderr)
            with open(bad, "w") as f:
                f.write(live_setup + "card 1 down Ah\nexpect-ruling STUD-IRR-EXP-1\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 1 and "FAILED line 7: the previous step got no ruling" in r.stdout,
                    "expect-ruling after a step that was not ruled exits 1", r.stdout + r.stderr)
            with open(bad, "w") as f:
                f.write(live_setup + "card 1 down Ah\nexpect-deal 3 down\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 1 and "FAILED line 7: the next card goes to seat 2 face down (3rd street), "
                    "expected seat 3 face down" in r.stdout, "a wrong expect-deal exits 1", r.stdout + r.stderr)
            with open(bad, "w") as f:
                f.write(live_setup + "irregularity EXPOSED_HOLECARD seat 2 card As\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 2 and "FILE ERROR line 6: unknown irregularity `EXPOSED_HOLECARD`; kinds: "
                    "HOLECARD_EXPOSED" in r.stdout, "an unknown irregularity kind exits 2 listing the kinds",
                    r.stdout + r.stderr)
            with open(bad, "w") as f:
                f.write("variant stud\nstakes $15-$30\nseats 20000 20000 20000\ndeal service\n"
                        "expect-error STUD-IRR-EXP-1 irregularity HOLECARD_EXPOSED seat 1 card 2c\n")
            r = cli(args, address, ["run", bad])
            c.check(r.returncode == 0 and "refused as expected: rule STUD-IRR-EXP-1" in r.stdout,
                    "expect-error takes an irregularity report (dealer errors are refused when the service deals)",
                    r.stdout + r.stderr)

        # 3. Interactive: heads-up, an illegal typed action first, then numbers and typed
        # actions checked down to a showdown. Seat numbers vary with the shuffle; the
        # sequence of legal choices does not.
        moves = ["bet 800",            # the bring-in seat may only bring in or complete
                 "irregularity UPCARDS_REORDERED seat 1",   # a floor report: a warning, nothing changes
                 "1",                  # 1) bring-in 100
                 "call",               # the other seat calls; 3rd street closes
                 "1", "check",         # 4th street: 1) check
                 "1", "check",         # 5th
                 "check", "1",         # 6th
                 "check", "check",     # 7th
                 "show", "show"]
        r = cli(args, address, ["play", "--seats", "2", "--stakes", "$4-$8", "--stack", "2000"],
                stdin="\n".join(moves) + "\n")
        c.check(r.returncode == 0, "interactive hand exits 0", r.stdout + r.stderr)
        c.contains(r.stdout, [
            "Seven Card Stud, 2 seats of 2000 chips: ante 100, bring-in 100, small bet 400, big bet 800",
            "must bring in [STUD-BRING-11]",
            "Legal: 1) bring-in 100  2) complete to 400",
            "Refused: rule STUD-BRING-4: ",
            "RULING STUD-GAME-5 WARNING",
            "Legal: 1) fold  2) call 100  3) complete to 400",
            "3rd street betting closed",
            "Legal: 1) check  2) fold  3) bet 400",
            "Legal: 1) check  2) fold  3) bet 800",
            "Legal: 1) show  2) muck",
            "-- 7th street | complete | pot 0",
            "main pot 400",
            "Winners: seat ",
            "verified: SHA-256",
        ], "interactive output: board, private view, numbered actions, rule error, showdown, commitment")
        c.check(r.stdout.count("Your cards (pass the keyboard to seat") >= 11,
                "the acting seat's private view is shown every turn", r.stdout)
        c.check("[xx] [xx]" in r.stdout, "the public board hides down cards")
        # 4. Quitting abandons the hand: not the exit code of a completed, verified hand.
        r = cli(args, address, ["play", "--seats", "2"], stdin="quit\n")
        c.check(r.returncode == 3 and "Hand abandoned." in r.stdout, "quit exits 3",
                r.stdout + r.stderr)
    finally:
        code = stop_server(proc)[0]
        c.check(code == 0, "stud_server exits 0 on SIGTERM (got %r)" % code)

    # 5. A PRESET hand file on a server without --allow_preset: the error points
    # at the line that asked for PRESET dealing and says how to allow it.
    proc, address = start_server(args.server)
    try:
        example = os.path.join(args.examples, "stud_completion_cap.hand")
        r = cli(args, address, ["run", example])
        c.check(r.returncode == 1 and "FAILED line 9: NewHand refused" in r.stdout and
                "> deal preset" in r.stdout and "--allow_preset" in r.stdout,
                "a refused PRESET deal points at the 'deal preset' line", r.stdout + r.stderr)
        # 6. Without --allow_deck_reveal the deck is not revealed: said, and no failure.
        r = cli(args, address, ["play", "--seats", "2", "--stakes", "$4-$8", "--stack", "2000"],
                stdin="\n".join(moves) + "\n")
        c.check(r.returncode == 0 and "not revealed by this server" in r.stdout and
                "verified: SHA-256" not in r.stdout,
                "without --allow_deck_reveal the hand ends with the commitment not revealed",
                r.stdout + r.stderr)
    finally:
        stop_server(proc)

    if c.failures:
        print("%d check(s) failed" % len(c.failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
