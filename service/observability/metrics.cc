#include "service/observability/metrics.h"

#include <algorithm>
#include <exception>

#include "absl/strings/str_cat.h"
#include "engine/irregularity_report.h"
#include "prometheus/exposer.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {
namespace {

constexpr const char* kCodeNames[] = {
    "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
    "DATA_LOSS", "UNAUTHENTICATED"};
// The codes this service returns (status_mapping.h): pre-created at zero.
constexpr int kServiceCodes[] = {0, 3, 9, 10, 13, 16};

// 10 µs .. 10 s: an engine call takes microseconds, a loaded server may take seconds.
const prometheus::Histogram::BucketBoundaries& Buckets() {
  static const auto* b = new prometheus::Histogram::BucketBoundaries{
      0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
      0.025,   0.05,     0.1,     0.25,   0.5,     1,      2.5,   5,      10};
  return *b;
}

// "VARIANT_STUD_HI_LO" -> "STUD_HI_LO" for every value but UNSPECIFIED.
std::vector<std::string> EnumLabels(const google::protobuf::EnumDescriptor* d,
                                    absl::string_view prefix) {
  std::vector<std::string> out;
  for (int i = 0; i < d->value_count(); ++i) {
    if (d->value(i)->number() == 0) continue;
    std::string name = d->value(i)->name();
    out.push_back(name.substr(prefix.size()));
  }
  return out;
}

}  // namespace

absl::string_view RpcMethodName(RpcMethod m) {
  switch (m) {
    case RpcMethod::kNewHand:
      return "NewHand";
    case RpcMethod::kApplyAction:
      return "ApplyAction";
    case RpcMethod::kLegalActions:
      return "LegalActions";
    case RpcMethod::kResolveShowdown:
      return "ResolveShowdown";
    case RpcMethod::kRuleIrregularity:
      return "RuleIrregularity";
    case RpcMethod::kGetView:
      return "GetView";
    case RpcMethod::kExportHandHistory:
      return "ExportHandHistory";
    case RpcMethod::kReplayHandHistory:
      return "ReplayHandHistory";
  }
  return "unknown";
}

const std::vector<std::string>& IrregularityRuleIds() {
  // The rule each kind is filed under (engine/irregularity_report.h), once.
  static const auto* ids = [] {
    auto* out = new std::vector<std::string>;
    for (const IrregularityTraits& t : kIrregularityKinds) {
      const std::string id(RuleIdName(t.rule));
      if (std::find(out->begin(), out->end(), id) == out->end()) out->push_back(id);
    }
    return out;
  }();
  return *ids;
}

