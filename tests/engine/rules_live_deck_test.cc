// LIVE (reported) dealing: burn reports [STUD-DEAL-3, STUD-DEAL-4], the burn
// errors they reveal [STUD-IRR-BURN-1, -2], and running out of cards with the
// reshuffle or the common card reported by the table [STUD-DECK-1..3, -5].
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/internal.h"
#include "engine/refusal.h"
#include "engine/view.h"
#include "tests/testing/live.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// A hand-dealt table whose dealer takes the cards in index order (2c 2d 2h 2s
// 3c ...): every card dealt or burned is the first one not in play.
struct Dealer {
  HandState st;

  explicit Dealer(int seats, Options o = Options()) {
    HandConfig c;
    c.variant = Variant::kStud;
    c.stakes = *FindStakesPreset("$1-$2");
    c.options = o;
    c.num_seats = seats;
    for (int i = 1; i <= seats; ++i) c.starting_stacks[i] = 5000;
    c.deal_source = DealSource::kReported;
    st = Start(c);
  }
  Card NextCard() const {
    for (int i = 0; i < kDeckSize; ++i) {
      if (!st.seen.Contains(Card::FromIndex(i))) return Card::FromIndex(i);
    }
    return Card();
  }
  absl::Status Deal(Card c) {
    const ExpectedDeal e = NextDeal(st);
    return Apply(st, {.kind = K::kDeal, .seat = e.seat, .card = c, .face_up = e.face_up});
  }
  absl::Status Deal() { return Deal(NextCard()); }
  absl::Status Burn(Card c) { return Apply(st, {.kind = K::kBurn, .seat = kBoardSeat, .card = c}); }
  absl::Status Burn() { return Burn(NextCard()); }
  absl::Status Reshuffle() { return Apply(st, {.kind = K::kReshuffle, .seat = kBoardSeat}); }
  // Deals the street; burns are reported with their card.
  void DealStreet() {
    while (st.phase == Phase::kAwaitingDeal) {
      const DealStep step = NextDeal(st).step;
      absl::Status s = step == DealStep::kBurn        ? Burn()
                       : step == DealStep::kReshuffle ? Reshuffle()
                                                      : Deal();
      ASSERT_THAT(s, IsOk());
    }
  }
  // One betting round: the bring-in, `folder` folds (after a bet if needed),
  // everyone else calls or checks.
  void Bet(int folder = 0) {
    const Street s = st.street;
    bool bet = folder == 0;
    while (st.phase == Phase::kBetting && st.street == s) {
      const int seat = ToAct(st);
      const std::vector<LegalAction> legal = LegalActions(st, seat);
      auto find = [&](K k) -> const LegalAction* {
        for (const LegalAction& l : legal) {
          if (l.kind == k) return &l;
        }
        return nullptr;
      };
      const LegalAction* pick = find(K::kCheck) ? find(K::kCheck) : find(K::kCall);
      if (st.bring_in_due) {
        pick = find(K::kBringIn);
      } else if (seat == folder && find(K::kFold)) {
        pick = find(K::kFold);
      } else if (!bet && find(K::kBet)) {
        pick = find(K::kBet);
        bet = true;
      }
      ASSERT_NE(pick, nullptr);
      Act(st, seat, pick->kind, pick->amount_to);
    }
  }
};

std::vector<const Operation*> Ops(const HandState& st, OpType t) {
  std::vector<const Operation*> out;
  for (const Operation& op : st.log) {
    if (op.type == t) out.push_back(&op);
  }
  return out;
}

