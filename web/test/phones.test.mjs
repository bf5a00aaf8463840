// Three phones play a hand, end to end. The platform (this script) deals with
// its API key and hands each phone only its seat ticket; each phone is its own
// browser context in headless chromium (Debian's, driven by playwright-core)
// running web/playground/phone.html on @stud/client's SeatSession. Phones 1
// and 3 reach replica 1 through gateway 1 (Connect), phone 2 replica 2 through
// gateway 2 (gRPC-Web); both replicas share the key ring and the Redis ledger,
// and the tenant needs seat tickets. Nothing relays moves between phones: each learns the others'
// moves from its WatchHand stream and acts when its own buttons appear.
// Phone 3 folds on 4th street, phone 2 reloads mid-hand and resumes, phones 1
// and 2 show down. Every message each page decoded (and every HTTP answer body
// the browser finished reading) is checked: no card of another seat that was
// not shown at that version, and no deck reveal. Screenshots in
// $PHONES_ARTIFACTS (ctest: the build dir), else web/test-artifacts/;
// PHONES_DUMP=<file> also writes every message each phone received.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { chromium } from "playwright-core";
import { toBinary } from "@bufbuild/protobuf";
import {
  ActionKind,
  Phase,
  StudService,
  UpdateDetail,
  Variant,
  WatchHandResponseSchema,
  errorDetails,
  ticketToBase64Url,
} from "../dist/client/index.mjs";
import { API_KEY, TENANT, startPhonesStack } from "./phones_stack.mjs";

const artifacts =
  process.env.PHONES_ARTIFACTS ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test-artifacts");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const CARD = /"([2-9TJQKA][cdhs])"/g;
const SEATS = [1, 2, 3];
// Phone seat -> gateway index.
const GATEWAY_OF = { 1: 0, 2: 1, 3: 0 };

let stack;
let browser;
const platformHeaders = { "x-stud-tenant": TENANT, "x-stud-api-key": API_KEY };

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  stack = await startPhonesStack();
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

function platformClient(gateway) {
  return createClient(StudService, createConnectTransport({ baseUrl: gateway, httpVersion: "1.1" }));
}

// One phone: its own browser context (no shared storage), a page holding only
// its ticket in the address fragment, and everything it received.
async function openPhone(seat, ticket, handId) {
  const context = await browser.newContext({ viewport: { width: 420, height: 860 } });
  const phone = { seat, context, received: [], bodies: [], problems: [] };
  await context.exposeFunction("studRecord", (kind, json) => phone.received.push({ kind, json }));
  const page = await context.newPage();
  phone.page = page;
  page.on("pageerror", (error) => phone.problems.push(String(error)));
  page.on("console", (m) => m.type() === "error" && !/status of 4\d\d/.test(m.text()) && phone.problems.push(m.text()));
  // The bodies the browser read to the end (a stream cut by the reload is not).
  page.on("response", (response) => {
    if (!response.url().includes("/stud.v1.StudService/")) return;
    response.body().then(
      (body) => phone.bodies.push({ url: response.url(), text: body.toString("latin1") }),
      () => undefined,
    );
  });
  const protocol = seat === 2 ? "&protocol=grpc-web" : "";
  const url = `${stack.gateways[GATEWAY_OF[seat]]}/phone.html#hand=${handId}&ticket=${ticketToBase64Url(ticket)}${protocol}`;
  await page.goto(url);
  await page.waitForSelector('#connection[data-status="live"]', { timeout: 15_000 });
  return phone;
}

const state = (phone) =>
  phone.page.evaluate(() => {
    const s = window.session?.state;
    return s && { version: String(s.version), toAct: s.toAct, myTurn: s.myTurn, complete: s.complete, street: s.publicView.street };
  });

// Waits until this phone's watch has delivered a version at least `version`.
async function caughtUp(phone, version) {
  await phone.page.waitForFunction((v) => window.session?.state && window.session.state.version >= BigInt(v), String(version), {
    timeout: 15_000,
  });
}

