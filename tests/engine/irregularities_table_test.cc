// Player and table irregularities: wrong opener (STUD-IRR-WRONG-1), absent
// player (STUD-IRR-ABS-1), folds (STUD-IRR-FOLD-1, -2), card counts
// (STUD-IRR-CARDS-1), calls when beaten (STUD-IRR-CALL-1), time-outs
// (STUD-ALLIN-4, STUD-ALLIN-5), under each profile where they differ.
#include "engine/irregularities.h"
#include "engine/refusal.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// Table(), DeckTable() and kHands: tests/testing/live.h.
LiveTable Live(Profile p = Profile::kCash) {
  LiveTable t = Table(ProfileDefaults(p));
  t.DealStreet();
  return t;
}

HandState Dealt(Profile p) { return DeckTable(ProfileDefaults(p)); }

// STUD-IRR-WRONG-1
TEST(Table, STUD_IRR_WRONG_1_NextPlayerNotActedActionCorrected) {
  LiveTable t = Live();
  ASSERT_EQ(ToAct(t.st), 2);  // 3c is low
  const HandState before = t.st;
  absl::StatusOr<Ruling> r = t.Rule(
      {.kind = IrregularityKind::kWrongOpener, .seat = 1, .action = K::kBringIn, .amount_to = 100});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kActionCorrected);
  EXPECT_EQ(r->to_act, 2);
  EXPECT_EQ(KindsOf(r->options), (std::vector<K>{K::kBringIn, K::kComplete}));
  EXPECT_EQ(t.st.seats[1].stack, before.seats[1].stack);
  ExpectReplays(t.st);
}

// STUD-IRR-WRONG-1
TEST(Table, STUD_IRR_WRONG_1_NextPlayerActedActionStandsNoObligation) {
  LiveTable t = Live();
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kWrongOpener,
                                     .seat = 1,
                                     .action = K::kBringIn,
                                     .amount_to = 100,
                                     .next_acted = true});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kActionStands);
  EXPECT_EQ(t.st.seats[1].street_bet, 100);
  EXPECT_EQ(ToAct(t.st), 2);
  // The true low card has no obligation: it faces the bring-in like anyone.
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kFold, K::kCall, K::kComplete}));
  Act(t.st, 2, K::kCall, 100);
  Act(t.st, 3, K::kCall, 100);
  EXPECT_EQ(t.st.street, Street::kFourth);
  ExpectReplays(t.st);
}

// STUD-IRR-ABS-1, STUD-BRING-10 (an absent low card still posts the bring-in; the next seat faces
// it)
TEST(Table, STUD_IRR_ABS_1_CashAbsentLowCardPostsBringInThenKilled) {
  LiveTable t = Live();
  // Cash: only when the action reaches the seat.
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kAbsentPlayer, .seat = 3});
  EXPECT_EQ(RuleIdOf(r.status()), "STUD-IRR-ABS-1");
  r = t.Rule({.kind = IrregularityKind::kAbsentPlayer, .seat = 2});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kBringInPostedHandKilled);
  EXPECT_EQ(r->killed, std::vector<int>{2});
  EXPECT_EQ(r->chips, (std::vector<StackChange>{{2, -100, 100}}));
  EXPECT_TRUE(t.st.seats[2].folded);
  EXPECT_EQ(t.st.seats[2].stack, 9800) << "ante and bring-in forfeited";
  EXPECT_EQ(ToAct(t.st), 3);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 3)), (std::vector<K>{K::kFold, K::kCall, K::kComplete}));
  EXPECT_EQ(PotTotal(t.st), 400);
  ExpectReplays(t.st);
}

// STUD-IRR-ABS-1
TEST(Table, STUD_IRR_ABS_1_TournamentKilledOnceStartingHandsAreOut) {
  LiveTable t = Live(Profile::kTournament);
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kAbsentPlayer, .seat = 3});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandKilled);
  EXPECT_EQ(r->params.option, RulingOption::kAbsentKillAfterStartingHands);
  EXPECT_TRUE(t.st.seats[3].folded);
  EXPECT_EQ(t.st.seats[3].stack, 9900);
  EXPECT_EQ(ToAct(t.st), 2);
  Act(t.st, 2, K::kBringIn, 100);
  EXPECT_EQ(ToAct(t.st), 1);
  ExpectReplays(t.st);
}

// STUD-IRR-ABS-1
TEST(Table, STUD_IRR_ABS_1_OnlinePointsToTimeout) {
  HandState st = Dealt(Profile::kOnline);
  absl::StatusOr<Ruling> r =
      RuleIrregularity(st, {.kind = IrregularityKind::kAbsentPlayer, .seat = 2});
  EXPECT_EQ(RuleIdOf(r.status()), "STUD-IRR-ABS-1");
  // The refusal points to a TIMEOUT report.
  EXPECT_EQ(RefusalOf(r.status()).value_or(RefusalFacts{}).what, Refusal::kAbsentOnline);
}

