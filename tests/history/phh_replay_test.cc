// Replays real televised hands (2023 WSOP Event #43, $50,000 Poker Players
// Championship, day 5) recorded in PHH format through the engine with reported
// dealing (DealSource::kReported), and checks that:
//   * every action of the record is accepted, mapped to the engine's action
//     kinds with the exact amounts LegalActions lists;
//   * the seat the engine designates to open each street is the seat that
//     acted first at the real table: the bring-in by lowest door card and suit
//     (Razz: highest, ace low) [STUD-BRING-1, STUD-BRING-2, STUD-BRING-3] and
//     the best board on 4th to 7th street [STUD-ORDER-1, STUD-ORDER-2];
//   * chips are conserved after every action and the hand reaches kComplete
//     exactly when the record ends;
//   * the seats the engine pays are the ones the test computes independently
//     from the cards shown in the record [STUD-SHOW-1, STUD-HILO-1,
//     STUD-HILO-2, STUD-HILO-3], or the last seat left after folds.
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
#include "tests/testing/hands.h"
#include "tests/testing/phh.h"

#ifndef STUD_SOURCE_DIR
#error "STUD_SOURCE_DIR must point at the source tree"
#endif

namespace stud {
namespace {

using ::stud::testing::TotalChips;
using ::stud::testing::phh::ActionType;
using ::stud::testing::phh::PhhAction;
using ::stud::testing::phh::PhhHand;

// All 30 hands of the data set replay; none is left out.
const char* const kFiles[] = {
    "wsop2023_43_5_5_00_22_43_F7S.phh",    "wsop2023_43_5_6_00_25_05_F7S.phh",
    "wsop2023_43_5_7_00_29_03_F7S.phh",    "wsop2023_43_5_8_00_30_52_F7S.phh",
    "wsop2023_43_5_9_00_32_02_F7S.phh",    "wsop2023_43_5_10_00_34_43_F7S.phh",
    "wsop2023_43_5_11_00_35_59_F7S.phh",   "wsop2023_43_5_20_01_00_21_FR.phh",
    "wsop2023_43_5_21_01_02_14_FR.phh",    "wsop2023_43_5_22_01_03_57_FR.phh",
    "wsop2023_43_5_23_01_06_16_FR.phh",    "wsop2023_43_5_24_01_07_20_FR.phh",
    "wsop2023_43_5_25_01_10_31_FR.phh",    "wsop2023_43_5_26_01_13_57_FR.phh",
    "wsop2023_43_5_48_02_09_20_F7S8.phh",  "wsop2023_43_5_49_02_13_08_F7S8.phh",
    "wsop2023_43_5_50_02_14_32_F7S8.phh",  "wsop2023_43_5_51_02_18_42_F7S8.phh",
    "wsop2023_43_5_52_02_22_35_F7S8.phh",  "wsop2023_43_5_53_02_25_11_F7S8.phh",
    "wsop2023_43_5_54_02_28_14_F7S8.phh",  "wsop2023_43_5_69_03_05_55_F7S.phh",
    "wsop2023_43_5_71_03_11_08_F7S.phh",   "wsop2023_43_5_72_03_12_55_F7S.phh",
    "wsop2023_43_5_73_03_14_40_F7S.phh",   "wsop2023_43_5_74_03_17_31_F7S.phh",
    "wsop2023_43_5_75_03_19_14_F7S.phh",   "wsop2023_43_5_83_03_48_33_FR.phh",
    "wsop2023_43_5_84_03_49_18_FR.phh",    "wsop2023_43_5_85_03_50_24_FR.phh",
};

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.rfind(".phh"));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

std::optional<Variant> VariantOf(const std::string& phh_variant) {
  if (phh_variant == "F7S") return Variant::kStud;
  if (phh_variant == "F7S/8") return Variant::kStudHiLo;
  if (phh_variant == "FR") return Variant::kRazz;
  return std::nullopt;
}

std::string Describe(const std::vector<LegalAction>& legal) {
  std::string out;
  for (const LegalAction& a : legal) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", ActionKindName(a.kind));
    if (a.amount_to != 0) absl::StrAppend(&out, " ", a.amount_to);
  }
  return out.empty() ? "(none)" : out;
}

