// Proto3 JSON <-> protobuf binary in one pass, without message objects: the
// Connect JSON fast path (src/unary.ts) turns a parsed JSON request straight
// into the bytes stud_server reads, and its binary answer straight into the
// JSON value to stringify. protobuf-es's fromJson + toBinary and fromBinary +
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
import {
  ScalarType,
  fromBinary,
  fromJson,
  toBinary,
  toJson,
  type DescEnum,
  type DescField,
  type DescMessage,
} from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";

// Thrown when protobuf-es must decide.
export class NotHandled extends Error {}
const NOT_HANDLED = new NotHandled("left to protobuf-es");

const enum Kind {
  Scalar,
  Enum,
  Message,
  List,
  Map,
}

interface EnumPlan {
  names: Map<number, string>;
  numbers: Map<string, number>;
  isNullValue: boolean;
}

interface FieldPlan {
  field: DescField;
  number: number;
  jsonName: string;
  kind: Kind;
  // The scalar of a scalar field, a list's elements or a map's values.
  scalar: ScalarType;
  // The enum or message of the field, its elements or its map values.
  enumPlan?: EnumPlan;
  message?: DescMessage;
  // Lists and maps: the element (or value) kind.
  elem: Kind;
  mapKey: ScalarType;
  implicit: boolean;
  oneof?: { mark: number; members: string[] };
  mark: number;
}

interface MessagePlan {
  desc: DescMessage;
  wkt: boolean;
  byNumber: (FieldPlan | undefined)[];
  byName: Map<string, FieldPlan>;
}

const plans = new WeakMap<DescMessage, MessagePlan>();
const enums = new WeakMap<DescEnum, EnumPlan>();

function enumPlan(desc: DescEnum): EnumPlan {
  let plan = enums.get(desc);
  if (!plan) {
    plan = {
      names: new Map(desc.values.map((v) => [v.number, v.name])),
      numbers: new Map(desc.values.map((v) => [v.name, v.number])),
      isNullValue: desc.typeName === "google.protobuf.NullValue",
    };
    enums.set(desc, plan);
  }
  return plan;
}

function planOf(desc: DescMessage): MessagePlan {
  let plan = plans.get(desc);
  if (plan) return plan;
  plan = { desc, wkt: desc.typeName.startsWith("google.protobuf."), byNumber: [], byName: new Map() };
  plans.set(desc, plan);
  const oneofs = new Map<unknown, { mark: number; members: string[] }>();
  for (const field of desc.fields) {
    const f: FieldPlan = {
      field,
      number: field.number,
      jsonName: field.jsonName,
      kind: Kind.Scalar,
      scalar: ScalarType.INT32,
      elem: Kind.Scalar,
      mapKey: ScalarType.STRING,
      implicit: field.presence === 2 /* IMPLICIT */,
      mark: 0,
    };
    switch (field.fieldKind) {
      case "scalar":
        f.scalar = field.scalar;
        break;
      case "enum":
        f.kind = Kind.Enum;
        f.enumPlan = enumPlan(field.enum);
        break;
      case "message":
        f.kind = Kind.Message;
        f.message = field.message;
        break;
      case "list":
        f.kind = Kind.List;
        if (field.listKind === "scalar") f.scalar = field.scalar;
        if (field.listKind === "enum") (f.elem = Kind.Enum), (f.enumPlan = enumPlan(field.enum));
        if (field.listKind === "message") (f.elem = Kind.Message), (f.message = field.message);
        break;
      case "map":
        f.kind = Kind.Map;
        f.mapKey = field.mapKey;
        if (field.mapKind === "scalar") f.scalar = field.scalar;
        if (field.mapKind === "enum") (f.elem = Kind.Enum), (f.enumPlan = enumPlan(field.enum));
        if (field.mapKind === "message") (f.elem = Kind.Message), (f.message = field.message);
        break;
    }
    if (field.oneof) {
      let group = oneofs.get(field.oneof);
      if (!group) oneofs.set(field.oneof, (group = { mark: 0, members: [] }));
      group.members.push(field.jsonName);
      f.oneof = group;
    }
    plan.byNumber[field.number] = f;
    plan.byName.set(field.jsonName, f);
    plan.byName.set(field.name, f);
  }
  return plan;
}

// ---- binary -> JSON ----

function wireTypeOf(t: ScalarType): WireType {
  switch (t) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WireType.Bit64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WireType.Bit32;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
    default:
      return WireType.Varint;
  }
}

function floatJson(v: number): number | string {
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

function enumJson(plan: EnumPlan, n: number): unknown {
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
