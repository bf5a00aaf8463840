// The stud.v1.StudService implementation: decode -> unseal -> engine -> seal
// -> encode. No rules live here; every ruling comes from the engine.
//
// HandService holds the logic as plain functions returning absl::Status (so
// it can be called without a network); StudServiceImpl adapts it to the gRPC
// callback API and maps errors once through ToGrpcStatus.
//
// Determinism: apart from the deck shuffle in NewHand (SERVICE dealing), every
// call is a pure function of (request, token, keys): the sealer derives its
// nonce from the plaintext, so the same request on the same token returns
// byte-identical responses, new token included.
#ifndef STUD_SERVICE_SERVICE_IMPL_H_
#define STUD_SERVICE_SERVICE_IMPL_H_

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "service/arena_allocator.h"
#include "service/sealer.h"
#include "service/seat_tickets.h"
#include "service/token/codec.h"
#include "stud/v1/stud.grpc.pb.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

class Ledger;          // ledger.h
struct Observability;  // observability.h
class TenantAuth;      // tenants.h

struct ServiceOptions {
  bool allow_preset = false;  // --allow_preset: accept DEALING_MODE_PRESET
  // --allow_history_reveal: ExportHandHistory may write every seat's down cards.
  bool allow_history_reveal = false;
  // Metrics, traces and logs of each call (null: none). Must outlive the service.
  const Observability* observability = nullptr;
  // Caller authentication (null: off). Must outlive the service.
  const TenantAuth* tenants = nullptr;
  // Where calls must carry a seat ticket (null: nowhere). Must outlive the service.
  const SeatTicketPolicy* seat_tickets = nullptr;
  // Load shedding (--max_in_flight): 0 = handlers run on gRPC's threads as
  // calls arrive. N > 0 = calls go to a queue served by `workers` threads; a
  // call arriving while N are queued or running is refused at once with
  // RESOURCE_EXHAUSTED, so memory and queueing delay stay bounded above
  // capacity and the server recovers as soon as the load drops.
  int max_in_flight = 0;
  int workers = 0;  // 0 = one per core
  // The hand ledger (--ledger; null: off, trusted mode). Must outlive the service.
  Ledger* ledger = nullptr;
  // --sealed_schema: the token plaintext schema written (token/codec.h);
  // kRollingUpgradeSchema while older replicas must still open new tokens.
  uint32_t sealed_schema = kSealedSchema;
};

// The bounded queue and workers behind ServiceOptions::max_in_flight.
class Admission {
 public:
  Admission(int max_in_flight, int workers);
  ~Admission();  // runs what is queued, then joins the workers
  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;
  // Queues `work` unless max_in_flight calls are queued or running.
  bool TrySubmit(absl::AnyInvocable<void() &&> work);
  int max_in_flight() const { return max_in_flight_; }

 private:
  void Run();
  const int max_in_flight_;
  // std::mutex rather than absl::Mutex: pthread-based, so ThreadSanitizer sees
  // it (Debian's Abseil is not instrumented).
  std::mutex mu_;
  std::condition_variable work_;
  std::deque<absl::AnyInvocable<void() &&>> queue_;  // guarded by mu_
  int in_flight_ = 0;                                // queued + running; guarded by mu_
  bool stop_ = false;                                // guarded by mu_
  std::vector<std::thread> threads_;
};

// The tenant of the call being handled on this thread ("" when caller
// authentication is off). Handlers run synchronously in the gRPC adapter,
// which sets it for the duration of the call; every token the call seals is
// bound to it and every token it opens must be.
absl::string_view CurrentTenant();
class TenantScope {
 public:
  explicit TenantScope(absl::string_view tenant);
  ~TenantScope();
  TenantScope(const TenantScope&) = delete;
  TenantScope& operator=(const TenantScope&) = delete;

 private:
  absl::string_view previous_;
};

class HandService {
 public:
  // `sealer` must outlive the service.
  HandService(const Sealer* sealer, ServiceOptions options) : sealer_(sealer), options_(options) {}

