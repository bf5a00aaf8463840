#include "service/server/stud_service.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "service/api/status_mapping.h"
#include "service/observability/observability.h"
#include "service/trust/ledger.h"
#include "service/trust/tenant_limits.h"
#include "service/trust/tenants.h"

namespace stud::service {
namespace v1 = stud::v1;

absl::Status StudServiceImpl::Authorized(grpc::CallbackServerContext* ctx,
                                         absl::FunctionRef<absl::Status()> handler) const {
  LedgerScope ledger(ledger_);  // commits what the call changed, or refuses it (ledger.h)
  if (tenants_ == nullptr) return ledger.Finish(handler(), "");
  absl::StatusOr<std::string> tenant = tenants_->Authenticate(ctx->client_metadata());
  if (!tenant.ok()) return tenant.status();
  TenantScope scope(*tenant);
  return ledger.Finish(handler(), *tenant);
}

StudServiceImpl::StudServiceImpl(const Sealer* sealer, ServiceOptions options)
    : hands_(sealer, options),
      observability_(options.observability),
      tenants_(options.tenants),
      ledger_(options.ledger),
      tenant_limits_(options.tenants != nullptr ? options.tenant_limits : nullptr) {
  if (options.max_in_flight > 0)
    admission_ = std::make_unique<Admission>(options.max_in_flight, options.workers);
  SetMessageAllocatorFor_NewHand(&new_hand_alloc_);
  SetMessageAllocatorFor_ApplyAction(&apply_action_alloc_);
  SetMessageAllocatorFor_LegalActions(&legal_actions_alloc_);
  SetMessageAllocatorFor_ResolveShowdown(&resolve_showdown_alloc_);
  SetMessageAllocatorFor_RuleIrregularity(&rule_irregularity_alloc_);
  SetMessageAllocatorFor_GetView(&get_view_alloc_);
  SetMessageAllocatorFor_ExportHandHistory(&export_history_alloc_);
  SetMessageAllocatorFor_ReplayHandHistory(&replay_history_alloc_);
}

grpc::ServerUnaryReactor* StudServiceImpl::Dispatch(
    grpc::CallbackServerContext* ctx, absl::AnyInvocable<void(grpc::ServerUnaryReactor*) &&> serve,
    absl::FunctionRef<void(grpc::ServerUnaryReactor*, const absl::Status&)> refuse) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();  // once per call
  if (draining_.load(std::memory_order_relaxed)) {
    last_arrival_nanos_.store(absl::ToUnixNanos(absl::Now()), std::memory_order_relaxed);
    refuse(reactor, ServerDraining());
    return reactor;
  }
  // Counted from here until the call is answered (serve finishes it).
  ++in_flight_;
  auto counted = [this, serve = std::move(serve)](grpc::ServerUnaryReactor* r) mutable {
    std::move(serve)(r);
    --in_flight_;
  };
  // Per-tenant fairness: the slot is taken before the shared queue and held
  // until the call is answered. A caller that fails authentication gets no
  // slot; the handler refuses it.
  std::optional<TenantLimiter::Slot> slot;
  if (tenant_limits_ != nullptr) {
    if (absl::StatusOr<std::string> tenant = tenants_->Authenticate(ctx->client_metadata());
        tenant.ok()) {
      slot = tenant_limits_->TryAcquire(*tenant);
      if (!slot.has_value()) {
        --in_flight_;
        refuse(reactor, TenantOverloaded(*tenant, tenant_limits_->limit()));
        return reactor;
      }
    }
  }
  if (admission_ == nullptr) {
    counted(reactor);
  } else if (!admission_->TrySubmit([counted = std::move(counted), reactor,
                                     slot = std::move(slot)]() mutable { counted(reactor); })) {
    --in_flight_;
    refuse(reactor, ServerOverloaded(admission_->max_in_flight()));
  }
  return reactor;
}

// ---- gRPC adapter ----

// Every handler goes through ServeUnary (observability.h): metrics, the
// server span and logs are recorded there, once per call.
#define STUD_RPC(Name, Req, Resp)                                                                 \
  grpc::ServerUnaryReactor* StudServiceImpl::Name(grpc::CallbackServerContext* ctx,               \
                                                  const v1::Req* req, v1::Resp* resp) {           \
    return Dispatch(                                                                              \
        ctx,                                                                                      \
        [this, ctx, req, resp](grpc::ServerUnaryReactor* reactor) {                               \
          ServeUnary(                                                                             \
              observability_, ctx, RpcMethod::k##Name, *req, resp,                                \
              [&] { return Authorized(ctx, [&] { return hands_.Name(*req, resp); }); }, reactor); \
        },                                                                                        \
        [&](grpc::ServerUnaryReactor* reactor, const absl::Status& why) {                         \
          ServeUnary(                                                                             \
              observability_, ctx, RpcMethod::k##Name, *req, resp, [&] { return why; }, reactor); \
        });                                                                                       \
  }
STUD_RPC(NewHand, NewHandRequest, NewHandResponse)
STUD_RPC(ApplyAction, ApplyActionRequest, ApplyActionResponse)
STUD_RPC(LegalActions, LegalActionsRequest, LegalActionsResponse)
STUD_RPC(ResolveShowdown, ResolveShowdownRequest, ResolveShowdownResponse)
STUD_RPC(RuleIrregularity, RuleIrregularityRequest, RuleIrregularityResponse)
STUD_RPC(GetView, GetViewRequest, GetViewResponse)
STUD_RPC(ExportHandHistory, ExportHandHistoryRequest, ExportHandHistoryResponse)
STUD_RPC(ReplayHandHistory, ReplayHandHistoryRequest, ReplayHandHistoryResponse)
#undef STUD_RPC

}  // namespace stud::service
