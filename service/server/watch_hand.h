// WatchHand: a server stream of every version of one hand, as one seat sees
// it, from any replica (docs/api.md, "WatchHand").
//
// Per call, in order (each refusal ends the stream before any message):
//   request      bytes that are not a WatchHandRequest: INVALID_ARGUMENT
//   draining     UNAVAILABLE SERVER_DRAINING
//   caller       authenticated as the unary calls are (server/callers.h: the
//                platform's API key, or a device's seat ticket alone)
//   ledger       none on this server: FAILED_PRECONDITION LEDGER_NOT_CONFIGURED
//   hand_id      32 hex digits, else INVALID_ARGUMENT
//   latest       the ledger's latest entry (Ledger::StartLatest; the stream
//                holds no thread meanwhile): none =
//                FAILED_PRECONDITION HAND_NOT_IN_LEDGER; Redis down =
//                UNAVAILABLE LEDGER_UNAVAILABLE
//   ticket       checked against the hand as GetView checks it (seat_tickets.h)
//   after_version  later than the latest version: OUT_OF_RANGE
//   limits       --max_watchers, --max_watchers_per_tenant: RESOURCE_EXHAUSTED
// Then every version after after_version (after_version 0: from the deal,
// version 0, on), in order, each once: first those already committed, then
// each new one as the hub reads it (trust/watch_hub.h). Each message is a
// HandUpdate built from that version's token (HandService::WatchUpdate) with
// that version's operations, sent as the bytes the service writes for it
// (rpc/update_bytes.cc; the method is raw, as the unary ones are). The
// stream ends OK after the version that completed the hand (at once when
// after_version is already that version),
// and otherwise with a retryable status after which the client resumes with
// after_version = the last version it received: UNAVAILABLE SERVER_DRAINING
// (the drain), WATCH_IDLE (--watch_idle_timeout_seconds without a change),
// LEDGER_UNAVAILABLE; RESOURCE_EXHAUSTED WATCHER_TOO_SLOW (a client that does
// not read).
//
// Each call holds at most kWatchQueueMessages versions waiting to be written;
// versions beyond stay in Redis until the client reads (the hub's
// backpressure), so a slow client costs its queue, not the server's memory.
#ifndef STUD_SERVICE_SERVER_WATCH_HAND_H_
#define STUD_SERVICE_SERVER_WATCH_HAND_H_

#include <atomic>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "service/api/localized.h"
#include "service/rpc/hand_service.h"
#include "service/server/callers.h"
#include "service/trust/ledger.h"
#include "service/trust/watch_hub.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

inline constexpr size_t kWatchQueueMessages = 32;

struct WatchHandDeps {
  const HandService* hands = nullptr;
  Ledger* ledger = nullptr;  // null: LEDGER_NOT_CONFIGURED
  WatchHub* hub = nullptr;   // null: LEDGER_NOT_CONFIGURED
  // Counts the streams awaiting the ledger's answer to open, which the
  // owner of `hands` waits for before it goes (its destructor). May be null.
  std::atomic<int>* opening = nullptr;
};

// Starts one call; gRPC runs the returned reactor (which deletes itself when
// the call is done). `caller` is the outcome of the call's one authentication
// (callers.h, as for the unary calls); `refusal`, when
// not OK, ends the call at once (the drain). `language`: the call's
// Accept-Language, in which every error of the stream is localized.
grpc::ServerWriteReactor<grpc::ByteBuffer>* StartWatchHand(
    const WatchHandDeps& deps, stud::v1::WatchHandRequest request, absl::StatusOr<Caller> caller,
    const absl::Status& refusal, std::optional<MessageLanguage> language = std::nullopt);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_WATCH_HAND_H_
