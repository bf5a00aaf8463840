// Scripted scenarios for catalogue section 3: the bring-in (STUD-BRING-*),
// the Hi-Lo bring-in (STUD-HILO-6) and the Razz mirror image of it.
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/view.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;

const Operation* FirstToActOp(const HandState& st, Street street) {
  for (const Operation& op : st.log) {
    if (op.type == OpType::kFirstToAct && op.street == street) return &op;
  }
  return nullptr;
}

Stakes S1530() { return *FindStakesPreset("$15-$30"); }

// STUD-BRING-1
TEST(BringIn, STUD_BRING_1_LowestUpcardMustOpenWithForcedBet) {
  // Doors 7c, 2c, Qs: seat 2 brings in; it cannot check.
  HandState st = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"}));
  EXPECT_EQ(ToAct(st), 2);
  EXPECT_EQ(st.bring_in_seat, 2);
  EXPECT_TRUE(st.bring_in_due);
  EXPECT_EQ(PotTotal(st), 900);
  EXPECT_TRUE(AmountsOf(st, 2, ActionKind::kCheck).empty());
  // Alternative HIGH_CARD_OPENS: the high door card (Qs, seat 3) opens and may check.
  Options high;
  high.third_street_opener = ThirdStreetOpener::kHighCardOpens;
  HandState alt = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000},
                               {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"}, high));
  EXPECT_EQ(ToAct(alt), 3);
  EXPECT_FALSE(alt.bring_in_due);
  EXPECT_EQ(AmountsOf(alt, 3, ActionKind::kCheck), std::vector<Chips>{0});
  EXPECT_EQ(AmountsOf(alt, 3, ActionKind::kBet), std::vector<Chips>{1500});
  EXPECT_TRUE(AmountsOf(alt, 3, ActionKind::kBringIn).empty());
}

// STUD-BRING-2
TEST(BringIn, STUD_BRING_2_LowestDoorCardBySuit) {
  // Three deuces: clubs is the lowest suit, so 2c (seat 2) brings in.
  HandState st = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"Ah Kd 2d", "4c 5d 2c", "3d 3h 2s"}));
  EXPECT_EQ(ToAct(st), 2);
  // Without the club: 2d (seat 1) is below 2s.
  HandState st2 = Start(Config(Variant::kStud, S1530(), {20000, 20000}, {"Ah Kd 2d", "3d 3h 2s"}));
  EXPECT_EQ(ToAct(st2), 1);
  // Rank first: 2s is lower than 3c even though spades is the highest suit.
  HandState st3 = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"Ah Kd 3c", "4c 5d 2s", "9d 9h Kc"}));
  EXPECT_EQ(ToAct(st3), 2);
}

// STUD-BRING-3
TEST(BringIn, STUD_BRING_3_AceIsHighForTheBringIn) {
  // Doors Ac, Kd, Qh: the ace is high, so the queen (seat 3) brings in.
  HandState st = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"5h 6h Ac", "7d 8d Kd", "9s Ts Qh"}));
  EXPECT_EQ(ToAct(st), 3);
  EXPECT_EQ(st.bring_in_seat, 3);
}

// STUD-BRING-4
TEST(BringIn, STUD_BRING_4_BringInOrCompleteOnly) {
  HandState st = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"}));
  const std::vector<LegalAction> expected = {
      {ActionKind::kBringIn, 500, 500, false},
      {ActionKind::kComplete, 1500, 1500, false},
  };
  EXPECT_EQ(LegalActions(st, 2), expected);
  Refused(st, 2, ActionKind::kCheck, 0, "STUD-BRING-4");
  Refused(st, 2, ActionKind::kFold, 0, "STUD-BRING-4");
  Refused(st, 2, ActionKind::kBet, 1500, "STUD-BRING-4");
  Refused(st, 2, ActionKind::kBringIn, 700, "STUD-STAKES-3");
  Refused(st, 3, ActionKind::kCall, 500, "STUD-BRING-1");  // not seat 3's turn
  EXPECT_EQ(PotTotal(st), 900);                            // refusals leave the state unchanged
  Act(st, 2, ActionKind::kBringIn, 500);
  EXPECT_EQ(st.seats[2].stack, 20000 - 300 - 500);
  EXPECT_EQ(st.bet_to, 500);
}

