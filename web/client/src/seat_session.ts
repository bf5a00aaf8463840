// SeatSession: one player's device in one hand, holding nothing but its seat
// ticket (docs/mobile.md). It
//   - fetches the latest state (GetView by hand id: the ledger's latest token);
//   - watches the hand (WatchHand), and on a broken stream reopens it after the
//     last version it has seen, so no version is lost or repeated;
//   - acts (ApplyAction with the latest token, expected_version and the ticket);
//   - recovers by itself where the service says it may: UNAVAILABLE and
//     RESOURCE_EXHAUSTED are retried with capped exponential backoff (the
//     ledger answers an exact retry with the same answer, so a retried action
//     is never applied twice); TOKEN_SUPERSEDED and VERSION_MISMATCH refetch the
//     latest state and retry the action only if it is still this seat's turn
//     and the same action is still legal. Everything else is the caller's to show.
// State changes are delivered to `on("update")` listeners, in version order,
// each version once.
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import {
  ActionKind,
  OperationType,
  Phase,
  StudService,
  UpdateDetail,
  type HandUpdate,
  type LegalAction,
  type Operation,
  type PrivateView,
  type PublicView,
  type SeatCard,
} from "../gen/stud/v1/stud_pb.js";
import { recoveryFor, retryAfterMs } from "./errors.js";
import { readSeatTicket } from "./ticket.js";

// The routing hint's metadata name (web/src/pool.ts defines the gateway's use).
const HAND_HINT = "x-stud-hand-id";

export interface SeatSessionOptions {
  // connect-web's createConnectTransport / createGrpcWebTransport (browser), or
  // connect-node's (server-side tests). Point it at the gateway.
  transport: Transport;
  // NewHandResponse.seat_tickets[i].ticket of this device's seat.
  seatTicket: Uint8Array;
  // The hand id, when the platform sends it too: checked against the ticket's.
  handId?: string;
  // Detail of watched and acted updates: COMPACT (default) leaves out the
  // hand's fixed facts, which this session keeps from its first GetView.
  detail?: UpdateDetail;
  // Accept-Language of every call ("es"): refusals come in that language.
  locale?: string;
  // Tries per call, and failed reconnects in a row of the watch (default 6).
  maxAttempts?: number;
  // Backoff before retry n: min(maxDelayMs, initialDelayMs * 2^(n-1)), times
  // a random factor in [0.5, 1) so that many devices do not retry in step.
  initialDelayMs?: number;
  maxDelayMs?: number;
  // Deadline of one WatchHand stream; it is then reopened after the last
  // version seen (default 60 s, so a stream a mobile network dropped silently
  // is renewed within a minute; 0 = none of its own: the gateway's
  // --stream_timeout_ms, one hour).
  watchTimeoutMs?: number;
  // Deadline of each unary call (default 10 s).
  callTimeoutMs?: number;
}

export type ConnectionStatus = "idle" | "connecting" | "live" | "reconnecting" | "ended" | "failed" | "stopped";
export type UpdateSource = "view" | "watch" | "action";

export interface SeatState {
  handId: string;
  seat: number;
  // The latest version this device has seen, and its token.
  version: bigint;
  token: Uint8Array;
  // The public view with the hand's fixed facts filled in from the first
  // full answer, so it is complete whatever detail the updates use.
  publicView: PublicView;
  // This seat's own cards, every one visible to it (the table ticket: none).
  privateView?: PrivateView;
  // Every operation seen, by log index (a GetView fills the whole log).
  log: Operation[];
  toAct: number;
  // Legal actions of the seat to act (exact amounts); act() only with this seat's.
  legalActions: LegalAction[];
  myTurn: boolean;
  complete: boolean;
  // The answer this state came from.
  update: HandUpdate;
}

interface Events {
  update: (state: SeatState, update: HandUpdate, source: UpdateSource) => void;
  connection: (status: ConnectionStatus, error?: ConnectError) => void;
  // A call given up on: out of attempts, or a refusal no retry can help.
  error: (error: ConnectError, during: string) => void;
}

