#include "service/service_impl.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "engine/pot.h"
#include "service/announce.h"
#include "service/convert.h"
#include "service/dealing.h"
#include "service/observability.h"
#include "service/status_mapping.h"
#include "service/tracing.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

constexpr size_t kMaxNoteBytes = 500;

absl::Status CheckVersion(bool has_expected, uint64_t expected, const HandState& state) {
  if (has_expected && expected != state.version) return VersionMismatch(expected, state.version);
  return absl::OkStatus();
}

absl::StatusOr<v1::Locale> DecodeLocale(v1::Locale locale) {
  if (locale == v1::LOCALE_UNSPECIFIED) return v1::LOCALE_EN;
  if (locale == v1::LOCALE_EN || locale == v1::LOCALE_ES) return locale;
  return absl::InvalidArgumentError("locale: must be LOCALE_EN or LOCALE_ES");
}

struct IrregularityRule {
  absl::string_view rule_id;
  bool needs_seat;
  int cards;          // cards the report must name (0: none)
  bool needs_street;
};

IrregularityRule RuleFor(v1::IrregularityKind kind) {
  switch (kind) {
    case v1::IRREGULARITY_KIND_HOLECARD_EXPOSED: return {"STUD-IRR-EXP-1", true, 1, false};
    case v1::IRREGULARITY_KIND_BOTH_HOLECARDS_EXPOSED: return {"STUD-IRR-EXP-2", true, 2, false};
    case v1::IRREGULARITY_KIND_CARD_OFF_TABLE: return {"STUD-IRR-EXP-3", true, 1, false};
    case v1::IRREGULARITY_KIND_FINAL_CARD_FACE_UP: return {"STUD-IRR-EXP-5", true, 1, false};
    case v1::IRREGULARITY_KIND_WRONG_OPENER: return {"STUD-IRR-WRONG-1", true, 0, false};
    case v1::IRREGULARITY_KIND_ABSENT_PLAYER: return {"STUD-IRR-ABS-1", true, 0, false};
    case v1::IRREGULARITY_KIND_UPCARDS_PICKED_UP: return {"STUD-IRR-FOLD-2", true, 0, false};
    case v1::IRREGULARITY_KIND_BURN_ERROR: return {"STUD-IRR-BURN-1", false, 0, true};
    case v1::IRREGULARITY_KIND_PREMATURE_DEAL: return {"STUD-IRR-PREM-1", false, 0, true};
    case v1::IRREGULARITY_KIND_WRONG_CARD_COUNT: return {"STUD-IRR-CARDS-1", true, 0, false};
    case v1::IRREGULARITY_KIND_UPCARDS_REORDERED: return {"STUD-GAME-5", true, 0, false};
    default: return {"", false, 0, false};
  }
}

}  // namespace

absl::StatusOr<SealedHand> HandService::Unseal(const std::string& token) const {
  if (token.empty()) return absl::InvalidArgumentError("token: required");
  ChildSpan span("unseal");
  absl::StatusOr<std::string> plain = sealer_->Open(token);
  if (!plain.ok()) return plain.status();
  return ParseSealedHand(*plain);
}

void HandService::FillUpdate(const SealedHand& hand, size_t first_op, const std::vector<int>& view_seats,
                             bool announce, std::string token, v1::HandUpdate* out) const {
  const HandState& state = hand.state;
  if (token.empty()) {
    ChildSpan span("seal");
    out->set_token(sealer_->Seal(SerializeSealedHand(hand)));
  } else {
    out->set_token(std::move(token));
  }
  out->set_version(state.version);
  v1::PublicView* pub = out->mutable_public_view();
  EncodePublicView(state, pub);
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
  } else if (to_act != 0) {
    for (const LegalAction& a : stud::LegalActions(state, to_act)) {
      EncodeLegalAction(a, out->add_legal_actions());
    }
  }
  if (announce) {
    Announce(state, first_op, static_cast<v1::Locale>(hand.service.locale), out->mutable_announcements());
  }
}

