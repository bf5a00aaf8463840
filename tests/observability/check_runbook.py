#!/usr/bin/python3
"""docs/runbook.md covers deploy/prometheus/rules.yml (Observability.RunbookCoversAlerts):

- every alert carries a runbook_url that ends in docs/runbook.md#<anchor>, the
  anchor is a heading of the runbook (GitHub's slug) and that heading is the
  alert's name;
- each alert's section says what it means, how to diagnose it and what to do
  (**Means**, **Diagnose**, **Do**);
- every SLO the recording rules measure (label slo) is in the SLO table;
- the playbooks exist, and every in-page link (#...) resolves.

Usage: check_runbook.py RULES_YML RUNBOOK_MD
"""
import re
import sys

import yaml


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def sections(markdown):
    """{anchor: (heading text, body)} for every heading."""
    out = {}
    parts = re.split(r"^(#{1,6}) (.+)$", markdown, flags=re.M)
    # parts: [before, hashes, text, body, hashes, text, body, ...]
    for i in range(1, len(parts), 3):
        text, body = parts[i + 1], parts[i + 2]
        out[slug(text)] = (text.strip(), body)
    return out


def main():
    rules = yaml.safe_load(open(sys.argv[1]))
    book = open(sys.argv[2]).read()
    secs = sections(book)
    errors = []
    alerts, slos = [], set()
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                alerts.append(rule)
            elif "slo" in (rule.get("labels") or {}):
                slos.add(rule["labels"]["slo"])
    for rule in alerts:
        name = rule["alert"]
        url = (rule.get("annotations") or {}).get("runbook_url", "")
        m = re.search(r"docs/runbook\.md#([\w-]+)$", url)
        if not m:
            errors.append("%s: runbook_url %r does not point at docs/runbook.md#<section>" % (name, url))
            continue
        anchor = m.group(1)
        if anchor not in secs:
            errors.append("%s: runbook_url anchor #%s is no heading of the runbook" % (name, anchor))
            continue
        heading, body = secs[anchor]
        if heading != name:
            errors.append("%s: runbook_url leads to the section %r, not the alert's own" % (name, heading))
        for part in ("**Means**", "**Diagnose**", "**Do**"):
            if part not in body:
                errors.append("%s: its section lacks %s" % (name, part))
    table = secs.get("service-level-objectives", ("", ""))[1]
    if not slos:
        errors.append("no SLO recording rules (label slo) in the rules")
    for s in sorted(slos):
        if "`%s`" % s not in table:
            errors.append("SLO %s is measured but not stated in the runbook's SLO table" % s)
    for playbook in ("key-rotation", "ledger-failover-and-restore", "drain", "rollback"):
        if playbook not in secs:
            errors.append("no playbook section #%s" % playbook)
    for link in re.findall(r"\]\(#([\w-]+)\)", book):
        if link not in secs:
            errors.append("link #%s resolves to no heading" % link)
    for e in errors:
        print("ERROR:", e)
    print("%d alerts, %d SLOs, %d errors" % (len(alerts), len(slos), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
