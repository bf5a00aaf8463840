// The irregularity floor's own pieces: the table of kinds (one row per
// IrregularityKind: its checks, its ruling and any lasting effect) and the
// functions its rows name. The rulings change a hand only through the core's
// table operations (engine/table_ops.h). Not part of the public contract.
#ifndef STUD_ENGINE_IRREGULARITIES_INTERNAL_H_
#define STUD_ENGINE_IRREGULARITIES_INTERNAL_H_

#include <string>

#include "absl/status/statusor.h"
#include "engine/irregularities.h"
#include "engine/table_ops.h"

namespace stud::internal {

// What a ruling decided, before the state change is measured.
struct Outcome {
  RuleId rule_id = RuleId::kNone;
  Decision decision = Decision::kNoEffect;
  RulingParams params;
  int allowance_remaining = -1;
};

using CheckFn = absl::Status (*)(const HandState&, const IrregularityReport&);
using RuleFn = absl::StatusOr<Outcome> (*)(HandState&, const IrregularityReport&);

// One row of the table of kinds (engine/irregularity_table.h). A new kind is a row
// here, a ruling, and its entry in engine/irregularity_report.h.
struct KindRules {
  IrregularityKind kind;
  // The kind's own checks of the fields it reads, after the generic ones
  // (unread fields at their defaults, the seat, LIVE dealing for a dealer
  // error); null when those suffice. INVALID_ARGUMENT names the field.
  CheckFn check;
  // The ruling, on a scratch copy of the hand (RuleOn keeps it or drops it).
  RuleFn rule;
  // A ruling that stays in force after its step: what it does after every
  // step, when a betting round closes, and before the pots are settled
  // (true: every live hand is one it would kill, so none is).
  void (*after_step)(HandState&) = nullptr;
  void (*at_round_end)(HandState&) = nullptr;
  bool (*at_settle)(HandState&) = nullptr;
};

// ---- the floor's answers to the door (engine/advance.cc) ----
// Rules on `report` in `work` (a copy of `before`, or `before` after an
// implied burn) without touching version, and measures the change against
// `before`. On error `work` is to be dropped.
absl::StatusOr<Ruling> RuleOn(HandState& work, const IrregularityReport& report,
                              const HandState& before);

// ---- irregularities_validate.cc ----
// Checks every field of `report` against the state before any ruling.
// INVALID_ARGUMENT names the field; FAILED_PRECONDITION carries the rule ID.
absl::Status ValidateReport(const HandState& state, const IrregularityReport& report);
absl::Status CheckCardOfSeat(const HandState& state, const IrregularityReport& report);
absl::Status CheckHoleCards(const HandState& state, const IrregularityReport& report);
absl::Status CheckWrongOpener(const HandState& state, const IrregularityReport& report);
absl::Status CheckOutOfTurn(const HandState& state, const IrregularityReport& report);
absl::Status CheckBurn(const HandState& state, const IrregularityReport& report);
absl::Status CheckPremature(const HandState& state, const IrregularityReport& report);
absl::Status CheckCardCount(const HandState& state, const IrregularityReport& report);
absl::Status CheckTimeout(const HandState& state, const IrregularityReport& report);
absl::Status CheckCalled(const HandState& state, const IrregularityReport& report);
absl::Status CheckReordered(const HandState& state, const IrregularityReport& report);

// ---- irregularities_deal.cc: dealer errors (scratch copy) ----
absl::StatusOr<Outcome> RuleExposed(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleBurnError(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RulePremature(HandState& state, const IrregularityReport& report);

// ---- irregularities.cc: player and table irregularities ----
absl::StatusOr<Outcome> RuleWrongOpener(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleAbsent(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleFoldOut(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleCardCount(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleTimeout(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleCalledWhenBeaten(HandState& state, const IrregularityReport& report);
absl::StatusOr<Outcome> RuleUpcardsReordered(HandState& state, const IrregularityReport& report);

// ---- irregularities_outofturn.cc [STUD-IRR-WRONG-1] ----
// The rule of an action out of turn; a betting operation carrying it is a
// held action that stood, made by the engine (Replay skips it).
inline constexpr RuleId kOutOfTurnRule = RuleId::kIrrWrong1;
absl::StatusOr<Outcome> RuleOutOfTurn(HandState& state, const IrregularityReport& report);
// An action out of turn held under out_of_turn_binding: after every accepted
// action or ruling, stands when the seat's turn comes unchanged, else goes
// back when it can no longer stand.
void SettleOutOfTurn(HandState& state);
// Before a round closes: any held out-of-turn chips go back to their seat.
void TakeBackOutOfTurn(HandState& state);

// ---- irregularities_skipped.cc [STUD-IRR-CARDS-1, STUD-IRR-BURN-1] ----
absl::StatusOr<Outcome> RuleSkippedSeat(HandState& state, const IrregularityReport& report);
absl::Status CheckSkippedSeat(const HandState& state, const IrregularityReport& report);
// Whether `seat` lacks a card of a street before 7th it was dealt (it was
// skipped): such a hand is not "missing only its seventh card".
bool MissesEarlierCard(const HandState& state, int seat);
// Before the pots are settled at a showdown: kills each live hand a skipped
// deal left short of more than its 7th card, under short_hand =
// MISSING_SEVENTH_LIVE. When every live hand is such a hand, none is killed
// and the caller settles them as they are (true).
bool KillDeadShortHands(HandState& state);

// ---- shared by the rulings ----
// Voids the hand (misdeal.cc): every chip back to its owner, or the antes
// kept in the pot for the redeal [STUD-IRR-EXP-1 MISDEAL, misdeal_antes].
Outcome Misdeal(HandState& state, int seat, RuleId rule);
// A dealer error only a person dealing can make (LIVE dealing).
absl::Status LiveOnly(const HandState& state, RuleId rule);

}  // namespace stud::internal

#endif  // STUD_ENGINE_IRREGULARITIES_INTERNAL_H_
