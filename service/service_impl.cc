#include "service/service_impl.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "engine/irregularities.h"
#include "engine/pot.h"
#include "service/announce.h"
#include "service/convert.h"
#include "service/dealing.h"
#include "service/ledger.h"
#include "service/observability.h"
#include "service/seat_tickets.h"
#include "service/status_mapping.h"
#include "service/tenants.h"
#include "service/token/codec.h"
#include "service/tracing.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

constexpr size_t kMaxNoteBytes = 500;
// Largest stack or contribution (the engine's bound): sums stay far from overflow.
constexpr int64_t kMaxChips = int64_t{1} << 40;

absl::Status CheckVersion(bool has_expected, uint64_t expected, const HandState& state) {
  if (has_expected && expected != state.version) return VersionMismatch(expected, state.version);
  return absl::OkStatus();
}

struct IrregularityRule {
  absl::string_view rule_id;
  bool needs_seat;
  int cards;  // cards the report must name (0: none; -1: any number)
  bool needs_street;
  IrregularityKind kind = IrregularityKind::kHolecardExposed;
};

IrregularityRule RuleFor(v1::IrregularityKind kind) {
  using K = IrregularityKind;
  switch (kind) {
    case v1::IRREGULARITY_KIND_HOLECARD_EXPOSED:
      return {"STUD-IRR-EXP-1", true, 1, false, K::kHolecardExposed};
    case v1::IRREGULARITY_KIND_BOTH_HOLECARDS_EXPOSED:
      return {"STUD-IRR-EXP-2", true, 0, false, K::kBothHolecardsExposed};
    case v1::IRREGULARITY_KIND_CARD_OFF_TABLE:
      return {"STUD-IRR-EXP-3", true, 1, false, K::kCardOffTable};
    case v1::IRREGULARITY_KIND_FINAL_CARD_FACE_UP:
      return {"STUD-IRR-EXP-5", true, 1, false, K::kFinalCardFaceUp};
    case v1::IRREGULARITY_KIND_WRONG_OPENER:
      return {"STUD-IRR-WRONG-1", true, 0, false, K::kWrongOpener};
    case v1::IRREGULARITY_KIND_ABSENT_PLAYER:
      return {"STUD-IRR-ABS-1", true, 0, false, K::kAbsentPlayer};
    case v1::IRREGULARITY_KIND_UPCARDS_PICKED_UP:
      return {"STUD-IRR-FOLD-2", true, 0, false, K::kUpcardsPickedUp};
    case v1::IRREGULARITY_KIND_BURN_ERROR:
      return {"STUD-IRR-BURN-1", false, -1, true, K::kBurnError};
    case v1::IRREGULARITY_KIND_PREMATURE_DEAL:
      return {"STUD-IRR-PREM-1", false, -1, true, K::kPrematureDeal};
    case v1::IRREGULARITY_KIND_WRONG_CARD_COUNT:
      return {"STUD-IRR-CARDS-1", true, 0, false, K::kWrongCardCount};
    case v1::IRREGULARITY_KIND_UPCARDS_REORDERED:
      return {"STUD-GAME-5", true, 0, false, K::kUpcardsReordered};
    case v1::IRREGULARITY_KIND_CHECKED_OUT:
      return {"STUD-IRR-FOLD-1", true, 0, false, K::kCheckedOut};
    case v1::IRREGULARITY_KIND_CALLED_WHEN_BEATEN:
      return {"STUD-IRR-CALL-1", true, 0, false, K::kCalledWhenBeaten};
    case v1::IRREGULARITY_KIND_TIMEOUT:
      return {"STUD-ALLIN-4", true, 0, false, K::kTimeout};
    case v1::IRREGULARITY_KIND_ACTION_OUT_OF_TURN:
      return {"STUD-IRR-WRONG-1", true, 0, false, K::kActionOutOfTurn};
    case v1::IRREGULARITY_KIND_SKIPPED_SEAT:
      return {"STUD-IRR-CARDS-1", true, -1, true, K::kSkippedSeat};
    default:
      return {"", false, 0, false};
  }
}

