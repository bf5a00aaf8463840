// The rules engine: start a hand, list legal actions, apply an action.
//
// Pure functions over HandState values: no I/O, clock or randomness. The deal
// order is an input (HandConfig::deck) or each card is reported (kDeal).
//
// One verification path: LegalActions and Apply both go through the same
// analysis of the state (betting.cc), so an action is accepted by Apply if
// and only if LegalActions lists it (same kind, same amount_to).
//
// Errors:
//   * INVALID_ARGUMENT: the request is malformed (seat out of range, unknown
//     kind, a card already dealt); the message names the field.
//   * FAILED_PRECONDITION: well formed but not allowed now; the message
//     starts with the rule ID ("STUD-CAP-1: ...") and RuleIdOf() returns it.
// On any error the state is left unchanged.
#ifndef STUD_ENGINE_ENGINE_H_
#define STUD_ENGINE_ENGINE_H_

#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/basics.h"
#include "engine/hand_state.h"

namespace stud {

struct Action {
  ActionKind kind = ActionKind::kFold;
  int seat = 0;
  Chips amount_to = 0;   // betting actions: the seat's street total after acting
  Card card;             // kDeal only
  bool face_up = false;  // kDeal, kBurn only
  bool unseen = false;   // kBurn only: burned face down, card not known (`card` ignored)
};

struct LegalAction {
  ActionKind kind = ActionKind::kFold;
  Chips amount_to = 0;  // street total after the action
  Chips amount_by = 0;  // chips the action adds from the stack
  bool all_in = false;  // the action puts the seat all-in
  friend bool operator==(const LegalAction&, const LegalAction&) = default;
};

// What the dealer must do next in kReported dealing [STUD-DEAL-3, STUD-DECK-1].
enum class DealStep : uint8_t {
  kCard = 1,    // deal `seat` its card (kDeal)
  kCommonCard,  // turn the common card up (kDeal to kBoardSeat) [STUD-DECK-5]
  kBurn,        // burn a card (kBurn); a kDeal of the card below instead means
                // the burn was made face down and not reported
  kReshuffle,   // the stub is out: reshuffle burns, aside cards and stub (kReshuffle)
};

// The card that must be reported next in kReported dealing; with step kBurn
// or kReshuffle, the card that follows them.
struct ExpectedDeal {
  int seat = 0;  // kBoardSeat for the common card
  bool face_up = false;
  Street street = Street::kThird;
  DealStep step = DealStep::kCard;
};

// Validates the configuration, posts antes and deals 3rd street (kDeck), then
// designates the bring-in. INVALID_ARGUMENT names the bad field. The hand
// keeps the configuration: a caller done with it moves it in, and its deck
// and recycle order are not copied.
absl::StatusOr<HandState> NewHand(HandConfig config);

// Whose turn it is: a seat in kBetting / kShowdown, 0 otherwise.
int ToAct(const HandState& state);

// Every action `seat` may take now, with exact amounts. Empty when it is not
// that seat's turn (or the hand is over). For kAwaitingDeal, seat
// kBoardSeat or the receiving seat gets the single expected kDeal.
std::vector<LegalAction> LegalActions(const HandState& state, int seat);
// The same, held inline (at most four betting actions; more spill to the
// heap): what Next and Apply build on every call.
using LegalActionList = absl::InlinedVector<LegalAction, 4>;
LegalActionList LegalActionsInline(const HandState& state, int seat);

// The entry of `legal` that `action` chooses, or null: the same kind and the
// listed amount_to, which may be omitted (0) when the kind is listed once.
// Kinds that put in no chips (fold, check, show, muck, deal, burn, reshuffle,
// the all-in option's answers) take 0 or the amount listed for them.
const LegalAction* ChooseLegal(const std::vector<LegalAction>& legal, const Action& action);

// Applies the action in place; on error the state is unchanged. Dealing that
// follows the action (next street, showdown) happens within the same call.
// Apply is Advance (engine/advance.h) without the answer: the same checks,
// rulings, log and version.
//
// Apply accepts an action if and only if it chooses an entry of
// LegalActions(state, action.seat) (ChooseLegal) and, for kDeal and kBurn,
// names a card not yet in play. The one exception is a card the table reports
// that reveals a dealer's error (dealt before the betting is over, dealt face
// up): once the generic deal checks pass, Advance rules it as an
// irregularity, and the log shows the ruling (kRuling). Tested for every
// kind, seat and phase by tests/engine/legal_apply_equivalence_test.cc.
absl::Status Apply(HandState& state, const Action& action);

// One live seat's place when the boards (up cards, with the common card) are
// ranked for who acts first [STUD-ORDER-1..3, STUD-ORDER-6].
struct BoardPlace {
  int seat = 0;
  int rank = 0;  // 1 for the best board; equal boards share a rank (1, 1, 3, ...)
  friend bool operator==(const BoardPlace&, const BoardPlace&) = default;
};
// Every live seat with an up card, best board first (Razz: the lowest board),
// equal boards by position (the seat dealt first first). From 4th street the
// first entry is the high hand; on 3rd street the bring-in goes by the lowest
// door card instead [STUD-BRING-1]. Inline: made for every public view.
using BoardOrderList = absl::InlinedVector<BoardPlace, kMaxSeats>;
BoardOrderList BoardOrder(const HandState& state);

// The next card expected from the dealer in kAwaitingDeal.
ExpectedDeal NextDeal(const HandState& state);

// Rebuilds the hand from its configuration by re-applying every player and
// deal action found in `log`. Used to prove that a log reproduces its state.
absl::StatusOr<HandState> Replay(const HandConfig& config, const std::vector<Operation>& log);
// The same for a hand with irregularity rulings: each kRuling operation
// re-applies reports[op.amount] (HandState::reports) in order.
absl::StatusOr<HandState> Replay(const HandConfig& config, const std::vector<Operation>& log,
                                 const std::vector<IrregularityReport>& reports);

}  // namespace stud

#endif  // STUD_ENGINE_ENGINE_H_
