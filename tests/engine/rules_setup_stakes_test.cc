// Scripted scenarios for catalogue section 1: game definition, setup and
// stakes (STUD-GAME-*, STUD-SETUP-*, STUD-STAKES-*), plus malformed configs.
// Every amount below is worked out from the rule text, in cents.
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/hand_eval.h"
#include "engine/pot.h"
#include "engine/refusal.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;

// Checks every seat still to act until the street changes.
// The three-handed deal used by several tests: seat 2's 2c is the low card.
const std::vector<std::string> kThreeHands = {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h",
                                              "3d 3h Qs Td 6c 6d 2s"};

// STUD-GAME-1
TEST(Game, STUD_GAME_1_FiveBettingRoundsToShowdown) {
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {10000, 10000, 10000}, kThreeHands));
  Act(st, 2, ActionKind::kBringIn, 25);
  Act(st, 3, ActionKind::kCall, 25);
  Act(st, 1, ActionKind::kCall, 25);
  EXPECT_EQ(st.street, Street::kFourth);
  for (int street = 4; street <= 7; ++street) {
    EXPECT_EQ(st.street, static_cast<Street>(street));
    CheckRound(st);
  }
  // One betting round after each of 3rd..7th street: five rounds.
  EXPECT_EQ(CountOps(st, OpType::kStreetEnd), 5);
  ASSERT_EQ(st.phase, Phase::kShowdown);
  // No bet on 7th: the highest board (seat 1, a pair of nines) shows first.
  EXPECT_EQ(ToAct(st), 1);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  // Pot: 3 antes of 25 + 3 bring-ins of 25 = 150. Seat 3 (sixes and threes) wins it.
  EXPECT_EQ(st.seats[3].stack, 10000 - 50 + 150);
  EXPECT_EQ(st.seats[1].stack, 9950);
  EXPECT_EQ(st.seats[2].stack, 9950);
}

// STUD-GAME-2
TEST(Game, STUD_GAME_2_FourUpcardsThreeDowncards) {
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$1-$2"), {10000, 10000, 10000}, kThreeHands));
  Act(st, 2, ActionKind::kBringIn, 25);
  Act(st, 3, ActionKind::kCall, 25);
  Act(st, 1, ActionKind::kCall, 25);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  const std::vector<bool> expected_up = {false, false, true, true, true, true, false};
  for (int seat = 1; seat <= 3; ++seat) {
    const Seat& s = st.seats[seat];
    ASSERT_EQ(s.num_cards, 7);
    int up = 0;
    for (int k = 0; k < 7; ++k) {
      EXPECT_EQ(s.cards[k].face_up, expected_up[k]) << "seat " << seat << " card " << k;
      up += s.cards[k].face_up ? 1 : 0;
    }
    EXPECT_EQ(up, 4);
    EXPECT_EQ(7 - up, 3);
  }
}

// STUD-GAME-3
TEST(Game, STUD_GAME_3_BestFiveOfSevenWins) {
  // Seat 1 holds a heart flush spread over 3rd, 4th, 5th and 7th street;
  // seat 2 holds three aces. The best five of seven wins: the flush.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Ah Kh 2h 7h 3d 4s 9h"), .committed = 500},
      {.seat = 2, .cards = Cards("As Ad Ac Ks 2d 5c 8c"), .committed = 500},
  };
  absl::StatusOr<Settlement> s = Settle(Variant::kStud, Options(), seats);
  ASSERT_THAT(s, IsOk());
  ASSERT_EQ(s->pots.size(), 1u);
  EXPECT_EQ(s->pots[0].high_winners, std::vector<int>{1});
  EXPECT_EQ(s->won[1], 1000);
  EXPECT_EQ(s->won[2], 0);
  EXPECT_EQ(CardSet::Of(s->hands[0].best_high), CardSet::Of(Cards("Ah Kh 9h 7h 2h")));
}

