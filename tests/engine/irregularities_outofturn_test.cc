// Action out of turn with chips in the pot (ACTION_OUT_OF_TURN), ruled by the
// nearest rules: STUD-IRR-WRONG-1 (the incorrect bettor takes back the action
// and the right seat acts) and STUD-ORDER-* / STUD-BRING-1 (who is to act).
// Default: the chips go in as the table saw them and are taken back at once.
// Alternative out_of_turn_binding: the chips stay in the pot and the action
// stands when the seat's turn comes, if the action to it has not changed.
#include "engine/irregularities.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

LiveTable Live(bool binding = false) {
  Options o;
  o.out_of_turn_binding = binding;
  LiveTable t = Table(o);
  t.DealStreet();
  return t;
}

Chips Total(const HandState& st) {
  Chips t = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) t += st.seats[i].stack + st.seats[i].committed;
  return t - st.paid_out;
}

std::vector<OpType> OpsOf(const HandState& st, size_t from, size_t to) {
  std::vector<OpType> out;
  for (size_t i = from; i < to; ++i) out.push_back(st.log[i].type);
  return out;
}

const IrregularityReport kCompleteBySeat1 = {.kind = IrregularityKind::kActionOutOfTurn,
                                             .seat = 1,
                                             .action = K::kComplete,
                                             .amount_to = 400};

// STUD-IRR-WRONG-1 (default reading): seat 3 is to act after the bring-in,
// seat 1 completes out of turn. The chips go in, then come back.
TEST(OutOfTurn, STUD_IRR_WRONG_1_BetOutOfTurnChipsTakenBack) {
  LiveTable t = Live();
  Act(t.st, 2, K::kBringIn, 100);
  ASSERT_EQ(ToAct(t.st), 3);
  const Chips stack1 = t.st.seats[1].stack;
  const Chips total = Total(t.st);
  absl::StatusOr<Ruling> r = t.Rule(kCompleteBySeat1);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-WRONG-1");
  EXPECT_EQ(r->decision, Decision::kActionCorrected);
  EXPECT_EQ(OpsOf(t.st, r->first_op, r->end_op),
            (std::vector<OpType>{OpType::kRuling, OpType::kOutOfTurn, OpType::kReturnAnte}));
  const Operation& in = t.st.log[r->first_op + 1];
  EXPECT_EQ(in.seat, 1);
  EXPECT_EQ(in.amount, 400);
  EXPECT_EQ(in.amount_to, 400);
  const Operation& back = t.st.log[r->first_op + 2];
  EXPECT_EQ(back.seat, 1);
  EXPECT_EQ(back.amount, 400);
  EXPECT_EQ(back.rule_id, "STUD-IRR-WRONG-1");
  EXPECT_TRUE(r->chips.empty());  // nothing moved in the end
  EXPECT_EQ(t.st.seats[1].stack, stack1);
  EXPECT_EQ(r->to_act, 3);
  EXPECT_EQ(Total(t.st), total);
  // Seat 1 acts anew when its turn comes.
  Act(t.st, 3, K::kCall, 100);
  EXPECT_EQ(ToAct(t.st), 1);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kFold, K::kCall, K::kComplete}));
  ExpectReplays(t.st);
}

// STUD-IRR-WRONG-1 on the opener, STUD-BRING-1: the wrong seat brings in
// before the low card; the chips come back and the low card must bring in.
TEST(OutOfTurn, STUD_BRING_1_WrongSeatBringsInChipsTakenBackLowCardBringsIn) {
  LiveTable t = Live();
  ASSERT_EQ(ToAct(t.st), 2);
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kActionOutOfTurn,
                                     .seat = 3,
                                     .action = K::kBringIn,
                                     .amount_to = 100});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kActionCorrected);
  EXPECT_EQ(t.st.log[r->first_op + 1].amount, 100);
  EXPECT_EQ(t.st.seats[3].stack, t.st.config.starting_stacks[3] - t.st.seats[3].committed);
  EXPECT_EQ(t.st.seats[3].street_bet, 0);
  EXPECT_EQ(r->to_act, 2);
  EXPECT_EQ(KindsOf(r->options), (std::vector<K>{K::kBringIn, K::kComplete}));
  ExpectReplays(t.st);
}

// Alternative out_of_turn_binding, STUD-ORDER-*: the completion waits in the
// pot; seat 3 only calls, so the action to seat 1 has not changed and the
// completion stands as seat 1's action when its turn comes.
TEST(OutOfTurn, STUD_IRR_WRONG_1_BindingActionStandsWhenTurnComesUnchanged) {
  LiveTable t = Live(/*binding=*/true);
  Act(t.st, 2, K::kBringIn, 100);
  const Chips stack1 = t.st.seats[1].stack;
  const Chips total = Total(t.st);
  absl::StatusOr<Ruling> r = t.Rule(kCompleteBySeat1);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kActionBinding);
  EXPECT_EQ(r->params.option, RulingOption::kOutOfTurnBinding);
  EXPECT_EQ(OpsOf(t.st, r->first_op, r->end_op),
            (std::vector<OpType>{OpType::kRuling, OpType::kOutOfTurn}));
  ASSERT_EQ(r->chips.size(), 1u);
  EXPECT_EQ(r->chips[0], (StackChange{1, -400, 400}));
  EXPECT_EQ(r->to_act, 3);
  EXPECT_EQ(Total(t.st), total);
  const size_t at = t.st.log.size();
  Act(t.st, 3, K::kCall, 100);
  // Seat 1's turn: the completion stands without a new action.
  EXPECT_EQ(OpsOf(t.st, at, at + 2), (std::vector<OpType>{OpType::kCall, OpType::kComplete}));
  EXPECT_EQ(t.st.log[at + 1].seat, 1);
  EXPECT_EQ(t.st.log[at + 1].amount, 400);
  EXPECT_EQ(t.st.log[at + 1].rule_id, "STUD-IRR-WRONG-1");
  EXPECT_EQ(t.st.seats[1].street_bet, 400);
  EXPECT_EQ(t.st.seats[1].stack, stack1 - 400);
  EXPECT_EQ(ToAct(t.st), 2);
  EXPECT_EQ(Total(t.st), total);
  ExpectReplays(t.st);
}

