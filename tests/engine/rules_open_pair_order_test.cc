// Scripted scenarios for catalogue sections 5 and 6: the 4th-street open pair
// (STUD-PAIR-*) and who acts first from 4th street on (STUD-ORDER-1..5;
// STUD-ORDER-6 with the common card is in rules_deck_test.cc).
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/hand_eval.h"
#include "tests/testing/hands.h"

namespace stud {
namespace {
using namespace stud::testing;

// Seat 1 shows 9c 9s on 4th street (an open pair and the high board); seat 2's
// 2c brings in; seat 3 shows Qs Td.
const std::vector<std::string> kPairHands = {"Ah Kd 9c 9s 5d 5h", "4c 5c 2c Jh 8d 3c",
                                             "3d 3h Qs Td 6c 7c"};

HandState ToFourth(Variant v, const std::string& stakes, const std::vector<std::string>& hands,
                   Options o = Options(), std::vector<Chips> stacks = {50000, 50000, 50000}) {
  const Stakes s = *FindStakesPreset(stakes);
  HandState st = Start(Config(v, s, stacks, hands, o));
  Act(st, 2, ActionKind::kBringIn, s.bring_in);
  Act(st, 3, ActionKind::kCall, s.bring_in);
  Act(st, 1, ActionKind::kCall, s.bring_in);
  EXPECT_EQ(st.street, Street::kFourth);
  return st;
}

// STUD-PAIR-1
TEST(OpenPair, STUD_PAIR_1_OpenPairGivesEveryoneTheBigBet) {
  HandState st = ToFourth(Variant::kStud, "$5-$10", kPairHands);
  EXPECT_TRUE(st.open_pair);
  ASSERT_EQ(ToAct(st), 1);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), (std::vector<Chips>{500, 1000}));
  // A pair made with a holecard is not an open pair: 9c down, 9d and 7s up.
  HandState hole =
      ToFourth(Variant::kStud, "$5-$10", {"9c Kd 9d 7s", "4c 5c 2c Jh", "3d 3h Qs Td"});
  EXPECT_FALSE(hole.open_pair);
  ASSERT_EQ(ToAct(hole), 3);
  EXPECT_EQ(AmountsOf(hole, 3, ActionKind::kBet), std::vector<Chips>{500});
  // With no open pair the big bet is simply the wrong size for 4th street.
  Refused(hole, 3, ActionKind::kBet, 1000, "STUD-BET-2");
}

// STUD-PAIR-1
TEST(OpenPair, STUD_PAIR_1_AllInPairHolderStillCountsUnderAnyPlayer) {
  // Seat 1 (the pair of nines) is all-in after calling the bring-in (100 + 200).
  HandState st = ToFourth(Variant::kStud, "$5-$10", kPairHands, Options(), {300, 50000, 50000});
  ASSERT_TRUE(st.seats[1].all_in);
  ASSERT_EQ(ToAct(st), 2);  // the first active player to the all-in high hand's left
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBet), (std::vector<Chips>{500, 1000}));
}

// STUD-PAIR-1
TEST(OpenPair, STUD_PAIR_1_AlternativeFirstActorWithPair) {
  Options first;
  first.open_pair_scope = OpenPairScope::kFirstActorWithPair;
  HandState st = ToFourth(Variant::kStud, "$5-$10", kPairHands, first);
  ASSERT_EQ(ToAct(st), 1);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), (std::vector<Chips>{500, 1000}));
  Act(st, 1, ActionKind::kCheck);
  // Only the first actor had the choice: the next player bets small only.
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBet), std::vector<Chips>{500});
  // When the pair holder is all-in, the first actor (seat 2) holds no pair: no choice.
  HandState all_in = ToFourth(Variant::kStud, "$5-$10", kPairHands, first, {300, 50000, 50000});
  ASSERT_EQ(ToAct(all_in), 2);
  EXPECT_EQ(AmountsOf(all_in, 2, ActionKind::kBet), std::vector<Chips>{500});
}

// STUD-PAIR-2
TEST(OpenPair, STUD_PAIR_2_AfterSmallBetCallRaiseSmallOrBig) {
  // $5-$10: bet 500, then call 500, raise to 1000 or raise to 1500.
  HandState st = ToFourth(Variant::kStud, "$5-$10", kPairHands);
  Act(st, 1, ActionKind::kBet, 500);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kCall), std::vector<Chips>{500});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), (std::vector<Chips>{1000, 1500}));
  Act(st, 2, ActionKind::kRaise, 1500);
  EXPECT_EQ(st.log.back().rule_id, "STUD-PAIR-2");
  // $2/$4: bet 200, then call 200, raise to 400 or raise to 600.
  HandState two = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  Act(two, 1, ActionKind::kBet, 200);
  EXPECT_EQ(AmountsOf(two, 2, ActionKind::kCall), std::vector<Chips>{200});
  EXPECT_EQ(AmountsOf(two, 2, ActionKind::kRaise), (std::vector<Chips>{400, 600}));
}

