// A seat skipped on a street in LIVE dealing (SKIPPED_SEAT): the hand goes on
// with that seat short a card, and the ruling when the table finds it
// (STUD-IRR-BURN-1 before anyone acts on the street, STUD-IRR-CARDS-1 later
// and at the showdown).
#include "absl/strings/match.h"
#include "engine/irregularities.h"
#include "engine/refusal.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// Table() and PlayThird: tests/testing/live.h. When seat 1 is skipped its
// 4th-street card (9s) goes to seat 2; the lists hold what each seat actually
// receives.

IrregularityReport Skipped(int seat, Street street) {
  return {.kind = IrregularityKind::kSkippedSeat, .seat = seat, .street = street};
}

// Seat 1 is skipped on 4th street: the deal goes on to seats 2 and 3.
void SkipSeatOneOnFourth(LiveTable& t) {
  PlayThird(t);
  ASSERT_EQ(NextDeal(t.st).seat, 1);
  absl::StatusOr<Ruling> r = t.Rule(Skipped(1, Street::kFourth));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-CARDS-1");
  EXPECT_EQ(r->decision, Decision::kPlaysShort);
  t.Skip(1);
  t.DealStreet();
}

// STUD-IRR-CARDS-1
TEST(Skipped, STUD_IRR_CARDS_1_SkippedSeatPlaysShortAndIsDeadAtShowdown) {
  LiveTable t = Table();
  SkipSeatOneOnFourth(t);
  ASSERT_EQ(t.st.phase, Phase::kBetting);
  EXPECT_EQ(t.st.seats[1].num_cards, 3);
  EXPECT_EQ(ToAct(t.st), 3) << "boards use the up cards each seat has: Kh Td opens";
  const Chips total = StartingTotal(t.st);
  while (t.st.phase != Phase::kShowdown) {
    if (t.st.phase == Phase::kAwaitingDeal) {
      t.DealStreet();
    } else {
      CheckRound(t.st);
    }
  }
  EXPECT_EQ(t.st.seats[1].num_cards, 6);
  // Found at the showdown: short a 4th-street card, not only the 7th: dead.
  absl::StatusOr<Ruling> r = t.Rule(Skipped(1, Street::kFourth));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-CARDS-1");
  EXPECT_EQ(r->decision, Decision::kHandKilled);
  EXPECT_EQ(r->killed, std::vector<int>{1});
  EXPECT_FALSE(t.st.seats[1].live());
  EXPECT_EQ(r->params.count, 6);  // the cards it holds, for the explanation
  EXPECT_EQ(r->params.street, Street::kFourth);
  EXPECT_EQ(TotalChips(t.st), total);
  EXPECT_TRUE(CardsUnique(t.st));
  ExpectReplays(t.st);
}

// STUD-IRR-CARDS-1: a WRONG_CARD_COUNT report of the same hand rules the same:
// six cards, but not short only the 7th card, is dead.
TEST(Skipped, STUD_IRR_CARDS_1_WrongCardCountOfSkippedSeatIsDead) {
  LiveTable t = Table();
  SkipSeatOneOnFourth(t);
  while (t.st.phase != Phase::kShowdown) {
    if (t.st.phase == Phase::kAwaitingDeal) {
      t.DealStreet();
    } else {
      CheckRound(t.st);
    }
  }
  absl::StatusOr<Ruling> r =
      t.Rule({.kind = IrregularityKind::kWrongCardCount, .seat = 1, .card_count = 6});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandKilled);
  EXPECT_FALSE(t.st.seats[1].live());
}

// STUD-IRR-CARDS-1: nobody reports it, but the engine knows the hand is short
// of a 4th-street card: at the settlement it is dead and cannot win.
TEST(Skipped, STUD_IRR_CARDS_1_UnreportedShortHandCannotWinAtShowdown) {
  LiveTable t(Variant::kStud, "$4-$8", {10000, 10000, 10000},
              {"Ad Ah 7c 9s As Qc 2h", "4c 5d 3c Jh 8d 4h 5s", "3d 3h Kh Td 6c 6d 2s"});
  SkipSeatOneOnFourth(t);
  const Chips total = StartingTotal(t.st);
  while (t.st.phase != Phase::kComplete) {
    if (t.st.phase == Phase::kAwaitingDeal) {
      t.DealStreet();
    } else if (t.st.phase == Phase::kShowdown) {
      Act(t.st, ToAct(t.st), K::kShow);
    } else {
      CheckRound(t.st);
    }
  }
  EXPECT_FALSE(t.st.seats[1].live()) << "trip aces in six cards, short a 4th-street card";
  bool killed = false;
  for (const Operation& op : t.st.log) {
    killed =
        killed || (op.type == OpType::kKill && op.seat == 1 && op.rule_id == "STUD-IRR-CARDS-1");
    EXPECT_FALSE(op.type == OpType::kAward && op.seat == 1);
  }
  EXPECT_TRUE(killed);
  EXPECT_EQ(PotTotal(t.st), 0);
  EXPECT_EQ(TotalChips(t.st), total);
  ExpectReplays(t.st);
}

