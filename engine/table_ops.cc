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

}  // namespace stud::internal
