// What a device does with each refusal of the service (docs/mobile.md, "Failures").
// The service states the reason of every refusal in google.rpc.ErrorInfo and a
// message in the caller's language (Accept-Language) in LocalizedMessage; a
// transport failure (no network, a proxy's 502/503) has neither.
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema, LocalizedMessageSchema } from "../gen/google/rpc/error_details_pb.js";

// retry:    send the same call again after a backoff (nothing was decided, or
//           the ledger answers the exact retry with the same answer);
// refetch:  the device's state is behind: fetch the latest (GetView by hand id),
//           then decide again;
// reopen:   a watch stream's deadline passed: open it again at once;
// fatal:    no retry helps (the rules refuse the action, the ticket is not
//           valid for this call, the hand is gone from the ledger).
export type Recovery = "retry" | "refetch" | "reopen" | "fatal";

export interface StudErrorDetails {
  code: Code;
  // ErrorInfo.reason ("TOKEN_SUPERSEDED", "STUD-BRING-1", ...); "" when absent.
  reason: string;
  // ErrorInfo.metadata (TOKEN_SUPERSEDED: token_version, latest_version).
  metadata: Record<string, string>;
  // The message in the language asked for (LocalizedMessage), else the status message.
  message: string;
  // LocalizedMessage.locale ("es-ES"), "" when absent.
  locale: string;
  // The service never answered: a network or proxy failure.
  transport: boolean;
}

export function errorDetails(error: unknown): StudErrorDetails {
  const e = ConnectError.from(error);
  const info = e.findDetails(ErrorInfoSchema)[0];
  const localized = e.findDetails(LocalizedMessageSchema)[0];
  return {
    code: e.code,
    reason: info?.reason ?? "",
    metadata: { ...(info?.metadata ?? {}) },
    message: localized?.message || e.rawMessage,
    locale: localized?.locale ?? "",
    // fetch() rejects with a TypeError when no HTTP answer came at all.
    transport: !info && (e.cause instanceof TypeError || e.code === Code.Unavailable),
  };
}

// The wait the service asked for (SEAT_RATE_LIMITED: ErrorInfo.metadata
// retry_after_ms), if any.
export function retryAfterMs(error: unknown): number | undefined {
  const ms = Number(errorDetails(error).metadata["retry_after_ms"]);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

export function recoveryFor(error: unknown): Recovery {
  const { code, reason, transport } = errorDetails(error);
  switch (code) {
    case Code.Unavailable:
      // A watch with no new version for a while: nothing is wrong.
      if (reason === "WATCH_IDLE") return "reopen";
      // LEDGER_UNAVAILABLE, SERVER_DRAINING, a proxy with no backend, no network.
      return "retry";
    case Code.ResourceExhausted: // SERVER_OVERLOADED, SEAT_RATE_LIMITED, WATCHER_TOO_SLOW
      return "retry";
    case Code.DeadlineExceeded: // a stream's deadline (the gateway's default applies to streams too)
      return "reopen";
    case Code.FailedPrecondition:
      // The ledger's stream of versions was trimmed past this device's last
      // one: catch up with GetView, then watch from there.
      return reason === "WATCH_HISTORY_GONE" ? "refetch" : "fatal";
    case Code.Aborted: // TOKEN_SUPERSEDED, VERSION_MISMATCH: someone else moved the hand on
      return reason === "HAND_ID_MISMATCH" ? "fatal" : "refetch";
    case Code.OutOfRange: // WatchHand after a version this device cannot have seen
      return "refetch";
    case Code.Unknown:
      return transport ? "retry" : "fatal";
    default:
      return "fatal";
  }
}
