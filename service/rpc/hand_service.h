// HandService: the stud.v1.StudService logic as plain functions returning
// absl::Status, so that it runs without a network: decode -> unseal -> engine
// -> seal -> encode. No rules live here; every ruling comes from the engine.
// The gRPC adapter is server/stud_service.h. One file per RPC family:
// hand_rpcs.cc, showdown_rpc.cc, irregularity_rpc.cc, history_rpcs.cc,
// redeal_rpc.cc.
//
// Determinism: apart from the deck shuffle in NewHand (SERVICE dealing), every
// call is a pure function of (request, token, keys): the sealer derives its
// nonce from the plaintext, so the same request on the same token returns
// byte-identical responses, new token included.
#ifndef STUD_SERVICE_RPC_HAND_SERVICE_H_
#define STUD_SERVICE_RPC_HAND_SERVICE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/step.h"
#include "service/rpc/call_context.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "service/token/wire.h"
#include "service/trust/seat_tickets.h"
#include "stud/v1/stud.pb.h"

namespace stud::fairness {
class SigningKeys;  // fairness/receipt.h
}  // namespace stud::fairness

namespace stud::service {

class HandCache;        // token/hand_cache.h
class Ledger;           // trust/ledger.h
class SeatRateLimiter;  // trust/seat_rate_limit.h
struct Observability;   // observability/observability.h
class TenantAuth;       // trust/tenants.h
class TenantLimiter;    // trust/tenant_limits.h
class WatchHub;         // trust/watch_hub.h

// ServiceOptions::workers: no worker threads.
inline constexpr int kCallsOnGrpcThreads = -1;

struct ServiceOptions {
  bool allow_preset = false;  // --allow_preset: accept DEALING_MODE_PRESET
  // --allow_history_reveal: ExportHandHistory may write every seat's down cards.
  bool allow_history_reveal = false;
  // --allow_deck_reveal: GetView with reveal_deck may fill a complete hand's
  // deck, recycle order and salt, for a call without a seat ticket on a hand
  // that requires none (an operator's audit). Off: nobody gets the reveal.
  bool allow_deck_reveal = false;
  // Metrics, traces and logs of each call (null: none). Must outlive the service.
  const Observability* observability = nullptr;
  // Caller authentication (null: off). Must outlive the service.
  const TenantAuth* tenants = nullptr;
  // Where calls must carry a seat ticket (null: nowhere). Must outlive the service.
  const SeatTicketPolicy* seat_tickets = nullptr;
  // Load shedding (--max_in_flight): 0 = no bound, handlers run on gRPC's
  // threads as calls arrive. N > 0 = a call arriving while N calls are
  // accepted and not yet answered is refused at once with RESOURCE_EXHAUSTED,
  // so memory and queueing delay stay bounded above capacity and the server
  // recovers as soon as the load drops; the calls go to a queue served by
  // `workers` threads, or with kCallsOnGrpcThreads run on gRPC's threads (the
  // default with a ledger, whose calls do not hold a thread while Redis answers).
  int max_in_flight = 0;
  int workers = 0;  // 0 = one per core
  // The hand ledger (--ledger; null: off, trusted mode). Must outlive the service.
  Ledger* ledger = nullptr;
  // Per-tenant limit of calls queued or running (--max_in_flight_per_tenant;
  // null: none). Needs `tenants`. Must outlive the service.
  TenantLimiter* tenant_limits = nullptr;
  // Per-seat rate limit of calls carrying a seat ticket (--seat_rate_limit;
  // null: none). Must outlive the service.
  SeatRateLimiter* seat_rate_limit = nullptr;
  // WatchHand's reader of the watch streams (with the ledger; null: WatchHand
  // is refused LEDGER_NOT_CONFIGURED). Must outlive the service.
  WatchHub* watch_hub = nullptr;
  // --sealed_schema: the token plaintext schema written (token/codec.h);
  // kRollingUpgradeSchema while older replicas must still open new tokens.
  uint32_t sealed_schema = kSealedSchema;
  // The keys that sign hand receipts (--signing_keys_file; null: one random
  // key per process, EphemeralSigningKeys). Must outlive the service.
  const fairness::SigningKeys* signing_keys = nullptr;
  // Hands kept decoded between calls (--hand_cache; null: none): a call on
  // the token this replica just answered with skips opening and decoding it.
  // Used only while the tokens written are of kSealedSchema (a hand read back
  // from another schema is not known to equal the one kept). Must outlive
  // the service.
  HandCache* hand_cache = nullptr;
};

// FAILED_PRECONDITION STUD-DEAL-6: the hand waits for its players' seeds.
absl::Status SeedingPending();
// A hand in its seeding phase: the configuration and the starting stacks,
// nothing dealt (rpc/seeding_rpc.cc).
HandState SeedingState(const HandConfig& config);

// ABORTED VERSION_MISMATCH unless `expected` (when given) is the hand's version.
absl::Status CheckVersion(bool has_expected, uint64_t expected, const HandState& state);

// NewHand's and a redeal's seat list: seat numbers exactly 1..n, each once,
// where n = seats.size() (INVALID_ARGUMENT naming seats[i].seat otherwise).
absl::Status CheckSeatNumbers(
    const google::protobuf::RepeatedPtrField<stud::v1::SeatConfig>& seats);

class HandService {
 public:
  // `sealer` must outlive the service.
  HandService(const Sealer* sealer, ServiceOptions options) : sealer_(sealer), options_(options) {}