// STUD-GAME-4
TEST(Game, STUD_GAME_4_RankingKickersAndSuitsNeverBreakTies) {
  const std::vector<std::string> top_down = {
      "As Ks Qs Js Ts",  // royal flush
      "9h 8h 7h 6h 5h",  // straight flush
      "4c 4d 4h 4s Kd",  // four of a kind
      "Jc Jd Jh 3s 3c",  // full house
      "Ad Jd 8d 6d 2d",  // flush
      "Tc 9d 8h 7s 6c",  // straight
      "Qc Qd Qh 9s 2c",  // three of a kind
      "Kc Kd 5h 5s 9c",  // two pair
      "Ac Ah 8s 6c 3d",  // one pair
      "Ac Qh 9s 6c 3d",  // high card
  };
  for (size_t i = 0; i + 1 < top_down.size(); ++i) {
    EXPECT_GT(EvaluateHigh(CardSet::Of(Cards(top_down[i]))),
              EvaluateHigh(CardSet::Of(Cards(top_down[i + 1]))))
        << top_down[i] << " vs " << top_down[i + 1];
  }
  // Same two pair, the kicker decides: kings and fives with an ace beat them with a queen.
  std::vector<ShowdownSeat> kicker = {
      {.seat = 1, .cards = Cards("Kc Kd 5h 5s Ac 2d 3h"), .committed = 400},
      {.seat = 2, .cards = Cards("Kh Ks 5c 5d Qc 2c 3s"), .committed = 400},
  };
  absl::StatusOr<Settlement> k = Settle(Variant::kStud, Options(), kicker);
  ASSERT_THAT(k, IsOk());
  EXPECT_EQ(k->won[1], 800);
  EXPECT_EQ(k->won[2], 0);
  // Identical straights in different suits: suits never break the tie; 800 splits 400/400.
  std::vector<ShowdownSeat> tie = {
      {.seat = 1, .cards = Cards("9s 8s 7s 6s 5d 2c 3c"), .committed = 400},
      {.seat = 2, .cards = Cards("9c 8c 7c 6d 5c 2d 3d"), .committed = 400},
  };
  absl::StatusOr<Settlement> t = Settle(Variant::kStud, Options(), tie);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->pots[0].high_winners, (std::vector<int>{1, 2}));
  EXPECT_EQ(t->won[1], 400);
  EXPECT_EQ(t->won[2], 400);
}

// STUD-SETUP-1
TEST(Setup, STUD_SETUP_1_NoBlindsSeatOneDealtFirst) {
  HandConfig c =
      Config(Variant::kStud, *FindStakesPreset("$5-$10"), {5000, 5000, 5000}, kThreeHands);
  HandState st = Start(c);
  // No blinds: after the antes nobody has a bet on the street.
  for (int seat = 1; seat <= 3; ++seat) {
    EXPECT_EQ(st.seats[seat].street_bet, 0);
    EXPECT_EQ(st.seats[seat].committed, 100);
  }
  // The first card off the deck goes to seat 1, the first seat left of the button.
  const Operation* first_deal = nullptr;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kDeal) {
      first_deal = &op;
      break;
    }
  }
  ASSERT_NE(first_deal, nullptr);
  EXPECT_EQ(first_deal->seat, 1);
  EXPECT_EQ(first_deal->card, c.deck[0]);
  EXPECT_EQ(first_deal->card, C("Ah"));
}

// STUD-SETUP-2
TEST(Setup, STUD_SETUP_2_EveryPlayerAntesBeforeTheDeal) {
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$5-$10"), {5000, 5000, 5000, 5000},
                              {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs", "Jc Jd 9h"}));
  int antes = 0;
  bool dealt = false;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kDeal) dealt = true;
    if (op.type != OpType::kAnte) continue;
    EXPECT_FALSE(dealt) << "ante after a card was dealt";
    EXPECT_EQ(op.amount, 100);
    EXPECT_EQ(op.rule_id, "STUD-SETUP-2");
    ++antes;
  }
  EXPECT_EQ(antes, 4);
  EXPECT_EQ(PotTotal(st), 400);
  for (int seat = 1; seat <= 4; ++seat) EXPECT_EQ(st.seats[seat].stack, 4900);
}

