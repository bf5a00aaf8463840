#include "service/server/stud_service.h"

#include <chrono>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "service/api/localized.h"
#include "service/api/status_mapping.h"
#include "service/observability/observability.h"
#include "service/server/watch_hand.h"
#include "service/trust/ledger.h"
#include "service/trust/seat_rate_limit.h"
#include "service/trust/tenant_limits.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

// The request's seat ticket, "" for a request that has none.
template <typename Req>
absl::string_view SeatTicketOf(const Req& req) {
  if constexpr (requires { req.seat_ticket(); }) {
    return req.seat_ticket();
  } else {
    return {};
  }
}

// The language the caller's Accept-Language prefers, if English or Spanish.
std::optional<MessageLanguage> AskedLanguage(const ClientMetadata& metadata) {
  auto it = metadata.find("accept-language");
  if (it == metadata.end()) return std::nullopt;
  return FromAcceptLanguage(absl::string_view(it->second.data(), it->second.size()));
}

// Requests only the platform's API key may make (callers.h): those without a
// seat ticket (NewHand, ReplayHandHistory) and a stateless showdown.
template <typename Req>
bool PlatformOnly(const Req& req) {
  if constexpr (std::is_same_v<Req, v1::ResolveShowdownRequest>) {
    return req.hand_case() != v1::ResolveShowdownRequest::kToken;
  } else {
    return !requires { req.seat_ticket(); };
  }
}

// GetView by hand id: the hand whose latest token the ledger gives, read
// before the call is served (Authorized). "" for any other request, and for
// one GetView refuses before reading (a token too, or a ticket of another hand).
template <typename Req>
absl::string_view LatestToRead(const Req& req) {
  if constexpr (std::is_same_v<Req, v1::GetViewRequest>) {
    if (!req.hand_id().empty() && req.token().empty() &&
        CheckTicketNamesHand(req.seat_ticket(), req.hand_id()).ok()) {
      return req.hand_id();
    }
  }
  return "";
}

}  // namespace

template <typename Handler>
void StudServiceImpl::Authorized(const ClientMetadata& metadata,
                                 const absl::StatusOr<Caller>& caller,
                                 absl::string_view seat_ticket, absl::string_view latest_of_hand,
                                 const CallTrace& trace, Handler handler, HandlerDone done) const {
  absl::Status admitted = caller.ok() ? AdmitSeat(caller->tenant, seat_ticket) : caller.status();
  if (!admitted.ok() || latest_of_hand.empty() || ledger_ == nullptr) {
    Served(metadata, caller, std::move(admitted), trace, nullptr, handler, std::move(done));
    return;
  }
  // Served once the ledger has answered, on its thread: no handler thread waits on it.
  StartLatestOfHand(ledger_, caller->tenant, latest_of_hand, "hand_id",
                    [this, &metadata, caller, trace, handler = std::move(handler),
                     done = std::move(done)](const absl::StatusOr<LedgerLatest>& latest) mutable {
                      Served(metadata, caller, absl::OkStatus(), trace, &latest, handler,
                             std::move(done));
                    });
}

void StudServiceImpl::Served(const ClientMetadata& metadata, const absl::StatusOr<Caller>& caller,
                             absl::Status admitted, const CallTrace& trace,
                             const absl::StatusOr<LedgerLatest>* latest,
                             absl::FunctionRef<absl::Status(const CallContext&)> handler,
                             HandlerDone done) const {
  LedgerScope ledger(ledger_);  // commits what the call changed, or refuses it (ledger.h)
  HandLanguage hand_language;
  absl::Status handled = std::move(admitted);
  if (handled.ok()) {
    handled = handler(CallContext{.tenant = caller->tenant,
                                  .device = caller->device,
                                  .language = &hand_language,
                                  .trace = trace,
                                  .ledger = &ledger,
                                  .latest = latest});
  }
  // Errors in the caller's language, else the hand's (api/localized.h).
  const std::optional<MessageLanguage> asked = AskedLanguage(metadata);
  const std::optional<MessageLanguage> language = asked ? asked : hand_language.noted();
  ledger.Finish(std::move(handled), caller.ok() ? absl::string_view(caller->tenant) : "",
                [language, done = std::move(done)](absl::Status status) mutable {
                  if (language) SetMessageLanguage(&status, *language);
                  std::move(done)(std::move(status));
                });
}

