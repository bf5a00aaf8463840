#!/usr/bin/python3
"""Structure check of deploy/grafana/dashboard.json (no Grafana server exists
in Debian or npm): valid JSON, uid/title/schemaVersion, unique panel ids,
grid positions inside 24 columns without overlap, a Prometheus target with an
expression on every panel, every stud_* metric named in an expression exists
in one of the sources that define metrics (stud_server's metrics.cc, the
ledger's and watch hub's .cc files, the gateway's metrics.ts), and the panels
SREs need are present: the service's, the gateway's, the ledger's and the hand
watchers'.

Usage: check_dashboard.py DASHBOARD_JSON METRICS_SOURCE...
"""
import json
import re
import sys


def main():
    dash = json.load(open(sys.argv[1]))
    source = "\n".join(open(f).read() for f in sys.argv[2:])
    # C++ (prometheus-cpp: .Name("...")) and TypeScript (prom-client: name: "...").
    known = set(re.findall(r'\.Name\("(stud_[a-z0-9_]+)"\)', source))
    known |= set(re.findall(r'name: "(stud_[a-z0-9_]+)"', source))
    # prom-client's default metrics under the gateway's prefix.
    default_prefixes = tuple(p + k for p in re.findall(r'collectDefaultMetrics\([^)]*prefix: "([a-z_]+)"', source)
                             for k in ("process_", "nodejs_"))
    # Histograms expose _bucket/_sum/_count series.
    known |= {n + s for n in list(known) if n.endswith("_seconds") for s in ("_bucket", "_sum", "_count")}
    errors = []
    for key in ("uid", "title", "schemaVersion", "panels", "templating"):
        if key not in dash:
            errors.append("missing top-level key %s" % key)
    ids, cells = set(), set()
    for p in dash.get("panels", []):
        title = p.get("title", "?")
        if p.get("id") in ids:
            errors.append("duplicate panel id %s" % p.get("id"))
        ids.add(p.get("id"))
        g = p.get("gridPos", {})
        if not all(k in g for k in "xywh") or g["x"] + g["w"] > 24:
            errors.append("%s: bad gridPos %s" % (title, g))
            continue
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                if (x, y) in cells:
                    errors.append("%s: overlaps another panel at %d,%d" % (title, x, y))
                    break
                cells.add((x, y))
        targets = p.get("targets", [])
        if not targets:
            errors.append("%s: no targets" % title)
        for t in targets:
            expr = t.get("expr", "")
            if not expr:
                errors.append("%s: empty expr" % title)
            if expr.count("(") != expr.count(")"):
                errors.append("%s: unbalanced parentheses in %s" % (title, expr))
            for name in re.findall(r"\b(stud_[a-z0-9_]+)", expr):
                if name not in known and not (default_prefixes and name.startswith(default_prefixes)):
                    errors.append("%s: unknown metric %s" % (title, name))
    titles = " | ".join(p.get("title", "").lower() for p in dash.get("panels", []))
    for need in ("request rate", "error", "latency percentiles", "rulings by rule id", "gateway:",
                 "ledger:", "hand watchers:"):
        if need not in titles:
            errors.append("no panel for %r" % need)
    exprs = " ".join(t.get("expr", "") for p in dash.get("panels", []) for t in p.get("targets", []))
    for metric in ("stud_web_calls_total", "stud_web_call_seconds_bucket", "stud_ledger_calls_total",
                   "stud_ledger_call_duration_seconds_bucket", "stud_watchers",
                   "stud_watch_delivery_lag_seconds_bucket"):
        if metric not in exprs:
            errors.append("no panel shows %s" % metric)
    for q in ("0.5", "0.9", "0.99"):
        if "histogram_quantile(%s," % q not in exprs:
            errors.append("no p%s latency query" % q)
    for e in errors:
        print("ERROR:", e)
    print("%d panels, %d errors" % (len(dash.get("panels", [])), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
