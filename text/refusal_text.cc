#include "text/refusal_text.h"

#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/hand_state.h"  // kBoardSeat

namespace stud::text {
namespace {

using R = Refusal;

std::string Amounts(const RefusalFacts& f, absl::string_view sep) {
  std::string out;
  for (int i = 0; i < f.num_amounts && i < static_cast<int>(f.amounts.size()); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : sep, f.amounts[static_cast<size_t>(i)]);
  }
  return out;
}

std::string StreetEs(Street s) { return absl::StrCat(static_cast<int>(s), "a calle"); }

absl::string_view ActionEs(ActionKind k) {
  switch (k) {
    case ActionKind::kFold:
      return "retirarse";
    case ActionKind::kCheck:
      return "pasar";
    case ActionKind::kCall:
      return "igualar";
    case ActionKind::kBringIn:
      return "la apuesta obligatoria (bring-in)";
    case ActionKind::kComplete:
      return "completar";
    case ActionKind::kBet:
      return "apostar";
    case ActionKind::kRaise:
      return "subir";
    case ActionKind::kShow:
      return "mostrar";
    case ActionKind::kMuck:
      return "tirar las cartas";
    case ActionKind::kDeal:
      return "repartir";
    case ActionKind::kDeclareAllIn:
      return "declararse all-in";
    case ActionKind::kDeclineOption:
      return "rechazar la opción";
    case ActionKind::kBurn:
      return "quemar";
    case ActionKind::kReshuffle:
      return "rebarajar";
  }
  return "desconocida";
}

std::string SeatOrNobodyEn(int seat) {
  return seat != 0 ? absl::StrCat("seat ", seat) : std::string("nobody");
}
std::string SeatOrNobodyEs(int seat) {
  return seat != 0 ? absl::StrCat("el asiento ", seat) : std::string("nadie");
}

// What a seat could do (kOutOfTurnImpossible): "fold, call to 4, raise to 8".
std::string CouldEn(const RefusalFacts& f) {
  std::string out;
  for (int i = 0; i < f.num_amounts && i < static_cast<int>(f.amounts.size()); ++i) {
    const size_t k = static_cast<size_t>(i);
    absl::StrAppend(&out, i == 0 ? "" : ", ", ActionKindName(f.actions[k]));
    if (f.amounts[k] >= 0) absl::StrAppend(&out, " to ", f.amounts[k]);
  }
  return out;
}
std::string CouldEs(const RefusalFacts& f) {
  std::string out;
  for (int i = 0; i < f.num_amounts && i < static_cast<int>(f.amounts.size()); ++i) {
    const size_t k = static_cast<size_t>(i);
    absl::StrAppend(&out, i == 0 ? "" : ", ", ActionEs(f.actions[k]));
    if (f.amounts[k] >= 0) absl::StrAppend(&out, " a ", f.amounts[k]);
  }
  return out;
}

// The message a status carries before it is worded (engine/refusal.cc).
std::string RawMessage(const RefusalFacts& f) {
  return f.rule != RuleId::kNone ? std::string(RuleIdName(f.rule)) : f.field;
}

}  // namespace

