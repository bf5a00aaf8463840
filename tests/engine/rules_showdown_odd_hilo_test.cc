// Scripted scenarios for catalogue sections 9 and 10: showdown and mucking
// (STUD-SHOW-*), odd chips (STUD-ODD-*) and Hi-Lo eight-or-better
// (STUD-HILO-*; STUD-HILO-6 is in rules_bring_in_test.cc).
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/hand_eval.h"
#include "engine/pot.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;

Settlement MustSettle(Variant v, const std::vector<ShowdownSeat>& seats, Options o = Options()) {
  absl::StatusOr<Settlement> s = Settle(v, o, seats);
  EXPECT_THAT(s, IsOk());
  return s.ok() ? *s : Settlement{};
}

const PotShare* ShareOf(const SettledPot& pot, int seat, PotHalf half) {
  for (const PotShare& s : pot.shares) {
    if (s.seat == seat && s.half == half) return &s;
  }
  return nullptr;
}

// $1-$2, three seats: seat 2 brings in, everyone calls, checks to 7th street.
// Seat 1 shows 9-9 on board (high); seat 3 holds sixes and threes (the best hand).
HandState ThreeToSeventh() {
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {10000, 10000, 10000},
                   {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h", "3d 3h Qs Td 6c 6d 2s"}));
  Act(st, 2, ActionKind::kBringIn, 25);
  Act(st, 3, ActionKind::kCall, 25);
  Act(st, 1, ActionKind::kCall, 25);
  for (int street = 4; street <= 6; ++street) CheckRound(st);
  EXPECT_EQ(st.street, Street::kSeventh);
  return st;
}

// STUD-SHOW-1
TEST(Showdown, STUD_SHOW_1_LastAggressorShowsFirst) {
  HandState st = ThreeToSeventh();
  ASSERT_EQ(ToAct(st), 1);
  Act(st, 1, ActionKind::kCheck);
  Act(st, 2, ActionKind::kBet, 200);
  Act(st, 3, ActionKind::kCall, 200);
  Act(st, 1, ActionKind::kCall, 200);
  ASSERT_EQ(st.phase, Phase::kShowdown);
  EXPECT_EQ(ToAct(st), 2);
  Refused(st, 3, ActionKind::kShow, 0, "STUD-SHOW-1");
  Act(st, 2, ActionKind::kShow);
  EXPECT_EQ(ToAct(st), 3);  // then clockwise
  Act(st, 3, ActionKind::kShow);
  Act(st, 1, ActionKind::kShow);
  // Pot 75 + 75 + 600 = 750 to seat 3.
  EXPECT_EQ(st.seats[3].stack, 10000 - 250 + 750);
  // No bet on the last round: the highest board (seat 1, nines) shows first.
  HandState quiet = ThreeToSeventh();
  CheckRound(quiet);
  EXPECT_EQ(ToAct(quiet), 1);
}

// STUD-SHOW-2
TEST(Showdown, STUD_SHOW_2_MuckedHandCannotWin) {
  HandState st = ThreeToSeventh();
  Act(st, 1, ActionKind::kCheck);
  Act(st, 2, ActionKind::kBet, 200);
  Act(st, 3, ActionKind::kCall, 200);
  Act(st, 1, ActionKind::kFold);
  Act(st, 2, ActionKind::kShow);
  Act(st, 3, ActionKind::kMuck);  // the best hand surrenders
  ASSERT_EQ(st.phase, Phase::kComplete);
  EXPECT_EQ(st.log[st.log.size() - 3].rule_id, "STUD-SHOW-2");  // the muck
  // Seat 2's pair of fours takes 75 + 75 + 400 = 550.
  EXPECT_EQ(st.seats[2].stack, 10000 - 250 + 550);
  EXPECT_EQ(st.seats[3].stack, 10000 - 250);
}

// STUD-SHOW-3
TEST(Showdown, STUD_SHOW_3_HandStaysLiveUntilDiscarded) {
  HandState st = ThreeToSeventh();
  CheckRound(st);
  ASSERT_EQ(st.phase, Phase::kShowdown);
  Act(st, 1, ActionKind::kShow);
  Act(st, 2, ActionKind::kShow);
  // Betting is over: a fold means nothing at showdown; the hand is still live.
  Refused(st, 3, ActionKind::kFold, 0, "STUD-SHOW-1");
  EXPECT_TRUE(st.seats[3].live());
  Act(st, 3, ActionKind::kShow);
  EXPECT_EQ(st.seats[3].stack, 10000 - 50 + 150);
}

// STUD-SHOW-4
TEST(Showdown, STUD_SHOW_4_TiedHandsSplitEvenly) {
  // Two nine-high straights; 7d (seat 2) brings in. Pot 4 x 25 = 100: 50 each.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {5000, 5000},
                              {"9s 8s 7h 6d 5c Kc 2h", "9c 8c 7d 6s 5d Qd 3h"}));
  Act(st, 2, ActionKind::kBringIn, 25);
  Act(st, 1, ActionKind::kCall, 25);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  EXPECT_EQ(st.seats[1].stack, 5000);
  EXPECT_EQ(st.seats[2].stack, 5000);
}

