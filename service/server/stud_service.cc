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
}

void StudServiceImpl::Dispatch(grpc::CallbackServerContext* ctx,
                               absl::AnyInvocable<void() &&> serve,
                               absl::FunctionRef<void(const absl::Status&)> refuse) {
  if (draining_.load(std::memory_order_relaxed)) {
    last_arrival_nanos_.store(absl::ToUnixNanos(absl::Now()), std::memory_order_relaxed);
    refuse(ServerDraining());
    return;
  }
  // Counted from here until the call is answered (serve finishes it).
  ++in_flight_;
  auto counted = [this, serve = std::move(serve)]() mutable {
    std::move(serve)();
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
        refuse(TenantOverloaded(*tenant, tenant_limits_->limit()));
        return;
      }
    }
  }
  if (admission_ == nullptr) {
    counted();
  } else if (!admission_->TrySubmit(
                 [counted = std::move(counted), slot = std::move(slot)]() mutable { counted(); })) {
    --in_flight_;
    refuse(ServerOverloaded(admission_->max_in_flight()));
  }
}

// ---- gRPC adapter ----

template <typename Req, typename Resp>
grpc::ServerUnaryReactor* StudServiceImpl::Serve(
    grpc::CallbackServerContext* ctx, RpcMethod method, const grpc::ByteBuffer& request,
    grpc::ByteBuffer* response, absl::Status (HandService::*handle)(const Req&, Resp*) const) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();  // once per call
  // Deleted as soon as the call is finished (its response is serialized by then).
  auto* call = new UnaryCall<Req, Resp>();
  if (!call->ParseRequest(request)) {
    if (observability_ != nullptr && observability_->metrics != nullptr) {
      observability_->metrics->UndecodableRequest(method);
    }
    delete call;
    reactor->Finish(ToGrpcStatus(UndecodableRequest(RpcMethodName(method))));
    return reactor;
  }
  // Every handler goes through ServeUnary (observability.h): metrics, the
  // server span and logs are recorded there, once per call. Dispatch runs
  // exactly one of the two paths below, and each ends by freeing the call.
  auto finish = [this, ctx, method, call, response, reactor](auto&& handler) {
    ServeUnary(
        observability_, ctx, method, call->request(), *call->response(), handler,
        [call, response] { return call->SerializeResponse(response); }, reactor);
    delete call;
  };
  Dispatch(
      ctx,
      [this, ctx, call, handle, finish] {
        finish([&] {
          return Authorized(ctx,
                            [&] { return (hands_.*handle)(call->request(), call->response()); });
        });
      },
      [&](const absl::Status& why) { finish([&] { return why; }); });
  return reactor;
}

#define STUD_RPC(Name)                                                              \
  grpc::ServerUnaryReactor* StudServiceImpl::Name(grpc::CallbackServerContext* ctx, \
                                                  const grpc::ByteBuffer* request,  \
                                                  grpc::ByteBuffer* response) {     \
    return Serve(ctx, RpcMethod::k##Name, *request, response, &HandService::Name);  \
  }
STUD_RPC(NewHand)
STUD_RPC(ApplyAction)
STUD_RPC(LegalActions)
STUD_RPC(ResolveShowdown)
STUD_RPC(RuleIrregularity)
STUD_RPC(GetView)
STUD_RPC(ExportHandHistory)
STUD_RPC(ReplayHandHistory)
#undef STUD_RPC

}  // namespace stud::service
