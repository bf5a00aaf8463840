#!/usr/bin/env node
// Offline validation of rendered Kubernetes manifests (the output of
// `kubectl kustomize k8s/overlays/<env>`):
//   1. every built-in object against the Kubernetes 1.27 JSON schemas bundled in
//      npm kubernetes-models@4.5.1 (types, required fields, enums);
//   2. the Prometheus Operator CRDs (ServiceMonitor, PrometheusRule), which those
//      schemas do not cover, structurally;
//   3. project rules: probes, requests/limits, pinned image, hardened security
//      context, grace period longer than the drain, replicas >= 2 in prod, and
//      the ports agreeing with deploy/Dockerfile's EXPOSE; for a StatefulSet
//      (the ledger's Redis) the same container rules, a headless Service, a
//      PersistentVolumeClaim template (not for Sentinels, whose state is
//      rebuilt from their peers) and a NetworkPolicy; no committed Secret and
//      no password outside a secretKeyRef; --ledger (redis:// or
//      redis-sentinel://) pointing at Services or StatefulSet pods of the
//      rendering that only the rendering's own pods may reach, at least three
//      Sentinels (the ledger's rules: k8s_ledger_rules.js); an Ingress's
//      backends are Services and ports of the rendering, and only exact
//      unary-method paths go to the Connect listener's port.
// The "ledger" overlay is built on prod and checked with prod's rules.
// The schemas allow unknown fields, so a misspelled field passes check 1; the
// project rules catch the ones that matter by reading them.
//
// Usage: node k8s_validate.js --env dev|prod|ledger [--dockerfile deploy/Dockerfile]
//          [--web_dockerfile deploy/web.Dockerfile] rendered.yaml
// Prints one line per finding; exits 1 if there is any.
'use strict';
const fs = require('fs');
const YAML = require('yaml');
const { checkLedger } = require('./k8s_ledger_rules');

const args = process.argv.slice(2);
let env = '';
let dockerfile = '';
let webDockerfile = '';
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--env') env = args[++i];
  else if (args[i] === '--dockerfile') dockerfile = args[++i];
  else if (args[i] === '--web_dockerfile') webDockerfile = args[++i];
  else files.push(args[i]);
}
if (!env || files.length === 0) {
  console.error('usage: k8s_validate.js --env dev|prod [--dockerfile FILE] rendered.yaml...');
  process.exit(2);
}

const prod = env === 'prod' || env === 'ledger';
const errors = [];
const fail = (obj, msg) => errors.push(`${obj ? `${obj.kind}/${obj.metadata && obj.metadata.name}` : '-'}: ${msg}`);

const docs = [];
for (const f of files) {
  for (const d of YAML.parseAllDocuments(fs.readFileSync(f, 'utf8'))) {
    if (d.errors.length) fail(null, `${f}: YAML error ${d.errors[0].message}`);
    const o = d.toJS();
    if (o) docs.push(o);
  }
}

// --- 1. schema validation of built-in kinds ---------------------------------
function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const dir = group ? `${group}/${version}` : version;
  try {
    return require(`kubernetes-models/${dir}/${kind}`)[kind];
  } catch (e) {
    return null;
  }
}
const crdKinds = new Set(['monitoring.coreos.com/v1 ServiceMonitor', 'monitoring.coreos.com/v1 PrometheusRule']);
for (const o of docs) {
  if (!o.apiVersion || !o.kind || !o.metadata || !o.metadata.name) {
    fail(o, 'apiVersion, kind and metadata.name are required');
    continue;
  }
  if (crdKinds.has(`${o.apiVersion} ${o.kind}`)) continue;
  const Model = modelFor(o.apiVersion, o.kind);
  if (!Model) {
    fail(o, `no schema for ${o.apiVersion} ${o.kind}`);
    continue;
  }
  try {
    new Model(o).validate();
  } catch (e) {
    fail(o, `schema: ${e.message}`);
  }
}

