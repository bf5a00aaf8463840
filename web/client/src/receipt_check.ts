// Checks a stud-receipt-v1 receipt (docs/fairness.md) in the browser: the same
// checks as tools/fairness/verify.py, with WebCrypto. verifyReceipt never
// throws on bad input: every failure is a check with ok = false, so a page
// shows exactly what did not hold.
import { cardCode, cardIndex, derive, fromHex, sha256, toBytes, toHex, verifyCardProof, type Derived } from "./fairness.js";

export interface Check {
  what: string;
  ok: boolean;
}
export interface Verdict {
  ok: boolean;
  checks: Check[];
}
export interface ReceiptInput {
  transcript: Uint8Array | string; // bytes, or base64
  signature: Uint8Array | string;
  publicKey?: Uint8Array | string; // from GetSigningKeys for keyId
  keyId?: string;
}
export interface VerifyInput {
  receipt: ReceiptInput | Record<string, unknown>;
  newhand?: unknown; // the NewHand answer: commitments published before any card
  updates?: unknown[]; // later answers (the one that closed seeding publishes the root)
  cards?: unknown[]; // anything holding card proofs (PrivateView.cardProofs ...)
  keys?: unknown; // a GetSigningKeys answer
  mySeeds?: string[]; // "SEAT:HEX": the seed a seat sent
}

type Obj = Record<string, unknown>;
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
function field(o: unknown, name: string): unknown {
  if (!o || typeof o !== "object") return undefined;
  const r = o as Obj;
  return r[name] ?? r[camel(name)];
}
function find(o: unknown, name: string): unknown {
  const got = field(o, name);
  if (got !== undefined) return got;
  if (o && typeof o === "object" && !(o instanceof Uint8Array)) {
    for (const v of Object.values(o as Obj)) {
      const x = find(v, name);
      if (x !== undefined) return x;
    }
  }
  return undefined;
}
interface Proof {
  position: number;
  card: string;
  salt: Uint8Array;
  path: Uint8Array[];
}
function proofsIn(o: unknown, out: Proof[] = []): Proof[] {
  if (!o || typeof o !== "object" || o instanceof Uint8Array) return out;
  if (Array.isArray(o)) {
    for (const v of o) proofsIn(v, out);
    return out;
  }
  const r = o as Obj;
  if ("card" in r && "salt" in r && ("path" in r || "position" in r)) {
    out.push({ position: Number(r.position ?? 0), card: String(r.card), salt: toBytes(r.salt), path: ((r.path as unknown[]) ?? []).map(toBytes) });
  } else {
    for (const v of Object.values(r)) proofsIn(v, out);
  }
  return out;
}