test("three phones, each holding only its seat ticket, play a hand to showdown through two replicas", { timeout: 240_000 }, async () => {
  const platform = platformClient(stack.gateways[0]);
  // Without the API key the platform cannot deal.
  await assert.rejects(
    platform.newHand({ variant: Variant.STUD, stakes: { kind: { case: "preset", value: "$15-$30" } }, seats: [] }),
    (e) => ConnectError.from(e).code === Code.Unauthenticated,
  );
  const dealt = await platform.newHand(
    {
      variant: Variant.STUD,
      stakes: { kind: { case: "preset", value: "$15-$30" } },
      seats: SEATS.map((seat) => ({ seat, stack: 20_000n })),
    },
    { headers: platformHeaders },
  );
  const handId = dealt.update.publicView.handId;
  assert.match(handId, /^[0-9a-f]{32}$/);
  assert.deepEqual(
    { tickets: dealt.update.publicView.policy?.seatTickets, ledger: dealt.update.publicView.policy?.ledger },
    { tickets: true, ledger: true },
  );
  assert.equal(dealt.update.privateViews.length, 0, "the platform asked for no private view");
  const tickets = Object.fromEntries(dealt.seatTickets.map((t) => [t.seat, t.ticket]));

  const phones = {};
  for (const seat of SEATS) phones[seat] = await openPhone(seat, tickets[seat], handId);
  for (const seat of SEATS) {
    const cards = await phones[seat].page.locator("#my-cards .card").allTextContents();
    assert.equal(cards.length, 3, `phone ${seat} sees its three cards`);
    assert.ok(cards.every((c) => /^[2-9TJQKA][cdhs]$/.test(c)), `phone ${seat}: ${cards}`);
    const others = await phones[seat].page.locator("#seats-view .card.down").allTextContents();
    assert.ok(others.length === 4 && others.every((c) => c === "??"), `phone ${seat} sees others' down cards hidden: ${others}`);
  }

  let toAct = dealt.update.toAct;
  let version = dealt.update.version;
  let reloaded = false;
  let folded = false;
  let betOnFourth = false;
  const preference = ["SHOW", "CHECK", "CALL", "BRING_IN"];
  for (let step = 0; step < 60 && toAct !== 0; step++) {
    const phone = phones[toAct];
    // No relay: the phone to act learns of the previous action by watching.
    await caughtUp(phone, version);
    await phone.page.waitForSelector("#actions button", { timeout: 15_000 });
    const kinds = await phone.page.locator("#actions button").evaluateAll((bs) => bs.map((b) => b.dataset.kind));
    const s = await state(phone);
    let kind = preference.find((k) => kinds.includes(k)) ?? kinds[0];
    // On 4th street one of phones 1 and 2 bets, and phone 3 folds to it.
    if (toAct !== 3 && s.street === 4 && kinds.includes("BET") && !betOnFourth) {
      kind = "BET";
      betOnFourth = true;
    }
    if (toAct === 3 && s.street >= 4 && kinds.includes("FOLD") && !folded) {
      kind = "FOLD";
      folded = true;
    }
    await phone.page.locator(`#actions button[data-kind="${kind}"]`).first().click();
    await phone.page.waitForSelector("body:not([data-busy])", { state: "attached" });
    assert.equal(await phone.page.locator("#error").isVisible(), false, await phone.page.locator("#error").textContent());
    const after = await state(phone);
    assert.ok(BigInt(after.version) > version, `phone ${toAct}'s ${kind} was applied`);
    version = BigInt(after.version);
    toAct = after.complete ? 0 : after.toAct;
    // Mid-hand (5th street), phone 2 reloads: it has only the ticket in its
    // address, fetches the latest version by hand id and watches on from it.
    if (!reloaded && after.street >= 5 && toAct !== 0) {
      reloaded = true;
      await phones[2].page.screenshot({ path: path.join(artifacts, "phone-2-before-reload.png"), fullPage: true });
      await phones[2].page.reload();
      await phones[2].page.waitForSelector('#connection[data-status="live"]', { timeout: 15_000 });
      const resumed = await state(phones[2]);
      assert.equal(BigInt(resumed.version), version, "the reloaded phone resumes at the latest version");
      assert.equal(await phones[2].page.locator("#my-cards .card").count(), 5, "with its five cards");
    }
  }
  assert.equal(toAct, 0, "the hand ended within 60 actions");
  assert.ok(reloaded, "phone 2 reloaded mid-hand");
  assert.ok(folded, "phone 3 folded");

  for (const seat of SEATS) {
    await phones[seat].page.waitForSelector("body[data-complete]", { timeout: 15_000 });
    await caughtUp(phones[seat], version);
    assert.equal((await state(phones[seat])).version, String(version), `phone ${seat} ends at the last version`);
    await phones[seat].page.screenshot({ path: path.join(artifacts, `phone-${seat}-showdown.png`), fullPage: true });
    assert.match(await phones[seat].page.locator("#result").textContent(), /Pot 0 \(\d+\): seat [12] \+\d+/);
    assert.equal(await phones[seat].page.locator("#connection").getAttribute("data-status"), "ended");
    // Compact versions list only the seats they touched: the page still shows every other seat.
    assert.equal(await phones[seat].page.locator("#seats-view .seat").count(), 2, `phone ${seat} shows both other seats`);
    assert.equal(await phones[seat].page.locator("#my-cards .card").count(), seat === 3 ? 4 : 7, `phone ${seat}'s own cards`);
  }

  // Each seat's own down cards, as only that seat may see them (the platform
  // holds every ticket), and the seats that showed.
  const downCards = {};
  for (const seat of SEATS) {
    const view = await platform.getView({ handId, seatTicket: tickets[seat], privateViewSeats: [seat] });
    assert.equal(view.update.version, version);
    assert.equal(view.update.publicView.phase, Phase.COMPLETE);
    assert.equal(view.update.publicView.deckCommitment?.revealedDeck.length ?? 0, 0, "no deck reveal for a seat");
    const own = view.update.privateViews.find((p) => p.seat === seat);
    downCards[seat] = own.cards.filter((c) => !c.faceUp).map((c) => c.card);
    assert.equal(downCards[seat].length, seat === 3 ? 2 : 3, `seat ${seat}'s down cards`);
  }
  const final = await platform.getView({ handId, seatTicket: tickets[1] });
  const shown = final.update.publicView.seats.filter((s) => s.shown).map((s) => s.seat);
  assert.deepEqual(shown.sort(), [1, 2], "seats 1 and 2 showed down; seat 3 folded");

  // Every message each phone received: another seat's down card only where
  // that message itself shows the seat as shown (its cards are then public).
  for (const seat of SEATS) {
    const phone = phones[seat];
    assert.ok(phone.received.some((r) => r.kind === "WatchHand"), `phone ${seat} received watched versions`);
    let checked = 0;
    const check = (where, text, shownHere) => {
      for (const [, card] of text.matchAll(CARD)) {
        checked++;
        for (const other of SEATS.filter((o) => o !== seat)) {
          assert.ok(
            !downCards[other].includes(card) || shownHere.includes(other),
            `phone ${seat} received seat ${other}'s down card ${card} in ${where}: ${text.slice(0, 400)}`,
          );
        }
      }
      assert.doesNotMatch(text, /revealedDeck|revealed_deck/, `phone ${seat}: a deck reveal in ${where}`);
    };
    // A seat that showed stays shown: a later compact version lists only the
    // seats it touched, while its card proofs cover every shown hand.
    const shownSoFar = new Set();
    for (const { kind, json } of phone.received) {
      const message = JSON.parse(json);
      const seats = message.update?.publicView?.seats ?? [];
      for (const s of seats) if (s.shown) shownSoFar.add(s.seat);
      // ResolveShowdown answers only for the complete hand: the final shown seats.
      const shownHere = kind === "ResolveShowdown" ? shown : [...shownSoFar];
      check(kind, json, shownHere);
    }
    // The raw bodies: before showdown no other seat's down card at all; the
    // finished streams and final answers may hold only shown seats' cards.
    for (const { url, text } of phone.bodies) {
      check(url, text, /ResolveShowdown$/.test(url) || /"shown":true/.test(text) ? shown : []);
    }
    assert.ok(checked > 20, `phone ${seat}: ${checked} card strings checked`);
    assert.deepEqual(phone.problems, [], `phone ${seat}: page errors`);
  }
  if (process.env.PHONES_DUMP) fs.writeFileSync(process.env.PHONES_DUMP, JSON.stringify(Object.fromEntries(SEATS.map((s) => [s, phones[s].received])), null, 1));
  for (const seat of SEATS) await phones[seat].context.close();

  // The whole hand again from the ledger, as seat 1 sees it, through the other
  // gateway: every version once and in order, full and compact.
  const other = platformClient(stack.gateways[1]);
  const sizes = {};
  for (const [name, detail] of [["full", UpdateDetail.FULL], ["compact", UpdateDetail.COMPACT]]) {
    const versions = [];
    let bytes = 0;
    for await (const m of other.watchHand({ handId, seatTicket: tickets[1], afterVersion: 0n, detail })) {
      versions.push(m.update.version);
      bytes += toBinary(WatchHandResponseSchema, m).length;
      if (detail === UpdateDetail.COMPACT) assert.equal(m.update.publicView.variant, Variant.UNSPECIFIED, "compact: no fixed facts");
      else assert.equal(m.update.publicView.variant, Variant.STUD);
    }
    assert.deepEqual(versions, [...versions].sort((a, b) => (a < b ? -1 : 1)), `${name}: in order`);
    assert.equal(new Set(versions).size, versions.length, `${name}: each version once`);
    assert.equal(versions[versions.length - 1], version, `${name}: up to the last version`);
    sizes[name] = { messages: versions.length, bytes };
  }
  assert.ok(sizes.compact.bytes < sizes.full.bytes, JSON.stringify(sizes));

  // What a device is refused, as docs/mobile.md's table says.
  const refusal = async (call) => {
    try {
      await call;
    } catch (error) {
      return errorDetails(error);
    }
    assert.fail("the call was not refused");
  };
  const es = { headers: { "accept-language": "es" } };
  const stale = await refusal(
    other.applyAction(
      { token: dealt.update.token, seatTicket: tickets[1], expectedVersion: 0n, action: { kind: ActionKind.FOLD, seat: 1 } },
      es,
    ),
  );
  assert.deepEqual([Code[stale.code], stale.reason], ["Aborted", "TOKEN_SUPERSEDED"]);
  assert.match(stale.locale, /^es/, `a Spanish message: ${stale.message}`);
  const reveal = await refusal(other.getView({ handId, seatTicket: tickets[2], revealDeck: true }));
  assert.deepEqual([Code[reveal.code], reveal.reason], ["PermissionDenied", "DECK_REVEAL_NOT_PERMITTED"]);
  const forged = Uint8Array.from(tickets[3]);
  forged[39] ^= 1;
  const denied = await refusal(other.getView({ handId, seatTicket: forged }));
  // Without an API key, a ticket that is not authentic authenticates nobody.
  assert.deepEqual([Code[denied.code], denied.reason], ["Unauthenticated", "CALLER_UNAUTHENTICATED"]);
  // A phone's ticket names its hand: asking for another id is refused before
  // any lookup, so a phone cannot tell which hand ids exist.
  const unknown = await refusal(other.getView({ handId: "0".repeat(32), seatTicket: tickets[1] }));
  assert.deepEqual([Code[unknown.code], unknown.reason], ["PermissionDenied", "SEAT_TICKET_WRONG_HAND"]);
  console.log(`# refusals: ${JSON.stringify([stale, reveal, denied, unknown].map((d) => [Code[d.code], d.reason, d.message]))}`);
  console.log(`# WatchHand replay of the hand for seat 1: ${JSON.stringify(sizes)}`);
});