// Thrown by act() when, after catching up, the action is no longer this
// seat's to take (someone acted first, or the amounts changed).
export class ActionNoLongerLegalError extends Error {
  constructor(readonly state: SeatState) {
    super("the hand moved on: that action is no longer legal for this seat");
    this.name = "ActionNoLongerLegalError";
  }
}

const FIXED_FACTS = ["variant", "stakes", "profile", "options", "dealingMode", "policy"] as const;

export class SeatSession {
  readonly handId: string;
  readonly seat: number;
  private readonly client: Client<typeof StudService>;
  private readonly options: Required<Omit<SeatSessionOptions, "handId" | "locale" | "watchTimeoutMs">> &
    Pick<SeatSessionOptions, "locale" | "watchTimeoutMs">;
  private current?: SeatState;
  private fixedFacts?: Pick<PublicView, (typeof FIXED_FACTS)[number]>;
  private readonly listeners: { [K in keyof Events]: Set<Events[K]> } = {
    update: new Set(),
    connection: new Set(),
    error: new Set(),
  };
  private watchAbort?: AbortController;
  private watching?: Promise<void>;
  private acting = false;
  private lastRetryAfter?: number;
  private status: ConnectionStatus = "idle";

  constructor(options: SeatSessionOptions) {
    const info = readSeatTicket(options.seatTicket);
    if (options.handId && options.handId.toLowerCase() !== info.handId) {
      throw new TypeError(`the seat ticket is for hand ${info.handId}, not ${options.handId}`);
    }
    this.handId = info.handId;
    this.seat = info.seat;
    this.options = {
      detail: UpdateDetail.COMPACT,
      maxAttempts: 6,
      initialDelayMs: 200,
      maxDelayMs: 5_000,
      callTimeoutMs: 10_000,
      watchTimeoutMs: 60_000,
      ...options,
    };
    this.client = createClient(StudService, options.transport);
  }

  get state(): SeatState | undefined {
    return this.current;
  }

  get connection(): ConnectionStatus {
    return this.status;
  }

