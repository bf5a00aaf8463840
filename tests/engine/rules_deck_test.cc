// Scripted scenarios for catalogue sections 2 and 8: dealing order and cards
// per street (STUD-DEAL-*), running out of cards and the common card
// (STUD-DECK-*), and first action with a common card (STUD-ORDER-6).
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/pot.h"
#include "engine/view.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;

std::vector<const Operation*> Ops(const HandState& st, OpType t, Street street) {
  std::vector<const Operation*> out;
  for (const Operation& op : st.log) {
    if (op.type == t && op.street == street) out.push_back(&op);
  }
  return out;
}

// Eight seats, 6 cards each (no 7th-street card): every card but 2c 2d 2h Ks,
// which are the spares: the burns of 4th, 5th, 6th street are 2c 2d 2h and Ks
// is the last card of the stub. Boards (no pairs, no five-card straights or
// flushes with a deuce): As Kh Qd Jc is high; seat 5 shows 8h 2s 9c Td.
const std::vector<std::string> kEight = {
    "3c 3d As Kh Qd Jc", "3h 3s Ah Kd Qc Th", "4c 4d Ad Kc Jd 9s", "4s 5c Ac Qh Jh 8s",
    "5h 5s 8h 2s 9c Td", "6d 6h Qs Js 7d 6c", "7h 7s Ts 9h 7c 5d", "Tc 8d 9d 8c 6s 4h"};

// Seven seats: seats 1-5 get their 7th card from the stub (Ks Tc 8d 9d 8c);
// the spares are 2c 2d 2h 4h (the four burns) and 6s (the last stub card).
const std::vector<std::string> kSeven = {
    "3c 3d As Kh Qd Jc Ks", "3h 3s Ah Kd Qc Th Tc", "4c 4d Ad Kc Jd 9s 8d", "4s 5c Ac Qh Jh 8s 9d",
    "5h 5s 8h 2s 9c Td 8c", "6d 6h Qs Js 7d 6c",    "7h 7s Ts 9h 7c 5d"};

// $1-$2: seat 5 (8h) brings in for 25, everyone calls, everyone checks to 7th street.
HandState PlayToSeventh(const std::vector<std::string>& hands, Options o = Options(),
                        std::vector<Card> recycle_order = {}) {
  std::vector<Chips> stacks(hands.size(), 5000);
  HandConfig c = Config(Variant::kStud, *FindStakesPreset("$1-$2"), stacks, hands, o);
  c.recycle_order = std::move(recycle_order);
  HandState st = Start(c);
  EXPECT_EQ(ToAct(st), 5);
  while (st.street == Street::kThird) {
    const int seat = ToAct(st);
    Act(st, seat, seat == 5 ? ActionKind::kBringIn : ActionKind::kCall, 25);
  }
  for (int street = 4; street <= 6; ++street) CheckRound(st);
  EXPECT_EQ(st.street, Street::kSeventh);
  return st;
}

// Every card's two-character code: rank then suit, in index order (the
// order the deck commitment and the card proofs hash them in), the same text
// ToString writes and ParseCard reads back.
TEST(Deck, EveryCardIsNamedByRankThenSuit) {
  EXPECT_EQ(Card::FromIndex(0).Code(), "2c");
  EXPECT_EQ(Card::FromIndex(33).Code(), "Td");
  EXPECT_EQ(Card::FromIndex(51).Code(), "As");
  std::string all;
  for (int i = 0; i < kDeckSize; ++i) {
    const Card c = Card::FromIndex(i);
    all.append(c.Code().data(), c.Code().size());
    EXPECT_EQ(c.Code(), c.ToString()) << i;
    const absl::StatusOr<Card> parsed = ParseCard(c.Code());
    ASSERT_THAT(parsed, IsOk()) << i;
    EXPECT_EQ(*parsed, c) << i;
  }
  EXPECT_EQ(all.substr(0, 8), "2c2d2h2s");
  EXPECT_EQ(all.substr(96), "AcAdAhAs");
}

