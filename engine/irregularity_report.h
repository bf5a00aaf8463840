// A typed report of a dealer or player irregularity (catalogue section 11 and
// the online time-out rules STUD-ALLIN-4/5). Plain data: it travels in the
// hand state so Replay() can re-apply every ruling in order.
//
// Which fields each kind reads, and what the request must carry, is one
// table: kIrregularityKinds below, read by the engine's validator, the
// service's field checks, its metrics labels and the token schema.
#ifndef STUD_ENGINE_IRREGULARITY_REPORT_H_
#define STUD_ENGINE_IRREGULARITY_REPORT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/basics.h"
#include "engine/card.h"
#include "engine/rule_id.h"

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

// The fields (or groups of fields) of IrregularityReport a kind reads; every
// other field must stay at its default.
enum ReportField : uint16_t {
  kSeatField = 1u << 0,     // seat
  kStreetField = 1u << 1,   // street
  kCardField = 1u << 2,     // has_card, card
  kCardsField = 1u << 3,    // cards
  kActionField = 1u << 4,   // action, amount_to, next_acted
  kBurnField = 1u << 5,     // burn_delta, moves, seats
  kCountField = 1u << 6,    // card_count, declare_live
  kTimeoutField = 1u << 7,  // allowance_remaining, disconnect
};

// What a report of one kind needs.
struct IrregularityTraits {
  IrregularityKind kind;
  // The kind's number in the public API (stud.v1.IrregularityKind), which
  // orders the kinds differently.
  int api_number;
  // The rule the kind is filed under (its ruling may cite a more specific
  // one, e.g. STUD-IRR-EXP-4 for an all-in player's final card).
  RuleId rule;
  uint16_t reads;  // ReportField bits
  // The request's shape, checked before the hand is read: a seat 1..N is
  // required (else it must be 0), how many cards it names (-1: any number;
  // BOTH_HOLECARDS_EXPOSED: none or both), a street 3..7 is required (else
  // it must be unset).
  bool needs_seat;
  int cards;
  bool needs_street;
  // Only a person dealing makes this error: refused in hands the engine deals.
  bool dealer_error;
  // A deal report may stand for it (DealIrregularity, `from_deal`).
  bool from_deal;
};

// One row per kind, in enum order (as engine/irregularity_table.h).
inline constexpr std::array<IrregularityTraits, 16> kIrregularityKinds = {{
    // kind, api_number, rule, reads, needs_seat, cards, needs_street, dealer_error, from_deal
    {IrregularityKind::kHolecardExposed, 1, RuleId::kIrrExp1, kSeatField | kCardField, true, 1,
     false, true, true},
    {IrregularityKind::kBothHolecardsExposed, 2, RuleId::kIrrExp2, kSeatField | kCardsField, true,
     0, false, true, true},
    {IrregularityKind::kCardOffTable, 3, RuleId::kIrrExp3, kSeatField | kCardField, true, 1, false,
     true, false},
    {IrregularityKind::kFinalCardFaceUp, 4, RuleId::kIrrExp5, kSeatField | kCardField, true, 1,
     false, true, true},
    {IrregularityKind::kWrongOpener, 5, RuleId::kIrrWrong1, kSeatField | kActionField, true, 0,
     false, true, false},
    {IrregularityKind::kAbsentPlayer, 6, RuleId::kIrrAbs1, kSeatField, true, 0, false, false,
     false},
    {IrregularityKind::kCheckedOut, 12, RuleId::kIrrFold1, kSeatField, true, 0, false, false,
     false},
    {IrregularityKind::kUpcardsPickedUp, 7, RuleId::kIrrFold2, kSeatField, true, 0, false, false,
     false},
    {IrregularityKind::kBurnError, 8, RuleId::kIrrBurn1, kStreetField | kBurnField | kCardField,
     false, -1, true, true, false},
    // seat and card: the premature final downcard a player keeps (STUD-IRR-PREM-2).
    {IrregularityKind::kPrematureDeal, 9, RuleId::kIrrPrem1,
     kStreetField | kCardsField | kSeatField | kCardField, false, -1, true, true, true},
    {IrregularityKind::kWrongCardCount, 10, RuleId::kIrrCards1, kSeatField | kCountField, true, 0,
     false, true, false},
    {IrregularityKind::kCalledWhenBeaten, 13, RuleId::kIrrCall1, kSeatField, true, 0, false, false,
     false},
    {IrregularityKind::kUpcardsReordered, 11, RuleId::kGame5, kSeatField, true, 0, false, false,
     false},
    {IrregularityKind::kTimeout, 14, RuleId::kAllin4, kSeatField | kTimeoutField, true, 0, false,
     false, false},
    // next_acted is not read: the ruling's check refuses it.
    {IrregularityKind::kActionOutOfTurn, 15, RuleId::kIrrWrong1, kSeatField | kActionField, true, 0,
     false, false, false},
    // card_count stays 0 (the engine counts the seat's cards); card: the missed one.
    {IrregularityKind::kSkippedSeat, 16, RuleId::kIrrCards1,
     kSeatField | kStreetField | kCardField | kCountField, true, -1, true, true, false},
}};
inline constexpr IrregularityKind kLastIrregularityKind = kIrregularityKinds.back().kind;

constexpr bool IrregularityKindsInOrder() {
  for (size_t i = 0; i < kIrregularityKinds.size(); ++i) {
    if (static_cast<size_t>(kIrregularityKinds[i].kind) != i + 1) return false;
  }
  return true;
}
static_assert(IrregularityKindsInOrder(), "one row per IrregularityKind, in enum order");

// The row of kind number `kind`, or null outside 1..N.
constexpr const IrregularityTraits* TraitsOf(int kind) {
  if (kind < 1 || kind > static_cast<int>(kIrregularityKinds.size())) return nullptr;
  return &kIrregularityKinds[static_cast<size_t>(kind) - 1];
}
// The row of the public API's kind number `api_number`, or null for none.
constexpr const IrregularityTraits* TraitsOfApiNumber(int api_number) {
  for (const IrregularityTraits& t : kIrregularityKinds) {
    if (t.api_number == api_number && api_number != 0) return &t;
  }
  return nullptr;
}

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