// STUD-DEAL-3
TEST(LiveDeck, STUD_DEAL_3_BurnsAreReportedCheckedAndLogged) {
  Dealer d(3);
  // No burn before 3rd street by default.
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kCard);
  HandState before = d.st;
  EXPECT_EQ(RuleIdOf(d.Burn()), "STUD-DEAL-3");
  EXPECT_TRUE(d.st == before);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  // 4th street: the burn is due, and the dealer (seat 0) may report it.
  const ExpectedDeal e = NextDeal(d.st);
  EXPECT_EQ(e.step, DealStep::kBurn);
  EXPECT_EQ(e.seat, 1) << "the card after the burn goes to seat 1";
  EXPECT_EQ(KindsOf(LegalActions(d.st, kBoardSeat)), std::vector<K>{K::kBurn});
  const Card burned = d.NextCard();
  ASSERT_THAT(d.Burn(burned), IsOk());
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kCard);
  ASSERT_EQ(Ops(d.st, OpType::kBurn).size(), 1u);
  const Operation burn = *Ops(d.st, OpType::kBurn)[0];
  EXPECT_EQ(burn.card, burned);
  EXPECT_EQ(burn.street, Street::kFourth);
  EXPECT_EQ(burn.rule_id, "STUD-DEAL-3");
  EXPECT_EQ(d.st.burns, std::vector<Card>{burned});
  // Hidden in every view: a burn card is not shown.
  for (int viewer = 0; viewer <= 3; ++viewer) {
    bool hidden = false;
    EXPECT_EQ(RedactFor(d.st, burn, viewer, &hidden).card, Card());
    EXPECT_TRUE(hidden);
  }
  // A second burn is a dealer error: the BURN_ERROR report handles it.
  before = d.st;
  EXPECT_EQ(RuleIdOf(d.Burn()), "STUD-IRR-BURN-1");
  EXPECT_TRUE(d.st == before);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  // 5th street: not reported; the first card's report means a face-down burn.
  const int unseen = d.st.burn_count;
  ASSERT_THAT(d.Deal(), IsOk());
  EXPECT_EQ(d.st.burn_count, unseen + 1);
  EXPECT_EQ(Ops(d.st, OpType::kBurn).back()->amount, 2);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  // 6th street: burned face down and reported without its card.
  ASSERT_THAT(Apply(d.st, {.kind = K::kBurn, .seat = kBoardSeat, .unseen = true}), IsOk());
  EXPECT_EQ(Ops(d.st, OpType::kBurn).back()->amount, 1);
  EXPECT_EQ(d.st.burn_count, unseen + 2);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  // 7th street: a burn the dealer showed is public; an extra one is BURN-2.
  ASSERT_THAT(
      Apply(d.st, {.kind = K::kBurn, .seat = kBoardSeat, .card = d.NextCard(), .face_up = true}),
      IsOk());
  bool hidden = true;
  RedactFor(d.st, *Ops(d.st, OpType::kBurn).back(), 2, &hidden);
  EXPECT_FALSE(hidden);
  EXPECT_EQ(RuleIdOf(d.Burn()), "STUD-IRR-BURN-2");
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  EXPECT_EQ(Ops(d.st, OpType::kBurn).size(), 4u);
  EXPECT_TRUE(CardsUnique(d.st));
  ExpectReplays(d.st);
}

