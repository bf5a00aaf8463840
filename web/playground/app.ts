// The playground: deals a hand through the gateway's Connect JSON API and
// plays every seat from the legal actions the service returns. All rules
// decisions (who acts, what is legal, rulings, winners) come from the service;
// the page only renders them. Messages and error details come from
// @stud/client (web/client/); the page plays as a trusted backend (the token,
// every seat's private view), so it does not use the package's SeatSession,
// which is one seat's device (phone.ts).
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import {
  ActionKind,
  DealingMode,
  DealStep,
  ErrorInfoSchema,
  IrregularityKind,
  IrregularityKindSchema,
  type IrregularityReportSchema,
  Locale,
  LocalizedMessageSchema,
  OperationType,
  Phase,
  PotHalf,
  StudService,
  Street,
  Variant,
  errorDetails,
  verifyReceipt,
  type Announcement,
  type DeckCommitment,
  type HandUpdate,
  type LegalAction,
  type Operation,
  type Ruling,
  type SeatCard,
} from "../client/src/index.js";

// Every call of a hand after NewHand names it (x-stud-hand-id), as the phone
// page's SeatSession does, so the gateway keeps the hand's calls on the pod
// that holds it decoded (docs/api.md, "The hand hint").
const client = createClient(
  StudService,
  createConnectTransport({
    baseUrl: location.origin,
    interceptors: [
      (next) => (req) => {
        const handId = hand?.first?.publicView?.handId;
        if (handId && req.method.name !== "NewHand") req.header.set("x-stud-hand-id", handId);
        return next(req);
      },
    ],
  }),
);

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const value = (id: string) => $<HTMLInputElement>(id).value.trim();

interface Hand {
  token: Uint8Array;
  seats: number[];
  locale: Locale;
  update?: HandUpdate;
  // NewHand's answer: the commitments published before the first card, which
  // every check compares with (never with a later update, which an operator
  // who re-sealed the deck could have rewritten).
  first?: HandUpdate;
}
let hand: Hand | undefined;

function element(tag: string, text: string, className = ""): HTMLElement {
  const e = document.createElement(tag);
  e.textContent = text;
  if (className) e.className = className;
  return e;
}

// Enum value → the readable tail of its name: ACTION_KIND_BRING_IN → "bring in".
function enumName(enumObject: object, v: number, prefix: string): string {
  const name = (enumObject as Record<number, string>)[v] ?? String(v);
  return name.replace(prefix, "").replace(/_/g, " ").toLowerCase();
}

function showError(error: unknown): void {
  const e = ConnectError.from(error);
  const info = e.findDetails(ErrorInfoSchema)[0];
  const localized = e.findDetails(LocalizedMessageSchema)[0];
  const lines = [`${Code[e.code]}: ${e.rawMessage}`];
  if (info) lines.push(`rule: ${info.reason}`);
  if (localized && localized.message !== e.rawMessage) lines.push(`${localized.locale}: ${localized.message}`);
  const box = $("error");
  box.textContent = lines.join("\n");
  box.hidden = false;
}

// Runs one user step (one or more calls). body[data-busy] is set meanwhile, so
// a test (or a user script) can tell when the page shows the step's result.
async function call(action: () => Promise<void>): Promise<void> {
  $("error").hidden = true;
  document.body.dataset.busy = "true";
  try {
    await action();
  } catch (error) {
    showError(error);
  } finally {
    delete document.body.dataset.busy;
  }
}

function cardElement(card: SeatCard | undefined, code: string): HTMLElement {
  const e = element("span", code || "??", "card");
  if (card && !card.faceUp) e.classList.add("down");
  if (/[hd]$/.test(code)) e.classList.add("red");
  return e;
}

