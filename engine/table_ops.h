// Table operations: what the core offers the floor above it (the
// irregularity rulings, engine/irregularities*.cc) to change a hand with.
//
// The core (engine.cc, betting.cc, dealing*.cc, showdown.cc, pot.cc,
// hand_state, step) includes no irregularity header. A ruling changes a hand
// through the operations below, each of which logs what it does and keeps
// the hand's invariants (the turn, the deal, the round) the way the core
// does, and reads it through the queries below. Its own ruling-specific
// marks (a third card due face down, a final card due up, the all-in option)
// are fields of HandState the core reads.
//
// Two points where a ruling still in force meets the core's flow are
// declared here and defined by the floor (engine/irregularities.cc, from the
// rows of its table of kinds), so the core calls them without knowing which
// kinds they serve: when a betting round closes, and before the pots are
// settled.
//
// Not part of the engine's public contract.
#ifndef STUD_ENGINE_TABLE_OPS_H_
#define STUD_ENGINE_TABLE_OPS_H_

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "engine/engine.h"
#include "engine/hand_state.h"

namespace stud::internal {

// ---- queries ----
// Every legal betting action of `seat` (requires phase kBetting and seat ==
// actor): at most four, held inline because Apply and LegalActions build the
// list on every call.
using LegalActionList = absl::InlinedVector<LegalAction, 4>;
LegalActionList BettingOptions(const HandState& state, int seat);
// The legal action of `legal` matching kind and amount (as Apply reads it).
const LegalAction* FindLegal(absl::Span<const LegalAction> legal, ActionKind kind, Chips amount_to);
// Why `action` is not among BettingOptions: a RuleViolation or INVALID_ARGUMENT.
absl::Status ExplainRefusal(const HandState& state, const Action& action,
                            absl::Span<const LegalAction> legal);
// True when nobody still able to bet owes an action this round.
bool RoundComplete(const HandState& state);
// Next seat clockwise after `from` that owes an action, or 0.
int NextToAct(const HandState& state, int from);
// Betting phase with nothing voluntary yet on this street.
bool NoActionYet(const HandState& state);
// The seat's 3rd-street up card (the door card, or an exposed hole card
// serving as the up card [STUD-IRR-EXP-1]).
Card DoorCard(const Seat& seat);

// ---- operations ----
void Log(HandState& state, Operation op);
// Kills the seat's hand (kKill with `rule`); the caller moves the hand on
// (AfterSeatRemoved).
void Kill(HandState& state, int seat, RuleId rule);
// Gives `amount` of the seat's antes back (kReturnAnte with `rule`).
void ReturnChips(HandState& state, int seat, Chips amount, RuleId rule);
// Turns the seat's card `index` face up for everyone (kExpose with `rule`).
void Expose(HandState& state, int seat, int index, RuleId rule);
// Takes the seat's cards from `index` on out of its hand and sets them aside
// (kAside with `rule`).
void SetAside(HandState& state, int seat, int index, RuleId rule);
// Deals `card` to `seat` as a card of `street`, face up or down, and logs it.
void GiveCard(HandState& state, int seat, Card card, bool face_up, Street street);
// Logs the burn of a reported (or, `implied`, unreported face-down) card;
// every burn the engine counts is logged here [STUD-DEAL-3].
void BurnReported(HandState& state, const Action& action, bool implied);
// Applies a verified betting action (one of BettingOptions) and advances the actor.
void ApplyBet(HandState& state, int seat, const LegalAction& chosen);
// Applies one verified betting action and moves the hand on (as Apply
// does); `cite` is the rule its betting operation carries (a held action
// that stood [STUD-IRR-WRONG-1]).
void ApplyAndAdvance(HandState& state, int seat, const LegalAction& chosen);
void ApplyAndAdvance(HandState& state, int seat, const LegalAction& chosen, RuleId cite);
// After `seat` stopped contesting the hand (killed, timed out all-in) outside
// its own action: moves the turn on and closes the round, deal or showdown
// when nothing more is owed.
void AfterSeatRemoved(HandState& state, int seat);
// Reported dealing: after a seat stops receiving cards mid-street, moves to
// the next pass or finishes the street.
void ContinueDeal(HandState& state);
// Designates who opens the betting on the current street and logs it.
void DesignateOpener(HandState& state);
// After a round closes: next street, showdown or award.
void AdvanceAfterRound(HandState& state);

// ---- defined by the floor (engine/irregularities.cc) ----
// A betting round is closing: what a ruling holds for it comes back (chips
// of an action out of turn [STUD-IRR-WRONG-1]).
void RulingsAtRoundEnd(HandState& state);
// The pots are about to be settled: hands a ruling left dead are killed
// [STUD-IRR-CARDS-1]. True when every live hand is such a hand and none was
// killed: the caller settles them as they are.
bool RulingsAtSettle(HandState& state);

}  // namespace stud::internal

#endif  // STUD_ENGINE_TABLE_OPS_H_