const KINDS: Record<string, string> = {
  deal: "deal", operation_type_deal: "deal", burn: "burn", operation_type_burn: "burn",
  common_card: "common", operation_type_common_card: "common", common: "common",
  recycle: "recycle", operation_type_recycle: "recycle", reshuffle: "recycle",
};
// (kind, seat, card) of one log entry: a text line or an object with type/seat/card.
function logEntry(e: unknown): [string | undefined, number, string] {
  if (e && typeof e === "object") {
    const r = e as Obj;
    return [KINDS[String(r.type ?? r.kind ?? "").toLowerCase()], Number(r.seat ?? 0), String(r.card ?? "")];
  }
  // "<index> <TYPE> seat=N street=S [card=XX] [up] ..."; a leading index is optional.
  const text = String(e);
  const words = text.trim().split(/[\s:,(]+/).filter((w) => w);
  const word = (/^\d+$/.test(words[0] ?? "") ? words[1] : words[0]) ?? "";
  const seat = /(?<![a-z_])seat[ =:]*(\d+)/i.exec(text);
  const card = /(?<![a-z_])card=([2-9TJQKA][cdhs])(?![0-9A-Za-z])/.exec(text) ?? /(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])/.exec(text);
  return [KINDS[word.split("=")[0].toLowerCase()], seat ? Number(seat[1]) : 0, card ? card[1] : ""];
}
interface Draw {
  kind: string;
  seat: number;
  card: string;
  position: number | undefined;
}
// The deal in log order (docs/dealing.md): positions 0, 1, 2, ... until a recycle,
// then the recycled pile sorted by the recycle order (known only with the deck).
function followDeal(log: unknown[], deck?: number[], recycleOrder?: number[]): Draw[] {
  const draws: Draw[] = [];
  let pos = 0;
  let pile: number[] = [], burns: number[] = [];
  for (const e of log) {
    const [kind, seat, card] = logEntry(e);
    if (!kind) continue;
    if (kind === "recycle") {
      if (deck && recycleOrder) {
        const rank = new Map(recycleOrder.map((c, i) => [c, i]));
        const gathered = [...Array.from({ length: 52 - pos }, (_, i) => pos + i), ...pile, ...burns];
        pile = gathered.sort((a, b) => rank.get(deck[a])! - rank.get(deck[b])!);
      } else pile = [];
      pos = 52;
      burns = [];
      continue;
    }
    let p: number | undefined;
    if (pos < 52) p = pos++;
    else if (pile.length) p = pile.shift();
    else if (card && deck) p = deck.indexOf(cardIndex(card));
    if (kind === "burn" && p !== undefined) burns.push(p);
    draws.push({ kind, seat, card, position: p });
  }
  return draws;
}

export async function verifyReceipt(input: VerifyInput): Promise<Verdict> {
  const checks: Check[] = [];
  const check = (ok: boolean, what: string) => (checks.push({ what, ok }), ok);
  try {
    await run(input, check);
  } catch (e) {
    check(false, `readable input (${e instanceof Error ? e.message : String(e)})`);
  }
  return { ok: checks.length > 0 && checks.every((c) => c.ok), checks };
}