// Two tied 9-high straights (seat 1 also holds Kc, seat 2 Qs) and a folded
// seat 3 whose `dead` chips make the pot odd.
std::vector<ShowdownSeat> TiedStraights(Chips each, Chips dead) {
  return {{.seat = 1, .cards = Cards("9d 8h 7c 6c 5d Kc 2d"), .committed = each},
          {.seat = 2, .cards = Cards("9h 8d 7s 6s 5s Qs 3c"), .committed = each},
          {.seat = 3, .cards = {}, .committed = dead, .live = false}};
}

// STUD-ODD-1
TEST(OddChip, STUD_ODD_1_HighestCardBySuitGetsTheOddChip) {
  // Pot 301: Kc beats Qs (rank first), so seat 1 gets 151.
  Settlement s = MustSettle(Variant::kStud, TiedStraights(150, 1));
  ASSERT_EQ(s.pots.size(), 1u);
  EXPECT_EQ(s.won[1], 151);
  EXPECT_EQ(s.won[2], 150);
  const PotShare* odd = ShareOf(s.pots[0], 1, PotHalf::kWhole);
  ASSERT_NE(odd, nullptr);
  EXPECT_TRUE(odd->odd_chip);
  EXPECT_EQ(odd->odd_chip_rule, "STUD-ODD-1");
}

// STUD-ODD-2
TEST(OddChip, STUD_ODD_2_HiLoOddChipToTheHighHalf) {
  // Pot 301: seat 1 (kings full) wins high, seat 2 (6-4-3-2-A) wins low: 151 / 150.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Kc Kd Kh 9s 9c Qd Jd"), .committed = 150},
      {.seat = 2, .cards = Cards("Ac 2d 3h 4s 6c Td Th"), .committed = 150},
      {.seat = 3, .cards = {}, .committed = 1, .live = false}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.won[1], 151);
  EXPECT_EQ(s.won[2], 150);
  const PotShare* high = ShareOf(s.pots[0], 1, PotHalf::kHigh);
  ASSERT_NE(high, nullptr);
  EXPECT_EQ(high->amount, 151);
  EXPECT_EQ(high->odd_chip_rule, "STUD-ODD-2");
}

// STUD-ODD-3
TEST(OddChip, STUD_ODD_3_TiedHighsHighestCardBySuit) {
  // Pot 605: low half 302 to seat 3; high half 303 split by seats 1 and 2:
  // seat 1's Kd is the highest card, so 152 / 151.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("9h 8h 7c 6c 5d Kc Kd"), .committed = 200},
      {.seat = 2, .cards = Cards("9d 8d 7s 6s 5s Qs Qh"), .committed = 200},
      {.seat = 3, .cards = Cards("Ac 2c 3c 4d 6h Jc Th"), .committed = 200},
      {.seat = 4, .cards = {}, .committed = 5, .live = false}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.won[1], 152);
  EXPECT_EQ(s.won[2], 151);
  EXPECT_EQ(s.won[3], 302);
  EXPECT_EQ(ShareOf(s.pots[0], 1, PotHalf::kHigh)->odd_chip_rule, "STUD-ODD-3");
}