// STUD-SETUP-3
TEST(Setup, STUD_SETUP_3_AntesAreDeadMoneyInContributions) {
  // $5-$10: seat 1 is all-in for the 100 ante. Seats 2 and 3 bet on.
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$5-$10"), {100, 10000, 10000},
                   {"As Ah Kd Ac Ad 2c 3c", "5c 6d 2d 9h Th Jc 4s", "7c 7d Qh 8s 8c 3d 4d"}));
  EXPECT_TRUE(st.seats[1].all_in);
  // Antes do not count as a street bet: the bring-in of 200 costs 200 more.
  EXPECT_EQ(ToAct(st), 2);
  Act(st, 2, ActionKind::kBringIn, 200);
  EXPECT_EQ(st.seats[2].committed, 300);
  EXPECT_EQ(st.seats[2].stack, 9700);
  Act(st, 3, ActionKind::kComplete, 500);
  Act(st, 2, ActionKind::kCall, 500);
  EXPECT_EQ(PotTotal(st), 100 + 600 + 600);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  // Seat 1 (four aces) wins the main pot of three antes, 300; seat 3 (eights and
  // sevens) beats seat 2 for the side pot of 2 x 500 = 1000.
  EXPECT_EQ(st.seats[1].stack, 300);
  EXPECT_EQ(st.seats[3].stack, 10000 - 600 + 1000);
  EXPECT_EQ(st.seats[2].stack, 10000 - 600);
  EXPECT_EQ(TotalChips(st), 20100);
}

// STUD-STAKES-1
TEST(Stakes, STUD_STAKES_1_SmallBetThenBigBet) {
  // $4-$8: 400 on 3rd and 4th street, 800 on 5th, 6th and 7th.
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {10000, 10000},
                              {"Ah Kd 7c 9s Jd 3c 2h", "4c 5d 2c Jh 8d 4h 7h"}));
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kComplete), std::vector<Chips>{400});
  Act(st, 2, ActionKind::kBringIn, 100);
  EXPECT_EQ(AmountsOf(st, 1, ActionKind::kComplete), std::vector<Chips>{400});
  Act(st, 1, ActionKind::kComplete, 400);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kRaise), std::vector<Chips>{800});
  Act(st, 2, ActionKind::kCall, 400);
  // 4th street: J-2 (seat 2) beats 9-7 (seat 1) on board.
  ASSERT_EQ(st.street, Street::kFourth);
  EXPECT_EQ(ToAct(st), 2);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBet), std::vector<Chips>{400});
  CheckRound(st);
  for (int street = 5; street <= 7; ++street) {
    ASSERT_EQ(st.street, static_cast<Street>(street));
    EXPECT_EQ(AmountsOf(st, ToAct(st), ActionKind::kBet), std::vector<Chips>{800});
    Act(st, ToAct(st), ActionKind::kBet, 800);
    EXPECT_EQ(AmountsOf(st, ToAct(st), ActionKind::kRaise), std::vector<Chips>{1600});
    Act(st, ToAct(st), ActionKind::kCall, 800);
  }
  // Each seat: ante 100 + 400 + 3 x 800 = 2900.
  EXPECT_EQ(st.seats[1].committed, 2900);
  EXPECT_EQ(st.seats[2].committed, 2900);
}

// STUD-STAKES-2
TEST(Stakes, STUD_STAKES_2_TheThirteenPresetsInCents) {
  struct Row {
    std::string label;
    Stakes stakes;  // ante, bring-in, small, big
  };
  const std::vector<Row> table = {
      {"$.25-$.50", {5, 10, 25, 50}},          {"$.50-$1.00", {10, 15, 50, 100}},
      {"$1-$2", {25, 25, 100, 200}},           {"$2-$4", {50, 50, 200, 400}},
      {"$3-$6", {100, 100, 300, 600}},         {"$4-$8", {100, 100, 400, 800}},
      {"$5-$10", {100, 200, 500, 1000}},       {"$8-$16", {150, 200, 800, 1600}},
      {"$10-$20", {200, 300, 1000, 2000}},     {"$15-$30", {300, 500, 1500, 3000}},
      {"$20-$30", {500, 500, 2000, 4000}},     {"$30-$60", {1000, 1000, 3000, 6000}},
      {"$50-$100", {1000, 1500, 5000, 10000}},
  };
  ASSERT_EQ(StakesPresets().size(), 13u);
  for (size_t i = 0; i < table.size(); ++i) {
    std::optional<Stakes> found = FindStakesPreset(table[i].label);
    ASSERT_TRUE(found.has_value()) << table[i].label;
    EXPECT_EQ(*found, table[i].stakes) << table[i].label;
    EXPECT_EQ(StakesPresets()[i].stakes, table[i].stakes) << table[i].label;
    EXPECT_THAT(ValidateStakes(table[i].stakes), IsOk()) << table[i].label;
  }
}

