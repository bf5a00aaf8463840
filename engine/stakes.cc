#include "engine/stakes.h"

#include <array>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "engine/refusal.h"

namespace stud {
namespace {

// [STUD-STAKES-2] The "7 Card Stud Antes" table, converted to cents.
// Columns: ante, bring-in, small bet, big bet.
constexpr std::array<StakesPreset, 13> kPresets = {{
    {"$.25-$.50", {5, 10, 25, 50}},
    {"$.50-$1", {10, 15, 50, 100}},
    {"$1-$2", {25, 25, 100, 200}},
    {"$2-$4", {50, 50, 200, 400}},
    {"$3-$6", {100, 100, 300, 600}},
    {"$4-$8", {100, 100, 400, 800}},
    {"$5-$10", {100, 200, 500, 1000}},
    {"$8-$16", {150, 200, 800, 1600}},
    {"$10-$20", {200, 300, 1000, 2000}},
    {"$15-$30", {300, 500, 1500, 3000}},
    // [STUD-STAKES-4] printed "$20-$30" but both later columns say $40.
    {"$20-$40", {500, 500, 2000, 4000}},
    {"$30-$60", {1000, 1000, 3000, 6000}},
    {"$50-$100", {1000, 1500, 5000, 10000}},
}};

// A label as the table spells it: "$.50-$1.00", "0.50/1" and "$0.50 - $1" all
// read ".50-1", "$10.00-$20.00" reads "10-20", and "$20-$30" "20-40". Lower
// case; dollar signs and spaces dropped; "/" read as "-"; in each amount a
// leading "0" before the point and a trailing ".00" dropped. A table label is
// short enough to stay in the string itself, so a lookup does not allocate.
std::string Canonical(absl::string_view name) {
  std::string s;
  for (const char c : name) {
    if (c == '$' || c == ' ') continue;
    s += c == '/' ? '-' : absl::ascii_tolower(static_cast<unsigned char>(c));
  }
  std::string out;
  bool first = true;
  for (absl::string_view amount : absl::StrSplit(s, '-')) {
    if (absl::EndsWith(amount, ".00")) amount.remove_suffix(3);
    if (absl::StartsWith(amount, "0.")) amount.remove_prefix(1);
    if (!first) out += '-';
    first = false;
    out.append(amount.data(), amount.size());
  }
  if (out == "20-30") out = "20-40";  // [STUD-STAKES-4]
  return out;
}

}  // namespace

std::span<const StakesPreset> StakesPresets() { return kPresets; }

std::optional<Stakes> FindStakesPreset(absl::string_view name) {
  // The table's canonical labels, computed once (every NewHand looks one up).
  static const auto* canonical = [] {
    auto* out = new std::array<std::string, kPresets.size()>();
    for (size_t i = 0; i < kPresets.size(); ++i) (*out)[i] = Canonical(kPresets[i].name);
    return out;
  }();
  const std::string wanted = Canonical(name);
  for (size_t i = 0; i < kPresets.size(); ++i) {
    if ((*canonical)[i] == wanted) return kPresets[i].stakes;
  }
  return std::nullopt;
}

absl::Status ValidateStakes(const Stakes& s) {
  auto bad = [](const char* field, Refusal what) {
    return Malformed({.what = what, .field = field});
  };
  if (s.ante < 0) return bad("stakes.ante", Refusal::kAnteNegative);
  if (s.small_bet <= 0) return bad("stakes.small_bet", Refusal::kSmallBetNotPositive);
  if (s.big_bet <= s.small_bet) return bad("stakes.big_bet", Refusal::kBigBetNotLarger);
  if (s.bring_in <= 0 || s.bring_in >= s.small_bet) {
    return bad("stakes.bring_in", Refusal::kBringInOutOfRange);
  }
  constexpr Chips kMaxAmount = kMaxStack;  // keeps every sum far from overflow
  if (s.ante > kMaxAmount || s.big_bet > kMaxAmount) {
    return bad("stakes.big_bet", Refusal::kStakesTooLarge);
  }
  return absl::OkStatus();
}

Chips HalfSmallBetBringIn(const Stakes& stakes, Chips chip_unit) {
  if (chip_unit <= 0) chip_unit = 1;
  return stakes.small_bet / 2 / chip_unit * chip_unit;
}

}  // namespace stud