Metrics::Metrics(const BuildInfo& build) : registry_(std::make_shared<prometheus::Registry>()) {
  using prometheus::BuildCounter;
  using prometheus::BuildGauge;
  using prometheus::BuildHistogram;
  requests_ = &BuildCounter()
                   .Name("stud_rpc_requests_total")
                   .Help("stud.v1.StudService calls handled, by method and gRPC status code")
                   .Register(*registry_);
  duration_ =
      &BuildHistogram()
           .Name("stud_rpc_duration_seconds")
           .Help(
               "Server handling time of stud.v1.StudService calls (request parsed to status), "
               "by method and gRPC status code")
           .Register(*registry_);
  in_flight_ = &BuildGauge()
                    .Name("stud_rpc_in_flight_requests")
                    .Help("stud.v1.StudService calls being handled now, by method")
                    .Register(*registry_);
  hands_started_ = &BuildCounter()
                        .Name("stud_hands_started_total")
                        .Help("Hands started by NewHand, by variant and dealing mode")
                        .Register(*registry_);
  hands_finished_ = &BuildCounter()
                         .Name("stud_hands_finished_total")
                         .Help("Hands that reached PHASE_COMPLETE, by variant and dealing mode")
                         .Register(*registry_);
  actions_rejected_ =
      &BuildCounter()
           .Name("stud_actions_rejected_total")
           .Help("ApplyAction calls refused by a rule (FAILED_PRECONDITION), by rule ID")
           .Register(*registry_);
  rulings_ = &BuildCounter()
                  .Name("stud_irregularity_rulings_total")
                  .Help("Irregularity rulings given by RuleIrregularity, by rule ID")
                  .Register(*registry_);
  token_rejections_ =
      &BuildCounter()
           .Name("stud_token_rejections_total")
           .Help("Calls refused because the hand token could not be opened, by reason")
           .Register(*registry_);
  sealing_key_ = &BuildGauge()
                      .Name("stud_sealing_key_info")
                      .Help("The id of the key that seals new tokens (value always 1)")
                      .Register(*registry_);
  spans_dropped_ = &BuildCounter()
                        .Name("stud_trace_spans_dropped_total")
                        .Help("Trace spans not delivered: export queue full, or export failed")
                        .Register(*registry_);
  spans_exported_ = &BuildCounter()
                         .Name("stud_trace_spans_exported_total")
                         .Help("Trace spans delivered to the OTLP endpoint")
                         .Register(*registry_)
                         .Add({});
  span_queue_ = &BuildGauge()
                     .Name("stud_trace_export_queue_spans")
                     .Help("Trace spans waiting in the export queue")
                     .Register(*registry_)
                     .Add({});
  BuildGauge()
      .Name("stud_build_info")
      .Help("Build of the running stud_server (value always 1)")
      .Register(*registry_)
      .Add({{"version", build.version}, {"commit", build.commit}})
      .Set(1);

  auto& undecodable = BuildCounter()
                          .Name("stud_rpc_undecodable_requests_total")
                          .Help("Requests whose bytes were not the method's request message")
                          .Register(*registry_);
  auto& connect = BuildCounter()
                      .Name("stud_connect_responses_total")
                      .Help(
                          "Answers of the Connect listener (--connect_listen) by HTTP status "
                          "(\"other\": any status not listed)")
                      .Register(*registry_);
  for (size_t i = 0; i < kConnectStatuses.size(); ++i) {
    const int status = kConnectStatuses[i];
    connect_answers_[i] =
        &connect.Add({{"status", status == 0 ? "other" : std::to_string(status)}});
  }
  for (int m = 0; m < kRpcMethodCount; ++m) {
    const std::string method(RpcMethodName(static_cast<RpcMethod>(m)));
    undecodable_[static_cast<size_t>(m)] = &undecodable.Add({{"method", method}});
    in_flight_cache_[static_cast<size_t>(m)] = &in_flight_->Add({{"method", method}});
    for (int code : kServiceCodes) {
      request_cache_[static_cast<size_t>(m)][static_cast<size_t>(code)] =
          &requests_->Add({{"method", method}, {"code", kCodeNames[code]}});
      duration_cache_[static_cast<size_t>(m)][static_cast<size_t>(code)] =
          &duration_->Add({{"method", method}, {"code", kCodeNames[code]}}, Buckets());
    }
  }
  for (const std::string& variant : EnumLabels(stud::v1::Variant_descriptor(), "VARIANT_")) {
    for (const std::string& mode :
         EnumLabels(stud::v1::DealingMode_descriptor(), "DEALING_MODE_")) {
      hands_started_->Add({{"variant", variant}, {"dealing_mode", mode}});
      hands_finished_->Add({{"variant", variant}, {"dealing_mode", mode}});
    }
  }
  for (const std::string& rule : IrregularityRuleIds()) rulings_->Add({{"rule_id", rule}});
  for (const char* reason : {"TOKEN_MALFORMED", "TOKEN_VERSION_UNSUPPORTED", "TOKEN_UNKNOWN_KEY",
                             "TOKEN_AUTHENTICATION_FAILED", "TOKEN_TENANT_MISMATCH"}) {
    token_rejections_->Add({{"reason", reason}});
  }
  for (const char* reason : {"queue_full", "export_failed"})
    spans_dropped_->Add({{"reason", reason}});
  // Present (as a family) before any action is refused; one common rule at zero.
  actions_rejected_->Add({{"rule_id", std::string(RuleIdName(RuleId::kBet1))}});
}

