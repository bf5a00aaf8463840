// Irregularity reports are checked field by field before any ruling
// (catalogue section 11, STUD-ALLIN-4/5): a field the kind does not read must
// be at its default; seats, cards, streets and counts must fit the hand. A
// refused report leaves the state exactly as it was.
#include <string>

#include "engine/irregularities.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"
#include "text/refusal_text.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;
using IK = IrregularityKind;

// Table() ($4-$8, seat 2 brings in with its door 3c): tests/testing/live.h.

// Both hole cards of every seat dealt, the door cards not yet.
LiveTable HoleCardsDealt() {
  LiveTable t = Table();
  for (int i = 0; i < 6; ++i) t.DealOne();
  return t;
}

// 3rd street dealt and bet (bring-in, two calls), 4th street dealt.
LiveTable FourthDealt() {
  LiveTable t = Table();
  PlayThird(t);
  t.DealStreet();
  return t;
}

// Rules on `r` and expects a refusal with `code` whose message starts with
// `prefix` (after "RULE-ID: " for FAILED_PRECONDITION), and no change.
void ExpectRefused(HandState& st, const IrregularityReport& r, absl::StatusCode code,
                   const std::string& prefix, const std::string& rule_id = "") {
  const HandState before = st;
  absl::StatusOr<Ruling> ruling = RuleIrregularity(st, r);
  ASSERT_THAT(ruling, ::testing::Not(IsOk())) << "accepted: " << ruling->rule_id;
  const std::string want = rule_id.empty() ? prefix : rule_id + ": " + prefix;
  // The engine's status carries facts; their English words are the old message.
  EXPECT_THAT(text::Worded(ruling.status()), StatusIs(code, ::testing::StartsWith(want)));
  EXPECT_EQ(RuleIdOf(ruling.status()), rule_id);
  EXPECT_TRUE(st == before) << "a refused report changed the state";
}

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kPrecondition = absl::StatusCode::kFailedPrecondition;

// STUD-IRR-EXP-2
TEST(Validate, STUD_IRR_EXP_2_BothHolecardsReportRefusesForeignCards) {
  LiveTable t = HoleCardsDealt();  // seat 3 holds 3d 3h; seat 2 holds 4c 5d
  ExpectRefused(t.st, {.kind = IK::kBothHolecardsExposed, .seat = 3, .cards = Cards("3d 4c")},
                kInvalid, "report.cards[1]: 4c is not a card of seat 3");
}

// STUD-IRR-EXP-2
TEST(Validate, STUD_IRR_EXP_2_BothHolecardsReportRefusesDuplicateUndealtAndHugeLists) {
  LiveTable t = HoleCardsDealt();
  ExpectRefused(t.st, {.kind = IK::kBothHolecardsExposed, .seat = 3, .cards = Cards("3h 3h")},
                kInvalid, "report.cards[1]: 3h is named twice");
  // Td is seat 3's 4th-street card, not dealt yet.
  ExpectRefused(t.st, {.kind = IK::kBothHolecardsExposed, .seat = 3, .cards = Cards("Td 3h")},
                kInvalid, "report.cards[0]: Td is not a card of seat 3");
  ExpectRefused(t.st, {.kind = IK::kBothHolecardsExposed, .seat = 3, .cards = Cards("3d")},
                kInvalid, "report.cards: name both hole cards of seat 3 or none; got 1");
  IrregularityReport huge{.kind = IK::kBothHolecardsExposed, .seat = 3};
  huge.cards.assign(250000, C("3d"));
  ExpectRefused(t.st, huge, kInvalid,
                "report.cards: name both hole cards of seat 3 or none; got 250000");
  ExpectRefused(t.st,
                {.kind = IK::kBothHolecardsExposed, .seat = 3, .has_card = true, .card = C("3d")},
                kInvalid, "report.card: not read by this kind");
  ExpectRefused(t.st, {.kind = IK::kBothHolecardsExposed, .seat = 4}, kInvalid,
                "report.seat: must be 1..3");
}

