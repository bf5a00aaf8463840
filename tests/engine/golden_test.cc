// Golden files: complete hands of every variant from fixed decks and a fixed
// policy, their whole operation log written as text and compared with
// tests/golden/*.log. A change in any ruling, amount or order shows up as a diff.
// To accept an intended change: STUD_UPDATE_GOLDEN=1 build/tests/golden_test
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "tests/testing/hands.h"

#ifndef STUD_SOURCE_DIR
#error "STUD_SOURCE_DIR must point at the source tree"
#endif

namespace stud {
namespace {

std::string Format(const Operation& op) {
  std::string line = absl::StrCat(OpTypeName(op.type), " street=", static_cast<int>(op.street));
  if (op.seat != 0) absl::StrAppend(&line, " seat=", op.seat);
  const bool has_card = op.type == OpType::kDeal || op.type == OpType::kBurn ||
                        op.type == OpType::kCommonCard ||
                        (op.type == OpType::kFirstToAct && op.street == Street::kThird);
  if (has_card) absl::StrAppend(&line, " card=", op.card.ToString(), op.face_up ? " up" : "");
  if (op.amount != 0) absl::StrAppend(&line, " amount=", op.amount);
  if (op.amount_to != 0) absl::StrAppend(&line, " to=", op.amount_to);
  if (op.all_in) absl::StrAppend(&line, " all_in");
  if (op.type == OpType::kAward) {
    absl::StrAppend(&line, " pot=", op.pot, " half=", op.half, op.odd_chip ? " odd_chip" : "");
  }
  if (op.rule_id != RuleId::kNone) absl::StrAppend(&line, " rule=", RuleIdName(op.rule_id));
  return line;
}

std::string PlayGolden(Variant variant, int seats, uint64_t seed) {
  std::mt19937_64 rng(seed);
  HandConfig c;
  c.variant = variant;
  c.stakes = *FindStakesPreset("$4-$8");
  c.num_seats = seats;
  for (int i = 1; i <= seats; ++i) c.starting_stacks[i] = 500 + 1500 * static_cast<Chips>(i);
  for (int i = 0; i < kDeckSize; ++i) c.deck.push_back(Card::FromIndex(i));
  std::shuffle(c.deck.begin(), c.deck.end(), rng);
  HandState st = testing::Start(c);
  while (st.phase != Phase::kComplete) {
    const int seat = ToAct(st);
    const std::vector<LegalAction> legal = LegalActions(st, seat);
    // Policy: the most aggressive action on even versions, else a call/check.
    const LegalAction& l = st.version % 2 == 0 ? legal.back() : legal[legal.size() > 1 ? 1 : 0];
    if (!Apply(st, {.kind = l.kind, .seat = seat, .amount_to = l.amount_to}).ok()) break;
  }
  std::string out;
  for (const Operation& op : st.log) absl::StrAppend(&out, Format(op), "\n");
  for (int i = 1; i <= seats; ++i)
    absl::StrAppend(&out, "final seat=", i, " stack=", st.seats[i].stack, "\n");
  return out;
}

void CheckGolden(const std::string& name, const std::string& actual) {
  const std::string path = absl::StrCat(STUD_SOURCE_DIR, "/tests/golden/", name, ".log");
  if (std::getenv("STUD_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path;
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "golden file " << path << " differs";
}

TEST(Golden, StudFiveSeats) { CheckGolden("stud_5_seats", PlayGolden(Variant::kStud, 5, 1)); }
TEST(Golden, StudHiLoSixSeats) {
  CheckGolden("stud_hilo_6_seats", PlayGolden(Variant::kStudHiLo, 6, 2));
}
TEST(Golden, RazzFourSeats) { CheckGolden("razz_4_seats", PlayGolden(Variant::kRazz, 4, 3)); }
TEST(Golden, StudEightSeatsRunsOutOfCards) {
  CheckGolden("stud_8_seats", PlayGolden(Variant::kStud, 8, 4));
}

}  // namespace
}  // namespace stud