// --- 2. CRDs, structurally ---------------------------------------------------
const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
const durationRe = /^(\d+(ms|s|m|h|d|w|y))+$/;
for (const o of docs.filter((d) => d.kind === 'ServiceMonitor')) {
  const s = o.spec;
  if (!isObj(s) || !isObj(s.selector) || !isObj(s.selector.matchLabels)) fail(o, 'spec.selector.matchLabels required');
  if (!Array.isArray(s && s.endpoints) || s.endpoints.length === 0) fail(o, 'spec.endpoints must be a non-empty list');
  for (const ep of (s && s.endpoints) || []) {
    if (typeof ep.port !== 'string') fail(o, 'each endpoint names a Service port (string)');
    if (ep.interval && !durationRe.test(ep.interval)) fail(o, `bad interval ${ep.interval}`);
  }
  // It must select a Service that has that named port.
  const svcs = docs.filter((d) => d.kind === 'Service' && Object.entries(s.selector.matchLabels || {})
    .every(([k, v]) => d.metadata.labels && d.metadata.labels[k] === v));
  for (const ep of s.endpoints || []) {
    if (!svcs.some((svc) => (svc.spec.ports || []).some((p) => p.name === ep.port))) {
      fail(o, `no selected Service has a port named ${ep.port}`);
    }
  }
}
for (const o of docs.filter((d) => d.kind === 'PrometheusRule')) {
  const groups = o.spec && o.spec.groups;
  if (!Array.isArray(groups) || groups.length === 0) fail(o, 'spec.groups must be a non-empty list');
  for (const g of groups || []) {
    if (typeof g.name !== 'string' || !Array.isArray(g.rules) || g.rules.length === 0) {
      fail(o, 'each group has a name and rules');
      continue;
    }
    for (const r of g.rules) {
      if (!!r.alert === !!r.record) fail(o, `${g.name}: a rule is either alert or record`);
      if (typeof r.expr !== 'string' || !r.expr.trim()) fail(o, `${g.name}/${r.alert || r.record}: expr required`);
      if (r.for && !durationRe.test(r.for)) fail(o, `${g.name}/${r.alert}: bad for ${r.for}`);
      if (r.alert && !(r.labels && r.labels.severity)) fail(o, `${r.alert}: labels.severity required`);
      if (r.alert && !(r.annotations && r.annotations.summary)) fail(o, `${r.alert}: annotations.summary required`);
      if (r.alert && !/docs\/runbook\.md#[\w-]+$/.test((r.annotations || {}).runbook_url || '')) {
        fail(o, `${r.alert}: annotations.runbook_url must point at its section of docs/runbook.md`);
      }
    }
  }
}

// --- 3. project rules --------------------------------------------------------
const byKind = (k) => docs.filter((d) => d.kind === k);
// The rules service's Deployment, and the web gateway's (k8s/components/web).
const isWeb = (d) => d.spec.template.spec.containers.some((c) => /stud-web/.test(c.image || ''));
const deployments = byKind('Deployment').filter((d) => !isWeb(d));
const webDeployments = byKind('Deployment').filter(isWeb);
const statefulSets = byKind('StatefulSet');
const workloads = [...deployments, ...webDeployments, ...statefulSets];
if (deployments.length !== 1) fail(null, `expected one stud Deployment, found ${deployments.length}`);
for (const k of ['Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'ConfigMap',
  'ServiceMonitor', 'PrometheusRule']) {
  if (byKind(k).length === 0) fail(null, `no ${k}`);
}
if (!byKind('Service').some((s) => s.spec.clusterIP === 'None')) fail(null, 'no headless Service');

