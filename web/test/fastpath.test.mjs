// The unary fast path (src/unary.ts) and its JSON transcoder (src/transcode.ts):
// the transcoder gives what protobuf-es gives on every message shape the API
// has (oneofs, enums known and unknown, 64-bit integers, bytes, maps, lists,
// nested messages, implicit zero values) and refuses, for protobuf-es to
// decide, every form it does not take on; through a real gateway, the limits
// and hand-overs of the fast path answer as connect-node would.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { create, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { binaryToJson, binaryToJsonBytes, jsonToBinary, NotHandled } from "../dist/test/transcode.mjs";
import { startStack } from "./harness.mjs";

// Messages of several shapes, as protobuf-es builds them.
const samples = [
  [pb.NewHandRequestSchema, {
    variant: pb.Variant.STUD_HI_LO,
    stakes: { kind: { case: "preset", value: "$15-$30" } },
    seats: [{ seat: 1, stack: 20000n }, { seat: 2, stack: 9007199254740993n }],
    privateViewSeats: [1, 2],
  }],
  [pb.ApplyActionRequestSchema, {
    token: new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]),
    action: { kind: pb.ActionKind.RAISE, seat: 3, amountTo: 120n },
    privateViewSeats: [3],
  }],
  [pb.ResolveShowdownResponseSchema, {
    won: { 1: 150n, 7: -3n },
    returned: { 2: 0n },
    handId: "ab\u00e9\u{1F0A1}",
  }],
  // An enum number the API does not name, and implicit zero values.
  [pb.ApplyActionRequestSchema, { action: { kind: 9999, seat: 0, amountTo: 0n } }],
  [pb.NewHandRequestSchema, {}],
  // A string JSON must escape, and one that is not ASCII.
  [pb.NewHandRequestSchema, { stakes: { kind: { case: "preset", value: 'a"b\\c\nd\u0001\u00e9\u{1F0A1}\u007f' } } }],
];

test("binary to JSON: what toJson(fromBinary(...)) gives, for every shape", () => {
  for (const [schema, init] of samples) {
    const bytes = toBinary(schema, create(schema, init));
    assert.deepEqual(binaryToJson(schema, bytes), toJson(schema, fromBinary(schema, bytes)), schema.typeName);
  }
});

test("binary to JSON text: JSON.stringify of the JSON value, byte for byte, or left to the value path", () => {
  let written = 0;
  for (const [schema, init] of samples) {
    const bytes = toBinary(schema, create(schema, init));
    const want = JSON.stringify(binaryToJson(schema, bytes));
    const hasMap = schema.fields.some((f) => f.fieldKind === "map");
    if (hasMap) {
      // JSON.stringify puts integer-like keys first: maps take the value path.
      assert.throws(() => binaryToJsonBytes(schema, bytes), NotHandled, schema.typeName);
      continue;
    }
    assert.equal(binaryToJsonBytes(schema, bytes).toString("utf8"), want, schema.typeName);
    written++;
  }
  assert.ok(written >= 5);
  // Not the canonical encoding: fields out of order, a field twice, two
  // members of one oneof (the last wins on the value path).
  const S = pb.ApplyActionRequestSchema;
  const part = (init) => toBinary(S, create(S, init));
  const cat = (...parts) => Buffer.concat(parts.map((p) => Buffer.from(p)));
  const token = new Uint8Array([1, 2, 3]);
  for (const bytes of [
    cat(part({ privateViewSeats: [3] }), part({ token })),
    cat(part({ token }), part({ token: new Uint8Array([9]) })),
    cat(part({ action: { seat: 1 } }), part({ action: { seat: 2 } })), // merged: protobuf-es decides
  ]) {
    assert.throws(() => binaryToJsonBytes(S, bytes), NotHandled);
  }
  assert.deepEqual(binaryToJson(S, cat(part({ privateViewSeats: [3] }), part({ token }))), { privateViewSeats: [3], token: "AQID" });
  const stakes = pb.StakesSchema;
  const oneofTwice = cat(
    toBinary(stakes, create(stakes, { kind: { case: "preset", value: "$1-$2" } })),
    toBinary(stakes, create(stakes, { kind: { case: "custom", value: {} } })),
  );
  assert.throws(() => binaryToJsonBytes(stakes, oneofTwice), NotHandled);
  assert.deepEqual(binaryToJson(stakes, oneofTwice), { custom: {} });
  // A list split in two runs next to each other is one list, as on the value path.
  const split = cat(part({ token, privateViewSeats: [1] }), part({ privateViewSeats: [2] }));
  const splitJson = JSON.stringify(binaryToJson(S, split));
  assert.match(splitJson, /\[1,2\]/);
  assert.equal(binaryToJsonBytes(S, split).toString(), splitJson);
});

