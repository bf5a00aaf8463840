// Replays real televised hands (2023 WSOP Event #43, $50,000 Poker Players
// Championship, day 5) recorded in PHH format through the engine with reported
// dealing, using the hand-history library (history/phh.h), and checks that:
//   * the library reports every action of the record legal, in order: each
//     action maps to exactly one of the acting seat's legal actions with the
//     exact amount, so the seat that brings in is the one that did at the real
//     table [STUD-BRING-1, STUD-BRING-2, STUD-BRING-3] and the seat that opens
//     4th to 7th street is the one that did [STUD-ORDER-1, STUD-ORDER-2];
//   * chips are conserved and the hand reaches kComplete exactly when the
//     record ends;
//   * the seats the engine pays are the ones the test computes independently
//     from the cards shown in the record [STUD-SHOW-1, STUD-HILO-1,
//     STUD-HILO-2, STUD-HILO-3], or the last seat left after folds;
//   * exporting the replayed hand gives back the record's actions exactly.
//
// The files live in tests/data/phh (copied verbatim). Seats p1..pN are seats
// 1..N. The engine runs with the catalogue's default options: none of these
// hands needed a different rules option.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/card.h"
#include "engine/engine.h"
#include "engine/hand_eval.h"
#include "engine/hand_state.h"
#include "gtest/gtest.h"
#include "history/phh.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

#ifndef STUD_SOURCE_DIR
#error "STUD_SOURCE_DIR must point at the source tree"
#endif

namespace stud {
namespace {

using ::stud::history::PhhAction;
using ::stud::history::PhhActionType;
using ::stud::history::PhhHand;
using ::stud::history::ReplayReport;
using ::stud::testing::IsOk;
using ::stud::testing::TotalChips;

// All 30 hands of the data set replay; none is left out.
const char* const kFiles[] = {
    "wsop2023_43_5_5_00_22_43_F7S.phh",   "wsop2023_43_5_6_00_25_05_F7S.phh",
    "wsop2023_43_5_7_00_29_03_F7S.phh",   "wsop2023_43_5_8_00_30_52_F7S.phh",
    "wsop2023_43_5_9_00_32_02_F7S.phh",   "wsop2023_43_5_10_00_34_43_F7S.phh",
    "wsop2023_43_5_11_00_35_59_F7S.phh",  "wsop2023_43_5_20_01_00_21_FR.phh",
    "wsop2023_43_5_21_01_02_14_FR.phh",   "wsop2023_43_5_22_01_03_57_FR.phh",
    "wsop2023_43_5_23_01_06_16_FR.phh",   "wsop2023_43_5_24_01_07_20_FR.phh",
    "wsop2023_43_5_25_01_10_31_FR.phh",   "wsop2023_43_5_26_01_13_57_FR.phh",
    "wsop2023_43_5_48_02_09_20_F7S8.phh", "wsop2023_43_5_49_02_13_08_F7S8.phh",
    "wsop2023_43_5_50_02_14_32_F7S8.phh", "wsop2023_43_5_51_02_18_42_F7S8.phh",
    "wsop2023_43_5_52_02_22_35_F7S8.phh", "wsop2023_43_5_53_02_25_11_F7S8.phh",
    "wsop2023_43_5_54_02_28_14_F7S8.phh", "wsop2023_43_5_69_03_05_55_F7S.phh",
    "wsop2023_43_5_71_03_11_08_F7S.phh",  "wsop2023_43_5_72_03_12_55_F7S.phh",
    "wsop2023_43_5_73_03_14_40_F7S.phh",  "wsop2023_43_5_74_03_17_31_F7S.phh",
    "wsop2023_43_5_75_03_19_14_F7S.phh",  "wsop2023_43_5_83_03_48_33_FR.phh",
    "wsop2023_43_5_84_03_49_18_FR.phh",   "wsop2023_43_5_85_03_50_24_FR.phh",
};

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.rfind(".phh"));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

// Seats that win each half of the pot, computed from the shown cards alone.
struct ExpectedWinners {
  std::set<int> whole;  // the whole pot (high only, Razz, or hi-lo without a low)
  std::set<int> high;   // hi-lo: the high half [STUD-HILO-1]
  std::set<int> low;    // hi-lo: the low half [STUD-HILO-2, STUD-HILO-3]
};

template <typename Value>
std::set<int> Best(const std::map<int, Value>& values) {
  std::set<int> out;
  Value best{};
  bool first = true;
  for (const auto& [seat, v] : values) {
    if (first || v > best) {
      out.clear();
      best = v;
      first = false;
    }
    if (v == best) out.insert(seat);
  }
  return out;
}

ExpectedWinners WinnersFromShownCards(Variant variant, const std::map<int, CardSet>& shown) {
  ExpectedWinners w;
  std::map<int, HighValue> high;
  std::map<int, LowValue> low;
  std::map<int, LowValue> qualified_low;
  for (const auto& [seat, cards] : shown) {
    high[seat] = EvaluateHigh(cards);
    low[seat] = EvaluateLow(cards);
    if (QualifiesEightOrBetter(low[seat])) qualified_low[seat] = low[seat];
  }
  switch (variant) {
    case Variant::kStud:
      w.whole = Best(high);
      break;
    case Variant::kRazz:
      w.whole = Best(low);
      break;
    case Variant::kStudHiLo:
      if (qualified_low.empty()) {
        w.whole = Best(high);  // [STUD-HILO-3] no qualifying low: high scoops
      } else {
        w.high = Best(high);
        w.low = Best(qualified_low);
      }
      break;
  }
  return w;
}

std::string SeatsToString(const std::set<int>& seats) {
  std::string out = "{";
  for (int s : seats) absl::StrAppend(&out, out.size() > 1 ? "," : "", s);
  return out + "}";
}

class PhhReplayTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PhhReplayTest, ReplaysExactly) {
  const std::string path = absl::StrCat(STUD_SOURCE_DIR, "/tests/data/phh/", GetParam());
  absl::StatusOr<PhhHand> parsed = ::stud::history::ReadPhhFile(path);
  ASSERT_THAT(parsed, IsOk());
  const PhhHand& hand = *parsed;
  const std::optional<Variant> variant = ::stud::history::VariantFromPhhCode(hand.variant);
  ASSERT_TRUE(variant.has_value()) << "variant " << hand.variant;
  const int num_seats = static_cast<int>(hand.starting_stacks.size());
  Chips total = 0;
  for (int64_t s : hand.starting_stacks) total += s;

