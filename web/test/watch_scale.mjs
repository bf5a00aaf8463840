// Measures open WatchHand streams through one gateway process (not a test; run
// by hand from web/ after npm run build):
//   N=2000 STUD_SERVER=../build/service/stud_server node test/watch_scale.mjs
// The stack of test/phones_stack.mjs (redis-server, one stud_server with the
// ledger; SARGS: its extra flags), one gateway process (GARGS: its extra
// flags). Deals N/8 hands of 8 seats, opens N watches over 20 gRPC client
// connections, reports how many received the deal and in how long, the
// gateway's upstream connections and streams (/metrics), then the latency of
// 200 GetView calls made one at a time while every watch stays open.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, createConnectTransport } from "@connectrpc/connect-node";
import * as pb from "../gen/stud/v1/stud_pb.js";
import { API_KEY, TENANT, startPhonesStack } from "./phones_stack.mjs";
import { startGatewayOnly } from "./harness.mjs";
const N = Number(process.env.N ?? 2000);
const headers = { "x-stud-tenant": TENANT, "x-stud-api-key": API_KEY };
const SEATS = [1, 2, 3, 4, 5, 6, 7, 8];
const stack = await startPhonesStack({ replicas: 1, serverArgs: (process.env.SARGS ?? "").split(" ").filter(Boolean) });
const gw = await startGatewayOnly(stack.upstreams[0], ["--workers=1", ...(process.env.GARGS ?? "").split(" ").filter(Boolean)]);
try {
  const mk = () => createClient(pb.StudService, createGrpcTransport({ baseUrl: gw.gateway }));
  const clients = Array.from({ length: 20 }, mk);
  const hands = [];
  for (let h = 0; h < Math.ceil(N / 8); h++) {
    const d = await clients[0].newHand({ variant: pb.Variant.STUD, stakes: { kind: { case: "preset", value: "$15-$30" } }, seats: SEATS.map((seat) => ({ seat, stack: 20_000n })) }, { headers });
    hands.push({ update: d.update, tickets: Object.fromEntries(d.seatTickets.map((t) => [t.seat, t.ticket])) });
  }
  const abort = new AbortController();
  const t0 = performance.now();
  const ws = [];
  for (let i = 0; i < N; i++) {
    const hand = hands[Math.floor(i / 8)];
    ws.push(clients[i % 20].watchHand({ handId: hand.update.publicView.handId, seatTicket: hand.tickets[(i % 8) + 1], afterVersion: 0n }, { headers, signal: AbortSignal.any([abort.signal, AbortSignal.timeout(60000)]) })[Symbol.asyncIterator]());
  }
  const firsts = await Promise.allSettled(ws.map((w) => w.next()));
  const ok = firsts.filter((f) => f.status === "fulfilled" && !f.value.done).length;
  console.log(`watches with the deal: ${ok}/${N} in ${(performance.now() - t0).toFixed(0)} ms`);
  const bad = firsts.find((f) => f.status === "rejected"); if (bad) console.log("first failure:", String(bad.reason));
  const m = await (await fetch(`${gw.gateway}/metrics`)).text();
  console.log(m.split("\n").filter((l) => l.startsWith("stud_web_upstream")).join("\n"));
  const lat = [];
  for (let i = 0; i < 200; i++) {
    const hand = hands[i % hands.length];
    const s = performance.now();
    await clients[i % 20].getView({ token: hand.update.token, privateViewSeats: [1], seatTicket: hand.tickets[1] }, { headers, timeoutMs: 10000 });
    lat.push(performance.now() - s);
  }
  lat.sort((a, b) => a - b);
  console.log(`GetView while ${ok} watches open: p50 ${lat[100].toFixed(2)} ms, p99 ${lat[197].toFixed(2)} ms, max ${lat[199].toFixed(2)} ms`);
  abort.abort();
} finally {
  await gw.stop();
  await stack.stop();
}