// Alternative out_of_turn_binding: seat 3 completes, so the action to seat 1
// changed; its chips are taken back and it acts anew.
TEST(OutOfTurn, STUD_IRR_WRONG_1_BindingTakenBackWhenActionChanged) {
  LiveTable t = Live(/*binding=*/true);
  Act(t.st, 2, K::kBringIn, 100);
  const Chips stack1 = t.st.seats[1].stack;
  ASSERT_THAT(t.Rule(kCompleteBySeat1), IsOk());
  const size_t at = t.st.log.size();
  Act(t.st, 3, K::kComplete, 400);
  EXPECT_EQ(OpsOf(t.st, at, at + 2), (std::vector<OpType>{OpType::kComplete, OpType::kReturnAnte}));
  EXPECT_EQ(t.st.log[at + 1].amount, 400);
  EXPECT_EQ(t.st.seats[1].stack, stack1);
  EXPECT_EQ(ToAct(t.st), 1);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kFold, K::kCall, K::kRaise}));
  ExpectReplays(t.st);
}

// Alternative out_of_turn_binding: the turn reaches the seat through another
// ruling (seat 3 absent, its hand killed); the call stands.
TEST(OutOfTurn, STUD_IRR_WRONG_1_BindingStandsWhenTurnComesThroughARuling) {
  LiveTable t = Live(/*binding=*/true);
  Act(t.st, 2, K::kBringIn, 100);
  const Chips total = Total(t.st);
  ASSERT_THAT(t.Rule({.kind = IrregularityKind::kActionOutOfTurn,
                      .seat = 1,
                      .action = K::kCall,
                      .amount_to = 100}),
              IsOk());
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kAbsentPlayer, .seat = 3});
  ASSERT_THAT(r, IsOk());
  // Seat 3 was killed and the turn came to seat 1: its call stands and the
  // round is over.
  EXPECT_EQ(
      OpsOf(t.st, r->first_op, r->first_op + 4),
      (std::vector<OpType>{OpType::kRuling, OpType::kKill, OpType::kCall, OpType::kStreetEnd}));
  EXPECT_EQ(t.st.log[r->first_op + 2].rule_id, "STUD-IRR-WRONG-1");
  EXPECT_EQ(t.st.seats[1].committed, t.st.seats[2].committed);
  EXPECT_EQ(t.st.street, Street::kFourth);
  EXPECT_EQ(t.st.phase, Phase::kAwaitingDeal);
  t.DealStreet();
  Act(t.st, ToAct(t.st), K::kBet, 400);
  Act(t.st, ToAct(t.st), K::kFold);
  EXPECT_EQ(t.st.phase, Phase::kComplete);
  EXPECT_EQ(Total(t.st), total);
  ExpectReplays(t.st);
}

// A malformed or impossible report is refused and changes nothing.
TEST(OutOfTurn, STUD_IRR_WRONG_1_MalformedReportRefusedStateUnchanged) {
  LiveTable t = Live();
  Act(t.st, 2, K::kBringIn, 100);
  const HandState before = t.st;
  auto refused = [&](IrregularityReport r, absl::StatusCode code, const std::string& start) {
    absl::StatusOr<Ruling> got = t.Rule(r);
    ASSERT_THAT(got, ::testing::Not(IsOk()));
    EXPECT_THAT(got, StatusIs(code, ::testing::StartsWith(start)));
    EXPECT_TRUE(t.st == before);
  };
  IrregularityReport r = kCompleteBySeat1;
  r.amount_to = 20000;  // more than the stack
  refused(r, absl::StatusCode::kInvalidArgument, "report.amount_to");
  r = kCompleteBySeat1;
  r.seat = 9;
  refused(r, absl::StatusCode::kInvalidArgument, "report.seat");
  r = kCompleteBySeat1;
  r.next_acted = true;  // WRONG_OPENER's field, not read here
  refused(r, absl::StatusCode::kInvalidArgument, "report.next_acted");
  r = kCompleteBySeat1;
  r.action = K::kShow;
  refused(r, absl::StatusCode::kInvalidArgument, "report.action");
  r = kCompleteBySeat1;
  r.action = K::kCheck;  // a check puts in no chips
  refused(r, absl::StatusCode::kInvalidArgument, "report.amount_to");
  r = kCompleteBySeat1;
  r.seat = 3;  // seat 3 is to act: that is an ordinary action
  refused(r, absl::StatusCode::kFailedPrecondition, "STUD-IRR-WRONG-1");
  r = kCompleteBySeat1;
  r.action = K::kRaise;
  r.amount_to = 800;  // no raise before the completion [STUD-BRING-6]
  refused(r, absl::StatusCode::kFailedPrecondition, "STUD-IRR-WRONG-1");
  Act(t.st, 3, K::kFold);
  const HandState folded = t.st;
  absl::StatusOr<Ruling> got = t.Rule({.kind = IrregularityKind::kActionOutOfTurn,
                                       .seat = 3,
                                       .action = K::kCall,
                                       .amount_to = 100});
  EXPECT_THAT(got, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_TRUE(t.st == folded);
}

}  // namespace
}  // namespace stud
