// CallContext: what one call depends on besides its request, passed to every
// HandService handler as a parameter (no thread-local). The gRPC adapter
// (server/stud_service.cc) makes one per call from the call's one
// authentication (server/callers.h), its observation (observability.h) and its
// ledger bookkeeping (trust/ledger.h); a test or tool calling HandService
// directly gets the default: a trusted backend call of tenant "", whose
// errors are in the request's language, with no span, hand facts or ledger.
#ifndef STUD_SERVICE_RPC_CALL_CONTEXT_H_
#define STUD_SERVICE_RPC_CALL_CONTEXT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "service/observability/call_trace.h"
#include "service/token/wire.h"
#include "service/trust/ledger.h"

namespace stud::service {

class HandLanguage;  // api/localized.h

struct CallContext {
  // The authenticated tenant ("" when caller authentication is off): every
  // token the call seals is bound to it, and every token it opens must be.
  absl::string_view tenant;
  // Authenticated by its seat ticket alone (a player's device, no API key):
  // it may act and read only as that ticket allows (trust/seat_tickets.h).
  bool device = false;
  // Where opening a hand notes its language, for the call's errors
  // (api/localized.h). Null: nowhere.
  HandLanguage* language = nullptr;
  // The call's server span and where its hand's facts are noted
  // (observability/call_trace.h); each null when not recorded.
  CallTrace trace;
  // Where opening and sealing a token note it for the hand ledger's one
  // commit or check of the call (trust/ledger.h). Null: no ledger bookkeeping.
  LedgerScope* ledger = nullptr;
  // GetView by hand id: the ledger's latest token of the hand, read before
  // the call was served, so that no handler thread waits on the ledger
  // (StudServiceImpl). Null: GetView reads it itself (LatestOfHand).
  const absl::StatusOr<LedgerLatest>* latest = nullptr;
  // Where a handler may write its whole response's wire bytes instead of
  // filling the response message, which then stays empty (NewHand, ApplyAction,
  // GetView, WatchHand: HandService::WriteUpdate); the caller sends these
  // bytes when they are not empty. Null: always the message (tests and
  // tools, which read it).
  wire::Buffer* response_bytes = nullptr;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_CALL_CONTEXT_H_
