// The one door into a hand: every change of a HandState is one Advance.
//
// An input is what the table reports: a player's or the dealer's action, or
// an irregularity report. Advance checks it, rules on it and applies it, as
// one step, in this order (OpenSpiel's ApplyAction / DoApplyAction shape):
//   1. the request's own checks (seat, amount) and, for a card reported in
//      kAwaitingDeal, the generic deal checks (a real card not in play
//      [STUD-DEAL-4], no reshuffle due [STUD-DECK-1], a due burn implied by the
//      card and the stub still serving [STUD-DEAL-3]);
//   2. only then, the classification of the card: a report that reveals a
//      dealer's error (DealIrregularity: dealt face up [STUD-IRR-EXP-1, -2,
//      -5], before the betting is over [STUD-IRR-PREM-1]) is ruled, after the
//      burn it implies; any other input is applied by the core or ruled;
//   3. the epilogue every step shares: a held out-of-turn action whose turn
//      came is settled [STUD-IRR-WRONG-1], and `version` goes up by one.
// (Held chips go back when a round closes and dead short hands are killed
// before the pots are settled: both happen inside the step, where the log
// needs them, not after it.)
//
// Apply, ApplyStep and RuleIrregularity are this function seen through a
// narrower answer; Replay re-applies a log through it. So a table event gets
// the same ruling, log and version by whichever entry point it arrives.
//
// Errors as for Apply (engine/engine.h) and RuleIrregularity
// (engine/irregularities.h); on any error the state is unchanged.
#ifndef STUD_ENGINE_ADVANCE_H_
#define STUD_ENGINE_ADVANCE_H_

#include <variant>

#include "absl/status/statusor.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/irregularities.h"
#include "engine/irregularity_report.h"
#include "engine/step.h"

namespace stud {

using Input = std::variant<Action, IrregularityReport>;

// Whether the answer lists what comes next (Step::next). Apply and Replay
// do not read it and skip the cost; the state is the same either way.
enum class NextSteps : uint8_t { kList, kSkip };

// One step of the hand. Step::ruling is set when the input was ruled (a
// report, or a card whose report revealed a dealer's error); Step::first_op
// is where the step's operations begin (an implied burn comes first).
absl::StatusOr<Step> Advance(HandState& state, const Input& input,
                             NextSteps next = NextSteps::kList);

}  // namespace stud

#endif  // STUD_ENGINE_ADVANCE_H_
