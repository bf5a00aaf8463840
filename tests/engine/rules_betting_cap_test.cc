// Scripted scenarios for catalogue section 4: betting per street and raise
// caps (STUD-BET-*, STUD-CAP-*), with the option alternatives
// max_raises_per_round, uncapped_heads_up and short_allin_rule.
#include <string>
#include <vector>

#include "engine/engine.h"
#include "tests/testing/hands.h"

namespace stud {
namespace {
using namespace stud::testing;

// Three seats; seat 2's 2c brings in. 4th street boards: 7c 9s / 2c Jh / Qs Td.
const std::vector<std::string> kThree = {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h",
                                         "3d 3h Qs Td 6c 6d 2s"};

// Bring-in, two calls: returns at 4th street.
HandState ToFourth(const Stakes& stakes, Options o = Options()) {
  HandState st = Start(Config(Variant::kStud, stakes, {50000, 50000, 50000}, kThree, o));
  Act(st, 2, ActionKind::kBringIn, stakes.bring_in);
  Act(st, 3, ActionKind::kCall, stakes.bring_in);
  Act(st, 1, ActionKind::kCall, stakes.bring_in);
  EXPECT_EQ(st.street, Street::kFourth);
  return st;
}

// STUD-BET-1
TEST(Betting, STUD_BET_1_CheckOrBetThenFoldCallOrRaise) {
  HandState st = ToFourth(*FindStakesPreset("$4-$8"));
  ASSERT_EQ(ToAct(st), 3);  // queen-ten is high on board
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kCheck), std::vector<Chips>{0});
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kBet), std::vector<Chips>{400});
  EXPECT_TRUE(AmountsOf(st, 3, ActionKind::kCall).empty());
  EXPECT_TRUE(AmountsOf(st, 3, ActionKind::kRaise).empty());
  Refused(st, 3, ActionKind::kCall, 400, "STUD-BET-1");
  Refused(st, 1, ActionKind::kCheck, 0, "STUD-ORDER-1");  // not seat 1's turn
  Act(st, 3, ActionKind::kCheck);
  // Nobody has bet: the next player clockwise may also check or bet.
  ASSERT_EQ(ToAct(st), 1);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{400});
  Act(st, 1, ActionKind::kBet, 400);
  ASSERT_EQ(ToAct(st), 2);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kFold), std::vector<Chips>{0});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kCall), std::vector<Chips>{400});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{800});
  EXPECT_TRUE(AmountsOf(st, 2, ActionKind::kCheck).empty());
  Refused(st, 2, ActionKind::kCheck, 0, "STUD-BET-1");
  Refused(st, 2, ActionKind::kBet, 400, "STUD-BET-1");
  Act(st, 2, ActionKind::kFold);
  Act(st, 3, ActionKind::kCall, 400);
  EXPECT_EQ(st.street, Street::kFifth);
  // ONLINE-style allow_fold_when_check = false: folding with no bet is refused.
  Options no_fold;
  no_fold.allow_fold_when_check = false;
  HandState online = ToFourth(*FindStakesPreset("$4-$8"), no_fold);
  Refused(online, 3, ActionKind::kFold, 0, "STUD-IRR-FOLD-1");
}

// STUD-BET-2
TEST(Betting, STUD_BET_2_BetSizesPerStreet) {
  // $5-$10: bring-in 200, completion 500, raises 500 on 3rd; 500 on 4th; 1000 from 5th.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$5-$10"), {50000, 50000},
                              {"Ah Kd 7c 9s Jd 3c 2h", "4c 5d 2c Jh 8d 4h 7h"}));
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBringIn), std::vector<Chips>{200});
  Act(st, 2, ActionKind::kBringIn, 200);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kComplete), std::vector<Chips>{500});
  Act(st, 1, ActionKind::kComplete, 500);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{1000});
  Act(st, 2, ActionKind::kRaise, 1000);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kRaise), std::vector<Chips>{1500});
  Act(st, 1, ActionKind::kCall, 1000);
  const std::vector<Chips> unit = {0, 0, 0, 0, 500, 1000, 1000, 1000};  // by street
  for (int street = 4; street <= 7; ++street) {
    ASSERT_EQ(st.street, static_cast<Street>(street));
    const Chips u = unit[street];
    EXPECT_EQ(AmountsOf(st, ToAct(st), ActionKind::kBet), std::vector<Chips>{u}) << street;
    Act(st, ToAct(st), ActionKind::kBet, u);
    EXPECT_EQ(AmountsOf(st, ToAct(st), ActionKind::kRaise), std::vector<Chips>{2 * u}) << street;
    Act(st, ToAct(st), ActionKind::kRaise, 2 * u);
    Act(st, ToAct(st), ActionKind::kCall, 2 * u);
  }
  // Ante 100 + 1000 + 1000 + 3 x 2000 = 8100 each.
  EXPECT_EQ(st.seats[1].committed, 8100);
  EXPECT_EQ(st.seats[2].committed, 8100);
}

