#!/usr/bin/env node
// Offline validation of rendered Kubernetes manifests (the output of
// `kubectl kustomize k8s/overlays/<env>`):
//   1. every built-in object against the Kubernetes 1.27 JSON schemas bundled in
//      npm kubernetes-models@4.5.1 (types, required fields, enums);
//   2. the Prometheus Operator CRDs (ServiceMonitor, PrometheusRule), which those
//      schemas do not cover, structurally;
//   3. project rules: probes, requests/limits, pinned image, hardened security
//      context, grace period longer than the drain, replicas >= 2 in prod, and
//      the ports agreeing with deploy/Dockerfile's EXPOSE.
// The schemas allow unknown fields, so a misspelled field passes check 1; the
// project rules catch the ones that matter by reading them.
//
// Usage: node k8s_validate.js --env dev|prod [--dockerfile deploy/Dockerfile] rendered.yaml
// Prints one line per finding; exits 1 if there is any.
'use strict';
const fs = require('fs');
const YAML = require('yaml');

const args = process.argv.slice(2);
let env = '';
let dockerfile = '';
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--env') env = args[++i];
  else if (args[i] === '--dockerfile') dockerfile = args[++i];
  else files.push(args[i]);
}
if (!env || files.length === 0) {
  console.error('usage: k8s_validate.js --env dev|prod [--dockerfile FILE] rendered.yaml...');
  process.exit(2);
}

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
    }
  }
}

// --- 3. project rules --------------------------------------------------------
const byKind = (k) => docs.filter((d) => d.kind === k);
const deployments = byKind('Deployment');
if (deployments.length !== 1) fail(null, `expected one Deployment, found ${deployments.length}`);
for (const k of ['Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'ConfigMap',
  'ServiceMonitor', 'PrometheusRule']) {
  if (byKind(k).length === 0) fail(null, `no ${k}`);
}
if (!byKind('Service').some((s) => s.spec.clusterIP === 'None')) fail(null, 'no headless Service');

const exposed = new Set();
if (dockerfile) {
  for (const line of fs.readFileSync(dockerfile, 'utf8').split('\n')) {
    const m = line.match(/^\s*EXPOSE\s+(.*)$/i);
    if (m) m[1].split(/\s+/).filter(Boolean).forEach((p) => exposed.add(Number(p.split('/')[0])));
  }
  if (exposed.size === 0) fail(null, `${dockerfile}: no EXPOSE`);
}

for (const d of deployments) {
  const spec = d.spec;
  const pod = spec.template.spec;
  const minReplicas = env === 'prod' ? 2 : 1;
  if (!(spec.replicas >= minReplicas)) fail(d, `replicas ${spec.replicas} < ${minReplicas} in ${env}`);
  const sc = pod.securityContext || {};
  if (sc.runAsNonRoot !== true) fail(d, 'pod securityContext.runAsNonRoot must be true');
  if (!(sc.runAsUser > 0)) fail(d, 'pod securityContext.runAsUser must be a non-zero uid');
  const flagsText = byKind('ConfigMap').map((c) => Object.values(c.data || {}).join('\n')).join('\n');
  const drain = Number((flagsText.match(/--drain_seconds=(\d+)/) || [])[1] || 10);
  let preStop = 0;
  for (const c of pod.containers) {
    const where = `container ${c.name}`;
    for (const p of ['readinessProbe', 'livenessProbe']) {
      if (!c[p]) fail(d, `${where}: ${p} missing`);
      else if (!c[p].grpc) fail(d, `${where}: ${p} must be a native grpc probe`);
    }
    const res = c.resources || {};
    for (const r of ['cpu', 'memory']) {
      if (!(res.requests && res.requests[r])) fail(d, `${where}: resources.requests.${r} missing`);
      if (!(res.limits && res.limits[r])) fail(d, `${where}: resources.limits.${r} missing`);
    }
    const img = c.image || '';
    const tag = img.includes('@') ? img.split('@')[1] : (img.match(/:([^/:]+)$/) || [])[1];
    if (!tag) fail(d, `${where}: image ${img} has no tag or digest`);
    else if (tag === 'latest') fail(d, `${where}: image tag must not be latest`);
    if (env === 'prod' && tag && !/^(sha256:[0-9a-f]{64}|v?\d+\.\d+\.\d+)$/.test(tag)) {
      fail(d, `${where}: prod image must be a release x.y.z or a digest, not ${tag}`);
    }
    if (c.imagePullPolicy === 'Always' && env === 'prod') fail(d, `${where}: pinned images need no Always pull`);
    const csc = c.securityContext || {};
    if (csc.readOnlyRootFilesystem !== true) fail(d, `${where}: readOnlyRootFilesystem must be true`);
    if (csc.allowPrivilegeEscalation !== false) fail(d, `${where}: allowPrivilegeEscalation must be false`);
    if (!(csc.capabilities && (csc.capabilities.drop || []).includes('ALL'))) fail(d, `${where}: drop ALL capabilities`);
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
    if ((c.env || []).some((e) => /KEY/i.test(e.name) && e.value)) fail(d, `${where}: no key material in env values`);
  }
  const grace = pod.terminationGracePeriodSeconds === undefined ? 30 : pod.terminationGracePeriodSeconds;
  if (!(grace > drain + preStop)) {
    fail(d, `terminationGracePeriodSeconds ${grace} must exceed preStop ${preStop} + drain ${drain}`);
  }
  const roll = (spec.strategy || {}).rollingUpdate || {};
  if (env === 'prod' && roll.maxUnavailable !== 0) fail(d, 'prod rolls must keep every replica (maxUnavailable 0)');
}
for (const h of byKind('HorizontalPodAutoscaler')) {
  const min = h.spec.minReplicas || 1;
  if (env === 'prod' && min < 2) fail(h, `minReplicas ${min} < 2 in prod`);
  if (h.spec.maxReplicas < min) fail(h, 'maxReplicas < minReplicas');
  const target = h.spec.scaleTargetRef;
  if (!deployments.some((d) => d.kind === target.kind && d.metadata.name === target.name)) {
    fail(h, `scaleTargetRef ${target.kind}/${target.name} is not in the rendering`);
  }
}
// Selectors of the Services, PDB and NetworkPolicy must select the pods.
const podLabels = deployments.length ? deployments[0].spec.template.metadata.labels || {} : {};
const selects = (sel) => sel && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => podLabels[k] === v);
for (const s of byKind('Service')) if (!selects(s.spec.selector)) fail(s, 'selector does not select the pods');
for (const p of byKind('PodDisruptionBudget')) if (!selects(p.spec.selector.matchLabels)) fail(p, 'selector does not select the pods');
for (const n of byKind('NetworkPolicy')) if (!selects(n.spec.podSelector.matchLabels)) fail(n, 'podSelector does not select the pods');
for (const s of byKind('Secret')) {
  fail(s, 'Secrets are not committed with the manifests (create stud-keys out of band)');
}

if (errors.length) {
  for (const e of errors) console.log(`k8s_validate [${env}]: ${e}`);
  process.exit(1);
}
const kinds = {};
for (const o of docs) kinds[o.kind] = (kinds[o.kind] || 0) + 1;
console.log(`k8s_validate [${env}]: ${docs.length} objects OK (${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')})`);
