// Export -> parse -> replay over many random engine hands (history/phh.h).
//
// Each hand is played with random legal actions from a shuffled deck (every
// variant, 2 to 8 seats, short and deep stacks so that all-ins, side pots and
// common cards happen), then:
//   * exported with every card revealed, parsed and replayed: every action is
//     legal, the result stated in the export matches, and exporting the
//     replayed hand gives back the same text;
//   * exported in the public redaction ("??" for down cards nobody showed):
//     still legal with the same result, since hidden cards never decide a pot
//     that nobody showed;
//   * exported in progress at a random point: legal, not complete, and the
//     replayed hand waits for the same seat with the same legal actions;
//   * one betting action corrupted: the replay stops at exactly that action
//     and names a rule.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "engine/view.h"
#include "gtest/gtest.h"
#include "history/phh.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {

using history::ExportPhh;
using history::ParsePhh;
using history::PhhHand;
using history::ReplayPhh;
using history::ReplayReport;
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

constexpr int kHandsPerVariant = 2000;

Action RandomLegal(const HandState& st, std::mt19937_64& rng) {
  const int seat = ToAct(st);
  const std::vector<LegalAction> legal = LegalActions(st, seat);
  std::vector<double> weights;
  for (const LegalAction& l : legal) {
    double w = 1.0;
    if (l.kind == ActionKind::kFold) w = 0.3;
    if (l.kind == ActionKind::kRaise || l.kind == ActionKind::kBet) w = 1.5;
    weights.push_back(w);
  }
  std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
  const LegalAction& l = legal.at(pick(rng));
  return {.kind = l.kind, .seat = seat, .amount_to = l.amount_to};
}

// Plays `steps` random actions (all of them when negative).
HandState Play(const HandConfig& config, std::mt19937_64& rng, int steps) {
  absl::StatusOr<HandState> st = NewHand(config);
  EXPECT_THAT(st, IsOk());
  for (int i = 0; st->phase != Phase::kComplete && i != steps; ++i) {
    const absl::Status s = Apply(*st, RandomLegal(*st, rng));
    EXPECT_THAT(s, IsOk());
    if (!s.ok()) break;
  }
  return *st;
}

ReplayReport MustReplay(const std::string& text) {
  absl::StatusOr<PhhHand> hand = ParsePhh(text);
  EXPECT_THAT(hand, IsOk()) << text;
  if (!hand.ok()) return {};
  absl::StatusOr<ReplayReport> r = ReplayPhh(*hand);
  EXPECT_THAT(r, IsOk()) << text;
  if (!r.ok()) return {};
  EXPECT_TRUE(r->ok()) << history::DescribeReport(*hand, *r) << "\n" << text;
  return *r;
}

std::vector<Chips> Stacks(const HandState& st) {
  std::vector<Chips> out;
  for (int i = 1; i <= st.config.num_seats; ++i) out.push_back(st.seats[i].stack);
  return out;
}

// STUD-IRR-EXP-1: the redeal of a misdeal that kept its antes posts none; a
// PHH record has no such hand, so it is written as the same chips with the
// antes posted from them (a short ante carried over is an all-in ante), and
// replays to the same result.
TEST(PhhRedeal, STUD_IRR_EXP_1_RedealWithCarriedAntesReplaysToTheSameResult) {
  std::mt19937_64 rng(0x7ede41);
  for (int h = 0; h < 200; ++h) {
    HandConfig config =
        testing::RandomConfig(Variant::kStud, rng, testing::RandomOptions::kDefaults);
    if (config.stakes.ante == 0) continue;
    for (int i = 1; i <= config.num_seats; ++i) {
      const Chips ante = std::min(config.stakes.ante, config.starting_stacks[i]);
      config.carried_antes[i] = ante;
      config.starting_stacks[i] -= ante;
    }
    const HandState original = Play(config, rng, -1);
    ASSERT_EQ(original.phase, Phase::kComplete);
    const std::string all = ExportPhh(original, {.reveal_all = true});
    const ReplayReport r = MustReplay(all);
    ASSERT_TRUE(r.ok()) << all;
    EXPECT_TRUE(r.result_checked);
    EXPECT_EQ(r.final_stacks, Stacks(original)) << all;
  }
}

