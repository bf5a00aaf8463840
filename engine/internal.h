// Internal pieces shared by the engine's files (the core, the irregularity
// rulings and advance.cc). Not part of the engine's public contract.
#ifndef STUD_ENGINE_INTERNAL_H_
#define STUD_ENGINE_INTERNAL_H_

#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/irregularities.h"

namespace stud::internal {

// ---- betting.cc ----
// The bet unit of the current street (small on 3rd/4th, big later) [STUD-BET-2].
Chips StreetUnit(const HandState& state);
// Every legal betting action of `seat` (requires phase kBetting and seat == actor):
// at most four (fold or check, call or fold, and up to two bets or raises), held
// inline because Apply and LegalActions build the list on every call.
using LegalActionList = absl::InlinedVector<LegalAction, 4>;
LegalActionList BettingOptions(const HandState& state, int seat);
// Why `action` is not among BettingOptions: a RuleViolation or INVALID_ARGUMENT.
absl::Status ExplainRefusal(const HandState& state, const Action& action,
                            absl::Span<const LegalAction> legal);
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
// 3rd street: once a pass is complete, starts the next one.
void AdvanceDealPass(HandState& state);
// Designates who opens the betting on the current street and logs it.
void DesignateOpener(HandState& state);
// Whether the seat shows a pair among its own up cards [STUD-PAIR-1].
bool HasOpenPair(const HandState& state, int seat);
// Seats receiving cards this street, in dealing order.
std::vector<int> Recipients(const HandState& state);
// Deals `card` to `seat` as a card of `street`, face up or down, and logs it.
void GiveCard(HandState& state, int seat, Card card, bool face_up, Street street);
// The seat's 3rd-street up card (the door card, or an exposed hole card
// serving as the up card [STUD-IRR-EXP-1]).
Card DoorCard(const Seat& seat);
// Reported dealing: after a seat stops receiving cards mid-street, moves to the
// next pass or finishes the street.
void ContinueDeal(HandState& state);

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
// Logs the burn of a reported (or, `implied`, unreported face-down) card;
// every burn the engine counts is logged here.
void BurnReported(HandState& state, const Action& action, bool implied);
// The deck procedure the hand's deck_exhaustion option follows: STUD-DECK-1
// (default), -2 (skip the burn when short) or -3 (common card at once).
RuleId DeckProcedureRule(const HandState& state);
// Whether the stub was reshuffled during the current street's deal.
bool ReshuffledThisStreet(const HandState& state);

// ---- engine.cc ----
void Log(HandState& state, Operation op);
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
// After a round closes: next street, showdown or award.
void AdvanceAfterRound(HandState& state);
// Every card of the street is out: designate the opener and start betting.
void AfterStreetDealt(HandState& state);
// After `seat` stopped contesting the hand (killed, timed out all-in) outside
// its own action: moves the turn on and closes the round, deal or showdown
// when nothing more is owed.
void AfterSeatRemoved(HandState& state, int seat);
// Applies one verified betting action and moves the hand on (as Apply does).
void ApplyAndAdvance(HandState& state, int seat, const LegalAction& chosen);
// The same analysis as Apply: the legal action of `seat` matching kind and amount.
const LegalAction* FindLegal(absl::Span<const LegalAction> legal, ActionKind kind, Chips amount_to);

// ---- misdeal.cc ----
// carried_antes: only seats of the hand, each 0..the ante [STUD-IRR-EXP-1].
absl::Status ValidateCarriedAntes(const HandConfig& config);
// The redeal of a misdeal that kept its antes: they are in, none is posted.
void CarryAntes(HandState& state);

// ---- irregularities.cc ----
// Rules on `report` in `work` (a copy of `before`, or `before` after an
// implied burn) without touching version, and measures the change against
// `before`. On error `work` is to be dropped. Used by Advance only.
absl::StatusOr<Ruling> RuleOn(HandState& work, const IrregularityReport& report,
                              const HandState& before);

// ---- irregularities_outofturn.cc ----
// The rule of an action out of turn; a betting operation carrying it is a
// held action that stood, made by the engine (Replay skips it).
inline constexpr RuleId kOutOfTurnRule = RuleId::kIrrWrong1;
// An action out of turn held under out_of_turn_binding [STUD-IRR-WRONG-1]:
// after every accepted action or ruling, stands when the seat's turn comes
// unchanged, else goes back when it can no longer stand.
void SettleOutOfTurn(HandState& state);
// Before a round closes: any held out-of-turn chips go back to their seat.
void TakeBackOutOfTurn(HandState& state);
// ---- irregularities_skipped.cc ----
// Before the pots are settled at a showdown: kills each live hand a skipped
// deal left short of more than its 7th card, under short_hand =
// MISSING_SEVENTH_LIVE [STUD-IRR-CARDS-1]. When every live hand is such a
// hand, none is killed and the caller settles them as they are (true).
bool KillDeadShortHands(HandState& state);

}  // namespace stud::internal

#endif  // STUD_ENGINE_INTERNAL_H_
