// Burn errors (STUD-IRR-BURN-1, -2), premature cards (STUD-IRR-PREM-1, -2) and
// deal reports the engine cannot rule (wrong seat) in LIVE dealing.
#include "engine/irregularities.h"
#include "engine/refusal.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// Table(), kHands, PlayThird, PlayToBettingOn: tests/testing/live.h.

// STUD-IRR-BURN-1
TEST(Dealing, STUD_IRR_BURN_1_MissedBurnCardsPutBackInSequence) {
  LiveTable t = Table();
  PlayToBettingOn(t, Street::kFourth);  // dealt 9s, Jh, Td with no burn
  const int burns = t.st.burn_count;
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kBurnError,
                                     .street = Street::kFourth,
                                     .has_card = true,
                                     .card = C("9s"),
                                     .burn_delta = -1,
                                     .moves = {{1, C("Jh")}, {2, C("Td")}, {3, C("Ks")}}});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-BURN-1");
  EXPECT_EQ(r->decision, Decision::kCardsCorrected);
  EXPECT_EQ(t.st.seats[1].cards[3].card, C("Jh"));
  EXPECT_EQ(t.st.seats[2].cards[3].card, C("Td"));
  EXPECT_EQ(t.st.seats[3].cards[3].card, C("Ks"));
  EXPECT_EQ(t.st.burns, std::vector<Card>{C("9s")}) << "the misplaced card is the burn, known";
  EXPECT_EQ(t.st.burn_count, burns - 1);
  EXPECT_EQ(ToAct(t.st), 3) << "Kh Ks is now high and opens";
  EXPECT_TRUE(t.st.open_pair);
  EXPECT_TRUE(CardsUnique(t.st));
  ExpectReplays(t.st);
}

// STUD-IRR-BURN-2
TEST(Dealing, STUD_IRR_BURN_2_FinalCardSeenIsKeptOthersCorrected) {
  LiveTable t = Table();
  PlayToBettingOn(t, Street::kSeventh);
  // Seat 1 looked at its final card; seat 2's is corrected.
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kBurnError,
                                     .street = Street::kSeventh,
                                     .burn_delta = 1,
                                     .moves = {{2, C("Ks")}},
                                     .seats = {1}});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-BURN-2");
  EXPECT_EQ(t.st.seats[1].cards[6].card, C("2h"));
  EXPECT_EQ(t.st.seats[2].cards[6].card, C("Ks"));
  // Moving a card of a seat that must keep it is refused.
  const HandState before = t.st;
  r = t.Rule({.kind = IrregularityKind::kBurnError,
              .street = Street::kSeventh,
              .burn_delta = 1,
              .moves = {{1, C("Kc")}},
              .seats = {1}});
  EXPECT_EQ(RuleIdOf(r.status()), "STUD-IRR-BURN-2");
  EXPECT_TRUE(t.st == before);
  ExpectReplays(t.st);
}

// STUD-IRR-BURN-2
TEST(Dealing, STUD_IRR_BURN_2_AllStandAlternative) {
  Options o = ProfileDefaults(Profile::kCash);
  o.final_burn_error = FinalBurnError::kAllStand;
  LiveTable t = Table(o);
  PlayToBettingOn(t, Street::kSeventh);
  absl::StatusOr<Ruling> r =
      t.Rule({.kind = IrregularityKind::kBurnError, .street = Street::kSeventh, .burn_delta = 1});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kCardsStand);
  EXPECT_EQ(r->params.option, RulingOption::kFinalBurnAllStand);
  EXPECT_EQ(t.st.seats[2].cards[6].card, C("5s"));
}