  // Every handler takes the call's context (call_context.h: the caller's
  // tenant, whether it is a device, where the hand's language is noted); the
  // default is a trusted backend call of tenant "" (tests and tools).
  absl::Status NewHand(const stud::v1::NewHandRequest& req, stud::v1::NewHandResponse* resp,
                       const CallContext& call = {}) const;
  absl::Status ApplyAction(const stud::v1::ApplyActionRequest& req,
                           stud::v1::ApplyActionResponse* resp, const CallContext& call = {}) const;
  absl::Status LegalActions(const stud::v1::LegalActionsRequest& req,
                            stud::v1::LegalActionsResponse* resp,
                            const CallContext& call = {}) const;
  absl::Status ResolveShowdown(const stud::v1::ResolveShowdownRequest& req,
                               stud::v1::ResolveShowdownResponse* resp,
                               const CallContext& call = {}) const;
  absl::Status RuleIrregularity(const stud::v1::RuleIrregularityRequest& req,
                                stud::v1::RuleIrregularityResponse* resp,
                                const CallContext& call = {}) const;
  absl::Status GetView(const stud::v1::GetViewRequest& req, stud::v1::GetViewResponse* resp,
                       const CallContext& call = {}) const;
  // One WatchHand message (server/watch_hand.h): `out`, or a whole
  // WatchHandResponse in call.response_bytes where the call takes bytes, =
  // version `token` of hand `req.hand_id()` as `req.seat_ticket()` sees it,
  // checked as GetView checks a ticket (a seat's own private view; the table,
  // or no ticket where none is required: the public view only), with the
  // operations from `first_op` on and `req.detail()`'s parts. `complete`: the
  // hand is over.
  absl::Status WatchUpdate(const CallContext& call, const stud::v1::WatchHandRequest& req,
                           const std::string& token, size_t first_op, stud::v1::HandUpdate* out,
                           bool* complete = nullptr) const;
  // Hand histories (history_rpcs.cc).
  absl::Status ExportHandHistory(const stud::v1::ExportHandHistoryRequest& req,
                                 stud::v1::ExportHandHistoryResponse* resp,
                                 const CallContext& call = {}) const;
  absl::Status ReplayHandHistory(const stud::v1::ReplayHandHistoryRequest& req,
                                 stud::v1::ReplayHandHistoryResponse* resp,
                                 const CallContext& call = {}) const;
  // The receipt signing keys, public (seeding_rpc.cc).
  absl::Status GetSigningKeys(const stud::v1::GetSigningKeysRequest& req,
                              stud::v1::GetSigningKeysResponse* resp) const;
  // The keys this service signs receipts with.
  const fairness::SigningKeys& SigningKeys() const;

