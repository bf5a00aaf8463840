// EncodeState: engine HandState -> the internal protobuf message (schema 2).
// The token path writes the same bytes without the message (state_wire.h);
// this is the reference those bytes are tested against, and what tools that
// want the message use.
#include <string>
#include <vector>

#include "service/packed_log.h"
#include "service/state_codec.h"

namespace stud::service {
namespace pb = stud::internal::v1;
namespace {

template <typename E>
uint32_t U(E e) {
  return static_cast<uint32_t>(e);
}

std::string PackCards(const std::vector<Card>& cards) {
  std::string out;
  out.reserve(cards.size());
  for (Card c : cards) out.push_back(static_cast<char>(c.index()));
  return out;
}
std::string PackSeatCards(const Seat& seat) {
  std::string out;
  out.reserve(static_cast<size_t>(seat.num_cards) * 2);
  for (int k = 0; k < seat.num_cards; ++k) {
    const SeatCard& c = seat.cards[static_cast<size_t>(k)];
    out.push_back(static_cast<char>(c.card.index()));
    out.push_back(static_cast<char>((U(c.street) - 3) | (c.face_up ? 8u : 0u)));
  }
  return out;
}

void EncodeOptions(const Options& o, pb::Options* p) {
  p->set_profile(U(o.profile));
  p->set_bring_in_source(U(o.bring_in_source));
  p->set_burn_before_third(o.burn_before_third);
  p->set_third_street_opener(U(o.third_street_opener));
  p->set_bring_in_option(o.bring_in_option);
  p->set_max_raises_per_round(o.max_raises_per_round);
  p->set_uncapped_heads_up(o.uncapped_heads_up);
  p->set_short_allin_rule(U(o.short_allin_rule));
  p->set_open_pair_scope(U(o.open_pair_scope));
  p->set_hilo_open_pair_double(o.hilo_open_pair_double);
  p->set_deck_exhaustion(U(o.deck_exhaustion));
  p->set_odd_chip_cards(U(o.odd_chip_cards));
  p->set_odd_chip_low_ace_low(o.odd_chip_low_ace_low);
  p->set_odd_chip_unit(o.odd_chip_unit);
  p->set_short_hand(U(o.short_hand));
  p->set_exposed_holecard(U(o.exposed_holecard));
  p->set_dead_hand_low_opener(U(o.dead_hand_low_opener));
  p->set_absent_kill(U(o.absent_kill));
  p->set_fold_when_check(U(o.fold_when_check));
  p->set_allow_fold_when_check(o.allow_fold_when_check);
  p->set_final_burn_error(U(o.final_burn_error));
  p->set_premature_seventh(U(o.premature_seventh));
  p->set_faceup_final_option(U(o.faceup_final_option));
  p->set_disconnect_allins_per_period(o.disconnect_allins_per_period);
  p->set_exhausted_timeout_action(U(o.exhausted_timeout_action));
  p->set_announce_draws(o.announce_draws);
  p->set_out_of_turn_binding(o.out_of_turn_binding);
  p->set_misdeal_antes(U(o.misdeal_antes));
}

void EncodeReport(const IrregularityReport& r, pb::IrregularityReport* p) {
  p->set_kind(U(r.kind));
  p->set_seat(r.seat);
  p->set_street(U(r.street));
  p->set_has_card(r.has_card);
  p->set_card(static_cast<uint32_t>(r.card.index()));
  p->set_cards(PackCards(r.cards));
  p->set_action(U(r.action));
  p->set_amount_to(r.amount_to);
  p->set_next_acted(r.next_acted);
  p->set_burn_delta(r.burn_delta);
  for (const CardMove& m : r.moves) {
    pb::CardMove* pm = p->add_moves();
    pm->set_seat(m.seat);
    pm->set_card(static_cast<uint32_t>(m.card.index()));
  }
  for (int seat : r.seats) p->add_seats(seat);
  p->set_card_count(r.card_count);
  p->set_declare_live(r.declare_live);
  p->set_allowance_remaining(r.allowance_remaining);
  p->set_disconnect(r.disconnect);
  p->set_from_deal(r.from_deal);
}

}  // namespace

void EncodeState(const HandState& s, pb::HandState* p) {
  const HandConfig& c = s.config;
  pb::HandConfig* pc = p->mutable_config();
  pc->set_variant(U(c.variant));
  pc->mutable_stakes()->set_ante(c.stakes.ante);
  pc->mutable_stakes()->set_bring_in(c.stakes.bring_in);
  pc->mutable_stakes()->set_small_bet(c.stakes.small_bet);
  pc->mutable_stakes()->set_big_bet(c.stakes.big_bet);
  EncodeOptions(c.options, pc->mutable_options());
  pc->set_num_seats(c.num_seats);
  for (int i = 1; i <= c.num_seats; ++i) pc->add_starting_stacks(c.starting_stacks[i]);
  pc->set_deal_source(U(c.deal_source));
  pc->set_deck(PackCards(c.deck));
  pc->set_recycle_order(PackCards(c.recycle_order));
  if (HasCarriedAntes(c)) {  // absent unless a redeal carried antes in [STUD-IRR-EXP-1]
    for (int i = 1; i <= c.num_seats; ++i) pc->add_carried_antes(c.carried_antes[i]);
  }

  p->set_version(s.version);
  p->set_phase(U(s.phase));
  p->set_street(U(s.street));
  for (int i = 1; i <= c.num_seats; ++i) {
    const Seat& seat = s.seats[i];
    pb::Seat* ps = p->add_seats();
    ps->set_stack(seat.stack);
    ps->set_committed(seat.committed);
    ps->set_street_bet(seat.street_bet);
    ps->set_flags((seat.folded ? 1u : 0u) | (seat.all_in ? 2u : 0u) | (seat.mucked ? 4u : 0u) |
                  (seat.shown ? 8u : 0u) | (seat.acted ? 16u : 0u) | (seat.checked_out ? 32u : 0u) |
                  (seat.door_down ? 64u : 0u) | (seat.final_up ? 128u : 0u) |
                  (seat.has_seventh ? 256u : 0u));
    ps->set_acted_to(seat.acted_to);
    ps->set_packed_cards(PackSeatCards(seat));
  }
  p->set_actor(s.actor);
  p->set_bet_to(s.bet_to);
  p->set_full_level(s.full_level);
  p->set_raises(s.raises);
  p->set_bring_in_due(s.bring_in_due);
  p->set_bring_in_seat(s.bring_in_seat);
  p->set_open_pair(s.open_pair);
  p->set_big_bet_made(s.big_bet_made);
  p->set_last_aggressor(s.last_aggressor);
  p->set_paid_out(s.paid_out);
  p->set_deck_pos(s.deck_pos);
  p->set_recycled(PackCards(s.recycled));
  p->set_burns(PackCards(s.burns));
  p->set_aside(PackCards(s.aside));
  p->set_burn_count(s.burn_count);
  p->set_has_common(s.has_common);
  p->set_common_card(static_cast<uint32_t>(s.common_card.index()));
  p->set_seen(s.seen.mask());
  uint32_t pending = 0;
  for (int i = 0; i <= kMaxSeats; ++i) pending |= s.pending_deal[i] ? (1u << i) : 0u;
  p->set_pending_deal(pending);
  p->set_deal_pass(s.deal_pass);
  p->set_cap_locked(s.cap_locked);
  p->set_street_uses_common(s.street_uses_common);
  for (const IrregularityReport& r : s.reports) EncodeReport(r, p->add_reports());
  p->set_misdeal(s.misdeal);
  p->set_dead_low_seat(s.dead_low_seat);
  p->set_forced_opener(s.forced_opener);
  p->set_allin_option_seat(s.allin_option_seat);
  p->set_premature_seat(s.premature_seat);
  p->set_premature_pending(s.premature_pending);
  PackLog(s.log, p->mutable_packed_log(), p->mutable_rule_ids());
}

}  // namespace stud::service
