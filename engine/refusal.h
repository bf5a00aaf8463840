// A refusal as data: what the engine found wrong with a request, the rule
// that decides it and the facts it speaks of. The engine builds no sentence:
// text/refusal_text.h words a refusal in English and Spanish.
//
// A refused request is still an absl::Status, with the codes the engine has
// always used: INVALID_ARGUMENT for a malformed request (the field at fault in
// `field`), FAILED_PRECONDITION for a well-formed one the rules do not allow
// now (the rule ID as the payload RuleIdOf reads, engine/basics.h). The facts
// travel as a second payload; the status message is not a sentence but the
// rule ID or the field path, so a caller that shows it to a person first turns
// the status into words (stud::text::Worded, text/refusal_text.h).
#ifndef STUD_ENGINE_REFUSAL_H_
#define STUD_ENGINE_REFUSAL_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "engine/basics.h"
#include "engine/card.h"

namespace stud {

// One enumerator per distinct refusal, named for what is wrong. Append only:
// the numbers travel in the payload (within one process, never on the wire).
enum class Refusal : uint16_t {
  kNone = 0,
  // Betting (engine/betting.cc).
  kStackTooShort,            // seat, chips (behind), amount (all-in level)
  kWrongAmount,              // action, amounts, street, amount (asked)
  kShowdownNotReached,       //
  kNoCardDue,                //
  kNoBurnDue,                //
  kNoReshuffleDue,           //
  kNoAllInOption,            // seat
  kAllInOptionFirst,         // seat
  kNobodyCouldCallComplete,  //
  kBringInDue,               // seat, amounts (bring-in), chips (small bet)
  kCheckFacingBet,           // amount (the bet)
  kNothingToCall,            //
  kFoldWithoutBet,           //
  kBringInOnlyOnThird,       //
  kCannotCoverMoreThanCall,  // seat
  kNobodyCouldCallMore,      //
  kNoBetAfterPremature,      // seat, flag (the seat itself holds the premature card)
  kNotReopened,              //
  kCapped,                   // count (raises)
  kCompletionNext,           // chips (small bet)
  kAlreadyCompleted,         //
  kRaiseInstead,             // amount (the bet), amounts
  kBetInstead,               // flag (a short wager faced), amounts, action
  // The hand's configuration (engine/engine.cc, stakes.cc, options.cc,
  // dealing.cc).
  kVariantUnknown,            // field
  kSeatCount,                 // field, count
  kStackOutOfRange,           // field, chips
  kDeckCardTwice,             // field, card
  kDeckIncomplete,            // field, count
  kDeckNotTaken,              // field
  kAnteNegative,              // field
  kSmallBetNotPositive,       // field
  kBigBetNotLarger,           // field
  kBringInOutOfRange,         // field
  kStakesTooLarge,            // field
  kMaxRaisesOutOfRange,       // field, count
  kOddChipUnitNotPositive,    // field
  kDisconnectAllInsNegative,  // field
  kCarriedAnteOutOfRange,     // field, amount, chips (the ante), count (seats)
  // Requests and dealing (engine/engine.cc, dealing_live.cc, showdown.cc).
  kCardOwedFirst,        // other_seat (the seat due, 0: the common card)
  kWrongDeal,            // seat, face_up (the report); other_seat, flag (face up), street (due)
  kHandDead,             // seat, rule (the rule that killed it)
  kAllInNoMoreAction,    // seat
  kFolded,               // seat
  kNoChipsForKind,       // field, action, chips (the listed total), amount
  kNoChipsForStep,       // field, action, amount
  kNotACard,             // field
  kCardBurned,           // card
  kCardInPlay,           // card (field: the report's, when named there)
  kReshuffleFirst,       // count (stub), street
  kSeatNotAtTable,       // field, seat, count (seats)
  kHandOver,             //
  kNotYourTurn,          // other_seat (the actor), street, seat
  kStubShortAfterBurn,   // count (stub after the burn), limit (players)
  kDealerStepSeat,       // field, action, seat
  kReshuffleNotDue,      // count (stub), street
  kCardBurnedTwice,      // card
  kUnseenBurnFaceUp,     // field
  kReshuffleBeforeBurn,  // count (stub)
  kNoBurnBeforeThird,    //
  kBurnSkipped,          //
  kSecondBurn,           // street
  kShowOrMuck,           //
  kShowsFirst,           // seat (the one to show)
  kCardUnreadable,       // text
  kRulingWithoutReport,  // field
  // Settling a showdown described by the caller (engine/pot.cc).
  kSettleSeatOutOfRange,  // field, seat
  kSettleSeatTwice,       // field, seat
  kCommittedNegative,     // field
  kSettleCardTwice,       // field, card
  kLiveHandCardCount,     // field, count
  kShortHandNotLive,      // seat, count
  kNoLiveHand,            // field
  // Irregularity reports (engine/irregularities_validate.cc).
  kSeatOutOfRange,            // field, count (seats)
  kFromDealMismatch,          // field
  kCardRequired,              // field
  kNotCardOfSeat,             // field, card, seat
  kHoleCardsCount,            // field, seat, count
  kCardNamedTwice,            // field, card
  kNotHoleCardOfSeat,         // field, card, seat
  kNotBettingAction,          // field
  kAmountAboveStack,          // field, seat, chips
  kNextActedUnread,           // field
  kFoldCheckNoChips,          // field
  kAmountNotAboveStreetBet,   // field, seat, chips
  kStreetOutOfRange,          // field
  kBurnDelta,                 // field
  kTooManyPerSeat,            // field, count (seats), limit (named)
  kSeatMovedTwice,            // field, seat
  kMisplacedAndCorrected,     // field, card
  kCardWithoutHasCard,        // field
  kKeptOnlyFinal,             // field
  kSeatNamedTwice,            // field, seat
  kPrematureSeatWithoutCard,  // field
  kTooManyEarlyCards,         // field, count (players in), limit (named)
  kCardCount,                 // field
  kNotCalled,                 // seat
  kNoUpcards,                 // seat
  kAllowanceNegative,         // field
  kUnknownKind,               // field
  kFromDealNoKind,            // field
  kFieldUnread,               // field
  // Rulings on irregularities (engine/irregularities*.cc).
  kOpenerAfterAction,          //
  kNotWrongOpener,             // seat, other_seat (the opener), street
  kAbsentOnline,               //
  kAbsentOutsideBetting,       //
  kAbsentNotReached,           // seat, other_seat (the actor)
  kFoldNotToAct,               // other_seat (the actor, 0: nobody)
  kPickedUpWithoutBet,         //
  kCheckedOutFacingBet,        //
  kCardCountSeven,             // field
  kSeatHasNoLiveHand,          // seat
  kShortHandBeforeShowdown,    //
  kTimeoutNotToAct,            // other_seat (the actor, 0: nobody)
  kLiveDealingOnly,            //
  kNothingLeftToRule,          //
  kCardAlreadyInPlay,          // card
  kThirdCardAlreadyDealt,      // seat
  kBothHoleCardsTooLate,       //
  kHoleCardTooLate,            //
  kFinalCardTooLate,           //
  kNotExposable,               //
  kBurnErrorTooLate,           // street (now)
  kMovesUnderAllStand,         // field
  kMoveSeatInvalid,            // field
  kMoveSeatNoCard,             // field, seat, street
  kMoveKeptSeat,               // seat
  kMoveCardInPlay,             // field, card
  kPrematureNotNext,           //
  kPrematureNoCards,           // field
  kPrematureKeepNotLive,       //
  kCardNamedTwiceInList,       // field
  kOutOfTurnOnline,            //
  kOutOfTurnOutsideBetting,    //
  kOutOfTurnIsToAct,           // seat
  kOutOfTurnNoAction,          // seat
  kOutOfTurnWaiting,           //
  kOutOfTurnImpossible,        // seat, action, amount; actions/amounts (what it could do)
  kSkippedCardCountUnread,     // field
  kDeclareLiveWithCard,        // field
  kSkippedThirdStreet,         //
  kStreetNotDealt,             // street (reported), current (now)
  kDealNotReached,             // seat, street, other_seat (owed the next card)
  kNotSkipped,                 // seat, street
  kDealNotPassed,              // seat
  kMissedCardTooLate,          // seat, street
  kLast = kMissedCardTooLate,  // the last one (the tests walk them all)
};

// The facts of one refusal. Which fields a refusal sets is listed beside its
// enumerator; the others keep their defaults.
struct RefusalFacts {
  Refusal what = Refusal::kNone;
  RuleId rule = RuleId::kNone;  // the rule that refuses (FAILED_PRECONDITION)
  std::string field;            // the request's field at fault ("report.cards[1]"), or ""
  std::string text;             // the request's text that could not be read
  int seat = 0;
  int other_seat = 0;
  int count = 0;
  int limit = 0;
  Chips chips = 0;
  Chips amount = 0;
  Card card;
  Street street = Street::kThird;
  Street current = Street::kThird;  // the hand's street, where `street` is another
  ActionKind action = ActionKind::kFold;
  bool face_up = false;
  bool flag = false;
  // The amounts allowed, in order, and with kOutOfTurnImpossible the actions
  // they belong to (an amount of -1: an action that puts in no chips).
  std::array<Chips, 8> amounts{};
  std::array<ActionKind, 8> actions{};
  int num_amounts = 0;
  friend bool operator==(const RefusalFacts&, const RefusalFacts&) = default;
};

// FAILED_PRECONDITION: the rules refuse. Message: the rule ID; payloads: the
// rule ID (RuleIdOf) and the facts (RefusalOf), whose `rule` is set to `rule`.
absl::Status Refuse(RuleId rule, RefusalFacts facts);
// INVALID_ARGUMENT: the request is malformed. Message: the field path.
absl::Status Malformed(const RefusalFacts& facts);
// The facts a Refuse/Malformed status carries, or nullopt.
std::optional<RefusalFacts> RefusalOf(const absl::Status& status);
// `status` with its facts replaced (same code, message and other payloads).
absl::Status WithRefusal(absl::Status status, const RefusalFacts& facts);

}  // namespace stud

#endif  // STUD_ENGINE_REFUSAL_H_