// STUD-DEAL-1
TEST(Deal, STUD_DEAL_1_ThirdStreetInThreePassesFromSeatOne) {
  HandConfig c = Config(Variant::kStud, *FindStakesPreset("$1-$2"), {5000, 5000, 5000},
                        {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"});
  HandState st = Start(c);
  const std::vector<const Operation*> deals = Ops(st, OpType::kDeal, Street::kThird);
  ASSERT_EQ(deals.size(), 9u);
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(deals[i]->seat, static_cast<int>(i % 3) + 1) << i;
    EXPECT_EQ(deals[i]->face_up, i >= 6) << i;  // down, down, then the door card
    EXPECT_EQ(deals[i]->card, c.deck[i]) << i;
  }
  EXPECT_EQ(st.seats[2].cards[2].card, C("2c"));
}

// STUD-DEAL-2
TEST(Deal, STUD_DEAL_2_OneCardPerStreetUpThenDownOnSeventh) {
  HandState st = PlayToSeventh(kSeven);
  for (Street s : {Street::kFourth, Street::kFifth, Street::kSixth, Street::kSeventh}) {
    const std::vector<const Operation*> deals = Ops(st, OpType::kDeal, s);
    ASSERT_EQ(deals.size(), 7u) << StreetName(s);
    for (const Operation* op : deals) EXPECT_EQ(op->face_up, s != Street::kSeventh);
  }
  for (int seat = 1; seat <= 7; ++seat) EXPECT_EQ(st.seats[seat].num_cards, 7);
}

// STUD-DEAL-3
TEST(Deal, STUD_DEAL_3_BurnBeforeFourthToSeventhOnly) {
  const std::vector<std::string> hands = {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h"};
  HandConfig c = Config(Variant::kStud, *FindStakesPreset("$1-$2"), {5000, 5000}, hands);
  HandState st = Start(c);
  EXPECT_EQ(CountOps(st, OpType::kBurn), 0);
  Act(st, 2, ActionKind::kBringIn, 25);
  Act(st, 1, ActionKind::kCall, 25);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  // One burn per street 4..7; with two seats the burns are deck[6], [9], [12], [15].
  std::vector<Card> burns;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kBurn) burns.push_back(op.card);
  }
  EXPECT_EQ(burns, (std::vector<Card>{c.deck[6], c.deck[9], c.deck[12], c.deck[15]}));
  // Alternative burn_before_third: the first card off the deck is burned.
  Options o;
  o.burn_before_third = true;
  HandConfig b = Config(Variant::kStud, *FindStakesPreset("$1-$2"), {5000, 5000}, hands, o);
  HandState alt = Start(b);
  ASSERT_EQ(CountOps(alt, OpType::kBurn), 1);
  EXPECT_EQ(Ops(alt, OpType::kBurn, Street::kThird)[0]->card, b.deck[0]);
  EXPECT_EQ(alt.seats[1].cards[0].card, C("Ah"));
  EXPECT_EQ(ToAct(alt), 2);
}

// STUD-DEAL-4
TEST(Deal, STUD_DEAL_4_AllInSeatsKeepGettingCardsFoldedSeatsDoNot) {
  // $4-$8: seat 3 is all-in after its ante and the bring-in call (100 + 100).
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {5000, 5000, 200},
                              {"Ah Kd 7c", "4c 5d 2c 9h", "3d 3h Qs Td"}));
  Act(st, 2, ActionKind::kBringIn, 100);
  Act(st, 3, ActionKind::kCall, 100);
  Act(st, 1, ActionKind::kFold);
  // One player left who can bet: no more betting, the cards are dealt out.
  EXPECT_EQ(st.phase, Phase::kComplete);
  for (Street s : {Street::kFourth, Street::kFifth, Street::kSixth, Street::kSeventh}) {
    std::vector<int> got;
    for (const Operation* op : Ops(st, OpType::kDeal, s)) got.push_back(op->seat);
    EXPECT_EQ(got, (std::vector<int>{2, 3})) << StreetName(s);
  }
  EXPECT_EQ(st.seats[1].num_cards, 3);
  EXPECT_EQ(st.seats[3].num_cards, 7);
}

