// Exposed cards in LIVE dealing (STUD-IRR-EXP-1..5), through RuleIrregularity
// and through deal reports the engine rules itself.
#include "engine/irregularities.h"
#include "engine/view.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// Table(), kHands ($4-$8; door cards 7c, 3c, Kh: seat 2 brings in; seat 1's
// first hole card 2d would be lower than 3c) and PlayToSeventhDeal:
// tests/testing/live.h.

// STUD-IRR-EXP-1
TEST(Exposed, STUD_IRR_EXP_1_CashHoleCardUpThirdCardDown) {
  LiveTable t = Table();
  ASSERT_THAT(t.DealAs(true), IsOk());  // seat 1's first hole card 2d comes face up: ruled
  ASSERT_EQ(t.st.reports.size(), 1u);
  EXPECT_EQ(t.st.reports[0].kind, IrregularityKind::kHolecardExposed);
  EXPECT_TRUE(t.st.seats[1].door_down);
  t.DealStreet();
  const Seat& s = t.st.seats[1];
  ASSERT_EQ(s.num_cards, 3);
  EXPECT_TRUE(s.cards[0].face_up);  // 2d stays up as the upcard
  EXPECT_FALSE(s.cards[1].face_up);
  EXPECT_FALSE(s.cards[2].face_up);  // the third card 7c came down
  EXPECT_EQ(s.cards[2].card, C("7c"));
  // The exposed 2d is the low card: seat 1 brings in.
  EXPECT_EQ(t.st.bring_in_seat, 1);
  EXPECT_EQ(ToAct(t.st), 1);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kBringIn, K::kComplete}));
  // Views: everyone sees 2d, nobody else sees Ah or 7c.
  const TableView v = ViewFor(t.st, 2);
  EXPECT_FALSE(v.seats[0].cards[0].hidden);
  EXPECT_TRUE(v.seats[0].cards[1].hidden);
  EXPECT_TRUE(v.seats[0].cards[2].hidden);
  EXPECT_EQ(PotTotal(t.st), 300);
  EXPECT_EQ(TotalChips(t.st), 30000);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-1
TEST(Exposed, STUD_IRR_EXP_1_ReportedAfterTheDealRulesTheSame) {
  LiveTable t = Table();
  t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule(
      {.kind = IrregularityKind::kHolecardExposed, .seat = 1, .has_card = true, .card = C("2d")});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-EXP-1");
  EXPECT_EQ(r->decision, Decision::kThirdCardDown);
  EXPECT_EQ(r->exposed, (std::vector<SeatCardRef>{{1, C("2d"), true}}));
  // The words are the service's (tests/service/ruling_text*_test.cc); the
  // ruling names the seat and the card they speak of.
  EXPECT_EQ(r->params.seat, 1);
  EXPECT_EQ(r->params.card, C("2d"));
  EXPECT_EQ(r->params.option, RulingOption::kExposedHolecardDealThirdDown);
  t.DealStreet();
  EXPECT_FALSE(t.st.seats[1].cards[2].face_up);
  EXPECT_EQ(ToAct(t.st), 1);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-1
TEST(Exposed, STUD_IRR_EXP_1_TournamentMisdealReturnsEverything) {
  LiveTable t = Table(ProfileDefaults(Profile::kTournament));
  t.DealOne();
  t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule(
      {.kind = IrregularityKind::kHolecardExposed, .seat = 2, .has_card = true, .card = C("4c")});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kMisdeal);
  EXPECT_EQ(r->params.option, RulingOption::kExposedHolecardMisdeal);
  EXPECT_EQ(r->params.seat, 2);
  EXPECT_EQ(t.st.phase, Phase::kComplete);
  EXPECT_TRUE(t.st.misdeal);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(t.st.seats[i].stack, 10000);
    EXPECT_EQ(t.st.seats[i].committed, 0);
  }
  EXPECT_EQ(r->chips.size(), 3u);
  EXPECT_EQ(PotTotal(t.st), 0);
  EXPECT_EQ(ToAct(t.st), 0);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-2, STUD-BRING-10 (a dead low card: the player to its left opens)
