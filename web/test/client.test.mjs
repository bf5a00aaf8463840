// @stud/client's SeatSession against an in-process stand-in of the service
// (Connect's router transport): the watch's resume after a broken stream, the
// retries of UNAVAILABLE (the same call, same token and version), the refetch
// after TOKEN_SUPERSEDED, the bounds on both, and what is never retried. The
// stand-in keeps a ledger's line of versions and answers as docs/mobile.md
// says the service does; test/phones.test.mjs runs the same class in browsers
// against real servers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import {
  ActionKind,
  ActionNoLongerLegalError,
  ErrorInfoSchema,
  HandUpdateSchema,
  Phase,
  SeatSession,
  StudService,
  ownCards,
  UpdateDetail,
  Variant,
  readSeatTicket,
  recoveryFor,
  ticketFromBase64,
  ticketToBase64Url,
} from "../dist/client/index.mjs";

const HAND = "0123456789abcdef0123456789abcdef";

function ticketFor(seat, hand = HAND) {
  const t = new Uint8Array(40);
  t.set([0x53, 0x54, 1, 0, 0, 0, 3]);
  t.set(Buffer.from(hand, "hex"), 7);
  t[23] = seat;
  t.fill(0xaa, 24);
  return t;
}

function refusal(code, reason, message = reason) {
  return new ConnectError(message, code, undefined, [{ desc: ErrorInfoSchema, value: { reason, domain: "stud.v1" } }]);
}

// A two-seat hand of `length` versions: seats take turns, the last version is complete.
class FakeHand {
  constructor(length = 6) {
    this.length = length;
    this.versions = [];
    this.calls = [];
    this.fail = {}; // method -> array of errors thrown by the next calls, in order
    this.waiters = [];
    this.commit();
  }
  commit(actor = 0) {
    const version = BigInt(this.versions.length + 1);
    const complete = this.versions.length + 1 >= this.length;
    const toAct = complete ? 0 : (this.versions.length % 2) + 1;
    this.versions.push({
      version,
      token: new TextEncoder().encode(`token-${version}`),
      toAct,
      complete,
      operations: actor ? [{ index: this.versions.length + 1, type: 10, seat: actor }] : [{ index: 0, type: 1 }],
    });
    for (const wake of this.waiters.splice(0)) wake();
  }
  latest() {
    return this.versions[this.versions.length - 1];
  }
  update(v, detail) {
    const full = detail !== UpdateDetail.COMPACT;
    return create(HandUpdateSchema, {
      token: v.token,
      version: v.version,
      toAct: v.toAct,
      legalActions: v.toAct ? [{ kind: ActionKind.CALL, amountTo: 100n }] : [],
      operations: v.operations,
      publicView: {
        version: v.version,
        handId: HAND,
        phase: v.complete ? Phase.COMPLETE : Phase.BETTING,
        toAct: v.toAct,
        variant: full ? Variant.STUD : Variant.UNSPECIFIED,
        // Compact: only the seats this version touched, and the private view's down cards.
        seats: [1, 2]
          .filter((seat) => full || v.operations.some((op) => op.seat === seat))
          .map((seat) => ({ seat, stack: 1000n - v.version, cards: [{ card: "" }, { card: seat === 2 ? "Kd" : "9h", faceUp: true }, { card: "" }] })),
      },
      privateViews: [{ seat: 1, cards: full ? [{ card: "As" }, { card: "", faceUp: true }, { card: "2c" }] : [{ card: "As" }, { card: "2c" }] }],
    });
  }
  // Every call's hand hint (the x-stud-hand-id header), then maybeFail.
  received(method, context) {
    this.hints = (this.hints ?? []).concat(context.requestHeader.get("x-stud-hand-id"));
    this.maybeFail(method);
  }
  maybeFail(method) {
    this.calls.push(method);
    const error = this.fail[method]?.shift();
    if (error) throw error;
  }
  transport() {
    const hand = this;
    return createRouterTransport(({ service }) =>
      service(StudService, {
        getView(req, context) {
          hand.received("getView", context);
          assert.equal(req.handId, HAND);
          return { update: hand.update(hand.latest(), UpdateDetail.FULL) };
        },
        applyAction(req, context) {
          hand.received("applyAction", context);
          hand.applied = (hand.applied ?? []).concat({ token: new TextDecoder().decode(req.token), expected: req.expectedVersion });
          const latest = hand.latest();
          if (new TextDecoder().decode(req.token) !== new TextDecoder().decode(latest.token)) {
            throw refusal(Code.Aborted, "TOKEN_SUPERSEDED");
          }
          if (req.expectedVersion !== latest.version) throw refusal(Code.Aborted, "VERSION_MISMATCH");
          hand.commit(req.action.seat);
          return { update: hand.update(hand.latest(), req.detail) };
        },
        async *watchHand(req, context) {
          hand.watchRequests = (hand.watchRequests ?? []).concat(req.afterVersion);
          hand.watchDeadlines = (hand.watchDeadlines ?? []).concat(context.timeoutMs());
          hand.received("watchHand", context);
          let next = Number(req.afterVersion);
          let sent = 0;
          for (;;) {
            while (next < hand.versions.length) {
              const v = hand.versions[next++];
              yield { update: hand.update(v, req.detail) };
              if (v.complete) return;
              if (hand.breakAfter !== undefined && ++sent >= hand.breakAfter) {
                hand.breakAfter = undefined;
                throw refusal(Code.Unavailable, "", "connection reset");
              }
            }
            await new Promise((resolve) => {
              hand.waiters.push(resolve);
              context.signal.addEventListener("abort", resolve, { once: true });
            });
            if (context.signal.aborted) return;
          }
        },
      }),
    );
  }
}