// STUD-STAKES-2: a label may be written as a person writes money: cents
// spelled out, a leading zero, a slash, spaces, lower or upper case.
TEST(Stakes, STUD_STAKES_2_LabelsWithTheCentsWrittenOutFindTheirRow) {
  const std::vector<std::pair<std::string, std::string>> same = {
      {"$10.00-$20.00", "$10-$20"}, {"$50.00-$100.00", "$50-$100"}, {"$50-$100.00", "$50-$100"},
      {"$0.25-$0.50", "$.25-$.50"}, {"0.50/1", "$.50-$1"},          {"$1.00 - $2.00", "$1-$2"},
      {"10/20", "$10-$20"},         {"$20.00-$30.00", "$20-$40"},   {"$.50-$1.00", "$.50-$1"},
  };
  for (const auto& [written, label] : same) {
    std::optional<Stakes> found = FindStakesPreset(written);
    ASSERT_TRUE(found.has_value()) << written;
    EXPECT_EQ(*found, FindStakesPreset(label).value()) << written;
  }
  // Not a row: another amount, a half-written one, or not an amount at all.
  for (const char* other : {"$10.50-$20", "$1-$3", "$100-$200", "1.0-2.0", "-", "", "$10-$20-$40",
                            "ten-twenty", "$10.00"}) {
    EXPECT_FALSE(FindStakesPreset(other).has_value()) << other;
  }
}

// STUD-STAKES-3
TEST(Stakes, STUD_STAKES_3_BringInFromTableOrHalfSmallBet) {
  const std::vector<std::string> hands = {"Ah Kd 7c", "4c 5d 2c", "3d 3h Qs"};
  // Default STAKES_TABLE: $2-$4 brings in for 50.
  HandState table =
      Start(Config(Variant::kStud, *FindStakesPreset("$2-$4"), {5000, 5000, 5000}, hands));
  EXPECT_EQ(AmountsOf(table, 2, ActionKind::kBringIn), std::vector<Chips>{50});
  Refused(table, 2, ActionKind::kBringIn, 100, "STUD-STAKES-3");
  // HALF_SMALL_BET: $2-$4 gives 100.
  Options half;
  half.bring_in_source = BringInSource::kHalfSmallBet;
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$2-$4"), {5000, 5000, 5000}, hands, half));
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBringIn), std::vector<Chips>{100});
  Act(st, 2, ActionKind::kBringIn, 100);
  EXPECT_EQ(AmountsOf(st, 3, ActionKind::kCall), std::vector<Chips>{100});
  // $.25-$.50: 12 with a 1-cent unit, 10 with a 5-cent unit.
  EXPECT_EQ(HalfSmallBetBringIn(*FindStakesPreset("$.25-$.50"), 1), 12);
  EXPECT_EQ(HalfSmallBetBringIn(*FindStakesPreset("$.25-$.50"), 5), 10);
  half.odd_chip_unit = 5;
  HandState quarter = Start(
      Config(Variant::kStud, *FindStakesPreset("$.25-$.50"), {5000, 5000, 5000}, hands, half));
  EXPECT_EQ(AmountsOf(quarter, 2, ActionKind::kBringIn), std::vector<Chips>{10});
}

// STUD-STAKES-4
TEST(Stakes, STUD_STAKES_4_TwentyThirtyRowShipsAsTwentyForty) {
  const Stakes expected{.ante = 500, .bring_in = 500, .small_bet = 2000, .big_bet = 4000};
  EXPECT_EQ(FindStakesPreset("$20-$30"), expected);
  EXPECT_EQ(FindStakesPreset("$20-$40"), expected);
  // A literal $20-$30 (big bet 3000) is accepted only when configured explicitly.
  const Stakes literal{.ante = 500, .bring_in = 500, .small_bet = 2000, .big_bet = 3000};
  EXPECT_THAT(ValidateStakes(literal), IsOk());
  HandConfig c =
      Config(Variant::kStud, literal, {50000, 50000}, {"Ah Kd 7c 9s Jd", "4c 5d 2c Jh 8d"});
  HandState st = Start(c);
  Act(st, 2, ActionKind::kBringIn, 500);
  Act(st, 1, ActionKind::kCall, 500);
  CheckRound(st);  // 4th street
  ASSERT_EQ(st.street, Street::kFifth);
  EXPECT_EQ(AmountsOf(st, ToAct(st), ActionKind::kBet), std::vector<Chips>{3000});
}