std::string RefusalWhyEn(const RefusalFacts& f) {
  const std::string card = f.card.ToString();
  switch (f.what) {
    case R::kNone:
      return "refused";
    // Betting.
    case R::kStackTooShort:
      return absl::StrCat("seat ", f.seat, " has only ", f.chips,
                          " chips behind; it can go all-in to ", f.amount);
    case R::kWrongAmount:
      return absl::StrCat(ActionKindName(f.action), " must be to ", Amounts(f, " or "), " on ",
                          StreetName(f.street), ", not ", f.amount, " (fixed limit)");
    case R::kShowdownNotReached:
      return "showdown has not been reached; betting is still open";
    case R::kNoCardDue:
      return "no card is due now; the betting round is open";
    case R::kNoBurnDue:
      return "no burn is due now; the betting round is open";
    case R::kNoReshuffleDue:
      return "no reshuffle is due now; the betting round is open";
    case R::kNoAllInOption:
      return absl::StrCat("seat ", f.seat, " has no all-in option to answer");
    case R::kAllInOptionFirst:
      return absl::StrCat("seat ", f.seat,
                          "'s final card was dealt face up: it first declares all-in or declines "
                          "the option");
    case R::kNobodyCouldCallComplete:
      return "no other player still in can put in more than the bring-in, so nobody could call a "
             "completion; bring in";
    case R::kBringInDue:
      return absl::StrCat("seat ", f.seat, " opens 3rd street and must bring in for ",
                          Amounts(f, " or "), " or complete to ", f.chips);
    case R::kCheckFacingBet:
      return absl::StrCat("cannot check facing a bet of ", f.amount, "; call, raise or fold");
    case R::kNothingToCall:
      return "there is no bet to call; check or bet";
    case R::kFoldWithoutBet:
      return "folding when no bet is faced is not allowed in this hand; check";
    case R::kBringInOnlyOnThird:
      return "the bring-in is only posted to open 3rd street";
    case R::kCannotCoverMoreThanCall:
      return absl::StrCat("seat ", f.seat, " cannot cover more than a call");
    case R::kNobodyCouldCallMore:
      return "every other player still in is all-in or can at most call: nobody could call "
             "more, so only call, check or fold";
    case R::kNoBetAfterPremature:
      return absl::StrCat(f.flag ? absl::StrCat("seat ", f.seat, " already holds its 7th card")
                                 : std::string("a player already holds a premature 7th card"),
                          ": no bet or raise on 6th street; check, call or fold");
    case R::kNotReopened:
      return "a short all-in does not reopen the betting for a player who already acted; call "
             "or fold";
    case R::kCapped:
      return absl::StrCat("betting is capped after ", f.count, " raises; call or fold");
    case R::kCompletionNext:
      return absl::StrCat("after the bring-in the next full bet is a completion to ", f.chips);
    case R::kAlreadyCompleted:
      return "the bet has already been completed; raise instead";
    case R::kRaiseInstead:
      return absl::StrCat("there is already a bet of ", f.amount, "; raise to ",
                          Amounts(f, " or "));
    case R::kBetInstead:
      return absl::StrCat(
          f.flag ? "the wager in front is short of a full bet; " : "there is no bet to raise; ",
          "bet to ", Amounts(f, " or "), " instead of ", ActionKindName(f.action));
    // The hand's configuration.
    case R::kVariantUnknown:
      return "must be stud, stud hi-lo or razz";
    case R::kSeatCount:
      return absl::StrCat(f.count, " seats; a stud table seats 2 to 8 (STUD-DECK-1)");
    case R::kStackOutOfRange:
      return absl::StrCat("must be positive and at most 2^40 chips, got ", f.chips);
    case R::kDeckCardTwice:
      return absl::StrCat(card, " appears twice; the deck must hold each card once");
    case R::kDeckIncomplete:
      return absl::StrCat("must list all 52 cards in dealing order, got ", f.count);
    case R::kDeckNotTaken:
      return "reported dealing takes no deck order";
    case R::kAnteNegative:
      return "must not be negative (STUD-SETUP-2)";
    case R::kSmallBetNotPositive:
      return "must be positive (STUD-STAKES-1)";
    case R::kBigBetNotLarger:
      return "must be larger than the small bet (STUD-STAKES-1)";
    case R::kBringInOutOfRange:
      return "must be positive and below the small bet; completing to the small bet is the "
             "bring-in player's other choice (STUD-BRING-4, STUD-STAKES-3)";
    case R::kStakesTooLarge:
      return "amounts above 2^40 chips are not supported";
    case R::kMaxRaisesOutOfRange:
      return absl::StrCat(f.count, " is out of range 1..100 (STUD-CAP-1)");
    case R::kOddChipUnitNotPositive:
      return "must be positive (STUD-ODD-5)";
    case R::kDisconnectAllInsNegative:
      return "must not be negative (STUD-ALLIN-5)";
    case R::kCarriedAnteOutOfRange:
      return absl::StrCat(f.amount, " is not an ante of a seat of this hand (0 to the ante ",
                          f.chips, ", seats 1..", f.count, ") (STUD-IRR-EXP-1)");
    // Requests and dealing.
    case R::kCardOwedFirst:
      return absl::StrCat("the dealer owes a card first: ",
                          f.other_seat == kBoardSeat ? std::string("the common card")
                                                     : absl::StrCat("seat ", f.other_seat),
                          "; report it with a deal action");
    case R::kWrongDeal:
      return absl::StrCat(
          "the next card goes ", f.flag ? "face up" : "face down", " to ",
          f.other_seat == kBoardSeat ? std::string("the board (common card)")
                                     : absl::StrCat("seat ", f.other_seat),
          " on ", StreetName(f.street), "; the report says ", f.face_up ? "face up" : "face down",
          " to seat ", f.seat, "; ",
          f.seat != f.other_seat
              ? "a card dealt to the wrong seat is put right where possible and reported for the "
                "proper seat, or reported as a BURN_ERROR with the corrected cards "
                "(STUD-IRR-BURN-1)"
              : (f.flag ? "turn it face up and report it face up"
                        : "report the irregularity with RuleIrregularity"));
    case R::kHandDead:
      return absl::StrCat("seat ", f.seat, "'s hand is dead (", RuleIdName(f.rule),
                          "); it takes no more action");
    case R::kAllInNoMoreAction:
      return absl::StrCat("seat ", f.seat, " is all-in; it takes no more action");
    case R::kFolded:
      return absl::StrCat("seat ", f.seat, " has folded");
    case R::kNoChipsForKind:
      return absl::StrCat(ActionKindName(f.action),
                          " puts in no chips; send 0 (or the street total ", f.chips,
                          " that LegalActions lists), not ", f.amount);
    case R::kNoChipsForStep:
      return absl::StrCat(ActionKindName(f.action), " puts in no chips; send 0, not ", f.amount);
    case R::kNotACard:
      return "not a card";
    case R::kCardBurned:
      return absl::StrCat(card,
                          " was burned; a burned card comes back only with a reshuffle "
                          "(STUD-DECK-1)");
    case R::kCardInPlay:
      return absl::StrCat(card, " is already in play; a card is dealt once");
    case R::kReshuffleFirst:
      return absl::StrCat("the stub holds ", f.count, " card(s) and ", StreetName(f.street),
                          " needs more: report the reshuffle (RESHUFFLE) of the burns, aside "
                          "cards and stub first");
    case R::kSeatNotAtTable:
      return absl::StrCat(f.seat, " is not at this table (seats 1..", f.count, ")");
    case R::kHandOver:
      return "the hand is over; start a new hand";
    case R::kNotYourTurn:
      return absl::StrCat("it is seat ", f.other_seat, "'s turn to act on ", StreetName(f.street),
                          ", not seat ", f.seat);
    case R::kStubShortAfterBurn:
      return absl::StrCat("after the burn the stub holds ", f.count, " card(s) for ", f.limit,
                          " players: report the burn (BURN), then the reshuffle of the burns, "
                          "aside cards and stub (RESHUFFLE)");
    case R::kDealerStepSeat:
      return absl::StrCat("a ", ActionKindName(f.action),
                          " is reported with seat 0 (the dealer), got ", f.seat);
    case R::kReshuffleNotDue:
      return absl::StrCat("no reshuffle is due: the stub still holds ", f.count,
                          " card(s) for what ", StreetName(f.street), " needs");
    case R::kCardBurnedTwice:
      return absl::StrCat(card, " is already in play; a card is burned once");
    case R::kUnseenBurnFaceUp:
      return "a burn shown face up names its card";
    case R::kReshuffleBeforeBurn:
      return absl::StrCat("the stub holds ", f.count,
                          " card(s): report the reshuffle of the burns, aside cards and stub "
                          "first");
    case R::kNoBurnBeforeThird:
      return "no card is burned before 3rd street in this hand";
    case R::kBurnSkipped:
      return "the stub is short: the burn is skipped so every player gets an unused card";
    case R::kSecondBurn:
      return absl::StrCat("the burn of ", StreetName(f.street),
                          " is already made; a second burn is a dealer error: report it as a "
                          "BURN_ERROR (burn_delta +1) with the corrected cards");
    case R::kShowOrMuck:
      return "betting is over; the hand is at showdown: show or muck";
    case R::kShowsFirst:
      return absl::StrCat("seat ", f.seat, " shows first");
    case R::kCardUnreadable:
      return absl::StrCat("'", f.text, "' is not a card; write rank then suit, like As, Td or 2c");
    case R::kRulingWithoutReport:
      return "a ruling refers to a report that is missing";
    // Settling a described showdown.
    case R::kSettleSeatOutOfRange:
      return absl::StrCat(f.seat, " is not 1..8");
    case R::kSettleSeatTwice:
      return absl::StrCat("seat ", f.seat, " appears twice");
    case R::kCommittedNegative:
      return "is negative";
    case R::kSettleCardTwice:
      return absl::StrCat(card, " appears twice");
    case R::kLiveHandCardCount:
      return absl::StrCat("a live hand needs 5 to 7 cards, has ", f.count, " (STUD-IRR-CARDS-1)");
    case R::kShortHandNotLive:
      return absl::StrCat("seat ", f.seat, " holds ", f.count,
                          " cards; only a hand missing just its 7th card may be ruled live; send "
                          "it as a dead (folded) hand");
    case R::kNoLiveHand:
      return "at least one hand must be live to settle the pots";
    // Irregularity reports.
    case R::kSeatOutOfRange:
      return absl::StrCat("must be 1..", f.count);
    case R::kFromDealMismatch:
      return "set only by the engine for a deal report that reveals a dealer error; this report "
             "is not one";
    case R::kCardRequired:
      return "required for this kind";
    case R::kNotCardOfSeat:
      return absl::StrCat(card, " is not a card of seat ", f.seat);
    case R::kHoleCardsCount:
      return absl::StrCat("name both hole cards of seat ", f.seat, " or none; got ", f.count);
    case R::kCardNamedTwice:
      return absl::StrCat(card, " is named twice");
    case R::kNotHoleCardOfSeat:
      return absl::StrCat(card, " is not a hole card of seat ", f.seat);
    case R::kNotBettingAction:
      return "a betting action: FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET or RAISE";
    case R::kAmountAboveStack:
      return absl::StrCat("seat ", f.seat, " can put in at most ", f.chips, " on this street");
    case R::kNextActedUnread:
      return "not read by this kind; leave it false";
    case R::kFoldCheckNoChips:
      return "a fold or a check puts in no chips; leave it 0";
    case R::kAmountNotAboveStreetBet:
      return absl::StrCat("the seat's street total after acting; seat ", f.seat, " already has ",
                          f.chips, " in");
    case R::kStreetOutOfRange:
      return "must be 3..7";
    case R::kBurnDelta:
      return "+1 (two cards burned) or -1 (no burn)";
    case R::kTooManyPerSeat:
      return absl::StrCat("at most one per seat (", f.count, "); got ", f.limit);
    case R::kSeatMovedTwice:
      return absl::StrCat("seat ", f.seat, " is moved twice");
    case R::kMisplacedAndCorrected:
      return absl::StrCat(card, " is the misplaced card and a corrected card at once");
    case R::kCardWithoutHasCard:
      return "set without has_card";
    case R::kKeptOnlyFinal:
      return "only a final downcard is kept by who mixed it in or looked at it";
    case R::kSeatNamedTwice:
      return absl::StrCat("seat ", f.seat, " is named twice");
    case R::kPrematureSeatWithoutCard:
      return "only with report.card, the premature final downcard the player keeps; leave it 0";
    case R::kTooManyEarlyCards:
      return absl::StrCat("at most one early card per player still in the hand (", f.count,
                          "); got ", f.limit);
    case R::kCardCount:
      return "the cards the seat holds, not 7 (0..6 or 8..15)";
    case R::kNotCalled:
      return absl::StrCat("seat ", f.seat, " has not called in this hand");
    case R::kNoUpcards:
      return absl::StrCat("seat ", f.seat, " has no live hand with upcards");
    case R::kAllowanceNegative:
      return "must not be negative";
    case R::kUnknownKind:
      return "unknown irregularity";
    case R::kFromDealNoKind:
      return "no deal report stands for this kind";
    case R::kFieldUnread:
      return "not read by this kind; leave it at its default";
    // Rulings on irregularities.
    case R::kOpenerAfterAction:
      return "the opener is corrected only before anyone else has acted on the street";
    case R::kNotWrongOpener:
      return absl::StrCat("seat ", f.seat, " is not a wrongly designated opener: seat ",
                          f.other_seat, " opens ", StreetName(f.street));
    case R::kAbsentOnline:
      return "online, an absent player is a time-out: report TIMEOUT (STUD-ALLIN-4)";
    case R::kAbsentOutsideBetting:
      return "an absent player's hand is killed during the betting, once everyone has the "
             "starting hand";
    case R::kAbsentNotReached:
      return absl::StrCat(
          "in a cash game the hand is killed when the action reaches the seat; report it when "
          "seat ",
          f.seat, " is to act (seat ", f.other_seat, " is to act now)");
    case R::kFoldNotToAct:
      return absl::StrCat("only the player to act can fold this way; ",
                          SeatOrNobodyEn(f.other_seat), " is to act");
    case R::kPickedUpWithoutBet:
      return "no bet is faced: this is a fold with no bet (checking out); report CHECKED_OUT "
             "(STUD-IRR-FOLD-1)";
    case R::kCheckedOutFacingBet:
      return "a bet is faced: this is an ordinary fold; apply a fold action";
    case R::kCardCountSeven:
      return "the cards the seat holds, not 7";
    case R::kSeatHasNoLiveHand:
      return absl::StrCat("seat ", f.seat, " has no live hand");
    case R::kShortHandBeforeShowdown:
      return "a short hand is ruled at the showdown (7th street)";
    case R::kTimeoutNotToAct:
      return absl::StrCat("a time-out is ruled for the player to act; ",
                          SeatOrNobodyEn(f.other_seat), " is to act");
    case R::kLiveDealingOnly:
      return "the engine deals this hand and designates the opener: this dealer error cannot "
             "occur (LIVE dealing only)";
    case R::kNothingLeftToRule:
      return "the hand is over; nothing left to rule on";
    case R::kCardAlreadyInPlay:
      return absl::StrCat(card, " is already in play");
    case R::kThirdCardAlreadyDealt:
      return absl::StrCat("seat ", f.seat,
                          " already has its third card; an exposed hole card is ruled before the "
                          "third card is dealt");
    case R::kBothHoleCardsTooLate:
      return "both hole cards are ruled on once dealt, before the 3rd-street betting starts";
    case R::kHoleCardTooLate:
      return "an exposed hole card is ruled before the 3rd-street betting";
    case R::kFinalCardTooLate:
      return "a face-up final card is ruled before the 7th-street betting";
    case R::kNotExposable:
      return "only a 3rd-street hole card or the final card can be exposed";
    case R::kBurnErrorTooLate:
      return absl::StrCat(
          "a burn error is corrected on the street it happened, before anyone acts on it (now ",
          StreetName(f.street), ")");
    case R::kMovesUnderAllStand:
      return "under final_burn_error = ALL_STAND every card stands; report no moves";
    case R::kMoveSeatInvalid:
      return "a seat 1..N holding a card of 4th..7th street";
    case R::kMoveSeatNoCard:
      return absl::StrCat("seat ", f.seat, " has no card of ", StreetName(f.street));
    case R::kMoveKeptSeat:
      return absl::StrCat("seat ", f.seat,
                          " mixed in or looked at its final card and must keep it");
    case R::kMoveCardInPlay:
      return absl::StrCat(card, " is already in play elsewhere or repeated");
    case R::kPrematureNotNext:
      return "premature cards are the next street's, dealt while this street's betting is still "
             "open";
    case R::kPrematureNoCards:
      return "name the cards dealt early (or report.card with report.seat for a final downcard "
             "the player keeps)";
    case R::kPrematureKeepNotLive:
      return "only a live player's premature final downcard can be kept";
    case R::kCardNamedTwiceInList:
      return "a card is named twice";
    case R::kOutOfTurnOnline:
      return "online, the service takes an action only from the seat to act";
    case R::kOutOfTurnOutsideBetting:
      return "an action out of turn is ruled during a betting round";
    case R::kOutOfTurnIsToAct:
      return absl::StrCat("seat ", f.seat, " is to act: apply its action");
    case R::kOutOfTurnNoAction:
      return absl::StrCat("seat ", f.seat, " has no action left in this hand");
    case R::kOutOfTurnWaiting:
      return "another action out of turn is still waiting for its seat's turn";
    case R::kOutOfTurnImpossible: {
      const bool no_chips = f.action == ActionKind::kFold || f.action == ActionKind::kCheck;
      return absl::StrCat("seat ", f.seat, " could not ", ActionKindName(f.action),
                          no_chips ? "" : absl::StrCat(" to ", f.amount),
                          " even in turn; it could: ", CouldEn(f));
    }
    case R::kSkippedCardCountUnread:
      return "not read by SKIPPED_SEAT (the engine counts the seat's cards); leave it 0";
    case R::kDeclareLiveWithCard:
      return "a short hand is declared live at the showdown, not with the missed card";
    case R::kSkippedThirdStreet:
      return "the starting hand is completed before the bring-in: report the missed 3rd-street "
             "card to the seat as a deal";
    case R::kStreetNotDealt:
      return absl::StrCat(StreetName(f.street), " has not been dealt yet (now ",
                          StreetName(f.current), ")");
    case R::kDealNotReached:
      return absl::StrCat("the deal has not reached seat ", f.seat, " on ", StreetName(f.street),
                          "; seat ", f.other_seat, " is owed the next card");
    case R::kNotSkipped:
      return absl::StrCat("seat ", f.seat, " holds its ", StreetName(f.street),
                          " card: it was not skipped");
    case R::kDealNotPassed:
      return absl::StrCat("the deal has not passed seat ", f.seat,
                          ": report that card as dealt to it");
    case R::kMissedCardTooLate:
      return absl::StrCat("the missed ", StreetName(f.street),
                          " card can be given only before anyone acts on that street; seat ",
                          f.seat, " plays short: report SKIPPED_SEAT without a card");
  }
  return "refused";
}