void EncodeRuling(const HandState& state, const Ruling& r, v1::Ruling* out) {
  out->set_rule_id(std::string(RuleIdName(r.rule_id)));
  out->set_decision(std::string(DecisionName(r.decision)));
  out->set_explanation_en(r.explanation_en);
  out->set_explanation_es(r.explanation_es);
  out->set_alternative(r.alternative);
  out->set_redeal_en(r.redeal_en);
  out->set_redeal_es(r.redeal_es);
  for (const SeatCardRef& c : r.exposed) {
    v1::RulingCard* rc = out->add_exposed_cards();
    rc->set_seat(c.seat);
    rc->set_card(c.card.ToString());
  }
  // Removed and given cards in the public redaction of their operations.
  for (size_t i = r.first_op; i < r.end_op; ++i) {
    const Operation& op = state.log[i];
    const bool removed = op.type == OpType::kAside;
    const bool given = op.type == OpType::kDeal || op.type == OpType::kReplaceCard;
    if (!removed && !given) continue;
    v1::RulingCard* rc = removed ? out->add_removed_cards() : out->add_given_cards();
    rc->set_seat(op.seat);
    if ((!removed || op.amount == 0) && CardVisibleTo(state, op, kPublicViewer)) {
      rc->set_card(op.card.ToString());
    }
  }
  for (int seat : r.killed) out->add_killed_seats(seat);
  for (const StackChange& c : r.chips) {
    v1::ChipChange* cc = out->add_chip_changes();
    cc->set_seat(c.seat);
    cc->set_stack_delta(c.stack_delta);
    cc->set_committed_delta(c.committed_delta);
  }
  out->set_to_act(r.to_act);
  for (const LegalAction& a : r.options) EncodeLegalAction(a, out->add_options());
  if (r.allowance_remaining >= 0) out->set_allowance_remaining(r.allowance_remaining);
}

// The engine report of a validated request report.
absl::StatusOr<IrregularityReport> DecodeReport(const v1::IrregularityReport& r,
                                                const IrregularityRule& rule,
                                                std::vector<Card> cards) {
  IrregularityReport out;
  out.kind = rule.kind;
  out.seat = r.seat();
  if (rule.needs_street) out.street = static_cast<Street>(static_cast<int>(r.street()));
  switch (rule.kind) {
    case IrregularityKind::kHolecardExposed:
    case IrregularityKind::kCardOffTable:
    case IrregularityKind::kFinalCardFaceUp:
      out.has_card = true;
      out.card = cards.at(0);
      break;
    case IrregularityKind::kSkippedSeat:  // none, or the missed card [STUD-IRR-BURN-1]
      if (cards.size() > 1) {
        return absl::InvalidArgumentError("report.cards: at most the one missed card");
      }
      if (!cards.empty()) {
        out.has_card = true;
        out.card = cards[0];
      }
      break;
    case IrregularityKind::kBurnError:
      if (cards.size() > 1)
        return absl::InvalidArgumentError("report.cards: at most the one misplaced card");
      if (!cards.empty()) {
        out.has_card = true;
        out.card = cards[0];
      }
      break;
    // None, or both hole cards: the engine checks them against the seat [STUD-IRR-EXP-2].
    case IrregularityKind::kBothHolecardsExposed:
    case IrregularityKind::kPrematureDeal:
      out.cards = std::move(cards);
      break;
    default:
      break;
  }
  const bool acts = rule.kind == IrregularityKind::kWrongOpener ||
                    rule.kind == IrregularityKind::kActionOutOfTurn;
  if (r.action() != v1::ACTION_KIND_UNSPECIFIED) {
    if (!acts || r.action() < v1::ACTION_KIND_FOLD || r.action() > v1::ACTION_KIND_RAISE) {
      return absl::InvalidArgumentError(
          "report.action: a betting action, for WRONG_OPENER and ACTION_OUT_OF_TURN only");
    }
    out.action = static_cast<ActionKind>(static_cast<int>(r.action()));
  } else if (acts) {
    return absl::InvalidArgumentError(
        "report.action: required for WRONG_OPENER and ACTION_OUT_OF_TURN");
  }
  if (r.amount_to() < 0)
    return absl::InvalidArgumentError("report.amount_to: must not be negative");
  out.amount_to = r.amount_to();
  out.next_acted = r.next_acted();
  out.burn_delta = r.burn_delta();
  if (r.moves_size() > kMaxSeats) {
    return absl::InvalidArgumentError("report.moves: at most one per seat");
  }
  if (r.kept_seats_size() > kMaxSeats) {
    return absl::InvalidArgumentError("report.kept_seats: at most one per seat");
  }
  for (int i = 0; i < r.moves_size(); ++i) {
    absl::StatusOr<Card> c =
        DecodeCard(r.moves(i).card(), absl::StrCat("report.moves[", i, "].card"));
    if (!c.ok()) return c.status();
    out.moves.push_back({r.moves(i).seat(), *c});
  }
  for (int seat : r.kept_seats()) out.seats.push_back(seat);
  out.card_count = r.card_count();
  out.declare_live = r.declare_live();
  out.allowance_remaining = r.allowance_remaining();
  out.disconnect = r.disconnect();
  if (!r.kept_card().empty()) {
    if (rule.kind != IrregularityKind::kPrematureDeal) {
      return absl::InvalidArgumentError("report.kept_card: for PREMATURE_DEAL only");
    }
    absl::StatusOr<Card> c = DecodeCard(r.kept_card(), "report.kept_card");
    if (!c.ok()) return c.status();
    out.has_card = true;
    out.card = *c;
  }
  return out;
}

