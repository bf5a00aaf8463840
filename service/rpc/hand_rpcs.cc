// HandService: opening and sealing a hand, NewHand, ApplyAction,
// LegalActions and GetView. Showdowns: showdown_rpc.cc; irregularities:
// irregularity_rpc.cc; hand histories: history_rpcs.cc; redeals: redeal_rpc.cc.
#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/advance.h"
#include "engine/engine.h"
#include "engine/irregularities.h"
#include "engine/pot.h"
#include "engine/step.h"
#include "service/api/announce.h"
#include "service/api/compact.h"
#include "service/api/convert.h"
#include "service/api/localized.h"
#include "service/api/ruling.h"
#include "service/api/status_mapping.h"
#include "service/observability/hand_facts.h"
#include "service/observability/tracing.h"
#include "service/rpc/call_hand.h"
#include "service/rpc/dealing.h"
#include "service/rpc/fairness_view.h"
#include "service/rpc/hand_service.h"
#include "service/rpc/receipt_view.h"
#include "service/token/codec.h"
#include "service/token/hand_cache.h"
#include "service/trust/ledger.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

// The ledger's digest of `token`, the token the call opened ("" without a
// ledger): kept with a hand a read keeps (ThreadHand::KeepAsOpened).
absl::string_view OpenedDigest(const CallContext& call, absl::string_view token) {
  return call.ledger != nullptr ? call.ledger->OpenedNameOf(token) : "";
}

}  // namespace

absl::Status CheckVersion(bool has_expected, uint64_t expected, const HandState& state) {
  if (has_expected && expected != state.version) return VersionMismatch(expected, state.version);
  return absl::OkStatus();
}

absl::StatusOr<SealedHand> HandService::Unseal(const CallContext& call, const std::string& token,
                                               const std::string& expected_hand_id) const {
  auto hand = std::make_unique<SealedHand>();
  if (absl::Status st = UnsealInto(call, token, expected_hand_id, &hand); !st.ok()) return st;
  return std::move(*hand);
}

absl::Status HandService::UnsealInto(const CallContext& call, const std::string& token,
                                     const std::string& expected_hand_id,
                                     std::unique_ptr<SealedHand>* owner) const {
  if (token.empty()) return absl::InvalidArgumentError("token: required");
  ChildSpan span(call.trace.span, "unseal");
  // A hand this replica kept as exactly these bytes for this tenant is the
  // one they open to (token/hand_cache.h); else the token is opened.
  thread_local std::string kept_digest;  // the ledger's, kept with the hand; capacity kept
  if (options_.hand_cache == nullptr ||
      !options_.hand_cache->Take(token, call.tenant, owner, &kept_digest)) {
    kept_digest.clear();
    thread_local std::string plain;  // its capacity kept from call to call
    if (absl::Status st = sealer_->OpenInto(token, call.tenant, &plain); !st.ok()) return st;
    if (absl::Status st = ParseSealedHandInto(plain, owner->get()); !st.ok()) return st;
  }
  SealedHand* hand = owner->get();
  if (call.language != nullptr) call.language->Note(hand->service.locale);  // its errors' language
  thread_local std::string hand_id;  // as text, formatted once per call in a kept string
  HandIdTextTo(hand->service, &hand_id);
  if (call.trace.hand != nullptr) call.trace.hand->NoteHandId(hand_id);  // its logs and span
  if (!expected_hand_id.empty() && hand_id != expected_hand_id) {
    return HandIdMismatch(expected_hand_id, hand_id);
  }
  // A hand dealt with the ledger is never served without one: no fork, and
  // every replica keeps the hand's line [HandPolicy].
  if (hand->service.requires_ledger && options_.ledger == nullptr) return LedgerRequired(hand_id);
  if (call.ledger != nullptr)
    call.ledger->NoteOpened(hand->service.hand_id, hand->state.version, token, kept_digest);
  return absl::OkStatus();
}

absl::StatusOr<HandService::UpdateParts> HandService::DecodeDetail(v1::UpdateDetail detail) {
  switch (detail) {
    case v1::UPDATE_DETAIL_UNSPECIFIED:
    case v1::UPDATE_DETAIL_FULL:
      return UpdateParts::kAll;
    case v1::UPDATE_DETAIL_CHANGES:
      return UpdateParts::kChanges;
    case v1::UPDATE_DETAIL_COMPACT:
      return UpdateParts::kCompact;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("detail: ", static_cast<int>(detail),
                       " is not an UpdateDetail (UPDATE_DETAIL_FULL, UPDATE_DETAIL_CHANGES or "
                       "UPDATE_DETAIL_COMPACT)"));
  }
}

