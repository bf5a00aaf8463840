// Table operations the core offers the irregularity floor (engine/table_ops.h)
// that the core's own flow does not define elsewhere.
#include "engine/table_ops.h"

#include <algorithm>

#include "engine/internal.h"

namespace stud::internal {

bool NoActionYet(const HandState& st) {
  if (st.phase != Phase::kBetting || st.bet_to != 0) return false;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    if (st.seats[i].acted) return false;
  }
  return true;
}

void Kill(HandState& st, int seat, RuleId rule) {
  st.seats[seat].folded = true;
  st.seats[seat].checked_out = false;
  Log(st, {.type = OpType::kKill,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .rule_id = rule});
}

void ReturnChips(HandState& st, int seat, Chips amount, RuleId rule) {
  if (amount <= 0) return;
  Seat& s = st.seats[seat];
  s.committed -= amount;  // antes only: they are not part of street_bet
  s.stack += amount;
  if (s.stack > 0 && s.folded) s.all_in = false;
  Log(st, {.type = OpType::kReturnAnte,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .amount = amount,
           .rule_id = rule});
}

void Expose(HandState& st, int seat, int index, RuleId rule) {
  SeatCard& c = st.seats[seat].cards[index];
  c.face_up = true;
  Log(st, {.type = OpType::kExpose,
           .seat = static_cast<uint8_t>(seat),
           .street = c.street,
           .card = c.card,
           .face_up = true,
           .rule_id = rule});
}

void SetAside(HandState& st, int seat, int index, RuleId rule) {
  Seat& s = st.seats[seat];
  for (int k = index; k < s.num_cards; ++k) {
    st.aside.push_back(s.cards[k].card);
    Log(st, {.type = OpType::kAside,
             .seat = static_cast<uint8_t>(seat),
             .street = st.street,
             .card = s.cards[k].card,
             .rule_id = rule});
    s.cards[k] = {};
  }
  s.num_cards = static_cast<uint8_t>(std::min<int>(s.num_cards, index));
}

void ContinueDeal(HandState& st) {
  if (st.phase != Phase::kAwaitingDeal) return;
  if (LiveSeatCount(st) <= 1) {
    AdvanceAfterRound(st);
    return;
  }
  AdvanceDealPass(st);
  const bool done =
      st.street_uses_common
          ? st.has_common
          : std::none_of(st.pending_deal.begin(), st.pending_deal.end(), [](bool b) { return b; });
  if (done) AfterStreetDealt(st);
}

void AfterSeatRemoved(HandState& st, int seat) {
  switch (st.phase) {
    case Phase::kAwaitingDeal:
      st.pending_deal[seat] = st.pending_deal[seat] && st.seats[seat].live();
      ContinueDeal(st);
      return;
    case Phase::kBetting:
      if (LiveSeatCount(st) == 1 || RoundComplete(st)) {
        AdvanceAfterRound(st);
      } else if (st.actor == seat || !st.seats[st.actor].can_act()) {
        st.actor = NextToAct(st, seat);
      }
      return;
    case Phase::kShowdown: {
      const int next = NextToShow(st, seat);
      if (next == 0 || LiveSeatCount(st) <= 1) {
        SettleHand(st);
      } else if (st.actor == seat || !st.seats[st.actor].live()) {
        st.actor = next;
      }
      return;
    }
    case Phase::kComplete:
      return;
  }
}

size_t OpenRuling(HandState& st, const IrregularityReport& r) {
  const size_t at = st.log.size();
  st.reports.push_back(r);
  Log(st, {.type = OpType::kRuling,
           .seat = static_cast<uint8_t>(std::clamp(r.seat, 0, st.config.num_seats)),
           .street = st.street,
           .amount = static_cast<Chips>(st.reports.size() - 1)});
  return at;
}

void CloseRuling(HandState& st, size_t at, RuleId rule) {
  st.log[at].rule_id = rule;
  st.log[at].amount_to = static_cast<Chips>(st.log.size() - at - 1);
}

