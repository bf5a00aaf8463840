// The one place where calls are observed: ServeUnary wraps every
// stud.v1.StudService handler (service/server/stud_service.cc) and, per call, updates the
// metrics (metrics.h), the server span (tracing.h) and the logs (logging.h).
// A wrapper rather than a gRPC interceptor because it sees the typed request,
// response and absl::Status (variant, street, rule IDs, token error reason),
// which an interceptor only sees as bytes or void pointers. The engine never
// counts anything.
#ifndef STUD_SERVICE_OBSERVABILITY_OBSERVABILITY_H_
#define STUD_SERVICE_OBSERVABILITY_OBSERVABILITY_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "grpcpp/grpcpp.h"
#include "service/api/status_mapping.h"
#include "service/observability/call_trace.h"
#include "service/observability/client_metadata.h"
#include "service/observability/hand_facts.h"
#include "service/observability/metrics.h"
#include "service/observability/tracing.h"
#include "stud/v1/stud.pb.h"
#include "text/refusal_text.h"

namespace stud::service {

// Both may be null (each part off). Must outlive the service.
struct Observability {
  Metrics* metrics = nullptr;
  Tracer* tracer = nullptr;
};

// What one call was about, read from its request, response and status.
// `detailed` false (the call's span is not sampled): only what metrics and
// logs use is filled (hand_started/hand_finished with variant and dealing
// mode, the ruling); street and rule_ids are left empty. `noted`: what the
// handler noted of its hand (hand_facts.h), which wins over the answer's view.
struct RpcFacts {
  std::string variant;                // "STUD", "STUD_HI_LO", "RAZZ" or ""
  std::string dealing_mode;           // "SERVICE", "PRESET", "LIVE" or ""
  std::string street;                 // "THIRD" .. "SEVENTH" or ""
  std::vector<std::string> rule_ids;  // rules named by the answer (operations, pots, ruling, error)
  bool hand_started = false;
  bool hand_finished = false;  // the answer's phase is COMPLETE after a state change
  std::string ruling_rule_id;  // RuleIrregularity: the ruling given
  std::string ruling_decision;
};

RpcFacts Describe(const stud::v1::NewHandRequest& req, const stud::v1::NewHandResponse& resp,
                  bool ok, bool detailed = true, const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::ApplyActionRequest& req,
                  const stud::v1::ApplyActionResponse& resp, bool ok, bool detailed = true,
                  const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::LegalActionsRequest& req,
                  const stud::v1::LegalActionsResponse& resp, bool ok, bool detailed = true,
                  const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::ResolveShowdownRequest& req,
                  const stud::v1::ResolveShowdownResponse& resp, bool ok, bool detailed = true,
                  const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::RuleIrregularityRequest& req,
                  const stud::v1::RuleIrregularityResponse& resp, bool ok, bool detailed = true,
                  const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::GetViewRequest& req, const stud::v1::GetViewResponse& resp,
                  bool ok, bool detailed = true, const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::ExportHandHistoryRequest& req,
                  const stud::v1::ExportHandHistoryResponse& resp, bool ok, bool detailed = true,
                  const HandFacts* noted = nullptr);
RpcFacts Describe(const stud::v1::ReplayHandHistoryRequest& req,
                  const stud::v1::ReplayHandHistoryResponse& resp, bool ok, bool detailed = true,
                  const HandFacts* noted = nullptr);

// Per-call bookkeeping used by ServeUnary. Owns the call's server span and
// hand facts, which its handler reaches through trace().
class RpcObservation {
 public:
  RpcObservation(const Observability* obs, const ClientMetadata& metadata, RpcMethod method);
  RpcObservation(const RpcObservation&) = delete;
  RpcObservation& operator=(const RpcObservation&) = delete;
  bool active() const { return obs_ != nullptr; }
  // True when the call's span is sampled (its attributes need every fact).
  bool detailed() const { return span_.has_value() && span_->sampled(); }
  // The call's span (null without a tracer) and hand facts, for its handler.
  CallTrace trace() { return {span_.has_value() ? &*span_ : nullptr, &hand_facts_}; }
  const HandFacts* noted() const { return hand_facts_.noted(); }
  void Finish(const absl::Status& status, int grpc_code, const RpcFacts& facts);

 private:
  const Observability* obs_;
  RpcMethod method_;
  std::chrono::steady_clock::time_point start_;
  std::optional<RpcSpan> span_;
  HandFactsSink hand_facts_;  // the handler notes its hand's facts (hand_facts.h)
};

// Runs `handler(trace, done)` (trace: the call's CallTrace); when the handler
// completes `done` (at once, or later from another thread: a ledger call),
// runs `send_response` if it succeeded (it writes the response's bytes; its
// error, if any, becomes the call's status), records the call and calls
// `finish` with the status (the transport's answer), last: neither `req` nor
// `resp` nor anything of the server's is touched after `finish`, which may
// free them.
template <typename Req, typename Resp, typename Handler, typename SendResponse, typename Finish>
void ServeUnary(const Observability* obs, const ClientMetadata& metadata, RpcMethod method,
                const Req& req, const Resp& resp, Handler&& handler, SendResponse send_response,
                Finish finish) {
  auto observation = std::make_unique<RpcObservation>(obs, metadata, method);
  const CallTrace trace = observation->trace();
  handler(trace, [observation = std::move(observation), &req, &resp,
                  send_response = std::move(send_response),
                  finish = std::move(finish)](absl::Status handled) mutable {
    // Worded: an engine refusal's facts become its English message
    // (text/refusal_text.h) before the call is logged, traced and answered.
    const absl::Status st = text::Worded(std::move(handled));
    grpc::Status status = ToGrpcStatus(st);
    if (status.ok()) status = send_response();
    if (observation->active())
      observation->Finish(
          st, static_cast<int>(status.error_code()),
          Describe(req, resp, st.ok(), observation->detailed(), observation->noted()));
    // Nothing of the server's is touched once the caller has its answer: the
    // server may be shutting down (a ledger call finishes on the ledger's thread).
    observation.reset();
    finish(status);
  });
}

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_OBSERVABILITY_H_
