// Rule options: every place where the rule documents disagree is a named
// option with the catalogue's default, and options are grouped in profiles.
//
// A hand's options are fixed when it starts and travel with it. Each field
// cites the rule it configures; docs/rules.md lists them with both readings.
#ifndef STUD_ENGINE_OPTIONS_H_
#define STUD_ENGINE_OPTIONS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/stakes.h"

namespace stud {

enum class Variant : uint8_t {
  kStud = 1,      // Seven Card Stud, high only
  kStudHiLo = 2,  // Stud Hi-Lo eight-or-better
  kRazz = 3,      // Razz: ace-to-five low, highest door card brings in
};
absl::string_view VariantName(Variant v);

// Profiles group option defaults [catalogue section 0].
enum class Profile : uint8_t {
  kCash = 1,        // cardroom cash game (the default)
  kTournament = 2,  // tournament and league play
  kOnline = 3,      // the service deals; cash rules otherwise
};
absl::string_view ProfileName(Profile p);

enum class BringInSource : uint8_t { kStakesTable, kHalfSmallBet };          // STUD-STAKES-3
enum class ThirdStreetOpener : uint8_t { kLowCardBringIn, kHighCardOpens };  // STUD-BRING-1
enum class ShortAllInRule : uint8_t { kHalfBet, kFullBet };                  // STUD-CAP-2
enum class OpenPairScope : uint8_t { kAnyPlayer, kFirstActorWithPair };      // STUD-PAIR-1
enum class DeckExhaustion : uint8_t {                                        // STUD-DECK-1..4
  kRecycleBurnThenCommon,   // 001 (RRoP): deal all but one, recycle, burn again
  kRecycleSkipBurnIfShort,  // 004: no burn when short
  kCommonImmediately,       // 000/002: a common card as soon as the stub is short
};
enum class OddChipCards : uint8_t { kAllCards, kBestFive };                     // STUD-ODD-5(a)
enum class ShortHand : uint8_t { kMissingSeventhLive, kPlayerOptionAnyShort };  // STUD-IRR-CARDS-1
enum class ExposedHolecard : uint8_t { kDealThirdDown, kMisdeal };              // STUD-IRR-EXP-1
enum class DeadHandLowOpener : uint8_t {
  kLeftPlayerOptional,
  kLeftPlayerForced
};                                                                            // STUD-IRR-EXP-2
enum class AbsentKill : uint8_t { kWhenActionReaches, kAfterStartingHands };  // STUD-IRR-ABS-1
// STUD-IRR-FOLD-1: a fold with no bet to face. kBindingKeepDealing: the hand
// is dead but the seat keeps receiving cards until a bet is made (live
// dealing keeps the card flow); kLiveUntilBet: the same card flow (the floor
// reading that the hand is live until it faces a bet); kAtOnce: the seat leaves
// the hand at once (online).
enum class FoldWhenCheck : uint8_t { kBindingKeepDealing, kLiveUntilBet, kAtOnce };
enum class FinalBurnError : uint8_t { kAffectedOnly, kAllStand };     // STUD-IRR-BURN-2
enum class PrematureSeventh : uint8_t { kThatPlayer, kAllPlayers };   // STUD-IRR-PREM-2
enum class FaceupFinalOption : uint8_t { kDeclareAllIn, kActFirst };  // STUD-IRR-EXP-5
enum class ExhaustedTimeout : uint8_t { kFold, kCheckIfFree };        // STUD-ALLIN-5
// STUD-IRR-EXP-1: the antes of a misdealt hand. kReturned: every ante goes
// back and the redeal posts them again; kStayInPot: they stay in the pot and
// the redeal plays for them (HandConfig::carried_antes) without new antes.
enum class MisdealAntes : uint8_t { kReturned, kStayInPot };

struct Options {
  Profile profile = Profile::kCash;
  BringInSource bring_in_source = BringInSource::kStakesTable;                 // STUD-STAKES-3
  bool burn_before_third = false;                                              // STUD-DEAL-3
  ThirdStreetOpener third_street_opener = ThirdStreetOpener::kLowCardBringIn;  // STUD-BRING-1
  bool bring_in_option = false;                                                // STUD-BRING-7
  int max_raises_per_round = 3;                                                // STUD-CAP-1
  bool uncapped_heads_up = false;                                              // STUD-CAP-1
  ShortAllInRule short_allin_rule = ShortAllInRule::kHalfBet;                  // STUD-CAP-2
  OpenPairScope open_pair_scope = OpenPairScope::kAnyPlayer;                   // STUD-PAIR-1
  bool hilo_open_pair_double = false;                                          // STUD-PAIR-5
  DeckExhaustion deck_exhaustion = DeckExhaustion::kRecycleBurnThenCommon;     // STUD-DECK-*
  OddChipCards odd_chip_cards = OddChipCards::kAllCards;                       // STUD-ODD-5(a)
  bool odd_chip_low_ace_low = true;                                            // STUD-ODD-5(b)
  Chips odd_chip_unit = 1;                                                     // STUD-ODD-5(c)
  // Irregularity options (ruled by the irregularity layer; fixed per hand).
  ShortHand short_hand = ShortHand::kMissingSeventhLive;               // STUD-IRR-CARDS-1
  ExposedHolecard exposed_holecard = ExposedHolecard::kDealThirdDown;  // STUD-IRR-EXP-1
  DeadHandLowOpener dead_hand_low_opener = DeadHandLowOpener::kLeftPlayerOptional;  // EXP-2
  AbsentKill absent_kill = AbsentKill::kWhenActionReaches;                   // STUD-IRR-ABS-1
  FoldWhenCheck fold_when_check = FoldWhenCheck::kBindingKeepDealing;        // STUD-IRR-FOLD-1
  bool allow_fold_when_check = true;                                         // STUD-IRR-FOLD-1
  FinalBurnError final_burn_error = FinalBurnError::kAffectedOnly;           // STUD-IRR-BURN-2
  PrematureSeventh premature_seventh = PrematureSeventh::kThatPlayer;        // STUD-IRR-PREM-2
  FaceupFinalOption faceup_final_option = FaceupFinalOption::kDeclareAllIn;  // STUD-IRR-EXP-5
  int disconnect_allins_per_period = 2;                                      // STUD-ALLIN-5
  ExhaustedTimeout exhausted_timeout_action = ExhaustedTimeout::kFold;       // STUD-ALLIN-5
  bool announce_draws = false;                                               // STUD-IRR-ANN-1
  // An action out of turn: false, taken back at once (the STUD-IRR-WRONG-1
  // text); true, it stands when the seat's turn comes if the action to it has
  // not changed (cardroom practice; no seed says so).
  bool out_of_turn_binding = false;                      // STUD-IRR-WRONG-1
  MisdealAntes misdeal_antes = MisdealAntes::kReturned;  // STUD-IRR-EXP-1

  friend bool operator==(const Options&, const Options&) = default;
};

// The defaults of a profile: CASH is the catalogue default; TOURNAMENT turns
// an exposed holecard into a misdeal (STUD-IRR-EXP-1) and kills absent hands
// after the starting deal (STUD-IRR-ABS-1); ONLINE folds at once when a
// player folds with no bet to face (STUD-IRR-FOLD-1). The odd-chip unit
// defaults to 1 cent everywhere; live rooms set their smallest chip.
Options ProfileDefaults(Profile profile);

// Range checks (raise cap 1..100, odd chip unit positive).
absl::Status ValidateOptions(const Options& options);

// The stakes a hand is played at: the configured structure with the bring-in
// the chosen STUD-STAKES-3 reading gives (the table's column, or half the
// small bet rounded down to the odd-chip unit).
Stakes StakesInPlay(const Stakes& stakes, const Options& options);

}  // namespace stud

#endif  // STUD_ENGINE_OPTIONS_H_
