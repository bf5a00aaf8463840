// The core's extension points (engine/table_ops.h), answered from the
// table of kinds (engine/irregularity_table.h).
#include "engine/irregularity_table.h"

namespace stud::internal {

void RulingsAtRoundEnd(HandState& st) {
  for (auto hook : table_detail::kAtRoundEnd) hook(st);
}

bool RulingsAtSettle(HandState& st) {
  bool all_short = false;
  for (auto hook : table_detail::kAtSettle) all_short = hook(st) || all_short;
  return all_short;
}

}  // namespace stud::internal