function exposedPorts(file) {
  const ports = new Set();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = line.match(/^\s*EXPOSE\s+(.*)$/i);
    if (m) m[1].split(/\s+/).filter(Boolean).forEach((p) => ports.add(Number(p.split('/')[0])));
  }
  if (ports.size === 0) fail(null, `${file}: no EXPOSE`);
  return ports;
}
const exposed = dockerfile ? exposedPorts(dockerfile) : new Set();
// The gateway: HTTP probes on its own health paths, ports as its image EXPOSEs,
// and the label the stud NetworkPolicy admits.
for (const d of webDeployments) {
  const pod = d.spec.template.spec;
  if ((d.spec.template.metadata.labels || {})['stud-client'] !== 'true') fail(d, 'web pods need the label stud-client: "true" to reach the stud pods');
  const webExposed = webDockerfile ? exposedPorts(webDockerfile) : null;
  for (const c of pod.containers) {
    if (!(c.readinessProbe && c.readinessProbe.httpGet && c.readinessProbe.httpGet.path === '/readyz')) fail(d, `container ${c.name}: readinessProbe must be httpGet /readyz`);
    if (!(c.livenessProbe && c.livenessProbe.httpGet && c.livenessProbe.httpGet.path === '/healthz')) fail(d, `container ${c.name}: livenessProbe must be httpGet /healthz`);
    const ports = (c.ports || []).map((p) => p.containerPort);
    if (webExposed) for (const p of ports) if (!webExposed.has(p)) fail(d, `container ${c.name}: port ${p} not EXPOSEd in ${webDockerfile}`);
  }
}

// The gateway in production: its calls spread over every stud pod (--upstream
// names a headless Service of the rendering, resolved to every ready pod), and
// its metrics on their own port (--metrics_port), declared as the container
// port "metrics" and scraped by a ServiceMonitor through a Service of its pods.
for (const d of webDeployments) {
  const c = d.spec.template.spec.containers[0] || {};
  const args = (c.args || []).map(String);
  const upstream = (args.find((a) => a.startsWith('--upstream=')) || '').slice('--upstream='.length);
  for (const target of upstream.split(',').filter(Boolean)) {
    const host = target.slice(0, target.lastIndexOf(':'));
    if (host.includes('.')) continue;  // outside the rendering
    const svc = byKind('Service').find((s) => s.metadata.name === host);
    if (!svc) fail(d, `--upstream host ${host} is not a Service of the rendering`);
    else if (svc.spec.clusterIP !== 'None') fail(d, `--upstream=${target}: Service ${host} is not headless, so each gateway connection (all its calls) would stay on one stud pod`);
  }
  const metricsPort = Number((args.find((a) => a.startsWith('--metrics_port=')) || '').slice('--metrics_port='.length));
  const declared = (c.ports || []).find((p) => p.name === 'metrics');
  if (!(metricsPort > 0)) fail(d, 'set --metrics_port: /metrics must not be served on the public port');
  else if (!declared || declared.containerPort !== metricsPort) fail(d, `--metrics_port=${metricsPort} needs a containerPort ${metricsPort} named metrics`);
  const scraped = byKind('ServiceMonitor').some((m) => (m.spec.endpoints || []).some((ep) => ep.port === 'metrics') &&
    byKind('Service').some((s) => Object.entries(m.spec.selector.matchLabels || {}).every(([k, v]) => (s.metadata.labels || {})[k] === v) &&
      Object.entries(s.spec.selector || {}).every(([k, v]) => (d.spec.template.metadata.labels || {})[k] === v) &&
      (s.spec.ports || []).some((p) => p.name === 'metrics')));
  if (!scraped) fail(d, 'no ServiceMonitor scrapes the gateway\'s metrics port');
}