// The engine names its own report fields; the request names some of them
// differently: `card` is cards[0] (kept_card for PREMATURE_DEAL) and `seats`
// is kept_seats. Rewrites the path at the start of an INVALID_ARGUMENT.
absl::Status WithRequestFieldPath(absl::Status s, IrregularityKind kind) {
  if (s.code() != absl::StatusCode::kInvalidArgument) return s;
  const absl::string_view msg = s.message();
  absl::string_view from, to;
  if (absl::StartsWith(msg, "report.card:")) {
    from = "report.card";
    to = kind == IrregularityKind::kPrematureDeal ? "report.kept_card" : "report.cards[0]";
  } else if (absl::StartsWith(msg, "report.seats")) {
    from = "report.seats";
    to = "report.kept_seats";
  } else {
    return s;
  }
  absl::Status out(s.code(), absl::StrCat(to, msg.substr(from.size())));
  s.ForEachPayload([&](absl::string_view url, const absl::Cord& p) { out.SetPayload(url, p); });
  return out;
}

}  // namespace

absl::StatusOr<SealedHand> HandService::Unseal(const std::string& token,
                                               const std::string& expected_hand_id) const {
  if (token.empty()) return absl::InvalidArgumentError("token: required");
  ChildSpan span("unseal");
  // A per-thread plaintext buffer: its capacity is kept from call to call.
  thread_local std::string plain;
  if (absl::Status st = sealer_->OpenInto(token, CurrentTenant(), &plain); !st.ok()) return st;
  absl::StatusOr<SealedHand> hand = ParseSealedHand(plain);
  if (hand.ok() && !expected_hand_id.empty() && HandIdText(hand->service) != expected_hand_id) {
    return HandIdMismatch(expected_hand_id, HandIdText(hand->service));
  }
  if (hand.ok()) LedgerScope::NoteOpened(HandIdText(hand->service), hand->state.version, token);
  return hand;
}

void HandService::FillUpdate(const SealedHand& hand, size_t first_op,
                             const std::vector<int>& view_seats, bool announce, std::string token,
                             v1::HandUpdate* out) const {
  const HandState& state = hand.state;
  if (token.empty()) {
    ChildSpan span("seal");
    thread_local std::string plain;  // per-thread, its capacity kept from call to call
    SerializeSealedHandTo(hand, &plain, options_.sealed_schema);
    out->set_token(sealer_->Seal(plain, CurrentTenant()));
    LedgerScope::NoteSealed(HandIdText(hand.service), state.version,
                            state.phase == Phase::kComplete, out->token());
  } else {
    out->set_token(std::move(token));
  }
  out->set_version(state.version);
  v1::PublicView* pub = out->mutable_public_view();
  EncodePublicView(state, pub);
  pub->set_hand_id(HandIdText(hand.service));
  pub->set_dealing_mode(static_cast<v1::DealingMode>(hand.service.dealing_mode));
  EncodeCommitment(state, hand.service, pub->mutable_deck_commitment());
  for (int seat : view_seats) {
    v1::PrivateView* pv = out->add_private_views();
    pv->set_seat(seat);
    EncodeSeatCards(state, seat, seat, pv->mutable_cards());
    for (size_t i = first_op; i < state.log.size(); ++i) {
      EncodeOperation(state, state.log[i], static_cast<uint32_t>(i), seat, pv->add_operations());
    }
  }
  for (size_t i = first_op; i < state.log.size(); ++i) {
    EncodeOperation(state, state.log[i], static_cast<uint32_t>(i), stud::kPublicViewer,
                    out->add_operations());
  }
  const int to_act = ToAct(state);
  out->set_to_act(to_act);
  if (state.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal next = NextDeal(state);
    EncodeExpectedDeal(next, out->mutable_expected_deal());
    for (const LegalAction& a : stud::LegalActions(state, next.seat)) {
      EncodeLegalAction(a, out->add_legal_actions());
    }
    // [STUD-DEAL-3, STUD-DECK-1] the dealer's burn or reshuffle (seat 0).
    if (next.seat != kBoardSeat) {
      for (const LegalAction& a : stud::LegalActions(state, kBoardSeat)) {
        EncodeLegalAction(a, out->add_legal_actions());
      }
    }
  } else if (to_act != 0) {
    for (const LegalAction& a : stud::LegalActions(state, to_act)) {
      EncodeLegalAction(a, out->add_legal_actions());
    }
  }
  if (announce) {
    Announce(state, first_op, static_cast<v1::Locale>(hand.service.locale),
             out->mutable_announcements());
  }
}

