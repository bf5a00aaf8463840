#include "engine/step.h"

namespace stud {

NextStep Next(const HandState& st) {
  NextStep next;
  next.to_act = ToAct(st);
  if (st.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal deal = NextDeal(st);
    next.deal = deal;
    next.legal = LegalActionsInline(st, deal.seat);
    if (deal.seat != kBoardSeat) {
      for (const LegalAction& a : LegalActionsInline(st, kBoardSeat)) next.legal.push_back(a);
    }
  } else if (next.to_act != 0) {
    next.legal = LegalActionsInline(st, next.to_act);
  }
  return next;
}

}  // namespace stud
