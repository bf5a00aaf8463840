// Pots, side pots and showdown settlement.
//
// Stateless: given the variant, each seat's cards, what each seat put in and
// whether its hand is still live, Settle() builds the main pot and every side
// pot [STUD-ALLIN-1, STUD-ALLIN-2], finds the winners of each pot (high, and
// in Hi-Lo the qualifying low [STUD-HILO-1..8]), splits ties [STUD-SHOW-4] and
// hands out odd chips by the stud rules [STUD-ODD-1..5]. The engine uses it at
// showdown and the service exposes it directly for platforms that run their
// own betting.
#ifndef STUD_ENGINE_POT_H_
#define STUD_ENGINE_POT_H_

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/card.h"
#include "engine/hand_eval.h"
#include "engine/hand_state.h"
#include "engine/options.h"

namespace stud {

struct ShowdownSeat {
  int seat = 0;             // 1..kMaxSeats
  std::vector<Card> cards;  // the seat's own cards (a common card goes in `common`)
  Chips committed = 0;      // everything the seat put in this hand, antes included
  bool live = true;         // false: folded or mucked; pays into pots, cannot win
};

struct PotShare {
  int seat = 0;
  Chips amount = 0;
  PotHalf half = PotHalf::kWhole;
  bool odd_chip = false;  // this share includes odd chip(s)
  RuleId odd_chip_rule;   // STUD-ODD-1..4 when odd_chip
};

struct SettledPot {
  Chips amount = 0;
  std::vector<int> eligible;      // live seats that may win it, ascending
  std::vector<int> high_winners;  // Razz: the low winners
  std::vector<int> low_winners;   // Hi-Lo only; empty when no low qualifies [STUD-HILO-3]
  std::vector<PotShare> shares;
  RuleId rule_id = RuleId::kNone;  // the rule that decided the split
};

// A live hand as data: its values name it (RanksOfHigh/RanksOfLow; the words
// are the service's, text/hand_names.h).
struct ShownHand {
  int seat = 0;
  HighValue high = 0;
  std::array<Card, 5> best_high{};
  bool has_low = false;  // Hi-Lo: qualifies for low; Razz: always
  LowValue low = 0;
  std::array<Card, 5> best_low{};
};

struct Settlement {
  std::vector<SettledPot> pots;                 // main pot first
  std::vector<ShownHand> hands;                 // one per live seat
  std::array<Chips, kMaxSeats + 1> won{};       // indexed by seat
  std::array<Chips, kMaxSeats + 1> returned{};  // uncalled chips given back [STUD-ALLIN-1]
};

// Chips one live seat put in above every other seat's total: nobody called
// them, so they go back to that seat and belong to no pot [STUD-ALLIN-1].
struct Uncalled {
  int seat = 0;  // 0 when every chip was called
  Chips amount = 0;
};
Uncalled FindUncalled(std::span<const ShowdownSeat> seats);

// Pots from contributions: each distinct level of the live seats' totals
// closes a pot; folded chips fall into the pots they reach. Chips above every
// live seat's total (an unmatched bet) form a last pot for the seats at the top.
std::vector<Pot> BuildPots(std::span<const ShowdownSeat> seats);

// Settles every pot, after giving back an uncalled excess (FindUncalled), so
// pots hold only called chips: sum of pots + returned == sum of contributions.
// Requires each live seat to hold 5..7 own cards (with
// `common` counted); INVALID_ARGUMENT for duplicate cards, bad seats or counts.
absl::StatusOr<Settlement> Settle(Variant variant, const Options& options,
                                  std::span<const ShowdownSeat> seats,
                                  std::optional<Card> common = std::nullopt);

}  // namespace stud

#endif  // STUD_ENGINE_POT_H_