  absl::StatusOr<ReplayReport> report = ::stud::history::ReplayPhh(hand);
  ASSERT_THAT(report, IsOk());
  ASSERT_TRUE(report->ok()) << ::stud::history::DescribeReport(hand, *report);
  EXPECT_TRUE(report->legal);
  EXPECT_EQ(report->actions_applied, static_cast<int>(hand.actions.size()));
  ASSERT_TRUE(report->complete) << "the record ended before the hand did";
  const HandState& st = report->state;
  EXPECT_EQ(st.phase, Phase::kComplete);
  EXPECT_EQ(PotTotal(st), 0);
  EXPECT_EQ(TotalChips(st), total);

  // Exporting the replayed hand gives back the record's actions.
  absl::StatusOr<PhhHand> again =
      ::stud::history::ParsePhh(::stud::history::ExportPhh(st, {.reveal_all = true}));
  ASSERT_THAT(again, IsOk());
  std::vector<std::string> want, got;
  for (const PhhAction& a : hand.actions) want.push_back(a.text);
  for (const PhhAction& a : again->actions) got.push_back(a.text);
  // The record writes an all-in player's show where it happened (and again at
  // showdown); the export once, at showdown. Compare each player's last show,
  // and the rest in order.
  auto split = [](const std::vector<std::string>& v, bool shows) {
    std::vector<std::string> out;
    std::map<std::string, std::string> last_show;
    for (const std::string& a : v) {
      const bool show = a.find(" sm") != std::string::npos;
      if (show) last_show[a.substr(0, a.find(' '))] = a;
      if (!show && !shows) out.push_back(a);
    }
    if (shows) {
      for (const auto& [player, a] : last_show) out.push_back(a);
    }
    return out;
  };
  // A card the record does not know ("??") matches the card the replay filled in.
  auto same = [](const std::string& record, const std::string& exported) {
    if (record.size() != exported.size()) return false;
    for (size_t i = 0; i < record.size(); ++i) {
      if (record[i] == '?' || record[i] == exported[i]) continue;
      return false;
    }
    return true;
  };
  const std::vector<std::string> want_plays = split(want, false), got_plays = split(got, false);
  ASSERT_EQ(got_plays.size(), want_plays.size());
  for (size_t i = 0; i < want_plays.size(); ++i) {
    EXPECT_TRUE(same(want_plays[i], got_plays[i]))
        << "action " << i << ": record '" << want_plays[i] << "', export '" << got_plays[i] << "'";
  }
  EXPECT_EQ(split(got, true), split(want, true));