void DeclareMisdeal(HandState& st, int seat, RuleId rule, bool keep_antes) {
  for (int i = 1; i <= st.config.num_seats; ++i) {
    Seat& s = st.seats[i];
    // Kept: only the antes stay; anything bet on the street goes back.
    const Chips back = keep_antes ? s.street_bet : s.committed;
    s.street_bet = 0;
    if (back > 0) {
      s.committed -= back;
      s.stack += back;
      s.all_in = s.stack == 0;
      Log(st, {.type = OpType::kReturnAnte,
               .seat = static_cast<uint8_t>(i),
               .street = st.street,
               .amount = back,
               .rule_id = rule});
    }
  }
  st.misdeal = true;
  st.phase = Phase::kComplete;
  st.actor = 0;
  st.bring_in_due = false;
  st.pending_deal = {};
  Log(st, {.type = OpType::kMisdeal,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .rule_id = rule});
  Log(st, {.type = OpType::kHandEnd, .street = st.street});
}

void MakeOpener(HandState& st, int seat, RuleId rule) {
  const bool third = st.street == Street::kThird;
  st.actor = seat;
  if (third && st.bring_in_due) st.bring_in_seat = seat;
  Log(st, {.type = OpType::kFirstToAct,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .card = third ? DoorCard(st.seats[seat]) : Card(),
           .rule_id = rule});
}

void DesignateOpenerAgain(HandState& st) {
  st.forced_opener = 0;
  st.open_pair = false;
  st.bring_in_due = false;
  DesignateOpener(st);
}

void MarkTimedOutAllIn(HandState& st, int seat, int allowance_left) {
  Seat& s = st.seats[seat];
  s.all_in = true;
  s.acted = true;
  s.acted_to = s.street_bet;
  if (st.allin_option_seat == seat) st.allin_option_seat = 0;
  Log(st, {.type = OpType::kTimeoutAllIn,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .all_in = true,
           .amount = allowance_left,
           .rule_id = RuleId::kAllin4});
}

void StopDealingTo(HandState& st, int seat) { st.pending_deal[seat] = false; }

void MarkCardDue(HandState& st, int seat, CardDue due) {
  switch (due) {
    case CardDue::kThirdDown:
      st.seats[seat].door_down = true;
      return;
    case CardDue::kFinalUp:
      st.seats[seat].final_up = true;
      return;
  }
}

void MarkDeadLowCard(HandState& st, int seat) { st.dead_low_seat = seat; }

void OfferAllInOption(HandState& st, int seat) { st.allin_option_seat = seat; }

void ReplaceCard(HandState& st, int seat, Card card, RuleId rule) {
  Seat& s = st.seats[seat];
  SeatCard& c = s.cards[s.num_cards - 1];
  c.card = card;
  st.seen.Add(card);
  Log(st, {.type = OpType::kReplaceCard,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .card = card,
           .face_up = c.face_up,
           .rule_id = rule});
}

void BurnFaceUp(HandState& st, Card card, RuleId rule) {
  st.seen.Add(card);
  st.burns.push_back(card);
  Log(st, {.type = OpType::kAside,
           .street = st.street,
           .card = card,
           .face_up = true,
           .rule_id = rule});
}

void CorrectBurnCount(HandState& st, int delta) {
  st.burn_count = std::max(0, st.burn_count + delta);
}

void TakeOutPremature(HandState& st, absl::Span<const Card> cards, bool face_up) {
  for (Card c : cards) {
    st.seen.Add(c);
    st.aside.push_back(c);
    Log(st, {.type = OpType::kAside,
             .street = st.street,
             .card = c,
             .face_up = face_up,
             .rule_id = RuleId::kIrrPrem1});
  }
  if (!cards.empty()) st.premature_pending = 1;
}

void KeepPrematureSeventh(HandState& st, int seat, Card card) {
  GiveCard(st, seat, card, false, Street::kSeventh);
  st.seats[seat].has_seventh = true;
  st.premature_seat = seat;
}

void PutChipsOutOfTurn(HandState& st, int seat, Chips chips, Chips amount_to, RuleId rule) {
  st.seats[seat].stack -= chips;
  st.seats[seat].committed += chips;
  Log(st, {.type = OpType::kOutOfTurn,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .amount = chips,
           .amount_to = amount_to,
           .rule_id = rule});
}

void ReleaseHeldChips(HandState& st, int seat, Chips chips) {
  st.seats[seat].stack += chips;
  st.seats[seat].committed -= chips;
}

void TakeBackChips(HandState& st, int seat, Chips chips, RuleId rule) {
  ReleaseHeldChips(st, seat, chips);
  Log(st, {.type = OpType::kReturnAnte,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .amount = chips,
           .rule_id = rule});
}

}  // namespace stud::internal