// STUD-IRR-EXP-2: the real hole cards, in either order, are accepted.
TEST(Validate, STUD_IRR_EXP_2_BothHolecardsReportAcceptsTheSeatsHoleCards) {
  LiveTable t = HoleCardsDealt();
  absl::StatusOr<Ruling> r =
      t.Rule({.kind = IK::kBothHolecardsExposed, .seat = 3, .cards = Cards("3h 3d")});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandDeadAnteReturned);
  ExpectReplays(t.st);
}

// STUD-IRR-EXP-1: a report claiming to stand for a deal must be the one the
// deal stands for; a forged one would hand an undealt card to the seat.
TEST(Validate, STUD_IRR_EXP_1_ForgedDealReportRefused) {
  LiveTable t = HoleCardsDealt();  // the door cards are due, face up: regular
  ExpectRefused(t.st,
                {.kind = IK::kHolecardExposed,
                 .seat = 1,
                 .has_card = true,
                 .card = C("Kd"),
                 .from_deal = true},
                kInvalid, "report.from_deal: set only by the engine");
  ExpectRefused(t.st,
                {.kind = IK::kHolecardExposed,
                 .seat = 1,
                 .has_card = true,
                 .card = C("2d"),
                 .cards = Cards("2d")},
                kInvalid, "report.cards: not read by this kind");
}

// STUD-IRR-EXP-3, STUD-IRR-EXP-5
TEST(Validate, STUD_IRR_EXP_3_CardReportsRefuseUnreadFields) {
  LiveTable t = HoleCardsDealt();
  ExpectRefused(t.st,
                {.kind = IK::kCardOffTable,
                 .seat = 1,
                 .street = Street::kFifth,
                 .has_card = true,
                 .card = C("2d")},
                kInvalid, "report.street: not read by this kind");
  ExpectRefused(t.st,
                {.kind = IK::kFinalCardFaceUp,
                 .seat = 1,
                 .has_card = true,
                 .card = C("2d"),
                 .amount_to = 400},
                kInvalid, "report.amount_to: not read by this kind");
  ExpectRefused(t.st, {.kind = IK::kCardOffTable, .seat = 1, .has_card = true, .card = C("4c")},
                kInvalid, "report.card: 4c is not a card of seat 1");
}

// STUD-IRR-WRONG-1
TEST(Validate, STUD_IRR_WRONG_1_RefusesANonBettingActionAndAnImpossibleAmount) {
  LiveTable t = Table();
  t.DealStreet();
  ASSERT_EQ(ToAct(t.st), 2);  // seat 1 was wrongly designated
  ExpectRefused(t.st, {.kind = IK::kWrongOpener, .seat = 1, .action = K::kShow}, kInvalid,
                "report.action: a betting action");
  ExpectRefused(t.st,
                {.kind = IK::kWrongOpener, .seat = 1, .action = K::kBringIn, .amount_to = 250000},
                kInvalid, "report.amount_to: seat 1 can put in at most 9900");
}

// STUD-IRR-ABS-1, STUD-IRR-FOLD-1, STUD-IRR-FOLD-2
TEST(Validate, STUD_IRR_ABS_1_SeatOnlyKindsRefuseEveryOtherField) {
  LiveTable t = Table();
  t.DealStreet();
  ExpectRefused(t.st, {.kind = IK::kAbsentPlayer, .seat = 2, .has_card = true, .card = C("3c")},
                kInvalid, "report.card: not read by this kind");
  ExpectRefused(t.st, {.kind = IK::kCheckedOut, .seat = 2, .seats = {2}}, kInvalid,
                "report.seats: not read by this kind");
  ExpectRefused(t.st, {.kind = IK::kUpcardsPickedUp, .seat = 2, .card_count = 3}, kInvalid,
                "report.card_count: not read by this kind");
}

