// Proto3 JSON <-> protobuf binary in one pass, without message objects: the
// Connect JSON fast path (src/unary.ts) turns a parsed JSON request straight
// into the bytes stud_server reads (here), and its binary answer straight into
// JSON text (src/json-answer.ts) or, for the forms that leaves, into the JSON
// value to stringify (src/transcode-read.ts); the field plans all three walk
// are in src/transcode-plan.ts. protobuf-es's fromJson + toBinary and fromBinary +
// toJson did the same through a message object each way, about 190 us of CPU
// per ApplyAction (its ~1.3 KB answer alone took 110 us); this takes a
// fraction of that (docs/benchmarks.md, "Through the web gateway").
//
// The result is what protobuf-es gives for the same input (the generated
// descriptors drive both): JSON names, enum names (an unknown number as the
// number), 64-bit integers as strings, bytes as base64 with padding, NaN and
// the infinities as strings, zero values of implicit-presence fields left
// out. Anything this does not take on itself it refuses with NotHandled, and
// the caller falls back on protobuf-es, which decides (and words any error)
// exactly as before: unknown keys, a value of the wrong type or out of range,
// a key given twice (by JSON and proto name), two members of a oneof, null in
// a list, google.protobuf.* messages (their JSON forms are special; handed to
// protobuf-es as a whole sub-message), proto2 groups, a wire type that does
// not match the field.
import { ScalarType, fromJson, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { Kind, NOT_HANDLED, planOf, wireTypeOf, type EnumPlan, type MessagePlan } from "./transcode-plan.js";

export { NotHandled } from "./transcode-plan.js";
export { binaryToJson } from "./transcode-read.js";
export { binaryToJsonBytes } from "./json-answer.js";

// ---- JSON -> binary ----

let generation = 0;
const INT_STRING = /^-?[0-9]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function int32Of(v: unknown, min: number, max: number): number {
  let n: number;
  if (typeof v === "number") n = v;
  else if (typeof v === "string" && INT_STRING.test(v)) n = Number(v);
  else throw NOT_HANDLED;
  if (!Number.isInteger(n) || n < min || n > max) throw NOT_HANDLED;
  return n;
}

function int64Of(v: unknown, unsigned: boolean): string | number {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v) || (unsigned && v < 0)) throw NOT_HANDLED;
    return v;
  }
  if (typeof v !== "string" || !INT_STRING.test(v) || (unsigned && v.startsWith("-"))) throw NOT_HANDLED;
  if (v.length > 15) {
    const b = BigInt(v);
    if (unsigned ? b > 0xffffffffffffffffn : b > 0x7fffffffffffffffn || b < -0x8000000000000000n) throw NOT_HANDLED;
  }
  return v;
}

function floatOf(v: unknown, float32: boolean): number {
  let n: number;
  if (typeof v === "number") n = v;
  else if (v === "NaN") n = NaN;
  else if (v === "Infinity") n = Infinity;
  else if (v === "-Infinity") n = -Infinity;
  else throw NOT_HANDLED;
  if (float32 && Number.isFinite(n) && Math.abs(n) > 3.4028234663852886e38) throw NOT_HANDLED;
  return n;
}

// The write-ready value of a JSON scalar; throws NotHandled when protobuf-es must judge it.
function scalarOf(t: ScalarType, v: unknown): unknown {
  switch (t) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return int32Of(v, -0x80000000, 0x7fffffff);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return int32Of(v, 0, 0xffffffff);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int64Of(v, false);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return int64Of(v, true);
    case ScalarType.FLOAT:
      return floatOf(v, true);
    case ScalarType.DOUBLE:
      return floatOf(v, false);
    case ScalarType.BOOL:
      if (typeof v !== "boolean") throw NOT_HANDLED;
      return v;
    case ScalarType.STRING:
      if (typeof v !== "string") throw NOT_HANDLED;
      return v;
    case ScalarType.BYTES:
      // Node's decoder takes both alphabets, padded or not, as protobuf-es's
      // does; the pattern first, as Node skips characters it does not know.
      if (typeof v !== "string" || !BASE64.test(v)) throw NOT_HANDLED;
      return Buffer.from(v, "base64");
  }
  throw NOT_HANDLED;
}

function writeScalar(w: BinaryWriter, t: ScalarType, v: unknown): void {
  switch (t) {
    case ScalarType.INT32:
      w.int32(v as number);
      break;
    case ScalarType.SINT32:
      w.sint32(v as number);
      break;
    case ScalarType.SFIXED32:
      w.sfixed32(v as number);
      break;
    case ScalarType.UINT32:
      w.uint32(v as number);
      break;
    case ScalarType.FIXED32:
      w.fixed32(v as number);
      break;
    case ScalarType.INT64:
      w.int64(v as string);
      break;
    case ScalarType.SINT64:
      w.sint64(v as string);
      break;
    case ScalarType.SFIXED64:
      w.sfixed64(v as string);
      break;
    case ScalarType.UINT64:
      w.uint64(v as string);
      break;
    case ScalarType.FIXED64:
      w.fixed64(v as string);
      break;
    case ScalarType.FLOAT:
      w.float(v as number);
      break;
    case ScalarType.DOUBLE:
      w.double(v as number);
      break;
    case ScalarType.BOOL:
      w.bool(v as boolean);
      break;
    case ScalarType.STRING:
      w.string(v as string);
      break;
    case ScalarType.BYTES:
      w.bytes(v as Uint8Array);
      break;
  }
}

