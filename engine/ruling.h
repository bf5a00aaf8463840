// A ruling as data: the rule applied, the decision it took, the facts it
// speaks of and the exact change to the hand. The engine builds no sentence:
// the service words a ruling in English and Spanish
// (text/ruling_text.h). The answer of a step that was ruled (engine/step.h,
// engine/irregularities.h).
#ifndef STUD_ENGINE_RULING_H_
#define STUD_ENGINE_RULING_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/basics.h"
#include "engine/card.h"
#include "engine/engine.h"
#include "engine/irregularity_report.h"

namespace stud {

enum class Decision : uint8_t {
  kThirdCardDown = 1,        // EXP-1 (cash): the exposed card stays up, the third comes down
  kMisdeal,                  // EXP-1/EXP-2 (tournament): the hand is void, everything returned
  kHandDeadAnteReturned,     // EXP-2: dead hand, ante back
  kNoEffect,                 // an up card off the table, upcards picked up at showdown
  kKeepFaceUp,               // EXP-4: the all-in player keeps the face-up final card
  kAllInOption,              // EXP-5(a)/(c): the face-up player may declare all-in
  kActFirstOption,           // EXP-5(a)/(c) under ACT_FIRST: the face-up player acts first
  kBothFinalCardsUp,         // EXP-5(b): heads-up, the second final card comes up too
  kActionCorrected,          // WRONG-1: the wrong opener takes its chips back
  kActionStands,             // WRONG-1: the wrong action stands, the true opener owes nothing
  kHandKilled,               // ABS-1, FOLD-2, CARDS-1: the hand is dead
  kBringInPostedHandKilled,  // ABS-1: an absent low card posts the bring-in, then is killed
  kCheckedOut,               // FOLD-1: fold binding, the seat is dealt to until a bet
  kCardsCorrected,           // BURN-1 / BURN-2 (AFFECTED_ONLY): cards put back in sequence
  kCardsStand,               // BURN-2 (ALL_STAND): every card stands
  kCardsTakenOut,            // PREM-1: premature cards out of play
  kPlayerKeepsCard,          // PREM-2: the player keeps the premature final card
  kHandLive,                 // CARDS-1: a hand short of its 7th card (or declared) plays
  kNoRefund,                 // CALL-1
  kWarning,                  // GAME-5: upcards rearranged, a warning
  kTimeoutAllIn,             // ALLIN-4: all-in for what is already in
  kTimeoutFold,              // ALLIN-5: allowance used up, the hand is folded
  kTimeoutCheck,             // ALLIN-5 (CHECK_IF_FREE): allowance used up, checked
  kActionBinding,            // WRONG-1 (out_of_turn_binding): the out-of-turn chips wait in the pot
  kPlaysShort,               // CARDS-1: a skipped seat plays on short a card until the showdown
};
absl::string_view DecisionName(Decision d);  // "THIRD_CARD_DOWN", ...

// Where the rule books disagree, the option value of the hand that decided a
// ruling (Options, engine/options.h); kNone when they agree.
enum class RulingOption : uint8_t {
  kNone = 0,
  kAbsentKillAfterStartingHands,     // absent_kill = AFTER_STARTING_HANDS (tournament)
  kAbsentKillWhenActionReaches,      // absent_kill = WHEN_ACTION_REACHES (cash)
  kFoldWhenCheckAtOnce,              // fold_when_check = AT_ONCE (online)
  kFoldWhenCheckLiveUntilBet,        // fold_when_check = LIVE_UNTIL_BET
  kShortHandAnyShort,                // short_hand = PLAYER_OPTION_ANY_SHORT
  kExhaustedTimeoutCheckIfFree,      // exhausted_timeout_action = CHECK_IF_FREE
  kDeadHandLowOpenerForced,          // dead_hand_low_opener = LEFT_PLAYER_FORCED
  kExposedHolecardDealThirdDown,     // exposed_holecard = DEAL_THIRD_DOWN (cash)
  kExposedHolecardMisdeal,           // exposed_holecard = MISDEAL (tournament)
  kExposedHolecardMisdealAntesKept,  // ... and misdeal_antes = STAY_IN_POT
  kFaceupFinalActFirst,              // faceup_final_option = ACT_FIRST
  kFinalBurnAllStand,                // final_burn_error = ALL_STAND
  kPrematureSeventhAllPlayers,       // premature_seventh = ALL_PLAYERS
  kOutOfTurnBinding,                 // out_of_turn_binding = true
};

// What a ruling speaks of: the facts its explanation is made from, with no
// words (the service renders them in English and Spanish). Which fields a
// ruling sets depends on its kind and decision; the others keep their
// defaults.
struct RulingParams {
  IrregularityKind kind = IrregularityKind::kHolecardExposed;  // what was reported
  int seat = 0;                                                // the seat the ruling is about
  int other_seat = 0;  // the seat that must act instead, or the other heads-up player
  bool has_card = false;
  Card card;                              // the card the ruling names
  Street street = Street::kThird;         // the street it speaks of
  int count = 0;                          // cards held, cards taken out, disconnect all-ins left
  Chips chips = 0;                        // chips in the pot, chips taken back
  ActionKind action = ActionKind::kFold;  // an action out of turn, to amount_to
  Chips amount_to = 0;
  // Seats that keep a misplaced card, in the order reported (STUD-IRR-BURN-2).
  std::array<int, kMaxSeats> kept{};
  int num_kept = 0;
  RulingOption option = RulingOption::kNone;
  // Which variant of the decision (each true where the sentence differs).
  bool disconnect = false;     // a time-out by disconnection
  bool burned_two = false;     // a burn error of two cards burned (else none)
  bool others_down = false;    // EXP-5: more than two live hands
  bool more_cards = false;     // PREM-2: other premature cards taken out too
  bool face_down = false;      // a card given face down
  bool while_dealing = false;  // a skipped seat found as the deal passes it
  friend bool operator==(const RulingParams&, const RulingParams&) = default;
};

struct SeatCardRef {
  int seat = 0;  // 0: not a seat's card (taken out of play, a burn)
  Card card;
  bool known = true;  // false: a card taken out of play without its identity
  friend bool operator==(const SeatCardRef&, const SeatCardRef&) = default;
};

struct StackChange {
  int seat = 0;
  Chips stack_delta = 0;      // chips added to (negative: taken from) the stack
  Chips committed_delta = 0;  // change of what the seat has in the pot
  friend bool operator==(const StackChange&, const StackChange&) = default;
};

struct Ruling {
  RuleId rule_id = RuleId::kNone;  // the rule applied (STUD-IRR-EXP-2)
  Decision decision = Decision::kNoEffect;
  // What it speaks of, and the option value that decided where the rule
  // books disagree (params.option). No words: the service renders them
  // (text/ruling_text.h).
  RulingParams params;
  // The exact change.
  std::vector<SeatCardRef> exposed;  // cards now face up for everyone
  std::vector<SeatCardRef> removed;  // cards taken out of a hand or out of play
  std::vector<SeatCardRef> given;    // cards now in a hand that were not before
  std::vector<int> killed;           // hands now dead
  std::vector<StackChange> chips;    // every seat whose chips changed
  int to_act = 0;                    // ToAct() afterwards
  std::vector<LegalAction> options;  // LegalActions(to_act) afterwards
  int allowance_remaining = -1;      // STUD-ALLIN-5: disconnect all-ins left after this
  size_t first_op = 0;               // the ruling's operations: log[first_op, end_op)
  size_t end_op = 0;
};

}  // namespace stud

#endif  // STUD_ENGINE_RULING_H_
