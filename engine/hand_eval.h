// Hand evaluation: high hands, ace-to-five lows, and up-card boards.
//
// All values are totally ordered integers where a larger value is a better
// hand for the question asked, so callers compare with > and == only:
//   * HighValue: best five-card poker hand out of 5..7 cards
//     [STUD-GAME-3, STUD-GAME-4]. Suits never break ties.
//   * LowValue: best ace-to-five low out of 5..7 cards (ace low, straights and
//     flushes ignored, pairs count against the hand) [STUD-HILO-2, STUD-HILO-5].
//     Used for Razz and for the eight-or-better low half; QualifiesEightOrBetter
//     tells whether the low is five distinct ranks all eight or lower.
//   * BoardValue: how an up-card board ranks for "who acts first"
//     [STUD-ORDER-2]: 1..4 cards by pair structure only (quads, trips, two pair,
//     pair, no pair; paired ranks first, then the rest from the top, ace high);
//     five or more visible cards as a full poker hand. Razz ranks boards by
//     lowness instead (ace low, pairs worst): RazzBoardValue.
//
// EvaluateHigh/EvaluateLow(CardSet) go through the incremental key evaluator
// (engine/hand_key.h: lookup tables built once on first use, about twice as
// fast here); the table-free evaluators they replaced remain as
// EvaluateHighByMasks/EvaluateLowByMasks, which build and check those tables.
//
// Everything here is pure and allocation-free on the hot path.
#ifndef STUD_ENGINE_HAND_EVAL_H_
#define STUD_ENGINE_HAND_EVAL_H_

#include <array>
#include <cstdint>
#include <optional>

#include "engine/card.h"

namespace stud {

enum class HandCategory : uint8_t {
  kHighCard = 0,
  kPair,
  kTwoPair,
  kThreeOfAKind,
  kStraight,
  kFlush,
  kFullHouse,
  kFourOfAKind,
  kStraightFlush,
};
inline constexpr int kNumCategories = 9;

using HighValue = uint32_t;
using LowValue = uint32_t;
using BoardValue = uint32_t;

// Best high hand among the cards. Requires 5..7 cards.
HighValue EvaluateHigh(CardSet cards);
HandCategory CategoryOf(HighValue value);
// The five cards that make the best high hand (descending by importance:
// the paired/set cards first, then kickers). Requires 5..7 cards.
std::array<Card, 5> BestFiveHigh(CardSet cards);

// Best ace-to-five low among the cards (larger = better low). Requires 5..7 cards.
LowValue EvaluateLow(CardSet cards);
// True when the low is five different ranks, each eight or lower (ace low).
bool QualifiesEightOrBetter(LowValue value);
// The five cards of the best low, highest first. Requires 5..7 cards.
std::array<Card, 5> BestFiveLow(CardSet cards);

// A value read back as data: its category and the ranks of its five cards in
// the order they are compared (rank_value: 0 = deuce .. 12 = ace, in lows
// too). High: kings full of fives = {kFullHouse, K K K 5 5}, the wheel =
// {kStraight, 5 4 3 2 A}. Low: the worst rank first, a paired low's pair
// first: 8-6-4-2-A = {kHighCard, 8 6 4 2 A}, {kPair, 6 6 9 7 3}. The engine
// names no hand: the words are the service's (text/hand_names.h), and
// only a caller that shows a hand to a person pays for them.
struct HandRanks {
  HandCategory category = HandCategory::kHighCard;
  std::array<int, 5> ranks{};
};
// nullopt for a number no evaluator returns.
std::optional<HandRanks> RanksOfHigh(HighValue value);
std::optional<HandRanks> RanksOfLow(LowValue value);

// The table-free evaluators (bit operations on the four suit lanes). They
// build the tables of the incremental evaluator (engine/hand_key.h) and are
// the reference its tests compare with; same contract as above.
HighValue EvaluateHighByMasks(CardSet cards);
LowValue EvaluateLowByMasks(CardSet cards);

// High-game board value of 1..7 visible cards [STUD-ORDER-2].
BoardValue HighBoardValue(CardSet up_cards);
// Razz board value of 1..7 visible cards: larger = lower (better) board,
// so the largest value acts first.
BoardValue RazzBoardValue(CardSet up_cards);

// Bring-in card helpers over a seat's door card [STUD-BRING-2, STUD-BRING-3]:
// high and hi-lo bring in with the lowest card (ace high, clubs lowest suit);
// Razz brings in with the highest (ace low, spades highest suit).
// Returns true when the owner of door card `a` must bring in rather than the
// owner of door card `b` (a != b).
constexpr bool BringsInBefore(Card a, Card b, bool razz) {
  if (!razz) return a < b;
  // Razz: ace counts low, so it ranks below the deuce; spades beat hearts.
  const int ra = a.rank() == Rank::kAce ? -1 : a.rank_value();
  const int rb = b.rank() == Rank::kAce ? -1 : b.rank_value();
  if (ra != rb) return ra > rb;
  return a.suit() > b.suit();
}

}  // namespace stud

#endif  // STUD_ENGINE_HAND_EVAL_H_
