// A typed report of a dealer or player irregularity (catalogue section 11 and
// the online time-out rules STUD-ALLIN-4/5). Plain data: it travels in the
// hand state so Replay() can re-apply every ruling in order.
//
// Which fields each kind reads (the others must stay at their defaults):
//   kHolecardExposed        seat, card                      STUD-IRR-EXP-1
//   kBothHolecardsExposed   seat, cards (none or both)      STUD-IRR-EXP-2
//   kCardOffTable           seat, card                      STUD-IRR-EXP-3
//   kFinalCardFaceUp        seat, card                      STUD-IRR-EXP-4, STUD-IRR-EXP-5
//   kWrongOpener            seat, action, amount_to, next_acted   STUD-IRR-WRONG-1
//   kAbsentPlayer           seat                            STUD-IRR-ABS-1
//   kCheckedOut             seat                            STUD-IRR-FOLD-1
//   kUpcardsPickedUp        seat                            STUD-IRR-FOLD-2
//   kBurnError              street, burn_delta, moves, card, seats   STUD-IRR-BURN-1, -2
//   kPrematureDeal          street, cards, seat, card       STUD-IRR-PREM-1, -2
//   kWrongCardCount         seat, card_count, declare_live  STUD-IRR-CARDS-1
//   kCalledWhenBeaten       seat                            STUD-IRR-CALL-1
//   kUpcardsReordered       seat                            STUD-GAME-5
//   kTimeout                seat, allowance_remaining, disconnect   STUD-ALLIN-4, -5
//   kActionOutOfTurn        seat, action, amount_to         STUD-IRR-WRONG-1, STUD-ORDER-*
//   kSkippedSeat            seat, street, card, declare_live   STUD-IRR-CARDS-1, STUD-IRR-BURN-1
#ifndef STUD_ENGINE_IRREGULARITY_REPORT_H_
#define STUD_ENGINE_IRREGULARITY_REPORT_H_

#include <cstdint>
#include <vector>

#include "engine/basics.h"
#include "engine/card.h"

namespace stud {

enum class IrregularityKind : uint8_t {
  kHolecardExposed = 1,
  kBothHolecardsExposed,
  kCardOffTable,
  kFinalCardFaceUp,
  kWrongOpener,
  kAbsentPlayer,
  kCheckedOut,
  kUpcardsPickedUp,
  kBurnError,
  kPrematureDeal,
  kWrongCardCount,
  kCalledWhenBeaten,
  kUpcardsReordered,
  kTimeout,
  kActionOutOfTurn,  // a seat acted before its turn, chips and all [STUD-IRR-WRONG-1]
  // LIVE: `seat` was passed over on `street`: as the deal passes it (the hand
  // goes on short), or when the table finds it later (`card`: the missed card,
  // given if nobody has acted on the street; `declare_live` at the showdown).
  kSkippedSeat,
};

// A card put where it belongs when a burn error is corrected [STUD-IRR-BURN-1].
struct CardMove {
  int seat = 0;
  Card card;
  friend bool operator==(const CardMove&, const CardMove&) = default;
};

struct IrregularityReport {
  IrregularityKind kind = IrregularityKind::kHolecardExposed;
  int seat = 0;
  Street street = Street::kThird;
  bool has_card = false;
  Card card;                // the exposed / kept card
  std::vector<Card> cards;  // kPrematureDeal: the cards dealt early and taken out of play;
                            // kBothHolecardsExposed: none, or the seat's two hole cards
  // kWrongOpener: what the wrongly designated seat did, and whether the next
  // player acted after it. kActionOutOfTurn: what the seat did out of turn
  // (amount_to: its street total as the table saw it; 0 for a fold or check).
  ActionKind action = ActionKind::kFold;
  Chips amount_to = 0;
  bool next_acted = false;
  // kBurnError: +1 two cards burned, -1 no burn; the corrected cards of the
  // street; `seats` who mixed in or looked at a final downcard (they keep it).
  int burn_delta = 0;
  std::vector<CardMove> moves;
  std::vector<int> seats;
  // kWrongCardCount: the cards the seat actually holds; under
  // PLAYER_OPTION_ANY_SHORT whether the player declares a short hand live
  // (kSkippedSeat at the showdown reads declare_live too).
  int card_count = 0;
  bool declare_live = false;
  // kTimeout: the platform's count of disconnect all-ins the player has left in
  // the current period (before this one) [STUD-ALLIN-5]; a disconnect or a
  // time-out.
  int allowance_remaining = 0;
  bool disconnect = false;
  // Set by the engine when a LIVE deal report was turned into this report.
  bool from_deal = false;

  friend bool operator==(const IrregularityReport&, const IrregularityReport&) = default;
};

}  // namespace stud

#endif  // STUD_ENGINE_IRREGULARITY_REPORT_H_
