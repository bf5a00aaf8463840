// Verifiable hands in the browser (docs/fairness.md): stud-shuffle-v1, the deck
// Merkle tree and stud-receipt-v1 receipts, with WebCrypto alone (SHA-256,
// HMAC-SHA256, Ed25519), so a page checks a hand without trusting the server.
// The Python reference (tools/fairness/verify.py) makes the same checks; both
// pass tests/data/fairness/vectors.json and receipts.json (ctest Fairness.Vectors).
//
// Inputs are plain objects: proto JSON (camelCase, bytes as base64) or the
// generated messages (bytes as Uint8Array); snake_case names work too.

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const enc = new TextEncoder();
const subtle = (): SubtleCrypto => globalThis.crypto.subtle;

export function cardCode(index: number): string {
  return RANKS[Math.floor(index / 4)] + SUITS[index % 4];
}
export function cardIndex(code: string): number {
  const r = RANKS.indexOf(code[0] ?? "?"), s = SUITS.indexOf(code[1] ?? "?");
  return code.length === 2 && r >= 0 && s >= 0 ? r * 4 + s : -1;
}
export function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
export function fromHex(s: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(s)) throw new Error(`not lowercase hex: ${s.slice(0, 20)}`);
  return Uint8Array.from(s.match(/../g) ?? [], (x) => parseInt(x, 16));
}
// Bytes given as Uint8Array, or base64 / base64url text (proto JSON).
export function toBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v === undefined || v === null || v === "") return new Uint8Array(0);
  const s = String(v).replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(s)) throw new Error("not base64");
  const bin = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
function cat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) (out.set(p, o), (o += p.length));
  return out;
}
function equal(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]);
}
const u32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const lp = (b: Uint8Array) => cat(u32(b.length), b);

export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest("SHA-256", data));
}
async function hmac(key: Uint8Array, msg: Uint8Array): Promise<Uint8Array> {
  const k = await subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle().sign("HMAC", k, msg));
}

// Stream(label) = T(label, 0) || T(label, 1) || ..., T = HMAC-SHA256(PRK, LP(label) || context || u32be(k)).
class Stream {
  private buf = new Uint8Array(0);
  private counter = 0;
  constructor(private key: CryptoKey, private prefix: Uint8Array) {}
  async read(n: number): Promise<Uint8Array> {
    while (this.buf.length < n) {
      const block = new Uint8Array(await subtle().sign("HMAC", this.key, cat(this.prefix, u32(this.counter++))));
      this.buf = cat(this.buf, block);
    }
    const out = this.buf.slice(0, n);
    this.buf = this.buf.slice(n);
    return out;
  }
  // Uniform in [0, m) by rejection: u32be u, kept when u < 2^32 - (2^32 mod m).
  async uniform(m: number): Promise<number> {
    const limit = 2 ** 32 - (2 ** 32 % m);
    for (;;) {
      const b = await this.read(4);
      const u = ((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3];
      if (u < limit) return u % m;
    }
  }
}

async function permutation(s: Stream): Promise<number[]> {
  const a = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; --i) {
    const j = await s.uniform(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export interface Derived {
  prk: Uint8Array;
  context: Uint8Array;
  deck: number[]; // card index by position
  recycleOrder: number[];
  salts: Uint8Array[];
  leaves: Uint8Array[];
  root: Uint8Array;
  serverSeedCommitment: Uint8Array;
}

// stud-shuffle-v1: everything a hand derives from its seeds (seeds in seat order, empty = none).
export async function derive(serverSeed: Uint8Array, handId: Uint8Array, seeds: Uint8Array[]): Promise<Derived> {
  const prk = await hmac(enc.encode("stud-shuffle-v1"), serverSeed);
  const context = cat(lp(handId), new Uint8Array([seeds.length]), ...seeds.map(lp));
  const key = await subtle().importKey("raw", prk, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const stream = (label: string) => new Stream(key, cat(lp(enc.encode(label)), context));
  const deck = await permutation(stream("deck"));
  const recycleOrder = await permutation(stream("recycle"));
  const saltBytes = await stream("salt").read(16 * 52);
  const salts = Array.from({ length: 52 }, (_, p) => saltBytes.slice(16 * p, 16 * p + 16));
  const leaves = await Promise.all(deck.map((c, p) => leafHash(p, cardCode(c), salts[p])));
  return { prk, context, deck, recycleOrder, salts, leaves, root: await merkleRoot(leaves), serverSeedCommitment: await sha256(serverSeed) };
}

export function leafHash(position: number, code: string, salt: Uint8Array): Promise<Uint8Array> {
  return sha256(cat(new Uint8Array([0, position]), enc.encode(code), salt));
}
const nodeHash = (l: Uint8Array, r: Uint8Array) => sha256(cat(new Uint8Array([1]), l, r));
const split = (n: number) => { let k = 1; while (k * 2 < n) k *= 2; return k; };

export async function merkleRoot(leaves: Uint8Array[]): Promise<Uint8Array> {
  if (leaves.length === 1) return leaves[0];
  const k = split(leaves.length);
  return nodeHash(await merkleRoot(leaves.slice(0, k)), await merkleRoot(leaves.slice(k)));
}
// RFC 6962 PATH(m, D[n]): sibling hashes from the leaf up.
export async function auditPath(m: number, leaves: Uint8Array[]): Promise<Uint8Array[]> {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  if (m < k) return [...(await auditPath(m, leaves.slice(0, k))), await merkleRoot(leaves.slice(k))];
  return [...(await auditPath(m - k, leaves.slice(k))), await merkleRoot(leaves.slice(0, k))];
}
// RFC 9162 section 2.1.3.2: true when the card, salt and path lead to root at that position.
export async function verifyCardProof(root: Uint8Array, position: number, code: string, salt: Uint8Array, path: Uint8Array[], size = 52): Promise<boolean> {
  if (cardIndex(code) < 0 || salt.length !== 16 || !(position >= 0 && position < size)) return false;
  let fn = position, sn = size - 1, r = await leafHash(position, code, salt);
  for (const p of path) {
    if (p.length !== 32 || sn === 0) return false;
    if (fn & 1 || fn === sn) {
      r = await nodeHash(p, r);
      if (!(fn & 1)) while (!(fn & 1) && fn !== 0) (fn >>= 1), (sn >>= 1);
    } else {
      r = await nodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && equal(r, root);
}
