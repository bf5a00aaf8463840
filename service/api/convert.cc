#include "service/api/convert.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "text/hand_names.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// Caller text quoted in an error message: at most 16 bytes, printable ASCII,
// anything else as \xNN. A hostile value of any size or encoding then gives a
// short message that is valid UTF-8 (google.rpc.Status.message is a proto3
// string) and safe to log.
std::string Quoted(absl::string_view text) {
  constexpr size_t kMaxQuoted = 16;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kMaxQuoted; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  if (text.size() > kMaxQuoted) absl::StrAppend(&out, "...(", text.size(), " bytes)");
  out += "\"";
  return out;
}

// Maps a proto enum override onto the engine enum; the proto value is the
// engine value (both start at 1), 0 means "not set" and is rejected when the
// field is present.
template <typename E, typename P>
absl::Status Override(bool has, P value, int max, E* out, absl::string_view field,
                      const char* name) {
  if (!has) return absl::OkStatus();
  const int v = static_cast<int>(value);
  if (v < 1 || v > max)
    return Invalid(absl::StrCat(field, ".", name), "must be set to a named value");
  *out = static_cast<E>(v - 1);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Card> DecodeCard(absl::string_view text, absl::string_view field) {
  absl::StatusOr<Card> card = ParseCard(text);
  if (!card.ok())
    return Invalid(field, absl::StrCat(Quoted(text), " is not a card like \"As\" or \"Td\""));
  return card;
}

absl::StatusOr<std::vector<Card>> DecodeCards(
    const google::protobuf::RepeatedPtrField<std::string>& cards, absl::string_view field) {
  std::vector<Card> out;
  out.reserve(static_cast<size_t>(cards.size()));
  for (int i = 0; i < cards.size(); ++i) {
    absl::StatusOr<Card> c = DecodeCard(cards.Get(i), absl::StrCat(field, "[", i, "]"));
    if (!c.ok()) return c.status();
    out.push_back(*c);
  }
  return out;
}

absl::StatusOr<v1::Locale> DecodeLocale(v1::Locale locale) {
  if (locale == v1::LOCALE_UNSPECIFIED) return v1::LOCALE_EN;
  if (locale == v1::LOCALE_EN || locale == v1::LOCALE_ES) return locale;
  return absl::InvalidArgumentError("locale: must be LOCALE_EN or LOCALE_ES");
}

absl::StatusOr<Variant> DecodeVariant(v1::Variant v, absl::string_view field) {
  switch (v) {
    case v1::VARIANT_STUD:
      return Variant::kStud;
    case v1::VARIANT_STUD_HI_LO:
      return Variant::kStudHiLo;
    case v1::VARIANT_RAZZ:
      return Variant::kRazz;
    default:
      return Invalid(field, "required: VARIANT_STUD, VARIANT_STUD_HI_LO or VARIANT_RAZZ");
  }
}

absl::StatusOr<Stakes> DecodeStakes(const v1::Stakes& stakes, absl::string_view field) {
  switch (stakes.kind_case()) {
    case v1::Stakes::kPreset: {
      std::optional<Stakes> found = FindStakesPreset(stakes.preset());
      if (!found) {
        return Invalid(absl::StrCat(field, ".preset"),
                       absl::StrCat(Quoted(stakes.preset()),
                                    " is not in the stakes table (e.g. \"$15-$30\")"));
      }
      return *found;
    }
    case v1::Stakes::kCustom: {
      const v1::CustomStakes& c = stakes.custom();
      Stakes s{c.ante(), c.bring_in(), c.small_bet(), c.big_bet()};
      if (absl::Status st = ValidateStakes(s); !st.ok()) {
        return Invalid(absl::StrCat(field, ".custom"), text::Worded(st).message());
      }
      return s;
    }
    default:
      return Invalid(field, "required: a preset name or custom amounts");
  }
}

absl::StatusOr<Options> DecodeOptions(v1::Profile profile, const v1::RuleOptions& o,
                                      absl::string_view field) {
  Profile p = Profile::kCash;
  switch (profile) {
    case v1::PROFILE_UNSPECIFIED:
    case v1::PROFILE_CASH:
      p = Profile::kCash;
      break;
    case v1::PROFILE_TOURNAMENT:
      p = Profile::kTournament;
      break;
    case v1::PROFILE_ONLINE:
      p = Profile::kOnline;
      break;
    default:
      return Invalid("profile", "unknown profile");
  }
  Options out = ProfileDefaults(p);
  absl::Status st;
#define STUD_OVR(has, get, max, dst) \
  if (st = Override(o.has(), o.get(), max, &out.dst, field, #get); !st.ok()) return st
  STUD_OVR(has_bring_in_source, bring_in_source, 2, bring_in_source);
  STUD_OVR(has_third_street_opener, third_street_opener, 2, third_street_opener);
  STUD_OVR(has_short_all_in_rule, short_all_in_rule, 2, short_allin_rule);
  STUD_OVR(has_open_pair_scope, open_pair_scope, 2, open_pair_scope);
  STUD_OVR(has_deck_exhaustion, deck_exhaustion, 3, deck_exhaustion);
  STUD_OVR(has_odd_chip_cards, odd_chip_cards, 2, odd_chip_cards);
  STUD_OVR(has_short_hand, short_hand, 2, short_hand);
  STUD_OVR(has_exposed_holecard, exposed_holecard, 2, exposed_holecard);
  STUD_OVR(has_dead_hand_low_opener, dead_hand_low_opener, 2, dead_hand_low_opener);
  STUD_OVR(has_absent_kill, absent_kill, 2, absent_kill);
  STUD_OVR(has_fold_when_check, fold_when_check, 3, fold_when_check);
  STUD_OVR(has_final_burn_error, final_burn_error, 2, final_burn_error);
  STUD_OVR(has_premature_seventh, premature_seventh, 2, premature_seventh);
  STUD_OVR(has_faceup_final_option, faceup_final_option, 2, faceup_final_option);
  STUD_OVR(has_exhausted_timeout_action, exhausted_timeout_action, 2, exhausted_timeout_action);
  STUD_OVR(has_misdeal_antes, misdeal_antes, 2, misdeal_antes);
#undef STUD_OVR
  if (o.has_burn_before_third()) out.burn_before_third = o.burn_before_third();
  if (o.has_bring_in_option()) out.bring_in_option = o.bring_in_option();
  if (o.has_max_raises_per_round()) out.max_raises_per_round = o.max_raises_per_round();
  if (o.has_uncapped_heads_up()) out.uncapped_heads_up = o.uncapped_heads_up();
  if (o.has_hilo_open_pair_double()) out.hilo_open_pair_double = o.hilo_open_pair_double();
  if (o.has_odd_chip_low_ace_low()) out.odd_chip_low_ace_low = o.odd_chip_low_ace_low();
  if (o.has_odd_chip_unit()) out.odd_chip_unit = o.odd_chip_unit();
  if (o.has_allow_fold_when_check()) out.allow_fold_when_check = o.allow_fold_when_check();
  if (o.has_disconnect_all_ins_per_period()) {
    out.disconnect_allins_per_period = o.disconnect_all_ins_per_period();
  }
  if (o.has_announce_draws()) out.announce_draws = o.announce_draws();
  if (o.has_out_of_turn_binding()) out.out_of_turn_binding = o.out_of_turn_binding();
  if (absl::Status v = ValidateOptions(out); !v.ok()) {
    return Invalid(field, text::Worded(v).message());
  }
  return out;
}

absl::StatusOr<Action> DecodeAction(const v1::Action& a, absl::string_view field) {
  Action out;
  const int kind = static_cast<int>(a.kind());
  if (kind < static_cast<int>(ActionKind::kFold) ||
      kind > static_cast<int>(ActionKind::kReshuffle)) {
    return Invalid(absl::StrCat(field, ".kind"), "required: one of the ACTION_KIND_ values");
  }
  out.kind = static_cast<ActionKind>(kind);  // proto numbers equal engine numbers
  const bool dealer = out.kind == ActionKind::kBurn || out.kind == ActionKind::kReshuffle;
  const int min_seat = out.kind == ActionKind::kDeal || dealer ? kBoardSeat : 1;
  if (dealer && a.seat() != kBoardSeat) {
    return Invalid(absl::StrCat(field, ".seat"), "must be 0: the dealer burns and reshuffles");
  }
  if (a.seat() < min_seat || a.seat() > kMaxSeats) {
    return Invalid(absl::StrCat(field, ".seat"),
                   absl::StrCat("must be ", min_seat, "..", kMaxSeats));
  }
  out.seat = a.seat();
  if (a.amount_to() < 0) return Invalid(absl::StrCat(field, ".amount_to"), "must not be negative");
  // Kinds that never move chips take no amount. (FOLD and CHECK may repeat the
  // street total LegalActions lists; the engine checks that against the hand.)
  const bool no_amount = out.kind == ActionKind::kShow || out.kind == ActionKind::kMuck ||
                         out.kind == ActionKind::kDeal || out.kind == ActionKind::kBurn ||
                         out.kind == ActionKind::kReshuffle;
  if (no_amount && a.amount_to() != 0) {
    return Invalid(absl::StrCat(field, ".amount_to"),
                   absl::StrCat(ActionKindName(out.kind), " takes no amount; send 0"));
  }
  if (out.kind != ActionKind::kDeal && out.kind != ActionKind::kBurn && a.face_up()) {
    return Invalid(absl::StrCat(field, ".face_up"),
                   "only ACTION_KIND_DEAL and ACTION_KIND_BURN are dealt face up or down");
  }
  out.amount_to = a.amount_to();
  if (out.kind == ActionKind::kDeal) {
    absl::StatusOr<Card> c = DecodeCard(a.card(), absl::StrCat(field, ".card"));
    if (!c.ok()) return c.status();
    out.card = *c;
    out.face_up = a.face_up();
  } else if (out.kind == ActionKind::kBurn) {
    // [STUD-DEAL-3] a burn card is normally unseen: no card.
    out.unseen = a.card().empty();
    if (!out.unseen) {
      absl::StatusOr<Card> c = DecodeCard(a.card(), absl::StrCat(field, ".card"));
      if (!c.ok()) return c.status();
      out.card = *c;
    } else if (a.face_up()) {
      return Invalid(absl::StrCat(field, ".face_up"), "a burn shown face up names its card");
    }
    out.face_up = a.face_up();
  } else if (!a.card().empty()) {
    return Invalid(absl::StrCat(field, ".card"),
                   "only ACTION_KIND_DEAL and ACTION_KIND_BURN carry a card");
  }
  return out;
}

absl::StatusOr<std::vector<int>> DecodeViewSeats(
    const google::protobuf::RepeatedField<int32_t>& seats, int num_seats, absl::string_view field) {
  std::vector<int> out;
  for (int i = 0; i < seats.size(); ++i) {
    const int s = seats.Get(i);
    if (s < 1 || s > num_seats) {
      return Invalid(absl::StrCat(field, "[", i, "]"),
                     absl::StrCat("seat ", s, " is not 1..", num_seats));
    }
    if (std::find(out.begin(), out.end(), s) != out.end()) {
      return Invalid(absl::StrCat(field, "[", i, "]"), absl::StrCat("seat ", s, " appears twice"));
    }
    out.push_back(s);
  }
  return out;
}

v1::PotHalf EncodePotHalf(PotHalf half) {
  switch (half) {
    case PotHalf::kHigh:
      return v1::POT_HALF_HIGH;
    case PotHalf::kLow:
      return v1::POT_HALF_LOW;
    case PotHalf::kWhole:
      break;
  }
  return v1::POT_HALF_WHOLE;
}

v1::Street EncodeStreet(Street s) { return static_cast<v1::Street>(static_cast<int>(s)); }
v1::Phase EncodePhase(Phase p) { return static_cast<v1::Phase>(static_cast<int>(p)); }
v1::ActionKind EncodeActionKind(ActionKind k) {
  return static_cast<v1::ActionKind>(static_cast<int>(k));
}
v1::Variant EncodeVariant(Variant v) { return static_cast<v1::Variant>(static_cast<int>(v)); }
v1::Profile EncodeProfile(Profile p) { return static_cast<v1::Profile>(static_cast<int>(p)); }

void EncodeOptions(const Options& o, v1::RuleOptions* out) {
  // Engine enums start at 0, proto enums at 1 (0 is UNSPECIFIED).
  auto e = [](auto v) { return static_cast<int>(v) + 1; };
  out->set_bring_in_source(static_cast<v1::BringInSource>(e(o.bring_in_source)));
  out->set_burn_before_third(o.burn_before_third);
  out->set_third_street_opener(static_cast<v1::ThirdStreetOpener>(e(o.third_street_opener)));
  out->set_bring_in_option(o.bring_in_option);
  out->set_max_raises_per_round(o.max_raises_per_round);
  out->set_uncapped_heads_up(o.uncapped_heads_up);
  out->set_short_all_in_rule(static_cast<v1::ShortAllInRule>(e(o.short_allin_rule)));
  out->set_open_pair_scope(static_cast<v1::OpenPairScope>(e(o.open_pair_scope)));
  out->set_hilo_open_pair_double(o.hilo_open_pair_double);
  out->set_deck_exhaustion(static_cast<v1::DeckExhaustion>(e(o.deck_exhaustion)));
  out->set_odd_chip_cards(static_cast<v1::OddChipCards>(e(o.odd_chip_cards)));
  out->set_odd_chip_low_ace_low(o.odd_chip_low_ace_low);
  out->set_odd_chip_unit(o.odd_chip_unit);
  out->set_short_hand(static_cast<v1::ShortHand>(e(o.short_hand)));
  out->set_exposed_holecard(static_cast<v1::ExposedHolecard>(e(o.exposed_holecard)));
  out->set_dead_hand_low_opener(static_cast<v1::DeadHandLowOpener>(e(o.dead_hand_low_opener)));
  out->set_absent_kill(static_cast<v1::AbsentKill>(e(o.absent_kill)));
  out->set_fold_when_check(static_cast<v1::FoldWhenCheck>(e(o.fold_when_check)));
  out->set_allow_fold_when_check(o.allow_fold_when_check);
  out->set_final_burn_error(static_cast<v1::FinalBurnError>(e(o.final_burn_error)));
  out->set_premature_seventh(static_cast<v1::PrematureSeventh>(e(o.premature_seventh)));
  out->set_faceup_final_option(static_cast<v1::FaceupFinalOption>(e(o.faceup_final_option)));
  out->set_disconnect_all_ins_per_period(o.disconnect_allins_per_period);
  out->set_exhausted_timeout_action(
      static_cast<v1::ExhaustedTimeout>(e(o.exhausted_timeout_action)));
  out->set_announce_draws(o.announce_draws);
  out->set_out_of_turn_binding(o.out_of_turn_binding);
  out->set_misdeal_antes(static_cast<v1::MisdealAntes>(e(o.misdeal_antes)));
}

void EncodeLegalAction(const LegalAction& a, v1::LegalAction* out) {
  out->set_kind(EncodeActionKind(a.kind));
  out->set_amount_to(a.amount_to);
  out->set_amount_by(a.amount_by);
  out->set_all_in(a.all_in);
}

void EncodeExpectedDeal(const ExpectedDeal& d, v1::ExpectedDeal* out) {
  out->set_seat(d.seat);
  out->set_face_up(d.face_up);
  out->set_street(EncodeStreet(d.street));
  out->set_step(static_cast<v1::DealStep>(static_cast<int>(d.step)));
}

std::optional<Card> OperationCard(const HandState& state, const Operation& op, int viewer) {
  // Operation has no "no card" value (Card() is 2c): only these carry one. A
  // FIRST_TO_ACT names the bring-in door card on 3rd street and nothing later.
  const bool has_card =
      op.type == OpType::kDeal || op.type == OpType::kCommonCard || op.type == OpType::kExpose ||
      op.type == OpType::kReplaceCard || (op.type == OpType::kAside && op.amount == 0) ||
      (op.type == OpType::kBurn && op.amount == 0) ||
      (op.type == OpType::kFirstToAct && op.street == Street::kThird && state.bring_in_seat != 0);
  if (!has_card) return std::nullopt;
  bool hidden = false;
  const Operation shown = RedactFor(state, op, viewer, &hidden);
  if (hidden) return std::nullopt;
  return shown.card;
}

void EncodeOperation(const HandState& state, const Operation& op, uint32_t index, int viewer,
                     v1::Operation* out) {
  out->set_index(index);
  out->set_type(static_cast<v1::OperationType>(static_cast<int>(op.type)));
  out->set_seat(op.seat);
  out->set_street(EncodeStreet(op.street));
  if (const std::optional<Card> card = OperationCard(state, op, viewer)) {
    out->set_card(card->ToString());
  }
  out->set_face_up(op.face_up);
  out->set_all_in(op.all_in);
  if (op.type == OpType::kAward) {
    out->set_pot(op.pot);
    out->set_half(EncodePotHalf(op.half));
    out->set_odd_chip(op.odd_chip);
  }
  out->set_amount(op.amount);
  out->set_amount_to(op.amount_to);
  out->set_rule_id(std::string(RuleIdName(op.rule_id)));
}

void EncodeSeatCards(const HandState& state, int seat, int viewer,
                     google::protobuf::RepeatedPtrField<v1::SeatCard>* out) {
  // The engine's visibility rule (ViewFor's, per card) on this seat only:
  // building the whole TableView per seat made the public view quadratic.
  const Seat& s = state.seats[seat];
  out->Reserve(out->size() + s.num_cards);
  for (int k = 0; k < s.num_cards; ++k) {
    const SeatCard& c = s.cards[static_cast<size_t>(k)];
    v1::SeatCard* pc = out->Add();
    if (SeatCardVisibleTo(state, seat, c, viewer)) pc->set_card(c.card.ToString());
    pc->set_face_up(c.face_up);
    pc->set_street(EncodeStreet(c.street));
  }
}

void EncodePublicView(const TableView& v, v1::PublicView* out) {
  out->set_variant(EncodeVariant(v.variant));
  out->mutable_stakes()->set_ante(v.stakes.ante);
  out->mutable_stakes()->set_bring_in(v.stakes.bring_in);
  out->mutable_stakes()->set_small_bet(v.stakes.small_bet);
  out->mutable_stakes()->set_big_bet(v.stakes.big_bet);
  out->set_profile(EncodeProfile(v.options.profile));
  EncodeOptions(v.options, out->mutable_options());
  out->set_version(v.version);
  out->set_phase(EncodePhase(v.phase));
  out->set_street(EncodeStreet(v.street));
  for (const SeatView& s : v.seats) {
    v1::SeatView* sv = out->add_seats();
    sv->set_seat(s.seat);
    sv->set_stack(s.stack);
    sv->set_committed(s.committed);
    sv->set_street_bet(s.street_bet);
    sv->set_folded(s.folded);
    sv->set_all_in(s.all_in);
    sv->set_mucked(s.mucked);
    sv->set_shown(s.shown);
    sv->mutable_cards()->Reserve(static_cast<int>(s.cards.size()));
    for (const SeatView::VisibleCard& c : s.cards) {
      v1::SeatCard* pc = sv->add_cards();
      if (!c.hidden) pc->set_card(c.card.ToString());
      pc->set_face_up(c.face_up);
      pc->set_street(EncodeStreet(c.street));
    }
  }
  out->set_pot_total(v.pot);
  out->set_bet_to(v.bet_to);
  out->set_raises(v.raises);
  out->set_to_act(v.actor);
  out->set_bring_in_seat(v.bring_in_seat);
  for (const BoardPlace& place : v.board_order) {
    v1::BoardPlace* p = out->add_board_order();
    p->set_seat(place.seat);
    p->set_rank(place.rank);
  }
  if (v.common_card.has_value()) out->set_common_card(v.common_card->ToString());
}

void EncodeSettlement(const Settlement& settlement, MessageLanguage language,
                      v1::ResolveShowdownResponse* out) {
  int index = 0;
  for (const SettledPot& pot : settlement.pots) {
    v1::PotResult* pr = out->add_pots();
    pr->set_index(index++);
    pr->set_amount(pot.amount);
    for (int s : pot.eligible) pr->add_eligible_seats(s);
    for (int s : pot.high_winners) pr->add_high_winners(s);
    for (int s : pot.low_winners) pr->add_low_winners(s);
    pr->set_rule_id(std::string(RuleIdName(pot.rule_id)));
    for (const PotShare& share : pot.shares) {
      v1::PotShare* ps = pr->add_shares();
      ps->set_seat(share.seat);
      ps->set_amount(share.amount);
      ps->set_half(EncodePotHalf(share.half));
      ps->set_odd_chip(share.odd_chip);
      ps->set_odd_chip_rule_id(std::string(RuleIdName(share.odd_chip_rule)));
    }
  }
  for (const ShownHand& h : settlement.hands) {
    v1::ShownHand* sh = out->add_hands();
    sh->set_seat(h.seat);
    for (Card c : h.best_high) sh->add_best_five_high(c.ToString());
    sh->set_high_name(text::HighHandName(h.high, language));
    sh->set_has_low(h.has_low);
    if (h.has_low) {
      for (Card c : h.best_low) sh->add_best_five_low(c.ToString());
      sh->set_low_name(text::LowHandName(h.low, language));
    }
  }
  for (int seat = 1; seat <= kMaxSeats; ++seat) {
    if (settlement.won[static_cast<size_t>(seat)] != 0) {
      (*out->mutable_won())[seat] = settlement.won[static_cast<size_t>(seat)];
    }
    if (settlement.returned[static_cast<size_t>(seat)] != 0) {
      (*out->mutable_returned())[seat] = settlement.returned[static_cast<size_t>(seat)];
    }
  }
}

}  // namespace stud::service

// The proto enums reuse the engine's numbers; these pin the correspondence.
static_assert(static_cast<int>(stud::ActionKind::kDeal) == stud::v1::ACTION_KIND_DEAL);
static_assert(static_cast<int>(stud::ActionKind::kDeclineOption) ==
              stud::v1::ACTION_KIND_DECLINE_OPTION);
static_assert(static_cast<int>(stud::ActionKind::kBurn) == stud::v1::ACTION_KIND_BURN);
static_assert(static_cast<int>(stud::ActionKind::kReshuffle) == stud::v1::ACTION_KIND_RESHUFFLE);
static_assert(static_cast<int>(stud::DealStep::kReshuffle) == stud::v1::DEAL_STEP_RESHUFFLE);
static_assert(static_cast<int>(stud::DealStep::kCard) == stud::v1::DEAL_STEP_CARD);
static_assert(static_cast<int>(stud::OpType::kTimeoutAllIn) ==
              stud::v1::OPERATION_TYPE_TIMEOUT_ALL_IN);
static_assert(static_cast<int>(stud::OpType::kOutOfTurn) == stud::v1::OPERATION_TYPE_OUT_OF_TURN);
static_assert(static_cast<int>(stud::OpType::kRuling) == stud::v1::OPERATION_TYPE_RULING);
static_assert(static_cast<int>(stud::ActionKind::kFold) == stud::v1::ACTION_KIND_FOLD);
static_assert(static_cast<int>(stud::OpType::kHandEnd) == stud::v1::OPERATION_TYPE_HAND_END);
static_assert(static_cast<int>(stud::OpType::kFirstToAct) == stud::v1::OPERATION_TYPE_FIRST_TO_ACT);
static_assert(static_cast<int>(stud::Variant::kRazz) == stud::v1::VARIANT_RAZZ);
static_assert(static_cast<int>(stud::Phase::kComplete) == stud::v1::PHASE_COMPLETE);
static_assert(static_cast<int>(stud::Street::kSeventh) == stud::v1::STREET_SEVENTH);
static_assert(static_cast<int>(stud::Profile::kOnline) == stud::v1::PROFILE_ONLINE);