// STUD-BRING-5
TEST(BringIn, STUD_BRING_5_CompletionIsNotARaise) {
  // RRoP $15-$30: bring-in 500, completion 1500, raises to 3000, 4500, 6000, capped.
  HandState st = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000, 20000, 20000},
                              {"3h 4h 2c", "5h 6h 9d", "7d 8d Th", "9s 8s Jc", "Ts 7s Qs"}));
  ASSERT_EQ(ToAct(st), 1);
  Act(st, 1, ActionKind::kBringIn, 500);
  Act(st, 2, ActionKind::kComplete, 1500);
  EXPECT_EQ(st.log.back().type, OpType::kComplete);
  EXPECT_EQ(st.log.back().rule_id, "STUD-BRING-5");
  EXPECT_EQ(st.raises, 0);
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kRaise), std::vector<Chips>{3000});
  Act(st, 3, ActionKind::kRaise, 3000);
  Act(st, 4, ActionKind::kRaise, 4500);
  Act(st, 5, ActionKind::kRaise, 6000);
  EXPECT_EQ(st.raises, 3);
  EXPECT_TRUE(AmountsOf(st, 1, ActionKind::kRaise).empty());
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kCall), std::vector<Chips>{6000});
  Refused(st, 1, ActionKind::kRaise, 7500, "STUD-CAP-1");
  for (int seat = 1; seat <= 4; ++seat) Act(st, seat, ActionKind::kCall, 6000);
  EXPECT_EQ(st.street, Street::kFourth);
  EXPECT_EQ(PotTotal(st), 5 * 300 + 5 * 6000);
}

// STUD-BRING-6
TEST(BringIn, STUD_BRING_6_CallOrCompleteThenRaisesIncludingBringIn) {
  HandState st = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"}));
  Act(st, 2, ActionKind::kBringIn, 500);
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kFold), std::vector<Chips>{0});
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kCall), std::vector<Chips>{500});
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kComplete), std::vector<Chips>{1500});
  EXPECT_TRUE(AmountsOf(st, 3, ActionKind::kRaise).empty());
  Refused(st, 3, ActionKind::kRaise, 3000, "STUD-BRING-6");
  Act(st, 3, ActionKind::kCall, 500);
  Act(st, 1, ActionKind::kComplete, 1500);
  // The bring-in player, back in turn: fold, call the 1000 difference, or raise to 3000.
  const std::vector<LegalAction> expected = {
      {ActionKind::kFold, 500, 0, false},
      {ActionKind::kCall, 1500, 1000, false},
      {ActionKind::kRaise, 3000, 2500, false},
  };
  EXPECT_EQ(LegalActions(st, 2), expected);
  Refused(st, 2, ActionKind::kComplete, 1500, "STUD-BRING-5");
  Act(st, 2, ActionKind::kRaise, 3000);
  EXPECT_EQ(st.raises, 1);
}

// STUD-BRING-7
TEST(BringIn, STUD_BRING_7_NoOptionForTheBringIn) {
  const std::vector<std::string> hands = {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"};
  HandState st = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000}, hands));
  Act(st, 2, ActionKind::kBringIn, 500);
  Act(st, 3, ActionKind::kCall, 500);
  Act(st, 1, ActionKind::kCall, 500);
  EXPECT_EQ(st.street, Street::kFourth);  // no option: the round is over
  EXPECT_EQ(PotTotal(st), 900 + 1500);
  // Everyone else folds: the bring-in wins at once; the uncalled 500 comes back.
  HandState folds = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000}, hands));
  Act(folds, 2, ActionKind::kBringIn, 500);
  Act(folds, 3, ActionKind::kFold);
  Act(folds, 1, ActionKind::kFold);
  EXPECT_EQ(folds.phase, Phase::kComplete);
  EXPECT_EQ(folds.seats[2].stack, 20000 - 300 + 900);
  EXPECT_EQ(folds.seats[1].stack, 19700);
  EXPECT_EQ(folds.seats[3].stack, 19700);
  bool award = false;
  for (const Operation& op : folds.log) {
    if (op.type != OpType::kAward) continue;
    award = true;
    EXPECT_EQ(op.seat, 2);
    EXPECT_EQ(op.amount, 900);
    EXPECT_EQ(op.rule_id, "STUD-BRING-7");
  }
  EXPECT_TRUE(award);
  // Alternative bring_in_option = true: the bring-in may check or complete.
  Options opt;
  opt.bring_in_option = true;
  HandState alt = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000}, hands, opt));
  Act(alt, 2, ActionKind::kBringIn, 500);
  Act(alt, 3, ActionKind::kCall, 500);
  Act(alt, 1, ActionKind::kCall, 500);
  EXPECT_EQ(alt.street, Street::kThird);
  EXPECT_EQ(ToAct(alt), 2);
  EXPECT_EQ(AmountsOf(alt, 2, ActionKind::kCheck), std::vector<Chips>{500});
  EXPECT_EQ(AmountsOf(alt, 2, ActionKind::kComplete), std::vector<Chips>{1500});
}