absl::Status HandService::NewHand(const v1::NewHandRequest& req, v1::NewHandResponse* resp) const {
  if (!req.redeal_of().empty()) return NewRedeal(req, resp);  // redeal.cc [STUD-IRR-EXP-1]
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
  std::array<bool, kMaxSeats + 1> given{};
  for (int i = 0; i < n; ++i) {
    const v1::SeatConfig& s = req.seats(i);
    if (s.seat() < 1 || s.seat() > n || given[static_cast<size_t>(s.seat())]) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].seat: ", s.seat(),
                       " is out of range or repeated; seats must be exactly 1..", n));
    }
    if (s.stack() <= 0 || s.stack() > kMaxChips) {
      return absl::InvalidArgumentError(
          absl::StrCat("seats[", i, "].stack: must be positive and at most 2^40 chips"));
    }
    given[static_cast<size_t>(s.seat())] = true;
    config.starting_stacks[static_cast<size_t>(s.seat())] = s.stack();
  }
  absl::StatusOr<v1::Locale> locale = DecodeLocale(req.locale());
  if (!locale.ok()) return locale.status();
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), n, "private_view_seats");
  if (!views.ok()) return views.status();

  return DealNewHand(req, std::move(config), *locale, *views, resp);
}

absl::Status HandService::DealNewHand(const v1::NewHandRequest& request, HandConfig config,
                                      v1::Locale locale, const std::vector<int>& view_seats,
                                      v1::NewHandResponse* resp) const {
  SealedHand hand;
  hand.service.locale = static_cast<uint32_t>(locale);
  if (absl::Status st = PrepareDeal(request, options_.allow_preset, &config, &hand.service);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<HandState> state = [&] {
    ChildSpan span("engine");
    return stud::NewHand(config);
  }();
  if (!state.ok()) return state.status();
  hand.state = *std::move(state);
  FillUpdate(hand, 0, view_seats, /*announce=*/true, "", resp->mutable_update());
  AddSeatTickets(*sealer_, hand.service, config.num_seats, resp);  // a new hand: new tickets
  return absl::OkStatus();
}

absl::Status HandService::ApplyAction(const v1::ApplyActionRequest& req,
                                      v1::ApplyActionResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token(), req.expected_hand_id());
  if (!hand.ok()) return hand.status();
  if (absl::Status st = Permit(req, *hand); !st.ok()) return st;
  if (!req.has_action()) return absl::InvalidArgumentError("action: required");
  absl::StatusOr<Action> action = DecodeAction(req.action(), "action");
  if (!action.ok()) return action.status();
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), hand->state.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();
  if (absl::Status st =
          CheckVersion(req.has_expected_version(), req.expected_version(), hand->state);
      !st.ok()) {
    return st;
  }
  const size_t first_op = hand->state.log.size();
  std::optional<Ruling> ruling;
  absl::Status applied = [&]() -> absl::Status {
    ChildSpan span("engine");
    if (std::optional<IrregularityReport> report = DealIrregularity(hand->state, *action)) {
      // LIVE dealing: the reported card reveals a dealer error, ruled at once.
      absl::StatusOr<Ruling> r = stud::RuleIrregularity(hand->state, *report);
      if (!r.ok()) return r.status();
      ruling = *std::move(r);
      return absl::OkStatus();
    }
    absl::Status st = stud::Apply(hand->state, *action);
    if (st.code() == absl::StatusCode::kInvalidArgument) {
      // The engine names the action's field ("seat: ..."); the request nests it.
      return absl::InvalidArgumentError(absl::StrCat("action.", st.message()));
    }
    return st;
  }();
  if (!applied.ok()) return applied;
  if (ruling) EncodeRuling(hand->state, *ruling, resp->mutable_ruling());
  FillUpdate(*hand, first_op, *views, /*announce=*/true, "", resp->mutable_update());
  return absl::OkStatus();
}

