#include "engine/pot.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/basics.h"
#include "engine/refusal.h"

namespace stud {
namespace {

// Key ordering winners for odd chips in a high pot: the highest single card
// by suit, ace high [STUD-ODD-1, STUD-ODD-3]. Larger key gets chips first.
int HighOddChipKey(const ShowdownSeat& s, const ShownHand& h, OddChipCards which) {
  int best = -1;
  if (which == OddChipCards::kBestFive) {
    for (Card c : h.best_high) best = std::max(best, c.index());
  } else {
    for (Card c : s.cards) best = std::max(best, c.index());
  }
  return best;
}

// Key for a low pot: the lowest single card by suit [STUD-ODD-4]; with the
// ace low by default [STUD-ODD-5(b)]. Smaller key gets chips first.
int LowOddChipKey(const ShowdownSeat& s, const ShownHand& h, const Options& o) {
  auto key = [&](Card c) {
    int rank = c.rank_value();
    if (o.odd_chip_low_ace_low && c.rank() == Rank::kAce) rank = -1;
    return (rank + 1) * 4 + static_cast<int>(c.suit());
  };
  int best = 1 << 20;
  if (o.odd_chip_cards == OddChipCards::kBestFive) {
    for (Card c : h.best_low) best = std::min(best, key(c));
  } else {
    for (Card c : s.cards) best = std::min(best, key(c));
  }
  return best;
}

// Splits `amount` among `winners` (already in odd-chip order) in whole units
// of `unit`; the remainder goes one unit each down the order [STUD-ODD-5(c,d)].
void Split(Chips amount, const std::vector<int>& winners, PotHalf half, Chips unit, RuleId odd_rule,
           SettledPot& pot) {
  const Chips n = static_cast<Chips>(winners.size());
  const Chips units = amount / unit;
  const Chips base = units / n * unit;
  const Chips extra_units = units % n;
  // Less than one unit left over (a pot that is not a whole number of units)
  // goes to the next player in order who got no odd unit, so nobody receives
  // more than one odd chip [STUD-ODD-5(d)]; with no such player, the first.
  const Chips sub_unit = amount % unit;
  const Chips sub_unit_index = extra_units < n ? extra_units : 0;
  for (Chips i = 0; i < n; ++i) {
    PotShare share{winners[static_cast<size_t>(i)], base, half, false, {}};
    if (i < extra_units) share.amount += unit;
    if (i == sub_unit_index) share.amount += sub_unit;
    share.odd_chip = share.amount > base;
    if (share.odd_chip) share.odd_chip_rule = odd_rule;
    pot.shares.push_back(share);
  }
}

}  // namespace

Uncalled FindUncalled(std::span<const ShowdownSeat> seats) {
  const ShowdownSeat* top = nullptr;
  Chips second = 0;
  for (const ShowdownSeat& s : seats) {
    if (top == nullptr || s.committed > top->committed) {
      if (top != nullptr) second = std::max(second, top->committed);
      top = &s;
    } else {
      second = std::max(second, s.committed);
    }
  }
  if (top == nullptr || !top->live || top->committed <= second) return {};
  return {top->seat, top->committed - second};
}

std::vector<Pot> BuildPots(std::span<const ShowdownSeat> seats) {
  std::vector<Chips> levels;
  for (const ShowdownSeat& s : seats) {
    if (s.live && s.committed > 0) levels.push_back(s.committed);
  }
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  Chips top = 0;
  for (const ShowdownSeat& s : seats) top = std::max(top, s.committed);
  if (levels.empty() || levels.back() < top) {
    // Chips above every live total: they belong to the live seats at the top.
    if (levels.empty())
      levels.push_back(top);
    else
      levels.back() = top;
  }
  std::vector<Pot> pots;
  Chips prev = 0;
  Chips live_top = 0;
  for (const ShowdownSeat& s : seats) {
    if (s.live) live_top = std::max(live_top, s.committed);
  }
  for (Chips level : levels) {
    Pot pot;
    for (const ShowdownSeat& s : seats) {
      pot.amount += std::clamp(s.committed, prev, level) - prev;
      const bool reaches = s.committed >= level || (level == top && s.committed == live_top);
      if (s.live && reaches) pot.eligible.push_back(s.seat);
    }
    std::sort(pot.eligible.begin(), pot.eligible.end());
    if (pot.amount > 0) pots.push_back(std::move(pot));
    prev = level;
  }
  return pots;
}

absl::StatusOr<Settlement> Settle(Variant variant, const Options& options,
                                  std::span<const ShowdownSeat> seats, std::optional<Card> common) {
  CardSet all;
  std::array<bool, kMaxSeats + 1> seen_seat{};
  if (common) all.Add(*common);
  // Field paths name the position in `seats` (the caller's list), not the seat.
  for (size_t i = 0; i < seats.size(); ++i) {
    const ShowdownSeat& s = seats[i];
    const std::string field = absl::StrCat("seats[", i, "]");  // a path, not prose
    if (s.seat < 1 || s.seat > kMaxSeats) {
      return Malformed(
          {.what = Refusal::kSettleSeatOutOfRange, .field = field + ".seat", .seat = s.seat});
    }
    if (seen_seat[s.seat]) {
      return Malformed(
          {.what = Refusal::kSettleSeatTwice, .field = field + ".seat", .seat = s.seat});
    }
    seen_seat[s.seat] = true;
    if (s.committed < 0) {
      return Malformed({.what = Refusal::kCommittedNegative, .field = field + ".committed"});
    }
    for (Card c : s.cards) {
      if (all.Contains(c)) {
        return Malformed({.what = Refusal::kSettleCardTwice, .field = field + ".cards", .card = c});
      }
      all.Add(c);
    }
    const size_t total = s.cards.size() + (common ? 1 : 0);
    if (s.live && (total < 5 || total > 7)) {
      return Malformed({.what = Refusal::kLiveHandCardCount,
                        .field = field + ".cards",
                        .count = static_cast<int>(total)});
    }
  }
  // Well formed; now the rule: [STUD-IRR-CARDS-1] by default only a hand short
  // of its 7th card may be ruled live; under PLAYER_OPTION_ANY_SHORT any short
  // hand the player declares live.
  for (const ShowdownSeat& s : seats) {
    const size_t total = s.cards.size() + (common ? 1 : 0);
    if (s.live && total < 6 && options.short_hand == ShortHand::kMissingSeventhLive) {
      return Refuse(
          RuleId::kIrrCards1,
          {.what = Refusal::kShortHandNotLive, .seat = s.seat, .count = static_cast<int>(total)});
    }
  }

  if (std::none_of(seats.begin(), seats.end(), [](const ShowdownSeat& s) { return s.live; })) {
    return Malformed({.what = Refusal::kNoLiveHand, .field = "seats"});
  }
  Settlement out;
  // [STUD-ALLIN-1] an uncalled excess goes back before any pot is built.
  std::vector<ShowdownSeat> called(seats.begin(), seats.end());
  if (const Uncalled u = FindUncalled(seats); u.amount > 0) {
    out.returned[u.seat] = u.amount;
    for (ShowdownSeat& s : called) {
      if (s.seat == u.seat) s.committed -= u.amount;
    }
  }
  std::array<const ShownHand*, kMaxSeats + 1> hand_of{};
  std::array<const ShowdownSeat*, kMaxSeats + 1> seat_of{};
  out.hands.reserve(seats.size());
  for (const ShowdownSeat& s : called) {
    seat_of[s.seat] = &s;
    if (!s.live) continue;
    CardSet cards = CardSet::Of(s.cards);
    if (common) cards.Add(*common);
    ShownHand h;
    h.seat = s.seat;
    h.high = EvaluateHigh(cards);
    h.best_high = BestFiveHigh(cards);
    if (variant != Variant::kStud) {
      h.low = EvaluateLow(cards);
      h.has_low = variant == Variant::kRazz || QualifiesEightOrBetter(h.low);
      if (h.has_low) h.best_low = BestFiveLow(cards);
    }
    out.hands.push_back(h);
  }
  for (const ShownHand& h : out.hands) hand_of[h.seat] = &h;

  const Chips unit = options.odd_chip_unit > 0 ? options.odd_chip_unit : 1;
  auto high_order = [&](std::vector<int> w) {
    std::stable_sort(w.begin(), w.end(), [&](int a, int b) {
      return HighOddChipKey(*seat_of[a], *hand_of[a], options.odd_chip_cards) >
             HighOddChipKey(*seat_of[b], *hand_of[b], options.odd_chip_cards);
    });
    return w;
  };
  auto low_order = [&](std::vector<int> w) {
    std::stable_sort(w.begin(), w.end(), [&](int a, int b) {
      return LowOddChipKey(*seat_of[a], *hand_of[a], options) <
             LowOddChipKey(*seat_of[b], *hand_of[b], options);
    });
    return w;
  };
  // Best seats of `eligible` by `value` (larger is better), optionally only those with a low.
  auto best = [&](const std::vector<int>& eligible, bool low) {
    std::vector<int> winners;
    uint32_t top = 0;
    for (int seat : eligible) {
      const ShownHand& h = *hand_of[seat];
      if (low && !h.has_low) continue;
      const uint32_t v = low ? h.low : h.high;
      if (winners.empty() || v > top) {
        winners = {seat};
        top = v;
      } else if (v == top) {
        winners.push_back(seat);
      }
    }
    return winners;
  };

  for (Pot& p : BuildPots(called)) {
    SettledPot pot;
    pot.amount = p.amount;
    pot.eligible = std::move(p.eligible);
    if (variant == Variant::kRazz) {
      pot.high_winners = best(pot.eligible, /*low=*/true);
      pot.rule_id = RuleId::kGame3;
      Split(pot.amount, low_order(pot.high_winners), PotHalf::kWhole, unit, RuleId::kOdd4, pot);
    } else {
      pot.high_winners = best(pot.eligible, /*low=*/false);
      if (variant == Variant::kStudHiLo) pot.low_winners = best(pot.eligible, /*low=*/true);
      if (pot.low_winners.empty()) {
        pot.rule_id = variant == Variant::kStudHiLo ? RuleId::kHilo3 : RuleId::kGame3;
        const RuleId odd = variant == Variant::kStudHiLo ? RuleId::kOdd3 : RuleId::kOdd1;
        Split(pot.amount, high_order(pot.high_winners), PotHalf::kWhole, unit, odd, pot);
      } else {
        // [STUD-HILO-1] half each; [STUD-ODD-2] the odd unit goes to the high half.
        pot.rule_id = RuleId::kHilo1;
        const Chips units = pot.amount / unit;
        const Chips low_half = units / 2 * unit;
        const Chips high_half = pot.amount - low_half;
        Split(high_half, high_order(pot.high_winners), PotHalf::kHigh, unit, RuleId::kOdd3, pot);
        Split(low_half, low_order(pot.low_winners), PotHalf::kLow, unit, RuleId::kOdd4, pot);
        if (high_half != low_half) {
          for (PotShare& s : pot.shares) {
            if (s.half == PotHalf::kHigh && pot.high_winners.size() == 1) {
              s.odd_chip = true;
              s.odd_chip_rule = RuleId::kOdd2;
            }
          }
        }
      }
    }
    for (const PotShare& s : pot.shares) out.won[s.seat] += s.amount;
    out.pots.push_back(std::move(pot));
  }
  return out;
}

}  // namespace stud