// STUD-DEAL-3
TEST(LiveDeck, STUD_DEAL_3_BurnBeforeThirdOptionAndMalformedBurns) {
  Options o;
  o.burn_before_third = true;
  Dealer d(2, o);
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kBurn);
  EXPECT_EQ(Apply(d.st, {.kind = K::kBurn, .seat = 1, .card = d.NextCard()}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Apply(d.st, {.kind = K::kBurn, .seat = 0, .face_up = true, .unseen = true}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RuleIdOf(d.Reshuffle()), "STUD-DECK-1");
  ASSERT_THAT(d.Burn(), IsOk());
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  EXPECT_EQ(Ops(d.st, OpType::kBurn).size(), 1u);
  EXPECT_EQ(Ops(d.st, OpType::kBurn)[0]->street, Street::kThird);
  ExpectReplays(d.st);
}

// STUD-DEAL-4
TEST(LiveDeck, STUD_DEAL_4_BurnedCardIsNeverDealt) {
  Dealer d(3);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  // Burning a card already dealt is refused.
  const Card dealt = d.st.seats[1].cards[0].card;
  EXPECT_EQ(RuleIdOf(d.Burn(dealt)), "STUD-DEAL-4");
  const Card burned = d.NextCard();
  ASSERT_THAT(d.Burn(burned), IsOk());
  const HandState before = d.st;
  const absl::Status s = d.Deal(burned);
  EXPECT_EQ(RuleIdOf(s), "STUD-DEAL-4");
  EXPECT_EQ(RefusalOf(s).value_or(RefusalFacts{}).what, Refusal::kCardBurned) << s;
  EXPECT_TRUE(d.st == before);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  // Still refused on a later street.
  EXPECT_EQ(RuleIdOf(d.Deal(burned)), "STUD-DEAL-4");
}

// STUD-IRR-BURN-1
TEST(LiveDeck, STUD_IRR_BURN_1_MissedBurnIsTheBurnErrorReport) {
  // A deal report where a burn is due counts a face-down burn; when the dealer
  // really missed it, the BURN_ERROR report (burn_delta -1) takes it back.
  Dealer d(3);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet());
  ASSERT_EQ(NextDeal(d.st).step, DealStep::kBurn);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());  // reports the burn
  const HandState burned = d.st;
  Dealer m(3);
  ASSERT_NO_FATAL_FAILURE(m.DealStreet());
  ASSERT_NO_FATAL_FAILURE(m.Bet());
  while (m.st.phase == Phase::kAwaitingDeal) ASSERT_THAT(m.Deal(), IsOk());
  EXPECT_EQ(m.st.burn_count, 1);
  const Card c4 = m.st.seats[1].cards[3].card;
  absl::StatusOr<Ruling> r = RuleIrregularity(m.st, {.kind = IrregularityKind::kBurnError,
                                                     .street = Street::kFourth,
                                                     .has_card = true,
                                                     .card = c4,
                                                     .burn_delta = -1,
                                                     .moves = {{1, m.st.seats[2].cards[3].card},
                                                               {2, m.st.seats[3].cards[3].card},
                                                               {3, m.NextCard()}}});
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rule_id, "STUD-IRR-BURN-1");
  EXPECT_EQ(m.st.burn_count, 0);
  EXPECT_EQ(m.st.burns, std::vector<Card>{c4});
  EXPECT_EQ(internal::LiveStub(m.st), internal::LiveStub(burned));
  ExpectReplays(m.st);
}

// STUD-DECK-1
TEST(LiveDeck, STUD_DECK_1_EightSeatsReshuffleReportedThenDealtFrom) {
  // Seat 8 folds on 3rd street, seat 2 on 5th: 6 players on 7th street find 5
  // cards in the stub. Burn (4 left), seats 1, 3, 4 (1 left), reshuffle the
  // last card with the 4 burns, burn again, seats 5, 6, 7 from the pile.
  Dealer d(8);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet(/*folder=*/8));
  for (int folder : {0, 2, 0}) {
    ASSERT_NO_FATAL_FAILURE(d.DealStreet());
    ASSERT_NO_FATAL_FAILURE(d.Bet(folder));
  }
  ASSERT_EQ(d.st.street, Street::kSeventh);
  ASSERT_EQ(d.st.phase, Phase::kAwaitingDeal);
  EXPECT_FALSE(d.st.street_uses_common);
  EXPECT_EQ(internal::LiveStub(d.st), 5);
  EXPECT_EQ(RuleIdOf(d.Reshuffle()), "STUD-DECK-1") << "not yet: the stub has 5 cards";
  const std::vector<Card> old_burns = d.st.burns;
  ASSERT_EQ(old_burns.size(), 3u);
  ASSERT_THAT(d.Burn(), IsOk());
  for (int k = 0; k < 3; ++k) ASSERT_THAT(d.Deal(), IsOk());
  EXPECT_EQ(internal::LiveStub(d.st), 1);
  const ExpectedDeal e = NextDeal(d.st);
  EXPECT_EQ(e.step, DealStep::kReshuffle);
  EXPECT_EQ(e.seat, 5);
  EXPECT_EQ(KindsOf(LegalActions(d.st, kBoardSeat)), std::vector<K>{K::kReshuffle});
  EXPECT_TRUE(LegalActions(d.st, 5).empty());
  // Before the reshuffle a burned card cannot be dealt, nor the next card.
  HandState before = d.st;
  EXPECT_EQ(RuleIdOf(d.Deal(old_burns[0])), "STUD-DEAL-4");
  EXPECT_EQ(RuleIdOf(d.Deal()), "STUD-DECK-1");
  EXPECT_EQ(RuleIdOf(d.Burn()), "STUD-DECK-1");
  EXPECT_TRUE(d.st == before);
  ASSERT_THAT(d.Reshuffle(), IsOk());
  const Operation recycle = *Ops(d.st, OpType::kRecycle).back();
  EXPECT_EQ(recycle.amount, 5) << "the last stub card and the 4 burns";
  EXPECT_EQ(recycle.rule_id, "STUD-DECK-1");
  EXPECT_TRUE(d.st.burns.empty());
  // The default burns again, then deals from the pile: burned cards are back.
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kBurn);
  ASSERT_THAT(d.Burn(old_burns[0]), IsOk());
  ASSERT_THAT(d.Deal(old_burns[1]), IsOk());
  ASSERT_THAT(d.Deal(old_burns[2]), IsOk());
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  EXPECT_EQ(d.st.phase, Phase::kBetting);
  for (int seat : {1, 3, 4, 5, 6, 7}) EXPECT_EQ(d.st.seats[seat].num_cards, 7) << seat;
  EXPECT_EQ(d.st.seats[5].cards[6].card, old_burns[1]);
  EXPECT_FALSE(d.st.has_common);
  EXPECT_TRUE(CardsUnique(d.st));
  ExpectReplays(d.st);
}