  on<K extends keyof Events>(event: K, listener: Events[K]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  // Fetches the latest state, then watches until the hand is complete or stop().
  async start(): Promise<SeatState> {
    const state = await this.refresh();
    this.watch();
    return state;
  }

  // GetView by hand id: the ledger's latest version as this seat sees it.
  async refresh(): Promise<SeatState> {
    const answer = await this.withRetry("GetView", () =>
      this.client.getView(
        { handId: this.handId, seatTicket: this.options.seatTicket, privateViewSeats: this.ownSeats() },
        this.callOptions(),
      ),
    );
    if (!answer.update) throw new ConnectError("GetView answered without an update", Code.Internal);
    this.apply(answer.update, "view");
    return this.current!;
  }

  // Opens the watch (once); it reopens itself until the hand is complete.
  watch(): void {
    if (this.watching) return;
    const abort = new AbortController();
    this.watchAbort = abort;
    this.watching = this.runWatch(abort.signal).finally(() => {
      if (this.watchAbort === abort) {
        this.watching = undefined;
        this.watchAbort = undefined;
      }
    });
  }

  // Closes the watch; start() or watch() opens it again after the last version seen.
  async stop(): Promise<void> {
    this.watchAbort?.abort();
    await this.watching;
    this.setStatus("stopped");
  }

  // Takes one of this seat's legal actions (`amountTo` as in LegalAction).
  async act(kind: ActionKind, amountTo = 0n): Promise<SeatState> {
    if (this.acting) throw new Error("an action of this seat is already in flight");
    this.acting = true;
    try {
      if (!this.current) await this.refresh();
      for (let attempt = 1; ; attempt++) {
        const state = this.current!;
        if (!state.myTurn || !state.legalActions.some((a) => a.kind === kind && a.amountTo === amountTo)) {
          throw new ActionNoLongerLegalError(state);
        }
        try {
          const answer = await this.withRetry("ApplyAction", () =>
            this.client.applyAction(
              {
                token: state.token,
                action: { kind, seat: this.seat, amountTo },
                expectedVersion: state.version,
                seatTicket: this.options.seatTicket,
                privateViewSeats: this.ownSeats(),
                detail: this.options.detail,
              },
              this.callOptions(),
            ),
          );
          if (answer.update) this.apply(answer.update, "action");
          return this.current!;
        } catch (error) {
          // Behind: catch up, then decide again (the loop re-checks legality).
          if (recoveryFor(error) !== "refetch" || attempt >= this.options.maxAttempts) throw error;
          await this.refresh();
          // A retried call may have landed before its answer was lost: it was
          // this seat's turn at `state`, so the next operation is its action.
          if (landed(this.current!, state.log.length, this.seat, kind)) return this.current!;
        }
      }
    } finally {
      this.acting = false;
    }
  }

  // The settlement of the complete hand (pots, winners, shown hands).
  async resolveShowdown() {
    return this.withRetry("ResolveShowdown", () =>
      this.client.resolveShowdown(
        { hand: { case: "token", value: this.current!.token }, seatTicket: this.options.seatTicket },
        this.callOptions(),
      ),
    );
  }

  private ownSeats(): number[] {
    return this.seat > 0 ? [this.seat] : [];
  }

  private callOptions(timeoutMs: number | undefined = this.options.callTimeoutMs, signal?: AbortSignal) {
    // Every call names the hand, so that a gateway or load balancer keeps the
    // hand's calls on one stud_server, which then finds the hand it answered
    // still decoded (docs/api.md, "The hand hint"; the gateway's HAND_HINT).
    const headers: Record<string, string> = { [HAND_HINT]: this.handId };
    if (this.options.locale) headers["accept-language"] = this.options.locale;
    return { headers, timeoutMs, signal };
  }

  private backoffMs(failures: number): number {
    const { initialDelayMs, maxDelayMs } = this.options;
    return Math.min(maxDelayMs, initialDelayMs * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
  }

  // Retries `call` on the refusals that say "try again" (UNAVAILABLE,
  // RESOURCE_EXHAUSTED, a lost connection, a deadline), at most maxAttempts tries.
  private async withRetry<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const recovery = recoveryFor(error);
        if ((recovery !== "retry" && recovery !== "reopen") || attempt >= this.options.maxAttempts) {
          const e = ConnectError.from(error);
          if (recovery !== "refetch") this.emit("error", e, what);
          throw e;
        }
        await sleep(retryAfterMs(error) ?? this.backoffMs(attempt));
      }
    }
  }

  private async runWatch(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      if (this.current?.complete) return this.setStatus("ended");
      this.setStatus(failures > 0 ? "reconnecting" : "connecting");
      try {
        if (!this.current) await this.refresh();
        const stream = this.client.watchHand(
          {
            handId: this.handId,
            seatTicket: this.options.seatTicket,
            afterVersion: this.current!.version,
            detail: this.options.detail,
          },
          this.callOptions(this.options.watchTimeoutMs || undefined, signal),
        );
        this.setStatus("live");
        for await (const message of stream) {
          failures = 0;
          if (message.update) this.apply(message.update, "watch");
        }
        if (this.current?.complete) return this.setStatus("ended");
        // Closed OK before the end (a replica shutting down): reopen, with backoff.
        failures++;
      } catch (error) {
        if (signal.aborted) return;
        const e = ConnectError.from(error);
        const recovery = recoveryFor(e);
        this.lastRetryAfter = retryAfterMs(e);
        if (recovery === "reopen") {
          // Not a failure (an idle hand, the stream's deadline); a short pause
          // keeps a misconfigured deadline from spinning.
          await sleep(Math.min(this.options.initialDelayMs, 100), signal);
          continue;
        }
        if (recovery === "refetch") {
          failures++;
          await this.refresh().catch(() => undefined);
        } else if (recovery === "fatal" || ++failures > this.options.maxAttempts) {
          this.setStatus("failed", e);
          this.emit("error", e, "WatchHand");
          return;
        }
      }
      await sleep(this.lastRetryAfter ?? this.backoffMs(Math.max(failures, 1)), signal);
      this.lastRetryAfter = undefined;
    }
  }

  // Applies an update newer than the current state (a GetView also at the
  // same version: it brings the whole log). Older or repeated ones are dropped.
  private apply(update: HandUpdate, source: UpdateSource): void {
    const previous = this.current;
    if (previous && (update.version < previous.version || (update.version === previous.version && source !== "view"))) {
      return;
    }
    const view = update.publicView;
    if (!view) return; // UPDATE_DETAIL_CHANGES is not used by this session
    const compact = !view.variant;
    if (!compact) this.fixedFacts = Object.fromEntries(FIXED_FACTS.map((k) => [k, view[k]])) as typeof this.fixedFacts;
    const publicView: PublicView = { ...view, ...(compact ? this.fixedFacts : {}) };
    if (compact && previous) {
      // A compact view lists only the seats this version touched: the others
      // are as before.
      const seats = new Map(previous.publicView.seats.map((s) => [s.seat, s]));
      for (const s of view.seats) seats.set(s.seat, s);
      publicView.seats = [...seats.values()].sort((a, b) => a.seat - b.seat);
      publicView.deckCommitment ??= previous.publicView.deckCommitment;
    }
    const log = source === "view" ? [] : [...(previous?.log ?? [])];
    for (const op of update.operations) log[op.index] = op;
    const privateView = update.privateViews.find((p) => p.seat === this.seat) ?? previous?.privateView;
    const complete = view.phase === Phase.COMPLETE;
    this.current = {
      handId: this.handId,
      seat: this.seat,
      version: update.version,
      token: update.token,
      publicView,
      privateView,
      log,
      toAct: update.toAct,
      legalActions: update.legalActions,
      myTurn: !complete && this.seat > 0 && update.toAct === this.seat && update.legalActions.length > 0,
      complete,
      update,
    };
    this.emit("update", this.current, update, source);
  }

  private setStatus(status: ConnectionStatus, error?: ConnectError): void {
    if (status === this.status) return;
    this.status = status;
    this.emit("connection", status, error);
  }

  private emit<K extends keyof Events>(event: K, ...args: Parameters<Events[K]>): void {
    for (const listener of this.listeners[event]) {
      try {
        (listener as (...a: Parameters<Events[K]>) => void)(...args);
      } catch (error) {
        console.error(`SeatSession ${event} listener failed`, error);
      }
    }
  }
}

