// The incremental-key evaluator (engine/hand_key.h) against the table-free
// CardSet evaluators: every 5-, 6- and 7-card hand must get exactly the same
// HighValue [STUD-GAME-3, STUD-GAME-4] and LowValue [STUD-HILO-2, STUD-HILO-5],
// through a HandKey, straight from the cards and from raw card indices, and
// the compact HighRank / LowRank must decode to those values.
//
// Sanitizer builds run about ten times slower; there the 7-card sweep keeps
// the hands whose lowest card is 20 or higher (3.4 M hands) and the 5- and
// 6-card sweeps stay complete.
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "engine/card.h"
#include "engine/hand_eval.h"
#include "engine/hand_key.h"
#include "gtest/gtest.h"
#include "tests/testing/sanitized.h"
#include "tests/testing/status_matchers.h"

constexpr int kFirstCard = stud::testing::kSanitized ? 20 : 0;

namespace stud {
namespace {
using ::stud::testing::IsOk;

// Counts the hands where a key evaluation differs from the CardSet one.
struct Mismatches {
  int64_t hands = 0;
  int64_t high = 0;
  int64_t low = 0;
  int64_t from_cards = 0;
  int64_t from_indices = 0;
  int64_t ranks = 0;
};

// Every way in (key, Cards, raw indices) and out (value, rank decoded back to
// the value). Ranks decode to the values and the decode tables increase
// strictly (DecodeTablesIncrease), so rank order is value order on every hand.
void Check(const KeyEvaluator& eval, const HandKey& key, const std::array<Card, 7>& cards, int n,
           Mismatches& m) {
  ++m.hands;
  const HighValue high = EvaluateHighByMasks(key.cards());
  const LowValue low = EvaluateLowByMasks(key.cards());
  m.high += eval.High(key) != high ? 1 : 0;
  m.low += eval.Low(key) != low ? 1 : 0;
  const absl::Span<const Card> span(cards.data(), static_cast<size_t>(n));
  m.from_cards += (eval.High(span) != high || eval.Low(span) != low) ? 1 : 0;
  std::array<uint8_t, 7> idx{};
  for (int i = 0; i < n; ++i) idx[i] = static_cast<uint8_t>(cards[i].index());
  const size_t count = static_cast<size_t>(n);
  const HighRank high_rank = eval.HighRankOf(key);
  const LowRank low_rank = eval.LowRankOf(key);
  m.from_indices += (eval.High(idx.data(), count) != high || eval.Low(idx.data(), count) != low ||
                     eval.HighRankOf(idx.data(), count) != high_rank ||
                     eval.LowRankOf(idx.data(), count) != low_rank)
                        ? 1
                        : 0;
  m.ranks += (eval.ToHighValue(high_rank) != high || eval.ToLowValue(low_rank) != low) ? 1 : 0;
}

void ExpectNone(const Mismatches& m) {
  EXPECT_EQ(m.high, 0);
  EXPECT_EQ(m.low, 0);
  EXPECT_EQ(m.from_cards, 0);
  EXPECT_EQ(m.from_indices, 0);
  EXPECT_EQ(m.ranks, 0);
}

// Every hand of `n` cards (depth 0 on the first call) whose lowest card index
// is at least `first`, cards in increasing index order in c[0..n), the key
// built incrementally: one Add per card, shared by all hands with that prefix.
template <typename Visit>
void ForEachHand(int n, int first, int depth, const HandKey& key, std::array<Card, 7>& c,
                 Visit& visit) {
  for (int x = first; x < kDeckSize; ++x) {
    c[static_cast<size_t>(depth)] = Card::FromIndex(x);
    HandKey k = key;
    k.Add(c[static_cast<size_t>(depth)]);
    if (depth + 1 == n) {
      visit(k);
    } else {
      ForEachHand(n, x + 1, depth + 1, k, c, visit);
    }
  }
}

TEST(HandKeyEval, STUD_GAME_3_STUD_HILO_5_EverySevenCardHandMatchesCardSetEvaluator) {
  SCOPED_TRACE("STUD-GAME-3, STUD-GAME-4, STUD-HILO-2, STUD-HILO-5");
  const KeyEvaluator eval;
  Mismatches m;
  std::array<Card, 7> c{};
  auto check = [&](const HandKey& k) { Check(eval, k, c, 7, m); };
  ForEachHand(7, kFirstCard, 0, HandKey(), c, check);
  EXPECT_EQ(m.hands, kFirstCard == 0 ? 133'784'560 : 3'365'856);
  ExpectNone(m);
}

TEST(HandKeyEval, STUD_GAME_4_STUD_HILO_2_EveryFiveAndSixCardHandMatchesCardSetEvaluator) {
  SCOPED_TRACE("STUD-GAME-3, STUD-GAME-4, STUD-HILO-2, STUD-HILO-5");
  const KeyEvaluator eval;
  Mismatches five, six;
  std::array<Card, 7> c{};
  auto check5 = [&](const HandKey& k) { Check(eval, k, c, 5, five); };
  auto check6 = [&](const HandKey& k) { Check(eval, k, c, 6, six); };
  ForEachHand(5, 0, 0, HandKey(), c, check5);
  ForEachHand(6, 0, 0, HandKey(), c, check6);
  EXPECT_EQ(five.hands, 2'598'960);
  EXPECT_EQ(six.hands, 20'358'520);
  ExpectNone(five);
  ExpectNone(six);
}

// The ranks are dense indexes of the values in increasing order: the decode
// tables increase strictly, so comparing ranks is comparing values, and every
// one of the 7,462 high ranks is the rank of some hand's value.
TEST(HandKeyEval, STUD_GAME_3_STUD_HILO_5_DecodeTablesIncrease) {
  const KeyEvaluator eval;
  for (size_t r = 1; r < hand_key_internal::kHighRanks; ++r) {
    ASSERT_LT(eval.ToHighValue(static_cast<HighRank>(r - 1)),
              eval.ToHighValue(static_cast<HighRank>(r)))
        << r;
  }
  // Lows: increasing up to the last used rank (the unused tail holds 0).
  size_t lows = 1;
  while (lows < hand_key_internal::kMaxLowRanks &&
         eval.ToLowValue(static_cast<LowRank>(lows)) >
             eval.ToLowValue(static_cast<LowRank>(lows - 1))) {
    ++lows;
  }
  for (size_t r = lows; r < hand_key_internal::kMaxLowRanks; ++r) {
    ASSERT_EQ(eval.ToLowValue(static_cast<LowRank>(r)), 0u) << r;
  }
  EXPECT_GT(lows, 1000u);
  EXPECT_EQ(CategoryOf(eval.ToHighValue(0)), HandCategory::kHighCard);
  EXPECT_EQ(CategoryOf(eval.ToHighValue(hand_key_internal::kHighRanks - 1)),
            HandCategory::kStraightFlush);
}

// The public entry points: the free functions, keys built from a CardSet and
// keys added together (hole cards + board) agree with the incremental key and
// with the CardSet evaluators the engine calls at showdown.
TEST(HandKeyEval, STUD_GAME_3_STUD_HILO_5_KeysFromSetsAndSumsAgree) {
  SCOPED_TRACE("STUD-GAME-3, STUD-HILO-5");
  std::mt19937_64 rng(0x4B3E);
  std::array<int, kDeckSize> deck{};
  for (int i = 0; i < kDeckSize; ++i) deck[i] = i;
  for (int round = 0; round < 200'000; ++round) {
    const int n = 5 + round % 3;
    HandKey whole, hole, board;
    CardSet set;
    for (int i = 0; i < n; ++i) {
      std::uniform_int_distribution<int> pick(i, kDeckSize - 1);
      std::swap(deck[i], deck[pick(rng)]);
      const Card c = Card::FromIndex(deck[i]);
      whole.Add(c);
      (i < 3 ? hole : board).Add(c);
      set.Add(c);
    }
    const HandKey from_set(set);
    const HandKey sum = hole + board;
    ASSERT_EQ(from_set.key(), whole.key());
    ASSERT_EQ(sum.key(), whole.key());
    ASSERT_EQ(sum.cards(), set);
    ASSERT_EQ(EvaluateHigh(whole), EvaluateHigh(set)) << CardsToString(set.Cards());
    ASSERT_EQ(EvaluateLow(whole), EvaluateLow(set)) << CardsToString(set.Cards());
    ASSERT_EQ(EvaluateHigh(set), EvaluateHighByMasks(set));
    ASSERT_EQ(EvaluateLow(set), EvaluateLowByMasks(set));
  }
}

// Worked examples through the key: a straight flush beats quads
// [STUD-GAME-4], the wheel is the best low and qualifies [STUD-HILO-2].
TEST(HandKeyEval, STUD_GAME_4_STUD_HILO_2_WorkedExamples) {
  const auto key = [](const char* text) {
    HandKey k;
    const absl::StatusOr<std::vector<Card>> cards = ParseCards(text);
    EXPECT_THAT(cards, IsOk()) << text;
    if (cards.ok()) {
      for (Card c : *cards) k.Add(c);
    }
    return k;
  };
  const HandKey straight_flush = key("9h 8h 7h 6h 5h Kd Ks");
  const HandKey quads = key("Ac Ad Ah As Kc 2d 3h");
  EXPECT_EQ(CategoryOf(EvaluateHigh(straight_flush)), HandCategory::kStraightFlush);
  EXPECT_EQ(CategoryOf(EvaluateHigh(quads)), HandCategory::kFourOfAKind);
  EXPECT_GT(EvaluateHigh(straight_flush), EvaluateHigh(quads));
  const HandKey wheel = key("Ac 2d 3h 4s 5c Kd Kh");
  const HandKey eight = key("8c 6d 4h 2s Ad Qd Qh");
  const std::optional<HandRanks> wheel_low = RanksOfLow(EvaluateLow(wheel));
  ASSERT_TRUE(wheel_low.has_value());
  EXPECT_EQ(wheel_low->ranks, (std::array<int, 5>{3, 2, 1, 0, 12}));  // 5-4-3-2-A
  EXPECT_TRUE(QualifiesEightOrBetter(EvaluateLow(eight)));
  EXPECT_GT(EvaluateLow(wheel), EvaluateLow(eight));
  EXPECT_FALSE(QualifiesEightOrBetter(EvaluateLow(quads)));
}

}  // namespace
}  // namespace stud
