// @stud/client's SeatSession in Node against the real thing: redis-server, two
// stud_server replicas (one key ring, a tenant that needs seat tickets, the
// ledger on) and a gateway in front of each (test/phones_stack.mjs). The
// platform deals with its API key; each session holds only its ticket.
//   - three sessions play a hand to the end by watching and acting: each sees
//     every version once, in order, from the deal to the end;
//   - a second device of the same seat, behind the hand, is refused
//     TOKEN_SUPERSEDED for another action, catches up and does not act
//     (ActionNoLongerLegalError); a third sending the same action gets the
//     ledger's exact-retry answer: the hand moves once;
//   - an action while Redis is paused is refused UNAVAILABLE LEDGER_UNAVAILABLE,
//     retried with the same token once Redis is back, and applied once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Code, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ActionKind, ActionNoLongerLegalError, SeatSession, StudService, Variant, errorDetails } from "../dist/client/index.mjs";
import { API_KEY, TENANT, startPhonesStack } from "./phones_stack.mjs";

let stack;
before(async () => {
  stack = await startPhonesStack();
});
after(async () => {
  await stack?.stop();
});

const transport = (gateway, interceptors = []) => createConnectTransport({ baseUrl: gateway, httpVersion: "1.1", interceptors });

async function deal(seats = 3) {
  const platform = createClient(StudService, transport(stack.gateways[0]));
  const dealt = await platform.newHand(
    {
      variant: Variant.STUD,
      stakes: { kind: { case: "preset", value: "$15-$30" } },
      seats: Array.from({ length: seats }, (_, i) => ({ seat: i + 1, stack: 20_000n })),
    },
    { headers: { "x-stud-tenant": TENANT, "x-stud-api-key": API_KEY } },
  );
  return { dealt, tickets: Object.fromEntries(dealt.seatTickets.map((t) => [t.seat, t.ticket])) };
}

// Resolves once `predicate(state)` holds; rejects after 15 s (a bound, not a measurement).
function until(session, predicate, what) {
  return new Promise((resolve, reject) => {
    if (session.state && predicate(session.state)) return resolve(session.state);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`seat ${session.seat}: ${what} did not happen within 15 s (version ${session.state?.version})`));
    }, 15_000);
    const off = session.on("update", (state) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      off();
      resolve(state);
    });
  });
}

