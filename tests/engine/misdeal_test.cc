// A tournament misdeal and its antes (STUD-IRR-EXP-1): returned (the default)
// or kept in the pot for the redeal (misdeal_antes = STAY_IN_POT), and the
// redeal that starts with those antes already in (HandConfig::carried_antes).
#include "absl/strings/match.h"
#include "engine/irregularities.h"
#include "engine/refusal.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {

// The request field a malformed-request refusal names (engine/refusal.h).
std::string FieldAtFault(const absl::Status& s) {
  return RefusalOf(s).value_or(RefusalFacts{}).field;
}
using namespace stud::testing;
using K = ActionKind;

// Table() ($4-$8, ante 100) and kHands: tests/testing/live.h. Seat 2's first
// hole card 4c is the one the dealer turns up.
Options Tournament(MisdealAntes antes) {
  Options o = ProfileDefaults(Profile::kTournament);
  o.misdeal_antes = antes;
  return o;
}

// Deals two cards and turns seat 2's first hole card up: a misdeal.
Ruling MisdealAtTable(LiveTable& t) {
  t.DealOne();
  t.DealOne();
  absl::StatusOr<Ruling> r = t.Rule(
      {.kind = IrregularityKind::kHolecardExposed, .seat = 2, .has_card = true, .card = C("4c")});
  EXPECT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kMisdeal);
  return *r;
}

// STUD-IRR-EXP-1: the default is unchanged: every ante goes back.
TEST(Misdeal, STUD_IRR_EXP_1_AntesReturnedByDefault) {
  EXPECT_EQ(Options().misdeal_antes, MisdealAntes::kReturned);
  EXPECT_EQ(ProfileDefaults(Profile::kTournament).misdeal_antes, MisdealAntes::kReturned);
  LiveTable t = Table(Tournament(MisdealAntes::kReturned));
  const Ruling r = MisdealAtTable(t);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(t.st.seats[i].stack, 10000);
    EXPECT_EQ(t.st.seats[i].committed, 0);
  }
  EXPECT_EQ(CountOps(t.st, OpType::kReturnAnte), 3);
  EXPECT_EQ(PotTotal(t.st), 0);
  EXPECT_EQ(r.params.option, RulingOption::kExposedHolecardMisdeal);  // redeal: antes again
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-1: the alternative reading: the antes stay in the pot, the
// misdealt hand ends holding them, and the redeal plays for them without
// posting new antes. Chips are conserved across the pair of hands.
TEST(Misdeal, STUD_IRR_EXP_1_AntesStayInThePotForTheRedeal) {
  LiveTable t = Table(Tournament(MisdealAntes::kStayInPot), {10000, 10000, 50});
  const Ruling r = MisdealAtTable(t);
  EXPECT_TRUE(t.st.misdeal);
  EXPECT_EQ(t.st.phase, Phase::kComplete);
  EXPECT_EQ(CountOps(t.st, OpType::kReturnAnte), 0);
  EXPECT_EQ(t.st.seats[1].stack, 9900);
  EXPECT_EQ(t.st.seats[1].committed, 100);
  EXPECT_EQ(t.st.seats[3].stack, 0);  // a short ante stays too [STUD-ALLIN-6]
  EXPECT_EQ(t.st.seats[3].committed, 50);
  EXPECT_EQ(PotTotal(t.st), 250);  // held for the redeal
  EXPECT_EQ(TotalChips(t.st), StartingTotal(t.st));
  // The redeal instructions say so (tests/service/ruling_text_exposed_test.cc).
  EXPECT_EQ(r.params.option, RulingOption::kExposedHolecardMisdealAntesKept);
  ExpectReplays(t.st);

  // The redeal: the same seats, the stacks behind, the antes carried in.
  HandConfig c = t.st.config;
  for (int i = 1; i <= 3; ++i) {
    c.starting_stacks[i] = t.st.seats[i].stack;
    c.carried_antes[i] = t.st.seats[i].committed;
  }
  LiveTable redeal = Table(c.options, {1, 1, 1});
  absl::StatusOr<HandState> st = NewHand(c);
  ASSERT_THAT(st, IsOk());
  redeal.st = *st;
  EXPECT_EQ(CountOps(redeal.st, OpType::kAnte), 3);  // logged, not taken from the stacks
  for (const Operation& op : redeal.st.log) {
    if (op.type == OpType::kAnte) {
      EXPECT_EQ(op.rule_id, "STUD-IRR-EXP-1");
    }
  }
  EXPECT_EQ(redeal.st.seats[1].stack, 9900);
  EXPECT_EQ(redeal.st.seats[1].committed, 100);
  EXPECT_EQ(redeal.st.seats[3].stack, 0);
  EXPECT_TRUE(redeal.st.seats[3].all_in);
  EXPECT_EQ(PotTotal(redeal.st), 250);
  redeal.DealStreet();
  Act(redeal.st, 2, K::kBringIn, 100);
  Act(redeal.st, 1, K::kCall, 100);
  while (redeal.st.phase != Phase::kComplete) {
    if (redeal.st.phase == Phase::kAwaitingDeal) {
      redeal.DealStreet();
    } else if (redeal.st.phase == Phase::kBetting) {
      CheckRound(redeal.st);
    } else {
      ASSERT_THAT(Apply(redeal.st, {.kind = K::kShow, .seat = ToAct(redeal.st)}), IsOk());
    }
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  }
  Chips after = 0;
  for (int i = 1; i <= 3; ++i) after += redeal.st.seats[i].stack;
  EXPECT_EQ(after, 20050);  // everything the misdealt hand started with
  ExpectReplays(redeal.st);
}

// STUD-IRR-EXP-1: carried antes are checked like any other configuration.
TEST(Misdeal, STUD_IRR_EXP_1_CarriedAntesAreValidated) {
  HandConfig c;
  c.stakes = *FindStakesPreset("$4-$8");
  c.num_seats = 2;
  c.deal_source = DealSource::kReported;
  c.starting_stacks[1] = 1000;
  c.starting_stacks[2] = 0;
  c.carried_antes[1] = 100;
  c.carried_antes[2] = 60;  // all-in for a short ante: a zero stack is allowed
  ASSERT_THAT(NewHand(c), IsOk());
  HandConfig bad = c;
  bad.carried_antes[2] = 0;  // a zero stack without an ante in
  EXPECT_EQ(NewHand(bad).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FieldAtFault(NewHand(bad).status()), "seats[2].stack");
  bad = c;
  bad.carried_antes[1] = 101;  // more than the ante
  EXPECT_EQ(FieldAtFault(NewHand(bad).status()), "carried_antes[1]");
  bad = c;
  bad.carried_antes[1] = -1;
  EXPECT_EQ(FieldAtFault(NewHand(bad).status()), "carried_antes[1]");
  bad = c;
  bad.carried_antes[3] = 100;  // no such seat
  EXPECT_EQ(FieldAtFault(NewHand(bad).status()), "carried_antes[3]");
}

}  // namespace
}  // namespace stud