  absl::Status NewHand(const stud::v1::NewHandRequest& req, stud::v1::NewHandResponse* resp) const;
  absl::Status ApplyAction(const stud::v1::ApplyActionRequest& req,
                           stud::v1::ApplyActionResponse* resp) const;
  absl::Status LegalActions(const stud::v1::LegalActionsRequest& req,
                            stud::v1::LegalActionsResponse* resp) const;
  absl::Status ResolveShowdown(const stud::v1::ResolveShowdownRequest& req,
                               stud::v1::ResolveShowdownResponse* resp) const;
  absl::Status RuleIrregularity(const stud::v1::RuleIrregularityRequest& req,
                                stud::v1::RuleIrregularityResponse* resp) const;
  absl::Status GetView(const stud::v1::GetViewRequest& req, stud::v1::GetViewResponse* resp) const;
  // Hand histories (history_service.cc).
  absl::Status ExportHandHistory(const stud::v1::ExportHandHistoryRequest& req,
                                 stud::v1::ExportHandHistoryResponse* resp) const;
  absl::Status ReplayHandHistory(const stud::v1::ReplayHandHistoryRequest& req,
                                 stud::v1::ReplayHandHistoryResponse* resp) const;

 private:
  // Opens a token; when `expected_hand_id` is set, the token must be that hand's.
  absl::StatusOr<SealedHand> Unseal(const std::string& token,
                                    const std::string& expected_hand_id) const;
  // NewHand with redeal_of: the redeal of a misdeal that kept its antes (redeal.cc).
  absl::Status NewRedeal(const stud::v1::NewHandRequest& req,
                         stud::v1::NewHandResponse* resp) const;
  // The end of NewHand and of a redeal: prepares the deal of `request`
  // (dealing mode, deck, commitment, hand id), starts the hand in the engine
  // and answers with the update and the seat tickets.
  absl::Status DealNewHand(const stud::v1::NewHandRequest& request, HandConfig config,
                           stud::v1::Locale locale, const std::vector<int>& view_seats,
                           stud::v1::NewHandResponse* resp) const;
  // Fills `out` for the state after a call whose operations start at
  // `first_op`. `token` is the token to return; empty means seal a new one.
  void FillUpdate(const SealedHand& hand, size_t first_op, const std::vector<int>& view_seats,
                  bool announce, std::string token, stud::v1::HandUpdate* out) const;
  // Seat-scoped access (seat_tickets.h): OK, or why the call's ticket (or its
  // absence) does not allow this request on this hand.
  template <typename Req>
  absl::Status Permit(const Req& req, const SealedHand& hand) const {
    return CheckSeatTicket(*sealer_, options_.seat_tickets, req, hand);
  }

  const Sealer* sealer_;
  ServiceOptions options_;
};

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
  grpc::ServerUnaryReactor* ReplayHandHistory(grpc::CallbackServerContext* ctx,
                                              const stud::v1::ReplayHandHistoryRequest* req,
                                              stud::v1::ReplayHandHistoryResponse* resp) override;

 private:
  // Authenticates the caller (when tenants_ is set) and runs `handler` with
  // its tenant as CurrentTenant(); an unauthenticated call never reaches it.
  absl::Status Authorized(grpc::CallbackServerContext* ctx,
                          absl::FunctionRef<absl::Status()> handler) const;
  absl::Status Overloaded() const;

  // Runs `serve` (which finishes the call) now, or on a worker when load
  // shedding is on; `refuse` answers instead when the queue is full.
  grpc::ServerUnaryReactor* Dispatch(grpc::CallbackServerContext* ctx,
                                     absl::AnyInvocable<void(grpc::ServerUnaryReactor*) &&> serve,
                                     absl::FunctionRef<void(grpc::ServerUnaryReactor*)> refuse);

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
  std::unique_ptr<Admission> admission_;  // null: no load shedding
};

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVICE_IMPL_H_
