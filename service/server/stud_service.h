// StudServiceImpl: HandService (rpc/hand_service.h) on the gRPC callback
// API. Each call is authenticated (trust/tenants.h), admitted or shed
// (admission.h), observed once (observability/observability.h, ServeUnary),
// and its errors are mapped once (api/status_mapping.h).
#ifndef STUD_SERVICE_SERVER_STUD_SERVICE_H_
#define STUD_SERVICE_SERVER_STUD_SERVICE_H_

#include <atomic>
#include <memory>

#include "absl/functional/any_invocable.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "service/rpc/hand_service.h"
#include "service/server/admission.h"
#include "service/server/arena_allocator.h"
#include "stud/v1/stud.grpc.pb.h"

namespace stud::service {

class StudServiceImpl final : public stud::v1::StudService::CallbackService {
 public:
  StudServiceImpl(const Sealer* sealer, ServiceOptions options);

  grpc::ServerUnaryReactor* NewHand(grpc::CallbackServerContext* ctx,
                                    const stud::v1::NewHandRequest* req,
                                    stud::v1::NewHandResponse* resp) override;
  grpc::ServerUnaryReactor* ApplyAction(grpc::CallbackServerContext* ctx,
                                        const stud::v1::ApplyActionRequest* req,
                                        stud::v1::ApplyActionResponse* resp) override;
  grpc::ServerUnaryReactor* LegalActions(grpc::CallbackServerContext* ctx,
                                         const stud::v1::LegalActionsRequest* req,
                                         stud::v1::LegalActionsResponse* resp) override;
  grpc::ServerUnaryReactor* ResolveShowdown(grpc::CallbackServerContext* ctx,
                                            const stud::v1::ResolveShowdownRequest* req,
                                            stud::v1::ResolveShowdownResponse* resp) override;
  grpc::ServerUnaryReactor* RuleIrregularity(grpc::CallbackServerContext* ctx,
                                             const stud::v1::RuleIrregularityRequest* req,
                                             stud::v1::RuleIrregularityResponse* resp) override;
  grpc::ServerUnaryReactor* GetView(grpc::CallbackServerContext* ctx,
                                    const stud::v1::GetViewRequest* req,
                                    stud::v1::GetViewResponse* resp) override;
  grpc::ServerUnaryReactor* ExportHandHistory(grpc::CallbackServerContext* ctx,
                                              const stud::v1::ExportHandHistoryRequest* req,
                                              stud::v1::ExportHandHistoryResponse* resp) override;
  // Graceful stop, before grpc::Server::Shutdown (which cancels the calls
  // gRPC has received but not yet handed to the service): from now on every
  // new call is answered UNAVAILABLE, reason SERVER_DRAINING (retryable:
  // another replica answers), while calls already accepted finish.
  void StartDraining() {
    last_arrival_nanos_.store(absl::ToUnixNanos(absl::Now()));
    draining_.store(true);
  }
  // Calls accepted and not yet answered.
  int in_flight() const { return in_flight_.load(); }
  // When the last call arrived (refused while draining or not), as
  // absl::ToUnixNanos.
  int64_t last_arrival_nanos() const { return last_arrival_nanos_.load(); }

  grpc::ServerUnaryReactor* ReplayHandHistory(grpc::CallbackServerContext* ctx,
                                              const stud::v1::ReplayHandHistoryRequest* req,
                                              stud::v1::ReplayHandHistoryResponse* resp) override;

 private:
  // Authenticates the caller (when tenants_ is set) and runs `handler` with
  // its tenant as CurrentTenant(); an unauthenticated call never reaches it.
  absl::Status Authorized(grpc::CallbackServerContext* ctx,
                          absl::FunctionRef<absl::Status()> handler) const;

  // Runs `serve` (which finishes the call) now, or on a worker when load
  // shedding is on; `refuse` answers with the reason instead when the queue
  // is full or the caller's tenant has its limit in flight.
  grpc::ServerUnaryReactor* Dispatch(
      grpc::CallbackServerContext* ctx,
      absl::AnyInvocable<void(grpc::ServerUnaryReactor*) &&> serve,
      absl::FunctionRef<void(grpc::ServerUnaryReactor*, const absl::Status&)> refuse);

  HandService hands_;
  const Observability* observability_;
  // Each method's request and response on one arena per call (arena_allocator.h).
  template <typename Req, typename Resp>
  using Alloc = ArenaMessageAllocator<Req, Resp>;
  Alloc<stud::v1::NewHandRequest, stud::v1::NewHandResponse> new_hand_alloc_;
  Alloc<stud::v1::ApplyActionRequest, stud::v1::ApplyActionResponse> apply_action_alloc_;
  Alloc<stud::v1::LegalActionsRequest, stud::v1::LegalActionsResponse> legal_actions_alloc_;
  Alloc<stud::v1::ResolveShowdownRequest, stud::v1::ResolveShowdownResponse>
      resolve_showdown_alloc_;
  Alloc<stud::v1::RuleIrregularityRequest, stud::v1::RuleIrregularityResponse>
      rule_irregularity_alloc_;
  Alloc<stud::v1::GetViewRequest, stud::v1::GetViewResponse> get_view_alloc_;
  Alloc<stud::v1::ExportHandHistoryRequest, stud::v1::ExportHandHistoryResponse>
      export_history_alloc_;
  Alloc<stud::v1::ReplayHandHistoryRequest, stud::v1::ReplayHandHistoryResponse>
      replay_history_alloc_;
  const TenantAuth* tenants_;
  Ledger* ledger_;
  TenantLimiter* tenant_limits_;          // null: no per-tenant limit
  std::unique_ptr<Admission> admission_;  // null: no load shedding
  std::atomic<bool> draining_{false};
  std::atomic<int> in_flight_{0};
  std::atomic<int64_t> last_arrival_nanos_{0};
};

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_STUD_SERVICE_H_
