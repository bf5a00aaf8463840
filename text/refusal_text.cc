#include "text/refusal_text.h"

#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/hand_state.h"  // kBoardSeat
#include "text/refusal_text_internal.h"

namespace stud::text {

namespace internal {

std::string AmountList(const RefusalFacts& f, absl::string_view sep) {
  std::string out;
  for (int i = 0; i < f.num_amounts && i < static_cast<int>(f.amounts.size()); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : sep, f.amounts[static_cast<size_t>(i)]);
  }
  return out;
}

}  // namespace internal

namespace {

using R = Refusal;
using internal::AmountList;

std::string SeatOrNobodyEn(int seat) {
  return seat != 0 ? absl::StrCat("seat ", seat) : std::string("nobody");
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
      return absl::StrCat(ActionKindName(f.action), " must be to ", AmountList(f, " or "), " on ",
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
                          AmountList(f, " or "), " or complete to ", f.chips);
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
                          AmountList(f, " or "));
    case R::kBetInstead:
      return absl::StrCat(
          f.flag ? "the wager in front is short of a full bet; " : "there is no bet to raise; ",
          "bet to ", AmountList(f, " or "), " instead of ", ActionKindName(f.action));
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

std::string RefusalEn(const RefusalFacts& f) {
  std::string out;
  if (f.rule != RuleId::kNone) absl::StrAppend(&out, RuleIdName(f.rule), ": ");
  if (!f.field.empty()) absl::StrAppend(&out, f.field, ": ");
  absl::StrAppend(&out, RefusalWhyEn(f));
  return out;
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
