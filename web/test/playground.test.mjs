// The playground page in a real headless browser (Debian's chromium, driven by
// playwright-core) against the gateway and a real stud_server: a hand dealt by
// the service played to showdown with the deck commitment verified, and a live
// hand where the floor reports an exposed hole card and gets the rule book's
// ruling. The deck behind the commitment comes from GetView(reveal_deck), which
// the first server allows (--allow_deck_reveal) and a second one does not: the
// page then says the deck was not revealed. Screenshots go to web/test-artifacts/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startStack } from "./harness.mjs";

const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test-artifacts");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
let stack;
let browser;

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  stack = await startStack(["--allow_deck_reveal"]);
  browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

async function openPage(on = stack) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const problems = [];
  page.on("pageerror", (error) => problems.push(String(error)));
  // A refused call is shown on the page; the browser also logs its HTTP status.
  page.on("console", (m) => m.type() === "error" && !/status of 4\d\d/.test(m.text()) && problems.push(m.text()));
  await page.goto(on.gateway);
  return { page, problems };
}

// The page marks <body data-busy> while a step's calls are in flight.
const settled = (page) => page.waitForSelector("body:not([data-busy])", { state: "attached" });

// Clicks the most passive legal action until the hand is complete.
async function playToShowdown(page, preference = ["SHOW", "CHECK", "CALL", "BRING_IN"]) {
  for (let step = 0; step < 80; step++) {
    if (await page.locator("#showdown").isVisible()) return step;
    const kinds = await page.locator("#action-buttons button").evaluateAll((bs) => bs.map((b) => b.dataset.kind));
    assert.ok(kinds.length > 0, `legal actions are offered at step ${step}`);
    const kind = preference.find((k) => kinds.includes(k)) ?? kinds[0];
    await page.locator(`#action-buttons button[data-kind="${kind}"]`).first().click();
    await settled(page);
  }
  assert.fail("the hand did not end within 80 actions");
}

test("a hand dealt by the service, played to showdown, with the deck commitment verified", async () => {
  const { page, problems } = await openPage();
  // The hand hint of each call (docs/api.md): none on NewHand, the hand's id on the others.
  const hints = [];
  page.on("request", (r) => {
    const method = /StudService\/(\w+)$/.exec(r.url())?.[1];
    if (method) hints.push([method, r.headers()["x-stud-hand-id"]]);
  });
  await page.selectOption("#variant", "VARIANT_STUD_HI_LO");
  await page.fill("#seats", "4");
  await page.click("#deal");
  await settled(page);
  assert.match(await page.locator("#status").textContent(), /hi lo · betting · third street/);
  // Every seat shows three cards: its own two down cards come from its private view.
  for (let seat = 1; seat <= 4; seat++) {
    const cards = await page.locator(`#seat-${seat} .card`).allTextContents();
    assert.equal(cards.length, 3, `seat ${seat}`);
    assert.ok(cards.every((c) => /^[2-9TJQKA][cdhs]$/.test(c)), `seat ${seat}: ${cards}`);
  }
  const actions = await playToShowdown(page);
  assert.ok(actions >= 4, "at least the third-street round was played");
  assert.equal(await page.locator("#commitment").getAttribute("data-verified"), "true");
  // The signed receipt checked in the browser with WebCrypto (docs/fairness.md): the signature
  // with the key GetSigningKeys lists, the NewHand commitments, every seat's card proofs.
  await page.click("#verify");
  await settled(page);
  const checks = await page.locator("#verify-result").textContent();
  assert.equal(await page.locator("#verify-result").getAttribute("data-verified"), "true", checks);
  assert.match(checks, /Receipt verified \(\d+ checks/);
  assert.match(checks, /Ed25519 signature over the transcript/);
  assert.match(checks, /the NewHand answer published the receipt's deck root/);
  assert.match(await page.locator("#showdown-result").textContent(), /Pot 0 \(\d+\): seat \d \+\d+/);
  assert.ok((await page.locator("#log li").count()) > 20, "the operation log is shown");
  assert.ok((await page.locator("#announcements li").count()) > 0, "announcements are shown");
  await page.screenshot({ path: path.join(artifacts, "playground-showdown.png"), fullPage: true });
  const handId = (await page.locator("#status").textContent()).match(/hand ([0-9a-f]{32})/)?.[1];
  assert.ok(handId, "the page shows the hand's id");
  assert.deepEqual(hints.filter(([m]) => m === "NewHand"), [["NewHand", undefined]]);
  const later = hints.filter(([m]) => m !== "NewHand" && m !== "GetSigningKeys"); // the hand's own calls
  assert.ok(later.length >= 4 && later.every(([, h]) => h === handId), JSON.stringify(later));
  assert.deepEqual(problems, []);
  await page.close();
});

test("a live hand: cards reported by the dealer, an exposed hole card ruled STUD-IRR-EXP-1, in Spanish", async () => {
  const { page, problems } = await openPage();
  await page.selectOption("#dealing", "DEALING_MODE_LIVE");
  await page.selectOption("#locale", "LOCALE_ES");
  await page.click("#deal");
  await settled(page);
  assert.match(await page.locator("#expected-deal").textContent(), /seat 1, face down/);
  for (const card of ["Ah", "2c"]) {
    await page.fill("#live-card", card);
    await page.click("#report-card");
    await settled(page);
  }
  // The dealer turned seat 2's 2c face up: the floor reports it.
  await page.selectOption("#irregularity-kind", { label: "HOLECARD_EXPOSED" });
  await page.fill("#irregularity-seat", "2");
  await page.fill("#irregularity-cards", "2c");
  await page.click("#report-irregularity");
  await settled(page);
  assert.equal(await page.locator("#ruling").getAttribute("data-rule-id"), "STUD-IRR-EXP-1");
  const ruling = await page.locator("#ruling").textContent();
  assert.match(ruling, /THIRD_CARD_DOWN/);
  // A card the rules refuse: the error names the rule and is shown, not thrown.
  await page.fill("#live-card", "2c");
  await page.click("#report-card");
  await settled(page);
  assert.match(await page.locator("#error").textContent(), /FailedPrecondition|InvalidArgument/);
  await page.screenshot({ path: path.join(artifacts, "playground-live-ruling.png"), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a server without --allow_deck_reveal: the page says the deck was not revealed", async () => {
  const plain = await startStack();
  try {
    const { page, problems } = await openPage(plain);
    await page.fill("#seats", "2");
    await page.click("#deal");
    await settled(page);
    await playToShowdown(page, ["FOLD", "CHECK", "CALL", "BRING_IN"]);
    assert.equal(await page.locator("#commitment").getAttribute("data-verified"), "not-revealed");
    assert.match(await page.locator("#commitment").textContent(), /not revealed by this server/);
    await page.screenshot({ path: path.join(artifacts, "playground-not-revealed.png"), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await plain.stop();
  }
});
