// A stud.v1 client in Node: deal a hand, show the views, play it out, handle a
// rule error, resolve the showdown, and export the hand as PHH.
//
//   node examples/node/stud_client.js --server 127.0.0.1:50051
//   node examples/node/stud_client.js --stud_server build/service/stud_server
//
// Uses @grpc/grpc-js, @grpc/proto-loader and protobufjs; the test suite points
// NODE_PATH at tests/e2e/node/node_modules (installed by tools/test.sh). With
// --stud_server the example starts its own server on 127.0.0.1 port 0.
'use strict';

const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const PROTO_DIR = arg('--proto_dir') || path.join(__dirname, '..', '..', 'proto');

const def = protoLoader.loadSync(['stud/v1/stud.proto'], {
  includeDirs: [PROTO_DIR], keepCase: true, longs: Number, enums: String, defaults: true,
});
const stud = grpc.loadPackageDefinition(def).stud.v1;
const rpcTypes = protobuf.loadSync([path.join(PROTO_DIR, 'google/rpc/status.proto'),
  path.join(PROTO_DIR, 'google/rpc/error_details.proto')]);

// The rule ID of a refused action: ErrorInfo.reason in grpc-status-details-bin.
function ruleIdOf(err) {
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin')[0];
  if (!bin) return '';
  for (const any of rpcTypes.lookupType('google.rpc.Status').decode(bin).details) {
    if (any.type_url.endsWith('google.rpc.ErrorInfo')) return rpcTypes.lookupType('google.rpc.ErrorInfo').decode(any.value).reason;
  }
  return '';
}

function startServer(binary) {
  const proc = spawn(binary, ['--listen', '127.0.0.1:0', '--metrics_listen='], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).once('line', (line) => {
      const m = /^stud_server listening on (\S+)$/.exec(line);
      if (m) resolve({ proc, address: m[1] }); else reject(new Error(`bad ready line: ${line}`));
    });
  });
}

const cards = (list) => list.map((c) => (c.card || '[xx]') + (c.face_up ? '' : '*')).join(' ');
function showViews(u) {
  const pv = u.public_view;
  console.log(`-- ${pv.street}, ${pv.phase}, pot ${pv.pot_total}, to act: seat ${u.to_act}`);
  for (const s of pv.seats) console.log(`   public  seat ${s.seat} stack ${s.stack}  ${cards(s.cards)}`);
  for (const v of u.private_views) console.log(`   private seat ${v.seat}  ${cards(v.cards)}`);
}

async function main() {
  let server = null;
  let address = arg('--server');
  if (arg('--stud_server')) { server = await startServer(arg('--stud_server')); address = server.address; }
  if (!address) throw new Error('give --server or --stud_server');
  const client = new stud.StudService(address, grpc.credentials.createInsecure());
  const call = (method, req) => new Promise((resolve, reject) => {
    client[method](req, { deadline: Date.now() + 10000 }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
  let ok = false;
  try {
    // 1. Deal: three seats, the service shuffles; every seat's private view.
    let u = (await call('NewHand', {
      variant: 'VARIANT_RAZZ', stakes: { preset: '$1-$2' }, dealing_mode: 'DEALING_MODE_SERVICE',
      seats: [1, 2, 3].map((seat) => ({ seat, stack: 2000 })), private_view_seats: [1, 2, 3],
    })).update;
    showViews(u);

    // 2. A rule error: the seat that must bring in tries to check.
    let rule = '';
    try {
      await call('ApplyAction', { token: u.token, action: { kind: 'ACTION_KIND_CHECK', seat: u.to_act } });
    } catch (err) {
      rule = ruleIdOf(err);
      console.log(`refused: code ${err.code}, rule ${rule}: ${err.details}`);
    }

    // 3. Play it out: bring in, then check or call; show at showdown.
    const prefer = ['ACTION_KIND_BRING_IN', 'ACTION_KIND_CHECK', 'ACTION_KIND_CALL', 'ACTION_KIND_SHOW'];
    let street = u.public_view.street;
    while (u.public_view.phase !== 'PHASE_COMPLETE') {
      const rank = (a) => (prefer.includes(a.kind) ? prefer.indexOf(a.kind) : 9);
      const pick = [...u.legal_actions].sort((a, b) => rank(a) - rank(b))[0];
      u = (await call('ApplyAction', {
        token: u.token, expected_version: u.version, private_view_seats: [1, 2, 3],
        action: { kind: pick.kind, seat: u.to_act, amount_to: pick.amount_to },
      })).update;
      for (const a of u.announcements) console.log(`   dealer: ${a.text}`);
      if (u.public_view.street !== street) { street = u.public_view.street; showViews(u); }
    }

    // 4. The showdown.
    const result = await call('ResolveShowdown', { token: u.token });
    for (const h of result.hands) console.log(`   seat ${h.seat}: ${h.low_name || h.high_name}`);
    for (const p of result.pots) console.log(`   pot ${p.index} of ${p.amount} to seats ${p.high_winners} (${p.rule_id})`);
    const won = Object.values(result.won).reduce((a, b) => a + Number(b), 0);

    // 5. The hand as PHH, and its replay through the rules.
    const { phh } = await call('ExportHandHistory', { token: u.token });
    const verdict = await call('ReplayHandHistory', { phh });
    console.log(`PHH export replayed: ${verdict.summary}`);
    ok = rule.startsWith('STUD-') && won > 0 && verdict.matches;
  } finally {
    client.close();
    if (server) server.proc.kill('SIGTERM');
  }
  console.log(`example finished: ${ok ? 'OK' : 'FAILED'}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => { console.error(err); process.exitCode = 1; });
