// The hand as a plain value: configuration, seats, cards, betting round,
// operation log. Everything a later call needs is in here, so the service can
// serialize it into a sealed token and any replica can continue the hand.
//
// Seats are numbered 1..num_seats clockwise from the first seat left of the
// button; seat 1 is dealt first [STUD-SETUP-1, STUD-DEAL-1]. Arrays indexed by
// seat have kMaxSeats + 1 entries and entry 0 is unused.
#ifndef STUD_ENGINE_HAND_STATE_H_
#define STUD_ENGINE_HAND_STATE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/card.h"
#include "engine/irregularity_report.h"
#include "engine/options.h"
#include "engine/rule_id.h"
#include "engine/stakes.h"

namespace stud {

inline constexpr int kMaxSeats = 8;
inline constexpr int kMinSeats = 2;
inline constexpr int kBoardSeat = 0;  // "seat" of the common card in operations

enum class Phase : uint8_t {
  kBetting = 1,       // `actor` must act
  kAwaitingDeal = 2,  // reported dealing: the next card must be reported (see NextDeal)
  kShowdown = 3,      // `actor` must show or muck [STUD-SHOW-1, STUD-SHOW-2]
  kComplete = 4,      // every pot has been awarded
};

// Where the cards come from. kDeck: the caller supplied the full deal order
// (the service shuffled it, or a preset); the engine deals from it. kReported:
// a person deals and each card is reported with a kDeal action.
enum class DealSource : uint8_t { kDeck = 1, kReported = 2 };

struct SeatCard {
  Card card;
  bool face_up = false;
  Street street = Street::kThird;
  friend bool operator==(const SeatCard&, const SeatCard&) = default;
};

struct Seat {
  Chips stack = 0;       // chips behind, not yet in the pot
  Chips committed = 0;   // everything put in this hand: ante + every street's bets
  Chips street_bet = 0;  // put in on the current street (antes excluded)
  bool folded = false;
  bool all_in = false;
  bool mucked = false;  // surrendered at showdown [STUD-SHOW-2]
  bool shown = false;   // cards shown at showdown
  bool acted = false;   // has made a voluntary action this betting round
  bool checked_out =
      false;           // folded with no bet to face; still dealt until a bet [STUD-IRR-FOLD-1]
  Chips acted_to = 0;  // street_bet after this seat's last voluntary action
  // LIVE dealing corrections [STUD-IRR-EXP-1, STUD-IRR-EXP-5, STUD-IRR-PREM-2].
  bool door_down = false;    // a hole card was exposed: the third card comes face down
  bool final_up = false;     // heads-up: the final card comes face up too
  bool has_seventh = false;  // kept a premature final downcard: no 7th-street card
  uint8_t num_cards = 0;
  std::array<SeatCard, 8> cards{};  // in deal order; 7 in a full hand

  bool live() const { return !folded && !mucked; }
  bool can_act() const { return !folded && !all_in && !mucked; }
  friend bool operator==(const Seat&, const Seat&) = default;
};

struct HandConfig {
  Variant variant = Variant::kStud;
  Stakes stakes;
  Options options;
  int num_seats = 0;
  std::array<Chips, kMaxSeats + 1> starting_stacks{};  // indexed by seat
  DealSource deal_source = DealSource::kDeck;
  // kDeck: the cards as they come off the top, burns included, in dealing
  // order (docs/rules.md, "Dealing order"). Usually all 52 cards.
  std::vector<Card> deck;
  // kDeck: order used when burns and the stub are recycled because the deck
  // runs out [STUD-DECK-1, STUD-DECK-7]: the recycled pile is sorted by each
  // card's position in this list (a permutation of the 52 cards; empty means
  // the natural order). The service fills it from its RNG.
  std::vector<Card> recycle_order;
  // The redeal of a misdeal whose antes stayed in the pot [STUD-IRR-EXP-1,
  // misdeal_antes = STAY_IN_POT]: each seat's ante already in (at most the
  // ante; a short one leaves the seat all-in). When any is set no ante is
  // posted: `starting_stacks` are the chips behind, which may then be 0.
  std::array<Chips, kMaxSeats + 1> carried_antes{};  // indexed by seat