absl::Status HandService::LegalActions(const v1::LegalActionsRequest& req,
                                       v1::LegalActionsResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token(), req.expected_hand_id());
  if (!hand.ok()) return hand.status();
  if (absl::Status st = Permit(req, *hand); !st.ok()) return st;
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

// [STUD-ALLIN-1] the uncalled chips the engine gave back, from its log.
static void AddReturnedFromLog(const HandState& state, v1::ResolveShowdownResponse* resp) {
  for (const Operation& op : state.log) {
    if (op.type == OpType::kReturnUncalled) (*resp->mutable_returned())[op.seat] += op.amount;
  }
}

absl::Status HandService::ResolveShowdown(const v1::ResolveShowdownRequest& req,
                                          v1::ResolveShowdownResponse* resp) const {
  if (absl::StatusOr<v1::Locale> l = DecodeLocale(req.locale()); !l.ok()) return l.status();
  std::vector<ShowdownSeat> seats;
  Variant variant = Variant::kStud;
  Options options;
  std::optional<Card> common;
  absl::StatusOr<SealedHand> hand;
  if (req.hand_case() == v1::ResolveShowdownRequest::kToken) {
    hand = Unseal(req.token(), req.expected_hand_id());
    if (!hand.ok()) return hand.status();
    if (absl::Status st = Permit(req, *hand); !st.ok()) return st;
    const HandState& state = hand->state;
    resp->set_hand_id(HandIdText(hand->service));
    if (state.phase != Phase::kComplete) {
      return RuleViolation(
          RuleId::kShow1,
          "STUD-SHOW-1: the hand is not over; showdown is resolved once every live "
          "seat has shown or mucked");
    }
    variant = state.config.variant;
    options = state.config.options;
    if (state.has_common) common = state.common_card;
    for (int i = 1; i <= state.config.num_seats; ++i) {
      const Seat& s = state.seats[i];
      ShowdownSeat ss{i, {}, s.committed, s.live()};
      for (int k = 0; k < s.num_cards; ++k)
        ss.cards.push_back(s.cards[static_cast<size_t>(k)].card);
      seats.push_back(std::move(ss));
    }
    if (LiveSeatCount(state) < 2) {
      // Won without a showdown: report the awards the engine made.
      for (const Operation& op : state.log) {
        if (op.type != OpType::kAward) continue;
        v1::PotResult* pr = resp->add_pots();
        pr->set_index(op.pot);
        pr->set_amount(op.amount);
        pr->add_eligible_seats(op.seat);
        pr->add_high_winners(op.seat);
        pr->set_rule_id(std::string(RuleIdName(op.rule_id)));
        v1::PotShare* share = pr->add_shares();
        share->set_seat(op.seat);
        share->set_amount(op.amount);
        share->set_half(v1::POT_HALF_WHOLE);
        (*resp->mutable_won())[op.seat] += op.amount;
      }
      AddReturnedFromLog(state, resp);
      return absl::OkStatus();
    }
  } else if (req.hand_case() == v1::ResolveShowdownRequest::kStateless) {
    const v1::StatelessShowdown& sd = req.stateless();
    absl::StatusOr<Variant> v = DecodeVariant(sd.variant(), "stateless.variant");
    if (!v.ok()) return v.status();
    variant = *v;
    absl::StatusOr<Options> o =
        DecodeOptions(sd.profile(), sd.option_overrides(), "stateless.option_overrides");
    if (!o.ok()) return o.status();
    options = *o;
    if (sd.seats_size() < 2 || sd.seats_size() > kMaxSeats) {
      return absl::InvalidArgumentError(
          absl::StrCat("stateless.seats: 2..", kMaxSeats, " seats required"));
    }
    for (int i = 0; i < sd.seats_size(); ++i) {
      const v1::ShowdownSeat& s = sd.seats(i);
      const std::string field = absl::StrCat("stateless.seats[", i, "]");
      if (s.seat() < 1 || s.seat() > kMaxSeats) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".seat: must be 1..", kMaxSeats));
      }
      if (s.contribution() < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".contribution: must not be negative"));
      }
      if (s.contribution() > kMaxChips) {  // eight of them must sum without overflow
        return absl::InvalidArgumentError(absl::StrCat(field, ".contribution: at most 2^40 chips"));
      }
      absl::StatusOr<std::vector<Card>> cards =
          DecodeCards(s.cards(), absl::StrCat(field, ".cards"));
      if (!cards.ok()) return cards.status();
      seats.push_back(ShowdownSeat{s.seat(), *std::move(cards), s.contribution(), !s.folded()});
    }
    if (!sd.common_card().empty()) {
      absl::StatusOr<Card> c = DecodeCard(sd.common_card(), "stateless.common_card");
      if (!c.ok()) return c.status();
      common = *c;
    }
  } else {
    return absl::InvalidArgumentError("hand: required (a token or a stateless showdown)");
  }
  absl::StatusOr<Settlement> settlement = [&] {
    ChildSpan span("engine");
    return Settle(variant, options, seats, common);
  }();
  if (!settlement.ok() && settlement.status().code() == absl::StatusCode::kInvalidArgument &&
      req.hand_case() == v1::ResolveShowdownRequest::kStateless) {
    // The engine names the position in its list; the request's field is stateless.seats[i].
    return absl::InvalidArgumentError(absl::StrCat("stateless.", settlement.status().message()));
  }
  if (!settlement.ok()) return settlement.status();
  EncodeSettlement(*settlement, resp);
  if (hand.ok() && req.hand_case() == v1::ResolveShowdownRequest::kToken) {
    // The engine already gave any uncalled chips back (and its log says so);
    // `committed` then holds only called chips.
    resp->clear_returned();
    AddReturnedFromLog(hand->state, resp);
  }
  return absl::OkStatus();
}

