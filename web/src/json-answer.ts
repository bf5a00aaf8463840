// Protobuf binary -> proto3 JSON text (UTF-8 bytes) in one pass: the Connect
// JSON fast path's answers (src/unary.ts). Building the JSON value first
// (src/transcode-read.ts), then JSON.stringify and Buffer.from took ~90 us of
// CPU per ApplyAction answer (3.3 KB binary, 7.6 KB JSON); writing the text
// straight from the wire takes a fraction of that (docs/benchmarks.md,
// "Through the web gateway").
//
// The bytes are exactly JSON.stringify(binaryToJson(desc, bytes)). That holds
// by construction only for the canonical encoding stud_server writes (every
// field once, in field-number order, a repeated field's elements together),
// so anything else is refused with NotHandled and the caller takes the
// value path, which settles it as protobuf-es does: a field out of order or
// given twice (the last wins there), two members of a oneof, a map (JSON
// orders integer-like keys first), a wire type that does not match the field,
// a group. Strings of printable ASCII are copied as they are; any other string
// goes through protobuf-es's decoder and JSON.stringify, as on the value path.
// google.protobuf.* messages are written as JSON.stringify(toJson(...)).
import { ScalarType, fromBinary, toJson, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { Kind, NOT_HANDLED, planOf, wireTypeOf, type FieldPlan, type MessagePlan } from "./transcode-plan.js";
import { floatJson } from "./transcode-read.js";

// The text is written here, then copied out once it is complete.
let out = Buffer.allocUnsafe(64 * 1024);
let at = 0;
// The message being read (the reader's buffer).
let src: Buffer = out;

function room(n: number): void {
  if (at + n <= out.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, at + n));
  out.copy(bigger, 0, 0, at);
  out = bigger;
}

function byte(c: number): void {
  room(1);
  out[at++] = c;
}

function ascii(s: string): void {
  const n = s.length;
  room(n);
  if (n > 32) {
    at += out.write(s, at, "latin1");
    return;
  }
  for (let i = 0; i < n; i++) out[at++] = s.charCodeAt(i);
}

// An integer's digits (a 32-bit field's value).
function int(v: number): void {
  if (v < 0 || v >= 1e9) return ascii(String(v));
  room(10);
  if (v < 10) {
    out[at++] = 0x30 + v;
    return;
  }
  let digits = 1;
  for (let x = v; x >= 10; x = (x / 10) | 0) digits++;
  at += digits;
  for (let i = at - 1, x = v; i >= at - digits; i--, x = (x / 10) | 0) out[i] = 0x30 + (x % 10);
}

function utf8(s: string): void {
  room(s.length * 3);
  at += out.write(s, at, "utf8");
}

function key(f: FieldPlan, first: boolean): void {
  let k = f.jsonKey;
  if (!k) f.jsonKey = k = Buffer.from(`${JSON.stringify(f.jsonName)}:`);
  room(k.length + 1);
  if (!first) out[at++] = 0x2c; // ,
  for (let i = 0; i < k.length; i++) out[at++] = k[i];
}

// A string field's value: its bytes between quotes when they need no escape.
function string(r: BinaryReader): void {
  const from = r.pos;
  const len = r.uint32();
  const start = r.pos;
  const stop = start + len;
  if (stop > r.len) throw NOT_HANDLED;
  const b = src;
  for (let i = start; i < stop; i++) {
    const c = b[i];
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
      r.pos = from;
      return utf8(JSON.stringify(r.string()));
    }
  }
  room(len + 2);
  out[at++] = 0x22;
  for (let i = start; i < stop; i++) out[at++] = b[i];
  out[at++] = 0x22;
  r.pos = stop;
}

// A scalar's JSON text; false when it is the zero value an implicit-presence
// field leaves out (and nothing was written).
function scalar(r: BinaryReader, t: ScalarType, f: FieldPlan | undefined, first: boolean): boolean {
  let text: string;
  switch (t) {
    case ScalarType.STRING: {
      if (f) {
        if (f.implicit && src[r.pos] === 0) {
          r.pos++;
          return false;
        }
        key(f, first);
      }
      string(r);
      return true;
    }
    case ScalarType.BYTES: {
      const len = r.uint32();
      const start = r.pos;
      r.pos += len;
      if (r.pos > r.len) throw NOT_HANDLED;
      if (f && f.implicit && len === 0) return false;
      if (f) key(f, first);
      byte(0x22);
      ascii(src.toString("base64", start, start + len));
      byte(0x22);
      return true;
    }
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const v = floatJson(t === ScalarType.DOUBLE ? r.double() : r.float());
      if (f && f.implicit && v === 0) return false;
      text = typeof v === "string" ? `"${v}"` : JSON.stringify(v);
      break;
    }
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64: {
      const v = (
        t === ScalarType.INT64 ? r.int64() : t === ScalarType.UINT64 ? r.uint64() : t === ScalarType.SINT64 ? r.sint64()
        : t === ScalarType.FIXED64 ? r.fixed64() : r.sfixed64()
      ).toString();
      if (f && f.implicit && v === "0") return false;
      text = `"${v}"`;
      break;
    }
    case ScalarType.BOOL: {
      const v = r.bool();
      if (f && f.implicit && !v) return false;
      text = v ? "true" : "false";
      break;
    }
    default: {
      const v =
        t === ScalarType.INT32 ? r.int32() : t === ScalarType.UINT32 ? r.uint32() : t === ScalarType.SINT32 ? r.sint32()
        : t === ScalarType.FIXED32 ? r.fixed32() : t === ScalarType.SFIXED32 ? r.sfixed32() : NaN;
      if (Number.isNaN(v)) throw NOT_HANDLED;
      if (f && f.implicit && v === 0) return false;
      if (f) key(f, first);
      int(v);
      return true;
    }
  }
  if (f) key(f, first);
  ascii(text);
  return true;
}

