// End-to-end trace test: the real stud_server exports OTLP/gRPC to a real
// OTLP receiver started here (@grpc/grpc-js serving the official
// opentelemetry-proto TraceService from npm @opentelemetry/otlp-grpc-exporter-base,
// so the server's own schema subset is checked on the wire too).
//
// A client sends a W3C traceparent; the received spans must carry its trace
// id, the server span must have the client's span as parent, unseal/engine/
// seal must be children of the server span, and the attributes must be set.
// With the receiver down, calls still succeed and the drop counter rises.
//
// Env: STUD_SERVER (binary), STUD_PROTO_DIR (repo proto/), STUD_NODE_MODULES
// (tests/e2e/node/node_modules). Run: node --test trace_e2e.test.js
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const http = require('node:http');
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');

const MODULES = process.env.STUD_NODE_MODULES;
const grpc = require(path.join(MODULES, '@grpc/grpc-js'));
const protoLoader = require(path.join(MODULES, '@grpc/proto-loader'));

const OTLP_PROTOS = path.join(MODULES, '@opentelemetry/otlp-grpc-exporter-base/build/protos');
const LOAD = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

let sink;          // OTLP receiver
let sinkPort;
const spans = [];  // every received span, ids as hex
let server;        // stud_server child process
let stderrText = '';
let stub;
let metricsPort;

function hex(b) { return Buffer.from(b || []).toString('hex'); }

function attr(span, key) {
  const kv = span.attributes.find((a) => a.key === key);
  if (!kv) return undefined;
  const v = kv.value;
  if (v.value === 'array_value') return v.array_value.values.map((x) => x.string_value);
  return v[v.value];
}

async function waitFor(what, fn, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await fn();
    if (r) return r;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

function startSink() {
  const def = protoLoader.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto',
    { ...LOAD, includeDirs: [OTLP_PROTOS] });
  const pkg = grpc.loadPackageDefinition(def).opentelemetry.proto.collector.trace.v1;
  const s = new grpc.Server();
  s.addService(pkg.TraceService.service, {
    Export(call, cb) {
      for (const rs of call.request.resource_spans) {
        const resource = rs.resource.attributes.map((a) => [a.key, a.value[a.value.value]]);
        for (const ss of rs.scope_spans) {
          for (const sp of ss.spans) {
            spans.push({ ...sp, trace_id: hex(sp.trace_id), span_id: hex(sp.span_id),
              parent_span_id: hex(sp.parent_span_id), resource: Object.fromEntries(resource),
              scope: ss.scope.name });
          }
        }
      }
      cb(null, {});
    },
  });
  return new Promise((resolve, reject) => {
    s.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err) return reject(err);
      sink = s;
      sinkPort = port;
      resolve();
    });
  });
}