// Seat 1 wins high (a jack-high straight); seats 2 and 3 tie for low with
// 6-4-3-2-A; seat 2 holds Ad and 2c, seat 3 Ac and 2d. Pot 603.
std::vector<ShowdownSeat> TiedLows() {
  return {{.seat = 1, .cards = Cards("9c 9d 9h Js Tc 8s 7h"), .committed = 200},
          {.seat = 2, .cards = Cards("Ad 2c 3h 4s 6c Kd Kh"), .committed = 200},
          {.seat = 3, .cards = Cards("Ac 2d 3s 4c 6d Qs Qh"), .committed = 200},
          {.seat = 4, .cards = {}, .committed = 3, .live = false}};
}

// STUD-ODD-4
TEST(OddChip, STUD_ODD_4_TiedLowsLowestCardBySuit) {
  // High half 302 to seat 1; low half 301: Ac is the lowest card, seat 3 gets 151.
  Settlement s = MustSettle(Variant::kStudHiLo, TiedLows());
  EXPECT_EQ(s.won[1], 302);
  EXPECT_EQ(s.won[3], 151);
  EXPECT_EQ(s.won[2], 150);
  EXPECT_EQ(ShareOf(s.pots[0], 3, PotHalf::kLow)->odd_chip_rule, "STUD-ODD-4");
}

// STUD-ODD-5
TEST(OddChip, STUD_ODD_5_OpenPointsAndAlternatives) {
  // (a) BEST_FIVE: seat 1's Kc is outside its straight; 9h (seat 2) beats 9d.
  Options best_five;
  best_five.odd_chip_cards = OddChipCards::kBestFive;
  Settlement a = MustSettle(Variant::kStud, TiedStraights(150, 1), best_five);
  EXPECT_EQ(a.won[2], 151);
  EXPECT_EQ(a.won[1], 150);
  // (b) Ace high for the low odd chip: 2c (seat 2) is then the lowest card.
  Options ace_high;
  ace_high.odd_chip_low_ace_low = false;
  Settlement b = MustSettle(Variant::kStudHiLo, TiedLows(), ace_high);
  EXPECT_EQ(b.won[2], 151);
  EXPECT_EQ(b.won[3], 150);
  // (c) A 5-cent unit: pot 315 is 63 units, 32 to seat 1 and 31 to seat 2.
  Options five;
  five.odd_chip_unit = 5;
  Settlement c = MustSettle(Variant::kStud, TiedStraights(150, 15), five);
  EXPECT_EQ(c.won[1], 160);
  EXPECT_EQ(c.won[2], 155);
  // (d) Three ways tied, pot 302: 100 each, the 2 odd chips one each to Kc and Qs.
  std::vector<ShowdownSeat> three = {
      {.seat = 1, .cards = Cards("9d 8h 7c 6c 5d Kc 2d"), .committed = 100},
      {.seat = 2, .cards = Cards("9h 8d 7s 6s 5s Qs 3c"), .committed = 100},
      {.seat = 3, .cards = Cards("9c 8c 7h 6h 5h Jh 2c"), .committed = 100},
      {.seat = 4, .cards = {}, .committed = 2, .live = false}};
  Settlement d = MustSettle(Variant::kStud, three);
  EXPECT_EQ(d.won[1], 101);
  EXPECT_EQ(d.won[2], 101);
  EXPECT_EQ(d.won[3], 100);
}

// STUD-HILO-1
TEST(HiLo, STUD_HILO_1_HighHalfAndLowHalf) {
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Kc Kd Kh 9s 9c Qd Jd"), .committed = 300},
      {.seat = 2, .cards = Cards("Ac 2d 3h 4s 6c Td Th"), .committed = 300}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.pots[0].rule_id, "STUD-HILO-1");
  EXPECT_EQ(s.pots[0].high_winners, std::vector<int>{1});
  EXPECT_EQ(s.pots[0].low_winners, std::vector<int>{2});
  EXPECT_EQ(s.won[1], 300);
  EXPECT_EQ(s.won[2], 300);
}