// STUD-DECK-2
TEST(LiveDeck, STUD_DECK_2_SkipTheBurnWhenShortThenReshuffle) {
  Options o;
  o.deck_exhaustion = DeckExhaustion::kRecycleSkipBurnIfShort;
  Dealer d(8, o);
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  ASSERT_NO_FATAL_FAILURE(d.Bet(/*folder=*/8));
  for (int folder : {0, 2, 0}) {
    ASSERT_NO_FATAL_FAILURE(d.DealStreet());
    ASSERT_NO_FATAL_FAILURE(d.Bet(folder));
  }
  ASSERT_EQ(d.st.street, Street::kSeventh);
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kCard) << "5 cards for 6 players: no burn";
  EXPECT_EQ(RuleIdOf(d.Burn()), "STUD-DECK-2");
  for (int k = 0; k < 4; ++k) ASSERT_THAT(d.Deal(), IsOk());
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kReshuffle);
  ASSERT_THAT(d.Reshuffle(), IsOk());
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kCard) << "no burn after the reshuffle either";
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  EXPECT_EQ(d.st.phase, Phase::kBetting);
  ExpectReplays(d.st);
}

// STUD-DECK-1, STUD-DECK-5
TEST(LiveDeck, STUD_DECK_5_EightSeatsToSeventhGetTheReportedCommonCard) {
  Dealer d(8);
  for (int street = 3; street <= 6; ++street) {
    ASSERT_NO_FATAL_FAILURE(d.DealStreet());
    ASSERT_NO_FATAL_FAILURE(d.Bet());
  }
  ASSERT_EQ(d.st.street, Street::kSeventh);
  EXPECT_TRUE(d.st.street_uses_common);
  EXPECT_EQ(internal::LiveStub(d.st), 1);
  // The last stub card is first mixed with the 3 burns, then burn and turn up.
  ExpectedDeal e = NextDeal(d.st);
  EXPECT_EQ(e.step, DealStep::kReshuffle);
  EXPECT_EQ(e.seat, kBoardSeat);
  EXPECT_EQ(RuleIdOf(d.Deal()), "STUD-DECK-1");
  ASSERT_THAT(d.Reshuffle(), IsOk());
  EXPECT_EQ(Ops(d.st, OpType::kRecycle).back()->amount, 4);
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kBurn);
  ASSERT_THAT(d.Burn(), IsOk());
  e = NextDeal(d.st);
  EXPECT_EQ(e.step, DealStep::kCommonCard);
  EXPECT_EQ(e.seat, kBoardSeat);
  EXPECT_TRUE(e.face_up);
  EXPECT_EQ(RuleIdOf(d.Burn()), "STUD-IRR-BURN-2");
  const Card common = d.NextCard();
  ASSERT_THAT(d.Deal(common), IsOk());
  ASSERT_EQ(Ops(d.st, OpType::kCommonCard).size(), 1u);
  EXPECT_EQ(Ops(d.st, OpType::kCommonCard)[0]->rule_id, "STUD-DECK-5");
  EXPECT_TRUE(d.st.has_common);
  EXPECT_EQ(d.st.common_card, common);
  EXPECT_EQ(d.st.phase, Phase::kBetting);
  ExpectReplays(d.st);
}

