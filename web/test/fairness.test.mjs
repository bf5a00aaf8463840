// The browser verifier (@stud/client's fairness.ts and receipt_check.ts) on the
// shared files: tests/data/fairness/vectors.json (stud-shuffle-v1: deck, recycle
// order, salts, leaves, root, audit paths) and receipts.json (honest receipts
// that must verify, forged ones that must be refused: a flipped transcript
// byte, a swapped card, a changed seed, a wrong key, a re-sealed deck). Runs in
// Node's WebCrypto and in headless chromium (Debian's, through playwright-core)
// unless FAIRNESS_NO_BROWSER is set. Part of ctest Fairness.Vectors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const data = path.join(here, "..", "..", "tests", "data", "fairness");
const vectors = JSON.parse(fs.readFileSync(path.join(data, "vectors.json"), "utf8"));
const receipts = JSON.parse(fs.readFileSync(path.join(data, "receipts.json"), "utf8"));

async function bundle(format) {
  const out = await build({
    stdin: {
      contents: 'export * from "./fairness.ts"; export { verifyReceipt } from "./receipt_check.ts";',
      resolveDir: path.join(here, "..", "client", "src"), loader: "ts",
    },
    bundle: true, write: false, format, globalName: "StudFairness", target: "es2020", logLevel: "warning",
  });
  return out.outputFiles[0].text;
}

// Every mismatch between F (the bundled verifier) and the files. Self-contained:
// it runs in the page too (page.evaluate serializes it).
async function runAll(F, vectors, receipts) {
  const bad = [];
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  const unhex = (s) => Uint8Array.from(s.match(/../g) ?? [], (x) => parseInt(x, 16));
  for (const c of vectors.cases) {
    const d = await F.derive(unhex(c.server_seed), unhex(c.hand_id), c.player_seeds.map(unhex));
    const same = (what, a, b) => { if (JSON.stringify(a) !== JSON.stringify(b)) bad.push(`${c.name}: ${what}`); };
    same("prk", hex(d.prk), c.prk);
    same("context", hex(d.context), c.context);
    same("deck", d.deck.map(F.cardCode), c.deck);
    same("recycle_order", d.recycleOrder, c.recycle_order);
    same("salts", d.salts.map(hex), c.salts);
    same("leaves", d.leaves.map(hex), c.leaves);
    same("deck_root", hex(d.root), c.deck_root);
    same("server_seed_commitment", hex(d.serverSeedCommitment), c.server_seed_commitment);
    for (const a of c.audit_paths) {
      same(`audit path ${a.position}`, (await F.auditPath(a.position, d.leaves)).map(hex), a.path);
      if (!(await F.verifyCardProof(d.root, a.position, a.card, unhex(a.salt), a.path.map(unhex)))) bad.push(`${c.name}: proof ${a.position} refused`);
      // The same proof at another position, with another card, or one hash flipped: refused.
      const path = a.path.map(unhex);
      path[0][0] ^= 1;
      const other = c.deck[(a.position + 1) % 52];
      for (const [what, ok] of [
        ["position", await F.verifyCardProof(d.root, (a.position + 1) % 52, a.card, unhex(a.salt), a.path.map(unhex))],
        ["card", await F.verifyCardProof(d.root, a.position, other, unhex(a.salt), a.path.map(unhex))],
        ["path", await F.verifyCardProof(d.root, a.position, a.card, unhex(a.salt), path)],
      ]) if (ok) bad.push(`${c.name}: proof ${a.position} with another ${what} accepted`);
    }
  }
  for (const c of receipts.cases) {
    const v = await F.verifyReceipt({ receipt: c.receipt, newhand: c.newhand, updates: c.updates, cards: c.cards, keys: c.keys, mySeeds: c.my_seeds });
    if (v.ok !== c.expect) bad.push(`receipt "${c.name}": ${v.ok ? "verified" : "refused"} (${v.checks.filter((x) => !x.ok).map((x) => x.what).join("; ")})`);
  }
  return bad;
}

test("Node WebCrypto: the vectors and every receipt", async () => {
  const file = path.join(here, "..", "dist", "fairness-test.mjs");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await bundle("esm"));
  const F = await import(file);
  assert.deepEqual(await runAll(F, vectors, receipts), []);
  // A check that can fail: a vector with one deck card changed is reported.
  const broken = structuredClone(vectors);
  broken.cases[0].deck[5] = broken.cases[0].deck[6];
  assert.equal((await runAll(F, { cases: [broken.cases[0]] }, { cases: [] })).length, 1);
});

let browser;
before(async () => {
  if (process.env.FAIRNESS_NO_BROWSER) return;
  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
});
after(async () => browser?.close());

test("chromium WebCrypto: the vectors and every receipt", { skip: !!process.env.FAIRNESS_NO_BROWSER }, async () => {
  const page = await browser.newPage();
  // WebCrypto lives only in secure contexts: a file:// page is one, about:blank is not.
  const html = path.join(here, "..", "dist", "fairness-test.html");
  fs.writeFileSync(html, "<!doctype html><title>fairness</title>");
  await page.goto(`file://${html}`);
  await page.addScriptTag({ content: await bundle("iife") });
  const bad = await page.evaluate(
    ([src, v, r]) => (0, eval)(`(${src})`)(globalThis.StudFairness, v, r),
    [runAll.toString(), vectors, receipts],
  );
  assert.deepEqual(bad, []);
  assert.equal(await page.evaluate(() => typeof globalThis.crypto.subtle.verify), "function");
});