// STUD-HILO-2
TEST(HiLo, STUD_HILO_2_EightOrBetterComparedFromTheTop) {
  // 7-5-4-3-2 (seat 2) beats 8-4-3-2-A (seat 3); seat 1's three jacks win high.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Jc Jd Jh 9s Ts 5s 6s"), .committed = 200},
      {.seat = 2, .cards = Cards("7c 5d 4h 3s 2c Kd Kh"), .committed = 200},
      {.seat = 3, .cards = Cards("8d 4c 3d 2h Ac Qd Qh"), .committed = 200}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.pots[0].low_winners, std::vector<int>{2});
  EXPECT_EQ(s.won[1], 300);
  EXPECT_EQ(s.won[2], 300);
  EXPECT_EQ(s.won[3], 0);
  EXPECT_TRUE(QualifiesEightOrBetter(EvaluateLow(CardSet::Of(Cards("8d 7c 6h 5s 4d")))));
  EXPECT_FALSE(QualifiesEightOrBetter(EvaluateLow(CardSet::Of(Cards("9d 7c 5h 3s 2d")))));
  EXPECT_FALSE(QualifiesEightOrBetter(EvaluateLow(CardSet::Of(Cards("7d 7c 5h 3s 2d")))));
}

// STUD-HILO-3
TEST(HiLo, STUD_HILO_3_NoQualifyingLowHighScoopsPotByPot) {
  // Seat 1 (the only low, 6-4-3-2-A) is all-in for 100; seats 2 and 3 put in 300.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Ac 2d 3h 4s 6c Kd Kh"), .committed = 100},
      {.seat = 2, .cards = Cards("Jc Jd Jh 9s Ts Qs 5s"), .committed = 300},
      {.seat = 3, .cards = Cards("Qc Qd 8h 8d 9c Tc 7s"), .committed = 300}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  ASSERT_EQ(s.pots.size(), 2u);
  // Main pot 300: high 150 to seat 2, low 150 to seat 1. Side pot 400 (seats 2
  // and 3) has no qualifying low: all of it to seat 2.
  EXPECT_EQ(s.pots[0].rule_id, "STUD-HILO-1");
  EXPECT_EQ(s.pots[1].rule_id, "STUD-HILO-3");
  EXPECT_TRUE(s.pots[1].low_winners.empty());
  EXPECT_EQ(s.won[1], 150);
  EXPECT_EQ(s.won[2], 550);
  EXPECT_EQ(s.won[3], 0);
}

// STUD-HILO-4
TEST(HiLo, STUD_HILO_4_SameCardsForBothHalvesScoop) {
  // Seat 1: 8-8 for high and 7-6-3-2-A for low, sharing the 7, 6 and ace.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("8c 8d 7s 6c 3d 2h Ac"), .committed = 250},
      {.seat = 2, .cards = Cards("Kc Qd Jh 9s 4d 2s 3h"), .committed = 250}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.pots[0].high_winners, std::vector<int>{1});
  EXPECT_EQ(s.pots[0].low_winners, std::vector<int>{1});
  EXPECT_EQ(s.won[1], 500);
  EXPECT_EQ(s.won[2], 0);
}

// STUD-HILO-5
TEST(HiLo, STUD_HILO_5_WheelIsBestLowAndAStraight) {
  const CardSet wheel = CardSet::Of(Cards("Ac 2d 3h 4s 5c Kd Qh"));
  EXPECT_EQ(CategoryOf(EvaluateHigh(wheel)), HandCategory::kStraight);
  EXPECT_GT(EvaluateLow(wheel), EvaluateLow(CardSet::Of(Cards("Ad 2c 3c 4d 6s"))));
  // A flush does not spoil a low: 7-5-4-3-2 of hearts is a qualifying low.
  EXPECT_TRUE(QualifiesEightOrBetter(EvaluateLow(CardSet::Of(Cards("7h 5h 4h 3h 2h")))));
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Ac 2d 3h 4s 5c Kd Qh"), .committed = 400},
      {.seat = 2, .cards = Cards("6c 4d 3c 2s Ad Kh Kc"), .committed = 400}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.won[1], 800);  // the wheel scoops: straight beats kings, 5-low beats 6-low
}