// STUD-PAIR-3
TEST(OpenPair, STUD_PAIR_3_AfterABigBetEveryRaiseIsBig) {
  // $2/$4: after a 400 bet, call 400 or raise to 800, but not to 600.
  HandState st = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  Act(st, 1, ActionKind::kBet, 400);
  EXPECT_TRUE(st.big_bet_made);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kCall), std::vector<Chips>{400});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{800});
  Refused(st, 2, ActionKind::kRaise, 600, "STUD-PAIR-3");
  // A small raise made before the first big action stands; the cap counts both sizes.
  HandState mix = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  Act(mix, 1, ActionKind::kBet, 200);
  Act(mix, 2, ActionKind::kRaise, 400);  // small raise
  EXPECT_EQ(AmountsOf(mix, 3, ActionKind::kRaise), (std::vector<Chips>{600, 800}));
  Act(mix, 3, ActionKind::kRaise, 800);  // big raise
  EXPECT_EQ(AmountsOf(mix, 1, ActionKind::kRaise), std::vector<Chips>{1200});
  Act(mix, 1, ActionKind::kRaise, 1200);
  EXPECT_EQ(mix.raises, 3);
  Refused(mix, 2, ActionKind::kRaise, 1600, "STUD-CAP-1");
  Act(mix, 2, ActionKind::kCall, 1200);
  Act(mix, 3, ActionKind::kCall, 1200);
  EXPECT_EQ(mix.street, Street::kFifth);
  EXPECT_EQ(PotTotal(mix), 3 * (50 + 50 + 1200));
}

// STUD-PAIR-4
TEST(OpenPair, STUD_PAIR_4_OptionSurvivesPairHolderCheckOrFold) {
  HandState st = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  Act(st, 1, ActionKind::kCheck);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBet), (std::vector<Chips>{200, 400}));
  HandState folded = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  Act(folded, 1, ActionKind::kFold);
  EXPECT_EQ(AmountsOf(folded, 2, ActionKind::kBet), (std::vector<Chips>{200, 400}));
  Act(folded, 2, ActionKind::kCheck);
  EXPECT_EQ(AmountsOf(folded, 3, ActionKind::kBet), (std::vector<Chips>{200, 400}));
}

// STUD-PAIR-5
TEST(OpenPair, STUD_PAIR_5_HiLoOpenPairDoesNotChangeTheLimit) {
  HandState st = ToFourth(Variant::kStudHiLo, "$2-$4", kPairHands);
  ASSERT_EQ(ToAct(st), 1);
  EXPECT_FALSE(st.open_pair);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{200});
  Refused(st, 1, ActionKind::kBet, 400, "STUD-PAIR-5");
  // Alternative hilo_open_pair_double = true (003): Hi-Lo follows STUD-PAIR-1..4.
  Options dbl;
  dbl.hilo_open_pair_double = true;
  HandState alt = ToFourth(Variant::kStudHiLo, "$2-$4", kPairHands, dbl);
  EXPECT_EQ(AmountsOf(alt, 1, ActionKind::kBet), (std::vector<Chips>{200, 400}));
}

// STUD-PAIR-6
TEST(OpenPair, STUD_PAIR_6_BigBetMandatoryFromFifth) {
  HandState st = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kFifth);
  ASSERT_EQ(ToAct(st), 1);  // 9c 9s 5d
  EXPECT_FALSE(st.open_pair);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{400});
  Refused(st, 1, ActionKind::kBet, 200, "STUD-STAKES-5");
}

// STUD-ORDER-1
TEST(Order, STUD_ORDER_1_HighestBoardActsFirst) {
  HandState st = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  // 4th: 9c 9s beats Qs Td and 2c Jh.
  EXPECT_EQ(ToAct(st), 1);
  Act(st, 1, ActionKind::kCheck);
  Act(st, 2, ActionKind::kCheck);
  Act(st, 3, ActionKind::kCheck);
  // 5th: 9c 9s 5d still highest.
  EXPECT_EQ(ToAct(st), 1);
  CheckRound(st);
  // 6th: seat 1 shows 9-9-5-5 (two pair).
  ASSERT_EQ(st.street, Street::kSixth);
  EXPECT_EQ(ToAct(st), 1);
  // A seat that is not first is refused with the ORDER rule.
  Refused(st, 3, ActionKind::kCheck, 0, "STUD-ORDER-1");
}

