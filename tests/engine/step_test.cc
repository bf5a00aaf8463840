// ApplyStep and Next (engine/step.h) answer a step as one value that agrees
// with the piecewise functions, over many random hands of both dealing modes.
#include "engine/step.h"

#include <random>

#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using ::stud::testing::IsOk;

TEST(Step, ApplyStepAgreesWithApplyAndNextWithLegalActions) {
  std::mt19937_64 rng(77);
  int deals = 0, bets = 0;
  for (int hand = 0; hand < 300; ++hand) {
    HandConfig config = testing::RandomConfig(Variant::kStud, rng, testing::RandomOptions::kVaried);
    const std::vector<Card> deck = config.deck;
    if (hand % 2 == 1) {
      config.deal_source = DealSource::kReported;
      config.deck.clear();
      config.recycle_order.clear();
    }
    HandState st = *NewHand(config);
    size_t next_card = 0;
    while (st.phase != Phase::kComplete) {
      const NextStep next = Next(st);
      ASSERT_EQ(next.to_act, ToAct(st));
      ASSERT_EQ(next.deal.has_value(), st.phase == Phase::kAwaitingDeal);
      if (next.deal.has_value()) {
        std::vector<LegalAction> expected = LegalActions(st, next.deal->seat);
        if (next.deal->seat != kBoardSeat) {
          for (const LegalAction& a : LegalActions(st, kBoardSeat)) expected.push_back(a);
        }
        ASSERT_EQ(std::vector<LegalAction>(next.legal.begin(), next.legal.end()), expected);
        ++deals;
      } else {
        ASSERT_EQ(std::vector<LegalAction>(next.legal.begin(), next.legal.end()),
                  LegalActions(st, next.to_act));
        ++bets;
      }
      Action a;
      ASSERT_NO_FATAL_FAILURE(testing::RandomLegalStep(st, deck, &next_card, rng, &a));
      HandState piecewise = st;
      ASSERT_THAT(Apply(piecewise, a), IsOk());
      const size_t before = st.log.size();
      absl::StatusOr<Step> step = ApplyStep(st, a);
      ASSERT_THAT(step, IsOk());
      ASSERT_EQ(step->first_op, before);
      ASSERT_FALSE(step->ruling.has_value());
      ASSERT_TRUE(st == piecewise);
      ASSERT_EQ(step->next.legal, Next(st).legal);
    }
    ASSERT_TRUE(Next(st).legal.empty());
  }
  EXPECT_GT(deals, 1000);
  EXPECT_GT(bets, 1000);
}

TEST(Step, ACardDealtBeforeTheBettingIsOverComesBackAsARuling) {
  std::mt19937_64 rng(5);
  HandConfig config = testing::RandomConfig(Variant::kStud, rng, testing::RandomOptions::kDefaults);
  const std::vector<Card> deck = config.deck;
  config.deal_source = DealSource::kReported;
  config.deck.clear();
  config.recycle_order.clear();
  HandState st = *NewHand(config);
  size_t next_card = 0;
  while (st.phase == Phase::kAwaitingDeal) {
    Action a;
    ASSERT_NO_FATAL_FAILURE(testing::RandomLegalStep(st, deck, &next_card, rng, &a));
    ASSERT_THAT(Apply(st, a), IsOk());
  }
  ASSERT_EQ(st.phase, Phase::kBetting);
  Card unseen;
  for (Card c : deck) {
    if (!st.seen.Contains(c)) {
      unseen = c;
      break;
    }
  }
  const size_t before = st.log.size();
  absl::StatusOr<Step> step =
      ApplyStep(st, Action{.kind = ActionKind::kDeal, .seat = 1, .card = unseen, .face_up = true});
  ASSERT_THAT(step, IsOk());
  ASSERT_TRUE(step->ruling.has_value());
  EXPECT_EQ(step->ruling->rule_id, RuleId::kIrrPrem1);
  EXPECT_EQ(step->first_op, before);
  EXPECT_GT(st.log.size(), before);
}

}  // namespace
}  // namespace stud