  friend bool operator==(const HandConfig&, const HandConfig&) = default;
};

enum class OpType : uint8_t {
  kAnte = 1,    // seat posts `amount` (all_in when short) [STUD-SETUP-2, STUD-ALLIN-6]
  kDeal,        // `card` to `seat`, face_up or down [STUD-DEAL-1, STUD-DEAL-2]
  kBurn,        // a card burned before a street [STUD-DEAL-3]; reported dealing:
                // `amount` 0 `card` known (face_up: shown), 1 not seen, 2 not seen
                // and not reported (implied by the next deal report)
  kRecycle,     // burns, aside cards and the last stub card reshuffled [STUD-DECK-1];
                // `amount` = cards in the reshuffled pile
  kCommonCard,  // a common card turned face up in the centre [STUD-DECK-5]
  kBringIn,     // forced opening bet, amount_to [STUD-BRING-4]
  kComplete,    // completion to the small bet; not a raise [STUD-BRING-5]
  kBet,         // amount_to
  kRaise,       // amount_to
  kCall,        // amount_to (may be all-in for less)
  kCheck,
  kFold,
  kFirstToAct,      // who opens the street and why (rule_id) [STUD-ORDER-1, STUD-BRING-1]
  kStreetEnd,       // betting closed on `street`; bets gathered into the pot
  kReturnUncalled,  // `amount` returned to `seat` nobody else could match
  kShow,            // seat shows its cards at showdown
  kMuck,            // seat surrenders without showing [STUD-SHOW-2]
  kAward,           // `amount` of pot `pot` (half: 0 whole, 1 high, 2 low) to `seat`
  kHandEnd,         // the hand is over
  // Irregularities (engine/irregularities.h). rule_id names the rule applied.
  kRuling,         // a report was ruled: `amount` = index in HandState::reports,
                   // `amount_to` = the operations the ruling appended after this one
  kExpose,         // `card` of `seat` is now face up for everyone
  kKill,           // `seat`'s hand is dead
  kReturnAnte,     // `amount` given back to `seat` (antes of a dead hand or a misdeal,
                   // chips put in out of turn)
  kMisdeal,        // the hand is void; redeal
  kAside,          // a card taken out of play (`card` only when it was seen) [STUD-IRR-PREM-1]
  kReplaceCard,    // `seat`'s card of `street` is now `card` (burn correction)
  kDeclareAllIn,   // `seat` declares all-in for what it has in [STUD-IRR-EXP-5]
  kDeclineOption,  // `seat` declines the all-in option [STUD-IRR-EXP-5]
  kTimeoutAllIn,   // `seat` is all-in by time-out; `amount` = allowance left [STUD-ALLIN-4]
  // Action out of turn [STUD-IRR-WRONG-1]: `seat` put `amount` chips in out of
  // turn (its action toward `amount_to`); they sit in the pot, not in its bet.
  // They leave it by a kReturnAnte, or, when the action stands, as the seat's
  // own betting operation with rule_id STUD-IRR-WRONG-1.
  kOutOfTurn,
};
absl::string_view OpTypeName(OpType t);

// Which part of a pot an award is: the whole pot, or the high or low half
// of a split Hi-Lo pot [STUD-HILO-1].
enum class PotHalf : uint8_t { kWhole = 0, kHigh = 1, kLow = 2 };

struct Operation {
  OpType type = OpType::kHandEnd;
  uint8_t seat = 0;
  Street street = Street::kThird;
  Card card;
  bool face_up = false;
  bool all_in = false;
  uint8_t pot = 0;                 // kAward: pot index (0 = main pot)
  PotHalf half = PotHalf::kWhole;  // kAward
  bool odd_chip = false;           // kAward: includes odd chip(s)
  Chips amount = 0;                // chips moved by this operation
  Chips amount_to = 0;             // street total after a betting action
  RuleId rule_id = RuleId::kNone;  // the rule that decided this step, when one did