function startServer() {
  const args = ['--listen', '127.0.0.1:0', '--metrics_listen', '127.0.0.1:0', '--allow_preset',
    '--otlp_endpoint', `127.0.0.1:${sinkPort}`, '--otlp_flush_ms', '100', '--otlp_timeout_ms', '1000',
    '--trace_sampling_ratio', '0'];
  server = spawn(process.env.STUD_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr.on('data', (d) => { stderrText += d.toString(); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start')), 15000);
    let out = '';
    server.stdout.on('data', (d) => {
      out += d.toString();
      const m = /stud_server listening on (\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderrText}`)));
  });
}

function call(method, req, traceparent) {
  const md = new grpc.Metadata();
  if (traceparent) {
    md.set('traceparent', traceparent);
    md.set('tracestate', 'vendor=abc');
  }
  return new Promise((resolve) => {
    stub[method](req, md, { deadline: Date.now() + 10000 }, (err, resp) => resolve({ err, resp }));
  });
}

function metrics() {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: metricsPort, path: '/metrics', timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

function metricValue(text, series) {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

function newTraceparent(flags = '01') {
  const traceId = crypto.randomBytes(16).toString('hex');
  const parentId = crypto.randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-${flags}` };
}

const DECK = [];
for (const r of '23456789TJQKA') for (const s of 'cdhs') DECK.push(r + s);
const NEW_HAND = {
  variant: 'VARIANT_STUD', stakes: { preset: '$1-$2' }, dealing_mode: 'DEALING_MODE_PRESET',
  preset_deck: DECK, seats: [1, 2, 3].map((i) => ({ seat: i, stack: 1000 })),
};

before(async () => {
  await startSink();
  const address = await startServer();
  metricsPort = await waitFor('metrics_listening', () => {
    const m = /"event":"metrics_listening".*"port":(\d+)/.exec(stderrText);
    return m && Number(m[1]);
  });
  const def = protoLoader.loadSync('stud/v1/stud.proto', { ...LOAD, includeDirs: [process.env.STUD_PROTO_DIR] });
  const pkg = grpc.loadPackageDefinition(def).stud.v1;
  stub = new pkg.StudService(address, grpc.credentials.createInsecure());
});

after(() => {
  if (stub) stub.close();
  if (server && server.exitCode === null) server.kill('SIGKILL');
  if (sink) sink.forceShutdown();
});

function tree(traceId) {
  return spans.filter((s) => s.trace_id === traceId);
}

test('a client traceparent gives server and child spans in the same trace', async () => {
  const tp = newTraceparent();
  const r = await call('NewHand', NEW_HAND, tp.header);
  assert.ifError(r.err);
  const got = await waitFor('NewHand spans', () => (tree(tp.traceId).length >= 3 ? tree(tp.traceId) : null));
  const root = got.find((s) => s.kind === 'SPAN_KIND_SERVER');
  assert.ok(root, JSON.stringify(got));
  assert.strictEqual(root.name, 'stud.v1.StudService/NewHand');
  assert.strictEqual(root.parent_span_id, tp.parentId, 'server span is a child of the caller span');
  assert.strictEqual(root.trace_state, 'vendor=abc');
  assert.strictEqual(attr(root, 'rpc.method'), 'NewHand');
  assert.strictEqual(attr(root, 'rpc.system'), 'grpc');
  assert.strictEqual(String(attr(root, 'rpc.grpc.status_code')), '0');
  assert.strictEqual(attr(root, 'stud.variant'), 'STUD');
  assert.strictEqual(attr(root, 'stud.dealing_mode'), 'PRESET');
  assert.strictEqual(attr(root, 'stud.street'), 'THIRD');
  // The id a player's screen shows, to follow a disputed hand to its spans.
  assert.strictEqual(attr(root, 'stud.hand_id'), r.resp.update.public_view.hand_id);
  assert.match(attr(root, 'stud.hand_id'), /^[0-9a-f]{32}$/);
  assert.strictEqual(root.resource['service.name'], 'stud_server');
  const children = got.filter((s) => s !== root);
  assert.deepStrictEqual(children.map((s) => s.name).sort(), ['engine', 'seal']);
  for (const c of children) {
    assert.strictEqual(c.parent_span_id, root.span_id);
    assert.strictEqual(c.kind, 'SPAN_KIND_INTERNAL');
    assert.ok(BigInt(c.start_time_unix_nano) >= BigInt(root.start_time_unix_nano));
    assert.ok(BigInt(c.end_time_unix_nano) <= BigInt(root.end_time_unix_nano));
  }

  // ApplyAction: unseal, engine and seal under the server span.
  const u = r.resp.update;
  const tp2 = newTraceparent();
  const legal = u.legal_actions.find((a) => a.kind === 'ACTION_KIND_BRING_IN') || u.legal_actions[0];
  const r2 = await call('ApplyAction', { token: u.token,
    action: { seat: u.to_act, kind: legal.kind, amount_to: legal.amount_to } }, tp2.header);
  assert.ifError(r2.err);
  const got2 = await waitFor('ApplyAction spans', () => (tree(tp2.traceId).length >= 4 ? tree(tp2.traceId) : null));
  const root2 = got2.find((s) => s.kind === 'SPAN_KIND_SERVER');
  assert.strictEqual(root2.name, 'stud.v1.StudService/ApplyAction');
  assert.strictEqual(root2.parent_span_id, tp2.parentId);
  // The answer went out as bytes (service/rpc/update_bytes.cc): the span still
  // names its street and the rules its operations name.
  assert.strictEqual(attr(root2, 'stud.street'), 'THIRD');
  const ruled = [...new Set(r2.resp.update.operations.map((o) => o.rule_id).filter(Boolean))];
  assert.ok(ruled.length > 0, JSON.stringify(r2.resp.update.operations));
  assert.deepStrictEqual(attr(root2, 'stud.rule_ids'), ruled);
  const names = got2.filter((s) => s !== root2).map((s) => s.name);
  assert.deepStrictEqual(names.sort(), ['engine', 'seal', 'unseal']);
  for (const c of got2) if (c !== root2) assert.strictEqual(c.parent_span_id, root2.span_id);
  const order = ['unseal', 'engine', 'seal'].map((n) => got2.find((s) => s.name === n));
  assert.ok(BigInt(order[0].end_time_unix_nano) <= BigInt(order[1].start_time_unix_nano));
  assert.ok(BigInt(order[1].end_time_unix_nano) <= BigInt(order[2].start_time_unix_nano));

  // A refused action: error status and the rule ID as attributes.
  const tp3 = newTraceparent();
  const wrongSeat = (u.to_act % 3) + 1;
  const r3 = await call('ApplyAction', { token: u.token,
    action: { seat: wrongSeat, kind: legal.kind, amount_to: legal.amount_to } }, tp3.header);
  assert.ok(r3.err, 'acting out of turn must be refused');
  const got3 = await waitFor('refused spans', () => {
    const t = tree(tp3.traceId).find((s) => s.kind === 'SPAN_KIND_SERVER');
    return t || null;
  });
  assert.strictEqual(got3.status.code, 'STATUS_CODE_ERROR');
  assert.strictEqual(String(attr(got3, 'rpc.grpc.status_code')), String(r3.err.code));
  const reason = attr(got3, 'stud.error_reason');
  assert.ok(reason, 'error reason attribute');
  if (r3.err.code === grpc.status.FAILED_PRECONDITION) {
    assert.ok(/^STUD-/.test(reason), reason);
    assert.deepStrictEqual(attr(got3, 'stud.rule_ids'), [reason]);
  }
});

test('unsampled callers and calls without a parent (ratio 0) export nothing', async () => {
  const tp = newTraceparent('00');
  assert.ifError((await call('NewHand', NEW_HAND, tp.header)).err);
  assert.ifError((await call('NewHand', NEW_HAND, null)).err);
  const before = spans.length;
  await new Promise((res) => setTimeout(res, 600));  // several flush intervals
  assert.strictEqual(tree(tp.traceId).length, 0);
  assert.strictEqual(spans.length, before);
});

test('with the receiver down, calls succeed and the drop counter rises', async () => {
  const text0 = await metrics();
  const exported = metricValue(text0, 'stud_trace_spans_exported_total');
  assert.ok(exported >= 9, `exported ${exported}`);
  const dropped0 = metricValue(text0, 'stud_trace_spans_dropped_total{reason="export_failed"}');
  await new Promise((res) => sink.tryShutdown(res));
  sink = null;
  for (let i = 0; i < 5; ++i) {
    const r = await call('NewHand', NEW_HAND, newTraceparent().header);
    assert.ifError(r.err);
  }
  await waitFor('export_failed drops', async () => {
    const v = metricValue(await metrics(), 'stud_trace_spans_dropped_total{reason="export_failed"}');
    return v >= dropped0 + 5 * 3;
  });
});