// Rules every workload's pod and containers follow (the stud Deployment and
// the ledger's Redis StatefulSet alike).
function checkPodSecurity(w) {
  const sc = w.spec.template.spec.securityContext || {};
  if (sc.runAsNonRoot !== true) fail(w, 'pod securityContext.runAsNonRoot must be true');
  if (!(sc.runAsUser > 0)) fail(w, 'pod securityContext.runAsUser must be a non-zero uid');
  if (!(sc.seccompProfile && sc.seccompProfile.type === 'RuntimeDefault')) fail(w, 'pod seccompProfile must be RuntimeDefault');
}
function checkContainer(w, c) {
  const where = `container ${c.name}`;
  for (const p of ['readinessProbe', 'livenessProbe']) {
    if (!c[p]) fail(w, `${where}: ${p} missing`);
    else if (!c[p].grpc && !c[p].exec && !c[p].tcpSocket && !c[p].httpGet) fail(w, `${where}: ${p} has no handler`);
  }
  const res = c.resources || {};
  for (const r of ['cpu', 'memory']) {
    if (!(res.requests && res.requests[r])) fail(w, `${where}: resources.requests.${r} missing`);
    if (!(res.limits && res.limits[r])) fail(w, `${where}: resources.limits.${r} missing`);
  }
  const img = c.image || '';
  const tag = img.includes('@') ? img.split('@')[1] : (img.match(/:([^/:]+)$/) || [])[1];
  if (!tag) fail(w, `${where}: image ${img} has no tag or digest`);
  else if (tag === 'latest') fail(w, `${where}: image tag must not be latest`);
  if (prod && tag && !/^(sha256:[0-9a-f]{64}|v?\d+\.\d+\.\d+)$/.test(tag)) {
    fail(w, `${where}: prod image must be a release x.y.z or a digest, not ${tag}`);
  }
  if (c.imagePullPolicy === 'Always' && prod) fail(w, `${where}: pinned images need no Always pull`);
  const csc = c.securityContext || {};
  if (csc.readOnlyRootFilesystem !== true) fail(w, `${where}: readOnlyRootFilesystem must be true`);
  if (csc.allowPrivilegeEscalation !== false) fail(w, `${where}: allowPrivilegeEscalation must be false`);
  if (!(csc.capabilities && (csc.capabilities.drop || []).includes('ALL'))) fail(w, `${where}: drop ALL capabilities`);
  // Secrets reach containers only by reference: no literal value of a
  // password-, key- or token-named variable, no literal password in args.
  for (const e of c.env || []) {
    if (/KEY|PASS|SECRET|TOKEN|AUTH/i.test(e.name) && e.value !== undefined) {
      fail(w, `${where}: env ${e.name} must come from a secretKeyRef, not a value`);
    }
  }
  const args = [...(c.command || []), ...(c.args || [])];
  for (let i = 0; i < args.length; i++) {
    const a = String(args[i]);
    // A password on a command line is readable in /proc on the node: never.
    if (/redis(-sentinel)?:\/\/[^@\s]*@/.test(a)) fail(w, `${where}: no password in a --ledger URL (use --ledger_password_file from a Secret volume)`);
    if (/^--?(requirepass|masterauth)$/.test(a) || /--(requirepass|masterauth)\s/.test(a)) fail(w, `${where}: no Redis password argument (a config include written from a Secret file)`);
  }
}
for (const w of workloads) {
  checkPodSecurity(w);
  for (const c of w.spec.template.spec.containers) checkContainer(w, c);
}

const flagsText = byKind('ConfigMap').filter((c) => c.metadata.name.startsWith('stud-flags'))
  .map((c) => Object.values(c.data || {}).join('\n')).join('\n');
