// The answer side of service/api/convert.h: engine values encoded into the
// API's messages (the request side is convert_decode.cc).
#include "service/api/convert.h"

#include "text/hand_names.h"

namespace stud::service {
namespace v1 = stud::v1;

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