function enumValue(f: FieldPlan, n: number): void {
  const plan = f.enumPlan!;
  if (plan.isNullValue) return ascii("null");
  const name = plan.names.get(n);
  if (name === undefined) return int(n);
  byte(0x22);
  ascii(name); // enum value names are identifiers
  byte(0x22);
}

// A length-delimited sub-message.
function sub(r: BinaryReader, desc: DescMessage): void {
  const plan = planOf(desc);
  if (plan.wkt) {
    const v = r.bytes();
    return utf8(JSON.stringify(toJson(desc, fromBinary(desc, v))));
  }
  const end = r.uint32() + r.pos;
  if (end > r.len) throw NOT_HANDLED;
  message(r, plan, end);
}

function message(r: BinaryReader, plan: MessagePlan, end: number): void {
  byte(0x7b); // {
  let first = true;
  let last = 0;
  let list: FieldPlan | undefined; // the repeated field whose "[" is open
  let oneofs: object[] | undefined;
  while (r.pos < end) {
    const start = r.pos;
    const tag = r.uint32();
    const no = tag >>> 3;
    const wt = tag & 7;
    // What BinaryReader.tag() refuses, and groups (a field's or an unknown one's).
    if (r.pos - start > 5 || (r.pos - start === 5 && src[r.pos - 1] > 0x0f)) throw NOT_HANDLED;
    if (no <= 0 || wt > 5 || wt === WireType.StartGroup || wt === WireType.EndGroup) throw NOT_HANDLED;
    const f = plan.byNumber[no];
    if (!f) {
      r.skip(wt, no); // unknown fields: toJson leaves them out
      continue;
    }
    if (list && list !== f) {
      byte(0x5d); // ]
      list = undefined;
    }
    if (no < last || (no === last && f.kind !== Kind.List)) throw NOT_HANDLED;
    last = no;
    if (f.oneof && f.oneof.members.length > 1) {
      if (oneofs?.includes(f.oneof)) throw NOT_HANDLED;
      (oneofs ??= []).push(f.oneof);
    }
    switch (f.kind) {
      case Kind.Scalar:
        if (wt !== wireTypeOf(f.scalar)) throw NOT_HANDLED;
        if (scalar(r, f.scalar, f, first)) first = false;
        break;
      case Kind.Enum: {
        if (wt !== WireType.Varint) throw NOT_HANDLED;
        const n = r.int32();
        if (f.implicit && n === 0) break;
        key(f, first);
        first = false;
        enumValue(f, n);
        break;
      }
      case Kind.Message:
        if (wt !== WireType.LengthDelimited) throw NOT_HANDLED;
        key(f, first);
        first = false;
        sub(r, f.message!);
        break;
      case Kind.List: {
        const elemWt = f.elem === Kind.Message ? WireType.LengthDelimited : f.elem === Kind.Enum ? WireType.Varint : wireTypeOf(f.scalar);
        const packed = wt === WireType.LengthDelimited && elemWt !== WireType.LengthDelimited;
        if (!packed && wt !== elemWt) throw NOT_HANDLED;
        const stop = packed ? r.uint32() + r.pos : 0;
        if (packed && (stop > r.len || stop === r.pos)) {
          if (stop > r.len) throw NOT_HANDLED;
          break; // an empty packed run adds nothing
        }
        if (list === f) byte(0x2c);
        else {
          key(f, first);
          first = false;
          byte(0x5b); // [
          list = f;
        }
        if (!packed) {
          if (f.elem === Kind.Message) sub(r, f.message!);
          else if (f.elem === Kind.Enum) enumValue(f, r.int32());
          else scalar(r, f.scalar, undefined, true);
          break;
        }
        for (let n = 0; r.pos < stop; n++) {
          if (n > 0) byte(0x2c);
          if (f.elem === Kind.Enum) enumValue(f, r.int32());
          else scalar(r, f.scalar, undefined, true);
        }
        if (r.pos !== stop) throw NOT_HANDLED;
        break;
      }
      default:
        throw NOT_HANDLED; // maps: the value path orders their keys as JSON.stringify does
    }
  }
  if (list) byte(0x5d);
  if (r.pos !== end) throw NOT_HANDLED;
  byte(0x7d); // }
}

// The UTF-8 JSON text of a binary message of `desc`, byte for byte
// JSON.stringify(binaryToJson(desc, bytes)). Throws NotHandled (or a decoding
// error) when the value path must decide.
export function binaryToJsonBytes(desc: DescMessage, bytes: Uint8Array): Buffer {
  const plan = planOf(desc);
  at = 0;
  src = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (plan.wkt) {
    utf8(JSON.stringify(toJson(desc, fromBinary(desc, bytes))));
  } else {
    message(new BinaryReader(bytes), plan, bytes.length);
  }
  src = out; // not kept past the call
  const text = Buffer.allocUnsafe(at);
  out.copy(text, 0, 0, at);
  return text;
}