// Hi-Lo $2-$4 (ante 50, bring-in 50): seat 1 shows 9c 9s on 4th and makes nines
// full; seat 2 (2c brings in) makes 7-4-3-2-A; seat 3 folds on 5th street.
HandState HiLoHand() {
  HandState st =
      Start(Config(Variant::kStudHiLo, *FindStakesPreset("$2-$4"), {10000, 10000, 10000},
                   {"9h Kd 9c 9s 5d 5h Qc", "Ac 3c 2c 4d 7h 8d Kc", "3d 3h Qs Td 6c Js 2s"}));
  Act(st, 2, ActionKind::kBringIn, 50);
  Act(st, 3, ActionKind::kComplete, 200);
  Act(st, 1, ActionKind::kRaise, 400);
  Act(st, 2, ActionKind::kCall, 400);
  Act(st, 3, ActionKind::kCall, 400);
  EXPECT_EQ(st.street, Street::kFourth);
  return st;
}

// STUD-HILO-7
TEST(HiLo, STUD_HILO_7_OpenPairOffAndStudShowdownOrder) {
  HandState st = HiLoHand();
  ASSERT_EQ(ToAct(st), 1);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{200});
  Refused(st, 1, ActionKind::kBet, 400, "STUD-PAIR-5");
  Act(st, 1, ActionKind::kCheck);
  Act(st, 2, ActionKind::kCheck);
  Act(st, 3, ActionKind::kBet, 200);
  Act(st, 1, ActionKind::kCall, 200);
  Act(st, 2, ActionKind::kCall, 200);
  for (int street = 5; street <= 6; ++street) CheckRound(st);
  Act(st, 1, ActionKind::kCheck);
  Act(st, 2, ActionKind::kBet, 400);
  Act(st, 3, ActionKind::kFold);
  Act(st, 1, ActionKind::kCall, 400);
  ASSERT_EQ(st.phase, Phase::kShowdown);
  EXPECT_EQ(ToAct(st), 2);  // the last bettor shows first (STUD-SHOW-1)
}

// STUD-HILO-8
TEST(HiLo, STUD_HILO_8_TiedLowsShareQuartering) {
  // Seat 1: kings and 7-4-3-2-A; seat 2: queens and the same low. Pot 1000:
  // high 500 to seat 1, the low 500 shared: seat 1 gets 750, seat 2 250.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Ac 2d 3h 4s 7c Kc Kd"), .committed = 500},
      {.seat = 2, .cards = Cards("Ad 2c 3s 4h 7d Qc Qd"), .committed = 500}};
  Settlement s = MustSettle(Variant::kStudHiLo, seats);
  EXPECT_EQ(s.pots[0].low_winners, (std::vector<int>{1, 2}));
  EXPECT_EQ(s.won[1], 750);
  EXPECT_EQ(s.won[2], 250);
}

// STUD-HILO-9
TEST(HiLo, STUD_HILO_9_StudRulesApplyToHiLo) {
  // Bring-in, completion and raises on 3rd, small bet on 4th, big bet from 5th,
  // then a split at showdown.
  HandState st = HiLoHand();
  Act(st, 1, ActionKind::kBet, 200);
  Act(st, 2, ActionKind::kCall, 200);
  Act(st, 3, ActionKind::kCall, 200);
  ASSERT_EQ(ToAct(st), 1);  // 9c 9s 5d
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{400});
  Act(st, 1, ActionKind::kBet, 400);
  Act(st, 2, ActionKind::kCall, 400);
  Act(st, 3, ActionKind::kFold);
  CheckRound(st);
  Act(st, 1, ActionKind::kCheck);
  Act(st, 2, ActionKind::kBet, 400);
  Act(st, 1, ActionKind::kCall, 400);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  // Seats 1 and 2 put in 50 + 400 + 200 + 400 + 400 = 1450, seat 3 650: pot 3550,
  // split 1775 high (seat 1, nines full) and 1775 low (seat 2, 7-4-3-2-A).
  EXPECT_EQ(st.seats[1].stack, 10000 - 1450 + 1775);
  EXPECT_EQ(st.seats[2].stack, 10000 - 1450 + 1775);
  EXPECT_EQ(st.seats[3].stack, 10000 - 650);
}

}  // namespace
}  // namespace stud
