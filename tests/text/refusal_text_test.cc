// The engine's refusals in words (text/refusal_text.h). The table below is
// the golden record of the English the engine built itself before refusals
// became data: each row is one refusal with representative facts, and the
// message the old code's literals give for them, byte for byte.
#include "text/refusal_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/refusal.h"

namespace stud::text {
namespace {

using R = Refusal;

struct Golden {
  RefusalFacts facts;
  std::string en;
};

Card C(const char* text) { return *ParseCard(text); }

std::vector<Golden> Table() {
  return {
      // Betting (engine/betting.cc).
      {{.what = R::kStackTooShort, .rule = RuleId::kAllin1, .seat = 3, .chips = 7, .amount = 9},
       "STUD-ALLIN-1: seat 3 has only 7 chips behind; it can go all-in to 9"},
      {{.what = R::kWrongAmount,
        .rule = RuleId::kStakes5,
        .amount = 30,
        .street = Street::kFifth,
        .action = ActionKind::kBet,
        .amounts = {20, 12},
        .num_amounts = 2},
       "STUD-STAKES-5: bet must be to 20 or 12 on 5th street, not 30 (fixed limit)"},
      {{.what = R::kShowdownNotReached, .rule = RuleId::kShow1},
       "STUD-SHOW-1: showdown has not been reached; betting is still open"},
      {{.what = R::kNoCardDue, .rule = RuleId::kDeal2},
       "STUD-DEAL-2: no card is due now; the betting round is open"},
      {{.what = R::kNoBurnDue, .rule = RuleId::kDeal3},
       "STUD-DEAL-3: no burn is due now; the betting round is open"},
      {{.what = R::kNoReshuffleDue, .rule = RuleId::kDeck1},
       "STUD-DECK-1: no reshuffle is due now; the betting round is open"},
      {{.what = R::kNoAllInOption, .rule = RuleId::kIrrExp5, .seat = 2},
       "STUD-IRR-EXP-5: seat 2 has no all-in option to answer"},
      {{.what = R::kAllInOptionFirst, .rule = RuleId::kIrrExp5, .seat = 4},
       "STUD-IRR-EXP-5: seat 4's final card was dealt face up: it first declares all-in or "
       "declines the option"},
      {{.what = R::kNobodyCouldCallComplete, .rule = RuleId::kAllin7},
       "STUD-ALLIN-7: no other player still in can put in more than the bring-in, so nobody "
       "could call a completion; bring in"},
      {{.what = R::kBringInDue,
        .rule = RuleId::kBring4,
        .seat = 5,
        .chips = 4,
        .amounts = {1},
        .num_amounts = 1},
       "STUD-BRING-4: seat 5 opens 3rd street and must bring in for 1 or complete to 4"},
      {{.what = R::kCheckFacingBet, .rule = RuleId::kBet1, .amount = 8},
       "STUD-BET-1: cannot check facing a bet of 8; call, raise or fold"},
      {{.what = R::kNothingToCall, .rule = RuleId::kBet1},
       "STUD-BET-1: there is no bet to call; check or bet"},
      {{.what = R::kFoldWithoutBet, .rule = RuleId::kIrrFold1},
       "STUD-IRR-FOLD-1: folding when no bet is faced is not allowed in this hand; check"},
      {{.what = R::kBringInOnlyOnThird, .rule = RuleId::kBring1},
       "STUD-BRING-1: the bring-in is only posted to open 3rd street"},
      {{.what = R::kCannotCoverMoreThanCall, .rule = RuleId::kAllin1, .seat = 6},
       "STUD-ALLIN-1: seat 6 cannot cover more than a call"},
      {{.what = R::kNobodyCouldCallMore, .rule = RuleId::kAllin7},
       "STUD-ALLIN-7: every other player still in is all-in or can at most call: nobody could "
       "call more, so only call, check or fold"},
      {{.what = R::kNoBetAfterPremature, .rule = RuleId::kIrrPrem2, .seat = 3, .flag = true},
       "STUD-IRR-PREM-2: seat 3 already holds its 7th card: no bet or raise on 6th street; "
       "check, call or fold"},
      {{.what = R::kNotReopened, .rule = RuleId::kCap2},
       "STUD-CAP-2: a short all-in does not reopen the betting for a player who already acted; "
       "call or fold"},
      {{.what = R::kCapped, .rule = RuleId::kCap1, .count = 3},
       "STUD-CAP-1: betting is capped after 3 raises; call or fold"},
      {{.what = R::kCompletionNext, .rule = RuleId::kBring6, .chips = 4},
       "STUD-BRING-6: after the bring-in the next full bet is a completion to 4"},
      {{.what = R::kAlreadyCompleted, .rule = RuleId::kBring5},
       "STUD-BRING-5: the bet has already been completed; raise instead"},
      {{.what = R::kRaiseInstead,
        .rule = RuleId::kBet1,
        .amount = 4,
        .amounts = {8},
        .num_amounts = 1},
       "STUD-BET-1: there is already a bet of 4; raise to 8"},
      {{.what = R::kBetInstead,
        .rule = RuleId::kBet1,
        .action = ActionKind::kRaise,
        .amounts = {8},
        .num_amounts = 1},
       "STUD-BET-1: there is no bet to raise; bet to 8 instead of raise"},
      // Configuration.
      {{.what = R::kVariantUnknown, .field = "variant"},
       "variant: must be stud, stud hi-lo or razz"},
      {{.what = R::kSeatCount, .field = "seats", .count = 9},
       "seats: 9 seats; a stud table seats 2 to 8 (STUD-DECK-1)"},
      {{.what = R::kStackOutOfRange, .field = "seats[2].stack", .chips = -5},
       "seats[2].stack: must be positive and at most 2^40 chips, got -5"},
      {{.what = R::kDeckCardTwice, .field = "deck", .card = C("As")},
       "deck: As appears twice; the deck must hold each card once"},
      {{.what = R::kDeckIncomplete, .field = "recycle_order", .count = 51},
       "recycle_order: must list all 52 cards in dealing order, got 51"},
      {{.what = R::kDeckNotTaken, .field = "deck"}, "deck: reported dealing takes no deck order"},
      {{.what = R::kAnteNegative, .field = "stakes.ante"},
       "stakes.ante: must not be negative (STUD-SETUP-2)"},
      {{.what = R::kSmallBetNotPositive, .field = "stakes.small_bet"},
       "stakes.small_bet: must be positive (STUD-STAKES-1)"},
      {{.what = R::kBigBetNotLarger, .field = "stakes.big_bet"},
       "stakes.big_bet: must be larger than the small bet (STUD-STAKES-1)"},
      {{.what = R::kBringInOutOfRange, .field = "stakes.bring_in"},
       "stakes.bring_in: must be positive and below the small bet; completing to the small bet "
       "is the bring-in player's other choice (STUD-BRING-4, STUD-STAKES-3)"},
      {{.what = R::kStakesTooLarge, .field = "stakes.big_bet"},
       "stakes.big_bet: amounts above 2^40 chips are not supported"},
      {{.what = R::kMaxRaisesOutOfRange, .field = "options.max_raises_per_round", .count = 0},
       "options.max_raises_per_round: 0 is out of range 1..100 (STUD-CAP-1)"},
      {{.what = R::kOddChipUnitNotPositive, .field = "options.odd_chip_unit"},
       "options.odd_chip_unit: must be positive (STUD-ODD-5)"},
      {{.what = R::kDisconnectAllInsNegative, .field = "options.disconnect_allins_per_period"},
       "options.disconnect_allins_per_period: must not be negative (STUD-ALLIN-5)"},
      {{.what = R::kCarriedAnteOutOfRange,
        .field = "carried_antes[3]",
        .count = 2,
        .chips = 1,
        .amount = 5},
       "carried_antes[3]: 5 is not an ante of a seat of this hand (0 to the ante 1, seats 1..2) "
       "(STUD-IRR-EXP-1)"},
      // Requests and dealing.
      {{.what = R::kCardOwedFirst, .rule = RuleId::kDeal1, .other_seat = 0},
       "STUD-DEAL-1: the dealer owes a card first: the common card; report it with a deal "
       "action"},
      {{.what = R::kWrongDeal,
        .rule = RuleId::kDeal1,
        .seat = 2,
        .other_seat = 3,
        .street = Street::kFourth,
        .face_up = false,
        .flag = true},
       "STUD-DEAL-1: the next card goes face up to seat 3 on 4th street; the report says face "
       "down to seat 2; a card dealt to the wrong seat is put right where possible and reported "
       "for the proper seat, or reported as a BURN_ERROR with the corrected cards "
       "(STUD-IRR-BURN-1)"},
      {{.what = R::kHandDead, .rule = RuleId::kIrrFold2, .seat = 3},
       "STUD-IRR-FOLD-2: seat 3's hand is dead (STUD-IRR-FOLD-2); it takes no more action"},
      {{.what = R::kAllInNoMoreAction, .rule = RuleId::kAllin1, .seat = 1},
       "STUD-ALLIN-1: seat 1 is all-in; it takes no more action"},
      {{.what = R::kFolded, .rule = RuleId::kBet1, .seat = 7}, "STUD-BET-1: seat 7 has folded"},
      {{.what = R::kNoChipsForKind,
        .field = "amount_to",
        .chips = 4,
        .amount = 3,
        .action = ActionKind::kCheck},
       "amount_to: check puts in no chips; send 0 (or the street total 4 that LegalActions "
       "lists), not 3"},
      {{.what = R::kNoChipsForStep, .field = "amount_to", .amount = 2, .action = ActionKind::kShow},
       "amount_to: show puts in no chips; send 0, not 2"},
      {{.what = R::kNotACard, .field = "card"}, "card: not a card"},
      {{.what = R::kCardBurned, .rule = RuleId::kDeal4, .card = C("Kd")},
       "STUD-DEAL-4: Kd was burned; a burned card comes back only with a reshuffle "
       "(STUD-DECK-1)"},
      {{.what = R::kCardInPlay, .rule = RuleId::kDeal4, .card = C("2c")},
       "STUD-DEAL-4: 2c is already in play; a card is dealt once"},
      {{.what = R::kReshuffleFirst, .rule = RuleId::kDeck1, .count = 1, .street = Street::kSixth},
       "STUD-DECK-1: the stub holds 1 card(s) and 6th street needs more: report the reshuffle "
       "(RESHUFFLE) of the burns, aside cards and stub first"},
      {{.what = R::kSeatNotAtTable, .field = "seat", .seat = 9, .count = 6},
       "seat: 9 is not at this table (seats 1..6)"},
      {{.what = R::kHandOver, .rule = RuleId::kGame1},
       "STUD-GAME-1: the hand is over; start a new hand"},
      {{.what = R::kNotYourTurn,
        .rule = RuleId::kOrder1,
        .seat = 4,
        .other_seat = 2,
        .street = Street::kFifth},
       "STUD-ORDER-1: it is seat 2's turn to act on 5th street, not seat 4"},
      {{.what = R::kStubShortAfterBurn, .rule = RuleId::kDeck1, .count = 1, .limit = 3},
       "STUD-DECK-1: after the burn the stub holds 1 card(s) for 3 players: report the burn "
       "(BURN), then the reshuffle of the burns, aside cards and stub (RESHUFFLE)"},
      {{.what = R::kDealerStepSeat, .field = "seat", .seat = 2, .action = ActionKind::kBurn},
       "seat: a burn is reported with seat 0 (the dealer), got 2"},
      {{.what = R::kReshuffleNotDue,
        .rule = RuleId::kDeck1,
        .count = 9,
        .street = Street::kSeventh},
       "STUD-DECK-1: no reshuffle is due: the stub still holds 9 card(s) for what 7th street "
       "needs"},
      {{.what = R::kCardBurnedTwice, .rule = RuleId::kDeal4, .card = C("Th")},
       "STUD-DEAL-4: Th is already in play; a card is burned once"},
      {{.what = R::kUnseenBurnFaceUp, .field = "face_up"},
       "face_up: a burn shown face up names its card"},
      {{.what = R::kReshuffleBeforeBurn, .rule = RuleId::kDeck1, .count = 0},
       "STUD-DECK-1: the stub holds 0 card(s): report the reshuffle of the burns, aside cards "
       "and stub first"},
      {{.what = R::kNoBurnBeforeThird, .rule = RuleId::kDeal3},
       "STUD-DEAL-3: no card is burned before 3rd street in this hand"},
      {{.what = R::kBurnSkipped, .rule = RuleId::kDeck2},
       "STUD-DECK-2: the stub is short: the burn is skipped so every player gets an unused card"},
      {{.what = R::kSecondBurn, .rule = RuleId::kIrrBurn1, .street = Street::kFourth},
       "STUD-IRR-BURN-1: the burn of 4th street is already made; a second burn is a dealer "
       "error: report it as a BURN_ERROR (burn_delta +1) with the corrected cards"},
      {{.what = R::kShowOrMuck, .rule = RuleId::kShow1},
       "STUD-SHOW-1: betting is over; the hand is at showdown: show or muck"},
      {{.what = R::kShowsFirst, .rule = RuleId::kShow1, .seat = 5},
       "STUD-SHOW-1: seat 5 shows first"},
      {{.what = R::kCardUnreadable, .text = "Zz"},
       "'Zz' is not a card; write rank then suit, like As, Td or 2c"},
      {{.what = R::kRulingWithoutReport, .field = "log"},
       "log: a ruling refers to a report that is missing"},
      // Settling a described showdown.
      {{.what = R::kSettleSeatOutOfRange, .field = "seats[0].seat", .seat = 9},
       "seats[0].seat: 9 is not 1..8"},
      {{.what = R::kSettleSeatTwice, .field = "seats[1].seat", .seat = 2},
       "seats[1].seat: seat 2 appears twice"},
      {{.what = R::kCommittedNegative, .field = "seats[0].committed"},
       "seats[0].committed: is negative"},
      {{.what = R::kSettleCardTwice, .field = "seats[1].cards", .card = C("Qs")},
       "seats[1].cards: Qs appears twice"},
      {{.what = R::kLiveHandCardCount, .field = "seats[0].cards", .count = 4},
       "seats[0].cards: a live hand needs 5 to 7 cards, has 4 (STUD-IRR-CARDS-1)"},
      {{.what = R::kShortHandNotLive, .rule = RuleId::kIrrCards1, .seat = 2, .count = 5},
       "STUD-IRR-CARDS-1: seat 2 holds 5 cards; only a hand missing just its 7th card may be "
       "ruled live; send it as a dead (folded) hand"},
      {{.what = R::kNoLiveHand, .field = "seats"},
       "seats: at least one hand must be live to settle the pots"},
      // Irregularity reports.
      {{.what = R::kSeatOutOfRange, .field = "report.seat", .count = 6},
       "report.seat: must be 1..6"},
      {{.what = R::kFromDealMismatch, .field = "report.from_deal"},
       "report.from_deal: set only by the engine for a deal report that reveals a dealer error; "
       "this report is not one"},
      {{.what = R::kCardRequired, .field = "report.card"}, "report.card: required for this kind"},
      {{.what = R::kNotCardOfSeat, .field = "report.card", .seat = 3, .card = C("9h")},
       "report.card: 9h is not a card of seat 3"},
      {{.what = R::kHoleCardsCount, .field = "report.cards", .seat = 3, .count = 1},
       "report.cards: name both hole cards of seat 3 or none; got 1"},
      {{.what = R::kCardNamedTwice, .field = "report.cards[1]", .card = C("9h")},
       "report.cards[1]: 9h is named twice"},
      {{.what = R::kNotHoleCardOfSeat, .field = "report.cards[0]", .seat = 3, .card = C("9h")},
       "report.cards[0]: 9h is not a hole card of seat 3"},
      {{.what = R::kNotBettingAction, .field = "report.action"},
       "report.action: a betting action: FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET or RAISE"},
      {{.what = R::kAmountAboveStack, .field = "report.amount_to", .seat = 2, .chips = 50},
       "report.amount_to: seat 2 can put in at most 50 on this street"},
      {{.what = R::kNextActedUnread, .field = "report.next_acted"},
       "report.next_acted: not read by this kind; leave it false"},
      {{.what = R::kFoldCheckNoChips, .field = "report.amount_to"},
       "report.amount_to: a fold or a check puts in no chips; leave it 0"},
      {{.what = R::kAmountNotAboveStreetBet, .field = "report.amount_to", .seat = 2, .chips = 4},
       "report.amount_to: the seat's street total after acting; seat 2 already has 4 in"},
      {{.what = R::kStreetOutOfRange, .field = "report.street"}, "report.street: must be 3..7"},
      {{.what = R::kBurnDelta, .field = "report.burn_delta"},
       "report.burn_delta: +1 (two cards burned) or -1 (no burn)"},
      {{.what = R::kTooManyPerSeat, .field = "report.moves", .count = 4, .limit = 5},
       "report.moves: at most one per seat (4); got 5"},
      {{.what = R::kSeatMovedTwice, .field = "report.moves[1].seat", .seat = 2},
       "report.moves[1].seat: seat 2 is moved twice"},
      {{.what = R::kMisplacedAndCorrected, .field = "report.card", .card = C("3d")},
       "report.card: 3d is the misplaced card and a corrected card at once"},
      {{.what = R::kCardWithoutHasCard, .field = "report.card"},
       "report.card: set without has_card"},
      {{.what = R::kKeptOnlyFinal, .field = "report.seats"},
       "report.seats: only a final downcard is kept by who mixed it in or looked at it"},
      {{.what = R::kSeatNamedTwice, .field = "report.seats[1]", .seat = 4},
       "report.seats[1]: seat 4 is named twice"},
      {{.what = R::kPrematureSeatWithoutCard, .field = "report.seat"},
       "report.seat: only with report.card, the premature final downcard the player keeps; "
       "leave it 0"},
      {{.what = R::kTooManyEarlyCards, .field = "report.cards", .count = 2, .limit = 3},
       "report.cards: at most one early card per player still in the hand (2); got 3"},
      {{.what = R::kCardCount, .field = "report.card_count"},
       "report.card_count: the cards the seat holds, not 7 (0..6 or 8..15)"},
      {{.what = R::kNotCalled, .rule = RuleId::kIrrCall1, .seat = 4},
       "STUD-IRR-CALL-1: seat 4 has not called in this hand"},
      {{.what = R::kNoUpcards, .rule = RuleId::kGame5, .seat = 4},
       "STUD-GAME-5: seat 4 has no live hand with upcards"},
      {{.what = R::kAllowanceNegative, .field = "report.allowance_remaining"},
       "report.allowance_remaining: must not be negative"},
      {{.what = R::kUnknownKind, .field = "report.kind"}, "report.kind: unknown irregularity"},
      {{.what = R::kFromDealNoKind, .field = "report.from_deal"},
       "report.from_deal: no deal report stands for this kind"},
      {{.what = R::kFieldUnread, .field = "report.street"},
       "report.street: not read by this kind; leave it at its default"},
      // Rulings on irregularities (engine/irregularities*.cc).
      {{.what = R::kOpenerAfterAction, .rule = RuleId::kIrrWrong1},
       "STUD-IRR-WRONG-1: the opener is corrected only before anyone else has acted on the "
       "street"},
      {{.what = R::kNotWrongOpener,
        .rule = RuleId::kIrrWrong1,
        .seat = 3,
        .other_seat = 2,
        .street = Street::kFourth},
       "STUD-IRR-WRONG-1: seat 3 is not a wrongly designated opener: seat 2 opens 4th street"},
      {{.what = R::kAbsentOnline, .rule = RuleId::kIrrAbs1},
       "STUD-IRR-ABS-1: online, an absent player is a time-out: report TIMEOUT (STUD-ALLIN-4)"},
      {{.what = R::kAbsentOutsideBetting, .rule = RuleId::kIrrAbs1},
       "STUD-IRR-ABS-1: an absent player's hand is killed during the betting, once everyone has "
       "the starting hand"},
      {{.what = R::kAbsentNotReached, .rule = RuleId::kIrrAbs1, .seat = 4, .other_seat = 2},
       "STUD-IRR-ABS-1: in a cash game the hand is killed when the action reaches the seat; "
       "report it when seat 4 is to act (seat 2 is to act now)"},
      {{.what = R::kFoldNotToAct, .rule = RuleId::kIrrFold1, .other_seat = 0},
       "STUD-IRR-FOLD-1: only the player to act can fold this way; nobody is to act"},
      {{.what = R::kPickedUpWithoutBet, .rule = RuleId::kIrrFold2},
       "STUD-IRR-FOLD-2: no bet is faced: this is a fold with no bet (checking out); report "
       "CHECKED_OUT (STUD-IRR-FOLD-1)"},
      {{.what = R::kCheckedOutFacingBet, .rule = RuleId::kIrrFold1},
       "STUD-IRR-FOLD-1: a bet is faced: this is an ordinary fold; apply a fold action"},
      {{.what = R::kCardCountSeven, .field = "report.card_count"},
       "report.card_count: the cards the seat holds, not 7"},
      {{.what = R::kSeatHasNoLiveHand, .rule = RuleId::kIrrCards1, .seat = 5},
       "STUD-IRR-CARDS-1: seat 5 has no live hand"},
      {{.what = R::kShortHandBeforeShowdown, .rule = RuleId::kIrrCards1},
       "STUD-IRR-CARDS-1: a short hand is ruled at the showdown (7th street)"},
      {{.what = R::kTimeoutNotToAct, .rule = RuleId::kAllin4, .other_seat = 3},
       "STUD-ALLIN-4: a time-out is ruled for the player to act; seat 3 is to act"},
      {{.what = R::kLiveDealingOnly, .rule = RuleId::kIrrExp1},
       "STUD-IRR-EXP-1: the engine deals this hand and designates the opener: this dealer error "
       "cannot occur (LIVE dealing only)"},
      {{.what = R::kNothingLeftToRule, .rule = RuleId::kGame1},
       "STUD-GAME-1: the hand is over; nothing left to rule on"},
      {{.what = R::kCardAlreadyInPlay, .rule = RuleId::kDeal4, .card = C("7c")},
       "STUD-DEAL-4: 7c is already in play"},
      {{.what = R::kThirdCardAlreadyDealt, .rule = RuleId::kIrrExp1, .seat = 2},
       "STUD-IRR-EXP-1: seat 2 already has its third card; an exposed hole card is ruled before "
       "the third card is dealt"},
      {{.what = R::kBothHoleCardsTooLate, .rule = RuleId::kIrrExp2},
       "STUD-IRR-EXP-2: both hole cards are ruled on once dealt, before the 3rd-street betting "
       "starts"},
      {{.what = R::kHoleCardTooLate, .rule = RuleId::kIrrExp1},
       "STUD-IRR-EXP-1: an exposed hole card is ruled before the 3rd-street betting"},
      {{.what = R::kFinalCardTooLate, .rule = RuleId::kIrrExp5},
       "STUD-IRR-EXP-5: a face-up final card is ruled before the 7th-street betting"},
      {{.what = R::kNotExposable, .rule = RuleId::kIrrExp1},
       "STUD-IRR-EXP-1: only a 3rd-street hole card or the final card can be exposed"},
      {{.what = R::kBurnErrorTooLate, .rule = RuleId::kIrrBurn1, .street = Street::kFifth},
       "STUD-IRR-BURN-1: a burn error is corrected on the street it happened, before anyone acts "
       "on it (now 5th street)"},
      {{.what = R::kMovesUnderAllStand, .field = "report.moves"},
       "report.moves: under final_burn_error = ALL_STAND every card stands; report no moves"},
      {{.what = R::kMoveSeatInvalid, .field = "report.moves"},
       "report.moves: a seat 1..N holding a card of 4th..7th street"},
      {{.what = R::kMoveSeatNoCard, .field = "report.moves", .seat = 2, .street = Street::kSixth},
       "report.moves: seat 2 has no card of 6th street"},
      {{.what = R::kMoveKeptSeat, .rule = RuleId::kIrrBurn2, .seat = 2},
       "STUD-IRR-BURN-2: seat 2 mixed in or looked at its final card and must keep it"},
      {{.what = R::kMoveCardInPlay, .field = "report.moves", .card = C("Jc")},
       "report.moves: Jc is already in play elsewhere or repeated"},
      {{.what = R::kPrematureNotNext, .rule = RuleId::kIrrPrem1},
       "STUD-IRR-PREM-1: premature cards are the next street's, dealt while this street's "
       "betting is still open"},
      {{.what = R::kPrematureNoCards, .field = "report.cards"},
       "report.cards: name the cards dealt early (or report.card with report.seat for a final "
       "downcard the player keeps)"},
      {{.what = R::kPrematureKeepNotLive, .rule = RuleId::kIrrPrem2},
       "STUD-IRR-PREM-2: only a live player's premature final downcard can be kept"},
      {{.what = R::kCardNamedTwiceInList, .field = "report.cards"},
       "report.cards: a card is named twice"},
      {{.what = R::kOutOfTurnOnline, .rule = RuleId::kIrrWrong1},
       "STUD-IRR-WRONG-1: online, the service takes an action only from the seat to act"},
      {{.what = R::kOutOfTurnOutsideBetting, .rule = RuleId::kIrrWrong1},
       "STUD-IRR-WRONG-1: an action out of turn is ruled during a betting round"},
      {{.what = R::kOutOfTurnIsToAct, .rule = RuleId::kIrrWrong1, .seat = 3},
       "STUD-IRR-WRONG-1: seat 3 is to act: apply its action"},
      {{.what = R::kOutOfTurnNoAction, .rule = RuleId::kIrrWrong1, .seat = 3},
       "STUD-IRR-WRONG-1: seat 3 has no action left in this hand"},
      {{.what = R::kOutOfTurnWaiting, .rule = RuleId::kIrrWrong1},
       "STUD-IRR-WRONG-1: another action out of turn is still waiting for its seat's turn"},
      {{.what = R::kOutOfTurnImpossible,
        .rule = RuleId::kIrrWrong1,
        .seat = 4,
        .amount = 3,
        .action = ActionKind::kRaise,
        .amounts = {-1, 4, 8},
        .actions = {ActionKind::kFold, ActionKind::kCall, ActionKind::kRaise},
        .num_amounts = 3},
       "STUD-IRR-WRONG-1: seat 4 could not raise to 3 even in turn; it could: fold, call to 4, "
       "raise to 8"},
      {{.what = R::kSkippedCardCountUnread, .field = "report.card_count"},
       "report.card_count: not read by SKIPPED_SEAT (the engine counts the seat's cards); leave "
       "it 0"},
      {{.what = R::kDeclareLiveWithCard, .field = "report.declare_live"},
       "report.declare_live: a short hand is declared live at the showdown, not with the missed "
       "card"},
      {{.what = R::kSkippedThirdStreet, .rule = RuleId::kDeal1},
       "STUD-DEAL-1: the starting hand is completed before the bring-in: report the missed "
       "3rd-street card to the seat as a deal"},
      {{.what = R::kStreetNotDealt,
        .rule = RuleId::kIrrCards1,
        .street = Street::kFifth,
        .current = Street::kFourth},
       "STUD-IRR-CARDS-1: 5th street has not been dealt yet (now 4th street)"},
      {{.what = R::kDealNotReached,
        .rule = RuleId::kIrrCards1,
        .seat = 2,
        .other_seat = 1,
        .street = Street::kFourth},
       "STUD-IRR-CARDS-1: the deal has not reached seat 2 on 4th street; seat 1 is owed the next "
       "card"},
      {{.what = R::kNotSkipped, .rule = RuleId::kIrrCards1, .seat = 2, .street = Street::kFourth},
       "STUD-IRR-CARDS-1: seat 2 holds its 4th street card: it was not skipped"},
      {{.what = R::kDealNotPassed, .rule = RuleId::kDeal2, .seat = 2},
       "STUD-DEAL-2: the deal has not passed seat 2: report that card as dealt to it"},
      {{.what = R::kMissedCardTooLate,
        .rule = RuleId::kIrrBurn1,
        .seat = 2,
        .street = Street::kFourth},
       "STUD-IRR-BURN-1: the missed 4th street card can be given only before anyone acts on that "
       "street; seat 2 plays short: report SKIPPED_SEAT without a card"},
      // A card already in play named in a report: the field after the rule.
      {{.what = R::kCardInPlay,
        .rule = RuleId::kDeal4,
        .field = "report.cards[0]",
        .card = C("Ac")},
       "STUD-DEAL-4: report.cards[0]: Ac is already in play; a card is dealt once"},
  };
}

TEST(RefusalText, EnglishIsTheEnginesOldMessage) {
  for (const Golden& g : Table()) {
    EXPECT_EQ(RefusalEn(g.facts), g.en) << static_cast<int>(g.facts.what);
  }
}

TEST(RefusalText, EveryRefusalHasAGoldenRow) {
  std::set<int> covered;
  for (const Golden& g : Table()) covered.insert(static_cast<int>(g.facts.what));
  for (int i = 1; i <= static_cast<int>(R::kLast); ++i) {
    EXPECT_TRUE(covered.count(i)) << "no golden row for Refusal " << i;
  }
}

TEST(RefusalText, SpanishIsASentenceWithTheSameFacts) {
  std::set<std::string> seen;
  for (const Golden& g : Table()) {
    const std::string es = RefusalEs(g.facts);
    EXPECT_NE(es, g.en);
    EXPECT_NE(RefusalWhyEs(g.facts), RefusalWhyEn(g.facts)) << es;
    EXPECT_EQ(es.back(), '.') << es;
    if (g.facts.rule != RuleId::kNone) {
      EXPECT_THAT(es, ::testing::StartsWith(absl::StrCat("La regla ", RuleIdName(g.facts.rule))));
    }
    if (!g.facts.field.empty()) {
      EXPECT_THAT(es, ::testing::HasSubstr(g.facts.field));
    }
    if (g.facts.seat > 0) {
      EXPECT_THAT(es, ::testing::HasSubstr(absl::StrCat(g.facts.seat)));
    }
    seen.insert(es);
  }
  EXPECT_EQ(RefusalEs({.what = R::kCapped, .rule = RuleId::kCap1, .count = 3}),
            "La regla STUD-CAP-1 no lo permite: las apuestas están topadas tras 3 subidas; "
            "iguale o retírese.");
  EXPECT_EQ(RefusalEs({.what = R::kStackOutOfRange, .field = "seats[2].stack", .chips = -5}),
            "Solicitud no válida: revise el campo «seats[2].stack»: debe ser positivo y como "
            "mucho 2^40 fichas; se recibió -5.");
}

TEST(RefusalText, TheEnginesStatusCarriesFactsNotWords) {
  const RefusalFacts facts{.what = R::kCapped, .count = 4};
  const absl::Status refused = Refuse(RuleId::kCap1, facts);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.message(), "STUD-CAP-1");
  EXPECT_EQ(RuleIdOf(refused), "STUD-CAP-1");
  ASSERT_TRUE(RefusalOf(refused).has_value());
  EXPECT_EQ(RefusalOf(refused)->what, R::kCapped);
  EXPECT_EQ(RefusalOf(refused)->count, 4);
  EXPECT_EQ(RefusalOf(refused)->rule, RuleId::kCap1);