function session(hand, seat = 1, extra = {}) {
  return new SeatSession({ transport: hand.transport(), seatTicket: ticketFor(seat), initialDelayMs: 1, maxDelayMs: 4, ...extra });
}

function collect(s) {
  const seen = [];
  s.on("update", (state, update, source) => seen.push({ version: update.version, source, variant: state.publicView.variant }));
  return seen;
}

const ended = (s) =>
  new Promise((resolve) => {
    if (s.connection === "ended" || s.connection === "failed") return resolve(s.connection);
    s.on("connection", (status) => (status === "ended" || status === "failed") && resolve(status));
  });

test("a seat ticket's hand id and seat are read; base64url round trip; a wrong ticket is refused", () => {
  assert.deepEqual(readSeatTicket(ticketFor(3)), { handId: HAND, seat: 3 });
  assert.deepEqual(ticketFromBase64(ticketToBase64Url(ticketFor(2))), ticketFor(2));
  assert.throws(() => readSeatTicket(new Uint8Array(39)), /40 bytes/);
  assert.throws(() => readSeatTicket(new TextEncoder().encode("SK".padEnd(40, "x"))), /not a seat ticket/);
  assert.throws(() => new SeatSession({ transport: new FakeHand().transport(), seatTicket: ticketFor(1), handId: "ff".repeat(16) }), /for hand 0123/);
});

test("what each refusal calls for", () => {
  assert.equal(recoveryFor(refusal(Code.Unavailable, "LEDGER_UNAVAILABLE")), "retry");
  assert.equal(recoveryFor(refusal(Code.ResourceExhausted, "SERVER_OVERLOADED")), "retry");
  assert.equal(recoveryFor(refusal(Code.Aborted, "TOKEN_SUPERSEDED")), "refetch");
  assert.equal(recoveryFor(refusal(Code.Aborted, "HAND_ID_MISMATCH")), "fatal");
  assert.equal(recoveryFor(refusal(Code.PermissionDenied, "SEAT_TICKET_INVALID")), "fatal");
  assert.equal(recoveryFor(refusal(Code.FailedPrecondition, "HAND_NOT_IN_LEDGER")), "fatal");
  assert.equal(recoveryFor(ConnectError.from(new TypeError("Failed to fetch"))), "retry");
  assert.equal(recoveryFor(new ConnectError("boom", Code.Unknown)), "fatal");
});

