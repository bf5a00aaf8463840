// Strict JSON requests name the field at fault. protobuf-es (with
// ignoreUnknownFields off, src/gateway.ts) refuses an unknown key naming it
// and its message, but an enum name the API does not have only as
// `cannot decode enum stud.v1.Variant from JSON: "VARIANT_STUDD"`: which field
// of the request it was in is lost. unknownEnumValue walks the parsed request
// along its descriptor and says where, so a Connect JSON caller reads
//   stud.v1.NewHandRequest.variant: "VARIANT_STUDD" is not a stud.v1.Variant
//   (VARIANT_STUD, VARIANT_STUD_HI_LO or VARIANT_RAZZ)
import type { DescEnum, DescMessage } from "@bufbuild/protobuf";

function badEnum(desc: DescEnum, value: unknown, at: string): string | undefined {
  if (typeof value !== "string" || desc.values.some((v) => v.name === value)) return undefined;
  const names = desc.values.filter((v) => v.number !== 0).map((v) => v.name);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names.join("");
  return `${at}: ${JSON.stringify(value)} is not a ${desc.typeName} (${list})`;
}

// The first enum value in `json` (a parsed proto3 JSON request of `desc`) that
// is not a name of its enum, as a sentence naming the field; undefined if none.
// Everything else (unknown keys, wrong types) is left to the real parser.
export function unknownEnumValue(desc: DescMessage, json: unknown, path: string = desc.typeName): string | undefined {
  // Well-known types have JSON forms of their own, and no enums of the API.
  if (typeof json !== "object" || json === null || Array.isArray(json) || desc.typeName.startsWith("google.protobuf.")) {
    return undefined;
  }
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f.jsonName === key || f.name === key);
    if (!field || value === null) continue;
    const at = `${path}.${field.name}`;
    let found: string | undefined;
    switch (field.fieldKind) {
      case "enum":
        found = badEnum(field.enum, value, at);
        break;
      case "message":
        found = unknownEnumValue(field.message, value, at);
        break;
      case "list":
        if (!Array.isArray(value)) break;
        for (let i = 0; i < value.length && !found; i++) {
          if (field.listKind === "enum") found = badEnum(field.enum, value[i], `${at}[${i}]`);
          if (field.listKind === "message") found = unknownEnumValue(field.message, value[i], `${at}[${i}]`);
        }
        break;
      case "map":
        if (typeof value !== "object" || Array.isArray(value)) break;
        for (const [k, v] of Object.entries(value)) {
          if (field.mapKind === "enum") found = badEnum(field.enum, v, `${at}[${JSON.stringify(k)}]`);
          if (field.mapKind === "message") found = unknownEnumValue(field.message, v, `${at}[${JSON.stringify(k)}]`);
          if (found) break;
        }
        break;
    }
    if (found) return found;
  }
  return undefined;
}
