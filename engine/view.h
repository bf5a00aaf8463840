// Per-seat views: what one seat may see of a hand, and the public view.
//
// A seat sees its own down cards and everyone's up-cards; once a hand is shown
// at showdown everyone sees it. Nothing else leaves the engine through a view:
// no other seat's down cards, no burn, no undealt card, no deck order.
#ifndef STUD_ENGINE_VIEW_H_
#define STUD_ENGINE_VIEW_H_

#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "engine/engine.h"
#include "engine/hand_state.h"

namespace stud {

inline constexpr int kPublicViewer = 0;  // the public view: no seat's down cards

struct SeatView {
  int seat = 0;
  Chips stack = 0;
  Chips committed = 0;
  Chips street_bet = 0;
  bool folded = false;
  bool all_in = false;
  bool mucked = false;
  bool shown = false;
  // Visible cards in deal order; a hidden card is listed with `hidden` set and
  // no card value.
  struct VisibleCard {
    bool hidden = false;
    Card card;  // meaningful only when !hidden
    bool face_up = false;
    Street street = Street::kThird;
  };
  absl::InlinedVector<VisibleCard, 8> cards;
};

// The table as `viewer` sees it: what the service's PublicView (viewer
// kPublicViewer) and the tests read, from this one function.
struct TableView {
  int viewer = kPublicViewer;
  Variant variant = Variant::kStud;
  Stakes stakes;    // in play: the bring-in the options give [STUD-STAKES-3]
  Options options;  // the hand's rule options, profile included
  Phase phase = Phase::kBetting;
  Street street = Street::kThird;
  uint64_t version = 0;
  int actor = 0;
  Chips pot = 0;     // chips in the middle, bets of this street included
  Chips bet_to = 0;  // current street level
  int raises = 0;    // raises this round
  int bring_in_seat = 0;
  std::optional<Card> common_card;
  absl::InlinedVector<SeatView, 8> seats;  // seats 1..n in order
  BoardOrderList board_order;              // best board first [STUD-ORDER-1..3]
};

TableView ViewFor(const HandState& state, int viewer);

// True when `viewer` may see card `c` of seat `owner` (the rule ViewFor
// applies to each seat card; for callers that need one seat's cards without
// building the whole table view).
bool SeatCardVisibleTo(const HandState& state, int owner, const SeatCard& c, int viewer);

// True when `viewer` may see the card of this operation. Down cards dealt to
// another seat and every burn stay hidden until shown [views contract].
bool CardVisibleTo(const HandState& state, const Operation& op, int viewer);
// The operation as `viewer` may see it: a hidden card is replaced by an empty
// card value and `card_hidden` is set by the caller's encoding.
Operation RedactFor(const HandState& state, const Operation& op, int viewer, bool* card_hidden);

}  // namespace stud

#endif  // STUD_ENGINE_VIEW_H_