  const absl::Status worded = Worded(refused);
  EXPECT_EQ(worded.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(worded.message(), "STUD-CAP-1: betting is capped after 4 raises; call or fold");
  EXPECT_EQ(RuleIdOf(worded), "STUD-CAP-1");
  EXPECT_EQ(RefusalOf(worded), RefusalOf(refused));
  EXPECT_EQ(Worded(worded), worded) << "idempotent";

  const absl::Status plain = absl::InternalError("boom");
  EXPECT_EQ(Worded(plain), plain);
  EXPECT_FALSE(RefusalOf(plain).has_value());
}

TEST(RefusalText, RenameFieldNamesTheRequestsPath) {
  const absl::Status bad =
      Malformed({.what = R::kSeatNotAtTable, .field = "seat", .seat = 9, .count = 6});
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.message(), "seat");
  const absl::Status nested = RenameField(bad, "", "action.");
  EXPECT_EQ(nested.message(), "action.seat: 9 is not at this table (seats 1..6)");
  EXPECT_EQ(RefusalOf(nested)->field, "action.seat");
  EXPECT_EQ(Worded(nested), nested);
  EXPECT_EQ(RenameField(bad, "report.", "x.").message(),
            "seat: 9 is not at this table (seats 1..6)");

  const absl::Status kept = Malformed({.what = R::kCardRequired, .field = "report.card"});
  EXPECT_EQ(RenameField(kept, "report.card", "report.kept_card").message(),
            "report.kept_card: required for this kind");
  EXPECT_EQ(RenameField(absl::InvalidArgumentError("seat: bad"), "", "action.").message(),
            "action.seat: bad");
}

}  // namespace
}  // namespace stud::text
