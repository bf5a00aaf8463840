// Hand evaluator tests: exhaustive category counts and agreement with slow
// reference evaluators (STUD-GAME-3/4, STUD-HILO-5). The worked examples for
// the rule IDs are in hand_eval_examples_test.cc.
#include "engine/hand_eval.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/card.h"
#include "gtest/gtest.h"
#include "tests/testing/sanitized.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using ::stud::testing::IsOk;

// Random hands per reference comparison; the sanitizer builds run a tenth.
constexpr int kRandomHands = stud::testing::kSanitized ? 200'000 : 2'000'000;

CardSet Cards(const std::string& text) {
  absl::StatusOr<std::vector<Card>> cards = ParseCards(text);
  EXPECT_THAT(cards, IsOk()) << text;
  return cards.ok() ? CardSet::Of(*cards) : CardSet();
}

// ---------------------------------------------------------------------------
// Slow, obviously-correct references. A key is {category, ranks in the order
// they are compared}; keys compare lexicographically.
using RefKey = std::array<int, 6>;

// The group sizes of five ranks, largest first: {2, 2, 1} for two pair.
struct Counts {
  std::array<int, 5> size{};
  int groups = 0;
};

// Ranks of five cards sorted by (count desc, rank desc), with the counts.
void GroupRanks(const std::array<int, 5>& ranks, std::array<int, 5>& order, Counts& counts) {
  std::array<int, 13> count{};
  for (int r : ranks) ++count[r];
  int k = 0;
  for (int c = 4; c >= 1; --c) {
    for (int r = 12; r >= 0; --r) {
      if (count[r] != c) continue;
      counts.size[counts.groups++] = c;
      for (int i = 0; i < c; ++i) order[k++] = r;
    }
  }
}

int PatternCategory(const Counts& counts) {
  if (counts.size[0] == 4) return 7;
  if (counts.size[0] == 3) return counts.size[1] == 2 ? 6 : 3;
  if (counts.size[0] == 2) return counts.size[1] == 2 ? 2 : 1;
  return 0;
}

RefKey RefHigh5(const std::array<Card, 5>& cards) {
  std::array<int, 5> ranks{};
  bool flush = true;
  for (int i = 0; i < 5; ++i) {
    ranks[i] = cards[i].rank_value();
    flush = flush && cards[i].suit() == cards[0].suit();
  }
  std::array<int, 5> order{};
  Counts counts;
  GroupRanks(ranks, order, counts);
  bool straight = counts.groups == 5 && order[0] - order[4] == 4;
  if (order == std::array<int, 5>{12, 3, 2, 1, 0}) {
    straight = true;
    order = {3, 2, 1, 0, -1};  // the wheel: five high, the ace plays low
  }
  int cat = PatternCategory(counts);
  if (straight && flush) {
    cat = 8;
  } else if (flush) {
    cat = 5;
  } else if (straight) {
    cat = 4;
  }
  return {cat, order[0], order[1], order[2], order[3], order[4]};
}

// Ace-to-five: ace = 0 .. king = 12, straights and flushes ignored. Smaller is better.
RefKey RefLow5(const std::array<Card, 5>& cards) {
  std::array<int, 5> ranks{};
  for (int i = 0; i < 5; ++i) ranks[i] = (cards[i].rank_value() + 1) % 13;
  std::array<int, 5> order{};
  Counts counts;
  GroupRanks(ranks, order, counts);
  return {PatternCategory(counts), order[0], order[1], order[2], order[3], order[4]};
}

template <typename F>
void ForEachSubset(const std::vector<Card>& cards, F f) {
  const int n = static_cast<int>(cards.size());
  for (int pick = 0; pick < (1 << n); ++pick) {
    if (__builtin_popcount(static_cast<unsigned>(pick)) != 5) continue;
    std::array<Card, 5> five{};
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if ((pick >> i) & 1) five[k++] = cards[i];
    }
    f(five);
  }
}
RefKey RefHigh(const std::vector<Card>& cards) {
  RefKey best{-1, 0, 0, 0, 0, 0};
  ForEachSubset(cards, [&](const std::array<Card, 5>& f) { best = std::max(best, RefHigh5(f)); });
  return best;
}
RefKey RefLow(const std::vector<Card>& cards) {
  RefKey best{99, 0, 0, 0, 0, 0};
  ForEachSubset(cards, [&](const std::array<Card, 5>& f) { best = std::min(best, RefLow5(f)); });
  return best;
}