// STUD-DEAL-5
TEST(Deal, STUD_DEAL_5_AllInHolecardsDownUpcardsUp) {
  // Seat 3 is all-in on 3rd street; the hand is dealt out with its upcards face up.
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {5000, 5000, 200},
                   {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h", "3d 3h Qs Td 6c 6d 2s"}));
  Act(st, 2, ActionKind::kBringIn, 100);
  Act(st, 3, ActionKind::kCall, 100);
  Act(st, 1, ActionKind::kCall, 100);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  const std::vector<bool> up = {false, false, true, true, true, true, false};
  const TableView public_view = ViewFor(st, kPublicViewer);
  ASSERT_EQ(public_view.seats[2].cards.size(), 7u);
  for (int k = 0; k < 7; ++k) {
    EXPECT_EQ(st.seats[3].cards[k].face_up, up[k]) << k;
    EXPECT_EQ(public_view.seats[2].cards[k].hidden, !up[k]) << k;
  }
}

// STUD-DECK-1
TEST(Deck, STUD_DECK_1_EightPlayersGetACommonCard) {
  HandState st = PlayToSeventh(kEight);
  // 24 + 3 x (1 + 8) = 51 cards used; one left. 1 + 3 burns - 1 = 3 < 8 players:
  // the last card and the 3 burns are recycled (4), 1 burned, 1 turned up.
  EXPECT_EQ(st.deck_pos, 52u);
  const std::vector<const Operation*> recycle = Ops(st, OpType::kRecycle, Street::kSeventh);
  ASSERT_EQ(recycle.size(), 1u);
  EXPECT_EQ(recycle[0]->amount, 4);
  ASSERT_TRUE(st.has_common);
  // Natural recycle order 2c 2d 2h Ks: burn 2c, turn 2d; 2h and Ks stay unused.
  EXPECT_EQ(Ops(st, OpType::kBurn, Street::kSeventh)[0]->card, C("2c"));
  EXPECT_EQ(st.common_card, C("2d"));
  EXPECT_EQ(st.recycled, Cards("2h Ks"));
  EXPECT_TRUE(Ops(st, OpType::kDeal, Street::kSeventh).empty());
  for (int seat = 1; seat <= 8; ++seat) EXPECT_EQ(st.seats[seat].num_cards, 6);
}

// STUD-DECK-1
TEST(Deck, STUD_DECK_1_SevenPlayersRecycleWithoutCommonCard) {
  HandState st = PlayToSeventh(kSeven);
  // 21 + 3 x 8 = 45 used, 7 left; 7 + 3 - 1 = 9 >= 7: no common card. Burn 4h,
  // deal seats 1-5, recycle the last card 6s with the 4 burns (5 cards), burn 2c,
  // deal 2d and 2h to seats 6 and 7; 4h and 6s stay unused.
  EXPECT_FALSE(st.has_common);
  const std::vector<const Operation*> recycle = Ops(st, OpType::kRecycle, Street::kSeventh);
  ASSERT_EQ(recycle.size(), 1u);
  EXPECT_EQ(recycle[0]->amount, 5);
  std::vector<Card> burns;
  for (const Operation* op : Ops(st, OpType::kBurn, Street::kSeventh)) burns.push_back(op->card);
  EXPECT_EQ(burns, Cards("4h 2c"));
  EXPECT_EQ(st.seats[5].cards[6].card, C("8c"));
  EXPECT_EQ(st.seats[6].cards[6].card, C("2d"));
  EXPECT_EQ(st.seats[7].cards[6].card, C("2h"));
  EXPECT_EQ(st.recycled, Cards("4h 6s"));
}

// STUD-DECK-2
TEST(Deck, STUD_DECK_2_SkipTheBurnWhenShort) {
  Options o;
  o.deck_exhaustion = DeckExhaustion::kRecycleSkipBurnIfShort;
  HandState st = PlayToSeventh(kSeven, o);
  // 7 cards for 7 players: no burn, every player gets an unused stub card.
  EXPECT_TRUE(Ops(st, OpType::kBurn, Street::kSeventh).empty());
  EXPECT_EQ(CountOps(st, OpType::kRecycle), 0);
  EXPECT_FALSE(st.has_common);
  EXPECT_EQ(st.seats[1].cards[6].card, C("4h"));
  EXPECT_EQ(st.seats[2].cards[6].card, C("Ks"));
  EXPECT_EQ(st.seats[7].cards[6].card, C("6s"));
}

// STUD-DECK-3
TEST(Deck, STUD_DECK_3_StubOfOneIsMixedBeforeTheCommonCard) {
  Options o;
  o.deck_exhaustion = DeckExhaustion::kCommonImmediately;
  HandState st = PlayToSeventh(kEight, o);
  ASSERT_EQ(Ops(st, OpType::kRecycle, Street::kSeventh).size(), 1u);
  EXPECT_EQ(Ops(st, OpType::kRecycle, Street::kSeventh)[0]->amount, 4);
  EXPECT_EQ(st.common_card, C("2d"));
}

// STUD-DECK-4
TEST(Deck, STUD_DECK_4_CommonCardAsSoonAsTheStubIsShort) {
  Options o;
  o.deck_exhaustion = DeckExhaustion::kCommonImmediately;
  HandState st = PlayToSeventh(kSeven, o);
  // 7 cards left < 1 burn + 7: burn 4h and turn Ks up from the stub, no reshuffle.
  EXPECT_EQ(CountOps(st, OpType::kRecycle), 0);
  ASSERT_TRUE(st.has_common);
  EXPECT_EQ(Ops(st, OpType::kBurn, Street::kSeventh)[0]->card, C("4h"));
  EXPECT_EQ(st.common_card, C("Ks"));
  for (int seat = 1; seat <= 7; ++seat) EXPECT_EQ(st.seats[seat].num_cards, 6);
}

// STUD-DECK-5
TEST(Deck, STUD_DECK_5_CommonCardPlaysInEveryHand) {
  // Without the common Kd, aces beat kings; with it, seat 1 has three kings.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Kh Kc 2c 3d 7s 9h"), .committed = 1000},
      {.seat = 2, .cards = Cards("Ah Ac 4c 5d 8s Th"), .committed = 1000},
  };
  absl::StatusOr<Settlement> s = Settle(Variant::kStud, Options(), seats, C("Kd"));
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->won[1], 2000);
  EXPECT_EQ(s->won[2], 0);
  // In the eight-handed hand the common 2d is part of each board and each hand.
  HandState st = PlayToSeventh(kEight);
  EXPECT_TRUE(UpCards(st, 5).Contains(C("2d")));
  EXPECT_FALSE(OwnCards(st, 5).Contains(C("2d")));
  CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  // Pot 8 x (25 + 25) = 400 to seat 7 (three sevens beat seat 6's three sixes).
  EXPECT_EQ(st.seats[7].stack, 5000 - 50 + 400);
}