TEST(Exposed, STUD_IRR_EXP_2_DeadLowCardLeftPlayerMayFoldBringInOrComplete) {
  LiveTable t = Table();
  ASSERT_THAT(t.DealAs(true), IsOk());  // 2d up: EXP-1
  t.DealOne();
  t.DealOne();
  ASSERT_THAT(t.DealAs(true), IsOk());  // Ah up too: both hole cards exposed
  EXPECT_EQ(t.st.reports.back().kind, IrregularityKind::kBothHolecardsExposed);
  t.DealStreet();
  const Seat& s = t.st.seats[1];
  EXPECT_TRUE(s.folded);
  EXPECT_EQ(s.num_cards, 2) << "the dead seat gets no third card";
  EXPECT_TRUE(s.cards[0].face_up && s.cards[1].face_up);
  EXPECT_EQ(s.stack, 10000) << "ante returned";
  EXPECT_EQ(s.committed, 0);
  EXPECT_EQ(PotTotal(t.st), 200);
  // 2d would have been low (below 3c): the player to the dead hand's left opens.
  EXPECT_EQ(ToAct(t.st), 2);
  EXPECT_EQ(LegalActions(t.st, 2), (std::vector<LegalAction>{{K::kFold, 0, 0, false},
                                                             {K::kBringIn, 100, 100, false},
                                                             {K::kComplete, 400, 400, false}}));
  Act(t.st, 2, K::kFold);
  EXPECT_EQ(t.st.phase, Phase::kComplete) << "seat 3 is the only live hand left";
  EXPECT_EQ(t.st.seats[3].stack, 10100);
  EXPECT_EQ(TotalChips(t.st), 30000);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-2
TEST(Exposed, STUD_IRR_EXP_2_DeadLowCardLeftPlayerForcedAlternative) {
  Options o = ProfileDefaults(Profile::kCash);
  o.dead_hand_low_opener = DeadHandLowOpener::kLeftPlayerForced;
  LiveTable t = Table(o);
  t.DealOne();
  t.DealOne();
  t.DealOne();
  t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kBothHolecardsExposed, .seat = 1});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandDeadAnteReturned);
  EXPECT_EQ(r->killed, std::vector<int>{1});
  EXPECT_EQ(r->chips, (std::vector<StackChange>{{1, 100, -100}}));
  EXPECT_EQ(r->params.option, RulingOption::kDeadHandLowOpenerForced);
  t.DealStreet();
  EXPECT_EQ(ToAct(t.st), 2);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kBringIn, K::kComplete}));
  Refused(t.st, 2, K::kFold, 0, "STUD-BRING-4");
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-2
TEST(Exposed, STUD_IRR_EXP_2_DeadHandNotLowBringInStaysWithTheLowCard) {
  LiveTable t = Table();
  for (int i = 0; i < 6; ++i) t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kBothHolecardsExposed, .seat = 3});
  ASSERT_THAT(r, IsOk());
  t.DealStreet();
  EXPECT_TRUE(t.st.seats[3].folded);
  EXPECT_EQ(t.st.seats[3].stack, 10000);
  // 3d (seat 3's first exposed card) is above 3c: seat 2 brings in as usual.
  EXPECT_EQ(ToAct(t.st), 2);
  EXPECT_EQ(t.st.bring_in_seat, 2);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kBringIn, K::kComplete}));
}

// STUD-IRR-EXP-2
TEST(Exposed, STUD_IRR_EXP_2_TournamentMisdeal) {
  LiveTable t = Table(ProfileDefaults(Profile::kTournament));
  for (int i = 0; i < 6; ++i) t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kBothHolecardsExposed, .seat = 3});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kMisdeal);
  EXPECT_EQ(t.st.seats[3].stack, 10000);
  EXPECT_EQ(t.st.phase, Phase::kComplete);
}

// STUD-IRR-EXP-3
TEST(Exposed, STUD_IRR_EXP_3_CardOffTableIsAnExposedCard) {
  LiveTable t = Table();
  t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule(
      {.kind = IrregularityKind::kCardOffTable, .seat = 1, .has_card = true, .card = C("2d")});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-EXP-3");
  EXPECT_EQ(r->decision, Decision::kThirdCardDown);
  t.DealStreet();
  EXPECT_FALSE(t.st.seats[1].cards[2].face_up);
  // An upcard off the table changes nothing.
  r = t.Rule(
      {.kind = IrregularityKind::kCardOffTable, .seat = 3, .has_card = true, .card = C("Kh")});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kNoEffect);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-4
