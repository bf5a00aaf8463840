// A random irregularity report of any kind for a LIVE hand, fitting or not:
// the seat, card, street and counts are drawn near what the hand holds, so
// most reports fit and some are refused. Shared by the property tests.
#ifndef STUD_TESTS_TESTING_RANDOM_REPORT_H_
#define STUD_TESTS_TESTING_RANDOM_REPORT_H_

#include <algorithm>
#include <random>
#include <vector>

#include "engine/engine.h"
#include "engine/irregularity_report.h"

namespace stud::testing {

inline IrregularityReport RandomReport(const HandState& st, std::mt19937& rng,
                                       const std::vector<Card>& deck) {
  const int n = st.config.num_seats;
  IrregularityReport r;
  r.kind = static_cast<IrregularityKind>(1 + rng() % 16);
  r.seat = 1 + static_cast<int>(rng() % n);
  const Seat& s = st.seats[r.seat];
  auto unseen = [&]() {
    for (size_t k = rng() % deck.size(), i = 0; i < deck.size(); ++i) {
      const Card c = deck[(k + i) % deck.size()];
      if (!st.seen.Contains(c)) return c;
    }
    return deck[0];
  };
  if (s.num_cards > 0) {
    r.has_card = true;
    r.card = s.cards[rng() % s.num_cards].card;
  }
  switch (r.kind) {
    case IrregularityKind::kWrongOpener:
      r.action = static_cast<ActionKind>(1 + rng() % 7);
      r.amount_to = static_cast<Chips>(rng() % 3) * st.config.stakes.small_bet;
      r.next_acted = rng() % 2;
      r.has_card = false;
      break;
    case IrregularityKind::kBurnError:
      r.seat = 0;
      r.has_card = false;
      r.street = st.street;
      r.burn_delta = rng() % 2 ? 1 : -1;
      if (rng() % 2 && s.num_cards > 3)
        r.moves.push_back({1 + static_cast<int>(rng() % n), unseen()});
      if (r.street == Street::kSeventh && rng() % 3 == 0) {
        r.seats.push_back(1 + static_cast<int>(rng() % n));
      }
      break;
    case IrregularityKind::kPrematureDeal:
      r.seat = 0;
      r.has_card = false;
      r.street = static_cast<Street>(std::min(7, static_cast<int>(st.street) + 1));
      if (rng() % 2) r.cards.push_back(unseen());
      if (r.street == Street::kSeventh && rng() % 2) {
        r.seat = 1 + static_cast<int>(rng() % n);
        r.has_card = true;
        r.card = unseen();
        if (!r.cards.empty() && r.cards[0] == r.card) r.cards.clear();
      }
      break;
    case IrregularityKind::kWrongCardCount:
      r.has_card = false;
      r.card_count = static_cast<int>(rng() % 10);
      r.declare_live = rng() % 2;
      break;
    case IrregularityKind::kTimeout:
      r.has_card = false;
      r.seat = st.actor != 0 && rng() % 4 ? st.actor : r.seat;
      r.allowance_remaining = static_cast<int>(rng() % 3);
      r.disconnect = rng() % 2;
      break;
    case IrregularityKind::kAbsentPlayer:
    case IrregularityKind::kCheckedOut:
    case IrregularityKind::kUpcardsPickedUp:
      r.has_card = false;
      if (st.actor != 0 && rng() % 3) r.seat = st.actor;
      break;
    case IrregularityKind::kSkippedSeat:
      // [STUD-IRR-CARDS-1] mostly the seat the deal is at; sometimes a found
      // card, a declaration, or a street or seat that does not fit.
      r.has_card = rng() % 3 == 0;
      if (r.has_card) r.card = unseen();
      if (st.phase == Phase::kAwaitingDeal && NextDeal(st).seat != kBoardSeat && rng() % 3) {
        r.seat = NextDeal(st).seat;
        r.has_card = false;
      }
      r.street = static_cast<Street>(3 + rng() % (static_cast<int>(st.street) - 2));
      if (rng() % 4 == 0) r.street = st.street;
      r.declare_live = !r.has_card && rng() % 2;
      break;
    case IrregularityKind::kBothHolecardsExposed:
    case IrregularityKind::kCalledWhenBeaten:
    case IrregularityKind::kUpcardsReordered:
      r.has_card = false;
      break;
    default:
      break;
  }
  if (!r.has_card) r.card = Card();  // a kind that reads no card gets none
  return r;
}

}  // namespace stud::testing

#endif  // STUD_TESTS_TESTING_RANDOM_REPORT_H_
