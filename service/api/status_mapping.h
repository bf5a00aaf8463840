// The one place where an absl::Status becomes a grpc::Status.
//
//   engine / service status                 gRPC code            ErrorInfo.reason
//   INVALID_ARGUMENT ("field: why")         INVALID_ARGUMENT     INVALID_ARGUMENT
//   FAILED_PRECONDITION with a rule ID      FAILED_PRECONDITION  the rule ID ("STUD-CAP-1")
//   FAILED_PRECONDITION without one         FAILED_PRECONDITION  FAILED_PRECONDITION
//   token errors (sealer.h)                 UNAUTHENTICATED      TOKEN_MALFORMED, ...
//   version mismatch (VersionMismatch)      ABORTED              VERSION_MISMATCH
//   another hand's token (HandIdMismatch)  ABORTED              HAND_ID_MISMATCH
//   reveal_deck this caller may not have    PERMISSION_DENIED    DECK_REVEAL_NOT_PERMITTED
//   reveal_deck of a hand in progress       FAILED_PRECONDITION  DECK_NOT_REVEALABLE_YET
//   not the hand's latest token (ledger)    ABORTED              TOKEN_SUPERSEDED
//   no ledger entry for the hand            FAILED_PRECONDITION  HAND_NOT_IN_LEDGER
//   GetView by hand_id, server without one  FAILED_PRECONDITION  LEDGER_NOT_CONFIGURED
//   token without a hand id (ledger on)     FAILED_PRECONDITION  HAND_ID_REQUIRED
//   ledger unreachable                      UNAVAILABLE          LEDGER_UNAVAILABLE
//   the tenant's calls at its limit         RESOURCE_EXHAUSTED   TENANT_OVERLOADED
//   the server is stopping (SIGTERM)        UNAVAILABLE          SERVER_DRAINING
//   a hand dealt with the ledger, opened    FAILED_PRECONDITION  LEDGER_REQUIRED
//     on a replica without one
//   a device's seat over its rate limit     RESOURCE_EXHAUSTED   SEAT_RATE_LIMITED
//   any error made by WithReason            its code             its reason
//   anything else                           same code            the code's name
// UNKNOWN never leaves the server: it becomes INTERNAL. Every error carries
// grpc-status-details-bin = google.rpc.Status{code, message, details = [ErrorInfo
// {reason, domain "stud.v1", metadata}, LocalizedMessage}]}: {"en-US", message}, or
// Spanish when the call asked for it (localized.h).
#ifndef STUD_SERVICE_API_STATUS_MAPPING_H_
#define STUD_SERVICE_API_STATUS_MAPPING_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace stud::service {

inline constexpr char kErrorDomain[] = "stud.v1";

// ABORTED: the request named a version the token does not have.
absl::Status VersionMismatch(uint64_t expected, uint64_t actual);
// ABORTED, reason HAND_ID_MISMATCH: the token is another hand's (or has no id).
absl::Status HandIdMismatch(absl::string_view expected, absl::string_view actual);

// GetView's reveal_deck (rpc/dealing.h). PERMISSION_DENIED, reason
// DECK_REVEAL_NOT_PERMITTED: `why` this caller may never have the reveal.
absl::Status DeckRevealNotPermitted(absl::string_view why);
// FAILED_PRECONDITION, reason DECK_NOT_REVEALABLE_YET: the hand is in progress.
absl::Status DeckNotRevealableYet();

// Hand ledger (ledger.h). ABORTED, reason TOKEN_SUPERSEDED: the token is
// version `token_version` of the hand, whose latest token is `latest_version`.
absl::Status TokenSuperseded(absl::string_view hand_id, uint64_t token_version,
                             uint64_t latest_version);
// FAILED_PRECONDITION, reason HAND_NOT_IN_LEDGER: expired or never registered.
// `field`: the request field that named the hand.
absl::Status HandNotInLedger(absl::string_view hand_id, absl::string_view field = "token");
// FAILED_PRECONDITION, reason LEDGER_NOT_CONFIGURED: `what` (a request field)
// needs the hand ledger and this server runs without one.
absl::Status LedgerNotConfigured(absl::string_view what);
// FAILED_PRECONDITION, reason HAND_ID_REQUIRED: a token sealed before hands had ids.
absl::Status LedgerNeedsHandId();
// UNAVAILABLE, reason LEDGER_UNAVAILABLE: nothing was applied.
absl::Status LedgerUnavailable(absl::string_view why);

// RESOURCE_EXHAUSTED (reason RESOURCE_EXHAUSTED): `max_in_flight` calls are
// queued or running (--max_in_flight, server/admission.h); retry with backoff.
absl::Status ServerOverloaded(int max_in_flight);

// RESOURCE_EXHAUSTED, reason TENANT_OVERLOADED: `tenant` has `limit` calls
// queued or running (--max_in_flight_per_tenant, trust/tenant_limits.h).
absl::Status TenantOverloaded(absl::string_view tenant, int limit);

// UNAVAILABLE, reason SERVER_DRAINING: the server is stopping; retry (another
// replica answers). Nothing was applied.
absl::Status ServerDraining();

// FAILED_PRECONDITION, reason LEDGER_REQUIRED: the hand was dealt with the
// hand ledger (its sealed policy) and this replica runs without one.
absl::Status LedgerRequired(absl::string_view hand_id);

// RESOURCE_EXHAUSTED, reason SEAT_RATE_LIMITED: a device's seat sent more
// calls than --seat_rate_limit allows; retry after `retry_after_ms`
// (ErrorInfo.metadata retry_after_ms).
absl::Status SeatRateLimited(int seat, int64_t retry_after_ms);

// An error of `code` whose ErrorInfo.reason is `reason` (an UPPER_SNAKE name
// listed in docs/api.md), for refusals that need no metadata of their own.
absl::Status WithReason(absl::StatusCode code, absl::string_view reason, absl::string_view message);
// The reason WithReason attached to `status`, or "" when it attached none. The
// floors above this one (trust/: callers, seat tickets) make their refusals
// with WithReason, so this mapping needs none of their headers.
std::string ReasonOf(const absl::Status& status);

// INVALID_ARGUMENT: the request's bytes are not the method's request message.
absl::Status UndecodableRequest(absl::string_view method);

grpc::Status ToGrpcStatus(const absl::Status& status);

// The ErrorInfo.reason ToGrpcStatus would attach (for metrics and tests).
std::string ErrorReason(const absl::Status& status);

}  // namespace stud::service

#endif  // STUD_SERVICE_API_STATUS_MAPPING_H_
