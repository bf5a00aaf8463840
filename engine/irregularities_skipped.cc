// A seat skipped on a street in LIVE dealing, and the ruling when the table
// finds it.
//
// No rule book names this error; the catalogue's rules settle it:
//   * As the deal passes the seat, the hand goes on with that seat short a
//     card: betting continues, later streets reach it as usual and boards use
//     the up cards it has. A short hand is ruled at the showdown
//     [STUD-IRR-CARDS-1].
//   * Found while nobody has acted on the street, the missed card is given:
//     cards are "corrected to their proper positions if at all possible", and
//     correction is possible until a recipient has acted on the street
//     [STUD-IRR-BURN-1, the catalogue's default]. The opener is decided again.
//   * Found later, the seat keeps playing short; at the showdown the hand is
//     live only when it misses just its 7th card (MISSING_SEVENTH_LIVE) or the
//     player declares it live (PLAYER_OPTION_ANY_SHORT) [STUD-IRR-CARDS-1].
//   * A third missing card leaves fewer than five cards: no option can make
//     such a hand live, so it is dead at once [STUD-IRR-CARDS-1].
// On 3rd street the starting hand is completed before the bring-in is decided
// (STUD-DEAL-1): the missed card is simply reported to the seat.
//
// Whether a seat is short is read from its cards (each carries its street),
// so nothing new is kept in the hand state.
#include <vector>

#include "engine/irregularities.h"
#include "engine/irregularities_internal.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

constexpr RuleId kCards = RuleId::kIrrCards1;
constexpr RuleId kBurn = RuleId::kIrrBurn1;

bool HasCardOf(const ::stud::Seat& s, Street street) {
  for (int k = 0; k < s.num_cards; ++k) {
    if (s.cards[k].street == street) return true;
  }
  return false;
}

// The street whose card was one common card for everyone [STUD-DECK-5], or 0.
int CommonStreet(const HandState& st) {
  if (!st.has_common) return 0;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kCommonCard) return static_cast<int>(op.street);
  }
  return 0;
}

// The seat is still owed its card of the street being dealt.
bool StillOwed(const HandState& st, int seat) {
  return st.phase == Phase::kAwaitingDeal && st.pending_deal[seat];
}

// Streets from 4th to `last` the seat was dealt past (the current street
// counts once its card is no longer owed).
int Missing(const HandState& st, int seat, Street last) {
  int n = 0;
  const int common = CommonStreet(st);
  for (int s = 4; s <= static_cast<int>(last); ++s) {
    const Street street = static_cast<Street>(s);
    if (s == common || (street == st.street && StillOwed(st, seat))) continue;
    if (!HasCardOf(st.seats[seat], street)) ++n;
  }
  return n;
}

// The card of the street was given after the board was read: decide again
// who opens (the round has not started) [STUD-IRR-BURN-1]. A skipped seat is
// ruled on 4th street and later, where no bring-in is ever due, so clearing
// it with the forced opener and the open pair changes nothing.
void Reopen(HandState& st) {
  if (st.phase != Phase::kBetting) return;
  DesignateOpenerAgain(st);
  if (RoundComplete(st)) AdvanceAfterRound(st);
}

}  // namespace

bool MissesEarlierCard(const HandState& st, int seat) {
  const Street last = st.street < Street::kSixth ? st.street : Street::kSixth;
  return Missing(st, seat, last) > 0;
}

bool KillDeadShortHands(HandState& st) {
  if (st.config.options.short_hand != ShortHand::kMissingSeventhLive) return false;
  std::vector<int> dead;
  int live = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    if (!st.seats[i].live()) continue;
    ++live;
    const int held = st.seats[i].num_cards + (st.has_common ? 1 : 0);
    if (held < 7 && (held < 6 || MissesEarlierCard(st, i))) dead.push_back(i);
  }
  // Killing every hand would leave the pot without an owner: they all play
  // the best five of what they hold.
  if (dead.empty()) return false;
  if (static_cast<int>(dead.size()) == live) return true;
  for (int seat : dead) Kill(st, seat, kCards);
  return false;
}

