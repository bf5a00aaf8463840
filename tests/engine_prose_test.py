#!/usr/bin/env python3
"""Fails when engine/ builds a sentence for a refused request.

The engine's refusals are data (engine/refusal.h: Refuse, Malformed); their
words live in text/refusal_text.cc. So in engine/*.cc:
  - no status is made with a message of its own: no absl::*Error( and no
    RuleViolation( call (only refusal.cc makes the two statuses, and basics.cc
    defines RuleViolation for the service's own refusals);
  - no Refuse( or Malformed( call holds StrCat, StrAppend, StrFormat,
    Substitute or a string literal with a space in it (a sentence);
  - StrCat, StrAppend, StrFormat and Substitute build only field paths such
    as "report.cards[2]" (a literal part without spaces).
Usage: engine_prose_test.py ENGINE_DIR
"""
import pathlib
import re
import sys

FORMAT = re.compile(r"\b(StrCat|StrAppend|StrFormat|Substitute)\(")
STATUS = re.compile(r"\babsl::\w+Error\(|\bRuleViolation\(")
CALL = re.compile(r"\b(Refuse|Malformed)\(")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def call_text(lines, start, col):
    """The text of the call opening at lines[start][col:], to its closing parenthesis."""
    depth, out = 0, []
    for i in range(start, min(start + 40, len(lines))):
        line = lines[i][col:] if i == start else lines[i]
        for ch in line:
            out.append(ch)
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    return "".join(out)
        out.append("\n")
    return "".join(out)


def main():
    engine = pathlib.Path(sys.argv[1])
    bad = []
    for path in sorted(engine.glob("*.cc")):
        lines = path.read_text().splitlines()
        for n, line in enumerate(lines):
            code = line.split("//")[0]
            where = f"{path.name}:{n + 1}: {line.strip()}"
            if STATUS.search(code) and path.name not in ("basics.cc", "refusal.cc"):
                bad.append(f"{where}\n    a status with its own message: use Refuse or Malformed")
            for m in CALL.finditer(code):
                text = call_text(lines, n, m.start())
                if FORMAT.search(text) or any(" " in s for s in LITERAL.findall(text)):
                    bad.append(f"{where}\n    words inside a refusal: give facts, word them in "
                               "text/refusal_text.cc")
            if FORMAT.search(code) and path.name != "basics.cc":
                if any(" " in s for s in LITERAL.findall(code)):
                    bad.append(f"{where}\n    prose built in the engine (only field paths may be)")
    if bad:
        print("engine/ builds sentences; it should return facts (engine/refusal.h):")
        print("\n".join(bad))
        return 1
    print("engine/ builds no refusal sentence: refusals are facts, worded in text/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