async function run(input: VerifyInput, check: (ok: boolean, what: string) => boolean): Promise<void> {
  const rec = input.receipt as Obj;
  const transcript = toBytes(field(rec, "transcript"));
  const sig = toBytes(field(rec, "signature"));
  const pk = toBytes(field(rec, "public_key"));
  const keyId = String(field(rec, "key_id") ?? "");
  if (!check(pk.length === 32, "public key is 32 bytes")) return;
  const want = toHex((await sha256(pk)).slice(0, 8));
  check(keyId === want, `key_id ${keyId} is SHA-256(public key)[:8] (${want})`);
  if (input.keys !== undefined) {
    const listed = ((field(input.keys, "keys") as unknown[]) ?? []).map((k) => toHex(toBytes(field(k, "public_key"))));
    check(listed.includes(toHex(pk)), "the public key is one GetSigningKeys lists");
  }
  let sigOk = false;
  if (sig.length === 64) {
    const key = await globalThis.crypto.subtle.importKey("raw", pk, { name: "Ed25519" }, false, ["verify"]);
    sigOk = await globalThis.crypto.subtle.verify({ name: "Ed25519" }, key, sig, transcript);
  }
  check(sigOk, "Ed25519 signature over the transcript");

  let t: Obj;
  try {
    t = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(transcript)) as Obj;
  } catch {
    check(false, "transcript is UTF-8 JSON");
    return;
  }
  if (!check(t.format === "stud-receipt-v1", "transcript format is stud-receipt-v1")) return;
  const handId = fromHex(String(t.hand_id ?? ""));
  check(handId.length === 16, "hand_id is 16 bytes");
  const seats = Array.isArray(t.seats) ? t.seats : [];
  check(seats.length > 0 && seats.length <= 8, "seats listed");
  const service = t.dealing === "SERVICE";
  let commitment: Uint8Array | undefined, root: Uint8Array | undefined, seeds: Uint8Array[] = [];
  if (service) {
    commitment = fromHex(String(t.server_seed_commitment ?? ""));
    root = fromHex(String(t.deck_root ?? ""));
    check(commitment.length === 32 && root.length === 32, "server seed commitment and deck root are 32 bytes");
    seeds = ((t.player_seeds as string[] | undefined) ?? seats.map(() => "")).map(fromHex);
    check(seeds.length === seats.length, "one player seed per seat");
    check(seeds.every((s) => s.length <= 64), "player seeds are at most 64 bytes");
  }
  let d: Derived | undefined;
  if (t.server_seed !== undefined) {
    check(service, "a server seed only in a SERVICE hand");
    const seed = fromHex(String(t.server_seed));
    check(equal(await sha256(seed), commitment), "SHA-256(server_seed) is the server seed commitment");
    d = await derive(seed, handId, seeds);
    check(equal(d.root, root), "the deck recomputed from the seeds has the receipt's deck root");
  }
  const codes = d?.deck.map(cardCode);
  const draws = followDeal((t.log as unknown[]) ?? [], d?.deck, d?.recycleOrder);
  if (d && codes) {
    const bad = draws.find((x) => x.card && (x.position === undefined || codes[x.position] !== x.card));
    check(!bad, `every card in the log is the deck's card at its position${bad ? `: ${bad.card} at seat ${bad.seat} is not` : ""}`);
    for (const s of ((t.shown as Obj[]) ?? [])) {
      const seat = Number(s.seat ?? 0);
      const dealt = draws.filter((x) => x.kind === "deal" && x.seat === seat && x.position !== undefined).map((x) => codes[x.position!]).sort();
      const shown = [...((s.cards as string[]) ?? [])].sort();
      check(shown.join(" ") === dealt.join(" "), `seat ${seat} showed the cards the deck dealt it (${dealt.join(" ")})`);
    }
  }
  const byPosition = new Map<number, string>();
  for (const x of draws) if (x.card && x.position !== undefined) byPosition.set(x.position, x.card);

  const proofs = async (o: unknown, name: string): Promise<number> => {
    const list = proofsIn(o);
    for (const pr of list) {
      const what = `${name}: ${pr.card} at position ${pr.position}`;
      check(!!root && (await verifyCardProof(root, pr.position, pr.card, pr.salt, pr.path)), `${what} is proven against the deck root`);
      const logged = byPosition.get(pr.position);
      if (logged !== undefined) check(logged === pr.card, `${what} is the card the log shows there (${logged})`);
      if (d && codes) check(codes[pr.position] === pr.card && equal(d.salts[pr.position], pr.salt), `${what} is the recomputed deck's`);
    }
    return list.length;
  };
  const commitments = async (answer: unknown, name: string, atNewHand: boolean) => {
    const id = find(answer, "hand_id");
    if (id !== undefined) check(id === toHex(handId), `${name} is for the receipt's hand`);
    if (!service) return;
    const fair = find(answer, "fairness");
    if (!check(!!fair && typeof fair === "object", `${name} carries the fairness data`)) return;
    check(equal(toBytes(field(fair, "server_seed_commitment")), commitment), `${name} published the receipt's server seed commitment`);
    const r = toBytes(field(fair, "deck_root"));
    if (r.length || !atNewHand) check(equal(r, root), `${name} published the receipt's deck root`);
    await proofs(answer, name);
  };
  if (input.newhand !== undefined) await commitments(input.newhand, "the NewHand answer", true);
  for (const [i, u] of (input.updates ?? []).entries()) await commitments(u, `update ${i + 1}`, false);
  for (const [i, c] of (input.cards ?? []).entries()) check((await proofs(c, `cards ${i + 1}`)) > 0, `cards ${i + 1} hold card proofs`);
  for (const spec of input.mySeeds ?? []) {
    const [seat, hex] = spec.split(":");
    const i = Number(seat) - 1;
    check(i >= 0 && i < seeds.length && toHex(seeds[i]) === (hex ?? ""), `seat ${seat}'s seed is in the receipt`);
  }
}

function equal(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);
}