function scalarIsZero(v: unknown): boolean {
  return v === 0 || v === "0" || v === "" || v === false || (v instanceof Uint8Array && v.length === 0);
}

function enumOf(plan: EnumPlan, v: unknown): number {
  if (typeof v === "string") {
    const n = plan.numbers.get(v);
    if (n === undefined) throw NOT_HANDLED;
    return n;
  }
  if (typeof v === "number" && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff) return v;
  throw NOT_HANDLED;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function writeSub(w: BinaryWriter, no: number, desc: DescMessage, v: unknown): void {
  const plan = planOf(desc);
  if (plan.wkt) {
    w.tag(no, WireType.LengthDelimited).bytes(toBinary(desc, fromJson(desc, v as never)));
    return;
  }
  w.tag(no, WireType.LengthDelimited).fork();
  writeMessage(w, plan, v);
  w.join();
}

function mapKeyOf(t: ScalarType, k: string): unknown {
  if (t === ScalarType.STRING) return k;
  if (t === ScalarType.BOOL) {
    if (k === "true") return true;
    if (k === "false") return false;
    throw NOT_HANDLED;
  }
  return scalarOf(t, k);
}

function writeMessage(w: BinaryWriter, plan: MessagePlan, obj: unknown): void {
  if (!isObject(obj)) throw NOT_HANDLED;
  const gen = ++generation;
  for (const key in obj) {
    const f = plan.byName.get(key);
    if (!f || f.mark === gen) throw NOT_HANDLED; // unknown, or given twice
    f.mark = gen;
    const v = obj[key];
    if (v === null) continue;
    if (f.oneof) {
      if (f.oneof.mark === gen) throw NOT_HANDLED;
      f.oneof.mark = gen;
    }
    const no = f.number;
    switch (f.kind) {
      case Kind.Scalar: {
        const s = scalarOf(f.scalar, v);
        if (f.implicit && scalarIsZero(s)) break;
        w.tag(no, wireTypeOf(f.scalar));
        writeScalar(w, f.scalar, s);
        break;
      }
      case Kind.Enum: {
        const n = enumOf(f.enumPlan!, v);
        if (f.implicit && n === 0) break;
        w.tag(no, WireType.Varint).int32(n);
        break;
      }
      case Kind.Message:
        writeSub(w, no, f.message!, v);
        break;
      case Kind.List: {
        if (!Array.isArray(v)) throw NOT_HANDLED;
        if (v.length === 0) break;
        if (f.elem === Kind.Message) {
          for (const e of v) {
            if (e === null) throw NOT_HANDLED;
            writeSub(w, no, f.message!, e);
          }
        } else if (f.elem === Kind.Enum) {
          w.tag(no, WireType.LengthDelimited).fork();
          for (const e of v) w.int32(enumOf(f.enumPlan!, e));
          w.join();
        } else if (wireTypeOf(f.scalar) === WireType.LengthDelimited) {
          for (const e of v) {
            const s = scalarOf(f.scalar, e);
            w.tag(no, WireType.LengthDelimited);
            writeScalar(w, f.scalar, s);
          }
        } else {
          w.tag(no, WireType.LengthDelimited).fork();
          for (const e of v) writeScalar(w, f.scalar, scalarOf(f.scalar, e));
          w.join();
        }
        break;
      }
      case Kind.Map: {
        if (!isObject(v)) throw NOT_HANDLED;
        for (const k in v) {
          const e = v[k];
          if (e === null) throw NOT_HANDLED;
          w.tag(no, WireType.LengthDelimited).fork();
          w.tag(1, wireTypeOf(f.mapKey));
          writeScalar(w, f.mapKey, mapKeyOf(f.mapKey, k));
          if (f.elem === Kind.Message) writeSub(w, 2, f.message!, e);
          else if (f.elem === Kind.Enum) w.tag(2, WireType.Varint).int32(enumOf(f.enumPlan!, e));
          else {
            w.tag(2, wireTypeOf(f.scalar));
            writeScalar(w, f.scalar, scalarOf(f.scalar, e));
          }
          w.join();
        }
        break;
      }
    }
  }
}

// The binary form of a parsed proto3 JSON message of `desc`, as
// toBinary(desc, fromJson(desc, json)) gives it. Throws NotHandled (or an
// encoding error) when protobuf-es must decide.
export function jsonToBinary(desc: DescMessage, json: unknown): Uint8Array {
  const plan = planOf(desc);
  if (plan.wkt) return toBinary(desc, fromJson(desc, json as never));
  const w = new BinaryWriter();
  writeMessage(w, plan, json);
  return w.finish();
}
