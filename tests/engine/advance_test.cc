// Advance, the one door into a hand (engine/advance.h): a table event gives
// the same step through every entry point, with the deal checks before the
// classification of a dealer's error.
#include "engine/advance.h"

#include "engine/internal.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// Table() and kHands: tests/testing/live.h (door cards 7c, 3c, Kh; seat 2
// brings in).
LiveTable AtSeventhDeal() {
  LiveTable t = Table();
  PlayToSeventhDeal(t);
  return t;
}

// STUD-DEAL-3 (with STUD-IRR-EXP-5): a final card reported face up where the
// 7th-street burn is due says the burn was made face down first. The burn is
// counted and logged before the ruling, by every entry point alike (the
// service's ApplyStep once skipped it: 46 operations and 3 burns).
TEST(Advance, STUD_DEAL_3_FinalCardFaceUpWhereTheBurnIsDueIsBurnedFirst) {
  LiveTable t = AtSeventhDeal();
  const ExpectedDeal e = NextDeal(t.st);
  ASSERT_EQ(e.step, DealStep::kBurn);
  ASSERT_FALSE(e.face_up);
  const Action a{.kind = K::kDeal, .seat = e.seat, .card = t.NextCardOf(e.seat), .face_up = true};
  HandState x = t.st, y = t.st, z = t.st;
  ASSERT_THAT(Apply(x, a), IsOk());
  absl::StatusOr<Step> sy = ApplyStep(y, a);
  ASSERT_THAT(sy, IsOk());
  absl::StatusOr<Step> sz = Advance(z, a);
  ASSERT_THAT(sz, IsOk());
  EXPECT_TRUE(x == y);
  EXPECT_TRUE(x == z);
  EXPECT_EQ(x.log.size(), 47u);
  EXPECT_EQ(x.burn_count, 4);
  EXPECT_EQ(x.version, t.st.version + 1);
  // The step: the implied burn, then the ruling on the face-up final card.
  ASSERT_TRUE(sz->ruling.has_value());
  EXPECT_EQ(sz->ruling->rule_id, RuleId::kIrrExp5);
  ASSERT_EQ(sz->first_op, t.st.log.size());
  EXPECT_EQ(z.log[sz->first_op].type, OpType::kBurn);
  EXPECT_EQ(z.log[sz->first_op].amount, 2);
  EXPECT_EQ(z.log[sz->first_op].rule_id, RuleId::kDeal3);
  EXPECT_EQ(z.log[sz->first_op + 1].type, OpType::kRuling);
  EXPECT_EQ(sz->ruling->first_op, sz->first_op + 1);
  EXPECT_EQ(sz->ruling->end_op, z.log.size());
  ExpectReplays(z);
}

// STUD-DECK-1: the deal checks come before the classification: with the
// reshuffle due, a hole card reported face up is refused, not ruled.
TEST(Advance, STUD_DECK_1_AReshuffleDueIsCheckedBeforeADealerErrorIsRuled) {
  // 8 seats to 7th street: the stub's last card is mixed with the burns first.
  HandConfig c;
  c.variant = Variant::kStud;
  c.stakes = *FindStakesPreset("$1-$2");
  c.num_seats = 8;
  for (int i = 1; i <= 8; ++i) c.starting_stacks[i] = 5000;
  c.deal_source = DealSource::kReported;
  HandState st = Start(c);
  auto next_card = [&] {
    for (int i = 0; i < kDeckSize; ++i) {
      if (!st.seen.Contains(Card::FromIndex(i))) return Card::FromIndex(i);
    }
    return Card();
  };
  while (st.street != Street::kSeventh || st.phase != Phase::kAwaitingDeal) {
    if (st.phase == Phase::kAwaitingDeal) {
      const ExpectedDeal e = NextDeal(st);
      ASSERT_THAT(
          Apply(st, {.kind = K::kDeal, .seat = e.seat, .card = next_card(), .face_up = e.face_up}),
          IsOk());
    } else {
      // The bring-in, then everyone calls or checks.
      const int seat = ToAct(st);
      ActionKind kind = ActionKind::kCheck;
      for (const LegalAction& l : LegalActions(st, seat)) {
        if (l.kind == K::kBringIn || l.kind == K::kCall) kind = l.kind;
      }
      ASSERT_NO_FATAL_FAILURE(Act(st, seat, kind));
    }
  }
  ASSERT_EQ(NextDeal(st).step, DealStep::kReshuffle);
  const HandState before = st;
  const Action a{.kind = K::kDeal, .seat = 1, .card = next_card(), .face_up = true};
  HandState y = st;
  EXPECT_EQ(RuleIdOf(Apply(st, a)), "STUD-DECK-1");
  EXPECT_EQ(RuleIdOf(ApplyStep(y, a).status()), "STUD-DECK-1");
  EXPECT_TRUE(st == before);
  EXPECT_TRUE(y == before);
}

// STUD-IRR-PREM-1: the burn before premature cards is counted and logged in
// the ruling, so the cards that left the deck and the log agree.
TEST(Advance, STUD_IRR_PREM_1_TheBurnBeforePrematureCardsIsLogged) {
  LiveTable t = Table();
  t.DealStreet();
  Act(t.st, 2, K::kBringIn, 100);
  const int burns = t.st.burn_count;
  const int stub = internal::LiveStub(t.st);
  absl::StatusOr<Step> s = Advance(t.st, Action{.kind = K::kDeal, .seat = 3, .card = C("Ks")});
  ASSERT_THAT(s, IsOk());
  ASSERT_TRUE(s->ruling.has_value());
  EXPECT_EQ(s->ruling->rule_id, RuleId::kIrrPrem1);
  EXPECT_EQ(t.st.burn_count, burns + 1);
  EXPECT_EQ(internal::LiveStub(t.st), stub - 2);  // the burn and the early card
  int logged_burns = 0;
  for (size_t i = s->first_op; i < t.st.log.size(); ++i) {
    const Operation& op = t.st.log[i];
    if (op.type == OpType::kBurn) {
      ++logged_burns;
      EXPECT_EQ(op.amount, 2);  // face down, not reported
      EXPECT_EQ(op.rule_id, RuleId::kDeal3);
    }
  }
  EXPECT_EQ(logged_burns, 1);
  ExpectReplays(t.st);
}

}  // namespace
}  // namespace stud