// STUD-CAP-1
TEST(Cap, STUD_CAP_1_BetPlusThreeRaises) {
  // $4-$8, 5th street caps at 4 x 800 = 3200.
  HandState st = ToFourth(*FindStakesPreset("$4-$8"));
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kFifth);
  const int a = ToAct(st);
  Act(st, a, ActionKind::kBet, 800);
  const int b = ToAct(st);
  Act(st, b, ActionKind::kRaise, 1600);
  const int c = ToAct(st);
  Act(st, c, ActionKind::kRaise, 2400);
  EXPECT_EQ(AmountsOf(st, a, ActionKind::kRaise), std::vector<Chips>{3200});
  Act(st, a, ActionKind::kRaise, 3200);
  EXPECT_EQ(st.raises, 3);
  // Capped: call or fold only.
  EXPECT_TRUE(AmountsOf(st, b, ActionKind::kRaise).empty());
  EXPECT_EQ(AmountsOf(st, b, ActionKind::kCall), std::vector<Chips>{3200});
  Refused(st, b, ActionKind::kRaise, 4000, "STUD-CAP-1");
  Act(st, b, ActionKind::kCall, 3200);
  Act(st, c, ActionKind::kCall, 3200);
  EXPECT_EQ(st.street, Street::kSixth);
  for (int seat = 1; seat <= 3; ++seat) EXPECT_EQ(st.seats[seat].committed, 100 + 100 + 3200);
}

// STUD-CAP-1
TEST(Cap, STUD_CAP_1_AlternativeFourRaisesAndHeadsUpUncapped) {
  Options four;
  four.max_raises_per_round = 4;
  HandState st = ToFourth(*FindStakesPreset("$4-$8"), four);
  CheckRound(st);
  const int a = ToAct(st);
  Act(st, a, ActionKind::kBet, 800);
  const int b = ToAct(st);
  Act(st, b, ActionKind::kRaise, 1600);
  const int c = ToAct(st);
  Act(st, c, ActionKind::kRaise, 2400);
  Act(st, a, ActionKind::kRaise, 3200);
  EXPECT_EQ(AmountsOf(st, b, ActionKind::kRaise), std::vector<Chips>{4000});
  Act(st, b, ActionKind::kRaise, 4000);
  Refused(st, c, ActionKind::kRaise, 4800, "STUD-CAP-1");
  // uncapped_heads_up: with exactly two players not all-in the cap does not apply.
  Options heads_up;
  heads_up.uncapped_heads_up = true;
  for (bool uncapped : {false, true}) {
    HandState h = Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {50000, 50000},
                               {"Ah Kd 7c", "4c 5d 2c"}, uncapped ? heads_up : Options()));
    Act(h, 2, ActionKind::kBringIn, 100);
    Act(h, 1, ActionKind::kComplete, 400);
    Act(h, 2, ActionKind::kRaise, 800);
    Act(h, 1, ActionKind::kRaise, 1200);
    Act(h, 2, ActionKind::kRaise, 1600);
    EXPECT_EQ(AmountsOf(h, 1, ActionKind::kRaise),
              uncapped ? std::vector<Chips>{2000} : std::vector<Chips>{});
  }
}

// STUD-CAP-2
TEST(Cap, STUD_CAP_2_HalfBetAllInCountsAsCompletion) {
  // $15-$30: bring-in 500; seat 3 has 800 after its ante and goes all-in for
  // 800 >= 1500 / 2: that is the completion, so the next raise is to 800 + 1500 = 2300.
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$15-$30"), {20000, 20000, 1100}, kThree));
  Act(st, 2, ActionKind::kBringIn, 500);
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kComplete), std::vector<Chips>{800});
  Act(st, 3, ActionKind::kComplete, 800);
  EXPECT_TRUE(st.seats[3].all_in);
  EXPECT_EQ(st.raises, 0);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kCall), std::vector<Chips>{800});
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kRaise), std::vector<Chips>{2300});
  Refused(st, 1, ActionKind::kRaise, 1500, "STUD-STAKES-5");
  Act(st, 1, ActionKind::kRaise, 2300);
  EXPECT_EQ(st.raises, 1);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{3800});
}