absl::Status HandService::RuleIrregularity(const v1::RuleIrregularityRequest& req,
                                           v1::RuleIrregularityResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token(), req.expected_hand_id());
  if (!hand.ok()) return hand.status();
  if (absl::Status st = Permit(req, *hand); !st.ok()) return st;
  if (!req.has_report()) return absl::InvalidArgumentError("report: required");
  const v1::IrregularityReport& r = req.report();
  const IrregularityRule rule = RuleFor(r.kind());
  if (rule.rule_id.empty())
    return absl::InvalidArgumentError("report.kind: required: an IRREGULARITY_KIND_ value");
  const int n = hand->state.config.num_seats;
  if (rule.needs_seat && (r.seat() < 1 || r.seat() > n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("report.seat: required for this kind; must be 1..", n));
  }
  if (!rule.needs_seat && r.seat() != 0 && r.kept_card().empty()) {
    return absl::InvalidArgumentError("report.seat: not used by this kind; leave it 0");
  }
  if (rule.kind == IrregularityKind::kBothHolecardsExposed && r.cards_size() != 0 &&
      r.cards_size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("report.cards: none, or both hole cards of the seat; got ", r.cards_size()));
  }
  if (rule.cards >= 0 && r.cards_size() != rule.cards &&
      !(rule.kind == IrregularityKind::kBothHolecardsExposed && r.cards_size() == 2)) {
    return absl::InvalidArgumentError(absl::StrCat("report.cards: this kind names exactly ",
                                                   rule.cards, " card(s), got ", r.cards_size()));
  }
  if (r.cards_size() > kMaxSeats) {  // before decoding: never parse an unbounded list
    return absl::InvalidArgumentError(
        absl::StrCat("report.cards: at most ", kMaxSeats, ", got ", r.cards_size()));
  }
  absl::StatusOr<std::vector<Card>> cards = DecodeCards(r.cards(), "report.cards");
  if (!cards.ok()) return cards.status();
  const int street = static_cast<int>(r.street());
  if (rule.needs_street && (street < 3 || street > 7)) {
    return absl::InvalidArgumentError(
        "report.street: required for this kind: STREET_THIRD..STREET_SEVENTH");
  }
  if (!rule.needs_street && street != 0) {
    return absl::InvalidArgumentError("report.street: not used by this kind; leave it unspecified");
  }
  if (r.note().size() > kMaxNoteBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("report.note: at most ", kMaxNoteBytes, " bytes"));
  }
  if (absl::Status st =
          CheckVersion(req.has_expected_version(), req.expected_version(), hand->state);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), n, "private_view_seats");
  if (!views.ok()) return views.status();
  absl::StatusOr<IrregularityReport> report = DecodeReport(r, rule, *std::move(cards));
  if (!report.ok()) return report.status();
  const size_t first_op = hand->state.log.size();
  absl::StatusOr<Ruling> ruling = stud::RuleIrregularity(hand->state, *report);
  if (!ruling.ok()) return WithRequestFieldPath(ruling.status(), report->kind);
  EncodeRuling(hand->state, *ruling, resp->mutable_ruling());
  FillUpdate(*hand, first_op, *views, /*announce=*/true, "", resp->mutable_update());
  return absl::OkStatus();
}