function renderSeats(update: HandUpdate): void {
  const view = update.publicView!;
  const container = $("seats-view");
  container.replaceChildren();
  for (const seat of view.seats) {
    const box = element("div", "", "seat");
    box.id = `seat-${seat.seat}`;
    if (seat.seat === update.toAct) box.classList.add("to-act");
    if (seat.folded) box.classList.add("folded");
    const flags = [seat.folded && "folded", seat.allIn && "all in", seat.mucked && "mucked", seat.shown && "shown"];
    box.append(element("div", `Seat ${seat.seat} · stack ${seat.stack} · in pot ${seat.committed} ${flags.filter(Boolean).join(", ")}`));
    const own = update.privateViews.find((p) => p.seat === seat.seat);
    const cards = element("div", "", "cards");
    seat.cards.forEach((card, i) => cards.append(cardElement(card, card.card || own?.cards[i]?.card || "")));
    box.append(cards);
    container.append(box);
  }
}

function renderStatus(update: HandUpdate): void {
  const view = update.publicView!;
  const parts = [
    `${enumName(Variant, view.variant, "VARIANT_")}`,
    `${enumName(Phase, view.phase, "PHASE_")}`,
    view.street ? `${enumName(Street, view.street, "STREET_")} street` : "",
    `pot ${view.potTotal}`,
    update.toAct ? `seat ${update.toAct} to act` : "",
    `version ${update.version}`,
    `hand ${view.handId}`,
  ];
  $("status").textContent = parts.filter(Boolean).join(" · ");
}

function actionLabel(a: LegalAction): string {
  const amount = a.amountTo ? ` ${a.amountTo}` : "";
  return `${enumName(ActionKind, a.kind, "ACTION_KIND_")}${amount}${a.allIn ? " (all in)" : ""}`;
}

function renderActions(update: HandUpdate): void {
  const buttons = $("action-buttons");
  buttons.replaceChildren();
  // Cards (DEAL) are reported from the dealer's panel below, with the card.
  for (const legal of update.legalActions.filter((a) => a.kind !== ActionKind.DEAL)) {
    const b = element("button", `Seat ${update.toAct}: ${actionLabel(legal)}`) as HTMLButtonElement;
    b.type = "button";
    b.dataset.kind = ActionKind[legal.kind];
    b.onclick = () =>
      void call(() => act({ kind: legal.kind, seat: update.toAct, amountTo: legal.amountTo }));
    buttons.append(b);
  }
  const expected = update.expectedDeal;
  $("live").hidden = !expected;
  if (expected) {
    const step = enumName(DealStep, expected.step, "DEAL_STEP_");
    $("expected-deal").textContent = `Next: ${step} for seat ${expected.seat}, face ${expected.faceUp ? "up" : "down"}`;
  }
}

function operationText(op: Operation): string {
  const parts = [`#${op.index}`, enumName(OperationType, op.type, "OPERATION_TYPE_")];
  if (op.seat) parts.push(`seat ${op.seat}`);
  if (op.card) parts.push(op.card);
  if (op.amountTo) parts.push(`to ${op.amountTo}`);
  else if (op.amount) parts.push(String(op.amount));
  if (op.ruleId) parts.push(`[${op.ruleId}]`);
  return parts.join(" ");
}

function appendLog(operations: Operation[], announcements: Announcement[]): void {
  for (const op of operations) $("log").append(element("li", operationText(op)));
  for (const a of announcements) {
    const li = element("li", hand?.locale === Locale.ES ? a.textEs : a.textEn);
    if (a.ruleId) li.append(" ", element("span", a.ruleId, "rule"));
    li.title = `${a.textEn}\n${a.textEs}`;
    $("announcements").append(li);
  }
}

function renderRuling(ruling: Ruling): void {
  const box = $("ruling");
  box.replaceChildren(
    element("div", `Ruling ${ruling.ruleId}: ${ruling.decision}`, "rule"),
    element("p", ruling.explanationEn),
    element("p", ruling.explanationEs),
  );
  box.dataset.ruleId = ruling.ruleId;
}

async function applyUpdate(update: HandUpdate | undefined): Promise<void> {
  if (!hand || !update) return;
  hand.token = update.token;
  hand.update = update;
  renderStatus(update);
  renderSeats(update);
  renderActions(update);
  appendLog(update.operations, update.announcements);
  if (update.publicView?.phase === Phase.COMPLETE) await showdown(update);
}