for (const d of deployments) {
  const spec = d.spec;
  const pod = spec.template.spec;
  const minReplicas = prod ? 2 : 1;
  // An HPA owns the count: a replicas field would reset it at every apply.
  const hpa = byKind('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.kind === 'Deployment' &&
    h.spec.scaleTargetRef.name === d.metadata.name);
  if (hpa && spec.replicas !== undefined) fail(d, `sets replicas ${spec.replicas} while HorizontalPodAutoscaler/${hpa.metadata.name} owns the count`);
  if (!hpa && !(spec.replicas >= minReplicas)) fail(d, `replicas ${spec.replicas} < ${minReplicas} in ${env}`);
  const drain = Number((flagsText.match(/--drain_seconds=(\d+)/) || [])[1] || 10);
  let preStop = 0;
  for (const c of pod.containers) {
    const where = `container ${c.name}`;
    for (const p of ['readinessProbe', 'livenessProbe']) {
      if (c[p] && !c[p].grpc) fail(d, `${where}: ${p} must be a native grpc probe`);
    }
    const ports = (c.ports || []).map((p) => p.containerPort);
    if (dockerfile) {
      for (const p of ports) if (!exposed.has(p)) fail(d, `${where}: port ${p} not EXPOSEd in ${dockerfile}`);
      for (const p of exposed) if (!ports.includes(p)) fail(d, `${where}: EXPOSE ${p} has no containerPort`);
    }
    const cmd = (((c.lifecycle || {}).preStop || {}).exec || {}).command || [];
    if (cmd[0] === 'sleep') preStop = Number(cmd[1]) || 0;
    const mounts = (c.volumeMounts || []).map((m) => m.name);
    const keyVol = (pod.volumes || []).find((v) => v.secret);
    if (!keyVol || !mounts.includes(keyVol.name)) fail(d, `${where}: the key ring must be mounted from a Secret`);
  }
  const grace = pod.terminationGracePeriodSeconds === undefined ? 30 : pod.terminationGracePeriodSeconds;
  if (!(grace > drain + preStop)) {
    fail(d, `terminationGracePeriodSeconds ${grace} must exceed preStop ${preStop} + drain ${drain}`);
  }
  const roll = (spec.strategy || {}).rollingUpdate || {};
  if (prod && roll.maxUnavailable !== 0) fail(d, 'prod rolls must keep every replica (maxUnavailable 0)');
}
for (const h of byKind('HorizontalPodAutoscaler')) {
  const min = h.spec.minReplicas || 1;
  if (prod && min < 2) fail(h, `minReplicas ${min} < 2 in prod`);
  if (h.spec.maxReplicas < min) fail(h, 'maxReplicas < minReplicas');
  const target = h.spec.scaleTargetRef;
  if (!deployments.some((d) => d.kind === target.kind && d.metadata.name === target.name)) {
    fail(h, `scaleTargetRef ${target.kind}/${target.name} is not in the rendering`);
  }
}
// Selectors of the Services, PDB and NetworkPolicies must select the pods of
// a workload of the rendering; every workload's pods have a NetworkPolicy.
const labelsOf = (w) => w.spec.template.metadata.labels || {};
const matches = (sel, labels) => sel && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v);
const selected = (sel) => workloads.filter((w) => matches(sel, labelsOf(w)));
for (const s of byKind('Service')) if (!selected(s.spec.selector).length) fail(s, 'selector does not select the pods of any workload');
for (const p of byKind('PodDisruptionBudget')) if (!selected(p.spec.selector.matchLabels).length) fail(p, 'selector does not select the pods of any workload');
for (const n of byKind('NetworkPolicy')) if (!selected(n.spec.podSelector.matchLabels).length) fail(n, 'podSelector does not select the pods of any workload');
for (const w of workloads) {
  if (!byKind('NetworkPolicy').some((n) => matches(n.spec.podSelector.matchLabels, labelsOf(w)))) {
    fail(w, 'no NetworkPolicy selects its pods');
  }
}
for (const s of byKind('Secret')) {
  fail(s, 'Secrets are not committed with the manifests (create them out of band: stud-keys, stud-ledger-redis)');
}
for (const c of byKind('ConfigMap')) {
  const text = Object.values(c.data || {}).join('\n');
  if (/^\s*(requirepass|masterauth)\s/m.test(text)) fail(c, 'a Redis password must come from a Secret, not a ConfigMap');
  if (/redis:\/\/[^@\s]*:[^@\s]+@/.test(text)) fail(c, 'a --ledger password must come from a Secret, not a ConfigMap');
}

