// StudServiceImpl: HandService (rpc/hand_service.h) on the gRPC callback
// API, as raw methods whose messages the service parses and serializes
// itself (unary_call.h says why). Each call is parsed (an undecodable request
// is answered INVALID_ARGUMENT and counted), authenticated (trust/tenants.h),
// admitted or shed (admission.h), observed once
// (observability/observability.h, ServeUnary), and its errors are mapped once
// (api/status_mapping.h).
#ifndef STUD_SERVICE_SERVER_STUD_SERVICE_H_
#define STUD_SERVICE_SERVER_STUD_SERVICE_H_

#include <atomic>
#include <memory>

#include "absl/functional/any_invocable.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "service/observability/call_trace.h"
#include "service/observability/client_metadata.h"
#include "service/observability/metrics.h"
#include "service/rpc/hand_service.h"
#include "service/server/admission.h"
#include "service/server/callers.h"
#include "service/server/unary_call.h"
#include "stud/v1/stud.grpc.pb.h"

namespace stud::service {

// Every StudService unary method and WatchHand, a server stream, as raw
// callback methods (ByteBuffer in and out: unary_call.h, watch_hand.h).
using RawStudService = stud::v1::StudService::WithRawCallbackMethod_NewHand<
    stud::v1::StudService::WithRawCallbackMethod_ApplyAction<
        stud::v1::StudService::WithRawCallbackMethod_LegalActions<
            stud::v1::StudService::WithRawCallbackMethod_ResolveShowdown<
                stud::v1::StudService::WithRawCallbackMethod_RuleIrregularity<
                    stud::v1::StudService::WithRawCallbackMethod_GetView<
                        stud::v1::StudService::WithRawCallbackMethod_ExportHandHistory<
                            stud::v1::StudService::WithRawCallbackMethod_ReplayHandHistory<
                                stud::v1::StudService::WithRawCallbackMethod_WatchHand<
                                    stud::v1::StudService::WithCallbackMethod_GetSigningKeys<
                                        stud::v1::StudService::Service>>>>>>>>>>;

// Every unary method served from its raw bytes (Serve, ServeBytes), as
// X(Name) for each; GetSigningKeys, a typed method, is served apart.
#define STUD_UNARY_RPCS(X) \
  X(NewHand)               \
  X(ApplyAction)           \
  X(LegalActions)          \
  X(ResolveShowdown)       \
  X(RuleIrregularity)      \
  X(GetView)               \
  X(ExportHandHistory)     \
  X(ReplayHandHistory)

class StudServiceImpl final : public RawStudService {
 public:
  StudServiceImpl(const Sealer* sealer, ServiceOptions options);
  // Waits (at most 30 s) for every accepted call to be answered: a call
  // awaiting the ledger is finished from the ledger's thread, which touches
  // this object until just before the answer leaves.
  ~StudServiceImpl() override;