// STUD-ORDER-2
TEST(Order, STUD_ORDER_2_BoardsRankByPairsOnlyAceHigh) {
  // 6th street boards: 4h 5h 6h 7h (a straight-flush draw), Kc 2c Qd 2d (a pair
  // of deuces), As Kd Jd 9s (ace high). The pair acts first: draws do not count.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$2-$4"), {50000, 50000, 50000},
                              {"8c 8d 4h 5h 6h 7h", "Tc Td Kc 2c Qd 2d", "Js Ts As Kd Jd 9s"}));
  ASSERT_EQ(ToAct(st), 1);  // 4h is the low door card
  Act(st, 1, ActionKind::kBringIn, 50);
  Act(st, 2, ActionKind::kCall, 50);
  Act(st, 3, ActionKind::kCall, 50);
  EXPECT_EQ(ToAct(st), 3);  // 4th: A-K beats K-2 and 5-4 (ace high)
  CheckRound(st);
  EXPECT_EQ(ToAct(st), 3);  // 5th: A-K-J beats K-Q-2 and 6-5-4
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kSixth);
  EXPECT_EQ(ToAct(st), 2);
  // The category order of boards, and inside a category the ranks.
  auto board = [](const std::string& s) { return HighBoardValue(CardSet::Of(Cards(s))); };
  EXPECT_GT(board("9c 9d 9h 9s"), board("Ac Ad Ah Ks"));  // quads > trips
  EXPECT_GT(board("2c 2d 2h 3s"), board("Ac Ad Kh Ks"));  // trips > two pair
  EXPECT_GT(board("3c 3d 2h 2s"), board("Ac Ad Kh Qs"));  // two pair > pair
  EXPECT_GT(board("2c 2d 3h 4s"), board("Ac Kd Qh Js"));  // pair > no pair
  EXPECT_GT(board("Kc Kd 3h"), board("Qc Qd Ah"));        // paired rank first
  EXPECT_GT(board("Qc Qd 4h"), board("Qh Qs 3c"));        // then the rest
  EXPECT_EQ(board("Jh Th 9h 8h"), board("Jc Td 9s 8c"));  // no straights or flushes
}

// STUD-ORDER-3
TEST(Order, STUD_ORDER_3_TiesGoToTheSeatDealtFirstNotSuits) {
  // 4th street: Kc 7c (seat 1) and Ks 7s (seat 3) tie; seat 1 acts first.
  HandState st = ToFourth(Variant::kStud, "$2-$4", {"2h 3h Kc 7c", "4d 6h 2c 5d", "8h 9h Ks 7s"});
  EXPECT_EQ(ToAct(st), 1);
  // Tie between seats 2 and 3 (seat 2 holds the lower suits): seat 2 acts first.
  HandState st2 = Start(Config(Variant::kStud, *FindStakesPreset("$2-$4"), {50000, 50000, 50000},
                               {"4d 6h 2c 5d", "2h 3h Kc 7c", "8h 9h Ks 7s"}));
  Act(st2, 1, ActionKind::kBringIn, 50);
  Act(st2, 2, ActionKind::kCall, 50);
  Act(st2, 3, ActionKind::kCall, 50);
  EXPECT_EQ(ToAct(st2), 2);
}

// STUD-ORDER-4
TEST(Order, STUD_ORDER_4_AllInHighHandPassesToTheLeft) {
  // $1-$2: seat 2 (aces on board) is all-in after calling the bring-in; seat 4
  // (kings) is the next-highest, but seat 3, the first active seat to seat 2's left, acts.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {5000, 50, 5000, 5000},
                              {"5c 6c 2c 7d", "8h 9h Ah As", "Tc Jc 3d 4d", "Qc Qd Kh Ks"}));
  ASSERT_EQ(ToAct(st), 1);
  Act(st, 1, ActionKind::kBringIn, 25);
  Act(st, 2, ActionKind::kCall, 25);
  Act(st, 3, ActionKind::kCall, 25);
  Act(st, 4, ActionKind::kCall, 25);
  ASSERT_TRUE(st.seats[2].all_in);
  ASSERT_EQ(st.street, Street::kFourth);
  EXPECT_EQ(ToAct(st), 3);
  EXPECT_EQ(st.log.back().type, OpType::kFirstToAct);
  EXPECT_EQ(st.log.back().seat, 3);
  EXPECT_EQ(st.log.back().rule_id, "STUD-ORDER-4");
}

// STUD-ORDER-5
TEST(Order, STUD_ORDER_5_FirstActorAnnouncedEveryStreet) {
  HandState st = ToFourth(Variant::kStud, "$2-$4", kPairHands);
  std::vector<int> announced_at_start = {ToAct(st)};
  for (int street = 4; street <= 6; ++street) {
    CheckRound(st);
    announced_at_start.push_back(ToAct(st));
  }
  std::vector<int> logged;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kFirstToAct && op.street != Street::kThird) logged.push_back(op.seat);
  }
  // 4th..7th: one announcement each, naming the seat that then had to act.
  EXPECT_EQ(logged, announced_at_start);
  EXPECT_EQ(logged, (std::vector<int>{1, 1, 1, 1}));
}

}  // namespace
}  // namespace stud