  friend bool operator==(const Operation&, const Operation&) = default;
};

// One pot as built from contributions: `amount` and the seats that may win it.
struct Pot {
  Chips amount = 0;
  std::vector<int> eligible;  // seats, ascending
  friend bool operator==(const Pot&, const Pot&) = default;
};

struct HandState {
  HandConfig config;
  uint64_t version = 0;  // incremented by every accepted action
  Phase phase = Phase::kBetting;
  Street street = Street::kThird;
  std::array<Seat, kMaxSeats + 1> seats{};  // indexed by seat

  // Betting round [STUD-BET-*, STUD-CAP-*, STUD-PAIR-*].
  int actor = 0;              // seat to act (betting or showdown); 0 when nobody
  Chips bet_to = 0;           // street level everyone must match
  Chips full_level = 0;       // last level that counts as a full bet [STUD-CAP-2]
  int raises = 0;             // raises this round (bring-in and completion excluded)
  bool cap_locked = false;    // the cap was reached with 3+ players able to bet [STUD-CAP-1]
  bool bring_in_due = false;  // 3rd street: the opener must bring in or complete
  int bring_in_seat = 0;      // seat whose door card brings in (0 under HIGH_CARD_OPENS)
  bool open_pair = false;     // 4th street: an open pair allows the big bet [STUD-PAIR-1]
  bool big_bet_made = false;  // 4th street: a big bet or raise has been made [STUD-PAIR-3]
  int last_aggressor = 0;     // last seat to bet or raise this round [STUD-SHOW-1]
  Chips paid_out = 0;         // chips returned (uncalled) or awarded from the pot so far

  // Cards.
  size_t deck_pos = 0;         // kDeck: next card of config.deck
  std::vector<Card> recycled;  // kDeck: reshuffled pile, dealt from the front
  std::vector<Card> burns;     // burned cards (hidden)
  std::vector<Card> aside;     // cards taken out of play [STUD-IRR-PREM-1]
  int burn_count = 0;          // kReported: burns and aside cards nobody saw
  bool has_common = false;
  Card common_card;  // [STUD-DECK-5]
  CardSet seen;      // every card dealt, burned or reported
  // Dealing progress inside the current street (kReported deals, and the
  // resume point after a recycle): seats still to receive this street's card.
  std::array<bool, kMaxSeats + 1> pending_deal{};
  uint8_t deal_pass = 0;            // 3rd street: 0, 1 down cards, 2 door card
  bool street_uses_common = false;  // this street's card is one common card

  // Irregularities [catalogue section 11].
  std::vector<IrregularityReport> reports;  // every ruled report, in order (for Replay)
  bool misdeal = false;                     // the hand was voided [STUD-IRR-EXP-1 MISDEAL]
  int dead_low_seat = 0;      // dead hand whose exposed hole card may be low [STUD-IRR-EXP-2]
  int forced_opener = 0;      // seat that must open, no fold [STUD-IRR-EXP-2 forced]
  int allin_option_seat = 0;  // seat offered the all-in option [STUD-IRR-EXP-5]
  int premature_seat = 0;     // no bet or raise for this seat on 6th [STUD-IRR-PREM-2]
  int premature_pending = 0;  // cards still to take aside before the next street [STUD-IRR-PREM-1]

  std::vector<Operation> log;

  friend bool operator==(const HandState&, const HandState&) = default;
};

// Seats still contesting the pot (not folded, not mucked).
int LiveSeatCount(const HandState& state);
// Seats that can still bet (live and not all-in).
int ActiveSeatCount(const HandState& state);
// Chips in the middle: every seat's committed total minus what was returned or awarded.
Chips PotTotal(const HandState& state);
// The seat's up-cards, plus the common card when there is one.
CardSet UpCards(const HandState& state, int seat);
// All the seat's own cards (not the common card).
CardSet OwnCards(const HandState& state, int seat);
// The hand is the redeal of a misdeal that kept its antes (misdeal.cc).
bool HasCarriedAntes(const HandConfig& config);

}  // namespace stud

#endif  // STUD_ENGINE_HAND_STATE_H_
