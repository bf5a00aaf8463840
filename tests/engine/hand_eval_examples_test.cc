// Worked examples of the hand evaluator for the rule IDs: lows (STUD-HILO-2,
// STUD-HILO-5), categories and the ranks a value reads back as (STUD-GAME-3,
// STUD-GAME-4), boards for who acts first (STUD-ORDER-2) and the bring-in
// card (STUD-BRING-2, STUD-BRING-3). The evaluator against its references is
// hand_eval_test.cc; the hand names in words are the service's
// (tests/service/hand_names_test.cc).
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/card.h"
#include "engine/hand_eval.h"
#include "gtest/gtest.h"
#include "tests/testing/hands.h"

namespace stud {
namespace {
using ::stud::testing::C;

CardSet Cards(const std::string& text) { return CardSet::Of(::stud::testing::Cards(text)); }

// `ranks` in card letters, in the order they are compared: "KKK55".
void ExpectRanks(const std::optional<HandRanks>& got, HandCategory category,
                 const std::string& ranks) {
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->category, category);
  std::string letters;
  for (int r : got->ranks) letters += RankChar(r);
  EXPECT_EQ(letters, ranks);
}

TEST(HandEval, STUD_HILO_2_SevenFiveBeatsEightFour) {
  SCOPED_TRACE("STUD-HILO-2");
  const LowValue seven = EvaluateLow(Cards("7c 5d 4h 3s 2c"));
  const LowValue eight = EvaluateLow(Cards("8c 4d 3h 2s Ac"));
  EXPECT_GT(seven, eight);
  EXPECT_TRUE(QualifiesEightOrBetter(seven));
  EXPECT_TRUE(QualifiesEightOrBetter(eight));
  EXPECT_FALSE(QualifiesEightOrBetter(EvaluateLow(Cards("9c 4d 3h 2s Ac"))));
  EXPECT_FALSE(QualifiesEightOrBetter(EvaluateLow(Cards("8c 8d 3h 2s Ac"))));  // paired
  EXPECT_TRUE(QualifiesEightOrBetter(EvaluateLow(Cards("8c 8d 3h 2s Ac 4c"))));
  EXPECT_TRUE(QualifiesEightOrBetter(EvaluateLow(Cards("8c 8d 3h 2s Ac 4c 5c"))));
  ExpectRanks(RanksOfLow(eight), HandCategory::kHighCard, "8432A");
  ExpectRanks(RanksOfLow(EvaluateLow(Cards("Kc Qd 8c 6h 4s 2d Ah"))), HandCategory::kHighCard,
              "8642A");
}

TEST(HandEval, STUD_HILO_5_WheelIsTheBestLowAndAStraightHigh) {
  SCOPED_TRACE("STUD-HILO-5");
  const CardSet wheel = Cards("Ac 2d 3h 4s 5c");
  const LowValue wheel_low = EvaluateLow(wheel);
  ExpectRanks(RanksOfLow(wheel_low), HandCategory::kHighCard, "5432A");
  EXPECT_GT(wheel_low, EvaluateLow(Cards("6c 4d 3h 2s Ac")));
  // A suited wheel is a straight flush for high and still the best low.
  EXPECT_EQ(EvaluateLow(Cards("Ah 2h 3h 4h 5h")), wheel_low);
  EXPECT_EQ(CategoryOf(EvaluateHigh(Cards("Ah 2h 3h 4h 5h"))), HandCategory::kStraightFlush);
  ExpectRanks(RanksOfHigh(EvaluateHigh(wheel)), HandCategory::kStraight, "5432A");
  EXPECT_LT(EvaluateHigh(wheel), EvaluateHigh(Cards("2c 3d 4h 5s 6c")));
  const std::array<Card, 5> best = BestFiveLow(Cards("Ac 2d 3h 4s 5c Kd Kh"));
  EXPECT_EQ(CardsToString({best.begin(), best.end()}), "5c 4s 3h 2d Ac");
}

TEST(HandEval, STUD_GAME_4_SuitsNeverBreakTies) {
  SCOPED_TRACE("STUD-GAME-4");
  EXPECT_EQ(EvaluateHigh(Cards("As Ks 9d 5c 3h")), EvaluateHigh(Cards("Ac Kc 9h 5d 3s")));
  EXPECT_EQ(EvaluateHigh(Cards("Ah Kh Qh Jh 9h 2c 3d")),
            EvaluateHigh(Cards("As Ks Qs Js 9s 2d 3h")));
  EXPECT_EQ(EvaluateLow(Cards("7c 5d 4h 3s 2c")), EvaluateLow(Cards("7s 5s 4s 3s 2s")));
  EXPECT_EQ(HighBoardValue(Cards("Kh Kd 7c")), HighBoardValue(Cards("Ks Kc 7d")));
}

TEST(HandEval, STUD_GAME_3_CategoriesAndRanks) {
  SCOPED_TRACE("STUD-GAME-3");
  struct Case {
    const char* cards;
    HandCategory category;
    const char* ranks;  // in the order they are compared
  };
  const Case cases[] = {
      {"As Ks Qs Js Ts 2c 2d", HandCategory::kStraightFlush, "AKQJT"},
      {"9h 8h 7h 6h 5h Ac Ad", HandCategory::kStraightFlush, "98765"},
      {"Kc Kd Kh Ks 7c 7d 2h", HandCategory::kFourOfAKind, "KKKK7"},
      {"Kc Kd Kh 5s 5c 5d 2h", HandCategory::kFullHouse, "KKK55"},
      {"Ac 9c 7c 4c 2c Kd Kh", HandCategory::kFlush, "A9742"},
      {"Qc Jd Th 9s 8c 2d 2h", HandCategory::kStraight, "QJT98"},
      {"7c 7d 7h As Kc 2d 3h", HandCategory::kThreeOfAKind, "777AK"},
      {"Ac Ad 9h 9s Kc 2d 2h", HandCategory::kTwoPair, "AA99K"},
      {"Jc Jd Ah 9s 4c 3d 2h", HandCategory::kPair, "JJA94"},
      {"Ac Kd 9h 5s 3c", HandCategory::kHighCard, "AK953"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.cards);
    const HighValue v = EvaluateHigh(Cards(c.cards));
    EXPECT_EQ(CategoryOf(v), c.category);
    ExpectRanks(RanksOfHigh(v), c.category, c.ranks);
  }
  // Numbers no evaluator returns: a category past the straight flush, a rank
  // slot past the ace, a low above the best one or with a straight.
  EXPECT_FALSE(RanksOfHigh(9u << 20).has_value());
  EXPECT_FALSE(RanksOfHigh(EvaluateHigh(Cards("Ac Kd 9h 5s 3c")) | 0xDu).has_value());
  EXPECT_FALSE(RanksOfLow(0x1000000u).has_value());
  EXPECT_FALSE(RanksOfLow(0xFFFFFFu - (4u << 20)).has_value());
  const std::array<Card, 5> full = BestFiveHigh(Cards("Kc Kd Kh 5s 5c 5d 2h"));
  EXPECT_EQ(CardsToString({full.begin(), full.end()}), "Kh Kd Kc 5s 5d");
  const std::array<Card, 5> two_pair = BestFiveHigh(Cards("Ac Ad 9h 9s Kc 2d 2h"));
  EXPECT_EQ(CardsToString({two_pair.begin(), two_pair.end()}), "Ad Ac 9s 9h Kc");
  const std::array<Card, 5> wheel = BestFiveHigh(Cards("Ac 2d 3h 4s 5c 9d"));
  EXPECT_EQ(CardsToString({wheel.begin(), wheel.end()}), "5c 4s 3h 2d Ac");
}

TEST(HandEval, STUD_ORDER_2_HighBoardRanking) {
  SCOPED_TRACE("STUD-ORDER-2");
  EXPECT_GT(HighBoardValue(Cards("Kh Kd")), HighBoardValue(Cards("As Qd")));
  EXPECT_GT(HighBoardValue(Cards("5c 5d 5h 2s")),
            HighBoardValue(Cards("Ac Ad Kh Ks")));  // trips beat two pair
  EXPECT_GT(HighBoardValue(Cards("Ac Ad Kh Ks")), HighBoardValue(Cards("Ac Ad Kh Qs")));
  EXPECT_LT(HighBoardValue(Cards("Kh Kd 7c 2s")), HighBoardValue(Cards("Kc Ks 9d 3h")));
  EXPECT_GT(HighBoardValue(Cards("Ac")), HighBoardValue(Cards("Ks")));
  EXPECT_GT(HighBoardValue(Cards("7c 7d")), HighBoardValue(Cards("Ac Kd")));
  // Straights and flushes do not count on four cards.
  EXPECT_LT(HighBoardValue(Cards("5h 6h 7h 8h")), HighBoardValue(Cards("Ac Kd Qh Js")));
  EXPECT_LT(HighBoardValue(Cards("5h 6h 7h 8h")), HighBoardValue(Cards("2c 2d 3h 4s")));
  // Five visible cards rank as a poker hand and compare with four-card boards.
  EXPECT_GT(HighBoardValue(Cards("2h 5h 7h 9h Jh")), HighBoardValue(Cards("Ac Ad Ah Ks")));
  EXPECT_GT(HighBoardValue(Cards("4c 5d 6h 7s 8c")), HighBoardValue(Cards("Kc Kd Kh Qs")));
  EXPECT_LT(HighBoardValue(Cards("4c 5d 6h 7s 8c")), HighBoardValue(Cards("2c 2d 2h 2s")));
  EXPECT_LT(HighBoardValue(Cards("Kh Kd 7c 2s")), HighBoardValue(Cards("Kc Ks 7d 2d 3h")));
  EXPECT_GT(HighBoardValue(Cards("Kh Kd 8c 2s")), HighBoardValue(Cards("Kc Ks 7d 2d 3h")));
  EXPECT_GT(HighBoardValue(Cards("Ah Ad 7c 2s")), HighBoardValue(Cards("Kc Ks Qd Jd 3h")));
  EXPECT_LT(HighBoardValue(Cards("Ah Kd 7c 2s")), HighBoardValue(Cards("Ac Ks 7d 2d 3h")));
}

// [STUD-ORDER-2] Every board of one to four cards (294,203 of them) against
// its value computed the plain way: ranks grouped by how often they show,
// larger groups first and higher ranks first within a group, each card one
// 4-bit slot of rank + 1 from the top (an absent card 0), under the
// pattern's category. Four cards make no straight, flush or full house.
TEST(HandEval, STUD_ORDER_2_EveryBoardOfUpToFourCardsHasItsPatternValue) {
  SCOPED_TRACE("STUD-ORDER-2");
  auto plain = [](const std::array<int, 4>& cards, int n) {
    std::array<int, 13> count{};
    for (int i = 0; i < n; ++i) ++count[static_cast<size_t>(cards[i] >> 2)];
    uint32_t word = 0;
    int slot = 0;
    for (int times = 4; times >= 1; --times) {
      for (int r = 12; r >= 0; --r) {
        if (count[static_cast<size_t>(r)] != times) continue;
        for (int k = 0; k < times; ++k) word |= static_cast<uint32_t>(r + 1) << (16 - 4 * slot++);
      }
    }
    const int most = *std::max_element(count.begin(), count.end());
    const auto pairs = std::count(count.begin(), count.end(), 2);
    const HandCategory category = most == 4    ? HandCategory::kFourOfAKind
                                  : most == 3  ? HandCategory::kThreeOfAKind
                                  : pairs == 2 ? HandCategory::kTwoPair
                                  : pairs == 1 ? HandCategory::kPair
                                               : HandCategory::kHighCard;
    return static_cast<uint32_t>(category) << 20 | word;
  };
  int boards = 0;
  int wrong = 0;
  std::array<int, 4> cards{};
  // Each board once: card indices strictly increasing, n of them.
  auto visit = [&](auto&& self, int n, int from, int depth) -> void {
    if (depth == n) {
      CardSet board;
      for (int i = 0; i < n; ++i) board.Add(Card::FromIndex(cards[static_cast<size_t>(i)]));
      ++boards;
      if (HighBoardValue(board) != plain(cards, n) && ++wrong <= 5) {
        ADD_FAILURE() << "board of " << n << " cards, mask " << board.mask() << ": "
                      << HighBoardValue(board) << " != " << plain(cards, n);
      }
      return;
    }
    for (int c = from; c < 52; ++c) {
      cards[static_cast<size_t>(depth)] = c;
      self(self, n, c + 1, depth + 1);
    }
  };
  for (int n = 1; n <= 4; ++n) visit(visit, n, 0, 0);
  EXPECT_EQ(boards, 52 + 1326 + 22100 + 270725);
  EXPECT_EQ(wrong, 0);
}

TEST(HandEval, STUD_ORDER_2_RazzBoardRanking) {
  SCOPED_TRACE("STUD-ORDER-2");
  EXPECT_GT(RazzBoardValue(Cards("Qs")), RazzBoardValue(Cards("Kc")));
  EXPECT_GT(RazzBoardValue(Cards("Ac")), RazzBoardValue(Cards("2s")));  // ace is low
  EXPECT_GT(RazzBoardValue(Cards("Ac 2d 3h 4s")), RazzBoardValue(Cards("2c 3d 4h 5s")));
  EXPECT_GT(RazzBoardValue(Cards("7c 5d")), RazzBoardValue(Cards("7d 6h")));
  EXPECT_GT(RazzBoardValue(Cards("Kc Qd")), RazzBoardValue(Cards("2c 2d")));  // pairs are worst
  EXPECT_GT(RazzBoardValue(Cards("3c 3d 9h")),
            RazzBoardValue(Cards("8c 8d 2h")));  // lower pair better
  EXPECT_GT(RazzBoardValue(Cards("2c 2d 9h Ts")), RazzBoardValue(Cards("2h 2s 3h 3s")));
  EXPECT_EQ(RazzBoardValue(Cards("7c 5d 3h")), RazzBoardValue(Cards("7s 5h 3c")));
  // Five visible cards: the best low, comparable with four-card boards.
  EXPECT_EQ(RazzBoardValue(Cards("7c 5d 4h 3s 2c")), EvaluateLow(Cards("7c 5d 4h 3s 2c")));
  EXPECT_GT(RazzBoardValue(Cards("7c 5d 4h 3s 2c")), RazzBoardValue(Cards("7d 5h 4s 3c")));
  EXPECT_GT(RazzBoardValue(Cards("6d 5h 4s 3c")), RazzBoardValue(Cards("7c 5d 4h 3s 2c")));
}

TEST(HandEval, STUD_BRING_2_LowestCardByRankThenSuit) {
  SCOPED_TRACE("STUD-BRING-2");
  EXPECT_TRUE(BringsInBefore(C("2c"), C("2d"), /*razz=*/false));
  EXPECT_FALSE(BringsInBefore(C("2d"), C("2c"), /*razz=*/false));
  EXPECT_TRUE(BringsInBefore(C("2s"), C("3c"), /*razz=*/false));
}

TEST(HandEval, STUD_BRING_3_AceHighForBringInAndRazzReverse) {
  SCOPED_TRACE("STUD-BRING-3");
  EXPECT_TRUE(BringsInBefore(C("2c"), C("As"), /*razz=*/false));
  EXPECT_FALSE(BringsInBefore(C("As"), C("2c"), /*razz=*/false));
  // Razz: the highest card brings in, ace low, spades highest suit.
  EXPECT_TRUE(BringsInBefore(C("Kc"), C("Qs"), /*razz=*/true));
  EXPECT_FALSE(BringsInBefore(C("As"), C("2c"), /*razz=*/true));
  EXPECT_TRUE(BringsInBefore(C("2c"), C("As"), /*razz=*/true));
  EXPECT_TRUE(BringsInBefore(C("Ks"), C("Kh"), /*razz=*/true));
  EXPECT_FALSE(BringsInBefore(C("Kh"), C("Ks"), /*razz=*/true));
}

}  // namespace
}  // namespace stud
