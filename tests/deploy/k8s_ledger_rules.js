// The hand ledger's rules for k8s_validate.js (item 3 of its list): the
// ledger's Redis StatefulSets (a headless Service of the rendering selecting
// their pods, persistent volumes from claim templates, none for Sentinels)
// and the --ledger flag (redis:// or redis-sentinel://) naming Services or
// StatefulSet pods of the rendering that only the rendering's own pods may
// reach, on the Redis port, with at least three Sentinels in prod.
'use strict';

// `ctx`: what k8s_validate.js knows of the rendering (its objects by kind, the
// stud Deployments, the StatefulSets, every workload, the server flags) and
// its helpers (fail, label matching); findings go to ctx.fail.
function checkLedger(ctx) {
  const { env, prod, fail, byKind, deployments, statefulSets, workloads, allFlags, matches, labelsOf, selected } = ctx;

  // StatefulSets (the ledger's Redis): a headless Service of the rendering
  // selecting its pods, persistent volumes from claim templates.
  for (const st of statefulSets) {
    const svc = byKind('Service').find((s) => s.metadata.name === st.spec.serviceName);
    if (!svc) fail(st, `serviceName ${st.spec.serviceName} is not a Service of the rendering`);
    else {
      if (svc.spec.clusterIP !== 'None') fail(st, `Service ${svc.metadata.name} must be headless`);
      if (!matches(svc.spec.selector, labelsOf(st))) fail(st, `Service ${svc.metadata.name} does not select its pods`);
    }
    const claims = (st.spec.volumeClaimTemplates || []).map((v) => v.metadata.name);
    // A Sentinel keeps no data of its own: it learns the master, the replicas
    // and the epoch from the other Sentinels after a restart.
    const sentinel = st.spec.template.spec.containers.every((c) => /sentinel/.test([...(c.command || []), ...(c.args || [])].join(' ')));
    if (sentinel) continue;
    if (claims.length === 0) fail(st, 'no volumeClaimTemplates (its data must persist)');
    const podVols = (st.spec.template.spec.volumes || []).map((v) => v.name);
    for (const c of st.spec.template.spec.containers) {
      for (const m of c.volumeMounts || []) {
        if (!claims.includes(m.name) && !podVols.includes(m.name)) fail(st, `container ${c.name}: volume ${m.name} undefined`);
      }
      if (!(c.volumeMounts || []).some((m) => claims.includes(m.name))) fail(st, `container ${c.name}: mounts no claim`);
    }
  }

  const ledgerFlags = allFlags.filter((f) => /^--ledger[= ]/.test(f));
  if (env === 'ledger' && ledgerFlags.length !== 1) fail(null, `the ledger overlay needs exactly one --ledger, found ${ledgerFlags.length}`);
  // The --ledger addresses: redis://HOST[:PORT] (6379) or
  // redis-sentinel://HOST[:PORT],.../MASTER (26379 each).
  const ledgerAddresses = (f) => {
    let m = f.match(/^--ledger[= ]redis:\/\/(?:[^@]*@)?([^:/@,]+)(?::(\d+))?\/*$/);
    if (m) return [{ host: m[1], port: Number(m[2] || 6379) }];
    m = f.match(/^--ledger[= ]redis-sentinel:\/\/(?:[^@]*@)?([^/@]+)\/([^/]+)\/*$/);
    if (!m) return null;
    const out = [];
    for (const a of m[1].split(',')) {
      const hp = a.match(/^([^:]+)(?::(\d+))?$/);
      if (!hp) return null;
      out.push({ host: hp[1], port: Number(hp[2] || 26379), sentinel: true });
    }
    return out;
  };
  for (const f of ledgerFlags) {
    const addresses = ledgerAddresses(f);
    if (!addresses) {
      fail(null, `${f.replace(/\/\/[^@]*@/, '//***@')}: expected redis://HOST:PORT or redis-sentinel://HOST:PORT,.../MASTER`);
      continue;
    }
    if (addresses[0].sentinel && prod && addresses.length < 3) {
      fail(null, `--ledger names ${addresses.length} Sentinel(s): a quorum that survives one loss needs at least 3`);
    }
    for (const a of addresses) checkLedgerAddress(a.host, a.port);
  }
  function checkLedgerAddress(host, port) {
    // "POD.SERVICE": one pod of a StatefulSet through its headless Service.
    let name = host;
    let pod = '';
    const dotted = host.match(/^([a-z0-9-]+)\.([a-z0-9-]+)$/);
    if (dotted && byKind('Service').some((s) => s.metadata.name === dotted[2])) {
      pod = dotted[1];
      name = dotted[2];
    } else if (host.includes('.')) {
      return;  // outside the rendering (a managed Redis): nothing more to check
    }
    const svc = byKind('Service').find((s) => s.metadata.name === name);
    if (!svc) {
      fail(null, `--ledger host ${host} is not a Service of the rendering`);
      return;
    }
    if (pod) {
      const owner = statefulSets.find((st) => st.spec.serviceName === name && pod.startsWith(`${st.metadata.name}-`));
      const ordinal = owner ? Number(pod.slice(owner.metadata.name.length + 1)) : NaN;
      if (!owner || !(ordinal >= 0 && ordinal < (owner.spec.replicas || 1))) {
        fail(svc, `--ledger host ${host}: ${pod} is not a pod of a StatefulSet governed by Service ${name}`);
      }
      if (svc.spec.clusterIP !== 'None') fail(svc, `--ledger host ${host}: pod names need a headless Service`);
    }
    const sp = (svc.spec.ports || []).find((p) => p.port === port);
    if (!sp) fail(svc, `--ledger port ${port} is not a port of the Service`);
    const backends = selected(svc.spec.selector);
    const containerPort = (w) => {
      if (!sp) return port;
      if (typeof sp.targetPort === 'number') return sp.targetPort;
      const named = w.spec.template.spec.containers.flatMap((c) => c.ports || []).find((p) => p.name === (sp.targetPort || ''));
      return named ? named.containerPort : (sp.targetPort === undefined ? sp.port : undefined);
    };
    for (const w of backends) {
      const cport = containerPort(w);
      const pols = byKind('NetworkPolicy').filter((n) => matches(n.spec.podSelector.matchLabels, labelsOf(w)));
      for (const n of pols) {
        if (!(n.spec.policyTypes || []).includes('Ingress')) fail(n, 'must restrict Ingress');
        for (const rule of n.spec.ingress || []) {
          const froms = rule.from || [];
          if (froms.length === 0) fail(n, 'an ingress rule admits every source');
          for (const from of froms) {
            // The stud pods, and with Sentinels each other and the Redis servers.
            const ok = from.podSelector && !from.namespaceSelector && !from.ipBlock &&
              workloads.some((d) => matches(from.podSelector.matchLabels, labelsOf(d)));
            if (!ok) fail(n, 'ingress must come only from the rendering\'s own pods (podSelector, own namespace)');
          }
          const ports = (rule.ports || []).map((p) => p.port);
          if (ports.length === 0 || ports.some((p) => p !== cport && p !== (sp && sp.targetPort))) {
            fail(n, `ingress must be limited to the Redis port ${cport}`);
          }
        }
        if (!(n.spec.ingress || []).length) fail(n, 'admits nothing: the stud pods cannot reach the ledger');
        const studIn = (n.spec.ingress || []).some((rule) => (rule.from || []).some((from) => from.podSelector &&
          deployments.some((d) => matches(from.podSelector.matchLabels, labelsOf(d)))));
        if (!studIn) fail(n, 'does not admit the stud pods: they cannot reach the ledger');
      }
    }
  }
}

module.exports = { checkLedger };
