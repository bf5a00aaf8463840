#!/usr/bin/python3
"""Writes k8s/base/prometheusrule.yaml from deploy/prometheus/rules.yml.

deploy/prometheus/rules.yml is the one source of the project's Prometheus
rules (unit-tested with promtool, used as is by deploy/prometheus/prometheus.yml).
The Prometheus Operator wants the same groups inside a PrometheusRule object;
this script wraps them, comments included, so the two cannot drift.

Usage: gen_prometheusrule.py [--root REPO] [--check]
  --check  write nothing; exit 1 (naming the command to run) when the
           committed file differs from what this script would write.
"""
import argparse
import os
import sys

HEADER = """\
# GENERATED from deploy/prometheus/rules.yml by tools/deploy/gen_prometheusrule.py:
# do not edit; change rules.yml (the one source, unit-tested with promtool) and
# run  python3 tools/deploy/gen_prometheusrule.py
# Alerts for the stud service and its gateway and ledger (Prometheus Operator).
# docs/runbook.md explains every alert.
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: stud
spec:
"""


def render(rules_text):
    lines = rules_text.splitlines()
    # rules.yml's own header (comments before "groups:") describes that file.
    start = next(i for i, line in enumerate(lines) if line.startswith("groups:"))
    body = []
    for line in lines[start:]:
        body.append(("  " + line) if line.strip() else "")
    return HEADER + "\n".join(body).rstrip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    source = os.path.join(args.root, "deploy/prometheus/rules.yml")
    target = os.path.join(args.root, "k8s/base/prometheusrule.yaml")
    want = render(open(source).read())
    if args.check:
        have = open(target).read() if os.path.exists(target) else ""
        if have != want:
            print("FAIL: k8s/base/prometheusrule.yaml is not generated from "
                  "deploy/prometheus/rules.yml; run python3 tools/deploy/gen_prometheusrule.py")
            return 1
        print("ok: k8s/base/prometheusrule.yaml matches deploy/prometheus/rules.yml")
        return 0
    with open(target, "w") as f:
        f.write(want)
    return 0


if __name__ == "__main__":
    sys.exit(main())