 private:
  // Opens a token; when `expected_hand_id` is set, the token must be that hand's.
  absl::StatusOr<SealedHand> Unseal(const CallContext& call, const std::string& token,
                                    const std::string& expected_hand_id) const;
  // The same into `**owner`, which may hold an earlier hand
  // (ParseSealedHandInto), or the hand the hand cache kept as `token`, which
  // then takes `*owner`'s (HandCache::Take).
  absl::Status UnsealInto(const CallContext& call, const std::string& token,
                          const std::string& expected_hand_id,
                          std::unique_ptr<SealedHand>* owner) const;
  // NewHand with redeal_of: the redeal of a misdeal that kept its antes (redeal_rpc.cc).
  absl::Status NewRedeal(const CallContext& call, const stud::v1::NewHandRequest& req,
                         stud::v1::NewHandResponse* resp) const;
  // The end of NewHand and of a redeal: prepares the deal of `request`
  // (dealing mode, deck, commitment, hand id), starts the hand in the engine
  // and answers with the update and the seat tickets.
  absl::Status DealNewHand(const CallContext& call, const stud::v1::NewHandRequest& request,
                           HandConfig config, stud::v1::Locale locale,
                           const std::vector<int>& view_seats,
                           stud::v1::NewHandResponse* resp) const;
  // Which HandUpdate fields FillUpdate writes: all (NewHand, ApplyAction and
  // RuleIrregularity by default), all but announcements (GetView: nothing was
  // announced), or the changes alone (UPDATE_DETAIL_CHANGES: no public view,
  // no announcements).
  // UPDATE_DETAIL_COMPACT is kCompact: all, but the public view without the
  // hand's fixed facts (variant, stakes, profile, options, dealing mode, policy).
  enum class UpdateParts { kAll, kAllButAnnouncements, kChanges, kCompact };
  // The parts a request's `detail` asks for; INVALID_ARGUMENT for a value
  // this server does not know.
  static absl::StatusOr<UpdateParts> DecodeDetail(stud::v1::UpdateDetail detail);
  // Fills `out` for the state after a call whose operations start at
  // `first_op`. `token` is the token to return; empty means seal a new one.
  // `next`: what the engine's step answered (engine/step.h); null: asked here.
  void FillUpdate(const CallContext& call, const SealedHand& hand, size_t first_op,
                  const std::vector<int>& view_seats, UpdateParts parts, absl::string_view token,
                  stud::v1::HandUpdate* out, const NextStep* next = nullptr) const;
  // What every update does before its fields: the token it returns (`token`,
  // or the hand sealed now when that is empty, noted for the ledger and the
  // hand cache) and the hand's facts noted for the call's observation. A
  // token sealed here is valid until this thread's next seal.
  absl::string_view BeginUpdate(const CallContext& call, const SealedHand& hand, size_t first_op,
                                absl::string_view token) const;
  // True when WriteUpdate writes this call's answer, whatever its parts: a
  // caller that takes bytes (CallContext::response_bytes) and a hand dealt (not
  // seeding). Otherwise the caller fills the message (FillUpdate).
  static bool Writable(const CallContext& call, const SealedHand& hand);
  // FillUpdate's update written straight to `out` as the wire bytes of a
  // stud.v1.HandUpdate (update_bytes.cc): byte for byte what protobuf
  // serializes from FillUpdate's message (tests/service/update_bytes_test.cc),
  // without building it. Only where Writable.
  void WriteUpdate(const CallContext& call, const SealedHand& hand, size_t first_op,
                   const std::vector<int>& view_seats, UpdateParts parts, absl::string_view token,
                   const NextStep* next, wire::Writer& out) const;
  // A whole response written to call.response_bytes: its field
  // `update_field`, the HandUpdate of WriteUpdate, then what `rest` writes
  // (the response's fields numbered after it; NewHand's tickets), the others
  // empty. Only where Writable.
  void WriteAnswer(
      const CallContext& call, const SealedHand& hand, size_t first_op,
      const std::vector<int>& view_seats, UpdateParts parts, absl::string_view token,
      const NextStep* next, uint32_t update_field,
      absl::FunctionRef<void(wire::Writer&)> rest = [](wire::Writer&) {}) const;
  // ACTION_KIND_SEED, or any action on a hand in its seeding phase
  // (seeding_rpc.cc) [STUD-DEAL-6].
  absl::Status ApplySeed(const CallContext& call, const stud::v1::ApplyActionRequest& req,
                         SealedHand hand, stud::v1::ApplyActionResponse* resp) const;
  // FillUpdate's views of a hand in its seeding phase: no card, no turn.
  void FillSeeding(const SealedHand& hand, const std::vector<int>& view_seats, UpdateParts parts,
                   stud::v1::HandUpdate* out) const;
  // The policy a new hand is sealed with (HandPolicy): tickets when this
  // server or the calling tenant requires them, the ledger when this server
  // keeps one. Every replica then enforces it whatever its own flags.
  void SetHandPolicy(const CallContext& call, ServiceData* service) const;
  // Seat-scoped access (seat_tickets.h): OK, or why the call's ticket (or its
  // absence) does not allow this request on this hand.
  template <typename Req>
  absl::Status Permit(const CallContext& call, const Req& req, const SealedHand& hand) const {
    return CheckSeatTicket(*sealer_, options_.seat_tickets, call.tenant, call.device, req, hand);
  }

  // What a written update reserves first (the writer fills it with zeros, then
  // grows it if needed): a mid-hand full update of 8 seats is about 4.6 KB, its
  // changes alone about 1 KB (service_bench response_bytes).
  static constexpr size_t kUpdateBytesEstimate = 6 * 1024;
  static constexpr size_t kChangesBytesEstimate = 2 * 1024;

  const Sealer* sealer_;
  ServiceOptions options_;

  // tests/service/update_bytes_test.cc: NewHand's message answer for the hand
  // it dealt as bytes (a new hand is random, so it cannot be asked twice).
  friend class HandServiceTestPeer;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_HAND_SERVICE_H_
