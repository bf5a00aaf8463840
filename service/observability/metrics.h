// Prometheus metrics (prometheus-cpp), served on their own port by Serve().
// Every name, label and meaning is listed in service/README.md ("Metrics").
// Nothing here is called by the engine: the observability wrapper around the
// RPC handlers (observability.h) records everything, once per call.
//
// prometheus-cpp shows a family only after its first Add(labels), so the
// constructor creates every label set that dashboards and alerts rely on with
// a zero value (every method x the codes this service returns, each token
// rejection reason, each variant x dealing mode, each irregularity rule ID,
// both span-drop reasons).
#ifndef STUD_SERVICE_OBSERVABILITY_METRICS_H_
#define STUD_SERVICE_OBSERVABILITY_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "prometheus/collectable.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace prometheus {
class Exposer;
}

namespace stud::service {

enum class RpcMethod {
  kNewHand,
  kApplyAction,
  kLegalActions,
  kResolveShowdown,
  kRuleIrregularity,
  kGetView,
  kExportHandHistory,
  kReplayHandHistory
};
inline constexpr int kRpcMethodCount = 8;
absl::string_view RpcMethodName(RpcMethod m);

// Rule IDs of the irregularity kinds (label values pre-created at zero).
const std::vector<std::string>& IrregularityRuleIds();

struct BuildInfo {
  std::string version;
  std::string commit;
};

class Metrics {
 public:
  explicit Metrics(const BuildInfo& build);
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // Starts the HTTP exposer on `address` ("host:port", port 0 = any free
  // port) and stores the bound port. UNAVAILABLE when it cannot listen.
  absl::Status Serve(const std::string& address, int* bound_port);
  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

  void SetSealingKey(uint32_t key_id);

  void RpcStarted(RpcMethod m);
  // `code` is the grpc::StatusCode as an int (0..16).
  void RpcFinished(RpcMethod m, int code, double seconds);

  void HandStarted(absl::string_view variant, absl::string_view dealing_mode);
  void HandFinished(absl::string_view variant, absl::string_view dealing_mode);
  void ActionRejected(absl::string_view rule_id);
  void IrregularityRuling(absl::string_view rule_id);
  void TokenRejected(absl::string_view reason);
  // A request whose bytes were not the method's message (counted as a call
  // answered INVALID_ARGUMENT too).
  void UndecodableRequest(RpcMethod m);

  // An answer of the Connect listener (service/connect/), by HTTP status.
  void ConnectAnswered(int http_status);

  // Series another part counts itself and this reads at each scrape (the
  // hand cache's, server/startup.cc): served with the rest from Serve on.
  void AddCollectable(std::shared_ptr<prometheus::Collectable> collectable);

  void SpansDropped(absl::string_view reason, uint64_t spans);
  void SpansExported(uint64_t spans);
  void SpanQueueSize(size_t spans);

 private:
  static constexpr int kCodes = 17;
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  std::vector<std::shared_ptr<prometheus::Collectable>> collectables_;

  prometheus::Family<prometheus::Counter>* requests_;
  prometheus::Family<prometheus::Histogram>* duration_;
  prometheus::Family<prometheus::Gauge>* in_flight_;
  prometheus::Family<prometheus::Counter>* hands_started_;
  prometheus::Family<prometheus::Counter>* hands_finished_;
  prometheus::Family<prometheus::Counter>* actions_rejected_;
  prometheus::Family<prometheus::Counter>* rulings_;
  prometheus::Family<prometheus::Counter>* token_rejections_;
  std::array<prometheus::Counter*, kRpcMethodCount> undecodable_{};
  // The Connect listener's answers: the statuses it gives, then any other.
  static constexpr std::array<int, 15> kConnectStatuses = {200, 400, 401, 403, 404, 405, 409, 415,
                                                           429, 499, 500, 501, 503, 504, 0};
  std::array<prometheus::Counter*, kConnectStatuses.size()> connect_answers_{};
  prometheus::Family<prometheus::Gauge>* sealing_key_;
  prometheus::Family<prometheus::Counter>* spans_dropped_;
  prometheus::Counter* spans_exported_;
  prometheus::Gauge* span_queue_;

  // Per (method, code) series, made on first use and then read lock-free.
  std::array<std::array<std::atomic<prometheus::Counter*>, kCodes>, kRpcMethodCount>
      request_cache_{};
  std::array<std::array<std::atomic<prometheus::Histogram*>, kCodes>, kRpcMethodCount>
      duration_cache_{};
  std::array<prometheus::Gauge*, kRpcMethodCount> in_flight_cache_{};
};

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_METRICS_H_
