// The table of irregularity kinds: for each kind, its own checks, its ruling
// and what it does while it stays in force (KindRules,
// engine/irregularities_internal.h). Dispatch (RuleOn, the validator), the
// door's epilogue and the core's extension points (engine/table_ops.h) read
// it, so adding a kind adds a row here, not a branch in the core. Kept in a
// header so the hooks of a column are known at compile time: Apply's
// epilogue calls the one lasting ruling directly.
#ifndef STUD_ENGINE_IRREGULARITY_TABLE_H_
#define STUD_ENGINE_IRREGULARITY_TABLE_H_

#include <array>
#include <cstddef>
#include <type_traits>

#include "engine/irregularities_internal.h"

namespace stud::internal {
namespace table_detail {

inline constexpr KindRules kKinds[] = {
    {IrregularityKind::kHolecardExposed, CheckCardOfSeat, RuleExposed},      // STUD-IRR-EXP-1
    {IrregularityKind::kBothHolecardsExposed, CheckHoleCards, RuleExposed},  // STUD-IRR-EXP-2
    {IrregularityKind::kCardOffTable, CheckCardOfSeat, RuleExposed},         // STUD-IRR-EXP-3
    {IrregularityKind::kFinalCardFaceUp, CheckCardOfSeat, RuleExposed},      // STUD-IRR-EXP-4, -5
    {IrregularityKind::kWrongOpener, CheckWrongOpener, RuleWrongOpener},     // STUD-IRR-WRONG-1
    {IrregularityKind::kAbsentPlayer, nullptr, RuleAbsent},                  // STUD-IRR-ABS-1
    {IrregularityKind::kCheckedOut, nullptr, RuleFoldOut},                   // STUD-IRR-FOLD-1
    {IrregularityKind::kUpcardsPickedUp, nullptr, RuleFoldOut},  // STUD-IRR-FOLD-2, STUD-SHOW-3
    {IrregularityKind::kBurnError, CheckBurn, RuleBurnError},    // STUD-IRR-BURN-1, -2
    {IrregularityKind::kPrematureDeal, CheckPremature, RulePremature},   // STUD-IRR-PREM-1, -2
    {IrregularityKind::kWrongCardCount, CheckCardCount, RuleCardCount},  // STUD-IRR-CARDS-1
    {IrregularityKind::kCalledWhenBeaten, CheckCalled, RuleCalledWhenBeaten},     // STUD-IRR-CALL-1
    {IrregularityKind::kUpcardsReordered, CheckReordered, RuleUpcardsReordered},  // STUD-GAME-5
    {IrregularityKind::kTimeout, CheckTimeout, RuleTimeout},  // STUD-ALLIN-4, -5
    {IrregularityKind::kActionOutOfTurn, CheckOutOfTurn, RuleOutOfTurn, SettleOutOfTurn,
     TakeBackOutOfTurn},  // STUD-IRR-WRONG-1
    {IrregularityKind::kSkippedSeat, CheckSkippedSeat, RuleSkippedSeat, nullptr, nullptr,
     KillDeadShortHands},  // STUD-IRR-CARDS-1, STUD-IRR-BURN-1
};

constexpr bool RowsInKindOrder() {
  for (size_t i = 0; i < std::size(kKinds); ++i) {
    if (static_cast<size_t>(kKinds[i].kind) != i + 1) return false;
  }
  return std::size(kKinds) == kIrregularityKinds.size();
}
static_assert(RowsInKindOrder(), "one row per IrregularityKind, in enum order");

// The non-null hooks of one column, gathered at compile time, so a step
// calls exactly the lasting rulings there are (Apply's epilogue runs on every
// action).
template <auto Hook>
constexpr size_t CountOf() {
  size_t n = 0;
  for (const KindRules& k : kKinds) n += k.*Hook != nullptr ? 1 : 0;
  return n;
}
template <auto Hook>
constexpr auto HooksOf() {
  std::array<std::remove_cvref_t<decltype(kKinds[0].*Hook)>, CountOf<Hook>()> out{};
  size_t i = 0;
  for (const KindRules& k : kKinds) {
    if (k.*Hook != nullptr) out[i++] = k.*Hook;
  }
  return out;
}
inline constexpr auto kAfterStep = HooksOf<&KindRules::after_step>();
inline constexpr auto kAtRoundEnd = HooksOf<&KindRules::at_round_end>();
inline constexpr auto kAtSettle = HooksOf<&KindRules::at_settle>();

}  // namespace table_detail

inline const KindRules& RulesOf(IrregularityKind kind) {
  return table_detail::kKinds[static_cast<size_t>(kind) - 1];
}

inline void RulingsAfterStep(HandState& st) {
  for (auto hook : table_detail::kAfterStep) hook(st);
}

}  // namespace stud::internal

#endif  // STUD_ENGINE_IRREGULARITY_TABLE_H_
