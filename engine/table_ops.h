// Table operations: what the core offers the floor above it (the
// irregularity rulings, engine/irregularities*.cc and engine/misdeal.cc) to
// change a hand with.
//
// The core (engine.cc, betting.cc, dealing*.cc, showdown.cc, pot.cc,
// hand_state, step) includes no irregularity header. A ruling reads a hand
// through the queries below and changes it only through the operations
// below, each named for a table event: it logs what it does (the rule ID it
// cites is in its comment or its `rule` argument) and keeps the hand's
// invariants (the turn, the deal, the round) the way the core does. A ruling
// assigns no HandState field itself (ctest
// EngineLayers.RulingsWriteThroughTableOps, tests/engine_rulings_write_test.sh).
//
// The operations, by the event they name:
//   the record of a ruling: OpenRuling, CloseRuling, Log;
//   hands and chips: Kill, ReturnChips, DeclareMisdeal, MarkTimedOutAllIn,
//     AfterSeatRemoved;
//   cards: Expose, SetAside, GiveCard, BurnReported, ReplaceCard, BurnFaceUp,
//     CorrectBurnCount, TakeOutPremature, KeepPrematureSeventh;
//   the deal: StopDealingTo, ContinueDeal, MarkCardDue;
//   the turn: MakeOpener, DesignateOpener, DesignateOpenerAgain,
//     MarkDeadLowCard, OfferAllInOption, AdvanceAfterRound;
//   betting: ApplyBet, ApplyAndAdvance, and an action out of turn's chips:
//     PutChipsOutOfTurn, ReleaseHeldChips, TakeBackChips.
// The marks a ruling leaves for later (a third card due face down, a final
// card due up, a dead low card, the all-in option, a kept 7th card, cards
// still to set aside) are HandState fields the core reads and only these
// operations set.
//
// Two points where a ruling still in force meets the core's flow are
// declared here and defined by the floor (engine/irregularity_table.cc, from
// the rows of its table of kinds), so the core calls them without knowing
// which kinds they serve: when a betting round closes, and before the pots
// are settled.
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
// actor): at most four (LegalActionList, engine.h).
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

// ---- operations named for a ruling's table event ----
// Each keeps the log and the state exactly as the ruling's own code did.

// The ruling's record (the dispatcher, RuleOn): keeps `report` for Replay and
// logs kRuling naming it; returns the record's index in the log.
size_t OpenRuling(HandState& state, const IrregularityReport& report);
// Closes the record at `at`: the rule that decided and how many operations
// the ruling logged after it.
void CloseRuling(HandState& state, size_t at, RuleId rule);

// The hand is void [STUD-IRR-EXP-1 MISDEAL]: every seat's bet of the street
// goes back, and its antes too unless `keep_antes` (misdeal_antes =
// STAY_IN_POT); each return logged kReturnAnte with `rule`. Then the hand is
// complete with nobody to act and nothing owed (kMisdeal with `seat` and
// `rule`, kHandEnd).
void DeclareMisdeal(HandState& state, int seat, RuleId rule, bool keep_antes);

// `seat` opens the street in place of the designated opener: its action
// stands [STUD-IRR-WRONG-1]. It becomes the actor, and the bring-in seat when
// the 3rd-street bring-in is still due; logs kFirstToAct with `rule` (and the
// seat's door card on 3rd street).
void MakeOpener(HandState& state, int seat, RuleId rule);
// The opener is decided anew after cards changed before the round started
// [STUD-IRR-EXP-1, STUD-IRR-BURN-1]: the bring-in, a forced opener and an
// open pair are cleared, then DesignateOpener logs the new one.
void DesignateOpenerAgain(HandState& state);

// A player with time left timed out: it is all-in for what it has in
// [STUD-ALLIN-4], counts as having acted at its street bet, and loses an
// all-in option it held. Logs kTimeoutAllIn with `allowance_left`. The
// caller moves the hand on (AfterSeatRemoved).
void MarkTimedOutAllIn(HandState& state, int seat, int allowance_left);

