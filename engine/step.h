// A step of the hand as one value: what an action did and what comes next,
// so a caller (the service) converts one answer instead of asking the engine
// piece by piece.
#ifndef STUD_ENGINE_STEP_H_
#define STUD_ENGINE_STEP_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/ruling.h"

namespace stud {

// Who acts now and every action they may take.
struct NextStep {
  int to_act = 0;  // ToAct: a seat in kBetting / kShowdown, else 0
  // kAwaitingDeal: the card the dealer owes next (and a burn or reshuffle
  // first, by its `step`).
  std::optional<ExpectedDeal> deal;
  // The actor's legal actions; in kAwaitingDeal the receiving seat's deal
  // followed by the dealer's (seat 0) burn or reshuffle [STUD-DEAL-3,
  // STUD-DECK-1]. Empty once the hand is over.
  LegalActionList legal;
};
NextStep Next(const HandState& state);

struct Step {
  size_t first_op = 0;           // the step appended state.log[first_op..]
  std::optional<Ruling> ruling;  // a reported card revealed a dealer's error
  NextStep next;
};

// Advance (engine/advance.h) of an action: Apply, as one value. A kDeal that
// reveals a dealer's error (DealIrregularity) is ruled and the ruling
// returned; errors and the unchanged state on error as for Apply. Kept for
// callers that only apply actions.
absl::StatusOr<Step> ApplyStep(HandState& state, const Action& action);

}  // namespace stud

#endif  // STUD_ENGINE_STEP_H_