// STUD-BRING-7: the round that everyone closes by calling the bring-in ends
// under that rule (its STREET_END cites it); a completed round does not.
TEST(BringIn, STUD_BRING_7_TheRoundEndedByCallsCitesTheRule) {
  const std::vector<std::string> hands = {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"};
  auto third_street_end = [](const HandState& st) -> const Operation* {
    for (const Operation& op : st.log) {
      if (op.type == OpType::kStreetEnd && op.street == Street::kThird) return &op;
    }
    return nullptr;
  };
  HandState st = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000}, hands));
  Act(st, 2, ActionKind::kBringIn, 500);
  Act(st, 3, ActionKind::kCall, 500);
  Act(st, 1, ActionKind::kCall, 500);
  ASSERT_NE(third_street_end(st), nullptr);
  EXPECT_EQ(third_street_end(st)->rule_id, "STUD-BRING-7");
  // Completed: the round ends on the calls of a full bet, no special rule.
  HandState done = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000}, hands));
  Act(done, 2, ActionKind::kBringIn, 500);
  Act(done, 3, ActionKind::kComplete, 1500);
  Act(done, 1, ActionKind::kCall, 1500);
  Act(done, 2, ActionKind::kCall, 1500);
  ASSERT_NE(third_street_end(done), nullptr);
  EXPECT_EQ(third_street_end(done)->rule_id, RuleId::kNone);
  // bring_in_option = true: the bring-in's own check closes the round.
  Options opt;
  opt.bring_in_option = true;
  HandState alt = Start(Config(Variant::kStud, S1530(), {20000, 20000, 20000}, hands, opt));
  Act(alt, 2, ActionKind::kBringIn, 500);
  Act(alt, 3, ActionKind::kCall, 500);
  Act(alt, 1, ActionKind::kCall, 500);
  Act(alt, 2, ActionKind::kCheck);
  ASSERT_NE(third_street_end(alt), nullptr);
  EXPECT_EQ(third_street_end(alt)->rule_id, RuleId::kNone);
}

// STUD-BRING-8
TEST(BringIn, STUD_BRING_8_LowCardAllInForTheAnte) {
  // $1-$2 (ante 25, bring-in 25, small bet 100): seat 2 holds the low 2c and
  // has nothing left after its ante.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {5000, 25, 5000, 5000},
                              {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs", "6s 6h 9d"}));
  EXPECT_TRUE(st.seats[2].all_in);
  ASSERT_EQ(ToAct(st), 3);  // the first active player to the low card's left
  const Operation* first = FirstToActOp(st, Street::kThird);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->seat, 3);
  EXPECT_EQ(first->card, C("2c"));
  EXPECT_EQ(first->rule_id, "STUD-BRING-8");
  const std::vector<LegalAction> three = {
      {ActionKind::kFold, 0, 0, false},
      {ActionKind::kBringIn, 25, 25, false},
      {ActionKind::kComplete, 100, 100, false},
  };
  EXPECT_EQ(LegalActions(st, 3), three);
  Act(st, 3, ActionKind::kFold);
  EXPECT_EQ(ToAct(st), 4);  // the next active player gets the same three options
  EXPECT_EQ(LegalActions(st, 4), three);
  Act(st, 4, ActionKind::kFold);
  // [STUD-ALLIN-7] seat 1 is the last player able to bet: nobody could call a
  // completion, so it may fold or bring in (and stay in), not complete.
  const std::vector<LegalAction> last = {three[0], three[1]};
  EXPECT_EQ(LegalActions(st, 1), last);
  Act(st, 1, ActionKind::kFold);
  // Everyone folded: the all-in low card's live hand wins the four antes.
  EXPECT_EQ(st.phase, Phase::kComplete);
  EXPECT_EQ(st.seats[2].stack, 100);
  EXPECT_EQ(TotalChips(st), 15025);
}

// STUD-BRING-8
TEST(BringIn, STUD_BRING_8_OneActivePlayerMeansNoBetting) {
  // Seat 1 is all-in for the ante: nobody can bet, the cards are dealt out.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {25, 1000},
                              {"As Ah 9c 9d 4h 5h 6h", "Kc Kd 2c 3d 7s 8s Js"}));
  EXPECT_EQ(st.phase, Phase::kComplete);
  EXPECT_EQ(st.seats[1].num_cards, 7);
  EXPECT_EQ(st.seats[2].num_cards, 7);
  // Aces and nines beat kings: seat 1 wins both antes.
  EXPECT_EQ(st.seats[1].stack, 50);
  EXPECT_EQ(st.seats[2].stack, 975);
}