class PhhRoundTrip : public ::testing::TestWithParam<Variant> {};

TEST_P(PhhRoundTrip, CompleteHandsRevealedAndPublic) {
  std::mt19937_64 rng(0x5eed + static_cast<int>(GetParam()));
  int showdowns = 0, commons = 0;
  for (int h = 0; h < kHandsPerVariant; ++h) {
    const HandConfig config =
        testing::RandomConfig(GetParam(), rng, testing::RandomOptions::kDefaults);
    const HandState original = Play(config, rng, -1);
    ASSERT_EQ(original.phase, Phase::kComplete);
    const std::string all = ExportPhh(original, {.reveal_all = true});
    const ReplayReport r = MustReplay(all);
    ASSERT_TRUE(r.ok()) << "hand " << h;
    EXPECT_TRUE(r.legal);
    EXPECT_TRUE(r.complete) << all;
    EXPECT_TRUE(r.result_checked);
    EXPECT_EQ(r.final_stacks, Stacks(original));
    EXPECT_EQ(ExportPhh(r.state, {.reveal_all = true}), all) << "hand " << h;

    const std::string pub = ExportPhh(original);
    const ReplayReport p = MustReplay(pub);
    ASSERT_TRUE(p.ok()) << "hand " << h << "\n" << pub;
    EXPECT_TRUE(p.complete);
    EXPECT_TRUE(p.result_checked);
    EXPECT_EQ(p.final_stacks, Stacks(original));
    // The public export of the replay shows no more than the original's.
    EXPECT_EQ(ExportPhh(p.state), pub) << "hand " << h;

    for (const Operation& op : original.log) {
      showdowns += op.type == OpType::kShow;
      commons += op.type == OpType::kCommonCard;
    }
  }
  EXPECT_GT(showdowns, 0);
  if (GetParam() == Variant::kStud) {
    EXPECT_GT(commons, 0) << "no hand ran out of cards";
  }
}

TEST_P(PhhRoundTrip, HandsInProgress) {
  std::mt19937_64 rng(0xab5eed + static_cast<int>(GetParam()));
  for (int h = 0; h < kHandsPerVariant; ++h) {
    const HandConfig config =
        testing::RandomConfig(GetParam(), rng, testing::RandomOptions::kDefaults);
    const HandState original = Play(config, rng, static_cast<int>(rng() % 20));
    if (original.phase == Phase::kComplete) continue;
    const int viewer = static_cast<int>(rng() % (config.num_seats + 1));
    const std::string text = ExportPhh(original, {.viewer = viewer});
    const ReplayReport r = MustReplay(text);
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_FALSE(r.complete);
    EXPECT_FALSE(r.result_checked);
    EXPECT_EQ(r.state.phase, original.phase);
    EXPECT_EQ(r.state.street, original.street);
    EXPECT_EQ(ToAct(r.state), ToAct(original));
    EXPECT_EQ(LegalActions(r.state, ToAct(r.state)), LegalActions(original, ToAct(original)));
    EXPECT_EQ(Stacks(r.state), Stacks(original));
    EXPECT_EQ(ExportPhh(r.state, {.viewer = viewer}), text);
  }
}