absl::Status HandService::NewHand(const v1::NewHandRequest& req, v1::NewHandResponse* resp) const {
  HandConfig config;
  absl::StatusOr<Variant> variant = DecodeVariant(req.variant(), "variant");
  if (!variant.ok()) return variant.status();
  config.variant = *variant;
  absl::StatusOr<Stakes> stakes = DecodeStakes(req.stakes(), "stakes");
  if (!stakes.ok()) return stakes.status();
  config.stakes = *stakes;
  absl::StatusOr<Options> options = DecodeOptions(req.profile(), req.option_overrides(), "option_overrides");
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
      return absl::InvalidArgumentError(absl::StrCat(
          "seats[", i, "].seat: ", s.seat(), " is out of range or repeated; seats must be exactly 1..", n));
    }
    if (s.stack() <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("seats[", i, "].stack: must be positive"));
    }
    given[static_cast<size_t>(s.seat())] = true;
    config.starting_stacks[static_cast<size_t>(s.seat())] = s.stack();
  }
  absl::StatusOr<v1::Locale> locale = DecodeLocale(req.locale());
  if (!locale.ok()) return locale.status();
  absl::StatusOr<std::vector<int>> views = DecodeViewSeats(req.private_view_seats(), n, "private_view_seats");
  if (!views.ok()) return views.status();

  SealedHand hand;
  hand.service.locale = static_cast<uint32_t>(*locale);
  if (absl::Status st = PrepareDeal(req, options_.allow_preset, &config, &hand.service); !st.ok()) {
    return st;
  }
  absl::StatusOr<HandState> state = [&] {
    ChildSpan span("engine");
    return stud::NewHand(config);
  }();
  if (!state.ok()) return state.status();
  hand.state = *std::move(state);
  FillUpdate(hand, 0, *views, /*announce=*/true, "", resp->mutable_update());
  return absl::OkStatus();
}

absl::Status HandService::ApplyAction(const v1::ApplyActionRequest& req, v1::ApplyActionResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token());
  if (!hand.ok()) return hand.status();
  if (!req.has_action()) return absl::InvalidArgumentError("action: required");
  absl::StatusOr<Action> action = DecodeAction(req.action(), "action");
  if (!action.ok()) return action.status();
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), hand->state.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();
  if (absl::Status st = CheckVersion(req.has_expected_version(), req.expected_version(), hand->state);
      !st.ok()) {
    return st;
  }
  const size_t first_op = hand->state.log.size();
  absl::Status applied = [&] {
    ChildSpan span("engine");
    return stud::Apply(hand->state, *action);
  }();
  if (!applied.ok()) return applied;
  FillUpdate(*hand, first_op, *views, /*announce=*/true, "", resp->mutable_update());
  return absl::OkStatus();
}

absl::Status HandService::LegalActions(const v1::LegalActionsRequest& req, v1::LegalActionsResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token());
  if (!hand.ok()) return hand.status();
  const HandState& state = hand->state;
  if (req.seat() < 0 || req.seat() > state.config.num_seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat: ", req.seat(), " is not 1..", state.config.num_seats, " (0 = the board)"));
  }
  resp->set_version(state.version);
  resp->set_seat(req.seat());
  resp->set_to_act(ToAct(state));
  for (const LegalAction& a : stud::LegalActions(state, req.seat())) {
    EncodeLegalAction(a, resp->add_legal_actions());
  }
  if (state.phase == Phase::kAwaitingDeal) EncodeExpectedDeal(NextDeal(state), resp->mutable_expected_deal());
  return absl::OkStatus();
}

absl::Status HandService::ResolveShowdown(const v1::ResolveShowdownRequest& req,
                                          v1::ResolveShowdownResponse* resp) const {
  if (absl::StatusOr<v1::Locale> l = DecodeLocale(req.locale()); !l.ok()) return l.status();
  std::vector<ShowdownSeat> seats;
  Variant variant = Variant::kStud;
  Options options;
  std::optional<Card> common;
  if (req.hand_case() == v1::ResolveShowdownRequest::kToken) {
    absl::StatusOr<SealedHand> hand = Unseal(req.token());
    if (!hand.ok()) return hand.status();
    const HandState& state = hand->state;
    if (state.phase != Phase::kComplete) {
      return RuleViolation("STUD-SHOW-1",
                           "STUD-SHOW-1: the hand is not over; showdown is resolved once every live "
                           "seat has shown or mucked");
    }
    variant = state.config.variant;
    options = state.config.options;
    if (state.has_common) common = state.common_card;
    for (int i = 1; i <= state.config.num_seats; ++i) {
      const Seat& s = state.seats[i];
      ShowdownSeat ss{i, {}, s.committed, s.live()};
      for (int k = 0; k < s.num_cards; ++k) ss.cards.push_back(s.cards[static_cast<size_t>(k)].card);
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
        pr->set_rule_id(std::string(op.rule_id));
        v1::PotShare* share = pr->add_shares();
        share->set_seat(op.seat);
        share->set_amount(op.amount);
        share->set_half(v1::POT_HALF_WHOLE);
        (*resp->mutable_won())[op.seat] += op.amount;
      }
      return absl::OkStatus();
    }
  } else if (req.hand_case() == v1::ResolveShowdownRequest::kStateless) {
    const v1::StatelessShowdown& sd = req.stateless();
    absl::StatusOr<Variant> v = DecodeVariant(sd.variant(), "stateless.variant");
    if (!v.ok()) return v.status();
    variant = *v;
    absl::StatusOr<Options> o = DecodeOptions(sd.profile(), sd.option_overrides(), "stateless.option_overrides");
    if (!o.ok()) return o.status();
    options = *o;
    if (sd.seats_size() < 2 || sd.seats_size() > kMaxSeats) {
      return absl::InvalidArgumentError(absl::StrCat("stateless.seats: 2..", kMaxSeats, " seats required"));
    }
    for (int i = 0; i < sd.seats_size(); ++i) {
      const v1::ShowdownSeat& s = sd.seats(i);
      const std::string field = absl::StrCat("stateless.seats[", i, "]");
      if (s.seat() < 1 || s.seat() > kMaxSeats) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".seat: must be 1..", kMaxSeats));
      }
      if (s.contribution() < 0) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".contribution: must not be negative"));
      }
      absl::StatusOr<std::vector<Card>> cards = DecodeCards(s.cards(), absl::StrCat(field, ".cards"));
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
  if (!settlement.ok()) return settlement.status();
  EncodeSettlement(*settlement, resp);
  return absl::OkStatus();
}