// Records key -> value and checks the value is a function of the key and that
// the order of values matches the order of keys (`larger_key_better` tells
// which way): then comparing any two values agrees in sign with comparing
// their reference keys.
class OrderCheck {
 public:
  explicit OrderCheck(bool larger_key_better) : larger_key_better_(larger_key_better) {}
  void Add(const RefKey& key, uint32_t value) {
    auto [it, inserted] = seen_.emplace(key, value);
    if (!inserted && it->second != value && ++failures_ < 5) {
      ADD_FAILURE() << "two values for one reference key: " << it->second << " vs " << value;
    }
  }
  void Verify() const {
    const std::pair<const RefKey, uint32_t>* prev = nullptr;
    int failures = 0;
    for (const auto& entry : seen_) {
      if (prev != nullptr) {
        const bool ok =
            larger_key_better_ ? prev->second < entry.second : prev->second > entry.second;
        if (!ok && ++failures < 5)
          ADD_FAILURE() << "values out of order: " << prev->second << ", " << entry.second;
      }
      prev = &entry;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_EQ(failures_, 0);
  }
  size_t size() const { return seen_.size(); }

 private:
  bool larger_key_better_;
  std::map<RefKey, uint32_t> seen_;
  int failures_ = 0;
};

std::vector<Card> RandomCards(std::mt19937_64& rng, int n) {
  std::array<int, kDeckSize> deck{};
  for (int i = 0; i < kDeckSize; ++i) deck[i] = i;
  std::vector<Card> out;
  for (int i = 0; i < n; ++i) {
    std::uniform_int_distribution<int> pick(i, kDeckSize - 1);
    std::swap(deck[i], deck[pick(rng)]);
    out.push_back(Card::FromIndex(deck[i]));
  }
  return out;
}

// Calls f(five cards) for all 2,598,960 five-card hands.
template <typename F>
void ForEachFiveCardHand(F f) {
  for (int a = 0; a < kDeckSize; ++a) {
    for (int b = a + 1; b < kDeckSize; ++b) {
      for (int c = b + 1; c < kDeckSize; ++c) {
        for (int d = c + 1; d < kDeckSize; ++d) {
          for (int e = d + 1; e < kDeckSize; ++e) {
            f(std::array<Card, 5>{Card::FromIndex(a), Card::FromIndex(b), Card::FromIndex(c),
                                  Card::FromIndex(d), Card::FromIndex(e)});
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Exhaustive counts.

TEST(HandEval, STUD_GAME_4_SevenCardCategoryCountsExhaustive) {
  SCOPED_TRACE("STUD-GAME-4");
  std::array<int64_t, kNumCategories> counts{};
  uint64_t bit[kDeckSize];
  for (int i = 0; i < kDeckSize; ++i) bit[i] = Card::FromIndex(i).bit();
  for (int a = 0; a < kDeckSize; ++a) {
    for (int b = a + 1; b < kDeckSize; ++b) {
      const uint64_t ab = bit[a] | bit[b];
      for (int c = b + 1; c < kDeckSize; ++c) {
        const uint64_t abc = ab | bit[c];
        for (int d = c + 1; d < kDeckSize; ++d) {
          const uint64_t abcd = abc | bit[d];
          for (int e = d + 1; e < kDeckSize; ++e) {
            const uint64_t abcde = abcd | bit[e];
            for (int f = e + 1; f < kDeckSize; ++f) {
              const uint64_t abcdef = abcde | bit[f];
              for (int g = f + 1; g < kDeckSize; ++g) {
                ++counts[static_cast<int>(CategoryOf(EvaluateHigh(CardSet(abcdef | bit[g]))))];
              }
            }
          }
        }
      }
    }
  }
  const std::array<int64_t, kNumCategories> expected = {23'294'460, 58'627'800, 31'433'400,
                                                        6'461'620,  6'180'020,  4'047'644,
                                                        3'473'184,  224'848,    41'584};
  EXPECT_EQ(counts, expected);
}

TEST(HandEval, STUD_GAME_4_FiveCardCategoryCountsAndDistinctValues) {
  SCOPED_TRACE("STUD-GAME-4");
  std::array<int64_t, kNumCategories> counts{};
  std::set<HighValue> distinct;
  ForEachFiveCardHand([&](const std::array<Card, 5>& five) {
    const HighValue v = EvaluateHigh(CardSet::Of(five));
    ++counts[static_cast<int>(CategoryOf(v))];
    distinct.insert(v);
  });
  const std::array<int64_t, kNumCategories> expected = {
      1'302'540, 1'098'240, 123'552, 54'912, 10'200, 5'108, 3'744, 624, 40};
  EXPECT_EQ(counts, expected);
  EXPECT_EQ(distinct.size(), 7462u);
}

// ---------------------------------------------------------------------------
// Agreement with the references.

TEST(HandEval, STUD_GAME_3_HighMatchesReferenceAllFiveCardHands) {
  SCOPED_TRACE("STUD-GAME-3");
  OrderCheck check(/*larger_key_better=*/true);
  int category_mismatches = 0;
  ForEachFiveCardHand([&](const std::array<Card, 5>& five) {
    const RefKey key = RefHigh5(five);
    const HighValue v = EvaluateHigh(CardSet::Of(five));
    category_mismatches += static_cast<int>(CategoryOf(v)) != key[0] ? 1 : 0;
    check.Add(key, v);
  });
  EXPECT_EQ(category_mismatches, 0);
  check.Verify();
  EXPECT_EQ(check.size(), 7462u);
}

TEST(HandEval, STUD_GAME_3_HighMatchesReferenceRandomFiveToSevenCards) {
  SCOPED_TRACE("STUD-GAME-3");
  std::mt19937_64 rng(20240607);
  OrderCheck check(/*larger_key_better=*/true);
  for (int i = 0; i < kRandomHands; ++i) {
    const std::vector<Card> cards = RandomCards(rng, 5 + i % 3);
    const RefKey key = RefHigh(cards);
    const HighValue v = EvaluateHigh(CardSet::Of(cards));
    ASSERT_EQ(static_cast<int>(CategoryOf(v)), key[0]) << CardsToString(cards);
    check.Add(key, v);
    if (i % 16 == 0) {  // the best five cards reproduce the value
      const std::array<Card, 5> best = BestFiveHigh(CardSet::Of(cards));
      const CardSet best_set = CardSet::Of(best);
      ASSERT_EQ(best_set.size(), 5);
      ASSERT_EQ(best_set & CardSet::Of(cards), best_set);
      ASSERT_EQ(EvaluateHigh(best_set), v) << CardsToString(cards);
    }
  }
  check.Verify();
}

TEST(HandEval, STUD_HILO_5_LowMatchesReferenceAllFiveCardHands) {
  SCOPED_TRACE("STUD-HILO-5");
  OrderCheck check(/*larger_key_better=*/false);
  int64_t qualifying = 0;
  int qualifier_mismatches = 0;
  ForEachFiveCardHand([&](const std::array<Card, 5>& five) {
    const RefKey key = RefLow5(five);
    const LowValue v = EvaluateLow(CardSet::Of(five));
    check.Add(key, v);
    const bool ref_qualifies = key[0] == 0 && key[1] <= 7;  // ace-low 7 is the eight
    qualifier_mismatches += QualifiesEightOrBetter(v) != ref_qualifies ? 1 : 0;
    qualifying += QualifiesEightOrBetter(v) ? 1 : 0;
  });
  EXPECT_EQ(qualifier_mismatches, 0);
  check.Verify();
  EXPECT_EQ(check.size(), 6175u);  // 7462 high classes less 1277 flushes and 10 straight flushes
  // STUD-HILO-2: five distinct ranks out of A..8 (56 rank sets) in any suits.
  EXPECT_EQ(qualifying, 56 * 1024);
}

TEST(HandEval, STUD_HILO_5_LowMatchesReferenceRandomSixAndSevenCards) {
  SCOPED_TRACE("STUD-HILO-5");
  std::mt19937_64 rng(7);
  OrderCheck check(/*larger_key_better=*/false);
  int64_t qualifying = 0;
  for (int i = 0; i < kRandomHands; ++i) {
    const std::vector<Card> cards = RandomCards(rng, 6 + i % 2);
    const RefKey key = RefLow(cards);
    const LowValue v = EvaluateLow(CardSet::Of(cards));
    check.Add(key, v);
    const bool ref_qualifies = key[0] == 0 && key[1] <= 7;
    ASSERT_EQ(QualifiesEightOrBetter(v), ref_qualifies) << CardsToString(cards);
    qualifying += ref_qualifies ? 1 : 0;
    if (i % 16 == 0) {
      const CardSet best_set = CardSet::Of(BestFiveLow(CardSet::Of(cards)));
      ASSERT_EQ(best_set.size(), 5);
      ASSERT_EQ(best_set & CardSet::Of(cards), best_set);
      ASSERT_EQ(EvaluateLow(best_set), v) << CardsToString(cards);
    }
  }
  check.Verify();
  EXPECT_GT(qualifying, 0);
}

// Calls f(cards) once for every multiset of n ranks (each rank at most four
// times), with suits dealt round-robin so that no suit holds more than two of
// seven cards: every rank pattern once, never a flush.
template <typename F>
void ForEachRankMultiset(int n, F f) {
  std::array<int, kNumRanks> count{};
  const auto recurse = [&](const auto& self, int rank, int left) -> void {
    if (rank == kNumRanks) {
      if (left != 0) return;
      std::vector<Card> cards;
      for (int r = 0; r < kNumRanks; ++r) {
        for (int i = 0; i < count[r]; ++i) {
          cards.emplace_back(static_cast<Rank>(r), static_cast<Suit>(cards.size() % 4));
        }
      }
      f(cards);
      return;
    }
    for (int k = 0; k <= std::min(4, left); ++k) {
      count[rank] = k;
      self(self, rank + 1, left - k);
    }
    count[rank] = 0;
  };
  recurse(recurse, 0, n);
}

TEST(HandEval, STUD_GAME_3_HighMatchesReferenceAllRankPatterns) {
  SCOPED_TRACE("STUD-GAME-3");
  OrderCheck check(/*larger_key_better=*/true);
  int patterns = 0;
  for (int n = 5; n <= 7; ++n) {
    ForEachRankMultiset(n, [&](const std::vector<Card>& cards) {
      ++patterns;
      check.Add(RefHigh(cards), EvaluateHigh(CardSet::Of(cards)));
    });
  }
  EXPECT_EQ(patterns, 6175 + 18'395 + 49'205);
  check.Verify();
}

TEST(HandEval, STUD_HILO_5_LowMatchesReferenceAllRankPatterns) {
  SCOPED_TRACE("STUD-HILO-5");
  // The low depends on the ranks only, so this covers every 5..7-card hand.
  OrderCheck check(/*larger_key_better=*/false);
  for (int n = 5; n <= 7; ++n) {
    ForEachRankMultiset(n, [&](const std::vector<Card>& cards) {
      const RefKey key = RefLow(cards);
      const LowValue v = EvaluateLow(CardSet::Of(cards));
      check.Add(key, v);
      EXPECT_EQ(QualifiesEightOrBetter(v), key[0] == 0 && key[1] <= 7) << CardsToString(cards);
      EXPECT_EQ(RefLow5(BestFiveLow(CardSet::Of(cards))), key) << CardsToString(cards);
    });
  }
  check.Verify();
  EXPECT_EQ(check.size(), 6175u);
}

TEST(HandEval, STUD_HILO_5_LowHandlesFewRanks) {
  SCOPED_TRACE("STUD-HILO-5");
  // Hands with three or fewer ranks take the subset path; check all patterns.
  const std::vector<std::string> hands = {
      "Ac Ad Ah As Kc Kd Kh", "Ac Ad Ah Kc Kd Kh Qc", "2c 2d 3c 3d 4c 4d 4h",
      "9c 9d 9h 9s 2c 2d",    "5c 5d 5h 6c 6d 6h",    "7c 7d 7h 7s 8c",
      "Kc Kd Kh Qc Qd",       "Ac Ad Ah 2c 3c",       "Ac Ad 2c 2d 3c 3d 3h"};
  for (const std::string& text : hands) {
    const CardSet cards = Cards(text);
    const RefKey key = RefLow(cards.Cards());
    EXPECT_EQ(key, RefLow5(BestFiveLow(cards))) << text;
    EXPECT_EQ(EvaluateLow(CardSet::Of(BestFiveLow(cards))), EvaluateLow(cards)) << text;
  }
  // Pairs are worse than no pair; the lower pair is better; two pair worse still.
  EXPECT_GT(EvaluateLow(Cards("Kc Qd Jh Tc 9d")), EvaluateLow(Cards("Ac Ad 2h 3c 4d")));
  EXPECT_GT(EvaluateLow(Cards("Ac Ad Qh Jc Td")), EvaluateLow(Cards("2c 2d 3h 4c 5d")));
  EXPECT_GT(EvaluateLow(Cards("Kc Kd Qh Jc Td")), EvaluateLow(Cards("2c 2d 3h 3c 4d")));
  EXPECT_GT(EvaluateLow(Cards("Qc Qd Qh Jc Td")), EvaluateLow(Cards("2c 2d 2h 3c 3d")));
  const std::optional<HandRanks> paired = RanksOfLow(EvaluateLow(Cards("6c 6d 9h 7c 3d")));
  ASSERT_TRUE(paired.has_value());
  EXPECT_EQ(paired->category, HandCategory::kPair);
  EXPECT_EQ(paired->ranks, (std::array<int, 5>{4, 4, 7, 5, 1}));  // 6 6 9 7 3
}

}  // namespace
}  // namespace stud