test("start: the latest state, then every later version once and in order, compact views completed", async () => {
  const hand = new FakeHand(5);
  hand.commit(1); // version 2 exists before the device starts
  const s = session(hand, 1);
  const seen = collect(s);
  const state = await s.start();
  assert.equal(state.version, 2n);
  assert.equal(state.privateView.cards[0].card, "As");
  hand.commit(2);
  hand.commit(1);
  hand.commit(2);
  assert.equal(await ended(s), "ended");
  assert.deepEqual(seen.map((x) => x.version), [2n, 3n, 4n, 5n]);
  assert.deepEqual(seen.map((x) => x.source), ["view", "watch", "watch", "watch"]);
  // The watch asks for compact updates; the session fills the fixed facts in.
  assert.ok(seen.every((x) => x.variant === Variant.STUD));
  assert.equal(s.state.complete, true);
  assert.deepEqual(hand.watchRequests, [2n]);
  // Its own deadline (60 s), so that a gateway's shorter default does not apply.
  assert.ok(hand.watchDeadlines[0] > 50_000 && hand.watchDeadlines[0] <= 60_000, `${hand.watchDeadlines}`);
  // Seats a compact version did not touch are kept from before; the compact
  // private view's down cards fill the seat's hidden cards in order.
  assert.deepEqual(s.state.publicView.seats.map((x) => [x.seat, x.stack]), [[1, 996n], [2, 995n]]);
  assert.deepEqual(ownCards(s.state).map((c) => c.card), ["As", "9h", "2c"]);
});