// Server flags: --seat_tickets is off|required; --ledger (a flag line or a
// container argument) names a Service of the rendering, on one of its ports,
// behind a NetworkPolicy that admits only the stud pods on that port.
const studArgs = deployments.flatMap((d) => d.spec.template.spec.containers.flatMap((c) => c.args || []));
const allFlags = [...flagsText.split('\n').map((l) => l.trim()), ...studArgs];
for (const f of allFlags) {
  const m = f.match(/^--seat_tickets=(.*)$/);
  if (m && !['off', 'required'].includes(m[1])) fail(null, `--seat_tickets=${m[1]}: off or required`);
}
// Prod sheds load (--max_in_flight) sized for the pod's memory: the calls it
// admits, each holding up to --max_message_bytes, plus 64 MiB for the server
// itself must fit the container's memory limit.
const lastFlag = (name) => {
  let v;
  for (const f of allFlags) {
    const m = f.match(new RegExp(`^--${name}=(\\d+)$`));
    if (m) v = Number(m[1]);
  }
  return v;
};
const memBytes = (q) => {
  const m = String(q || '').match(/^(\d+)(Ki|Mi|Gi)?$/);
  return m ? Number(m[1]) * ({ Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[m[2]] || 1) : undefined;
};
if (prod) {
  const inFlight = lastFlag('max_in_flight');
  const messageBytes = lastFlag('max_message_bytes') || 4 * 1024 * 1024;
  if (!(inFlight > 0)) fail(null, 'prod must shed load: set --max_in_flight (0 or unset is off)');
  for (const d of deployments) {
    const limit = memBytes((((d.spec.template.spec.containers[0] || {}).resources || {}).limits || {}).memory);
    if (inFlight > 0 && limit !== undefined && inFlight * messageBytes + 64 * 1024 ** 2 > limit) {
      fail(d, `--max_in_flight=${inFlight} x --max_message_bytes=${messageBytes} + 64 MiB exceeds the memory limit`);
    }
  }
}
// An Ingress (k8s/components/connect-ingress): every backend is a Service of
// the rendering and one of its ports; the Connect listener's port (a Service
// port targeting the container port "connect") takes only the exact path of a
// unary method: a prefix or WatchHand (a stream) there would answer 404.
for (const ing of byKind('Ingress')) {
  for (const rule of ing.spec.rules || []) {
    for (const p of (rule.http || {}).paths || []) {
      const b = (p.backend || {}).service || {};
      const want = b.port || {};
      const where = `${rule.host || '*'}${p.path}`;
      const svc = byKind('Service').find((s) => s.metadata.name === b.name);
      const port = svc && (svc.spec.ports || []).find((sp) => (want.name !== undefined ? sp.name === want.name : sp.port === want.number));
      if (!svc) fail(ing, `${where}: backend ${b.name} is not a Service of the rendering`);
      else if (!port) fail(ing, `${where}: Service ${b.name} has no port ${JSON.stringify(want)}`);
      else if (port.targetPort === 'connect' && (p.pathType !== 'Exact' || !/^\/stud\.v1\.StudService\/\w+$/.test(p.path) || p.path.endsWith('/WatchHand'))) {
        fail(ing, `${where}: only the exact path of a unary method may go to the Connect listener`);
      }
    }
  }
}
// The ledger's Redis and --ledger (k8s_ledger_rules.js).
checkLedger({ env, prod, fail, byKind, deployments, statefulSets, workloads, allFlags, matches, labelsOf, selected });

if (errors.length) {
  for (const e of errors) console.log(`k8s_validate [${env}]: ${e}`);
  process.exit(1);
}
const kinds = {};
for (const o of docs) kinds[o.kind] = (kinds[o.kind] || 0) + 1;
console.log(`k8s_validate [${env}]: ${docs.length} objects OK (${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')})`);
