// Scripted scenarios for catalogue section 7: all-ins and side pots
// (STUD-ALLIN-1..3, STUD-ALLIN-6), through hands and through the stateless
// Settle(). ALLIN-4/5 (online disconnects) belong to the service layer.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/pot.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;

// $4-$8, seat 3 has 700: 100 ante, 100 for the bring-in, then 500 behind.
// 5th street: seat 1 (nines on board) bets 800, seat 2 calls, seat 3 calls all-in for 500.
HandState AllInOnFifth() {
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {10000, 10000, 700},
                   {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h", "3d 3h Qs Td 6c 6d 2s"}));
  Act(st, 2, ActionKind::kBringIn, 100);
  Act(st, 3, ActionKind::kCall, 100);
  Act(st, 1, ActionKind::kCall, 100);
  CheckRound(st);
  EXPECT_EQ(ToAct(st), 1);
  Act(st, 1, ActionKind::kBet, 800);
  Act(st, 2, ActionKind::kCall, 800);
  return st;
}

// STUD-ALLIN-1
TEST(AllIn, STUD_ALLIN_1_CallAllInForLessMakesASidePot) {
  HandState st = AllInOnFifth();
  const std::vector<LegalAction> expected = {
      {ActionKind::kFold, 0, 0, false},
      {ActionKind::kCall, 500, 500, true},
  };
  EXPECT_EQ(LegalActions(st, 3), expected);
  Refused(st, 3, ActionKind::kCall, 800, "STUD-ALLIN-1");
  Act(st, 3, ActionKind::kCall, 500);
  EXPECT_TRUE(st.seats[3].all_in);
  ASSERT_EQ(st.street, Street::kSixth);
  CheckRound(st);
  CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  // Main pot: 3 x (100 + 100 + 500) = 2100 to seat 3 (sixes and threes).
  // Side pot: the 300 seat 3 could not match, from seats 1 and 2: 600 to seat 1 (nines).
  EXPECT_EQ(st.seats[3].stack, 2100);
  EXPECT_EQ(st.seats[1].stack, 10000 - 1000 + 600);
  EXPECT_EQ(st.seats[2].stack, 10000 - 1000);
  EXPECT_EQ(TotalChips(st), 20700);
}

// STUD-ALLIN-1: chips nobody called go back and are in no pot. Heads-up, seat 1
// bets 800 on 5th street and seat 2 calls all-in for 500: 300 comes back.
TEST(AllIn, STUD_ALLIN_1_UncalledChipsLeaveThePotsAndAreReturned) {
  HandState st = Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {10000, 700},
                              {"Ah Kd 7c 9s 9d 3c 2h", "3d 3h Qs Td 6c 6d 2s"}));
  Act(st, 1, ActionKind::kBringIn, 100);
  Act(st, 2, ActionKind::kCall, 100);
  CheckRound(st);
  ASSERT_EQ(ToAct(st), 1);  // a pair of nines showing on 5th street
  Act(st, 1, ActionKind::kBet, 800);
  Act(st, 2, ActionKind::kCall, 500);
  ASSERT_EQ(st.phase, Phase::kComplete);
  const auto returned = std::find_if(st.log.begin(), st.log.end(), [](const Operation& op) {
    return op.type == OpType::kReturnUncalled;
  });
  ASSERT_NE(returned, st.log.end());
  EXPECT_EQ(returned->seat, 1);
  EXPECT_EQ(returned->amount, 300);
  // `committed` holds only called chips, so settling again (as ResolveShowdown
  // does) finds one pot of 1400 for both seats and nothing more.
  EXPECT_EQ(st.seats[1].committed, 700);
  EXPECT_EQ(st.seats[2].committed, 700);
  std::vector<ShowdownSeat> seats;
  for (int i = 1; i <= 2; ++i) {
    ShowdownSeat ss{.seat = i, .committed = st.seats[i].committed};
    for (int k = 0; k < st.seats[i].num_cards; ++k) ss.cards.push_back(st.seats[i].cards[k].card);
    seats.push_back(ss);
  }
  absl::StatusOr<Settlement> again = Settle(Variant::kStud, st.config.options, seats);
  ASSERT_THAT(again, IsOk());
  ASSERT_EQ(again->pots.size(), 1u);
  EXPECT_EQ(again->pots[0].amount, 1400);
  EXPECT_EQ(again->pots[0].eligible, (std::vector<int>{1, 2}));
  EXPECT_EQ(again->won[2], 1400);  // sixes and threes beat the nines
  EXPECT_EQ(again->returned[1], 0);
  EXPECT_EQ(st.seats[1].stack, 10000 - 700);
  EXPECT_EQ(st.seats[2].stack, 1400);

  // The stateless form gets the same contributions as the players put them
  // in (1000 and 700): the 300 nobody called is returned, not a second pot.
  seats[0].committed = 1000;
  absl::StatusOr<Settlement> stateless = Settle(Variant::kStud, st.config.options, seats);
  ASSERT_THAT(stateless, IsOk());
  ASSERT_EQ(stateless->pots.size(), 1u);
  EXPECT_EQ(stateless->pots[0].amount, 1400);
  EXPECT_EQ(stateless->returned[1], 300);
  EXPECT_EQ(stateless->won[1] + stateless->won[2], 1400);
}