test("JSON to binary: the message protobuf-es reads from the same JSON", () => {
  for (const [schema, init] of samples) {
    const json = toJson(schema, create(schema, init));
    const ours = fromBinary(schema, jsonToBinary(schema, json));
    assert.deepEqual(toJson(schema, ours), toJson(schema, fromJson(schema, json)), schema.typeName);
  }
  // Both JSON and proto names, numbers as strings, unpadded URL-safe base64.
  const json = { token: "-_8", action: { kind: "ACTION_KIND_CALL", seat: "2", amount_to: 40 }, private_view_seats: [2] };
  const ours = fromBinary(pb.ApplyActionRequestSchema, jsonToBinary(pb.ApplyActionRequestSchema, json));
  assert.deepEqual(ours, fromJson(pb.ApplyActionRequestSchema, json));
});

test("JSON forms the transcoder leaves to protobuf-es", () => {
  const refused = [
    { token: "AAAA", expectedVerison: "1" }, // unknown key
    { token: "AAAA", privateViewSeats: [1], private_view_seats: [2] }, // one field twice
    { token: "AAAA", action: { kind: "ACTION_KIND_NOPE" } }, // unknown enum name
    { token: "AAAA", action: { seat: 1.5 } }, // not an integer
    { token: "AAAA", action: { seat: 4294967296 } }, // out of range
    { token: "not base64!" },
    { token: "AAAA", privateViewSeats: [1, null] },
    { token: "AAAA", privateViewSeats: "1" },
    [],
  ];
  for (const json of refused) {
    assert.throws(() => jsonToBinary(pb.ApplyActionRequestSchema, json), NotHandled, JSON.stringify(json));
  }
  // Two members of one oneof.
  assert.throws(() => jsonToBinary(pb.NewHandRequestSchema, { stakes: { preset: "$1-$2", custom: {} } }), NotHandled);
});

let stack;
before(async () => {
  stack = await startStack();
});
after(() => stack?.stop());

const url = () => `${stack.gateway}/stud.v1.StudService/NewHand`;
const newHand = { variant: "VARIANT_STUD", stakes: { preset: "$15-$30" }, seats: [{ seat: 1, stack: "20000" }, { seat: 2, stack: "20000" }] };

test("through the gateway: request size limit, hand-overs to connect-node, compressed answers", async () => {
  // Past 4 MiB: RESOURCE_EXHAUSTED, JSON and binary alike.
  const big = Buffer.alloc((4 << 20) + 1, 0x20);
  for (const type of ["application/json", "application/proto"]) {
    const response = await fetch(url(), { method: "POST", headers: { "content-type": type }, body: big });
    assert.equal(response.status, 429, type);
    assert.equal((await response.json()).code, "resource_exhausted", type);
  }
  // A malformed timeout and a body that is not JSON: connect-node's own errors.
  const badTimeout = await fetch(url(), {
    method: "POST",
    headers: { "content-type": "application/json", "connect-timeout-ms": "soon" },
    body: JSON.stringify(newHand),
  });
  assert.equal(badTimeout.status, 400);
  assert.match((await badTimeout.json()).message, /invalid connect timeout/);
  const notJson = await fetch(url(), { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
  assert.equal(notJson.status, 400);
  assert.equal((await notJson.json()).code, "invalid_argument");
  // A gzip request goes to connect-node; a caller accepting gzip gets a gzip answer.
  const zipped = await fetch(url(), {
    method: "POST",
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    body: zlib.gzipSync(JSON.stringify(newHand)),
  });
  assert.equal(zipped.status, 200);
  assert.equal((await zipped.json()).update.publicView.variant, "VARIANT_STUD");
  const raw = await new Promise((resolve, reject) => {
    import("node:http").then(({ default: http }) => {
      const req = http.request(url(), { method: "POST", headers: { "content-type": "application/json", "accept-encoding": "gzip" } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end(JSON.stringify(newHand));
    });
  });
  assert.equal(raw.headers["content-encoding"], "gzip");
  assert.equal(JSON.parse(zlib.gunzipSync(raw.body).toString()).update.publicView.variant, "VARIANT_STUD");
});