async function act(action: { kind: ActionKind; seat: number; amountTo?: bigint; card?: string; faceUp?: boolean }): Promise<void> {
  if (!hand) return;
  const answer = await client.applyAction({
    token: hand.token,
    action,
    expectedVersion: hand.update?.version,
    privateViewSeats: hand.seats,
  });
  if (answer.ruling?.ruleId) renderRuling(answer.ruling);
  await applyUpdate(answer.update);
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const sha256Hex = async (bytes: Uint8Array) => hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));

// Resolves the finished hand and checks the deck commitment published at
// NewHand against the revealed deck: SHA-256(deck || "/" || recycle order || salt).
async function showdown(update: HandUpdate): Promise<void> {
  if (!hand) return;
  const result = await client.resolveShowdown({ hand: { case: "token", value: hand.token }, locale: hand.locale });
  const lines = result.pots.map((pot) => {
    const half = (h: PotHalf) => (h === PotHalf.HIGH || h === PotHalf.LOW ? ` (${enumName(PotHalf, h, "POT_HALF_")})` : "");
    const shares = pot.shares.map((s) => `seat ${s.seat} +${s.amount}${half(s.half)}`).join(", ");
    return `Pot ${pot.index} (${pot.amount}): ${shares}${pot.ruleId ? ` [${pot.ruleId}]` : ""}`;
  });
  for (const shown of result.hands) lines.push(`Seat ${shown.seat}: ${shown.highName}${shown.hasLow ? ` / ${shown.lowName}` : ""}`);
  $("showdown-result").replaceChildren(...lines.map((l) => element("div", l)));
  const line = $("commitment");
  const commitment = await deckReveal(update);
  if (commitment === "refused") {
    line.textContent = "Deck not revealed by this server (it runs without --allow_deck_reveal): the commitment cannot be checked here.";
    line.dataset.verified = "not-revealed";
  } else if (commitment && commitment.revealedDeck.length > 0) {
    const text = new TextEncoder().encode(commitment.revealedDeck.join("") + "/" + commitment.revealedRecycleOrder.join(""));
    const preimage = new Uint8Array([...text, ...commitment.revealedSalt]);
    const published = hand.first?.publicView?.deckCommitment?.commitment ?? new Uint8Array();
    const ok = published.length > 0 && (await sha256Hex(preimage)) === hex(published);
    line.textContent = ok ? "Deck commitment verified: the deck was fixed before the first card." : "Deck commitment MISMATCH";
    line.dataset.verified = String(ok);
  } else {
    line.textContent = "No deck commitment (the cards were reported by a live dealer).";
    line.dataset.verified = "none";
  }
  $("verify-result").replaceChildren();
  $("showdown").hidden = false;
}

