// Per-seat totals of a hand that PHH states as its result: the stacks after
// the last action (`finishing_stacks`) and the chips each seat collected from
// the pots (`winnings`). Shared by export, which writes them, and replay,
// which checks a record's against them. Internal to the history library.
#ifndef STUD_HISTORY_PHH_TOTALS_H_
#define STUD_HISTORY_PHH_TOTALS_H_

#include <cstddef>
#include <vector>

#include "engine/hand_state.h"

namespace stud::history {

// Seats 1..N in order: each seat's stack now.
inline std::vector<Chips> StacksBySeat(const HandState& st) {
  const int n = st.config.num_seats;
  std::vector<Chips> stacks;
  for (int i = 1; i <= n; ++i) stacks.push_back(st.seats[static_cast<size_t>(i)].stack);
  return stacks;
}

// Seats 1..N in order: the chips awarded to each seat from every pot so far.
inline std::vector<Chips> ChipsWonBySeat(const HandState& st) {
  const int n = st.config.num_seats;
  std::vector<Chips> won(static_cast<size_t>(n), 0);
  for (const Operation& op : st.log) {
    if (op.type == OpType::kAward && op.seat >= 1 && op.seat <= n) won[op.seat - 1u] += op.amount;
  }
  return won;
}

}  // namespace stud::history

#endif  // STUD_HISTORY_PHH_TOTALS_H_