// STUD-IRR-BURN-1
TEST(Validate, STUD_IRR_BURN_1_RefusesASeatMovedTwiceAndUnboundedLists) {
  LiveTable t = FourthDealt();
  ExpectRefused(t.st,
                {.kind = IK::kBurnError,
                 .street = Street::kFourth,
                 .burn_delta = -1,
                 .moves = {{2, C("Td")}, {2, C("Ks")}}},
                kInvalid, "report.moves[1].seat: seat 2 is moved twice");
  IrregularityReport huge{.kind = IK::kBurnError, .street = Street::kFourth, .burn_delta = -1};
  huge.moves.assign(250000, {1, C("Ks")});
  ExpectRefused(t.st, huge, kInvalid, "report.moves: at most one per seat (3); got 250000");
  ExpectRefused(t.st,
                {.kind = IK::kBurnError, .street = Street::kFourth, .burn_delta = -1, .seats = {1}},
                kInvalid, "report.seats: only a final downcard is kept");
  ExpectRefused(t.st,
                {.kind = IK::kBurnError, .seat = 1, .street = Street::kFourth, .burn_delta = -1},
                kInvalid, "report.seat: not read by this kind");
}

// STUD-IRR-PREM-1
TEST(Validate, STUD_IRR_PREM_1_RefusesMoreCardsThanPlayersAndCardsInPlay) {
  LiveTable t = Table();
  t.DealStreet();
  Act(t.st, 2, K::kBringIn, 100);
  ExpectRefused(
      t.st, {.kind = IK::kPrematureDeal, .street = Street::kFourth, .cards = Cards("9s Jh Td Ks")},
      kInvalid, "report.cards: at most one early card per player still in the hand (3); got 4");
  ExpectRefused(t.st,
                {.kind = IK::kPrematureDeal, .street = Street::kFourth, .cards = Cards("9s 3c")},
                kPrecondition, "report.cards[1]: 3c is already in play", "STUD-DEAL-4");
  ExpectRefused(
      t.st,
      {.kind = IK::kPrematureDeal, .seat = 1, .street = Street::kFourth, .cards = Cards("9s")},
      kInvalid, "report.seat: only with report.card");
}

// STUD-IRR-CARDS-1, STUD-ALLIN-4
TEST(Validate, STUD_IRR_CARDS_1_CountAndTimeoutReportsRefuseUnreadFields) {
  LiveTable t = Table();
  t.DealStreet();
  ExpectRefused(t.st, {.kind = IK::kWrongCardCount, .seat = 2, .card_count = 8, .disconnect = true},
                kInvalid, "report.disconnect: not read by this kind");
  ExpectRefused(
      t.st, {.kind = IK::kTimeout, .seat = 2, .street = Street::kSeventh, .allowance_remaining = 1},
      kInvalid, "report.street: not read by this kind");
}

// STUD-IRR-CALL-1: only a seat that called can have called while beaten.
TEST(Validate, STUD_IRR_CALL_1_RefusesASeatThatNeverCalled) {
  LiveTable t = Table();
  t.DealStreet();
  Act(t.st, 2, K::kBringIn, 100);
  ExpectRefused(t.st, {.kind = IK::kCalledWhenBeaten, .seat = 3}, kPrecondition,
                "seat 3 has not called in this hand", "STUD-IRR-CALL-1");
}

// STUD-GAME-5: only a live hand with upcards can rearrange them.
TEST(Validate, STUD_GAME_5_RefusesAFoldedSeat) {
  LiveTable t = Table();
  t.DealStreet();
  Act(t.st, 2, K::kBringIn, 100);
  Act(t.st, 3, K::kFold);
  ExpectRefused(t.st, {.kind = IK::kUpcardsReordered, .seat = 3}, kPrecondition,
                "seat 3 has no live hand with upcards", "STUD-GAME-5");
}

}  // namespace
}  // namespace stud