// STUD-IRR-CARDS-1 (PLAYER_OPTION_ANY_SHORT)
TEST(Skipped, STUD_IRR_CARDS_1_AnyShortOptionPlayerDeclaresLive) {
  Options o = ProfileDefaults(Profile::kCash);
  o.short_hand = ShortHand::kPlayerOptionAnyShort;
  LiveTable t = Table(o);
  SkipSeatOneOnFourth(t);
  while (t.st.phase != Phase::kShowdown) {
    if (t.st.phase == Phase::kAwaitingDeal) {
      t.DealStreet();
    } else {
      CheckRound(t.st);
    }
  }
  IrregularityReport found = Skipped(1, Street::kFourth);
  found.declare_live = true;
  absl::StatusOr<Ruling> r = t.Rule(found);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandLive);
  EXPECT_EQ(r->params.option, RulingOption::kShortHandAnyShort);
  EXPECT_TRUE(t.st.seats[1].live());
  ExpectReplays(t.st);
}

// STUD-IRR-CARDS-1: missing only the 7th card, the hand is live by default.
TEST(Skipped, STUD_IRR_CARDS_1_SkippedOnSeventhIsLiveAtShowdown) {
  LiveTable t = Table();
  PlayThird(t);
  while (t.st.street != Street::kSeventh) {
    t.DealStreet();
    CheckRound(t.st);
  }
  ASSERT_EQ(NextDeal(t.st).seat, 1);
  ASSERT_THAT(t.Rule(Skipped(1, Street::kSeventh)), IsOk());
  t.Skip(1);
  t.DealStreet();
  CheckRound(t.st);
  ASSERT_EQ(t.st.phase, Phase::kShowdown);
  absl::StatusOr<Ruling> r = t.Rule(Skipped(1, Street::kSeventh));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kHandLive);
  EXPECT_TRUE(t.st.seats[1].live());
  ExpectReplays(t.st);
}

// STUD-IRR-BURN-1: found before anyone acts on the street, the missed card is
// given and the opener decided again.
TEST(Skipped, STUD_IRR_BURN_1_FoundBeforeBettingMissedCardGiven) {
  LiveTable t = Table();
  SkipSeatOneOnFourth(t);
  ASSERT_EQ(ToAct(t.st), 3);
  IrregularityReport found = Skipped(1, Street::kFourth);
  found.has_card = true;
  found.card = C("As");
  absl::StatusOr<Ruling> r = t.Rule(found);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-BURN-1");
  EXPECT_EQ(r->decision, Decision::kCardsCorrected);
  ASSERT_EQ(t.st.seats[1].num_cards, 4);
  EXPECT_EQ(t.st.seats[1].cards[3].card, C("As"));
  EXPECT_TRUE(t.st.seats[1].cards[3].face_up);
  EXPECT_EQ(t.st.seats[1].cards[3].street, Street::kFourth);
  EXPECT_EQ(r->to_act, 1) << "7c As is now the high board";
  EXPECT_TRUE(CardsUnique(t.st));
  ExpectReplays(t.st);
}

// STUD-IRR-BURN-1 / STUD-IRR-CARDS-1: once a player acted on the street, the
// card is no longer given: the seat plays short.
TEST(Skipped, STUD_IRR_CARDS_1_FoundAfterActionSeatKeepsPlayingShort) {
  LiveTable t = Table();
  SkipSeatOneOnFourth(t);
  Act(t.st, 3, K::kCheck);
  IrregularityReport found = Skipped(1, Street::kFourth);
  found.has_card = true;
  found.card = C("As");
  const HandState before = t.st;
  absl::StatusOr<Ruling> r = t.Rule(found);
  EXPECT_EQ(RuleIdOf(r.status()), "STUD-IRR-BURN-1");
  EXPECT_TRUE(t.st == before);
  r = t.Rule(Skipped(1, Street::kFourth));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->decision, Decision::kPlaysShort);
  EXPECT_EQ(t.st.seats[1].num_cards, 3);
  EXPECT_EQ(ToAct(t.st), 1);
  ExpectReplays(t.st);
}