absl::Status CheckSeatNumbers(const google::protobuf::RepeatedPtrField<v1::SeatConfig>& seats) {
  const int n = seats.size();
  std::array<bool, kMaxSeats + 1> given{};
  for (int i = 0; i < n; ++i) {
    const int seat = seats.Get(i).seat();
    if (seat < 1 || seat > n || seat > kMaxSeats || given[static_cast<size_t>(seat)]) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].seat: ", seat,
                       " is out of range or repeated; seats must be exactly 1..", n));
    }
    given[static_cast<size_t>(seat)] = true;
  }
  return absl::OkStatus();
}

absl::string_view HandService::BeginUpdate(const CallContext& call, const SealedHand& hand,
                                           size_t first_op, absl::string_view token) const {
  const HandState& state = hand.state;
  if (token.empty()) {
    ChildSpan span(call.trace.span, "seal");
    // Per thread, their capacity kept from call to call: a seal allocates nothing.
    thread_local std::string plain;
    thread_local std::string sealed;
    // The owner of the hand keeps it as this token when its call ends
    // (ThreadHand, NewHand); a hand written in another schema is not.
    const bool kept = options_.hand_cache != nullptr && options_.sealed_schema == kSealedSchema;
    SerializeSealedHandTo(hand, &plain, options_.sealed_schema, /*remember_log=*/kept);
    sealer_->SealTo(plain, call.tenant, hand.service.hand_id, &sealed);
    token = sealed;
    absl::string_view digest;  // the ledger's, kept with the hand
    if (call.ledger != nullptr) {
      digest = call.ledger->NoteSealed(hand.service.hand_id, state.version, first_op,
                                       state.phase == Phase::kComplete, token);
    }
    if (kept) KeepAsSealed(hand, token, digest);
  }
  // Counted by its game whatever the answer shows (observability/hand_facts.h).
  if (call.trace.hand != nullptr) {
    call.trace.hand->Note({.variant = EncodeVariant(state.config.variant),
                           .dealing_mode = static_cast<int>(hand.service.dealing_mode),
                           .phase = static_cast<int>(state.phase)});
  }
  return token;
}

void HandService::FillUpdate(const CallContext& call, const SealedHand& hand, size_t first_op,
                             const std::vector<int>& view_seats, UpdateParts parts,
                             absl::string_view token, v1::HandUpdate* out,
                             const NextStep* given_next) const {
  const HandState& state = hand.state;
  out->set_token(std::string(BeginUpdate(call, hand, first_op, token)));
  out->set_version(state.version);
  if (hand.service.seeding) {  // players' seeds awaited: nothing dealt [STUD-DEAL-6]
    FillSeeding(hand, view_seats, parts, out);
    return;
  }
  if (parts != UpdateParts::kChanges) {
    v1::PublicView* pub = out->mutable_public_view();
    EncodePublicView(ViewFor(state, kPublicViewer), pub);
    pub->set_hand_id(HandIdText(hand.service));
    pub->set_dealing_mode(static_cast<v1::DealingMode>(hand.service.dealing_mode));
    pub->mutable_policy()->set_seat_tickets(hand.service.requires_seat_tickets);
    pub->mutable_policy()->set_ledger(hand.service.requires_ledger);
    EncodeCommitment(hand.service, pub->mutable_deck_commitment());
    EncodeFairness(hand, pub);  // root, seeds, a proof per card this view shows
  }
  for (int seat : view_seats) {
    v1::PrivateView* pv = out->add_private_views();
    pv->set_seat(seat);
    EncodeSeatCards(state, seat, seat, pv->mutable_cards());
    EncodeCardProofs(hand, pv->cards(), pv->mutable_card_proofs());
    for (size_t i = first_op; i < state.log.size(); ++i) {
      EncodeOperation(state, state.log[i], static_cast<uint32_t>(i), seat, pv->add_operations());
    }
  }
  for (size_t i = first_op; i < state.log.size(); ++i) {
    EncodeOperation(state, state.log[i], static_cast<uint32_t>(i), stud::kPublicViewer,
                    out->add_operations());
  }
  std::optional<NextStep> asked;
  const NextStep& now = given_next != nullptr ? *given_next : asked.emplace(Next(state));
  out->set_to_act(now.to_act);
  if (now.deal.has_value()) EncodeExpectedDeal(*now.deal, out->mutable_expected_deal());
  for (const LegalAction& a : now.legal) EncodeLegalAction(a, out->add_legal_actions());
  if (parts == UpdateParts::kAll || parts == UpdateParts::kCompact) {
    Announce(state, first_op, static_cast<v1::Locale>(hand.service.locale),
             out->mutable_announcements());
  }
  if (parts == UpdateParts::kCompact) MakeCompact(state, first_op, out);  // api/compact.h
  if (state.phase == Phase::kComplete) {
    FillReceiptOf(hand, SigningKeys(), call.tenant, out->token(), out->mutable_receipt());
  }
}

