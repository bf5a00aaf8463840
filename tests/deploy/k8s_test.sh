#!/usr/bin/env bash
# Offline checks of k8s/ (no cluster here):
#   yamllint on every manifest; `kubectl kustomize` of each overlay; schema and
#   project checks of the rendered objects (k8s_validate.js, npm kubernetes-models);
#   `promtool check rules` on the PrometheusRule's groups, which must be
#   generated from deploy/prometheus/rules.yml (tools/deploy/gen_prometheusrule.py). The ledger Component
#   (k8s/components/ledger) is checked in k8s/overlays/ledger and once more added
#   to the dev overlay (a Component any overlay can use); the Connect Ingress
#   example (k8s/components/connect-ingress) on top of prod.
# Usage: k8s_test.sh REPO_ROOT
set -euo pipefail
root="$1"
here="$root/tests/deploy"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

yamllint -s -c "$root/k8s/.yamllint" "$root/k8s"
echo "ok: yamllint k8s/"
# The PrometheusRule is generated from deploy/prometheus/rules.yml (the one source).
python3 "$root/tools/deploy/gen_prometheusrule.py" --root "$root" --check
command -v kubectl >/dev/null || { echo "FAIL: kubectl (kustomize) not found"; exit 1; }
[ -d "$here/node_modules/kubernetes-models" ] || {
  echo "FAIL: kubernetes-models missing: run npm install in tests/deploy (tools/test.sh does)"; exit 1; }
overlays=("$root"/k8s/overlays/*/)
[ "${#overlays[@]}" -ge 3 ] && [ -d "$root/k8s/overlays/ledger" ] || {
  echo "FAIL: expected at least the dev, prod and ledger overlays"; exit 1; }
for dir in "${overlays[@]}"; do
  env="$(basename "$dir")"
  kubectl kustomize "$dir" > "$tmp/$env.yaml"
  echo "ok: kubectl kustomize k8s/overlays/$env ($(grep -c '^kind:' "$tmp/$env.yaml") objects)"
  node "$here/k8s_validate.js" --env "$env" --dockerfile "$root/deploy/Dockerfile" \
    --web_dockerfile "$root/deploy/web.Dockerfile" "$tmp/$env.yaml"
  # The PrometheusRule's spec is a Prometheus rule file: let promtool parse it.
  node -e '
    const YAML = require(process.argv[1]);
    const fs = require("fs");
    const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], "utf8")).map((d) => d.toJS());
    const rule = docs.find((d) => d && d.kind === "PrometheusRule");
    fs.writeFileSync(process.argv[3], YAML.stringify(rule.spec));
  ' "$here/node_modules/yaml" "$tmp/$env.yaml" "$tmp/$env.rules.yml"
  # Its groups include deploy/prometheus/rules.yml unchanged (the tested rules).
  if [ -f "$root/deploy/prometheus/rules.yml" ]; then
    node -e '
      const YAML = require(process.argv[1]);
      const fs = require("fs");
      const canon = (v) => Array.isArray(v) ? v.map(canon) : (v && typeof v === "object")
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
      const k8s = YAML.parse(fs.readFileSync(process.argv[2], "utf8")).groups;
      const src = YAML.parse(fs.readFileSync(process.argv[3], "utf8")).groups;
      for (const g of src) {
        const twin = k8s.find((x) => x.name === g.name);
        if (!twin || JSON.stringify(canon(twin)) !== JSON.stringify(canon(g))) {
          console.log(`FAIL: PrometheusRule group ${g.name} differs from deploy/prometheus/rules.yml`);
          process.exit(1);
        }
      }
      console.log(`ok: PrometheusRule carries deploy/prometheus/rules.yml (${src.map((g) => g.name).join(", ")})`);
    ' "$here/node_modules/yaml" "$tmp/$env.rules.yml" "$root/deploy/prometheus/rules.yml"
  fi
  if command -v promtool >/dev/null; then
    promtool check rules "$tmp/$env.rules.yml"
  else
    echo "FAIL: promtool missing (tools/install-deps.sh installs prometheus)"; exit 1
  fi
done
# The ledger Component on top of dev (trusted callers, tickets off): same checks.
mkdir -p "$tmp/dev-ledger"
rel="$(realpath --relative-to="$tmp/dev-ledger" "$root/k8s")"  # kustomize refuses absolute roots
cat > "$tmp/dev-ledger/kustomization.yaml" <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: stud-dev
resources: ["$rel/overlays/dev"]
components: ["$rel/components/ledger"]
YAML
kubectl kustomize "$tmp/dev-ledger" > "$tmp/dev-ledger.yaml"
grep -q -- '--ledger=redis-sentinel://' "$tmp/dev-ledger.yaml" || { echo "FAIL: dev + ledger Component has no --ledger"; exit 1; }
echo "ok: kubectl kustomize dev + k8s/components/ledger ($(grep -c '^kind:' "$tmp/dev-ledger.yaml") objects)"
node "$here/k8s_validate.js" --env dev --dockerfile "$root/deploy/Dockerfile" "$tmp/dev-ledger.yaml"
# The Connect Ingress Component on top of prod (which has the gateway): the
# same checks, and its exact paths to the Connect listener are every unary
# method of the proto, no more (a missing one would still work, through the
# gateway, so it is checked here).
mkdir -p "$tmp/prod-ingress"
rel="$(realpath --relative-to="$tmp/prod-ingress" "$root/k8s")"
cat > "$tmp/prod-ingress/kustomization.yaml" <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: ["$rel/overlays/prod"]
components: ["$rel/components/connect-ingress"]
YAML
kubectl kustomize "$tmp/prod-ingress" > "$tmp/prod-ingress.yaml"
node "$here/k8s_validate.js" --env prod --dockerfile "$root/deploy/Dockerfile" \
  --web_dockerfile "$root/deploy/web.Dockerfile" "$tmp/prod-ingress.yaml"
routed="$(node -e '
  const YAML = require(process.argv[1]);
  const fs = require("fs");
  const docs = YAML.parseAllDocuments(fs.readFileSync(process.argv[2], "utf8")).map((d) => d.toJS());
  const paths = docs.filter((d) => d && d.kind === "Ingress").flatMap((i) => i.spec.rules.flatMap((r) => r.http.paths))
    .filter((p) => p.backend.service.port.name === "connect").map((p) => p.path.split("/").pop());
  console.log([...new Set(paths)].sort().join(" "));
' "$here/node_modules/yaml" "$tmp/prod-ingress.yaml")"
unary="$(grep -E '^\s*rpc ' "$root/proto/stud/v1/stud.proto" | grep -v stream | sed -E 's/^\s*rpc ([A-Za-z0-9_]+).*/\1/' | LC_ALL=C sort | xargs)"
[ "$routed" = "$unary" ] || { echo "FAIL: connect-ingress routes [$routed] to the Connect listener; the unary methods are [$unary]"; exit 1; }
echo "ok: kubectl kustomize prod + k8s/components/connect-ingress (the $(wc -w <<<"$unary") unary methods to the Connect listener)"
echo "k8s_test: all overlays pass"