std::string RefusalWhyEs(const RefusalFacts& f) {
  const std::string card = f.card.ToString();
  const std::string seat = absl::StrCat("el asiento ", f.seat);
  switch (f.what) {
    case R::kNone:
      return "no se permite";
    // Betting.
    case R::kStackTooShort:
      return absl::StrCat(seat, " solo tiene ", f.chips, " fichas detrás; puede ir all-in hasta ",
                          f.amount);
    case R::kWrongAmount:
      return absl::StrCat(ActionEs(f.action), " debe ser a ", Amounts(f, " o "), " en ",
                          StreetEs(f.street), ", no a ", f.amount, " (límite fijo)");
    case R::kShowdownNotReached:
      return "aún no se ha llegado al showdown; las apuestas siguen abiertas";
    case R::kNoCardDue:
      return "ahora no toca repartir ninguna carta; la ronda de apuestas está abierta";
    case R::kNoBurnDue:
      return "ahora no toca quemar ninguna carta; la ronda de apuestas está abierta";
    case R::kNoReshuffleDue:
      return "ahora no toca rebarajar; la ronda de apuestas está abierta";
    case R::kNoAllInOption:
      return absl::StrCat(seat, " no tiene ninguna opción de all-in que responder");
    case R::kAllInOptionFirst:
      return absl::StrCat("la última carta del asiento ", f.seat,
                          " se repartió boca arriba: primero se declara all-in o rechaza la "
                          "opción");
    case R::kNobodyCouldCallComplete:
      return "ningún otro jugador en la mano puede poner más que el bring-in, así que nadie "
             "podría igualar una completa; ponga el bring-in";
    case R::kBringInDue:
      return absl::StrCat(seat, " abre la 3a calle y debe poner el bring-in de ", Amounts(f, " o "),
                          " o completar a ", f.chips);
    case R::kCheckFacingBet:
      return absl::StrCat("no se puede pasar ante una apuesta de ", f.amount,
                          "; iguale, suba o retírese");
    case R::kNothingToCall:
      return "no hay apuesta que igualar; pase o apueste";
    case R::kFoldWithoutBet:
      return "en esta mano no se permite retirarse sin apuesta delante; pase";
    case R::kBringInOnlyOnThird:
      return "el bring-in solo se pone para abrir la 3a calle";
    case R::kCannotCoverMoreThanCall:
      return absl::StrCat(seat, " no puede cubrir más que igualar");
    case R::kNobodyCouldCallMore:
      return "todos los demás jugadores en la mano están all-in o como mucho pueden igualar: "
             "nadie podría igualar más, así que solo cabe igualar, pasar o retirarse";
    case R::kNoBetAfterPremature:
      return absl::StrCat(f.flag ? absl::StrCat(seat, " ya tiene su 7a carta")
                                 : std::string("un jugador ya tiene una 7a carta prematura"),
                          ": no se apuesta ni se sube en 6a calle; pase, iguale o retírese");
    case R::kNotReopened:
      return "un all-in corto no reabre las apuestas para quien ya actuó; iguale o retírese";
    case R::kCapped:
      return absl::StrCat("las apuestas están topadas tras ", f.count,
                          " subidas; iguale o retírese");
    case R::kCompletionNext:
      return absl::StrCat("tras el bring-in, la siguiente apuesta completa es completar a ",
                          f.chips);
    case R::kAlreadyCompleted:
      return "la apuesta ya se completó; suba";
    case R::kRaiseInstead:
      return absl::StrCat("ya hay una apuesta de ", f.amount, "; suba a ", Amounts(f, " o "));
    case R::kBetInstead:
      return absl::StrCat(f.flag ? "lo apostado delante no llega a una apuesta completa; "
                                 : "no hay apuesta que subir; ",
                          "apueste ", Amounts(f, " o "), " en lugar de ", ActionEs(f.action));
    // The hand's configuration.
    case R::kVariantUnknown:
      return "debe ser stud, stud hi-lo o razz";
    case R::kSeatCount:
      return absl::StrCat(f.count, " asientos; una mesa de stud tiene de 2 a 8 (STUD-DECK-1)");
    case R::kStackOutOfRange:
      return absl::StrCat("debe ser positivo y como mucho 2^40 fichas; se recibió ", f.chips);
    case R::kDeckCardTwice:
      return absl::StrCat(card, " aparece dos veces; la baraja tiene cada carta una sola vez");
    case R::kDeckIncomplete:
      return absl::StrCat("debe listar las 52 cartas en orden de reparto; se recibieron ", f.count);
    case R::kDeckNotTaken:
      return "el reparto informado no admite un orden de baraja";
    case R::kAnteNegative:
      return "no puede ser negativo (STUD-SETUP-2)";
    case R::kSmallBetNotPositive:
      return "debe ser positiva (STUD-STAKES-1)";
    case R::kBigBetNotLarger:
      return "debe ser mayor que la apuesta pequeña (STUD-STAKES-1)";
    case R::kBringInOutOfRange:
      return "debe ser positivo y menor que la apuesta pequeña; completar a la apuesta pequeña "
             "es la otra opción del jugador del bring-in (STUD-BRING-4, STUD-STAKES-3)";
    case R::kStakesTooLarge:
      return "no se admiten cantidades por encima de 2^40 fichas";
    case R::kMaxRaisesOutOfRange:
      return absl::StrCat(f.count, " está fuera del rango 1..100 (STUD-CAP-1)");
    case R::kOddChipUnitNotPositive:
      return "debe ser positiva (STUD-ODD-5)";
    case R::kDisconnectAllInsNegative:
      return "no puede ser negativo (STUD-ALLIN-5)";
    case R::kCarriedAnteOutOfRange:
      return absl::StrCat(f.amount, " no es un ante de un asiento de esta mano (de 0 al ante ",
                          f.chips, ", asientos 1..", f.count, ") (STUD-IRR-EXP-1)");
    // Requests and dealing.
    case R::kCardOwedFirst:
      return absl::StrCat("el crupier debe antes una carta: ",
                          f.other_seat == kBoardSeat ? std::string("la carta común")
                                                     : absl::StrCat("asiento ", f.other_seat),
                          "; infórmela con una acción de reparto");
    case R::kWrongDeal:
      return absl::StrCat(
          "la siguiente carta va ", f.flag ? "boca arriba" : "boca abajo", " a ",
          f.other_seat == kBoardSeat ? std::string("la mesa (carta común)")
                                     : absl::StrCat("el asiento ", f.other_seat),
          " en ", StreetEs(f.street), "; el informe dice ",
          f.face_up ? "boca arriba" : "boca abajo", " al asiento ", f.seat, "; ",
          f.seat != f.other_seat
              ? "una carta dada al asiento equivocado se corrige donde se pueda y se informa para "
                "el asiento correcto, o se informa como BURN_ERROR con las cartas corregidas "
                "(STUD-IRR-BURN-1)"
              : (f.flag ? "désela la vuelta e infórmela boca arriba"
                        : "informe la irregularidad con RuleIrregularity"));
    case R::kHandDead:
      return absl::StrCat("la mano del asiento ", f.seat, " está muerta (", RuleIdName(f.rule),
                          "); ya no actúa");
    case R::kAllInNoMoreAction:
      return absl::StrCat(seat, " está all-in; ya no actúa");
    case R::kFolded:
      return absl::StrCat(seat, " se ha retirado");
    case R::kNoChipsForKind:
      return absl::StrCat(ActionEs(f.action), " no pone fichas; envíe 0 (o el total de la calle ",
                          f.chips, " que lista LegalActions), no ", f.amount);
    case R::kNoChipsForStep:
      return absl::StrCat(ActionEs(f.action), " no pone fichas; envíe 0, no ", f.amount);
    case R::kNotACard:
      return "no es una carta";
    case R::kCardBurned:
      return absl::StrCat(card,
                          " se quemó; una carta quemada solo vuelve con un rebarajado "
                          "(STUD-DECK-1)");
    case R::kCardInPlay:
      return absl::StrCat(card, " ya está en juego; cada carta se reparte una vez");
    case R::kReshuffleFirst:
      return absl::StrCat("al resto de la baraja le quedan ", f.count, " carta(s) y la ",
                          StreetEs(f.street),
                          " necesita más: informe primero el rebarajado (RESHUFFLE) de las "
                          "quemadas, las apartadas y el resto");
    case R::kSeatNotAtTable:
      return absl::StrCat(f.seat, " no es un asiento de esta mesa (asientos 1..", f.count, ")");
    case R::kHandOver:
      return "la mano ha terminado; empiece una nueva";
    case R::kNotYourTurn:
      return absl::StrCat("es el turno del asiento ", f.other_seat, " en ", StreetEs(f.street),
                          ", no del asiento ", f.seat);
    case R::kStubShortAfterBurn:
      return absl::StrCat("tras la quemada al resto le quedan ", f.count, " carta(s) para ",
                          f.limit,
                          " jugadores: informe la quemada (BURN) y después el rebarajado de las "
                          "quemadas, las apartadas y el resto (RESHUFFLE)");
    case R::kDealerStepSeat:
      return absl::StrCat("la acción ", ActionEs(f.action),
                          " se informa con el asiento 0 (el crupier); se recibió ", f.seat);
    case R::kReshuffleNotDue:
      return absl::StrCat("no toca rebarajar: al resto aún le quedan ", f.count,
                          " carta(s) para lo que necesita la ", StreetEs(f.street));
    case R::kCardBurnedTwice:
      return absl::StrCat(card, " ya está en juego; cada carta se quema una vez");
    case R::kUnseenBurnFaceUp:
      return "una quemada mostrada boca arriba nombra su carta";
    case R::kReshuffleBeforeBurn:
      return absl::StrCat("al resto le quedan ", f.count,
                          " carta(s): informe primero el rebarajado de las quemadas, las "
                          "apartadas y el resto");
    case R::kNoBurnBeforeThird:
      return "en esta mano no se quema carta antes de la 3a calle";
    case R::kBurnSkipped:
      return "el resto es corto: se omite la quemada para que cada jugador reciba una carta sin "
             "usar";
    case R::kSecondBurn:
      return absl::StrCat("la quemada de la ", StreetEs(f.street),
                          " ya está hecha; una segunda quemada es un error del crupier: "
                          "infórmela como BURN_ERROR (burn_delta +1) con las cartas corregidas");
    case R::kShowOrMuck:
      return "las apuestas han terminado; la mano está en el showdown: muestre o tire las cartas";
    case R::kShowsFirst:
      return absl::StrCat(seat, " muestra primero");
    case R::kCardUnreadable:
      return absl::StrCat("'", f.text,
                          "' no es una carta; escriba el rango y luego el palo, como As, Td o 2c");
    case R::kRulingWithoutReport:
      return "una decisión remite a un informe que falta";
    // Settling a described showdown.
    case R::kSettleSeatOutOfRange:
      return absl::StrCat(f.seat, " no está en 1..8");
    case R::kSettleSeatTwice:
      return absl::StrCat(seat, " aparece dos veces");
    case R::kCommittedNegative:
      return "es negativo";
    case R::kSettleCardTwice:
      return absl::StrCat(card, " aparece dos veces");
    case R::kLiveHandCardCount:
      return absl::StrCat("una mano viva necesita de 5 a 7 cartas y tiene ", f.count,
                          " (STUD-IRR-CARDS-1)");
    case R::kShortHandNotLive:
      return absl::StrCat(seat, " tiene ", f.count,
                          " cartas; solo una mano a la que le falta únicamente la 7a puede "
                          "declararse viva; envíela como mano muerta (retirada)");
    case R::kNoLiveHand:
      return "al menos una mano debe estar viva para repartir los botes";
    // Irregularity reports.
    case R::kSeatOutOfRange:
      return absl::StrCat("debe estar en 1..", f.count);
    case R::kFromDealMismatch:
      return "solo lo pone el motor para un reparto informado que revela un error del crupier; "
             "este informe no lo es";
    case R::kCardRequired:
      return "es obligatorio para este tipo";
    case R::kNotCardOfSeat:
      return absl::StrCat(card, " no es una carta del asiento ", f.seat);
    case R::kHoleCardsCount:
      return absl::StrCat("nombre las dos cartas tapadas del asiento ", f.seat,
                          " o ninguna; se recibieron ", f.count);
    case R::kCardNamedTwice:
      return absl::StrCat(card, " se nombra dos veces");
    case R::kNotHoleCardOfSeat:
      return absl::StrCat(card, " no es una carta tapada del asiento ", f.seat);
    case R::kNotBettingAction:
      return "una acción de apuesta: FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET o RAISE";
    case R::kAmountAboveStack:
      return absl::StrCat(seat, " puede poner como mucho ", f.chips, " en esta calle");
    case R::kNextActedUnread:
      return "este tipo no lo lee; déjelo en false";
    case R::kFoldCheckNoChips:
      return "retirarse o pasar no pone fichas; déjelo en 0";
    case R::kAmountNotAboveStreetBet:
      return absl::StrCat("el total del asiento en la calle tras actuar; ", seat, " ya tiene ",
                          f.chips, " puestas");
    case R::kStreetOutOfRange:
      return "debe estar en 3..7";
    case R::kBurnDelta:
      return "+1 (dos cartas quemadas) o -1 (ninguna quemada)";
    case R::kTooManyPerSeat:
      return absl::StrCat("como mucho uno por asiento (", f.count, "); se recibieron ", f.limit);
    case R::kSeatMovedTwice:
      return absl::StrCat(seat, " se mueve dos veces");
    case R::kMisplacedAndCorrected:
      return absl::StrCat(card, " es a la vez la carta mal colocada y una carta corregida");
    case R::kCardWithoutHasCard:
      return "puesto sin has_card";
    case R::kKeptOnlyFinal:
      return "solo una última carta tapada la conserva quien la mezcló o la miró";
    case R::kSeatNamedTwice:
      return absl::StrCat(seat, " se nombra dos veces");
    case R::kPrematureSeatWithoutCard:
      return "solo con report.card, la última carta tapada prematura que el jugador conserva; "
             "déjelo en 0";
    case R::kTooManyEarlyCards:
      return absl::StrCat("como mucho una carta adelantada por jugador que sigue en la mano (",
                          f.count, "); se recibieron ", f.limit);
    case R::kCardCount:
      return "las cartas que tiene el asiento, no 7 (0..6 u 8..15)";
    case R::kNotCalled:
      return absl::StrCat(seat, " no ha igualado en esta mano");
    case R::kNoUpcards:
      return absl::StrCat(seat, " no tiene una mano viva con cartas descubiertas");
    case R::kAllowanceNegative:
      return "no puede ser negativo";
    case R::kUnknownKind:
      return "irregularidad desconocida";
    case R::kFromDealNoKind:
      return "ningún reparto informado equivale a este tipo";
    case R::kFieldUnread:
      return "este tipo no lo lee; déjelo en su valor por defecto";
    // Rulings on irregularities.
    case R::kOpenerAfterAction:
      return "el abridor solo se corrige antes de que nadie más haya actuado en la calle";
    case R::kNotWrongOpener:
      return absl::StrCat(seat, " no es un abridor mal designado: abre el asiento ", f.other_seat,
                          " la ", StreetEs(f.street));
    case R::kAbsentOnline:
      return "en línea, un jugador ausente es un tiempo agotado: informe TIMEOUT (STUD-ALLIN-4)";
    case R::kAbsentOutsideBetting:
      return "la mano de un jugador ausente se mata durante las apuestas, cuando todos tienen su "
             "mano inicial";
    case R::kAbsentNotReached:
      return absl::StrCat(
          "en una partida de cash la mano se mata cuando la acción llega al asiento; infórmelo "
          "cuando le toque al asiento ",
          f.seat, " (ahora le toca al asiento ", f.other_seat, ")");
    case R::kFoldNotToAct:
      return absl::StrCat("solo el jugador al que le toca puede retirarse así; le toca a ",
                          SeatOrNobodyEs(f.other_seat));
    case R::kPickedUpWithoutBet:
      return "no hay apuesta delante: es retirarse sin apuesta (checking out); informe "
             "CHECKED_OUT (STUD-IRR-FOLD-1)";
    case R::kCheckedOutFacingBet:
      return "hay una apuesta delante: es un retiro normal; aplique una acción de retirarse";
    case R::kCardCountSeven:
      return "las cartas que tiene el asiento, no 7";
    case R::kSeatHasNoLiveHand:
      return absl::StrCat(seat, " no tiene una mano viva");
    case R::kShortHandBeforeShowdown:
      return "una mano corta se decide en el showdown (7a calle)";
    case R::kTimeoutNotToAct:
      return absl::StrCat("un tiempo agotado se decide para el jugador al que le toca; le toca a ",
                          SeatOrNobodyEs(f.other_seat));
    case R::kLiveDealingOnly:
      return "el motor reparte esta mano y designa al abridor: este error del crupier no puede "
             "ocurrir (solo con reparto LIVE)";
    case R::kNothingLeftToRule:
      return "la mano ha terminado; no queda nada que decidir";
    case R::kCardAlreadyInPlay:
      return absl::StrCat(card, " ya está en juego");
    case R::kThirdCardAlreadyDealt:
      return absl::StrCat(seat,
                          " ya tiene su tercera carta; una carta tapada expuesta se decide antes "
                          "de repartir la tercera");
    case R::kBothHoleCardsTooLate:
      return "las dos cartas tapadas se deciden una vez repartidas, antes de que empiecen las "
             "apuestas de la 3a calle";
    case R::kHoleCardTooLate:
      return "una carta tapada expuesta se decide antes de las apuestas de la 3a calle";
    case R::kFinalCardTooLate:
      return "una última carta boca arriba se decide antes de las apuestas de la 7a calle";
    case R::kNotExposable:
      return "solo puede exponerse una carta tapada de la 3a calle o la última carta";
    case R::kBurnErrorTooLate:
      return absl::StrCat(
          "un error de quemada se corrige en la calle en que ocurrió, antes de que nadie actúe en "
          "ella (ahora ",
          StreetEs(f.street), ")");
    case R::kMovesUnderAllStand:
      return "con final_burn_error = ALL_STAND todas las cartas se mantienen; no informe "
             "movimientos";
    case R::kMoveSeatInvalid:
      return "un asiento 1..N con una carta de la 4a a la 7a calle";
    case R::kMoveSeatNoCard:
      return absl::StrCat(seat, " no tiene carta de la ", StreetEs(f.street));
    case R::kMoveKeptSeat:
      return absl::StrCat(seat, " mezcló o miró su última carta y debe conservarla");
    case R::kMoveCardInPlay:
      return absl::StrCat(card, " ya está en juego en otro sitio o se repite");
    case R::kPrematureNotNext:
      return "las cartas prematuras son las de la calle siguiente, repartidas con las apuestas "
             "de esta calle aún abiertas";
    case R::kPrematureNoCards:
      return "nombre las cartas repartidas antes de tiempo (o report.card con report.seat para "
             "una última carta tapada que el jugador conserva)";
    case R::kPrematureKeepNotLive:
      return "solo puede conservarse la última carta tapada prematura de un jugador vivo";
    case R::kCardNamedTwiceInList:
      return "una carta se nombra dos veces";
    case R::kOutOfTurnOnline:
      return "en línea, el servicio solo acepta una acción del asiento al que le toca";
    case R::kOutOfTurnOutsideBetting:
      return "una acción fuera de turno se decide durante una ronda de apuestas";
    case R::kOutOfTurnIsToAct:
      return absl::StrCat("le toca al asiento ", f.seat, ": aplique su acción");
    case R::kOutOfTurnNoAction:
      return absl::StrCat(seat, " ya no tiene acción en esta mano");
    case R::kOutOfTurnWaiting:
      return "otra acción fuera de turno sigue esperando el turno de su asiento";
    case R::kOutOfTurnImpossible: {
      const bool no_chips = f.action == ActionKind::kFold || f.action == ActionKind::kCheck;
      return absl::StrCat(seat, " no podría ", ActionEs(f.action),
                          no_chips ? "" : absl::StrCat(" a ", f.amount),
                          " ni en su turno; podría: ", CouldEs(f));
    }
    case R::kSkippedCardCountUnread:
      return "SKIPPED_SEAT no lo lee (el motor cuenta las cartas del asiento); déjelo en 0";
    case R::kDeclareLiveWithCard:
      return "una mano corta se declara viva en el showdown, no con la carta omitida";
    case R::kSkippedThirdStreet:
      return "la mano inicial se completa antes del bring-in: informe la carta omitida de la 3a "
             "calle como un reparto a ese asiento";
    case R::kStreetNotDealt:
      return absl::StrCat("la ", StreetEs(f.street), " aún no se ha repartido (ahora ",
                          StreetEs(f.current), ")");
    case R::kDealNotReached:
      return absl::StrCat("el reparto no ha llegado al asiento ", f.seat, " en la ",
                          StreetEs(f.street), "; al asiento ", f.other_seat,
                          " se le debe la siguiente carta");
    case R::kNotSkipped:
      return absl::StrCat(seat, " tiene su carta de la ", StreetEs(f.street), ": no se le omitió");
    case R::kDealNotPassed:
      return absl::StrCat("el reparto no ha pasado del asiento ", f.seat,
                          ": informe esa carta como repartida a él");
    case R::kMissedCardTooLate:
      return absl::StrCat("la carta omitida de la ", StreetEs(f.street),
                          " solo puede darse antes de que nadie actúe en esa calle; ", seat,
                          " juega corto: informe SKIPPED_SEAT sin carta");
  }
  return "no se permite";
}