// STUD-DECK-6
TEST(Deck, STUD_DECK_6_AsideCardsJoinOnlyTheReshuffle) {
  HandState st = Start(
      Config(Variant::kStud, *FindStakesPreset("$1-$2"), std::vector<Chips>(7, 5000), kSeven));
  while (st.street == Street::kThird) {
    const int seat = ToAct(st);
    Act(st, seat, seat == 5 ? ActionKind::kBringIn : ActionKind::kCall, 25);
  }
  CheckRound(st);
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kSixth);
  // The irregularity layer records a premature card (STUD-IRR-PREM-1): the top
  // of the stub, 4h, is taken out of play and held aside.
  ASSERT_EQ(st.config.deck[st.deck_pos], C("4h"));
  st.aside.push_back(st.config.deck[st.deck_pos++]);
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kSeventh);
  // 6 stub + 3 burns + 1 aside - 1 = 9 >= 7. Burn Ks, deal seats 1-4; recycle
  // 6s + burns 2c 2d 2h Ks + aside 4h (6 cards), burn 2c, deal 2d 2h 4h to seats 5-7.
  ASSERT_EQ(Ops(st, OpType::kRecycle, Street::kSeventh).size(), 1u);
  EXPECT_EQ(Ops(st, OpType::kRecycle, Street::kSeventh)[0]->amount, 6);
  EXPECT_EQ(st.seats[4].cards[6].card, C("8c"));
  EXPECT_EQ(st.seats[5].cards[6].card, C("2d"));
  EXPECT_EQ(st.seats[7].cards[6].card, C("4h"));
  EXPECT_TRUE(st.aside.empty());
}

// STUD-DECK-7
TEST(Deck, STUD_DECK_7_RecycleOrderIsInjectable) {
  std::vector<Card> reversed;
  for (int i = kDeckSize - 1; i >= 0; --i) reversed.push_back(Card::FromIndex(i));
  HandState st = PlayToSeventh(kEight, Options(), reversed);
  // The pile 2c 2d 2h Ks in reversed order is Ks 2h 2d 2c: burn Ks, turn 2h.
  EXPECT_EQ(Ops(st, OpType::kBurn, Street::kSeventh)[0]->card, C("Ks"));
  EXPECT_EQ(st.common_card, C("2h"));
  EXPECT_EQ(st.recycled, Cards("2d 2c"));
}

// STUD-ORDER-6
TEST(Order, STUD_ORDER_6_CommonCardCountsForFirstAction) {
  HandState st = PlayToSeventh(kEight);
  // 6th street: As Kh Qd Jc (seat 1) was high. With the common 2d, seat 5's
  // 8h 2s 9c Td 2d holds a pair of deuces and starts the last round.
  const std::vector<const Operation*> first = Ops(st, OpType::kFirstToAct, Street::kSixth);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]->seat, 1);
  EXPECT_EQ(ToAct(st), 5);
  const std::vector<const Operation*> last = Ops(st, OpType::kFirstToAct, Street::kSeventh);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0]->seat, 5);
  EXPECT_EQ(last[0]->rule_id, "STUD-ORDER-6");
}

}  // namespace
}  // namespace stud