StudServiceImpl::StudServiceImpl(const Sealer* sealer, ServiceOptions options)
    : hands_(sealer, options),
      watch_hub_(options.watch_hub),
      observability_(options.observability),
      callers_(sealer, options.tenants, options.seat_tickets),
      seat_rate_limit_(options.seat_rate_limit),
      ledger_(options.ledger),
      max_in_flight_(options.max_in_flight),
      tenant_limits_(options.tenants != nullptr ? options.tenant_limits : nullptr) {
  if (options.max_in_flight > 0 && options.workers != kCallsOnGrpcThreads)
    admission_ = std::make_unique<Admission>(options.max_in_flight, options.workers);
}

StudServiceImpl::~StudServiceImpl() {
  // After the server's shutdown every call is answered and every WatchHand
  // stream has opened or ended, so this returns at once; the loads also order
  // the ledger thread's last decrements before the object goes.
  for (int i = 0; i < 3000 && (in_flight_.load(std::memory_order_acquire) != 0 ||
                               watches_opening_.load(std::memory_order_acquire) != 0);
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

absl::Status StudServiceImpl::AdmitSeat(absl::string_view tenant,
                                        absl::string_view seat_ticket) const {
  if (seat_rate_limit_ == nullptr || seat_ticket.size() != kSeatTicketBytes)
    return absl::OkStatus();
  // Keyed by the ticket's hand id and seat (bytes 7..23): the caller is
  // authenticated here or the ticket is checked against the hand before
  // anything is applied, so a forged ticket only spends its own bucket.
  const int seat = static_cast<uint8_t>(seat_ticket[23]);
  return seat_rate_limit_->Admit(tenant, seat_ticket.substr(7, 16), seat, absl::Now());
}

void StudServiceImpl::Dispatch(
    absl::StatusOr<Caller> caller,
    absl::AnyInvocable<void(const absl::StatusOr<Caller>&, Answered) &&> serve,
    absl::FunctionRef<void(const absl::Status&)> refuse) {
  if (draining_.load(std::memory_order_relaxed)) {
    last_arrival_nanos_.store(absl::ToUnixNanos(absl::Now()), std::memory_order_relaxed);
    refuse(ServerDraining());
    return;
  }
  // Per-tenant fairness: the slot is taken before the shared queue and held
  // until the call is answered. A caller that fails authentication gets no
  // slot; the handler refuses it.
  std::optional<TenantLimiter::Slot> slot;
  if (tenant_limits_ != nullptr && caller.ok()) {
    slot = tenant_limits_->TryAcquire(caller->tenant);
    if (!slot.has_value()) {
      refuse(TenantOverloaded(caller->tenant, tenant_limits_->limit()));
      return;
    }
  }
  // Counted, and the tenant's slot held, from here until the call is
  // answered: `answered` runs then, which may be after `serve` has returned
  // (a ledger call completes on the ledger's thread). With load shedding the
  // bound is on these calls, those awaiting the ledger included.
  const int before = in_flight_.fetch_add(1);
  if (max_in_flight_ > 0 && before >= max_in_flight_) {
    --in_flight_;
    refuse(ServerOverloaded(max_in_flight_));
    return;
  }
  Answered answered = [this, slot = std::move(slot)]() mutable {
    slot.reset();
    --in_flight_;
  };
  auto counted = [serve = std::move(serve), caller = std::move(caller),
                  answered = std::move(answered)]() mutable {
    std::move(serve)(caller, std::move(answered));
  };
  if (admission_ == nullptr) {
    counted();
  } else if (!admission_->TrySubmit(std::move(counted))) {
    --in_flight_;  // `answered` never ran; the slot went with it
    refuse(ServerOverloaded(max_in_flight_));
  }
}

// ---- gRPC adapter ----

grpc::Status StudServiceImpl::Undecodable(RpcMethod method) const {
  if (observability_ != nullptr && observability_->metrics != nullptr) {
    observability_->metrics->UndecodableRequest(method);
  }
  return ToGrpcStatus(UndecodableRequest(RpcMethodName(method)));
}

template <typename Req, typename Resp>
grpc::ServerUnaryReactor* StudServiceImpl::Serve(
    grpc::CallbackServerContext* ctx, RpcMethod method, const grpc::ByteBuffer& request,
    grpc::ByteBuffer* response,
    absl::Status (HandService::*handle)(const Req&, Resp*, const CallContext&) const) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();  // once per call
  // Deleted as soon as the call is finished (its response is serialized by then).
  auto* call = new UnaryCall<Req, Resp>();
  if (!call->ParseRequest(request)) {
    delete call;
    reactor->Finish(Undecodable(method));
    return reactor;
  }
  ServeCall(
      ctx->client_metadata(), method, call,
      [call, response] { return call->SerializeResponse(response); },
      [reactor](const grpc::Status& status) { reactor->Finish(status); }, handle);
  return reactor;
}

template <typename Req, typename Resp, typename Send, typename Finish>
void StudServiceImpl::ServeCall(const ClientMetadata& metadata, RpcMethod method,
                                UnaryCall<Req, Resp>* call, Send send, Finish finish,
                                absl::Status (HandService::*handle)(const Req&, Resp*,
                                                                    const CallContext&) const) {
  // Every handler goes through ServeUnary (observability.h): metrics, the
  // server span and logs are recorded there, once per call. Dispatch runs
  // exactly one of the two paths below, and each ends by freeing the call
  // once it is answered.
  auto serve = [this, &metadata, method, call, send, finish](auto&& handler, Answered answered) {
    ServeUnary(observability_, metadata, method, call->request(), *call->response(), handler, send,
               [call, finish, answered = std::move(answered)](const grpc::Status& status) mutable {
                 // Before the answer leaves: once it has, the server may be
                 // shut down and this object gone.
                 delete call;
                 if (answered) std::move(answered)();
                 finish(status);
               });
  };
  // The call's one authentication (callers.h): Dispatch takes the tenant's
  // slot with it, and the handler's context is made from it.
  Dispatch(
      callers_.Authenticate(metadata, SeatTicketOf(call->request()), PlatformOnly(call->request())),
      [this, &metadata, call, handle, serve](const absl::StatusOr<Caller>& caller,
                                             Answered answered) {
        serve(
            [&](const CallTrace& trace, HandlerDone done) {
              const Req& req = call->request();
              Authorized(
                  metadata, caller, SeatTicketOf(req), LatestToRead(req), trace,
                  [this, call, handle](const CallContext& context) {
                    CallContext with_bytes = context;  // the answer may be written as bytes
                    with_bytes.response_bytes = call->response_bytes();
                    return (hands_.*handle)(call->request(), call->response(), with_bytes);
                  },
                  std::move(done));
            },
            std::move(answered));
      },
      [&](const absl::Status& why) {
        serve([&](const CallTrace&, HandlerDone done) { std::move(done)(why); }, nullptr);
      });
}

template <typename Req, typename Resp>
grpc::Status StudServiceImpl::ServeBytesOf(RpcMethod method, const ClientMetadata& metadata,
                                           absl::string_view request, std::string* response,
                                           absl::Status (HandService::*handle)(const Req&, Resp*,
                                                                               const CallContext&)
                                               const) {
  auto* call = new UnaryCall<Req, Resp>();
  if (!call->ParseRequest(request)) {
    delete call;
    return Undecodable(method);
  }
  // Answered inline, or on an admission worker when load shedding is on.
  grpc::Status answer;
  absl::Notification answered;
  ServeCall(
      metadata, method, call,
      [call, response] {
        return call->SerializeResponse(response)
                   ? grpc::Status::OK
                   : grpc::Status(grpc::StatusCode::INTERNAL, "the response does not serialize");
      },
      [&answer, &answered](const grpc::Status& status) {
        answer = status;
        answered.Notify();
      },
      handle);
  answered.WaitForNotification();
  return answer;
}

grpc::Status StudServiceImpl::ServeBytes(absl::string_view path, const ClientMetadata& metadata,
                                         absl::string_view request, std::string* response) {
  constexpr absl::string_view kPrefix = "/stud.v1.StudService/";
  if (!absl::ConsumePrefix(&path, kPrefix))
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "not a stud.v1.StudService method");
#define STUD_RPC(Name) \
  if (path == #Name)   \
    return ServeBytesOf(RpcMethod::k##Name, metadata, request, response, &HandService::Name);
  STUD_UNARY_RPCS(STUD_RPC)
#undef STUD_RPC
  if (path == "GetSigningKeys") {
    v1::GetSigningKeysRequest req;
    v1::GetSigningKeysResponse resp;
    if (!req.ParseFromArray(request.data(), static_cast<int>(request.size())))
      return ToGrpcStatus(UndecodableRequest("GetSigningKeys"));
    grpc::Status status = ToGrpcStatus(hands_.GetSigningKeys(req, &resp));
    if (status.ok()) resp.SerializeToString(response);
    return status;
  }
  return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                      absl::StrCat("stud.v1.StudService has no unary method ", path));
}

#define STUD_RPC(Name)                                                              \
  grpc::ServerUnaryReactor* StudServiceImpl::Name(grpc::CallbackServerContext* ctx, \
                                                  const grpc::ByteBuffer* request,  \
                                                  grpc::ByteBuffer* response) {     \
    return Serve(ctx, RpcMethod::k##Name, *request, response, &HandService::Name);  \
  }
STUD_UNARY_RPCS(STUD_RPC)
#undef STUD_RPC

grpc::ServerWriteReactor<grpc::ByteBuffer>* StudServiceImpl::WatchHand(
    grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* bytes) {
  v1::WatchHandRequest request;
  grpc::ByteBuffer shared(*bytes);  // the slices are shared, not copied; parsing consumes it
  const bool decoded =
      grpc::SerializationTraits<v1::WatchHandRequest>::Deserialize(&shared, &request).ok();
  // The unary calls' authentication: a device's seat ticket alone will do.
  absl::StatusOr<Caller> caller =
      callers_.Authenticate(ctx->client_metadata(), request.seat_ticket(), false);
  const bool draining = draining_.load(std::memory_order_relaxed);
  if (draining)
    last_arrival_nanos_.store(absl::ToUnixNanos(absl::Now()), std::memory_order_relaxed);
  // As the unary calls' errors (api/localized.h).
  const std::optional<MessageLanguage> language = AskedLanguage(ctx->client_metadata());
  // Opening a watch counts against the seat's rate limit like any call.
  const absl::Status refusal = !decoded      ? UndecodableRequest("WatchHand")
                               : draining    ? ServerDraining()
                               : caller.ok() ? AdmitSeat(caller->tenant, request.seat_ticket())
                                             : absl::OkStatus();
  return StartWatchHand({&hands_, ledger_, watch_hub_, &watches_opening_}, std::move(request),
                        std::move(caller), refusal, language);
}

grpc::ServerUnaryReactor* StudServiceImpl::GetSigningKeys(grpc::CallbackServerContext* ctx,
                                                          const v1::GetSigningKeysRequest* request,
                                                          v1::GetSigningKeysResponse* response) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  reactor->Finish(ToGrpcStatus(hands_.GetSigningKeys(*request, response)));
  return reactor;
}

void StudServiceImpl::EndWatches() {
  if (watch_hub_ != nullptr) watch_hub_->EndAll(ServerDraining());
}

}  // namespace stud::service
