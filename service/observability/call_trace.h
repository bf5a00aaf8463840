// CallTrace: what one call's spans and log lines are about, passed as a
// parameter (no thread-local) from the call's observation (observability.h,
// ServeUnary, which owns both parts) to its handler (rpc/call_context.h,
// CallContext::trace) and to the log lines written for the call (logging.h).
// Both parts may be null: a call made without the gRPC server (tests, tools)
// records no span and notes no hand.
#ifndef STUD_SERVICE_OBSERVABILITY_CALL_TRACE_H_
#define STUD_SERVICE_OBSERVABILITY_CALL_TRACE_H_

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"

namespace stud::service {

class RpcSpan;        // tracing.h
class HandFactsSink;  // hand_facts.h

struct CallTrace {
  // The call's server span (null: tracing off). Child spans hang from it
  // (tracing.h ChildSpan) and the call's log lines carry its ids.
  RpcSpan* span = nullptr;
  // Where the handler notes the facts and the id of the hand it is on, for
  // the call's metrics, span and log lines (null: nowhere).
  HandFactsSink* hand = nullptr;
};

// A handler's completion: the call's status, once, from any thread (at once,
// or later from the ledger's: trust/ledger.h). ServeUnary (observability.h)
// answers the call from it.
using HandlerDone = absl::AnyInvocable<void(absl::Status) &&>;

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_CALL_TRACE_H_
