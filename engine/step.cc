#include "engine/step.h"

#include <utility>

namespace stud {

NextStep Next(const HandState& st) {
  NextStep next;
  next.to_act = ToAct(st);
  if (st.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal deal = NextDeal(st);
    next.deal = deal;
    next.legal = LegalActions(st, deal.seat);
    if (deal.seat != kBoardSeat) {
      for (const LegalAction& a : LegalActions(st, kBoardSeat)) next.legal.push_back(a);
    }
  } else if (next.to_act != 0) {
    next.legal = LegalActions(st, next.to_act);
  }
  return next;
}

absl::StatusOr<Step> ApplyStep(HandState& st, const Action& action) {
  Step step;
  step.first_op = st.log.size();
  if (std::optional<IrregularityReport> report = DealIrregularity(st, action)) {
    absl::StatusOr<Ruling> ruling = RuleIrregularity(st, *report);
    if (!ruling.ok()) return ruling.status();
    step.ruling = *std::move(ruling);
  } else if (absl::Status s = Apply(st, action); !s.ok()) {
    return s;
  }
  step.next = Next(st);
  return step;
}

}  // namespace stud
