// Irregularities: a floor person's ruling on every dealer or player error of
// the rule book (catalogue section 11) and the online time-out rules
// (STUD-ALLIN-4, STUD-ALLIN-5).
//
// RuleIrregularity takes a typed report (engine/irregularity_report.h),
// applies the ruling to the hand and says what it did, as data (engine/ruling.h):
// the rule, a decision code, the facts it speaks of (seats, cards, amounts) and
// the option value that chose where the rule books disagree, and the exact change (cards
// exposed or taken out, hands killed, chips returned, who acts now and with
// which options). The report is kept in HandState::reports and the ruling's
// operations follow a kRuling operation in the log, so Replay() re-applies it.
//
// Dealer errors (exposed, misplaced, premature cards, burn errors, a wrong
// opener, a wrong card count) only happen when a person deals: they are
// refused for hands the engine deals (DealSource::kDeck). In reported (LIVE)
// dealing, a deal report that itself reveals the error (a hole card or final
// card reported face up, a card reported before the betting is over) is ruled
// automatically by Advance (engine/advance.h) once the generic deal checks
// pass; DealIrregularity() names the report it stands for.
//
// Errors: INVALID_ARGUMENT for a malformed report (field named);
// FAILED_PRECONDITION with the rule ID when the report does not fit the hand
// now (the message says what to report instead). The state is unchanged on
// any error.
#ifndef STUD_ENGINE_IRREGULARITIES_H_
#define STUD_ENGINE_IRREGULARITIES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/irregularity_report.h"
#include "engine/ruling.h"

namespace stud {

// Rules on `report`, applies it to `state` and returns the ruling. On error
// the state is unchanged.
absl::StatusOr<Ruling> RuleIrregularity(HandState& state, const IrregularityReport& report);

// LIVE dealing: the report a deal action stands for when it reveals a dealer
// error (a hole card or final card reported face up, a card reported while
// the betting round is still open), or nullopt when it is regular or cannot
// be ruled (Apply then refuses it and says which report to make).
std::optional<IrregularityReport> DealIrregularity(const HandState& state, const Action& action);

}  // namespace stud

#endif  // STUD_ENGINE_IRREGULARITIES_H_