// STUD-BRING-9
TEST(BringIn, STUD_BRING_9_PartialBringInOthersEnterForTheNormalAmount) {
  // $15-$30: seat 2 (low 2c) has 500: 300 ante, 200 left for the bring-in.
  HandState st =
      Start(Config(Variant::kStud, S1530(), {20000, 500, 20000},
                   {"Kh Kd 7c 9s 9d 3h 2h", "As Ad 2c Ac Ah 3c 4c", "3d 5h Qs Td 6c 6d 2s"}));
  const std::vector<LegalAction> only = {{ActionKind::kBringIn, 200, 200, true}};
  EXPECT_EQ(LegalActions(st, 2), only);
  Act(st, 2, ActionKind::kBringIn, 200);
  EXPECT_TRUE(st.seats[2].all_in);
  // The others call the normal 500, not 200, or complete to 1500.
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kCall), std::vector<Chips>{500});
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kComplete), std::vector<Chips>{1500});
  absl::Status short_call = Apply(st, {.kind = ActionKind::kCall, .seat = 3, .amount_to = 200});
  EXPECT_THAT(short_call, StatusIs(absl::StatusCode::kFailedPrecondition)) << short_call;
  EXPECT_EQ(RuleIdOf(short_call), "STUD-BRING-9");
  Act(st, 3, ActionKind::kCall, 500);
  Act(st, 1, ActionKind::kCall, 500);
  ASSERT_EQ(st.street, Street::kFourth);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  // Main pot 3 x 500 = 1500 to seat 2 (four aces); side pot 2 x 300 = 600 to
  // seat 1 (kings and nines) over seat 3 (sixes).
  EXPECT_EQ(st.seats[2].stack, 1500);
  EXPECT_EQ(st.seats[1].stack, 20000 - 800 + 600);
  EXPECT_EQ(st.seats[3].stack, 20000 - 800);
}

// STUD-BRING-11
TEST(BringIn, STUD_BRING_11_LowCardIsAnnounced) {
  HandState st = Start(
      Config(Variant::kStud, S1530(), {20000, 20000, 20000}, {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"}));
  const Operation* op = FirstToActOp(st, Street::kThird);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->seat, 2);
  EXPECT_EQ(op->card, C("2c"));
  EXPECT_EQ(op->rule_id, "STUD-BRING-1");
  // The announcement is public: every viewer sees which card brings in.
  for (int viewer = kPublicViewer; viewer <= 3; ++viewer) {
    bool hidden = true;
    const Operation seen = RedactFor(st, *op, viewer, &hidden);
    EXPECT_FALSE(hidden) << viewer;
    EXPECT_EQ(seen.card, C("2c")) << viewer;
  }
}

// STUD-HILO-6
TEST(BringIn, STUD_HILO_6_HiLoBringInLowestCardAceHigh) {
  // Hi-Lo $2-$4: doors Ac, 2d, 3c. The ace counts high for position, so 2d brings in
  // for the table amount of 50 (STUD-STAKES-3 default), not 100.
  HandState st = Start(Config(Variant::kStudHiLo, *FindStakesPreset("$2-$4"), {5000, 5000, 5000},
                              {"Ah Kd Ac", "4c 5d 2d", "3d 3h 3c"}));
  EXPECT_EQ(ToAct(st), 2);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBringIn), std::vector<Chips>{50});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kComplete), std::vector<Chips>{200});
}

// Razz (an engine variant outside the catalogue) mirrors STUD-BRING-2 and
// STUD-BRING-3: the highest door card brings in, ace low, spades highest suit.
TEST(Razz, HighestDoorCardBringsInAceLow) {
  HandState st = Start(Config(Variant::kRazz, *FindStakesPreset("$4-$8"), {5000, 5000, 5000},
                              {"2h 3h As", "4d 5d Kc", "6c 7c Ks"}));
  EXPECT_EQ(ToAct(st), 3);  // Ks: a king is the highest, spades beat clubs
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kBringIn), std::vector<Chips>{100});
}

// Razz: from 4th street the lowest board acts first (ace low, pairs worst).
TEST(Razz, LowestBoardActsFirst) {
  HandState st = Start(Config(Variant::kRazz, *FindStakesPreset("$4-$8"), {5000, 5000, 5000},
                              {"2h 3h As 2d", "4d 5d Kc 7h", "6c 7c Ks 5c"}));
  Act(st, 3, ActionKind::kBringIn, 100);
  Act(st, 1, ActionKind::kCall, 100);
  Act(st, 2, ActionKind::kCall, 100);
  ASSERT_EQ(st.street, Street::kFourth);
  // Boards: A-2 (seat 1), K-7 (seat 2), K-5 (seat 3): A-2 is the lowest.
  EXPECT_EQ(ToAct(st), 1);
  // No open-pair option in Razz: the bet is the small bet only.
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kBet), std::vector<Chips>{400});
}

}  // namespace
}  // namespace stud
