// The plans the JSON transcoder (src/transcode.ts, src/transcode-read.ts,
// src/json-answer.ts) walks: each message's fields by number and by JSON and
// proto name, made once per descriptor from the generated descriptors.
import { ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";

// Thrown when protobuf-es must decide.
export class NotHandled extends Error {}
export const NOT_HANDLED = new NotHandled("left to protobuf-es");

export const enum Kind {
  Scalar,
  Enum,
  Message,
  List,
  Map,
}

export interface EnumPlan {
  names: Map<number, string>;
  numbers: Map<string, number>;
  isNullValue: boolean;
}

export interface FieldPlan {
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
  // `"jsonName":` as UTF-8 (src/json-answer.ts), made on first use.
  jsonKey?: Uint8Array;
}

export interface MessagePlan {
  desc: DescMessage;
  wkt: boolean;
  byNumber: (FieldPlan | undefined)[];
  byName: Map<string, FieldPlan>;
}

const plans = new WeakMap<DescMessage, MessagePlan>();
const enums = new WeakMap<DescEnum, EnumPlan>();

export function enumPlan(desc: DescEnum): EnumPlan {
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

export function planOf(desc: DescMessage): MessagePlan {
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

export function wireTypeOf(t: ScalarType): WireType {
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
