// A first complete hand, read like the rule book.
#include "engine/engine.h"
#include "engine/view.h"
#include "tests/testing/hands.h"

namespace stud {
namespace {
using namespace stud::testing;

// $15-$30: ante 300, bring-in 500 [STUD-STAKES-2]; seat 2's 2c is the low card.
TEST(SmokeTest, STUD_BRING_1_LowCardBringsInAndHandPlaysToShowdown) {
  HandState st =
      Start(Config(Variant::kStud, *FindStakesPreset("$15-$30"), {20000, 20000, 20000},
                   {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 7h", "3d 3h Qs Td 6c 6d 2s"}));
  EXPECT_EQ(PotTotal(st), 900);
  EXPECT_EQ(ToAct(st), 2);
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kBringIn), std::vector<Chips>{500});
  EXPECT_EQ(AmountsOf(st, 2, ActionKind::kComplete), std::vector<Chips>{1500});
  Act(st, 2, ActionKind::kBringIn, 500);
  Act(st, 3, ActionKind::kComplete, 1500);
  Act(st, 1, ActionKind::kCall, 1500);
  Act(st, 2, ActionKind::kCall, 1500);
  EXPECT_EQ(st.street, Street::kFourth);
  // 4th street boards: 7c 9s / 2c Jh / Qs Td: seat 3 (queen high) opens.
  EXPECT_EQ(ToAct(st), 3);
  for (int street = 4; street <= 7; ++street) {
    const int first = ToAct(st);
    Act(st, first, ActionKind::kCheck);
    while (ToAct(st) != 0 && st.phase == Phase::kBetting &&
           st.street == static_cast<Street>(street)) {
      Act(st, ToAct(st), ActionKind::kCheck);
    }
  }
  ASSERT_EQ(st.phase, Phase::kShowdown);
  while (st.phase == Phase::kShowdown) Act(st, ToAct(st), ActionKind::kShow);
  EXPECT_EQ(st.phase, Phase::kComplete);
  // Seat 3: two pair, sixes and threes, beats two single pairs and wins 3 * 1800 = 5400.
  EXPECT_EQ(st.seats[3].stack, 20000 - 1800 + 5400);
  EXPECT_EQ(TotalChips(st), 60000);
}

}  // namespace
}  // namespace stud
