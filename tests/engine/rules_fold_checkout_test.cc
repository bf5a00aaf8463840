// Folding when no bet is faced ("checking out") and the card flow.
#include "engine/engine.h"
#include "tests/testing/hands.h"

namespace stud {
namespace {
using namespace stud::testing;

// $4-$8: ante 100, bring-in 100, bets 400 then 800. Door cards 7c, 2c, Kh: seat 2 brings in.
HandConfig ThreeSeats(Options options = Options()) {
  return Config(Variant::kStud, *FindStakesPreset("$4-$8"), {10000, 10000, 10000},
                {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h", "3d 3h Kh Td 6c 6d 2s"}, options);
}

void PlayThirdStreet(HandState& st) {
  Act(st, 2, ActionKind::kBringIn, 100);
  Act(st, 3, ActionKind::kCall, 100);
  Act(st, 1, ActionKind::kCall, 100);
}

// STUD-IRR-FOLD-1, STUD-DEAL-4: a seat that folds with no bet to face keeps
// receiving cards until a bet is made, so every other seat gets the card it
// would have got; the fold is binding and the seat never acts again.
TEST(FoldWhenCheck, STUD_IRR_FOLD_1_CheckedOutSeatIsDealtUntilABet) {
  HandState st = Start(ThreeSeats());
  PlayThirdStreet(st);
  // 4th street boards: 7c 9s / 2c Jh / Kh Td: seat 3 opens.
  ASSERT_EQ(ToAct(st), 3);
  Act(st, 3, ActionKind::kCheck);
  Act(st, 1, ActionKind::kFold);  // no bet to face: checks out
  Act(st, 2, ActionKind::kCheck);
  ASSERT_EQ(st.street, Street::kFifth);
  EXPECT_EQ(st.seats[1].num_cards, 5) << "the checked-out seat still gets its 5th-street card";
  EXPECT_EQ(st.seats[1].cards[4].card, C("9d"));
  EXPECT_EQ(st.seats[3].cards[4].card, C("6c")) << "seat 3 gets the card it was due";
  // 5th street: a bet kills the checked-out hand; from 6th street on it gets no card.
  const int opener = ToAct(st);
  Act(st, opener, ActionKind::kBet, 800);
  Act(st, ToAct(st), ActionKind::kCall, 800);
  ASSERT_EQ(st.street, Street::kSixth);
  EXPECT_EQ(st.seats[1].num_cards, 5);
  EXPECT_EQ(st.seats[3].num_cards, 6);
  EXPECT_TRUE(st.seats[1].folded);
  EXPECT_TRUE(LegalActions(st, 1).empty());
}

// STUD-IRR-FOLD-1 (online): under the ONLINE profile the fold takes effect at
// once and the seat is dealt nothing more; the next card goes to the next seat.
TEST(FoldWhenCheck, STUD_IRR_FOLD_1_OnlineFoldTakesEffectAtOnce) {
  HandState st = Start(ThreeSeats(ProfileDefaults(Profile::kOnline)));
  PlayThirdStreet(st);
  Act(st, 3, ActionKind::kCheck);
  Act(st, 1, ActionKind::kFold);
  Act(st, 2, ActionKind::kCheck);
  ASSERT_EQ(st.street, Street::kFifth);
  EXPECT_EQ(st.seats[1].num_cards, 4);
  // The burn takes the first spare card; seat 1's 9d now goes to seat 2.
  EXPECT_EQ(st.seats[2].cards[4].card, C("9d"));
}

// STUD-CAP-1 (heads-up alternative): a cap reached with three players able to
// bet stays reached even when the pot becomes heads-up.
TEST(FoldWhenCheck, STUD_CAP_1_CapReachedMultiwayStaysWhenHeadsUp) {
  Options o;
  o.uncapped_heads_up = true;
  HandState st = Start(ThreeSeats(o));
  Act(st, 2, ActionKind::kComplete, 400);
  Act(st, 3, ActionKind::kRaise, 800);
  Act(st, 1, ActionKind::kRaise, 1200);
  Act(st, 2, ActionKind::kRaise, 1600);  // third raise: capped three-handed
  Act(st, 3, ActionKind::kFold);         // now heads-up
  EXPECT_TRUE(AmountsOf(st, 1, ActionKind::kRaise).empty());
  Refused(st, 1, ActionKind::kRaise, 2000, "STUD-CAP-1");
}

}  // namespace
}  // namespace stud