std::string RefusalEn(const RefusalFacts& f) {
  std::string out;
  if (f.rule != RuleId::kNone) absl::StrAppend(&out, RuleIdName(f.rule), ": ");
  if (!f.field.empty()) absl::StrAppend(&out, f.field, ": ");
  absl::StrAppend(&out, RefusalWhyEn(f));
  return out;
}

std::string RefusalEs(const RefusalFacts& f) {
  if (f.rule != RuleId::kNone) {
    return absl::StrCat("La regla ", RuleIdName(f.rule), " no lo permite: ",
                        f.field.empty() ? "" : absl::StrCat("«", f.field, "»: "), RefusalWhyEs(f),
                        ".");
  }
  if (f.field.empty()) return absl::StrCat("Solicitud no válida: ", RefusalWhyEs(f), ".");
  return absl::StrCat("Solicitud no válida: revise el campo «", f.field, "»: ", RefusalWhyEs(f),
                      ".");
}

absl::Status Worded(absl::Status status) {
  const std::optional<RefusalFacts> facts = RefusalOf(status);
  if (!facts || status.message() != RawMessage(*facts)) return status;
  absl::Status out(status.code(), RefusalEn(*facts));
  status.ForEachPayload(
      [&](absl::string_view url, const absl::Cord& p) { out.SetPayload(url, p); });
  return out;
}

absl::Status RenameField(absl::Status status, absl::string_view from, absl::string_view to) {
  if (std::optional<RefusalFacts> facts = RefusalOf(status); facts) {
    status = Worded(std::move(status));
    if (!absl::StartsWith(facts->field, from)) return status;
    facts->field = absl::StrCat(to, facts->field.substr(from.size()));
    absl::Status out(status.code(), RefusalEn(*facts));
    status.ForEachPayload(
        [&](absl::string_view url, const absl::Cord& p) { out.SetPayload(url, p); });
    return WithRefusal(std::move(out), *facts);
  }
  const absl::string_view message = status.message();
  if (!absl::StartsWith(message, from)) return status;
  absl::Status out(status.code(), absl::StrCat(to, message.substr(from.size())));
  status.ForEachPayload(
      [&](absl::string_view url, const absl::Cord& p) { out.SetPayload(url, p); });
  return out;
}

}  // namespace stud::text
