// Internal pieces shared by the core's files (engine.cc, betting.cc,
// dealing*.cc, showdown.cc, table_ops.cc) and the door (advance.cc). The
// irregularity rulings use engine/table_ops.h only. Not part of the engine's
// public contract.
#ifndef STUD_ENGINE_INTERNAL_H_
#define STUD_ENGINE_INTERNAL_H_

#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/table_ops.h"

namespace stud::internal {

// ---- betting.cc ----
// The bet unit of the current street (small on 3rd/4th, big later) [STUD-BET-2].
Chips StreetUnit(const HandState& state);
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
// 3rd street: once a pass is complete, starts the next one.
void AdvanceDealPass(HandState& state);
// Whether the seat shows a pair among its own up cards [STUD-PAIR-1].
bool HasOpenPair(const HandState& state, int seat);
// Seats receiving cards this street, in dealing order (inline: every street).
absl::InlinedVector<int, kMaxSeats> Recipients(const HandState& state);
// carried_antes: only seats of the hand, each 0..the ante [STUD-IRR-EXP-1].
absl::Status ValidateCarriedAntes(const HandConfig& config);
// The redeal of a misdeal that kept its antes: they are in, none is posted.
void CarryAntes(HandState& state);

// ---- dealing_live.cc ----
// Reported dealing: cards left in the physical stub (burns and aside cards
// wait for a reshuffle) [STUD-DECK-1].
int LiveStub(const HandState& state);
// What the dealer must do next in kAwaitingDeal [STUD-DEAL-3, STUD-DECK-1..3].
DealStep LiveStep(const HandState& state);
// Applies a kBurn or kReshuffle report, checked against LiveStep.
absl::Status ApplyDealerStep(HandState& state, const Action& action);
// A deal report where a burn is due: refused when the burn it implies would
// leave the stub short, so the reshuffle comes first [STUD-DECK-1].
absl::Status CheckImpliedBurn(const HandState& state);
// The deck procedure the hand's deck_exhaustion option follows: STUD-DECK-1
// (default), -2 (skip the burn when short) or -3 (common card at once).
RuleId DeckProcedureRule(const HandState& state);
// Whether the stub was reshuffled during the current street's deal.
bool ReshuffledThisStreet(const HandState& state);

// ---- engine.cc ----
// The checks of a request before any rule: the seat is at the table, and
// showing, mucking and dealer steps carry no amount (INVALID_ARGUMENT).
absl::Status CheckRequest(const HandState& state, const Action& action);
// The checks every kDeal report passes in kAwaitingDeal before it is matched
// against NextDeal: a real card not in play [STUD-DEAL-4], no reshuffle due
// [STUD-DECK-1], the stub still serving after an implied burn. `burn_implied`:
// a burn is due, so the card says it was burned face down first [STUD-DEAL-3].
struct DealCheck {
  ExpectedDeal next;
  bool burn_implied = false;
};
absl::StatusOr<DealCheck> CheckDeal(const HandState& state, const Action& action);
// The core of a step (engine/advance.cc owns the step): checks the request
// (CheckRequest) and applies a regular action, or refuses it; no version, no
// out-of-turn settling, no ruling. A deal report that reveals a dealer's
// error must have been ruled before.
absl::Status ApplyAction(HandState& state, const Action& action);
// Every card of the street is out: designate the opener and start betting.
void AfterStreetDealt(HandState& state);

// ---- showdown.cc ----
// Betting is over on 7th street: every live hand is turned up when at most
// one can still bet, else the first to show is designated [STUD-SHOW-1].
void StartShowdown(HandState& state);
// A show or muck at the showdown [STUD-SHOW-1, STUD-SHOW-2].
absl::Status ApplyShowdown(HandState& state, const Action& action);
// Settles the pots among the live seats and ends the hand [STUD-SHOW-4].
void SettleHand(HandState& state);
// Next live seat after `from` that has neither shown nor mucked, or 0.
int NextToShow(const HandState& state, int from);

}  // namespace stud::internal

#endif  // STUD_ENGINE_INTERNAL_H_
