// Runs @stud/client's verifyReceipt (the browser verifier, in Node's WebCrypto)
// on one case file: {receipt, newhand, updates, cards, keys, mySeeds} as proto
// JSON (docs/fairness.md). Prints every failed check; exit 0 only when the
// receipt verifies. Used by ctest Fairness.EndToEnd on real hands.
//   node test/fairness_cli.mjs CASE.json
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = await build({
  stdin: { contents: 'export { verifyReceipt } from "./receipt_check.ts";', resolveDir: path.join(here, "..", "client", "src"), loader: "ts" },
  bundle: true, write: false, format: "esm", target: "es2020", logLevel: "warning",
});
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stud-fairness-")), "verifier.mjs");
fs.writeFileSync(file, out.outputFiles[0].text);
const { verifyReceipt } = await import(file);
const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const verdict = await verifyReceipt(input);
for (const c of verdict.checks) if (!c.ok) console.error(`FAILED: ${c.what}`);
console.log(`verifyReceipt: ${verdict.ok ? "receipt verified" : "REFUSED"} (${verdict.checks.length} checks)`);
fs.rmSync(path.dirname(file), { recursive: true, force: true });
process.exit(verdict.ok ? 0 : 1);