TEST_P(PhhRoundTrip, CorruptedActionIsTheFirstDifference) {
  std::mt19937_64 rng(0xbad5eed + static_cast<int>(GetParam()));
  int checked = 0;
  for (int h = 0; h < kHandsPerVariant / 4; ++h) {
    const HandConfig config =
        testing::RandomConfig(GetParam(), rng, testing::RandomOptions::kDefaults);
    const HandState original = Play(config, rng, -1);
    absl::StatusOr<PhhHand> hand = ParsePhh(ExportPhh(original, {.reveal_all = true}));
    ASSERT_THAT(hand, IsOk());
    // Pick a bet, raise or completion and change its amount by one big bet.
    std::vector<size_t> bets;
    for (size_t i = 0; i < hand->actions.size(); ++i) {
      if (hand->actions[i].type == history::PhhActionType::kCompleteBetRaise) bets.push_back(i);
    }
    if (bets.empty()) continue;
    const size_t at = bets[rng() % bets.size()];
    history::PhhAction& a = hand->actions[at];
    a.amount += config.stakes.big_bet;
    a.text = absl::StrCat("p", a.player, " cbr ", a.amount);
    absl::StatusOr<ReplayReport> r = ReplayPhh(*hand);
    ASSERT_THAT(r, IsOk());
    ASSERT_FALSE(r->ok()) << a.text;
    EXPECT_EQ(r->divergence->action_index, static_cast<int>(at))
        << history::DescribeReport(*hand, *r);
    EXPECT_EQ(r->divergence->action, a.text);
    EXPECT_FALSE(r->divergence->rule_id.empty()) << history::DescribeReport(*hand, *r);
    EXPECT_FALSE(r->legal);
    EXPECT_EQ(r->actions_applied, static_cast<int>(at));
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, PhhRoundTrip,
                         ::testing::Values(Variant::kStud, Variant::kStudHiLo, Variant::kRazz),
                         [](const ::testing::TestParamInfo<Variant>& p) {
                           return std::string(p.param == Variant::kStud       ? "Stud"
                                              : p.param == Variant::kStudHiLo ? "StudHiLo"
                                                                              : "Razz");
                         });

// The parser: comments, multi-line arrays, commentary in actions, unknown
// fields, a common card, and loud failures.
TEST(PhhParse, AcceptsTheSpecificationsShapes) {
  const char* text = R"(# a hand
variant = "F7S"  # seven card stud
antes = [10, 10]
bring_in = 20
small_bet = 50
big_bet = 100
starting_stacks = [1_000, 1000]
actions = [
  "d dh p1 AcAd2c",  # Alice
  "d dh p2 ????Kh",
  "p1 pb # short",
  "d db 7h",
]
time_limit = 1.5
_sponsor = ['x', 'y']
finishing_stacks = [990, 990]
)";
  absl::StatusOr<PhhHand> h = ParsePhh(text);
  ASSERT_THAT(h, IsOk());
  EXPECT_EQ(h->variant, "F7S");
  EXPECT_EQ(h->starting_stacks, (std::vector<int64_t>{1000, 1000}));
  ASSERT_EQ(h->actions.size(), 4u);
  EXPECT_EQ(h->actions[1].cards.size(), 3u);
  EXPECT_FALSE(h->actions[1].cards[0].has_value());
  EXPECT_EQ(h->actions[2].text, "p1 pb");
  EXPECT_EQ(h->actions[3].type, history::PhhActionType::kDealBoard);
  ASSERT_TRUE(h->finishing_stacks.has_value());
  EXPECT_EQ(h->fields.at("time_limit").type, history::PhhValue::Type::kFloat);

  EXPECT_THAT(ParsePhh("variant = 'F7S'\n[table]\n"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParsePhh(absl::StrCat(text, "actions = ['p1 zz']\n")),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParsePhh("variant = 'F7S'\nactions = ['p1 f',\n"),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(PhhReplaySetup, RefusesWhatIsNotAStudHand) {
  absl::StatusOr<PhhHand> h = ParsePhh(
      "variant = 'NT'\nantes = [0, 0]\nbring_in = 0\nsmall_bet = 1\nbig_bet = 2\n"
      "starting_stacks = [100, 100]\nactions = []\n");
  ASSERT_THAT(h, IsOk());
  EXPECT_THAT(ReplayPhh(*h), StatusIs(absl::StatusCode::kInvalidArgument));
  h->variant = "F7S";
  h->antes = {5, 10};
  h->bring_in = 1;
  absl::StatusOr<ReplayReport> r = ReplayPhh(*h);
  ASSERT_THAT(r, IsOk());
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->divergence->action_index, -1);
  EXPECT_EQ(r->divergence->rule_id, "STUD-SETUP-2");
}

}  // namespace
}  // namespace stud