function ended(session) {
  return new Promise((resolve, reject) => {
    if (session.connection === "ended") return resolve();
    const timer = setTimeout(() => reject(new Error(`seat ${session.seat}: the watch is ${session.connection} after 15 s`)), 15_000);
    const off = session.on("connection", (status) => {
      if (status !== "ended") return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

const passive = (state) => {
  const kinds = state.legalActions.map((a) => a.kind);
  const kind = [ActionKind.SHOW, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN].find((k) => kinds.includes(k)) ?? kinds[0];
  return state.legalActions.find((a) => a.kind === kind);
};

test("three sessions play a hand to the end through two replicas; each sees every version once, in order", { timeout: 120_000 }, async () => {
  const { dealt, tickets } = await deal(3);
  const sessions = [1, 2, 3].map(
    (seat) => new SeatSession({ transport: transport(stack.gateways[seat % 2]), seatTicket: tickets[seat], initialDelayMs: 50 }),
  );
  const versions = sessions.map(() => []);
  sessions.forEach((s, i) => s.on("update", (state) => versions[i].push(state.version)));
  await Promise.all(sessions.map((s) => s.start()));
  let version = dealt.update.version;
  for (let step = 0; step < 60; step++) {
    const states = await Promise.all(sessions.map((s) => until(s, (st) => st.version >= version, `version ${version}`)));
    if (states[0].complete) break;
    const i = states[0].toAct - 1;
    const legal = passive(sessions[i].state);
    version = (await sessions[i].act(legal.kind, legal.amountTo)).version;
  }
  await Promise.all(sessions.map((s) => until(s, (st) => st.complete, "the end")));
  for (const [i, seen] of versions.entries()) {
    const expected = Array.from({ length: Number(version - dealt.update.version) + 1 }, (_, k) => dealt.update.version + BigInt(k));
    assert.deepEqual(seen, expected, `seat ${i + 1}: every version once, in order`);
  }
  // Each watch then ends by itself: the stream ends OK after the last version.
  await Promise.all(sessions.map((s) => ended(s)));
  await Promise.all(sessions.map((s) => s.stop()));
});

test("a second device of a seat, behind the hand: another action is TOKEN_SUPERSEDED, the same one is the exact retry", { timeout: 60_000 }, async () => {
  const { dealt, tickets } = await deal(2);
  const seat = dealt.update.toAct;
  const device = (gateway) => new SeatSession({ transport: transport(stack.gateways[gateway]), seatTicket: tickets[seat] });
  const phone = device(0);
  const tablet = device(1);
  const laptop = device(1);
  const views = [];
  tablet.on("update", (_, __, source) => views.push(source));
  await phone.refresh();
  const behind = await tablet.refresh(); // neither the tablet nor the laptop watches
  await laptop.refresh();
  // The bring-in seat may bring in or complete: the phone brings in.
  const kinds = phone.state.legalActions.map((a) => a.kind);
  assert.deepEqual([kinds.includes(ActionKind.BRING_IN), kinds.includes(ActionKind.COMPLETE)], [true, true], `${kinds}`);
  const bringIn = phone.state.legalActions.find((a) => a.kind === ActionKind.BRING_IN);
  const complete = phone.state.legalActions.find((a) => a.kind === ActionKind.COMPLETE);
  const after = await phone.act(bringIn.kind, bringIn.amountTo);
  assert.equal(after.version, behind.version + 1n);
  // The tablet would complete on the old token: refused, caught up, not its turn any more.
  await assert.rejects(tablet.act(complete.kind, complete.amountTo), ActionNoLongerLegalError);
  assert.equal(tablet.state.version, after.version, "the tablet caught up");
  assert.deepEqual(views, ["view", "view"], "one GetView at start, one after TOKEN_SUPERSEDED");
  // The laptop sends the very call the phone made: the ledger answers it as the exact retry.
  const again = await laptop.act(bringIn.kind, bringIn.amountTo);
  assert.equal(again.version, after.version, "the same answer, not a second bring-in");
  assert.equal((await phone.refresh()).version, after.version, "the hand moved once");
});

test("an action while the ledger is paused: UNAVAILABLE, retried with the same token, applied once", { timeout: 60_000 }, async () => {
  const { dealt, tickets } = await deal(2);
  const seat = dealt.update.toAct;
  const seen = [];
  // Redis resumes when the first UNAVAILABLE reaches the device.
  const watchdog = (next) => async (req) => {
    try {
      const res = await next(req);
      if (req.method.name === "ApplyAction") seen.push("ok");
      return res;
    } catch (error) {
      const d = errorDetails(error);
      if (req.method.name === "ApplyAction") seen.push(`${Code[d.code]} ${d.reason}`);
      if (d.code === Code.Unavailable) process.kill(stack.redisPid, "SIGCONT");
      throw error;
    }
  };
  const session = new SeatSession({
    transport: transport(stack.gateways[1], [watchdog]),
    seatTicket: tickets[seat],
    initialDelayMs: 100,
    maxAttempts: 8,
  });
  const before = await session.refresh();
  const legal = passive(before);
  process.kill(stack.redisPid, "SIGSTOP");
  let after;
  try {
    after = await session.act(legal.kind, legal.amountTo);
  } finally {
    process.kill(stack.redisPid, "SIGCONT");
  }
  assert.equal(seen[0], "Unavailable LEDGER_UNAVAILABLE", JSON.stringify(seen));
  assert.equal(seen[seen.length - 1], "ok", JSON.stringify(seen));
  assert.equal(after.version, before.version + 1n);
  const latest = await new SeatSession({ transport: transport(stack.gateways[0]), seatTicket: tickets[seat] }).refresh();
  assert.equal(latest.version, after.version, "applied once");
});