// STUD-STAKES-5
TEST(Stakes, STUD_STAKES_5_ExactlyOneUnitNoOtherSizes) {
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {10000, 10000},
                              {"Ah Kd 7c 9s Jd 3c 2h", "4c 5d 2c Jh 8d 4h 7h"}));
  Refused(st, 2, ActionKind::kComplete, 300, "STUD-BRING-5");
  Act(st, 2, ActionKind::kBringIn, 100);
  Refused(st, 1, ActionKind::kComplete, 500, "STUD-BRING-5");
  Act(st, 1, ActionKind::kComplete, 400);
  Refused(st, 2, ActionKind::kRaise, 1000, "STUD-STAKES-5");
  Act(st, 2, ActionKind::kCall, 400);
  Refused(st, 2, ActionKind::kBet, 500, "STUD-STAKES-5");
  CheckRound(st);
  ASSERT_EQ(st.street, Street::kFifth);
  const int first = ToAct(st);
  Refused(st, first, ActionKind::kBet, 400, "STUD-STAKES-5");
  Refused(st, first, ActionKind::kBet, 1600, "STUD-STAKES-5");
  Act(st, first, ActionKind::kBet, 800);
  Refused(st, ToAct(st), ActionKind::kRaise, 2000, "STUD-STAKES-5");
  EXPECT_EQ(AmountsOf(st, ToAct(st), ActionKind::kRaise), std::vector<Chips>{1600});
}

// Malformed configurations are INVALID_ARGUMENT, never a rule violation.
HandConfig GoodConfig() {
  return Config(Variant::kStud, *FindStakesPreset("$4-$8"), {1000, 1000, 1000}, kThreeHands);
}

void ExpectInvalid(const HandConfig& c, const std::string& field) {
  absl::StatusOr<HandState> st = NewHand(c);
  ASSERT_THAT(st, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(RuleIdOf(st.status()), "");
  EXPECT_THAT(RefusalOf(st.status()).value_or(RefusalFacts{}).field, ::testing::HasSubstr(field))
      << st.status();
}

TEST(Config, MalformedConfigsAreInvalidArgument) {
  ASSERT_THAT(NewHand(GoodConfig()), IsOk());
  HandConfig one = GoodConfig();
  one.num_seats = 1;
  ExpectInvalid(one, "seats");
  HandConfig nine = GoodConfig();
  nine.num_seats = 9;
  ExpectInvalid(nine, "seats");
  HandConfig dup = GoodConfig();
  dup.deck[1] = dup.deck[0];
  ExpectInvalid(dup, "deck");
  HandConfig short_deck = GoodConfig();
  short_deck.deck.pop_back();
  ExpectInvalid(short_deck, "deck");
  HandConfig negative = GoodConfig();
  negative.starting_stacks[2] = -100;
  ExpectInvalid(negative, "stack");
  HandConfig zero = GoodConfig();
  zero.starting_stacks[3] = 0;
  ExpectInvalid(zero, "stack");
  HandConfig bring_in = GoodConfig();
  bring_in.stakes.bring_in = bring_in.stakes.small_bet;
  ExpectInvalid(bring_in, "stakes.bring_in");
  HandConfig big = GoodConfig();
  big.stakes.big_bet = big.stakes.small_bet;
  ExpectInvalid(big, "stakes.big_bet");
  HandConfig ante = GoodConfig();
  ante.stakes.ante = -1;
  ExpectInvalid(ante, "stakes.ante");
  HandConfig raises = GoodConfig();
  raises.options.max_raises_per_round = 0;
  ExpectInvalid(raises, "max_raises_per_round");
  HandConfig recycle = GoodConfig();
  recycle.recycle_order = std::vector<Card>(recycle.deck.begin(), recycle.deck.end() - 1);
  ExpectInvalid(recycle, "recycle_order");
}

}  // namespace
}  // namespace stud