  std::set<int> folded;
  std::map<int, std::vector<std::optional<Card>>> final_show;
  for (const PhhAction& a : hand.actions) {
    if (a.type == PhhActionType::kFold) folded.insert(a.player);
    if (a.type == PhhActionType::kShowMuck) final_show[a.player] = a.cards;
  }

  // Who the engine paid, by half.
  std::set<int> paid_whole, paid_high, paid_low;
  for (const Operation& op : st.log) {
    if (op.type != OpType::kAward) continue;
    (op.half == PotHalf::kHigh  ? paid_high
     : op.half == PotHalf::kLow ? paid_low
                                : paid_whole)
        .insert(op.seat);
  }

  // Seats still in at the end per the record, and those that showed cards.
  std::map<int, CardSet> shown;
  std::set<int> live;
  for (int seat = 1; seat <= num_seats; ++seat) {
    if (folded.count(seat)) continue;
    live.insert(seat);
    auto it = final_show.find(seat);
    if (it == final_show.end() || it->second.empty()) continue;
    CardSet set;
    for (const auto& c : it->second) {
      ASSERT_TRUE(c.has_value()) << "seat " << seat << " shows an unknown card";
      set.Add(*c);
    }
    // What was shown is what the engine dealt.
    EXPECT_EQ(set, OwnCards(st, seat)) << "seat " << seat << " shows other cards than dealt";
    shown[seat] = set;
  }
  for (int seat : folded) EXPECT_TRUE(st.seats[seat].folded) << "seat " << seat;

  if (live.size() == 1) {
    // Everybody else folded: the last seat takes the pot unshown [STUD-SHOW-2].
    EXPECT_EQ(paid_whole, live);
    EXPECT_TRUE(paid_high.empty() && paid_low.empty());
    return;
  }
  ASSERT_FALSE(shown.empty()) << "a showdown without any shown hand";
  const ExpectedWinners expected = WinnersFromShownCards(*variant, shown);
  EXPECT_EQ(paid_whole, expected.whole) << "whole pot: engine paid " << SeatsToString(paid_whole)
                                        << ", shown cards say " << SeatsToString(expected.whole);
  EXPECT_EQ(paid_high, expected.high)  // STUD-HILO-1
      << "high half: engine paid " << SeatsToString(paid_high) << ", shown cards say "
      << SeatsToString(expected.high);
  EXPECT_EQ(paid_low, expected.low)  // STUD-HILO-2, STUD-HILO-3
      << "low half: engine paid " << SeatsToString(paid_low) << ", shown cards say "
      << SeatsToString(expected.low);
}

INSTANTIATE_TEST_SUITE_P(Wsop2023Event43, PhhReplayTest,
                         ::testing::ValuesIn(std::vector<std::string>(std::begin(kFiles),
                                                                      std::end(kFiles))),
                         TestName);

// The data set is complete: every file in tests/data/phh is in kFiles.
TEST(PhhReplayDataTest, EveryFileIsReplayed) {
  const std::set<std::string> listed(std::begin(kFiles), std::end(kFiles));
  std::set<std::string> on_disk;
  for (const auto& entry :
       std::filesystem::directory_iterator(absl::StrCat(STUD_SOURCE_DIR, "/tests/data/phh"))) {
    if (entry.path().extension() == ".phh") on_disk.insert(entry.path().filename().string());
  }
  EXPECT_EQ(on_disk, listed);
  EXPECT_EQ(listed.size(), 30u);
}

}  // namespace
}  // namespace stud