// The operation each action appends to the log.
const OPERATION_OF: Partial<Record<ActionKind, OperationType>> = {
  [ActionKind.FOLD]: OperationType.FOLD,
  [ActionKind.CHECK]: OperationType.CHECK,
  [ActionKind.CALL]: OperationType.CALL,
  [ActionKind.BRING_IN]: OperationType.BRING_IN,
  [ActionKind.COMPLETE]: OperationType.COMPLETE,
  [ActionKind.BET]: OperationType.BET,
  [ActionKind.RAISE]: OperationType.RAISE,
  [ActionKind.SHOW]: OperationType.SHOW,
  [ActionKind.MUCK]: OperationType.MUCK,
  [ActionKind.DECLARE_ALL_IN]: OperationType.DECLARE_ALL_IN,
  [ActionKind.DECLINE_OPTION]: OperationType.DECLINE_OPTION,
};

function landed(state: SeatState, logLength: number, seat: number, kind: ActionKind): boolean {
  const next = state.log[logLength];
  return next !== undefined && next.seat === seat && next.type === OPERATION_OF[kind];
}

// This seat's cards as it sees them: its private view when it has one,
// else its seat's cards in the public view.
// A compact private view may hold only the seat's down cards: they then fill,
// in order, the cards its public seat shows hidden.
export function ownCards(state: SeatState): SeatCard[] {
  const open = state.publicView.seats.find((s) => s.seat === state.seat)?.cards ?? [];
  const own = state.privateView?.cards ?? [];
  if (own.length >= open.length) return own;
  const down = own.filter((c) => !c.faceUp);
  return open.map((c) => (c.card || c.faceUp ? c : { ...c, card: down.shift()?.card ?? "" }));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