  grpc::ServerUnaryReactor* NewHand(grpc::CallbackServerContext* ctx,
                                    const grpc::ByteBuffer* request,
                                    grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ApplyAction(grpc::CallbackServerContext* ctx,
                                        const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* LegalActions(grpc::CallbackServerContext* ctx,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ResolveShowdown(grpc::CallbackServerContext* ctx,
                                            const grpc::ByteBuffer* request,
                                            grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* RuleIrregularity(grpc::CallbackServerContext* ctx,
                                             const grpc::ByteBuffer* request,
                                             grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetView(grpc::CallbackServerContext* ctx,
                                    const grpc::ByteBuffer* request,
                                    grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ExportHandHistory(grpc::CallbackServerContext* ctx,
                                              const grpc::ByteBuffer* request,
                                              grpc::ByteBuffer* response) override;
  // One unary call from its request's bytes, outside gRPC (the Connect
  // listener, connect/connect_call.h): `path` is the gRPC method path
  // ("/stud.v1.StudService/ApplyAction"). The same path as a gRPC call:
  // parsed (undecodable: INVALID_ARGUMENT, counted), authenticated from
  // `metadata`, admitted, observed, its errors mapped. Blocks until answered;
  // *response holds the response's bytes when OK. UNIMPLEMENTED for a path
  // that is not a unary method.
  grpc::Status ServeBytes(absl::string_view path, const ClientMetadata& metadata,
                          absl::string_view request, std::string* response);

  // Graceful stop, before grpc::Server::Shutdown (which cancels the calls
  // gRPC has received but not yet handed to the service): from now on every
  // new call is answered UNAVAILABLE, reason SERVER_DRAINING (retryable:
  // another replica answers), while calls already accepted finish.
  void StartDraining() {
    last_arrival_nanos_.store(absl::ToUnixNanos(absl::Now()));
    draining_.store(true);
  }
  // The drain, after StartDraining: ends every open WatchHand stream
  // UNAVAILABLE SERVER_DRAINING (the client resumes on another replica).
  void EndWatches();
  grpc::ServerWriteReactor<grpc::ByteBuffer>* WatchHand(grpc::CallbackServerContext* ctx,
                                                        const grpc::ByteBuffer* request) override;
  // Calls accepted and not yet answered (WatchHand streams are not counted).
  int in_flight() const { return in_flight_.load(); }
  // When the last call arrived (refused while draining or not), as
  // absl::ToUnixNanos.
  int64_t last_arrival_nanos() const { return last_arrival_nanos_.load(); }

  grpc::ServerUnaryReactor* ReplayHandHistory(grpc::CallbackServerContext* ctx,
                                              const grpc::ByteBuffer* request,
                                              grpc::ByteBuffer* response) override;
  // Public: answered at once for any caller (no tenant key, no ticket, not
  // queued): the keys are what anyone needs to check a receipt.
  grpc::ServerUnaryReactor* GetSigningKeys(grpc::CallbackServerContext* ctx,
                                           const stud::v1::GetSigningKeysRequest* request,
                                           stud::v1::GetSigningKeysResponse* response) override;

 private:
  // Runs `handler` with the call's context (rpc/call_context.h) made from
  // `caller`, the call's one authentication (Serve makes it, Dispatch reads
  // its tenant), and `trace`, its observation's span and hand facts
  // (ServeUnary): an unauthenticated or rate-limited call never reaches it.
  // `seat_ticket`: the request's seat ticket ("" when it has none).
  // `latest_of_hand`: a hand id whose latest token the ledger is asked for
  // first (GetView by hand id; "" for none); the handler then runs from the
  // ledger's answer (CallContext::latest), on the ledger's thread.
  // The call's status goes to `done`: at once, or from the ledger's thread
  // once the ledger has answered (trust/ledger.h, LedgerScope::Finish).
  // `metadata` must live until then. `handler`: absl::Status(const
  // CallContext&), kept (not allocated) until it runs.
  template <typename Handler>
  void Authorized(const ClientMetadata& metadata, const absl::StatusOr<Caller>& caller,
                  absl::string_view seat_ticket, absl::string_view latest_of_hand,
                  const CallTrace& trace, Handler handler, HandlerDone done) const;
  // OK, or SEAT_RATE_LIMITED when the seat of `seat_ticket` (a ticket's
  // bytes; "" = none) is over --seat_rate_limit.
  absl::Status AdmitSeat(absl::string_view tenant, absl::string_view seat_ticket) const;
  // Authorized once admitted (`admitted`: OK, or why not) and the latest
  // token read (when asked for): the handler, which notes the hand's
  // language and its tokens in the call's LedgerScope, then the ledger's
  // commit or check.
  void Served(const ClientMetadata& metadata, const absl::StatusOr<Caller>& caller,
              absl::Status admitted, const CallTrace& trace,
              const absl::StatusOr<LedgerLatest>* latest,
              absl::FunctionRef<absl::Status(const CallContext&)> handler, HandlerDone done) const;

  // Parses the request's bytes into a new UnaryCall (its messages on one
  // arena), then serves it (ServeCall); the response's bytes go to
  // `response`, and the call is finished on gRPC's DefaultReactor.
  template <typename Req, typename Resp>
  grpc::ServerUnaryReactor* Serve(grpc::CallbackServerContext* ctx, RpcMethod method,
                                  const grpc::ByteBuffer& request, grpc::ByteBuffer* response,
                                  absl::Status (HandService::*handle)(const Req&, Resp*,
                                                                      const CallContext&) const);
  // One parsed call, whatever its transport: authenticated from `metadata`,
  // dispatched to `handle` (which fills the response), observed once; then
  // `send()` writes the response's bytes (when OK) and `finish(status)`
  // answers. Deletes `call` after `finish`. `metadata` must live until then.
  template <typename Req, typename Resp, typename Send, typename Finish>
  void ServeCall(const ClientMetadata& metadata, RpcMethod method, UnaryCall<Req, Resp>* call,
                 Send send, Finish finish,
                 absl::Status (HandService::*handle)(const Req&, Resp*, const CallContext&) const);
  // INVALID_ARGUMENT for a request whose bytes are not `method`'s message, counted.
  grpc::Status Undecodable(RpcMethod method) const;
  // ServeBytes of one method.
  template <typename Req, typename Resp>
  grpc::Status ServeBytesOf(RpcMethod method, const ClientMetadata& metadata,
                            absl::string_view request, std::string* response,
                            absl::Status (HandService::*handle)(const Req&, Resp*,
                                                                const CallContext&) const);
  // Run once a call is answered (Dispatch's bookkeeping).
  using Answered = absl::AnyInvocable<void() &&>;
  // Runs `serve(caller, answered)` (which finishes the call, then runs
  // `answered`) now, or on a worker when load shedding is on; `refuse`
  // answers with the reason instead when max_in_flight calls are unanswered
  // or the caller's tenant has its limit in flight. Exactly one of them runs.
  // `caller`: the call's authentication, made once by Serve.
  void Dispatch(absl::StatusOr<Caller> caller,
                absl::AnyInvocable<void(const absl::StatusOr<Caller>&, Answered) &&> serve,
                absl::FunctionRef<void(const absl::Status&)> refuse);

  HandService hands_;
  WatchHub* watch_hub_;  // null: WatchHand is refused LEDGER_NOT_CONFIGURED
  const Observability* observability_;
  Callers callers_;                   // who a call is: API key or seat ticket
  SeatRateLimiter* seat_rate_limit_;  // null: no per-seat limit
  Ledger* ledger_;
  const int max_in_flight_;               // 0: no bound
  TenantLimiter* tenant_limits_;          // null: no per-tenant limit
  std::unique_ptr<Admission> admission_;  // null: no load shedding
  std::atomic<bool> draining_{false};
  std::atomic<int> in_flight_{0};
  std::atomic<int> watches_opening_{0};  // WatchHand streams awaiting the ledger (watch_hand.h)
  std::atomic<int64_t> last_arrival_nanos_{0};
};

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_STUD_SERVICE_H_