// STUD-IRR-PREM-1
TEST(Dealing, STUD_IRR_PREM_1_EarlyCardsOutThenOneMorePerPlayer) {
  LiveTable t = Table();
  t.DealStreet();
  Act(t.st, 2, K::kBringIn, 100);
  // The dealer burns and deals seat 1's 4th-street card before seat 3 and 1 act.
  absl::Status s = Apply(t.st, {.kind = K::kDeal, .seat = 1, .card = C("9s"), .face_up = true});
  ASSERT_THAT(s, IsOk());
  t.Skip(1);
  EXPECT_EQ(t.st.reports.back().kind, IrregularityKind::kPrematureDeal);
  EXPECT_EQ(t.st.aside, std::vector<Card>{C("9s")});
  EXPECT_EQ(t.st.seats[1].num_cards, 3);
  EXPECT_EQ(t.st.burn_count, 1);
  EXPECT_EQ(ToAct(t.st), 3) << "the betting goes on";
  Act(t.st, 3, K::kCall, 100);
  Act(t.st, 1, K::kCall, 100);
  // Three players still in: three more cards out, then the burn (reported,
  // or implied by the first card).
  EXPECT_EQ(t.st.burn_count, 1 + 3);
  EXPECT_EQ(NextDeal(t.st).step, DealStep::kBurn);
  int aside_ops = 0;
  for (const Operation& op : t.st.log) aside_ops += op.type == OpType::kAside ? 1 : 0;
  EXPECT_EQ(aside_ops, 4);
  t.DealStreet();
  EXPECT_EQ(t.st.seats[1].cards[3].card, C("9d"));
  EXPECT_TRUE(CardsUnique(t.st));
  ExpectReplays(t.st);
}

// STUD-IRR-PREM-2
TEST(Dealing, STUD_IRR_PREM_2_PlayerKeepsEarlyFinalCardNoBetOnSixth) {
  LiveTable t = Table();
  PlayToBettingOn(t, Street::kSixth);
  ASSERT_EQ(ToAct(t.st), 1);
  absl::StatusOr<Ruling> r = t.Rule({.kind = IrregularityKind::kPrematureDeal,
                                     .seat = 1,
                                     .street = Street::kSeventh,
                                     .has_card = true,
                                     .card = C("2h")});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-PREM-2");
  EXPECT_EQ(r->decision, Decision::kPlayerKeepsCard);
  EXPECT_EQ(t.st.seats[1].num_cards, 7);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kCheck, K::kFold}));
  Refused(t.st, 1, K::kBet, 800, "STUD-IRR-PREM-2");
  Act(t.st, 1, K::kCheck);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kCheck, K::kFold, K::kBet}));
  Act(t.st, 2, K::kBet, 800);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 3)), (std::vector<K>{K::kFold, K::kCall, K::kRaise}));
  Act(t.st, 3, K::kCall, 800);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 1)), (std::vector<K>{K::kFold, K::kCall}));
  Act(t.st, 1, K::kCall, 800);
  ASSERT_EQ(t.st.street, Street::kSeventh);
  t.Skip(1);
  EXPECT_EQ(NextDeal(t.st).seat, 2) << "seat 1 gets no further card";
  t.DealStreet();
  EXPECT_EQ(t.st.seats[1].num_cards, 7);
  EXPECT_TRUE(CardsUnique(t.st));
  ExpectReplays(t.st);
}

// STUD-IRR-PREM-2
TEST(Dealing, STUD_IRR_PREM_2_AllPlayersAlternative) {
  Options o = ProfileDefaults(Profile::kCash);
  o.premature_seventh = PrematureSeventh::kAllPlayers;
  LiveTable t = Table(o);
  PlayToBettingOn(t, Street::kSixth);
  ASSERT_THAT(t.Rule({.kind = IrregularityKind::kPrematureDeal,
                      .seat = 1,
                      .street = Street::kSeventh,
                      .has_card = true,
                      .card = C("2h")}),
              IsOk());
  Act(t.st, 1, K::kCheck);
  EXPECT_EQ(KindsOf(LegalActions(t.st, 2)), (std::vector<K>{K::kCheck, K::kFold}));
  Refused(t.st, 2, K::kBet, 800, "STUD-IRR-PREM-2");
}

// STUD-IRR-BURN-1: a card reported to the wrong seat is refused with a pointer.
TEST(Dealing, STUD_IRR_BURN_1_WrongSeatDealPointsToTheReport) {
  LiveTable t = Table();
  const HandState before = t.st;
  absl::Status s = Apply(t.st, {.kind = K::kDeal, .seat = 2, .card = C("4c"), .face_up = false});
  EXPECT_EQ(RuleIdOf(s), "STUD-DEAL-1");
  // The refusal points to a BURN_ERROR report: the card went to another seat.
  const RefusalFacts facts = RefusalOf(s).value_or(RefusalFacts{});
  EXPECT_EQ(facts.what, Refusal::kWrongDeal) << s;
  EXPECT_NE(facts.seat, facts.other_seat);
  EXPECT_TRUE(t.st == before);
}

}  // namespace
}  // namespace stud
