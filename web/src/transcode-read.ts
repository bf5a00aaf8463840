// Protobuf binary -> proto3 JSON value in one pass (the Connect JSON fast
// path's answers when src/json-answer.ts leaves one to it), without message
// objects; what protobuf-es's fromBinary + toJson gives (src/transcode.ts says
// which forms are left to protobuf-es).
import { ScalarType, fromBinary, toJson, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { Kind, NOT_HANDLED, planOf, wireTypeOf, type EnumPlan } from "./transcode-plan.js";

export function floatJson(v: number): number | string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  return v;
}

function readScalar(r: BinaryReader, t: ScalarType): unknown {
  switch (t) {
    case ScalarType.DOUBLE:
      return floatJson(r.double());
    case ScalarType.FLOAT:
      return floatJson(r.float());
    case ScalarType.INT64:
      return r.int64().toString();
    case ScalarType.UINT64:
      return r.uint64().toString();
    case ScalarType.SINT64:
      return r.sint64().toString();
    case ScalarType.FIXED64:
      return r.fixed64().toString();
    case ScalarType.SFIXED64:
      return r.sfixed64().toString();
    case ScalarType.INT32:
      return r.int32();
    case ScalarType.UINT32:
      return r.uint32();
    case ScalarType.SINT32:
      return r.sint32();
    case ScalarType.FIXED32:
      return r.fixed32();
    case ScalarType.SFIXED32:
      return r.sfixed32();
    case ScalarType.BOOL:
      return r.bool();
    case ScalarType.STRING:
      return r.string();
    case ScalarType.BYTES: {
      // Node's encoder: the same standard alphabet with padding as protobuf-es's, natively.
      const b = r.bytes();
      return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
    }
  }
  throw NOT_HANDLED;
}

// A scalar's JSON value that toJson leaves out of an implicit-presence field.
function isZero(v: unknown): boolean {
  return v === 0 || v === "" || v === false || v === "0";
}

export function enumJson(plan: EnumPlan, n: number): unknown {
  if (plan.isNullValue) return null;
  return plan.names.get(n) ?? n;
}

function readMessage(r: BinaryReader, desc: DescMessage, end: number): Record<string, unknown> {
  const plan = planOf(desc); // never a google.protobuf.* one: readSub and binaryToJson hand those over
  const out: Record<string, unknown> = {};
  while (r.pos < end) {
    const [no, wt] = r.tag();
    const f = plan.byNumber[no];
    if (!f) {
      r.skip(wt, no); // unknown fields: toJson leaves them out
      continue;
    }
    const key = f.jsonName;
    switch (f.kind) {
      case Kind.Scalar: {
        if (wt !== wireTypeOf(f.scalar)) throw NOT_HANDLED;
        const v = readScalar(r, f.scalar);
        if (f.implicit && isZero(v)) delete out[key];
        else out[key] = v;
        break;
      }
      case Kind.Enum: {
        if (wt !== WireType.Varint) throw NOT_HANDLED;
        const n = r.int32();
        if (f.implicit && n === 0) delete out[key];
        else out[key] = enumJson(f.enumPlan!, n);
        break;
      }
      case Kind.Message: {
        if (wt !== WireType.LengthDelimited || key in out) throw NOT_HANDLED; // a repeated singular message merges
        out[key] = readSub(r, f.message!);
        break;
      }
      case Kind.List: {
        let list = out[key] as unknown[] | undefined;
        if (!list) out[key] = list = [];
        if (f.elem === Kind.Message) {
          if (wt !== WireType.LengthDelimited) throw NOT_HANDLED;
          list.push(readSub(r, f.message!));
          break;
        }
        const elemWt = f.elem === Kind.Enum ? WireType.Varint : wireTypeOf(f.scalar);
        if (wt === WireType.LengthDelimited && elemWt !== WireType.LengthDelimited) {
          const stop = r.uint32() + r.pos; // packed
          while (r.pos < stop) list.push(f.elem === Kind.Enum ? enumJson(f.enumPlan!, r.int32()) : readScalar(r, f.scalar));
          if (r.pos !== stop) throw NOT_HANDLED;
          if (list.length === 0) delete out[key]; // toJson leaves an empty list out
        } else {
          if (wt !== elemWt) throw NOT_HANDLED;
          list.push(f.elem === Kind.Enum ? enumJson(f.enumPlan!, r.int32()) : readScalar(r, f.scalar));
        }
        break;
      }
      case Kind.Map: {
        if (wt !== WireType.LengthDelimited) throw NOT_HANDLED;
        let map = out[key] as Record<string, unknown> | undefined;
        if (!map) out[key] = map = {};
        const stop = r.uint32() + r.pos;
        let k: unknown;
        let v: unknown;
        while (r.pos < stop) {
          const [eno, ewt] = r.tag();
          if (eno === 1) {
            if (ewt !== wireTypeOf(f.mapKey)) throw NOT_HANDLED;
            k = readScalar(r, f.mapKey);
          } else if (eno === 2) {
            if (f.elem === Kind.Message) {
              if (ewt !== WireType.LengthDelimited) throw NOT_HANDLED;
              v = readSub(r, f.message!);
            } else if (f.elem === Kind.Enum) {
              if (ewt !== WireType.Varint) throw NOT_HANDLED;
              v = enumJson(f.enumPlan!, r.int32());
            } else {
              if (ewt !== wireTypeOf(f.scalar)) throw NOT_HANDLED;
              v = readScalar(r, f.scalar);
            }
          } else {
            r.skip(ewt, eno);
          }
        }
        // A missing key or value is its zero value.
        if (k === undefined) k = f.mapKey === ScalarType.BOOL ? false : f.mapKey === ScalarType.STRING ? "" : 0;
        if (v === undefined) {
          if (f.elem === Kind.Message) v = {};
          else if (f.elem === Kind.Enum) v = enumJson(f.enumPlan!, 0);
          else v = readZero(f.scalar);
        }
        map[String(k)] = v;
        break;
      }
    }
    // The last member of a oneof wins.
    if (f.oneof && f.oneof.members.length > 1) {
      for (const other of f.oneof.members) if (other !== key) delete out[other];
    }
  }
  if (r.pos !== end) throw NOT_HANDLED;
  return out;
}

function readZero(t: ScalarType): unknown {
  switch (t) {
    case ScalarType.BOOL:
      return false;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return "";
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return "0";
    default:
      return 0;
  }
}

// A length-delimited sub-message; google.protobuf.* ones through protobuf-es.
function readSub(r: BinaryReader, desc: DescMessage): unknown {
  const length = r.uint32();
  const end = r.pos + length;
  if (planOf(desc).wkt) {
    r.pos -= sizeOfVarint(length); // back to the length: r.bytes() reads both
    return toJson(desc, fromBinary(desc, r.bytes()));
  }
  return readMessage(r, desc, end);
}

function sizeOfVarint(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

// The JSON value (for JSON.stringify) of a binary message of `desc`, as
// toJson(desc, fromBinary(desc, bytes)) gives it. Throws NotHandled or a
// decoding error; the caller then asks protobuf-es.
export function binaryToJson(desc: DescMessage, bytes: Uint8Array): unknown {
  if (planOf(desc).wkt) return toJson(desc, fromBinary(desc, bytes));
  const r = new BinaryReader(bytes);
  return readMessage(r, desc, bytes.length);
}

// ---- JSON -> binary ----