absl::Status HandService::GetView(const v1::GetViewRequest& req, v1::GetViewResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token(), req.expected_hand_id());
  if (!hand.ok()) return hand.status();
  if (absl::Status st = Permit(req, *hand); !st.ok()) return st;
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), hand->state.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();
  FillUpdate(*hand, 0, *views, /*announce=*/false, req.token(), resp->mutable_update());
  return absl::OkStatus();
}

// ---- tenants ----

namespace {
thread_local absl::string_view current_tenant;
}  // namespace

absl::string_view CurrentTenant() { return current_tenant; }
TenantScope::TenantScope(absl::string_view tenant) : previous_(current_tenant) {
  current_tenant = tenant;
}
TenantScope::~TenantScope() { current_tenant = previous_; }

absl::Status StudServiceImpl::Authorized(grpc::CallbackServerContext* ctx,
                                         absl::FunctionRef<absl::Status()> handler) const {
  LedgerScope ledger(ledger_);  // commits what the call changed, or refuses it (ledger.h)
  if (tenants_ == nullptr) return ledger.Finish(handler(), "");
  absl::StatusOr<std::string> tenant = tenants_->Authenticate(ctx->client_metadata());
  if (!tenant.ok()) return tenant.status();
  TenantScope scope(*tenant);
  return ledger.Finish(handler(), *tenant);
}

// ---- load shedding ----

Admission::Admission(int max_in_flight, int workers) : max_in_flight_(max_in_flight) {
  if (workers <= 0) workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { Run(); });
}

Admission::~Admission() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool Admission::TrySubmit(absl::AnyInvocable<void() &&> work) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (in_flight_ >= max_in_flight_) return false;
    ++in_flight_;
    queue_.push_back(std::move(work));
  }
  work_.notify_one();
  return true;
}

void Admission::Run() {
  for (;;) {
    absl::AnyInvocable<void() &&> work;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    std::move(work)();
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
  }
}

absl::Status StudServiceImpl::Overloaded() const {
  return absl::ResourceExhaustedError(
      absl::StrCat("server overloaded: ", admission_->max_in_flight(),
                   " calls are queued or running (--max_in_flight); retry "
                   "with backoff"));
}

StudServiceImpl::StudServiceImpl(const Sealer* sealer, ServiceOptions options)
    : hands_(sealer, options),
      observability_(options.observability),
      tenants_(options.tenants),
      ledger_(options.ledger) {
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
    absl::FunctionRef<void(grpc::ServerUnaryReactor*)> refuse) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();  // once per call
  if (admission_ == nullptr) {
    std::move(serve)(reactor);
  } else if (!admission_->TrySubmit(
                 [serve = std::move(serve), reactor]() mutable { std::move(serve)(reactor); })) {
    refuse(reactor);
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
        [&](grpc::ServerUnaryReactor* reactor) {                                                  \
          ServeUnary(                                                                             \
              observability_, ctx, RpcMethod::k##Name, *req, resp,                                \
              [this] { return Overloaded(); }, reactor);                                          \
        });                                                                                       \
  }
STUD_RPC(NewHand, NewHandRequest, NewHandResponse)
STUD_RPC(ApplyAction, ApplyActionRequest, ApplyActionResponse)
STUD_RPC(LegalActions, LegalActionsRequest, LegalActionsResponse)
STUD_RPC(ResolveShowdown, ResolveShowdownRequest, ResolveShowdownResponse)
STUD_RPC(RuleIrregularity, RuleIrregularityRequest, RuleIrregularityResponse)
STUD_RPC(GetView, GetViewRequest, GetViewResponse)
#undef STUD_RPC

}  // namespace stud::service