absl::Status CheckSkippedSeat(const HandState& st, const IrregularityReport& r) {
  if (r.street < Street::kThird || r.street > Street::kSeventh) {
    return Malformed({.what = Refusal::kStreetOutOfRange, .field = "report.street"});
  }
  if (r.card_count != 0) {
    return Malformed({.what = Refusal::kSkippedCardCountUnread, .field = "report.card_count"});
  }
  if (r.has_card) {
    if (r.card.index() >= kDeckSize) {
      return Malformed({.what = Refusal::kNotACard, .field = "report.card"});
    }
    if (r.declare_live) {
      return Malformed({.what = Refusal::kDeclareLiveWithCard, .field = "report.declare_live"});
    }
    if (st.seen.Contains(r.card)) {
      return Refuse(RuleId::kDeal4,
                    {.what = Refusal::kCardInPlay, .field = "report.card", .card = r.card});
    }
  } else if (r.card != Card()) {
    return Malformed({.what = Refusal::kCardWithoutHasCard, .field = "report.card"});
  }
  if (r.street == Street::kThird) {
    return Refuse(RuleId::kDeal1, {.what = Refusal::kSkippedThirdStreet});
  }
  // A seat that checked out is still dealt to [STUD-IRR-FOLD-1]: it can be
  // passed over as the deal reaches it, though its hand cannot win.
  const bool dealt_to = st.seats[r.seat].checked_out && StillOwed(st, r.seat);
  if (!st.seats[r.seat].live() && !dealt_to) {
    return Refuse(kCards, {.what = Refusal::kSeatHasNoLiveHand, .seat = r.seat});
  }
  if (r.street > st.street) {
    return Refuse(kCards,
                  {.what = Refusal::kStreetNotDealt, .street = r.street, .current = st.street});
  }
  if (r.street == st.street && StillOwed(st, r.seat) && NextDeal(st).seat != r.seat) {
    return Refuse(kCards, {.what = Refusal::kDealNotReached,
                           .seat = r.seat,
                           .other_seat = NextDeal(st).seat,
                           .street = r.street});
  }
  if (HasCardOf(st.seats[r.seat], r.street)) {
    return Refuse(kCards, {.what = Refusal::kNotSkipped, .seat = r.seat, .street = r.street});
  }
  return absl::OkStatus();
}

absl::StatusOr<Outcome> RuleSkippedSeat(HandState& st, const IrregularityReport& r) {
  const int seat = r.seat;
  const Street street = r.street;
  Outcome o{.rule_id = kCards,
            .decision = Decision::kPlaysShort,
            .params = {.seat = seat, .street = street}};
  if (street == st.street && StillOwed(st, seat)) {
    // The deal is passing the seat now: it goes on without the card.
    if (r.has_card) {
      return Refuse(RuleId::kDeal2, {.what = Refusal::kDealNotPassed, .seat = seat});
    }
    StopDealingTo(st, seat);
    o.params.while_dealing = true;
    if (Missing(st, seat, st.street) >= 3) {
      // Fewer than five cards at most: dead under every short_hand option.
      Kill(st, seat, kCards);
      AfterSeatRemoved(st, seat);
      o.decision = Decision::kHandKilled;
      return o;
    }
    ContinueDeal(st);
    return o;
  }
  const bool correctable =
      street == st.street && (st.phase == Phase::kAwaitingDeal || NoActionYet(st));
  if (r.has_card) {
    if (!correctable) {
      return Refuse(kBurn, {.what = Refusal::kMissedCardTooLate, .seat = seat, .street = street});
    }
    // [STUD-IRR-BURN-1] put right while still possible.
    const ::stud::Seat& s = st.seats[seat];
    const bool up = street == Street::kSeventh ? s.final_up : true;
    GiveCard(st, seat, r.card, up, street);
    Reopen(st);
    o.rule_id = kBurn;
    o.decision = Decision::kCardsCorrected;
    // A card given face down stays unnamed.
    o.params.has_card = up;
    if (up) o.params.card = r.card;
    o.params.face_down = !up;
    return o;
  }
  const bool showdown = st.street == Street::kSeventh && st.phase != Phase::kAwaitingDeal;
  if (!showdown) {
    return o;
  }
  // [STUD-IRR-CARDS-1] fewer than seven cards at the showdown.
  const int held = st.seats[seat].num_cards + (st.has_common ? 1 : 0);
  const bool any_short = st.config.options.short_hand == ShortHand::kPlayerOptionAnyShort;
  const bool only_seventh = !MissesEarlierCard(st, seat) && held == 6;
  const bool live = any_short ? r.declare_live && held >= 5 : only_seventh;
  o.params.count = held;
  if (any_short) {
    o.params.option = RulingOption::kShortHandAnyShort;
  }
  if (live) {
    o.decision = Decision::kHandLive;
    return o;
  }
  Kill(st, seat, kCards);
  AfterSeatRemoved(st, seat);
  o.decision = Decision::kHandKilled;
  return o;
}

}  // namespace stud::internal
