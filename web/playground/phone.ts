// A player's device, built on @stud/client's SeatSession: it holds only its
// seat ticket (from the address fragment: #ticket=<base64url>[&hand=<id>]
// [&lang=es][&protocol=grpc-web]), fetches and watches the hand through
// the gateway and takes its own seat's legal actions. Nothing relays it: every
// other seat's moves arrive on its WatchHand stream.
// For tests: <body data-busy> while an action is in flight, data-complete once
// the hand is over, #connection[data-status] the watch's state; and when the
// page is given a window.studRecord(kind, json) function, every message the
// page receives is passed to it (kind = the method, or "<method>:error").
import { toJsonString, type DescMessage, type Message } from "@bufbuild/protobuf";
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import {
  ActionKind,
  OperationType,
  Phase,
  SeatSession,
  Street,
  errorDetails,
  ownCards,
  ticketFromBase64,
  type LegalAction,
  type SeatCard,
  type SeatState,
} from "../client/src/index.js";

declare global {
  interface Window {
    studRecord?: (kind: string, json: string) => void;
    session?: SeatSession;
  }
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const record = (kind: string, json: string) => window.studRecord?.(kind, json);

// Hands every answer the page decodes (each message of a stream, each unary
// answer, each refusal) to window.studRecord, before SeatSession sees it.
const recorder: Interceptor = (next) => async (req) => {
  const name = req.method.name;
  const out = req.method.output as DescMessage;
  const json = (m: unknown) => toJsonString(out, m as Message);
  try {
    const res = await next(req);
    if (!res.stream) {
      record(name, json(res.message));
      return res;
    }
    const messages = res.message;
    async function* recorded() {
      try {
        for await (const m of messages) {
          record(name, json(m));
          yield m;
        }
      } catch (error) {
        record(`${name}:error`, JSON.stringify(errorDetails(error)));
        throw error;
      }
    }
    return { ...res, message: recorded() };
  } catch (error) {
    if (error instanceof ConnectError) record(`${name}:error`, JSON.stringify(errorDetails(error)));
    throw error;
  }
};

function element(tag: string, text: string, className = ""): HTMLElement {
  const e = document.createElement(tag);
  e.textContent = text;
  if (className) e.className = className;
  return e;
}

const words = (name: string | undefined, prefix: string) => (name ?? "").replace(prefix, "").replace(/_/g, " ").toLowerCase();

function cardElement(card: SeatCard | undefined): HTMLElement {
  const code = card?.card ?? "";
  const e = element("span", code || "??", "card");
  if (card && !card.faceUp) e.classList.add("down");
  if (/[hd]$/.test(code)) e.classList.add("red");
  return e;
}

function showError(error: unknown): void {
  const d = errorDetails(error);
  $("error").textContent = `${d.reason || d.code}: ${d.message}`;
  $("error").hidden = false;
}

function actionLabel(a: LegalAction): string {
  return `${words(ActionKind[a.kind], "")}${a.amountTo ? ` ${a.amountTo}` : ""}${a.allIn ? " (all in)" : ""}`;
}

function render(session: SeatSession, state: SeatState): void {
  const view = state.publicView;
  $("hand").hidden = false;
  $("status").textContent = [
    words(Phase[view.phase], ""),
    view.street ? `${words(Street[view.street], "")} street` : "",
    `pot ${view.potTotal}`,
    state.toAct ? (state.myTurn ? "your turn" : `seat ${state.toAct} to act`) : "",
    `version ${state.version}`,
  ]
    .filter(Boolean)
    .join(" · ");
  $("my-cards").replaceChildren(...ownCards(state).map(cardElement));
  const seats = view.seats
    .filter((s) => s.seat !== session.seat)
    .map((s) => {
      const box = element("div", "", "seat");
      box.id = `seat-${s.seat}`;
      if (s.seat === state.toAct) box.classList.add("to-act");
      if (s.folded) box.classList.add("folded");
      const flags = [s.folded && "folded", s.allIn && "all in", s.shown && "shown", s.mucked && "mucked"].filter(Boolean);
      box.append(element("div", `Seat ${s.seat} · stack ${s.stack} · in pot ${s.committed} ${flags.join(", ")}`));
      const cards = element("div", "", "cards");
      cards.append(...s.cards.map(cardElement));
      box.append(cards);
      return box;
    });
  $("seats-view").replaceChildren(...seats);
  const buttons = (state.myTurn ? state.legalActions : []).map((legal) => {
    const b = element("button", actionLabel(legal)) as HTMLButtonElement;
    b.type = "button";
    b.dataset.kind = ActionKind[legal.kind];
    b.onclick = () => void act(session, legal);
    return b;
  });
  $("actions").replaceChildren(...buttons);
  $("log").replaceChildren(
    ...state.log
      .filter((op) => op && op.type !== OperationType.DEAL)
      .map((op) => element("li", `${words(OperationType[op.type], "")} ${op.seat ? `seat ${op.seat}` : ""} ${op.amountTo || ""}`)),
  );
}

async function act(session: SeatSession, legal: LegalAction): Promise<void> {
  $("error").hidden = true;
  document.body.dataset.busy = "true";
  try {
    await session.act(legal.kind, legal.amountTo);
  } catch (error) {
    showError(error);
  } finally {
    delete document.body.dataset.busy;
  }
}

async function showResult(session: SeatSession): Promise<void> {
  try {
    const result = await session.resolveShowdown();
    const lines = result.pots.map(
      (pot) => `Pot ${pot.index} (${pot.amount}): ${pot.shares.map((s) => `seat ${s.seat} +${s.amount}`).join(", ")}`,
    );
    for (const hand of result.hands) lines.push(`Seat ${hand.seat}: ${hand.highName}`);
    $("result").replaceChildren(...lines.map((l) => element("div", l)));
    $("result").hidden = false;
  } catch (error) {
    showError(error);
  }
  document.body.dataset.complete = "true";
}

function main(): void {
  const params = new URLSearchParams(location.hash.slice(1));
  const ticket = params.get("ticket");
  if (!ticket) {
    $("error").textContent = "No seat ticket: open this page as phone.html#ticket=<base64url>";
    $("error").hidden = false;
    return;
  }
  const session = new SeatSession({
    // &protocol=grpc-web: gRPC-Web (JSON payloads, so that answers stay readable), else Connect JSON.
    transport:
      params.get("protocol") === "grpc-web"
        ? createGrpcWebTransport({ baseUrl: location.origin, useBinaryFormat: false, interceptors: [recorder] })
        : createConnectTransport({ baseUrl: location.origin, interceptors: [recorder] }),
    seatTicket: ticketFromBase64(ticket),
    handId: params.get("hand") ?? undefined,
    locale: params.get("lang") ?? undefined,
  });
  window.session = session;
  $("title").textContent = `Seat ${session.seat}`;
  document.title = `Seat ${session.seat}`;
  let resultShown = false;
  session.on("update", (state) => {
    render(session, state);
    if (state.complete && !resultShown) {
      resultShown = true;
      void showResult(session);
    }
  });
  session.on("connection", (status) => {
    $("connection").dataset.status = status;
    $("connection").textContent = `watch: ${status}`;
  });
  session.on("error", (error) => showError(error));
  session.start().catch(showError);
}

main();