// The cards of every player in deal order, with unknown ("??") cards replaced
// by cards used nowhere in the hand. A card the record shows at showdown fills
// the matching unknown slot first. Unknown door cards must not change who
// brings in (the record says who did), so they get the unused cards that bring
// in last (high and hi-lo: the highest cards, ace high; Razz: the lowest, ace
// low) [STUD-BRING-2, STUD-BRING-3]; down cards take what is left.
std::map<int, std::vector<Card>> ResolveDeals(const PhhHand& hand, Variant variant) {
  std::map<int, std::vector<std::optional<Card>>> dealt;
  std::map<int, std::vector<std::optional<Card>>> shown;
  CardSet used;
  for (const PhhAction& a : hand.actions) {
    if (a.type == ActionType::kDeal) {
      for (const auto& c : a.cards) dealt[a.player].push_back(c);
    } else if (a.type == ActionType::kShowMuck && !a.cards.empty()) {
      shown[a.player] = a.cards;
    }
    for (const auto& c : a.cards) {
      if (c) used.Add(*c);
    }
  }
  for (auto& [player, cards] : dealt) {
    auto it = shown.find(player);
    if (it == shown.end()) continue;
    for (size_t i = 0; i < cards.size() && i < it->second.size(); ++i) {
      if (!cards[i] && it->second[i]) cards[i] = it->second[i];
    }
  }
  const bool razz = variant == Variant::kRazz;
  std::vector<Card> pool;  // unused cards, the ones that bring in last first
  for (int i = 0; i < kDeckSize; ++i) {
    if (!used.Contains(Card::FromIndex(i))) pool.push_back(Card::FromIndex(i));
  }
  std::sort(pool.begin(), pool.end(),
            [razz](Card a, Card b) { return BringsInBefore(b, a, razz); });
  size_t next = 0;
  for (auto& [player, cards] : dealt) {
    if (cards.size() > 2 && !cards[2]) cards[2] = pool.at(next++);  // door card
  }
  std::map<int, std::vector<Card>> out;
  for (auto& [player, cards] : dealt) {
    for (auto& c : cards) {
      if (!c) c = pool.at(next++);
      out[player].push_back(*c);
    }
  }
  return out;
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
  absl::StatusOr<PhhHand> parsed = stud::testing::phh::ReadFile(path);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const PhhHand& hand = *parsed;

  const std::optional<Variant> variant = VariantOf(hand.variant);
  ASSERT_TRUE(variant.has_value()) << "variant " << hand.variant;
  const int num_seats = static_cast<int>(hand.starting_stacks.size());
  ASSERT_GE(num_seats, kMinSeats);
  ASSERT_LE(num_seats, kMaxSeats);
  ASSERT_EQ(hand.antes.size(), hand.starting_stacks.size());
  // The engine has one ante for the table [STUD-SETUP-2]; the record lists it per seat.
  for (int64_t ante : hand.antes) ASSERT_EQ(ante, hand.antes[0]) << "uneven antes";

  HandConfig config;
  config.variant = *variant;
  config.stakes = {.ante = hand.antes[0], .bring_in = hand.bring_in,
                   .small_bet = hand.small_bet, .big_bet = hand.big_bet};
  config.num_seats = num_seats;
  Chips total = 0;
  for (int i = 0; i < num_seats; ++i) {
    config.starting_stacks[i + 1] = hand.starting_stacks[i];
    total += hand.starting_stacks[i];
  }
  config.deal_source = DealSource::kReported;

  absl::StatusOr<HandState> started = NewHand(config);
  ASSERT_TRUE(started.ok()) << started.status();
  HandState st = *started;

  const std::map<int, std::vector<Card>> cards = ResolveDeals(hand, *variant);
  std::map<int, size_t> dealt_so_far;                  // cards of `cards` already read
  std::map<int, std::vector<Card>> pending;            // read from the record, not yet reported
  std::map<int, std::vector<std::optional<Card>>> final_show;  // last "sm" of each player
  std::set<int> folded;

  // Reports the buffered cards in the order the engine asks for them: 3rd
  // street in three passes (down, down, door) seat by seat, then one card a
  // street [STUD-DEAL-1, STUD-DEAL-2].
  auto flush_deals = [&](const std::string& where) -> bool {
    while (st.phase == Phase::kAwaitingDeal) {
      const ExpectedDeal next = NextDeal(st);
      std::vector<Card>& queue = pending[next.seat];
      if (queue.empty()) {
        ADD_FAILURE() << where << ": the engine expects a card for seat " << next.seat << " on "
                      << StreetName(next.street) << " but the record has dealt none";
        return false;
      }
      const Card c = queue.front();
      queue.erase(queue.begin());
      const absl::Status s = Apply(st, {.kind = ActionKind::kDeal, .seat = next.seat, .card = c,
                                        .face_up = next.face_up});
      if (!s.ok()) {
        ADD_FAILURE() << where << ": deal " << c.ToString() << " to seat " << next.seat
                      << " refused [" << RuleIdOf(s) << "]: " << s;
        return false;
      }
    }
    return true;
  };

  int last_street_checked = 0;
  for (size_t idx = 0; idx < hand.actions.size(); ++idx) {
    const PhhAction& a = hand.actions[idx];
    const std::string where = absl::StrCat("action #", idx, " '", a.text, "'");
    ASSERT_GE(a.player, 1) << where;
    ASSERT_LE(a.player, num_seats) << where;

    if (a.type == ActionType::kDeal) {
      const std::vector<Card>& all = cards.at(a.player);
      for (size_t k = 0; k < a.cards.size(); ++k) {
        pending[a.player].push_back(all.at(dealt_so_far[a.player]++));
      }
      continue;
    }
    if (a.type == ActionType::kShowMuck) {
      // Applied at showdown in the order the engine asks [STUD-SHOW-1]; the
      // record may list shows in another order, or show before the last card
      // when a player is all-in, so only each player's last show counts.
      final_show[a.player] = a.cards;
      continue;
    }

    ASSERT_TRUE(flush_deals(where));
    ASSERT_EQ(st.phase, Phase::kBetting)
        << where << ": the record bets but the engine is in phase " << static_cast<int>(st.phase);

    // The first actor of each street must match the real table.
    if (static_cast<int>(st.street) != last_street_checked) {
      last_street_checked = static_cast<int>(st.street);
      if (st.street == Street::kThird) {
        // STUD-BRING-1, STUD-BRING-2 (suit order), STUD-BRING-3 (Razz: highest, ace low).
        ASSERT_EQ(a.type, ActionType::kBringIn) << where << ": 3rd street opens with the bring-in";
        EXPECT_EQ(st.bring_in_seat, a.player) << where << ": STUD-BRING-1/2/3 bring-in seat";
      }
      // STUD-ORDER-1, STUD-ORDER-2: the best board (Razz: the lowest) opens 4th to 7th.
      ASSERT_EQ(ToAct(st), a.player)
          << where << ": first to act on " << StreetName(st.street) << " ("
          << (st.street == Street::kThird ? "STUD-BRING-1" : "STUD-ORDER-1") << ")";
    }

    const std::vector<LegalAction> legal = LegalActions(st, a.player);
    std::optional<LegalAction> chosen;
    auto find = [&](std::initializer_list<ActionKind> kinds,
                    std::optional<Chips> amount) -> std::optional<LegalAction> {
      for (const LegalAction& l : legal) {
        if (std::find(kinds.begin(), kinds.end(), l.kind) == kinds.end()) continue;
        if (amount && l.amount_to != *amount) continue;
        return l;
      }
      return std::nullopt;
    };
    switch (a.type) {
      case ActionType::kBringIn:
        chosen = find({ActionKind::kBringIn}, std::nullopt);
        // STUD-BRING-4: the bring-in is the stakes' amount unless the seat is short.
        if (chosen && !chosen->all_in) {
          EXPECT_EQ(chosen->amount_to, hand.bring_in) << where;
        }
        break;
      case ActionType::kCompleteBetRaise:
        chosen = find({ActionKind::kComplete, ActionKind::kBet, ActionKind::kRaise}, a.amount);
        break;
      case ActionType::kCheckCall:
        chosen = find({ActionKind::kCheck, ActionKind::kCall}, std::nullopt);
        break;
      case ActionType::kFold:
        chosen = find({ActionKind::kFold}, std::nullopt);
        folded.insert(a.player);
        break;
      default:
        break;
    }
    ASSERT_TRUE(chosen.has_value())
        << where << ": not among the legal actions of seat " << a.player << " on "
        << StreetName(st.street) << ": " << Describe(legal);
    const absl::Status s =
        Apply(st, {.kind = chosen->kind, .seat = a.player, .amount_to = chosen->amount_to});
    ASSERT_TRUE(s.ok()) << where << " as " << ActionKindName(chosen->kind) << " "
                        << chosen->amount_to << " refused [" << RuleIdOf(s) << "]: " << s;
    ASSERT_EQ(TotalChips(st), total) << where << ": chips not conserved";
  }

  // Cards dealt after the last bet (all-in run-outs) and then the showdown.
  ASSERT_TRUE(flush_deals("end of record"));
  for (const auto& [player, queue] : pending) {
    EXPECT_TRUE(queue.empty()) << "seat " << player << " was dealt " << queue.size()
                               << " card(s) the engine never asked for";
  }
  while (st.phase == Phase::kShowdown) {
    const int seat = ToAct(st);
    auto it = final_show.find(seat);
    ASSERT_NE(it, final_show.end())
        << "STUD-SHOW-1: the engine asks seat " << seat << " to show, the record has no show";
    const ActionKind kind = it->second.empty() ? ActionKind::kMuck : ActionKind::kShow;
    const absl::Status s = Apply(st, {.kind = kind, .seat = seat});
    ASSERT_TRUE(s.ok()) << "seat " << seat << " " << ActionKindName(kind) << " refused ["
                        << RuleIdOf(s) << "]: " << s;
  }

  ASSERT_EQ(st.phase, Phase::kComplete) << "the record ended before the hand did";
  EXPECT_EQ(PotTotal(st), 0);
  EXPECT_EQ(TotalChips(st), total);

  // Who the engine paid, by half.
  std::set<int> paid_whole, paid_high, paid_low;
  for (const Operation& op : st.log) {
    if (op.type != OpType::kAward) continue;
    (op.half == 1 ? paid_high : op.half == 2 ? paid_low : paid_whole).insert(op.seat);
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
  EXPECT_EQ(paid_whole, expected.whole)
      << "whole pot: engine paid " << SeatsToString(paid_whole) << ", shown cards say "
      << SeatsToString(expected.whole);
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
  for (const auto& entry : std::filesystem::directory_iterator(
           absl::StrCat(STUD_SOURCE_DIR, "/tests/data/phh"))) {
    if (entry.path().extension() == ".phh") on_disk.insert(entry.path().filename().string());
  }
  EXPECT_EQ(on_disk, listed);
  EXPECT_EQ(listed.size(), 30u);
}

}  // namespace
}  // namespace stud