// Validation: the seat must really be short on a street already dealt.
TEST(Skipped, STUD_IRR_CARDS_1_ReportsThatDoNotFitAreRefused) {
  LiveTable t = Table();
  PlayThird(t);
  const HandState before = t.st;
  // Seat 2 is not the seat the dealer is at: it was not skipped (yet).
  EXPECT_EQ(RuleIdOf(t.Rule(Skipped(2, Street::kFourth)).status()), "STUD-IRR-CARDS-1");
  // A street not dealt yet.
  EXPECT_EQ(RuleIdOf(t.Rule(Skipped(1, Street::kFifth)).status()), "STUD-IRR-CARDS-1");
  // 3rd street: the starting hand is completed before the betting.
  EXPECT_EQ(RuleIdOf(t.Rule(Skipped(1, Street::kThird)).status()), "STUD-DEAL-1");
  absl::Status s = t.Rule(Skipped(0, Street::kFourth)).status();
  EXPECT_EQ(RefusalOf(s).value_or(RefusalFacts{}).field, "report.seat") << s;
  IrregularityReport bad = Skipped(1, Street::kFourth);
  bad.card_count = 6;
  s = t.Rule(bad).status();
  EXPECT_EQ(RefusalOf(s).value_or(RefusalFacts{}).field, "report.card_count") << s;
  bad = Skipped(1, Street::kFourth);
  bad.has_card = true;
  bad.card = C("2d");  // seat 1's own hole card
  s = t.Rule(bad).status();
  EXPECT_EQ(RuleIdOf(s), "STUD-DEAL-4") << s;
  EXPECT_TRUE(t.st == before);
  // Once skipped, seat 1 holds its 3rd-street cards only; seat 2 holds its
  // 4th-street card and cannot be reported skipped on it.
  t.Rule(Skipped(1, Street::kFourth)).IgnoreError();
  t.Skip(1);
  t.DealStreet();
  const HandState dealt = t.st;
  EXPECT_EQ(RuleIdOf(t.Rule(Skipped(2, Street::kFourth)).status()), "STUD-IRR-CARDS-1");
  EXPECT_TRUE(t.st == dealt);
}

// STUD-IRR-CARDS-1: a hand that can no longer reach five cards is dead at once.
TEST(Skipped, STUD_IRR_CARDS_1_ThirdMissingCardKillsTheHand) {
  LiveTable t(Variant::kStud, "$4-$8", {10000, 10000, 10000},
              {"2d Ah 7c", "4c 5d 3c Jh 8d 4h 5s 9s 9d Qc", "3d 3h Kh Td 6c 6d 2s"});
  PlayThird(t);
  for (Street s : {Street::kFourth, Street::kFifth, Street::kSixth}) {
    ASSERT_EQ(NextDeal(t.st).seat, 1);
    absl::StatusOr<Ruling> r = t.Rule(Skipped(1, s));
    ASSERT_THAT(r, IsOk());
    if (s == Street::kSixth) {
      EXPECT_EQ(r->decision, Decision::kHandKilled);
      EXPECT_EQ(r->killed, std::vector<int>{1});
    }
    t.DealStreet();
    if (t.st.phase == Phase::kBetting) CheckRound(t.st);
  }
  EXPECT_FALSE(t.st.seats[1].live());
  ExpectReplays(t.st);
}

// Engine-dealt hands: a dealer error that cannot happen.
TEST(Skipped, STUD_IRR_CARDS_1_RefusedWhenTheEngineDeals) {
  HandState st = Start(
      Config(Variant::kStud, *FindStakesPreset("$4-$8"), {1000, 1000}, {"2d Ah 7c", "4c 5d 3c"}));
  const HandState before = st;
  EXPECT_EQ(RuleIdOf(RuleIrregularity(st, Skipped(1, Street::kThird)).status()),
            "STUD-IRR-CARDS-1");
  EXPECT_TRUE(st == before);
}

}  // namespace
}  // namespace stud