Metrics::~Metrics() = default;

absl::Status Metrics::Serve(const std::string& address, int* bound_port) {
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(address, /*num_threads=*/2);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("--metrics_listen ", address, ": cannot listen: ", e.what()));
  }
  exposer_->RegisterCollectable(registry_);
  for (const auto& c : collectables_) exposer_->RegisterCollectable(c);
  const std::vector<int> ports = exposer_->GetListeningPorts();
  *bound_port = ports.empty() ? 0 : ports.front();
  return absl::OkStatus();
}

void Metrics::AddCollectable(std::shared_ptr<prometheus::Collectable> collectable) {
  if (exposer_ != nullptr) exposer_->RegisterCollectable(collectable);
  collectables_.push_back(std::move(collectable));
}

void Metrics::SetSealingKey(uint32_t key_id) {
  sealing_key_->Add({{"key_id", absl::StrCat(key_id)}}).Set(1);
}

void Metrics::RpcStarted(RpcMethod m) { in_flight_cache_[static_cast<size_t>(m)]->Increment(); }

void Metrics::ConnectAnswered(int http_status) {
  size_t i = 0;
  while (i + 1 < kConnectStatuses.size() && kConnectStatuses[i] != http_status) ++i;
  connect_answers_[i]->Increment();
}

void Metrics::UndecodableRequest(RpcMethod m) {
  undecodable_[static_cast<size_t>(m)]->Increment();
  RpcStarted(m);
  RpcFinished(m, static_cast<int>(absl::StatusCode::kInvalidArgument), 0.0);
}

void Metrics::RpcFinished(RpcMethod m, int code, double seconds) {
  const size_t mi = static_cast<size_t>(m);
  in_flight_cache_[mi]->Decrement();
  if (code < 0 || code >= kCodes) code = 2;  // UNKNOWN
  const size_t ci = static_cast<size_t>(code);
  prometheus::Counter* counter = request_cache_[mi][ci].load(std::memory_order_acquire);
  prometheus::Histogram* histogram = duration_cache_[mi][ci].load(std::memory_order_acquire);
  if (counter == nullptr || histogram == nullptr) {
    // Family::Add returns the existing series for the same labels, so a race
    // here stores the same pointer twice.
    const prometheus::Labels labels{{"method", std::string(RpcMethodName(m))},
                                    {"code", kCodeNames[code]}};
    counter = &requests_->Add(labels);
    histogram = &duration_->Add(labels, Buckets());
    request_cache_[mi][ci].store(counter, std::memory_order_release);
    duration_cache_[mi][ci].store(histogram, std::memory_order_release);
  }
  counter->Increment();
  histogram->Observe(seconds);
}

void Metrics::HandStarted(absl::string_view variant, absl::string_view dealing_mode) {
  hands_started_
      ->Add({{"variant", std::string(variant)}, {"dealing_mode", std::string(dealing_mode)}})
      .Increment();
}

void Metrics::HandFinished(absl::string_view variant, absl::string_view dealing_mode) {
  hands_finished_
      ->Add({{"variant", std::string(variant)}, {"dealing_mode", std::string(dealing_mode)}})
      .Increment();
}

void Metrics::ActionRejected(absl::string_view rule_id) {
  actions_rejected_->Add({{"rule_id", std::string(rule_id)}}).Increment();
}

void Metrics::IrregularityRuling(absl::string_view rule_id) {
  rulings_->Add({{"rule_id", std::string(rule_id)}}).Increment();
}

void Metrics::TokenRejected(absl::string_view reason) {
  token_rejections_->Add({{"reason", std::string(reason)}}).Increment();
}

void Metrics::SpansDropped(absl::string_view reason, uint64_t spans) {
  spans_dropped_->Add({{"reason", std::string(reason)}}).Increment(static_cast<double>(spans));
}

void Metrics::SpansExported(uint64_t spans) {
  spans_exported_->Increment(static_cast<double>(spans));
}

void Metrics::SpanQueueSize(size_t spans) { span_queue_->Set(static_cast<double>(spans)); }

}  // namespace stud::service