absl::Status HandService::NewHand(const v1::NewHandRequest& req, v1::NewHandResponse* resp,
                                  const CallContext& call) const {
  if (!req.redeal_of().empty())
    return NewRedeal(call, req, resp);  // redeal_rpc.cc [STUD-IRR-EXP-1]
  HandConfig config;
  absl::StatusOr<Variant> variant = DecodeVariant(req.variant(), "variant");
  if (!variant.ok()) return variant.status();
  config.variant = *variant;
  absl::StatusOr<Stakes> stakes = DecodeStakes(req.stakes(), "stakes");
  if (!stakes.ok()) return stakes.status();
  config.stakes = *stakes;
  absl::StatusOr<Options> options =
      DecodeOptions(req.profile(), req.option_overrides(), "option_overrides");
  if (!options.ok()) return options.status();
  config.options = *options;

  const int n = req.seats_size();
  if (n < kMinSeats || n > kMaxSeats) {
    return absl::InvalidArgumentError(
        absl::StrCat("seats: ", n, " seats given; a hand needs ", kMinSeats, "..", kMaxSeats));
  }
  config.num_seats = n;
  if (absl::Status st = CheckSeatNumbers(req.seats()); !st.ok()) return st;
  for (int i = 0; i < n; ++i) {
    const v1::SeatConfig& s = req.seats(i);
    if (s.stack() <= 0 || s.stack() > kMaxStack) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].stack: must be positive and at most 2^40 chips"));
    }
    config.starting_stacks[static_cast<size_t>(s.seat())] = s.stack();
  }
  absl::StatusOr<v1::Locale> locale = DecodeLocale(req.locale());
  if (!locale.ok()) return locale.status();
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), n, "private_view_seats");
  if (!views.ok()) return views.status();

  return DealNewHand(call, req, std::move(config), *locale, *views, resp);
}

void HandService::SetHandPolicy(const CallContext& call, ServiceData* service) const {
  service->requires_seat_tickets =
      options_.seat_tickets != nullptr && options_.seat_tickets->RequiredFor(call.tenant);
  service->requires_ledger = options_.ledger != nullptr;
}

absl::Status HandService::DealNewHand(const CallContext& call, const v1::NewHandRequest& request,
                                      HandConfig config, v1::Locale locale,
                                      const std::vector<int>& view_seats,
                                      v1::NewHandResponse* resp) const {
  absl::StatusOr<UpdateParts> parts = DecodeDetail(request.detail());
  if (!parts.ok()) return parts.status();
  // On the heap, to be kept as its first token once answered (HandCache).
  auto owner = std::make_unique<SealedHand>();
  SealedHand& hand = *owner;
  ForgetKeptAs();
  hand.service.locale = static_cast<uint32_t>(locale);
  SetHandPolicy(call, &hand.service);
  if (absl::Status st = PrepareDeal(request, options_.allow_preset, &config, &hand.service);
      !st.ok()) {
    return st;
  }
  if (call.trace.hand != nullptr)
    call.trace.hand->NoteHandId(HandIdText(hand.service));  // the new id, for logs and span
  absl::StatusOr<HandState> state = [&] {
    ChildSpan span(call.trace.span, "engine");
    if (!hand.service.seeding) return stud::NewHand(std::move(config));
    // Players' seeds first [STUD-DEAL-6]: the engine checks the hand as it
    // would deal it, and nothing is dealt until the seeds are in.
    HandConfig probe = config;
    for (int i = 0; i < kDeckSize; ++i) probe.deck.push_back(Card::FromIndex(i));
    absl::StatusOr<HandState> checked = stud::NewHand(std::move(probe));
    if (!checked.ok()) return checked;
    return absl::StatusOr<HandState>(SeedingState(config));
  }();
  if (!state.ok()) return state.status();
  hand.state = *std::move(state);
  // A new hand: new tickets.
  if (Writable(call, hand)) {  // the update, then the tickets, as bytes
    WriteAnswer(call, hand, 0, view_seats, *parts, "", nullptr,
                v1::NewHandResponse::kUpdateFieldNumber, [&](wire::Writer& out) {
                  WriteSeatTickets(*sealer_, call.tenant, hand.service, hand.state.config.num_seats,
                                   out);
                });
  } else {
    FillUpdate(call, hand, 0, view_seats, *parts, "", resp->mutable_update());
    AddSeatTickets(*sealer_, call.tenant, hand.service, hand.state.config.num_seats, resp);
  }
  KeepIfNamed(options_.hand_cache, call.tenant, &owner);
  return absl::OkStatus();
}

