// Internal pieces shared by engine.cc, betting.cc and dealing.cc. Not part of
// the engine's public contract.
#ifndef STUD_ENGINE_INTERNAL_H_
#define STUD_ENGINE_INTERNAL_H_

#include <vector>

#include "absl/status/status.h"
#include "engine/engine.h"
#include "engine/hand_state.h"

namespace stud::internal {

// ---- betting.cc ----
// The bet unit of the current street (small on 3rd/4th, big later) [STUD-BET-2].
Chips StreetUnit(const HandState& state);
// Every legal betting action of `seat` (requires phase kBetting and seat == actor).
std::vector<LegalAction> BettingOptions(const HandState& state, int seat);
// Why `action` is not among BettingOptions: a RuleViolation or INVALID_ARGUMENT.
absl::Status ExplainRefusal(const HandState& state, const Action& action,
                            const std::vector<LegalAction>& legal);
// Applies a verified betting action (one of BettingOptions) and advances the actor.
void ApplyBet(HandState& state, int seat, const LegalAction& chosen);
// True when nobody still able to bet owes an action this round.
bool RoundComplete(const HandState& state);
// Next seat clockwise after `from` that owes an action, or 0.
int NextToAct(const HandState& state, int from);
// Resets per-street betting fields.
void ResetRound(HandState& state);

// ---- dealing.cc ----
// Posts antes [STUD-SETUP-2, STUD-ALLIN-6].
void PostAntes(HandState& state);
// Deals the current street (kDeck) or sets up the expected reports
// (kReported, phase kAwaitingDeal). Returns true when all cards are out.
bool BeginStreetDeal(HandState& state);
// Gives a reported card; requires it to match NextDeal (checked by caller).
void GiveReportedCard(HandState& state, Card card);
// Designates who opens the betting on the current street and logs it.
void DesignateOpener(HandState& state);
// Seats receiving cards this street, in dealing order.
std::vector<int> Recipients(const HandState& state);

// ---- engine.cc ----
void Log(HandState& state, Operation op);
// After a round closes: next street, showdown or award.
void AdvanceAfterRound(HandState& state);

}  // namespace stud::internal

#endif  // STUD_ENGINE_INTERNAL_H_