// STUD-ALLIN-7 (gap rule): no bet or raise is offered when nobody could call
// it. 5th street: seat 1 bets its last 800; seat 3 has exactly 800 behind and
// can at most call, so seat 2 may only call or fold.
TEST(AllIn, STUD_ALLIN_7_NoRaiseWhenEveryOpponentCanAtMostCall) {
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {1000, 10000, 1000},
                   {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h", "3d 3h Qs Td 6c 6d 2s"}));
  Act(st, 2, ActionKind::kBringIn, 100);
  Act(st, 3, ActionKind::kCall, 100);
  Act(st, 1, ActionKind::kCall, 100);
  CheckRound(st);
  ASSERT_EQ(ToAct(st), 1);
  Act(st, 1, ActionKind::kBet, 800);
  ASSERT_TRUE(st.seats[1].all_in);
  const std::vector<LegalAction> call_or_fold = {
      {ActionKind::kFold, 0, 0, false},
      {ActionKind::kCall, 800, 800, false},
  };
  EXPECT_EQ(LegalActions(st, 2), call_or_fold);
  Refused(st, 2, ActionKind::kRaise, 1600, "STUD-ALLIN-7");
  Act(st, 2, ActionKind::kCall, 800);
  EXPECT_EQ(LegalActions(st, 3), (std::vector<LegalAction>{{ActionKind::kFold, 0, 0, false},
                                                           {ActionKind::kCall, 800, 800, true}}));
}

// STUD-ALLIN-2
TEST(AllIn, STUD_ALLIN_2_ThreeAllInsAtDifferentLevels) {
  // Seats 1, 2, 3 are all-in for 1000, 3000 and 6000; seat 4 covers 6000; seat 5
  // folded after putting in 500. Hands from best to worst: 1, 2, 3, 4.
  std::vector<ShowdownSeat> seats = {
      {.seat = 1, .cards = Cards("Ac Ad Ah As 2c 3d 4h"), .committed = 1000},  // four aces
      {.seat = 2, .cards = Cards("Kc Kd Kh 5c 5d 7s 8s"), .committed = 3000},  // kings full
      {.seat = 3, .cards = Cards("Qh Jh 9h 6h 2h 3s 4s"), .committed = 6000},  // flush
      {.seat = 4, .cards = Cards("Tc Td 8c 7c 5h 3c 2d"), .committed = 6000},  // pair of tens
      {.seat = 5, .cards = {}, .committed = 500, .live = false},
  };
  const std::vector<Pot> pots = BuildPots(seats);
  ASSERT_EQ(pots.size(), 3u);
  // Main: 4 x 1000 + the folded 500; side 1: 3 x 2000; side 2: 2 x 3000.
  EXPECT_EQ(pots[0], (Pot{4500, {1, 2, 3, 4}}));
  EXPECT_EQ(pots[1], (Pot{6000, {2, 3, 4}}));
  EXPECT_EQ(pots[2], (Pot{6000, {3, 4}}));
  absl::StatusOr<Settlement> s = Settle(Variant::kStud, Options(), seats);
  ASSERT_THAT(s, IsOk());
  ASSERT_EQ(s->pots.size(), 3u);
  EXPECT_EQ(s->pots[0].high_winners, std::vector<int>{1});
  EXPECT_EQ(s->pots[1].high_winners, std::vector<int>{2});
  EXPECT_EQ(s->pots[2].high_winners, std::vector<int>{3});
  EXPECT_EQ(s->won[1], 4500);
  EXPECT_EQ(s->won[2], 6000);
  EXPECT_EQ(s->won[3], 6000);
  EXPECT_EQ(s->won[4], 0);
  EXPECT_EQ(s->won[5], 0);
  // A player better than both all-ins takes every pot it is eligible for.
  seats[3].cards = Cards("Ks Qs Js Ts 9s 8c 7c");  // seat 4: king-high straight flush
  absl::StatusOr<Settlement> top = Settle(Variant::kStud, Options(), seats);
  ASSERT_THAT(top, IsOk());
  EXPECT_EQ(top->won[4], 16500);
  EXPECT_EQ(top->won[1] + top->won[2] + top->won[3], 0);
}

// STUD-ALLIN-3
TEST(AllIn, STUD_ALLIN_3_AllInPlayerDealtToShowdown) {
  HandState st = AllInOnFifth();
  Act(st, 3, ActionKind::kCall, 500);
  CheckRound(st);
  CheckRound(st);
  // Seat 3 keeps receiving cards: 6th face up, 7th face down.
  const Seat& s = st.seats[3];
  ASSERT_EQ(s.num_cards, 7);
  EXPECT_TRUE(s.cards[5].face_up);
  EXPECT_EQ(s.cards[5].street, Street::kSixth);
  EXPECT_FALSE(s.cards[6].face_up);
  EXPECT_EQ(s.cards[6].street, Street::kSeventh);
  EXPECT_EQ(s.cards[6].card, C("2s"));
  ASSERT_EQ(st.phase, Phase::kShowdown);
  EXPECT_TRUE(st.seats[3].live());
}

// STUD-ALLIN-6
TEST(AllIn, STUD_ALLIN_6_PartialAnteCapsMainPot) {
  // $4-$8 (ante 100): seat 1 has only 60; it posts 60 and is all-in.
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), {60, 10000, 10000},
                   {"As Ah Kd Ac Ad 2c 3c", "5c 6d 2d 9h Th Jc 4s", "7c 7d Qh 8s 8c 3d 4d"}));
  ASSERT_EQ(st.log[0].type, OpType::kAnte);
  EXPECT_EQ(st.log[0].amount, 60);
  EXPECT_TRUE(st.log[0].all_in);
  EXPECT_EQ(st.log[0].rule_id, "STUD-ALLIN-6");
  EXPECT_EQ(st.log[1].rule_id, "STUD-SETUP-2");
  EXPECT_TRUE(st.seats[1].all_in);
  EXPECT_EQ(PotTotal(st), 260);
  Act(st, 2, ActionKind::kBringIn, 100);
  Act(st, 3, ActionKind::kCall, 100);
  for (int street = 4; street <= 7; ++street) CheckRound(st);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  ASSERT_EQ(st.phase, Phase::kComplete);
  // Main pot 3 x 60 = 180 to seat 1 (four aces); side pot 2 x 40 + 2 x 100 = 280
  // to seat 3 (eights and sevens).
  EXPECT_EQ(st.seats[1].stack, 180);
  EXPECT_EQ(st.seats[3].stack, 10000 - 200 + 280);
  EXPECT_EQ(st.seats[2].stack, 10000 - 200);
}

// Settle() refuses malformed input with INVALID_ARGUMENT.
TEST(AllIn, SettleRejectsMalformedInput) {
  auto invalid = [](std::vector<ShowdownSeat> seats) {
    absl::StatusOr<Settlement> s = Settle(Variant::kStud, Options(), seats);
    EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument));
  };
  invalid({{.seat = 1, .cards = Cards("Ac Ad Ah As 2c"), .committed = 100},
           {.seat = 2, .cards = Cards("Ac Kd Kh Ks 2d"), .committed = 100}});  // Ac twice
  invalid({{.seat = 1, .cards = Cards("Ac Ad Ah As"), .committed = 100},
           {.seat = 2, .cards = Cards("Kc Kd Kh Ks 2d"), .committed = 100}});  // 4 cards
  invalid({{.seat = 1, .cards = Cards("Ac Ad Ah As 2c"), .committed = -5},
           {.seat = 2, .cards = Cards("Kc Kd Kh Ks 2d"), .committed = 100}});
  invalid({{.seat = 9, .cards = Cards("Ac Ad Ah As 2c"), .committed = 100}});
  invalid({{.seat = 1, .cards = {}, .committed = 100, .live = false}});  // nobody live
}

}  // namespace
}  // namespace stud
