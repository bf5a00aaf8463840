// The showdown: who shows first, shows and mucks, the uncalled excess and
// the awards [STUD-SHOW-1..4, STUD-ALLIN-1].
#include <vector>

#include "engine/internal.h"
#include "engine/pot.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

// Gives an uncalled excess back to the seat that put it in: chips above what
// any other seat put in cannot be won by anyone else [STUD-ALLIN-1]. They
// leave `committed`, so every later pot (and ResolveShowdown) holds only
// called chips.
void ReturnUncalled(HandState& st) {
  std::vector<ShowdownSeat> seats;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    seats.push_back({.seat = i, .committed = st.seats[i].committed, .live = st.seats[i].live()});
  }
  const Uncalled u = FindUncalled(seats);
  if (u.amount <= 0) return;
  st.seats[u.seat].committed -= u.amount;
  st.seats[u.seat].stack += u.amount;
  Log(st, {.type = OpType::kReturnUncalled,
           .seat = static_cast<uint8_t>(u.seat),
           .street = st.street,
           .amount = u.amount,
           .rule_id = RuleId::kAllin1});
}

void Finish(HandState& st) {
  st.phase = Phase::kComplete;
  st.actor = 0;
  Log(st, {.type = OpType::kHandEnd, .street = st.street});
}

void AwardShares(HandState& st, const Settlement& settlement) {
  for (size_t p = 0; p < settlement.pots.size(); ++p) {
    const SettledPot& pot = settlement.pots[p];
    for (const PotShare& share : pot.shares) {
      st.seats[share.seat].stack += share.amount;
      st.paid_out += share.amount;
      Log(st, {.type = OpType::kAward,
               .seat = static_cast<uint8_t>(share.seat),
               .street = st.street,
               .pot = static_cast<uint8_t>(p),
               .half = share.half,
               .odd_chip = share.odd_chip,
               .amount = share.amount,
               .rule_id = share.odd_chip ? share.odd_chip_rule : pot.rule_id});
    }
  }
}

int FirstToShow(const HandState& st) {
  // [STUD-SHOW-1] the last bettor or raiser of the final round shows first;
  // with no bet, the highest board (ties by position).
  if (st.last_aggressor != 0 && st.seats[st.last_aggressor].live()) return st.last_aggressor;
  const bool razz = st.config.variant == Variant::kRazz;
  int best = 0;
  BoardValue best_value = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    if (!st.seats[i].live()) continue;
    const BoardValue v = razz ? RazzBoardValue(UpCards(st, i)) : HighBoardValue(UpCards(st, i));
    if (best == 0 || v > best_value) {
      best = i;
      best_value = v;
    }
  }
  return best;
}

}  // namespace

// Settles the pots among the live seats: cards speak [STUD-SHOW-4].
void SettleHand(HandState& st) {
  // A ruling may leave hands that cannot win [STUD-IRR-CARDS-1].
  Options options = st.config.options;
  if (LiveSeatCount(st) > 1 && RulingsAtSettle(st)) {
    options.short_hand = ShortHand::kPlayerOptionAnyShort;
  }
  ReturnUncalled(st);
  std::vector<ShowdownSeat> seats;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    const Seat& s = st.seats[i];
    ShowdownSeat ss{.seat = i, .committed = s.committed, .live = s.live()};
    for (int k = 0; k < s.num_cards; ++k) ss.cards.push_back(s.cards[k].card);
    seats.push_back(std::move(ss));
  }
  if (LiveSeatCount(st) == 1) {
    // Everyone else folded or mucked: the last live hand takes every pot unseen.
    for (const ShowdownSeat& s : seats) {
      if (!s.live) continue;
      const std::vector<Pot> pots = BuildPots(seats);
      const RuleId rule = st.street == Street::kThird && st.raises == 0 && st.full_level == 0
                              ? RuleId::kBring7
                              : RuleId::kShow2;
      for (size_t p = 0; p < pots.size(); ++p) {
        st.seats[s.seat].stack += pots[p].amount;
        st.paid_out += pots[p].amount;
        Log(st, {.type = OpType::kAward,
                 .seat = static_cast<uint8_t>(s.seat),
                 .street = st.street,
                 .pot = static_cast<uint8_t>(p),
                 .amount = pots[p].amount,
                 .rule_id = rule});
      }
    }
  } else {
    const std::optional<Card> common =
        st.has_common ? std::optional<Card>(st.common_card) : std::nullopt;
    absl::StatusOr<Settlement> settlement = Settle(st.config.variant, options, seats, common);
    if (settlement.ok()) AwardShares(st, *settlement);
  }
  Finish(st);
}

// Next live seat after `from` that has neither shown nor mucked, or 0.
int NextToShow(const HandState& st, int from) {
  const int n = st.config.num_seats;
  for (int step = 1; step <= n; ++step) {
    const int seat = (from + step - 1) % n + 1;
    if (st.seats[seat].live() && !st.seats[seat].shown) return seat;
  }
  return 0;
}

void StartShowdown(HandState& st) {
  st.phase = Phase::kShowdown;
  if (ActiveSeatCount(st) <= 1) {
    // [STUD-SHOW-1] all-in before the end: every live hand is turned up.
    for (int i = 1; i <= st.config.num_seats; ++i) {
      if (!st.seats[i].live()) continue;
      st.seats[i].shown = true;
      Log(st, {.type = OpType::kShow,
               .seat = static_cast<uint8_t>(i),
               .street = st.street,
               .rule_id = RuleId::kShow1});
    }
    SettleHand(st);
    return;
  }
  st.actor = FirstToShow(st);
}

absl::Status ApplyShowdown(HandState& st, const Action& a) {
  if (a.kind != ActionKind::kShow && a.kind != ActionKind::kMuck) {
    return Refuse(RuleId::kShow1, {.what = Refusal::kShowOrMuck});
  }
  if (a.seat != st.actor) {
    return Refuse(RuleId::kShow1, {.what = Refusal::kShowsFirst, .seat = st.actor});
  }
  Seat& s = st.seats[a.seat];
  if (a.kind == ActionKind::kShow) {
    s.shown = true;
    Log(st, {.type = OpType::kShow,
             .seat = static_cast<uint8_t>(a.seat),
             .street = st.street,
             .rule_id = RuleId::kShow1});
  } else {
    s.mucked = true;
    Log(st, {.type = OpType::kMuck,
             .seat = static_cast<uint8_t>(a.seat),
             .street = st.street,
             .rule_id = RuleId::kShow2});
  }
  const int next = NextToShow(st, a.seat);
  if (next == 0 || LiveSeatCount(st) == 1) {
    SettleHand(st);
  } else {
    st.actor = next;
  }
  return absl::OkStatus();
}

}  // namespace stud::internal
