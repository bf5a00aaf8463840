#include "service/api/status_mapping.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "service/api/deterministic_bytes.h"
#include "service/api/localized.h"
#include "service/token/sealer.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace {
constexpr absl::string_view kVersionPayload = "type.stud/version_mismatch";
constexpr absl::string_view kHandIdPayload = "type.stud/hand_id_mismatch";
constexpr absl::string_view kSupersededPayload = "type.stud/token_superseded";
constexpr absl::string_view kLedgerPayload = "type.stud/ledger";
// A reason of its own (TENANT_OVERLOADED, SERVER_DRAINING, CALLER_UNAUTHENTICATED, the
// SEAT_TICKET_* refusals): ErrorInfo.reason is the payload.
constexpr absl::string_view kReasonPayload = "type.stud/reason";
// How long to wait before retrying: ErrorInfo.metadata retry_after_ms.
constexpr absl::string_view kRetryAfterPayload = "type.stud/retry_after_ms";
}  // namespace

absl::Status VersionMismatch(uint64_t expected, uint64_t actual) {
  absl::Status s(absl::StatusCode::kAborted,
                 absl::StrCat("expected_version: the request expects version ", expected,
                              " but the token is at version ", actual,
                              " (stale or duplicate call; fetch the latest token)"));
  s.SetPayload(kVersionPayload, absl::Cord(absl::StrCat(expected, "/", actual)));
  return s;
}

absl::Status HandIdMismatch(absl::string_view expected, absl::string_view actual) {
  absl::Status s(absl::StatusCode::kAborted,
                 actual.empty()
                     ? absl::StrCat("expected_hand_id: the request expects hand ", expected,
                                    " but the token was sealed before hands had ids")
                     : absl::StrCat("expected_hand_id: the request expects hand ", expected,
                                    " but the token is hand ", actual,
                                    " (a token of another hand; send this hand's latest token)"));
  s.SetPayload(kHandIdPayload, absl::Cord(actual));
  return s;
}

absl::Status DeckRevealNotPermitted(absl::string_view why) {
  return WithReason(absl::StatusCode::kPermissionDenied, "DECK_REVEAL_NOT_PERMITTED",
                    absl::StrCat("reveal_deck: ", why));
}

absl::Status DeckNotRevealableYet() {
  return WithReason(absl::StatusCode::kFailedPrecondition, "DECK_NOT_REVEALABLE_YET",
                    "reveal_deck: the hand is still in progress; its deck is revealed only once "
                    "the hand is complete (PHASE_COMPLETE); ask again then");
}

absl::Status TokenSuperseded(absl::string_view hand_id, uint64_t token_version,
                             uint64_t latest_version) {
  absl::Status s(absl::StatusCode::kAborted,
                 absl::StrCat("token: superseded: hand ", hand_id, " has moved on from version ",
                              token_version, " to version ", latest_version,
                              " (only the hand's latest token is accepted; fetch it and retry)"));
  s.SetPayload(kSupersededPayload, absl::Cord(absl::StrCat(token_version, "/", latest_version)));
  return s;
}

absl::Status HandNotInLedger(absl::string_view hand_id, absl::string_view field) {
  absl::Status s(
      absl::StatusCode::kFailedPrecondition,
      absl::StrCat(field, ": hand ", hand_id,
                   " is not in the hand ledger (its entry expired, or the hand was dealt by a "
                   "server without --ledger)"));
  s.SetPayload(kLedgerPayload, absl::Cord("HAND_NOT_IN_LEDGER"));
  return s;
}

absl::Status LedgerNotConfigured(absl::string_view what) {
  absl::Status s(absl::StatusCode::kFailedPrecondition,
                 absl::StrCat(what,
                              ": needs the hand ledger, and this server runs without one (start "
                              "it with --ledger redis://HOST:PORT, or send the hand's token)"));
  s.SetPayload(kLedgerPayload, absl::Cord("LEDGER_NOT_CONFIGURED"));
  return s;
}

absl::Status LedgerNeedsHandId() {
  absl::Status s(
      absl::StatusCode::kFailedPrecondition,
      "token: sealed before hands had ids; this server keeps a hand ledger and accepts only "
      "tokens of hands dealt with an id (start a new hand)");
  s.SetPayload(kLedgerPayload, absl::Cord("HAND_ID_REQUIRED"));
  return s;
}

absl::Status LedgerUnavailable(absl::string_view why) {
  absl::Status s(absl::StatusCode::kUnavailable,
                 absl::StrCat("hand ledger unavailable: ", why,
                              "; no answer was sent: retry the same call with backoff"));
  s.SetPayload(kLedgerPayload, absl::Cord("LEDGER_UNAVAILABLE"));
  return s;
}

absl::Status ServerOverloaded(int max_in_flight) {
  return absl::ResourceExhaustedError(
      absl::StrCat("server overloaded: ", max_in_flight,
                   " calls are queued or running (--max_in_flight); retry with backoff"));
}

absl::Status TenantOverloaded(absl::string_view tenant, int limit) {
  return WithReason(absl::StatusCode::kResourceExhausted, "TENANT_OVERLOADED",
                    absl::StrCat("tenant ", tenant, " has ", limit,
                                 " calls queued or running (--max_in_flight_per_tenant); retry "
                                 "with backoff"));
}