absl::Status HandService::RuleIrregularity(const v1::RuleIrregularityRequest& req,
                                           v1::RuleIrregularityResponse* /*resp*/) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token());
  if (!hand.ok()) return hand.status();
  if (!req.has_report()) return absl::InvalidArgumentError("report: required");
  const v1::IrregularityReport& r = req.report();
  const IrregularityRule rule = RuleFor(r.kind());
  if (rule.rule_id.empty()) return absl::InvalidArgumentError("report.kind: required: an IRREGULARITY_KIND_ value");
  const int n = hand->state.config.num_seats;
  if (rule.needs_seat && (r.seat() < 1 || r.seat() > n)) {
    return absl::InvalidArgumentError(absl::StrCat("report.seat: required for this kind; must be 1..", n));
  }
  if (!rule.needs_seat && r.seat() != 0) {
    return absl::InvalidArgumentError("report.seat: not used by this kind; leave it 0");
  }
  if (r.cards_size() != rule.cards) {
    return absl::InvalidArgumentError(absl::StrCat("report.cards: this kind names exactly ", rule.cards,
                                                   " card(s), got ", r.cards_size()));
  }
  if (absl::StatusOr<std::vector<Card>> c = DecodeCards(r.cards(), "report.cards"); !c.ok()) return c.status();
  const int street = static_cast<int>(r.street());
  if (rule.needs_street && (street < 3 || street > 7)) {
    return absl::InvalidArgumentError("report.street: required for this kind: STREET_THIRD..STREET_SEVENTH");
  }
  if (!rule.needs_street && street != 0) {
    return absl::InvalidArgumentError("report.street: not used by this kind; leave it unspecified");
  }
  if (r.note().size() > kMaxNoteBytes) {
    return absl::InvalidArgumentError(absl::StrCat("report.note: at most ", kMaxNoteBytes, " bytes"));
  }
  if (absl::Status st = CheckVersion(req.has_expected_version(), req.expected_version(), hand->state);
      !st.ok()) {
    return st;
  }
  // Rulings arrive with the irregularities work; until then the validated
  // report is answered with its rule and the hand stays as it was.
  return RuleViolation(rule.rule_id,
                       absl::StrCat(rule.rule_id,
                                    ": report validated, but this server cannot rule on it yet; the "
                                    "hand is unchanged and the floor must rule by hand"));
}

absl::Status HandService::GetView(const v1::GetViewRequest& req, v1::GetViewResponse* resp) const {
  absl::StatusOr<SealedHand> hand = Unseal(req.token());
  if (!hand.ok()) return hand.status();
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), hand->state.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();
  FillUpdate(*hand, 0, *views, /*announce=*/false, req.token(), resp->mutable_update());
  return absl::OkStatus();
}

// ---- gRPC adapter ----

// Every handler goes through ServeUnary (observability.h): metrics, the
// server span and logs are recorded there, once per call.
#define STUD_RPC(Name, Req, Resp)                                                             \
  grpc::ServerUnaryReactor* StudServiceImpl::Name(grpc::CallbackServerContext* ctx,           \
                                                  const v1::Req* req, v1::Resp* resp) {       \
    return ServeUnary(observability_, ctx, RpcMethod::k##Name, *req, resp,                    \
                      [&] { return hands_.Name(*req, resp); });                               \
  }
STUD_RPC(NewHand, NewHandRequest, NewHandResponse)
STUD_RPC(ApplyAction, ApplyActionRequest, ApplyActionResponse)
STUD_RPC(LegalActions, LegalActionsRequest, LegalActionsResponse)
STUD_RPC(ResolveShowdown, ResolveShowdownRequest, ResolveShowdownResponse)
STUD_RPC(RuleIrregularity, RuleIrregularityRequest, RuleIrregularityResponse)
STUD_RPC(GetView, GetViewRequest, GetViewResponse)
#undef STUD_RPC

}  // namespace stud::service