// The deal of the current street owes `seat` no more card: it was served
// as the dealer turned the card, its hand died, or the deal passed it by.
// Logs nothing; the caller continues the deal (ContinueDeal).
void StopDealingTo(HandState& state, int seat);
// A card the rulings make due differently from the deal's order.
enum class CardDue {
  kThirdDown,  // a hole card was exposed: the third card comes face down [STUD-IRR-EXP-1]
  kFinalUp,    // heads-up, the other final card came up: this one comes up too [STUD-IRR-EXP-5]
};
// Marks `seat`'s card as due `due` (read by the deal); logs nothing.
void MarkCardDue(HandState& state, int seat, CardDue due);
// A dead hand's exposed card still decides the bring-in: its left neighbour
// opens if it is low [STUD-IRR-EXP-2]; read by DesignateOpener. Logs nothing.
void MarkDeadLowCard(HandState& state, int seat);
// `seat`'s final card is face up: it is offered the all-in option, or acts
// first [STUD-IRR-EXP-5]; DesignateOpener logs it.
void OfferAllInOption(HandState& state, int seat);

// Burn errors [STUD-IRR-BURN-1, -2]. `seat`'s card of this street becomes
// `card` (seen from now on); logs kReplaceCard with `rule`.
void ReplaceCard(HandState& state, int seat, Card card, RuleId rule);
// `card` joins the burn face up, known to everyone; logs kAside (no seat)
// with `rule`.
void BurnFaceUp(HandState& state, Card card, RuleId rule);
// The burns nobody saw, corrected by `delta` (a card too many or too few),
// never below 0. Logs nothing (the ruling's record says it).
void CorrectBurnCount(HandState& state, int delta);

// Premature cards [STUD-IRR-PREM-1]: `cards`, dealt before the betting
// ended, are seen and taken out of play, each logged kAside (face up or not
// as dealt) with STUD-IRR-PREM-1; when there are any, one card for each
// player still in is taken aside before the next street's burn
// (BeginStreetDeal).
void TakeOutPremature(HandState& state, absl::Span<const Card> cards, bool face_up);
// [STUD-IRR-PREM-2] `seat` keeps the premature final downcard `card`: dealt
// to it face down as its 7th-street card (logged by GiveCard), no other 7th
// card comes to it, and it may not bet or raise on 6th street.
void KeepPrematureSeventh(HandState& state, int seat, Card card);

// An action out of turn [STUD-IRR-WRONG-1]: `chips` go into the pot as seen,
// not into the seat's bet, so the betting round is untouched. Logs
// kOutOfTurn (`chips`, `amount_to`, `rule`).
void PutChipsOutOfTurn(HandState& state, int seat, Chips chips, Chips amount_to, RuleId rule);
// The held chips leave the pot unlogged: the held action stands, and its
// betting operation (ApplyAndAdvance) puts them in again as the seat's bet.
void ReleaseHeldChips(HandState& state, int seat, Chips chips);
// The held chips go back to the seat (kReturnAnte with `rule`). Unlike
// ReturnChips this leaves all_in alone: chips held out of turn never were
// the seat's bet, so taking them back cannot change it.
void TakeBackChips(HandState& state, int seat, Chips chips, RuleId rule);

// ---- defined by the floor (engine/irregularity_table.cc) ----
// A betting round is closing: what a ruling holds for it comes back (chips
// of an action out of turn [STUD-IRR-WRONG-1]).
void RulingsAtRoundEnd(HandState& state);
// The pots are about to be settled: hands a ruling left dead are killed
// [STUD-IRR-CARDS-1]. True when every live hand is such a hand and none was
// killed: the caller settles them as they are.
bool RulingsAtSettle(HandState& state);

}  // namespace stud::internal

#endif  // STUD_ENGINE_TABLE_OPS_H_