absl::Status ServerDraining() {
  return WithReason(absl::StatusCode::kUnavailable, "SERVER_DRAINING",
                    "server draining: this replica is stopping and took no action; retry the same "
                    "call (another replica will answer)");
}

absl::Status WithReason(absl::StatusCode code, absl::string_view reason,
                        absl::string_view message) {
  absl::Status s(code, message);
  s.SetPayload(kReasonPayload, absl::Cord(reason));
  return s;
}

std::string ReasonOf(const absl::Status& status) {
  if (auto reason = status.GetPayload(kReasonPayload)) return std::string(*reason);
  return "";
}

absl::Status LedgerRequired(absl::string_view hand_id) {
  return WithReason(
      absl::StatusCode::kFailedPrecondition, "LEDGER_REQUIRED",
      absl::StrCat("token: hand ", hand_id,
                   " was dealt with the hand ledger and this replica runs without one; it is "
                   "never served without it (send the call to a replica started with --ledger)"));
}

absl::Status SeatRateLimited(int seat, int64_t retry_after_ms) {
  absl::Status s = WithReason(absl::StatusCode::kResourceExhausted, "SEAT_RATE_LIMITED",
                              absl::StrCat("seat ", seat,
                                           " sent calls faster than this server allows a seat "
                                           "(--seat_rate_limit); retry in ",
                                           retry_after_ms, " ms"));
  s.SetPayload(kRetryAfterPayload, absl::Cord(absl::StrCat(retry_after_ms)));
  return s;
}

absl::Status UndecodableRequest(absl::string_view method) {
  return absl::InvalidArgumentError(
      absl::StrCat("request: the bytes sent to ", method, " are not a valid stud.v1.", method,
                   "Request message (protobuf wire format; strings in UTF-8)"));
}

std::string ErrorReason(const absl::Status& status) {
  if (std::string token = TokenErrorReasonOf(status); !token.empty()) return token;
  if (status.GetPayload(kVersionPayload)) return "VERSION_MISMATCH";
  if (status.GetPayload(kHandIdPayload)) return "HAND_ID_MISMATCH";
  if (status.GetPayload(kSupersededPayload)) return "TOKEN_SUPERSEDED";
  if (auto ledger = status.GetPayload(kLedgerPayload)) return std::string(*ledger);
  if (auto tenant = status.GetPayload(kReasonPayload)) return std::string(*tenant);
  if (std::string rule = RuleIdOf(status); !rule.empty()) return rule;
  return absl::StatusCodeToString(status.code());
}

namespace {
// One ErrorInfo.metadata entry, out of line: inlined into ToGrpcStatus, GCC
// 12 at -O3 reports a false -Warray-bounds inside protobuf's Map::operator[].
[[gnu::noinline]] void SetMetadata(google::rpc::ErrorInfo* info, const std::string& key,
                                   std::string value) {
  (*info->mutable_metadata())[key] = std::move(value);
}
}  // namespace

grpc::Status ToGrpcStatus(const absl::Status& engine_status) {
  if (engine_status.ok()) return grpc::Status::OK;
  // An engine refusal carries facts, not words: the client reads the English.
  const absl::Status status = text::Worded(engine_status);
  absl::StatusCode code = status.code();
  std::string message(status.message());
  if (code == absl::StatusCode::kUnknown) {
    code = absl::StatusCode::kInternal;
    message = absl::StrCat("internal error: ", message);
  }
  google::rpc::ErrorInfo info;
  info.set_reason(code == status.code() ? ErrorReason(status) : "INTERNAL");
  info.set_domain(kErrorDomain);
  if (auto v = status.GetPayload(kVersionPayload)) {
    const std::string text(*v);
    const size_t slash = text.find('/');
    SetMetadata(&info, "expected_version", text.substr(0, slash));
    SetMetadata(&info, "actual_version", text.substr(slash + 1));
  }
  if (auto v = status.GetPayload(kSupersededPayload)) {
    const std::string text(*v);
    const size_t slash = text.find('/');
    SetMetadata(&info, "token_version", text.substr(0, slash));
    SetMetadata(&info, "latest_version", text.substr(slash + 1));
  }
  if (auto v = status.GetPayload(kRetryAfterPayload)) {
    SetMetadata(&info, "retry_after_ms", std::string(*v));
  }
  google::rpc::LocalizedMessage localized;
  Localized text = LocalizeError(status, info.reason());  // localized.h
  localized.set_locale(std::move(text.locale));
  localized.set_message(std::move(text.message));

  google::rpc::Status details;
  details.set_code(static_cast<int32_t>(code));
  details.set_message(message);
  google::protobuf::Any* packed_info = details.add_details();
  packed_info->set_type_url("type.googleapis.com/google.rpc.ErrorInfo");
  packed_info->set_value(DeterministicBytes(info));  // its metadata map in key order
  details.add_details()->PackFrom(localized);
  return grpc::Status(static_cast<grpc::StatusCode>(code), message, details.SerializeAsString());
}

}  // namespace stud::service