// STUD-CAP-2
TEST(Cap, STUD_CAP_2_LessThanHalfDoesNotReopen) {
  // $15-$30: seat 3 is all-in for 700 < 750 over the 500 bring-in: not a completion.
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$15-$30"), {20000, 20000, 1000}, kThree));
  Act(st, 2, ActionKind::kBringIn, 500);
  Act(st, 3, ActionKind::kComplete, 700);
  EXPECT_EQ(st.bet_to, 700);
  EXPECT_EQ(st.full_level, 0);
  // Seat 1 has not acted: call 700 or complete to 1500.
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kCall), std::vector<Chips>{700});
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kComplete), std::vector<Chips>{1500});
  Act(st, 1, ActionKind::kCall, 700);
  // The bring-in already acted and faces only 200 more: call or fold.
  const std::vector<LegalAction> expected = {
      {ActionKind::kFold, 500, 0, false},
      {ActionKind::kCall, 700, 200, false},
  };
  EXPECT_EQ(LegalActions(st, 2), expected);
  Refused(st, 2, ActionKind::kComplete, 1500, "STUD-CAP-2");
  Act(st, 2, ActionKind::kCall, 700);
  EXPECT_EQ(st.street, Street::kFourth);
  EXPECT_EQ(PotTotal(st), 3 * 300 + 3 * 700);
}

// STUD-CAP-2
TEST(Cap, STUD_CAP_2_AllInBetOnBigStreet) {
  // $10-$20 5th street (unit 2000). Seat 1 has 1500 left: its all-in bet of
  // 1500 >= 1000 is a full bet, the next raise is 1500 + 2000 = 3500 (RRoP's $15 on a $20 round).
  const std::vector<std::string> hands = {"Ah Kd 9c 9s 5d", "4c 5c 2c Jh 8d", "3d 3h Qs Td 6c"};
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$10-$20"), {2000, 50000, 50000}, hands));
  Act(st, 2, ActionKind::kBringIn, 300);
  Act(st, 3, ActionKind::kCall, 300);
  Act(st, 1, ActionKind::kCall, 300);
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kFifth);
  ASSERT_EQ(ToAct(st), 1);  // a pair of nines on board
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{1500});
  Act(st, 1, ActionKind::kBet, 1500);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kCall), std::vector<Chips>{1500});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{3500});
  Act(st, 2, ActionKind::kRaise, 3500);
  EXPECT_EQ(st.raises, 1);
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kRaise), std::vector<Chips>{5500});
  // With 900 left instead, the bet is short (900 < 1000): the next player may
  // call 900 or complete the bet to 2000.
  HandState shorty =
      Start(Config(Variant::kStud, *FindStakesPreset("$10-$20"), {1400, 50000, 50000}, hands));
  Act(shorty, 2, ActionKind::kBringIn, 300);
  Act(shorty, 3, ActionKind::kCall, 300);
  Act(shorty, 1, ActionKind::kCall, 300);
  CheckRound(shorty);
  Act(shorty, 1, ActionKind::kBet, 900);
  EXPECT_EQ(shorty.full_level, 0);
  EXPECT_EQ(AmountsOf(shorty, 2, ActionKind::kCall), std::vector<Chips>{900});
  EXPECT_EQ(AmountsOf(shorty, 2, ActionKind::kBet), std::vector<Chips>{2000});
  Act(shorty, 2, ActionKind::kBet, 2000);
  EXPECT_EQ(shorty.raises, 0);  // completing a short bet is the bet
  EXPECT_EQ(AmountsOf(shorty, 3, ActionKind::kRaise), std::vector<Chips>{4000});
}

// STUD-CAP-2
TEST(Cap, STUD_CAP_2_OpenPairAllInMeasuredAgainstBigBet) {
  // $5-$10 4th street with an open pair: seat 1 bets all-in for 700, at least
  // half of 1000, so it counts as a big bet and the next raise is to 1700.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$5-$10"), {1000, 50000, 50000},
                              {"Ah Kd 9c 9s", "4c 5c 2c Jh", "3d 3h Qs Td"}));
  Act(st, 2, ActionKind::kBringIn, 200);
  Act(st, 3, ActionKind::kCall, 200);
  Act(st, 1, ActionKind::kCall, 200);
  ASSERT_EQ(ToAct(st), 1);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), (std::vector<Chips>{500, 700}));
  Act(st, 1, ActionKind::kBet, 700);
  EXPECT_TRUE(st.big_bet_made);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{1700});
}

// STUD-CAP-2
TEST(Cap, STUD_CAP_2_AlternativeFullBetRule) {
  // FULL_BET: the 800 all-in over a 500 bring-in is not a completion; the next
  // player calls 800 or completes to 1500.
  Options full;
  full.short_allin_rule = ShortAllInRule::kFullBet;
  HandState st = Start(
      Config(Variant::kStud, *FindStakesPreset("$15-$30"), {20000, 20000, 1100}, kThree, full));
  Act(st, 2, ActionKind::kBringIn, 500);
  Act(st, 3, ActionKind::kComplete, 800);
  EXPECT_EQ(st.full_level, 0);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kCall), std::vector<Chips>{800});
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kComplete), std::vector<Chips>{1500});
  EXPECT_TRUE(AmountsOf(st, 1, ActionKind::kRaise).empty());
  Act(st, 1, ActionKind::kComplete, 1500);
  // The bring-in is reopened by the full completion: call 1500 or raise to 3000.
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{3000});
}

}  // namespace
}  // namespace stud