test("a broken watch is reopened after the last version seen: no gap, no repeat", async () => {
  const hand = new FakeHand(8);
  hand.breakAfter = 2;
  hand.fail.watchHand = [refusal(Code.Unavailable, "LEDGER_UNAVAILABLE"), refusal(Code.DeadlineExceeded, "")];
  const s = session(hand, 1);
  const seen = collect(s);
  const statuses = [];
  s.on("connection", (status) => statuses.push(status));
  await s.start();
  for (let i = 0; i < 7; i++) hand.commit((i % 2) + 1);
  assert.equal(await ended(s), "ended");
  assert.deepEqual(seen.map((x) => x.version), [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
  // Refused twice at version 1, then versions 2-3 before the break, then resumed after 3.
  assert.deepEqual(hand.watchRequests.slice(0, 3), [1n, 1n, 1n]);
  assert.ok(hand.watchRequests.includes(3n), `resumed after version 3: ${hand.watchRequests}`);
  assert.ok(statuses.includes("reconnecting"));
});

test("act retries UNAVAILABLE with the same token and expected version", async () => {
  const hand = new FakeHand(6);
  const s = session(hand, 1);
  await s.refresh();
  hand.fail.applyAction = [refusal(Code.Unavailable, "LEDGER_UNAVAILABLE"), refusal(Code.Unavailable, "")];
  const state = await s.act(ActionKind.CALL, 100n);
  assert.equal(state.version, 2n);
  assert.deepEqual(hand.calls.filter((c) => c === "applyAction").length, 3);
  assert.deepEqual(hand.applied, [{ token: "token-1", expected: 1n }]);
  // Every call, retries included, names the hand for the gateway's placement.
  assert.deepEqual(hand.hints, [HAND, HAND, HAND, HAND]);
});

test("act after TOKEN_SUPERSEDED refetches and retries only while the action is still legal", async () => {
  const hand = new FakeHand(8);
  const s = session(hand, 1);
  await s.refresh(); // version 1, seat 1 to act
  hand.commit(1); // seat 1 acted elsewhere (another tab): version 2, seat 2 to act
  hand.commit(2); // version 3, seat 1 to act again
  const state = await s.act(ActionKind.CALL, 100n);
  assert.equal(state.version, 4n);
  assert.deepEqual(hand.applied, [
    { token: "token-1", expected: 1n },
    { token: "token-3", expected: 3n },
  ]);
  const other = session(hand, 1);
  await other.refresh(); // version 4, seat 2 to act: not seat 1's turn
  await assert.rejects(other.act(ActionKind.CALL, 100n), ActionNoLongerLegalError);
});

test("retries are bounded; a refusal no retry helps is not retried", async () => {
  const hand = new FakeHand(6);
  const s = session(hand, 1, { maxAttempts: 3 });
  const errors = [];
  s.on("error", (e, during) => errors.push(`${during}:${Code[e.code]}`));
  hand.fail.getView = Array.from({ length: 5 }, () => refusal(Code.Unavailable, "LEDGER_UNAVAILABLE"));
  await assert.rejects(s.refresh(), (e) => e.code === Code.Unavailable);
  assert.equal(hand.calls.filter((c) => c === "getView").length, 3);
  hand.fail.getView = [refusal(Code.PermissionDenied, "SEAT_TICKET_INVALID")];
  await assert.rejects(s.refresh(), (e) => e.code === Code.PermissionDenied);
  assert.equal(hand.calls.filter((c) => c === "getView").length, 4);
  assert.deepEqual(errors, ["GetView:Unavailable", "GetView:PermissionDenied"]);
  // A watch refused for good stops and says so.
  hand.fail.getView = [];
  hand.fail.watchHand = [refusal(Code.FailedPrecondition, "HAND_NOT_IN_LEDGER")];
  await s.start();
  assert.equal(await ended(s), "failed");
  assert.ok(errors.includes("WatchHand:FailedPrecondition"));
});

test("an idle watch is reopened without counting as a failure; trimmed history is caught up by GetView", async () => {
  const hand = new FakeHand(4);
  const idle = () => refusal(Code.Unavailable, "WATCH_IDLE");
  hand.fail.watchHand = [idle(), idle(), idle(), idle(), refusal(Code.FailedPrecondition, "WATCH_HISTORY_GONE"), idle()];
  const s = session(hand, 1, { maxAttempts: 2 });
  const seen = collect(s);
  await s.start();
  for (let i = 0; i < 3; i++) hand.commit((i % 2) + 1);
  assert.equal(await ended(s), "ended");
  // The GetView after WATCH_HISTORY_GONE jumps to the latest version (with the whole log).
  assert.deepEqual(seen.map((x) => x.version), [1n, 4n]);
  assert.deepEqual(seen.map((x) => x.source), ["view", "view"]);
  assert.ok(hand.calls.filter((c) => c === "getView").length >= 2, "WATCH_HISTORY_GONE: GetView again");
  assert.equal(recoveryFor(refusal(Code.ResourceExhausted, "SEAT_RATE_LIMITED")), "retry");
});

test("the package an app installs: npm run build in client/ gives ES modules that import and work", async () => {
  const client = new URL("../client/", import.meta.url);
  const build = spawnSync("npm", ["run", "--silent", "build"], { cwd: client, encoding: "utf8", timeout: 120_000 });
  assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
  const pkg = JSON.parse(fs.readFileSync(new URL("package.json", client), "utf8"));
  const built = await import(new URL(pkg.exports["."].import, client).href);
  assert.equal(typeof built.SeatSession, "function");
  assert.equal(built.StudService.typeName, "stud.v1.StudService");
  assert.deepEqual(built.readSeatTicket(ticketFor(2)), { handId: HAND, seat: 2 });
  assert.ok(fs.existsSync(new URL(pkg.exports["."].types, client)), "type declarations");
});
