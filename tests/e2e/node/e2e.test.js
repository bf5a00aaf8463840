// End-to-end tests of the real stud_server binary from a Node client
// (@grpc/grpc-js + @grpc/proto-loader), run with `node --test e2e.test.js`.
//
// Environment: STUD_SERVER = path of the stud_server binary (required),
// STUD_PROTO_DIR = the repository's proto/ directory (default ../../../proto).
// Servers listen on 127.0.0.1 port 0 and are stopped by their own PIDs.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const SERVER = process.env.STUD_SERVER;
const PROTO_DIR = process.env.STUD_PROTO_DIR || path.join(__dirname, '..', '..', '..', 'proto');
if (!SERVER) throw new Error('set STUD_SERVER to the stud_server binary');

const def = protoLoader.loadSync(['stud/v1/stud.proto'], {
  includeDirs: [PROTO_DIR], keepCase: true, longs: Number, enums: String, defaults: true,
});
const studPkg = grpc.loadPackageDefinition(def).stud.v1;
const rpcRoot = protobuf.loadSync([
  path.join(PROTO_DIR, 'google/rpc/status.proto'), path.join(PROTO_DIR, 'google/rpc/error_details.proto'),
]);
const RpcStatus = rpcRoot.lookupType('google.rpc.Status');
const ErrorInfo = rpcRoot.lookupType('google.rpc.ErrorInfo');

function startServer(keyFile, allowPreset) {
  const args = ['--listen', '127.0.0.1:0', '--key_file', keyFile];
  if (allowPreset) args.push('--allow_preset');
  args.push('--allow_deck_reveal');  // a trusted client checks the deck commitment
  const proc = spawn(SERVER, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error('server start timeout')); }, 10000);
    const lines = readline.createInterface({ input: proc.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const m = /^stud_server listening on (\S+)$/.exec(line);
      if (!m) { proc.kill('SIGKILL'); reject(new Error(`bad ready line: ${line}`)); return; }
      const client = new studPkg.StudService(m[1], grpc.credentials.createInsecure());
      resolve({ proc, client, address: m[1] });
    });
  });
}

function stopServer(s) {
  s.client.close();
  return new Promise((resolve) => {
    const timer = setTimeout(() => s.proc.kill('SIGKILL'), 15000);
    s.proc.once('exit', () => { clearTimeout(timer); resolve(); });
    s.proc.kill('SIGTERM');
  });
}