// STUD-IRR-FOLD-1
TEST(Table, STUD_IRR_FOLD_1_CheckedOutSeatKeepsGettingCards) {
  LiveTable t = Live();
  Act(t.st, 2, K::kBringIn, 100);
  Act(t.st, 3, K::kCall, 100);
  Act(t.st, 1, K::kCall, 100);
  t.DealStreet();
  ASSERT_EQ(ToAct(t.st), 3);
  Act(t.st, 3, K::kCheck);
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kCheckedOut, .seat = 1});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kCheckedOut);
  EXPECT_TRUE(t.st.seats[1].folded);
  EXPECT_TRUE(t.st.seats[1].checked_out);
  Act(t.st, 2, K::kCheck);
  EXPECT_EQ(NextDeal(t.st).seat, 1) << "the checked-out seat is still dealt to";
  ExpectReplays(t.st);
}

// STUD-IRR-FOLD-2
TEST(Table, STUD_IRR_FOLD_2_UpcardsPickedUpFacingABetIsAFold) {
  LiveTable t = Live();
  Act(t.st, 2, K::kBringIn, 100);
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kUpcardsPickedUp, .seat = 3});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandKilled);
  EXPECT_TRUE(t.st.seats[3].folded);
  EXPECT_EQ(ToAct(t.st), 1);
  // With no bet to face it is a check-out, which has its own report.
  Act(t.st, 1, K::kCall, 100);
  t.DealStreet();
  r = t.Rule({.kind = IrregularityKind::kUpcardsPickedUp, .seat = ToAct(t.st)});
  EXPECT_EQ(RuleIdOf(r.status()), "STUD-IRR-FOLD-2");
  ExpectReplays(t.st);
}

// STUD-IRR-FOLD-2: a hand killed for picking up its upcards takes no more
// action, and the refusal cites the rule that killed it, not the turn order.
TEST(Table, STUD_IRR_FOLD_2_KilledHandActingCitesTheKill) {
  LiveTable t = Live();
  Act(t.st, 2, K::kBringIn, 100);
  ASSERT_THAT(t.Rule({.kind = IrregularityKind::kUpcardsPickedUp, .seat = 3}), IsOk());
  const HandState before = t.st;
  const absl::Status s = Apply(t.st, {.kind = K::kCall, .seat = 3, .amount_to = 100});
  EXPECT_EQ(RuleIdOf(s), "STUD-IRR-FOLD-2") << s;
  const RefusalFacts facts = RefusalOf(s).value_or(RefusalFacts{});
  EXPECT_EQ(facts.what, Refusal::kHandDead) << s;
  EXPECT_EQ(facts.seat, 3);
  EXPECT_TRUE(t.st == before);
}

// STUD-IRR-FOLD-2, STUD-SHOW-3
// STUD-SHOW-3: upcards picked up once the betting is over mean nothing; the
// showdown rule decides, not the fold rule STUD-IRR-FOLD-2.
TEST(Table, STUD_SHOW_3_UpcardsPickedUpAtShowdownMeanNothing) {
  HandState st = Dealt(Profile::kCash);
  Act(st, 2, K::kBringIn, 100);
  Act(st, 3, K::kCall, 100);
  Act(st, 1, K::kCall, 100);
  while (st.phase == Phase::kBetting) CheckRound(st);
  ASSERT_EQ(st.phase, Phase::kShowdown);
  absl::StatusOr<Ruling> r =
      RuleIrregularity(st, {.kind = IrregularityKind::kUpcardsPickedUp, .seat = 1});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kNoEffect);
  EXPECT_EQ(r->rule_id, RuleId::kShow3);
  EXPECT_TRUE(st.seats[1].live());
  ExpectReplays(st);
}

HandState AtShowdown(ShortHand mode) {
  Options o = ProfileDefaults(Profile::kCash);
  o.short_hand = mode;
  LiveTable t = Table(o);
  PlayThird(t);
  while (t.st.phase != Phase::kShowdown) {
    t.DealStreet();
    CheckRound(t.st);
  }
  return t.st;
}

// STUD-IRR-CARDS-1
TEST(Table, STUD_IRR_CARDS_1_MissingSeventhLiveShorterDeadMoreDead) {
  HandState st = AtShowdown(ShortHand::kMissingSeventhLive);
  absl::StatusOr<Ruling> r =
      RuleIrregularity(st, {.kind = IrregularityKind::kWrongCardCount, .seat = 1, .card_count = 6});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandLive);
  EXPECT_EQ(st.seats[1].num_cards, 6);
  EXPECT_EQ(st.aside, std::vector<Card>{C("2h")});
  r = RuleIrregularity(st, {.kind = IrregularityKind::kWrongCardCount, .seat = 2, .card_count = 8});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandKilled);
  EXPECT_TRUE(st.seats[2].folded);
  r = RuleIrregularity(st, {.kind = IrregularityKind::kWrongCardCount, .seat = 3, .card_count = 5});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandKilled);
  EXPECT_EQ(st.phase, Phase::kComplete) << "seat 1 is the only live hand and wins";
  EXPECT_EQ(st.seats[1].stack, 10000 - 200 + 600);
  EXPECT_TRUE(CardsUnique(st));
  ExpectReplays(st);
}