TEST(Exposed, STUD_IRR_EXP_4_AllInPlayerKeepsFaceUpFinalCard) {
  LiveTable t = Table(Options(), {200, 10000, 10000});
  PlayToSeventhDeal(t);
  ASSERT_TRUE(t.st.seats[1].all_in);
  ASSERT_THAT(t.DealAs(true), IsOk());
  EXPECT_EQ(t.st.reports.back().kind, IrregularityKind::kFinalCardFaceUp);
  t.DealStreet();
  EXPECT_TRUE(t.st.seats[1].cards[6].face_up);
  EXPECT_FALSE(t.st.seats[2].cards[6].face_up);
  EXPECT_FALSE(t.st.seats[3].cards[6].face_up);
  EXPECT_EQ(t.st.allin_option_seat, 0);
  bool ruled = false;
  for (const Operation& op : t.st.log)
    ruled |= op.type == OpType::kRuling && op.rule_id == "STUD-IRR-EXP-4";
  EXPECT_TRUE(ruled) << "ruling logged";
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-5
TEST(Exposed, STUD_IRR_EXP_5_MultiwayFaceUpPlayerMayDeclareAllIn) {
  LiveTable t = Table();
  PlayToSeventhDeal(t);
  ASSERT_THAT(t.DealAs(true), IsOk());  // seat 1's 2h face up
  t.DealStreet();
  EXPECT_FALSE(t.st.seats[2].cards[6].face_up);
  EXPECT_FALSE(t.st.seats[3].cards[6].face_up);
  ASSERT_EQ(ToAct(t.st), 1);
  // The log names one first actor at a time: the option holder now, the
  // board's opener only once the option is answered.
  auto seventh_openers = [&t] {
    std::vector<std::pair<int, std::string>> out;
    for (const Operation& op : t.st.log) {
      if (op.type == OpType::kFirstToAct && op.street == Street::kSeventh) {
        out.emplace_back(op.seat, std::string(RuleIdName(op.rule_id)));
      }
    }
    return out;
  };
  EXPECT_EQ(seventh_openers(), (std::vector<std::pair<int, std::string>>{{1, "STUD-IRR-EXP-5"}}));
  EXPECT_EQ(LegalActions(t.st, 1), (std::vector<LegalAction>{{K::kDeclareAllIn, 0, 0, true},
                                                             {K::kDeclineOption, 0, 0, false}}));
  Refused(t.st, 1, K::kBet, 800, "STUD-IRR-EXP-5");
  Act(t.st, 1, K::kDeclareAllIn);
  EXPECT_EQ(seventh_openers(),
            (std::vector<std::pair<int, std::string>>{{1, "STUD-IRR-EXP-5"}, {2, "STUD-ORDER-4"}}));
  EXPECT_TRUE(t.st.seats[1].all_in);
  EXPECT_EQ(t.st.seats[1].stack, 9800) << "no more chips from the all-in player";
  // Seat 1 (9s 9d) is high on board but all-in: seat 2 to its left opens.
  EXPECT_EQ(ToAct(t.st), 2);
  Act(t.st, 2, K::kBet, 800);
  Act(t.st, 3, K::kCall, 800);
  EXPECT_EQ(t.st.phase, Phase::kShowdown);
  EXPECT_EQ(TotalChips(t.st), 30000);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-5
TEST(Exposed, STUD_IRR_EXP_5_DeclinedOptionHighBoardOpens) {
  LiveTable t = Table();
  PlayToSeventhDeal(t);
  ASSERT_THAT(t.DealAs(true), IsOk());
  t.DealStreet();
  Act(t.st, 1, K::kDeclineOption);
  EXPECT_FALSE(t.st.seats[1].all_in);
  EXPECT_EQ(ToAct(t.st), 1) << "seat 1 is high on board (9s 9d) and opens";
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kCheck, K::kFold, K::kBet}));
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-5
TEST(Exposed, STUD_IRR_EXP_5_ActFirstAlternative) {
  Options o = ProfileDefaults(Profile::kCash);
  o.faceup_final_option = FaceupFinalOption::kActFirst;
  LiveTable t = Table(o);
  PlayToSeventhDeal(t);
  t.DealOne();
  ASSERT_THAT(t.DealAs(true), IsOk());  // seat 2's final card face up
  t.DealStreet();
  EXPECT_EQ(ToAct(t.st), 2) << "the face-up player acts before the betting starts";
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kCheck, K::kFold, K::kBet}));
  Act(t.st, 2, K::kCheck);
  EXPECT_EQ(ToAct(t.st), 3);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-5
TEST(Exposed, STUD_IRR_EXP_5_HeadsUpFirstPlayerUpSecondComesUpToo) {
  LiveTable t = Table(Options(), {10000, 10000});
  PlayToSeventhDeal(t);
  ASSERT_THAT(t.DealAs(true), IsOk());
  EXPECT_TRUE(NextDeal(t.st).face_up) << "the second player's final card is dealt face up";
  t.DealStreet();
  EXPECT_TRUE(t.st.seats[2].cards[6].face_up);
  EXPECT_EQ(t.st.allin_option_seat, 0);
  EXPECT_EQ(ToAct(t.st), 1) << "betting proceeds normally: the high board opens";
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kCheck, K::kFold, K::kBet}));
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-5
TEST(Exposed, STUD_IRR_EXP_5_HeadsUpSecondPlayerUpHasTheOption) {
  LiveTable t = Table(Options(), {10000, 10000});
  PlayToSeventhDeal(t);
  t.DealOne();
  ASSERT_THAT(t.DealAs(true), IsOk());
  EXPECT_FALSE(t.st.seats[1].cards[6].face_up);
  EXPECT_EQ(ToAct(t.st), 2);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kDeclareAllIn, K::kDeclineOption}));
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-1: the service deals: dealer errors cannot happen.
TEST(Exposed, STUD_IRR_EXP_1_RefusedWhenTheEngineDeals) {
  HandState st = DeckTable(Options(), {10000, 10000});
  const HandState before = st;
  absl::StatusOr<Ruling> r = RuleIrregularity(
      st,
      {.kind = IrregularityKind::kHolecardExposed, .seat = 1, .has_card = true, .card = C("2d")});
  EXPECT_EQ(RuleIdOf(r.status()), "STUD-IRR-EXP-1");
  EXPECT_TRUE(st == before);
}

}  // namespace
}  // namespace stud
