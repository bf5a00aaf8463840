// Shared pieces of the irregularity rulings (irregularities.cc: table and
// player irregularities, dispatch and the ruling's record;
// irregularities_deal.cc: dealer errors). Not part of the public contract.
#ifndef STUD_ENGINE_IRREGULARITIES_INTERNAL_H_
#define STUD_ENGINE_IRREGULARITIES_INTERNAL_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "engine/irregularities.h"

namespace stud::internal {

// "seat 3" / "asiento 3" inside a ruling's explanation; SeatCap starts a sentence.
inline std::string Seat(int seat) { return absl::StrCat("seat ", seat); }
inline std::string SeatCap(int seat) { return absl::StrCat("Seat ", seat); }
inline std::string Asiento(int seat) { return absl::StrCat("asiento ", seat); }

// What a ruling decided, before the state change is measured.
struct Outcome {
  RuleId rule_id = RuleId::kNone;
  Decision decision = Decision::kNoEffect;
  std::string en;
  std::string es;
  std::string alternative;
  std::string redeal_en;
  std::string redeal_es;
  int allowance_remaining = -1;
};

// Checks every field of `report` against the state before any ruling
// (irregularities_validate.cc): the fields its kind does not read are at their
// defaults, seats, cards, streets and counts fit the hand. INVALID_ARGUMENT
// names the field; FAILED_PRECONDITION carries the rule ID.
absl::Status ValidateReport(const HandState& state, const IrregularityReport& report);
// Dealer errors: EXP-1..5, BURN-1/2, PREM-1/2. The state is a scratch copy.
absl::StatusOr<Outcome> RuleDealerError(HandState& state, const IrregularityReport& report);
// [STUD-IRR-WRONG-1] an action out of turn (irregularities_outofturn.cc).
absl::StatusOr<Outcome> OutOfTurn(HandState& state, const IrregularityReport& report);
// A seat skipped on a street (irregularities_skipped.cc) [STUD-IRR-CARDS-1,
// STUD-IRR-BURN-1]. The state is a scratch copy.
absl::StatusOr<Outcome> SkippedSeat(HandState& state, const IrregularityReport& report);
// Whether `seat` lacks a card of a street before 7th it was dealt (it was
// skipped): such a hand is not "missing only its seventh card" [STUD-IRR-CARDS-1].
bool MissesEarlierCard(const HandState& state, int seat);
// SKIPPED_SEAT against the hand: street dealt, seat live and really short.
absl::Status ValidateSkippedSeat(const HandState& state, const IrregularityReport& report);
// The whole ruling on a scratch copy (dispatch, record); used by RuleOn.
absl::StatusOr<Outcome> RuleOnCopy(HandState& state, const IrregularityReport& report);

// Helpers.
bool NoActionYet(const HandState& state);  // betting phase, nothing voluntary this street
void Kill(HandState& state, int seat, RuleId rule);
void ReturnChips(HandState& state, int seat, Chips amount, RuleId rule);
void Expose(HandState& state, int seat, int index, RuleId rule);
// Voids the hand (misdeal.cc): every chip back to its owner, or the antes
// kept in the pot for the redeal [STUD-IRR-EXP-1 MISDEAL, misdeal_antes].
Outcome Misdeal(HandState& state, int seat, RuleId rule);
absl::Status LiveOnly(const HandState& state, RuleId rule);

}  // namespace stud::internal

#endif  // STUD_ENGINE_IRREGULARITIES_INTERNAL_H_