absl::Status HandService::ApplyAction(const v1::ApplyActionRequest& req,
                                      v1::ApplyActionResponse* resp,
                                      const CallContext& call) const {
  ThreadHand opened(options_.hand_cache, call.tenant);  // kept as the token it answers with
  if (absl::Status st = UnsealInto(call, req.token(), req.expected_hand_id(), opened.owner());
      !st.ok())
    return st;
  SealedHand* hand = opened.get();
  if (absl::Status st = Permit(call, req, *hand); !st.ok()) return st;
  if (!req.has_action()) return absl::InvalidArgumentError("action: required");
  if (req.action().kind() == v1::ACTION_KIND_SEED || hand->service.seeding) {
    return ApplySeed(call, req, std::move(*hand), resp);  // seeding_rpc.cc [STUD-DEAL-6]
  }
  absl::StatusOr<Action> action = DecodeAction(req.action(), "action");
  if (!action.ok()) return action.status();
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), hand->state.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();
  absl::StatusOr<UpdateParts> parts = DecodeDetail(req.detail());
  if (!parts.ok()) return parts.status();
  if (absl::Status st =
          CheckVersion(req.has_expected_version(), req.expected_version(), hand->state);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<Step> step = [&]() -> absl::StatusOr<Step> {
    ChildSpan span(call.trace.span, "engine");
    absl::StatusOr<Step> s = Advance(hand->state, *action);
    if (s.status().code() == absl::StatusCode::kInvalidArgument) {
      // The engine names the action's field ("seat: ..."); the request nests it.
      return text::RenameField(s.status(), "", "action.");
    }
    return s;
  }();
  if (!step.ok()) return step.status();
  if (step->ruling) {
    EncodeRuling(hand->state, *step->ruling, resp->mutable_ruling());
  } else if (Writable(call, *hand)) {  // the response's one field, as bytes
    WriteAnswer(call, *hand, step->first_op, *views, *parts, "", &step->next,
                v1::ApplyActionResponse::kUpdateFieldNumber);
    return absl::OkStatus();
  }
  FillUpdate(call, *hand, step->first_op, *views, *parts, "", resp->mutable_update(), &step->next);
  return absl::OkStatus();
}

absl::Status HandService::LegalActions(const v1::LegalActionsRequest& req,
                                       v1::LegalActionsResponse* resp,
                                       const CallContext& call) const {
  ThreadHand opened(options_.hand_cache, call.tenant);
  if (absl::Status st = UnsealInto(call, req.token(), req.expected_hand_id(), opened.owner());
      !st.ok())
    return st;
  SealedHand* hand = opened.get();
  opened.KeepAsOpened(req.token(), OpenedDigest(call, req.token()));  // read only
  if (absl::Status st = Permit(call, req, *hand); !st.ok()) return st;
  if (hand->service.seeding) return SeedingPending();  // only seeds now [STUD-DEAL-6]
  const HandState& state = hand->state;
  if (req.seat() < 0 || req.seat() > state.config.num_seats) {
    return absl::InvalidArgumentError(absl::StrCat("seat: ", req.seat(), " is not 1..",
                                                   state.config.num_seats, " (0 = the board)"));
  }
  resp->set_version(state.version);
  resp->set_hand_id(HandIdText(hand->service));
  resp->set_seat(req.seat());
  resp->set_to_act(ToAct(state));
  for (const LegalAction& a : stud::LegalActions(state, req.seat())) {
    EncodeLegalAction(a, resp->add_legal_actions());
  }
  if (state.phase == Phase::kAwaitingDeal)
    EncodeExpectedDeal(NextDeal(state), resp->mutable_expected_deal());
  return absl::OkStatus();
}