// Verifies the hand's signed receipt (docs/fairness.md) in this browser with
// WebCrypto: the signature with the key GetSigningKeys lists for its key id,
// the commitments of the NewHand answer, every card proof of the final update
// and of every seat's private view, and with a revealed seed the whole deck.
async function verifyHand(): Promise<void> {
  const out = $("verify-result");
  const update = hand?.update as (HandUpdate & { receipt?: { transcript: Uint8Array; signature: Uint8Array; keyId: string } }) | undefined;
  const receipt = update?.receipt;
  if (!hand || !update || !receipt?.transcript?.length) {
    out.replaceChildren(element("li", "No receipt: this server signs no receipts, or the hand is not complete."));
    out.dataset.verified = "none";
    return;
  }
  // Through the JSON API directly: any client can ask, no token.
  const reply = await fetch(`${location.origin}/stud.v1.StudService/GetSigningKeys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const keys = (await reply.json()) as { keys?: { keyId?: string; publicKey?: string }[] };
  const key = keys.keys?.find((k) => k.keyId === receipt.keyId);
  const verdict = await verifyReceipt({
    receipt: { transcript: receipt.transcript, signature: receipt.signature, keyId: receipt.keyId, publicKey: key?.publicKey ?? "" },
    newhand: hand.first,
    updates: [update],
    cards: update.privateViews,
    keys,
  });
  // Failed checks first: with every proof listed a hand has a few hundred.
  const ordered = [...verdict.checks.filter((c) => !c.ok), ...verdict.checks.filter((c) => c.ok)];
  const items = ordered.map((c) => element("li", `${c.ok ? "✓" : "✗"} ${c.what}`, c.ok ? "ok" : "failed"));
  items.unshift(element("li", verdict.ok ? `Receipt verified (${verdict.checks.length} checks, key ${receipt.keyId}).` : "Receipt REFUSED.", "verdict"));
  out.replaceChildren(...items);
  out.dataset.verified = String(verdict.ok);
}

// The deck behind the commitment of a complete SERVICE-dealt hand. The final
// public view does not carry it: a trusted caller asks GetView(reveal_deck),
// which a server started without --allow_deck_reveal refuses
// (PERMISSION_DENIED DECK_REVEAL_NOT_PERMITTED).
async function deckReveal(update: HandUpdate): Promise<DeckCommitment | "refused" | undefined> {
  const commitment = update.publicView?.deckCommitment;
  if (!hand || !commitment?.commitment.length || commitment.revealedDeck.length > 0) return commitment;
  try {
    const answer = await client.getView({ token: hand.token, revealDeck: true });
    return answer.update?.publicView?.deckCommitment;
  } catch (error) {
    const { code, reason } = errorDetails(error);
    if (code === Code.PermissionDenied && reason === "DECK_REVEAL_NOT_PERMITTED") return "refused";
    throw error;
  }
}

async function deal(): Promise<void> {
  const count = Number(value("seats"));
  const seats = Array.from({ length: count }, (_, i) => i + 1);
  const locale = value("locale") === "LOCALE_ES" ? Locale.ES : Locale.EN;
  const answer = await client.newHand({
    variant: Variant[value("variant").replace("VARIANT_", "") as keyof typeof Variant],
    stakes: { kind: { case: "preset", value: value("stakes") } },
    seats: seats.map((seat) => ({ seat, stack: BigInt(value("stack") || "0") })),
    dealingMode: value("dealing") === "DEALING_MODE_LIVE" ? DealingMode.LIVE : DealingMode.SERVICE,
    locale,
    privateViewSeats: seats,
  });
  hand = { token: new Uint8Array(), seats, locale, first: answer.update };
  for (const id of ["log", "announcements", "ruling", "showdown-result"]) $(id).replaceChildren();
  $("showdown").hidden = true;
  $("hand").hidden = false;
  await applyUpdate(answer.update);
}

async function reportIrregularity(): Promise<void> {
  if (!hand) return;
  const kind = Number(value("irregularity-kind")) as IrregularityKind;
  const report: MessageInitShape<typeof IrregularityReportSchema> = {
    kind,
    seat: Number(value("irregularity-seat")),
    cards: value("irregularity-cards").split(/[\s,]+/).filter(Boolean),
  };
  const answer = await client.ruleIrregularity({
    token: hand.token,
    report,
    expectedVersion: hand.update?.version,
    privateViewSeats: hand.seats,
  });
  if (answer.ruling) renderRuling(answer.ruling);
  await applyUpdate(answer.update);
}

function init(): void {
  const kinds = $<HTMLSelectElement>("irregularity-kind");
  for (const v of IrregularityKindSchema.values) {
    if (v.number === IrregularityKind.UNSPECIFIED) continue;
    const option = element("option", v.name.replace("IRREGULARITY_KIND_", "")) as HTMLOptionElement;
    option.value = String(v.number);
    kinds.append(option);
  }
  $("setup").onsubmit = (e) => {
    e.preventDefault();
    void call(deal);
  };
  $("report-card").onclick = () =>
    void call(async () => {
      const expected = hand?.update?.expectedDeal;
      if (!expected) return;
      await act({ kind: ActionKind.DEAL, seat: expected.seat, card: value("live-card"), faceUp: expected.faceUp });
      $<HTMLInputElement>("live-card").value = "";
    });
  $("report-irregularity").onclick = () => void call(reportIrregularity);
  $("verify").onclick = () => void call(verifyHand);
}

init();