// STUD-DECK-1: after the reshuffle and the burn the street takes one common
// card; a card reported to a seat instead is refused by the deck procedure
// (a street is never split between private cards and a common card), not by
// the dealing order, and the hand is unchanged.
TEST(LiveDeck, STUD_DECK_1_APrivateCardAfterTheReshuffleIsRefused) {
  Dealer d(8);
  for (int street = 3; street <= 6; ++street) {
    ASSERT_NO_FATAL_FAILURE(d.DealStreet());
    ASSERT_NO_FATAL_FAILURE(d.Bet());
  }
  ASSERT_THAT(d.Reshuffle(), IsOk());
  ASSERT_THAT(d.Burn(), IsOk());
  ASSERT_EQ(NextDeal(d.st).step, DealStep::kCommonCard);
  const HandState before = d.st;
  for (const bool up : {false, true}) {
    const absl::Status s =
        Apply(d.st, {.kind = K::kDeal, .seat = 1, .card = d.NextCard(), .face_up = up});
    EXPECT_EQ(RuleIdOf(s), "STUD-DECK-1") << s;
    EXPECT_TRUE(d.st == before);
  }
  // The common card face down is refused by the same procedure.
  EXPECT_EQ(RuleIdOf(Apply(d.st, {.kind = K::kDeal, .seat = kBoardSeat, .card = d.NextCard()})),
            "STUD-DECK-1");
  // 7 players: 7th street is dealt privately and the stub is reshuffled
  // mid-street; a common card reported after that reshuffle is refused by the
  // same procedure.
  Dealer seven(7);
  for (int street = 3; street <= 6; ++street) {
    ASSERT_NO_FATAL_FAILURE(seven.DealStreet());
    ASSERT_NO_FATAL_FAILURE(seven.Bet());
  }
  ASSERT_FALSE(seven.st.street_uses_common);
  while (NextDeal(seven.st).step != DealStep::kReshuffle)
    ASSERT_TRUE(seven.Deal().ok() || seven.Burn().ok());
  ASSERT_THAT(seven.Reshuffle(), IsOk());
  ASSERT_THAT(seven.Burn(), IsOk());
  const HandState mid = seven.st;
  const absl::Status common = Apply(
      seven.st, {.kind = K::kDeal, .seat = kBoardSeat, .card = seven.NextCard(), .face_up = true});
  EXPECT_EQ(RuleIdOf(common), "STUD-DECK-1") << common;
  EXPECT_TRUE(seven.st == mid);
  // Before any reshuffle a card to the board breaks the dealing order.
  Dealer early(3);
  EXPECT_EQ(RuleIdOf(Apply(
                early.st,
                {.kind = K::kDeal, .seat = kBoardSeat, .card = early.NextCard(), .face_up = true})),
            "STUD-DEAL-1");
}

// STUD-DECK-3
TEST(LiveDeck, STUD_DECK_3_CommonImmediatelyWhenShort) {
  Options o;
  o.deck_exhaustion = DeckExhaustion::kCommonImmediately;
  Dealer d(7, o);
  for (int street = 3; street <= 6; ++street) {
    ASSERT_NO_FATAL_FAILURE(d.DealStreet());
    ASSERT_NO_FATAL_FAILURE(d.Bet());
  }
  // 7 players, 7 cards in the stub: not one for each plus the burn.
  ASSERT_EQ(internal::LiveStub(d.st), 7);
  EXPECT_TRUE(d.st.street_uses_common);
  EXPECT_EQ(NextDeal(d.st).step, DealStep::kBurn) << "7 cards: no reshuffle first";
  EXPECT_EQ(RuleIdOf(d.Reshuffle()), "STUD-DECK-3");
  ASSERT_NO_FATAL_FAILURE(d.DealStreet());
  EXPECT_TRUE(d.st.has_common);
  EXPECT_TRUE(Ops(d.st, OpType::kRecycle).empty());
  ExpectReplays(d.st);
}

}  // namespace
}  // namespace stud