function call(server, method, req) {
  return new Promise((resolve, reject) => {
    server.client[method](req, { deadline: Date.now() + 10000 }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

function reasonOf(err) {
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin')[0];
  if (!bin) return '';
  const st = RpcStatus.decode(bin);
  for (const any of st.details) {
    if (any.type_url.endsWith('google.rpc.ErrorInfo')) return ErrorInfo.decode(any.value).reason;
  }
  return '';
}

const naturalDeck = () => [...'23456789TJQKA'].flatMap((r) => [...'cdhs'].map((s) => r + s));

let tmp;
let keyFile;
let a;
let b;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stud-e2e-node-'));
  keyFile = path.join(tmp, 'keys.txt');
  fs.writeFileSync(keyFile, `3:${'ab'.repeat(32)}\n`);
  a = await startServer(keyFile, true);
  b = await startServer(keyFile, true);
});

after(async () => {
  await stopServer(a);
  await stopServer(b);
  fs.rmSync(tmp, { recursive: true, force: true });
});

function newHandRequest(variant, stacks, extra = {}) {
  return {
    variant, stakes: { preset: '$2-$4' }, dealing_mode: 'DEALING_MODE_SERVICE',
    seats: stacks.map((stack, i) => ({ seat: i + 1, stack })),
    private_view_seats: stacks.map((_, i) => i + 1), ...extra,
  };
}

// Deterministic choice: raise while allowed on odd hands (short stacks go all-in).
function choose(update, aggressive) {
  const legal = update.legal_actions;
  const find = (...kinds) => legal.find((l) => kinds.includes(l.kind));
  return find('ACTION_KIND_SHOW')
    || (aggressive && find('ACTION_KIND_RAISE', 'ACTION_KIND_BET', 'ACTION_KIND_COMPLETE'))
    || find('ACTION_KIND_CHECK', 'ACTION_KIND_CALL', 'ACTION_KIND_BRING_IN')
    || legal[0];
}

function checkViews(update) {
  const shown = new Set(update.public_view.seats.filter((s) => s.shown).map((s) => s.seat));
  const inPlay = new Set(update.private_views.flatMap((pv) => pv.cards.map((c) => c.card)));
  if (update.public_view.common_card) inPlay.add(update.public_view.common_card);
  for (const s of update.public_view.seats) {
    for (const c of s.cards) {
      if (c.card) assert.ok(inPlay.has(c.card), `public card ${c.card} not in play`);
      if (!c.face_up && !shown.has(s.seat)) assert.equal(c.card, '', 'a down card in the public view');
    }
  }
  for (const pv of update.private_views) {
    for (const op of pv.operations) {
      if (op.card) assert.ok(inPlay.has(op.card), `operation card ${op.card} not in play`);
      if (op.type === 'OPERATION_TYPE_DEAL' && !op.face_up && op.seat !== pv.seat && !shown.has(op.seat)) {
        assert.equal(op.card, '', `seat ${pv.seat} sees seat ${op.seat}'s down card`);
      }
    }
  }
}

test('complete hands of every variant with side pots, alternating two servers', async () => {
  let sidePots = 0;
  for (const variant of ['VARIANT_STUD', 'VARIANT_STUD_HI_LO', 'VARIANT_RAZZ']) {
    for (let hand = 0; hand < 4; ++hand) {
      const stacks = [6000, 900, 2500, 6000].slice(0, 3 + (hand % 2));
      const total = stacks.reduce((x, y) => x + y, 0);
      let update = (await call(a, 'NewHand', newHandRequest(variant, stacks))).update;
      for (let step = 0; step < 400 && update.public_view.phase !== 'PHASE_COMPLETE'; ++step) {
        checkViews(update);
        const view = update.public_view;
        assert.equal(view.seats.reduce((x, s) => x + s.stack, 0) + view.pot_total, total);
        const act = choose(update, hand % 2 === 0);
        const server = step % 2 === 0 ? b : a;
        update = (await call(server, 'ApplyAction', {
          token: update.token, expected_version: update.version,
          private_view_seats: stacks.map((_, i) => i + 1),
          action: { kind: act.kind, seat: update.to_act, amount_to: act.amount_to },
        })).update;
      }
      assert.equal(update.public_view.phase, 'PHASE_COMPLETE');
      // The final update carries the commitment alone: the deck comes on request.
      assert.equal(update.public_view.deck_commitment.revealed_deck.length, 0);
      const dc = (await call(a, 'GetView', { token: update.token, reveal_deck: true }))
        .update.public_view.deck_commitment;
      assert.ok(dc.commitment.equals(update.public_view.deck_commitment.commitment));
      const digest = crypto.createHash('sha256')
        .update(dc.revealed_deck.join('')).update('/').update(dc.revealed_recycle_order.join(''))
        .update(dc.revealed_salt).digest();
      assert.ok(digest.equals(dc.commitment), 'deck commitment verifies');
      const settled = await call(b, 'ResolveShowdown', { token: update.token });
      sidePots += Math.max(0, settled.pots.length - 1);
      for (const s of update.public_view.seats) {
        assert.equal(s.stack, stacks[s.seat - 1] - s.committed + (settled.won[s.seat] || 0));
      }
    }
  }
  assert.ok(sidePots > 0, 'some hand built a side pot');
});

test('a tampered token is rejected', async () => {
  const update = (await call(a, 'NewHand', newHandRequest('VARIANT_STUD', [1000, 1000]))).update;
  const bad = Buffer.from(update.token);
  bad[bad.length - 3] ^= 0x40;
  await assert.rejects(call(b, 'GetView', { token: bad }), (err) => {
    assert.equal(err.code, grpc.status.UNAUTHENTICATED);
    assert.equal(reasonOf(err), 'TOKEN_AUTHENTICATION_FAILED');
    return true;
  });
});

test('PRESET is refused without --allow_preset and follows the deck with it', async () => {
  const strict = await startServer(keyFile, false);
  try {
    const req = newHandRequest('VARIANT_STUD', [1000, 1000],
      { dealing_mode: 'DEALING_MODE_PRESET', preset_deck: naturalDeck() });
    await assert.rejects(call(strict, 'NewHand', req), (err) => err.code === grpc.status.FAILED_PRECONDITION);
    const ok = (await call(a, 'NewHand', req)).update;
    assert.deepEqual(ok.private_views[0].cards.map((c) => c.card), ['2c', '2h', '3c']);
  } finally {
    await stopServer(strict);
  }
});

test('the same request on the same token gives the same answer on any replica', async () => {
  const update = (await call(a, 'NewHand', newHandRequest('VARIANT_RAZZ', [1000, 1000, 1000]))).update;
  const l = update.legal_actions[0];
  const req = { token: update.token, action: { kind: l.kind, seat: update.to_act, amount_to: l.amount_to } };
  const r1 = await call(a, 'ApplyAction', req);
  const r2 = await call(b, 'ApplyAction', req);
  assert.deepEqual(r1, r2);
});

test('an illegal action names its rule', async () => {
  const update = (await call(a, 'NewHand', newHandRequest('VARIANT_STUD_HI_LO', [1000, 1000]))).update;
  const req = { token: update.token, action: { kind: 'ACTION_KIND_RAISE', seat: update.to_act, amount_to: 99999 } };
  await assert.rejects(call(a, 'ApplyAction', req), (err) => {
    assert.equal(err.code, grpc.status.FAILED_PRECONDITION);
    assert.match(reasonOf(err), /^STUD-/);
    return true;
  });
});