absl::Status HandService::GetView(const v1::GetViewRequest& req, v1::GetViewResponse* resp,
                                  const CallContext& call) const {
  // By hand id: the ledger's latest token of the hand, then exactly as GetView
  // on that token (seat ticket, ledger check), which the answer returns.
  std::string latest_token;
  if (!req.hand_id().empty()) {
    if (!req.token().empty()) {
      return absl::InvalidArgumentError(
          "hand_id: set either token or hand_id, not both (hand_id fetches the latest token)");
    }
    if (absl::Status st = CheckTicketNamesHand(req.seat_ticket(), req.hand_id()); !st.ok()) {
      return st;
    }
    absl::StatusOr<LedgerLatest> latest =
        call.latest != nullptr
            ? *call.latest
            : LatestOfHand(options_.ledger, call.tenant, req.hand_id(), "hand_id");
    if (!latest.ok()) return latest.status();
    latest_token = std::move(latest->token);
  } else if (req.token().empty()) {
    return absl::InvalidArgumentError("token: required (or hand_id, on a server with the ledger)");
  }
  const std::string& token = req.hand_id().empty() ? req.token() : latest_token;
  ThreadHand opened(options_.hand_cache, call.tenant);
  if (absl::Status st = UnsealInto(call, token, req.expected_hand_id(), opened.owner()); !st.ok())
    return st;
  SealedHand* hand = opened.get();
  opened.KeepAsOpened(token, OpenedDigest(call, token));  // read only
  if (absl::Status st = Permit(call, req, *hand); !st.ok()) return st;
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), hand->state.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();
  if (req.reveal_deck()) {
    const DeckRevealCaller caller{
        .server_allows = options_.allow_deck_reveal,
        .has_ticket = !req.seat_ticket().empty(),
        .tickets_required =
            hand->service.requires_seat_tickets ||
            (options_.seat_tickets != nullptr && options_.seat_tickets->RequiredFor(call.tenant))};
    if (absl::Status st = CheckDeckReveal(caller, hand->state); !st.ok()) return st;
  }
  if (!req.reveal_deck() && Writable(call, *hand)) {
    WriteAnswer(call, *hand, 0, *views, UpdateParts::kAllButAnnouncements, token, nullptr,
                v1::GetViewResponse::kUpdateFieldNumber);
    return absl::OkStatus();
  }
  FillUpdate(call, *hand, 0, *views, UpdateParts::kAllButAnnouncements, token,
             resp->mutable_update());
  if (req.reveal_deck()) {  // a LIVE or PRESET hand has no deck of the service's to reveal
    EncodeDeckReveal(hand->state, hand->service,
                     resp->mutable_update()->mutable_public_view()->mutable_deck_commitment());
    EncodeServerSeedReveal(*hand, resp->mutable_update()->mutable_public_view());
  }
  return absl::OkStatus();
}

absl::Status HandService::WatchUpdate(const CallContext& call, const v1::WatchHandRequest& req,
                                      const std::string& token, size_t first_op,
                                      v1::HandUpdate* out, bool* complete) const {
  ThreadHand opened(options_.hand_cache, call.tenant);
  if (absl::Status st = UnsealInto(call, token, req.hand_id(), opened.owner()); !st.ok()) return st;
  SealedHand* hand = opened.get();
  opened.KeepAsOpened(token, OpenedDigest(call, token));  // read only
  // The ticket's seat is its byte 23 (seat_tickets.h); Permit refuses a
  // ticket that is not authentic, so the byte is trusted only once it passes.
  const std::string& ticket = req.seat_ticket();
  const int seat = ticket.size() == kSeatTicketBytes ? static_cast<uint8_t>(ticket[23]) : 0;
  v1::GetViewRequest as_view;
  as_view.set_seat_ticket(ticket);
  if (seat != kTableTicketSeat) as_view.add_private_view_seats(seat);
  if (absl::Status st = Permit(call, as_view, *hand); !st.ok()) return st;
  absl::StatusOr<UpdateParts> parts = DecodeDetail(req.detail());
  if (!parts.ok()) return parts.status();
  std::vector<int> views;
  if (seat != kTableTicketSeat) views.push_back(seat);
  if (complete != nullptr) *complete = hand->state.phase == Phase::kComplete;
  if (Writable(call, *hand)) {
    WriteAnswer(call, *hand, first_op, views, *parts, token, nullptr,
                v1::WatchHandResponse::kUpdateFieldNumber);
    return absl::OkStatus();
  }
  FillUpdate(call, *hand, first_op, views, *parts, token, out);
  return absl::OkStatus();
}

}  // namespace stud::service