// STUD-IRR-CARDS-1
TEST(Table, STUD_IRR_CARDS_1_PlayerOptionAnyShortAlternative) {
  HandState st = AtShowdown(ShortHand::kPlayerOptionAnyShort);
  absl::StatusOr<Ruling> r = RuleIrregularity(st, {.kind = IrregularityKind::kWrongCardCount,
                                                   .seat = 3,
                                                   .card_count = 5,
                                                   .declare_live = true});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandLive);
  EXPECT_EQ(st.seats[3].num_cards, 5);
  ExpectReplays(st);
}

// STUD-IRR-CALL-1
TEST(Table, STUD_IRR_CALL_1_NoRefund) {
  HandState st = Dealt(Profile::kCash);
  Act(st, 2, K::kBringIn, 100);
  Act(st, 3, K::kCall, 100);
  const Chips stack = st.seats[3].stack;
  absl::StatusOr<Ruling> r =
      RuleIrregularity(st, {.kind = IrregularityKind::kCalledWhenBeaten, .seat = 3});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kNoRefund);
  EXPECT_TRUE(r->chips.empty());
  EXPECT_EQ(st.seats[3].stack, stack);
  ExpectReplays(st);
}

// STUD-ALLIN-4
TEST(Table, STUD_ALLIN_4_TimeoutIsAllInForWhatIsIn) {
  HandState st = Dealt(Profile::kOnline);
  Act(st, 2, K::kBringIn, 100);
  Act(st, 3, K::kComplete, 400);
  absl::StatusOr<Ruling> r = RuleIrregularity(st, {.kind = IrregularityKind::kTimeout,
                                                   .seat = 1,
                                                   .allowance_remaining = 2,
                                                   .disconnect = true});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-ALLIN-4");
  EXPECT_EQ(r->decision, Decision::kTimeoutAllIn);
  EXPECT_EQ(r->allowance_remaining, 1);
  EXPECT_TRUE(st.seats[1].all_in);
  EXPECT_EQ(st.seats[1].stack, 9900);
  EXPECT_EQ(ToAct(st), 2);
  Act(st, 2, K::kCall, 400);
  ASSERT_EQ(st.street, Street::kFourth);
  // Seat 1 contested only its ante: the rest is a side pot between 2 and 3.
  while (st.phase == Phase::kBetting) CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), K::kShow);
  EXPECT_EQ(TotalChips(st), 30000);
  Chips seat1_award = 0;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kAward && op.seat == 1) seat1_award += op.amount;
  }
  EXPECT_LE(seat1_award, 300) << "can win at most the main pot of three antes";
  ExpectReplays(st);
}

// STUD-ALLIN-5
TEST(Table, STUD_ALLIN_5_AllowanceUsedUpFolds) {
  HandState st = Dealt(Profile::kOnline);
  Act(st, 2, K::kBringIn, 100);
  absl::StatusOr<Ruling> r = RuleIrregularity(
      st, {.kind = IrregularityKind::kTimeout, .seat = 3, .allowance_remaining = 0});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-ALLIN-5");
  EXPECT_EQ(r->decision, Decision::kTimeoutFold);
  EXPECT_TRUE(st.seats[3].folded);
  EXPECT_EQ(ToAct(st), 1);
  ExpectReplays(st);
}

// STUD-ALLIN-5
TEST(Table, STUD_ALLIN_5_CheckIfFreeAlternative) {
  Options o = ProfileDefaults(Profile::kOnline);
  o.exhausted_timeout_action = ExhaustedTimeout::kCheckIfFree;
  HandState st = DeckTable(o);
  Act(st, 2, K::kBringIn, 100);
  Act(st, 3, K::kCall, 100);
  Act(st, 1, K::kCall, 100);
  const int opener = ToAct(st);
  absl::StatusOr<Ruling> r = RuleIrregularity(
      st, {.kind = IrregularityKind::kTimeout, .seat = opener, .allowance_remaining = 0});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kTimeoutCheck);
  EXPECT_FALSE(st.seats[opener].folded);
  ExpectReplays(st);
}

// STUD-GAME-5
TEST(Table, STUD_GAME_5_UpcardsReorderedWarning) {
  HandState st = Dealt(Profile::kCash);
  absl::StatusOr<Ruling> r =
      RuleIrregularity(st, {.kind = IrregularityKind::kUpcardsReordered, .seat = 1});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kWarning);
  ExpectReplays(st);
}

}  // namespace
}  // namespace stud
