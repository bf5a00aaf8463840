// Fixed-limit stakes: ante, bring-in, small bet, big bet [STUD-STAKES-1..5].
//
// All amounts are integer chips (cents); nothing in the engine uses floating
// point. The stakes table of the rule documents ships as named presets
// [STUD-STAKES-2]; any other structure is validated by ValidateStakes.
#ifndef STUD_ENGINE_STAKES_H_
#define STUD_ENGINE_STAKES_H_

#include <cstdint>
#include <optional>
#include <span>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace stud {

using Chips = int64_t;

// Largest stack or contribution the engine accepts: sums over eight seats
// stay far from overflow.
inline constexpr Chips kMaxStack = Chips{1} << 40;

struct Stakes {
  Chips ante = 0;       // posted by every seat before the deal [STUD-SETUP-2]
  Chips bring_in = 0;   // forced opening bet of the low card [STUD-BRING-4]
  Chips small_bet = 0;  // bet unit on 3rd and 4th street; the completion [STUD-STAKES-1]
  Chips big_bet = 0;    // bet unit on 5th, 6th and 7th street [STUD-STAKES-1]

  friend bool operator==(const Stakes&, const Stakes&) = default;
};

struct StakesPreset {
  absl::string_view name;  // "$15-$30": the label of the stakes table
  Stakes stakes;
};

// The 13 rows of the stakes table, in integer cents [STUD-STAKES-2]. The row
// printed "$20-$30" is really $20-$40 and ships as 2000/4000 [STUD-STAKES-4].
std::span<const StakesPreset> StakesPresets();
// Looks a preset up by its label ("$4-$8"; "4-8", "$20-$40" and "$20-$30" also match).
std::optional<Stakes> FindStakesPreset(absl::string_view name);

// Checks a custom structure: every amount positive (the ante may be zero),
// bring-in below the small bet, small bet below the big bet. Returns
// INVALID_ARGUMENT naming the field and the rule on failure.
absl::Status ValidateStakes(const Stakes& stakes);

// Bring-in under the alternative STUD-STAKES-3 reading `HALF_SMALL_BET`:
// half the small bet rounded down to a multiple of `chip_unit`.
Chips HalfSmallBetBringIn(const Stakes& stakes, Chips chip_unit);

}  // namespace stud

#endif  // STUD_ENGINE_STAKES_H_
