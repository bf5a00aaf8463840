// Validation of an irregularity report against the hand, before any ruling
// touches the state (catalogue section 11, STUD-ALLIN-4/5).
//
// One table says which fields each kind reads (kIrregularityKinds,
// engine/irregularity_report.h);
// every other field must be at its default. Then one check per kind looks at
// what it reads: seats in 1..num_seats, cards real, named once, of the named
// seat where the kind says so and already dealt (premature cards: not yet in
// play), counts bounded by what the kind can need, streets consistent with the
// hand. INVALID_ARGUMENT names the field ("report.cards[1]: ..."); a
// well-formed report the rules do not allow now is refused by rule (Refuse).
#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/irregularities_internal.h"
#include "engine/irregularity_table.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

using K = IrregularityKind;

absl::Status Invalid(std::string field, Refusal what) {
  return Malformed({.what = what, .field = std::move(field)});
}

// The first field the kind does not read that is not at its default, or "".
std::string UnreadField(const IrregularityReport& r, unsigned read) {
  const IrregularityReport d;
  if (!(read & kSeatField) && r.seat != d.seat) return "report.seat";
  if (!(read & kStreetField) && r.street != d.street) return "report.street";
  if (!(read & kCardField) && (r.has_card || r.card != d.card)) return "report.card";
  if (!(read & kCardsField) && !r.cards.empty()) return "report.cards";
  if (!(read & kActionField)) {
    if (r.action != d.action) return "report.action";
    if (r.amount_to != d.amount_to) return "report.amount_to";
    if (r.next_acted) return "report.next_acted";
  }
  if (!(read & kBurnField)) {
    if (r.burn_delta != 0) return "report.burn_delta";
    if (!r.moves.empty()) return "report.moves";
    if (!r.seats.empty()) return "report.seats";
  }
  if (!(read & kCountField)) {
    if (r.card_count != 0) return "report.card_count";
    if (r.declare_live) return "report.declare_live";
  }
  if (!(read & kTimeoutField)) {
    if (r.allowance_remaining != 0) return "report.allowance_remaining";
    if (r.disconnect) return "report.disconnect";
  }
  return "";
}

absl::Status SeatInRange(const HandState& st, int seat, absl::string_view field) {
  const int n = st.config.num_seats;
  if (seat < 1 || seat > n) {
    return Malformed({.what = Refusal::kSeatOutOfRange, .field = std::string(field), .count = n});
  }
  return absl::OkStatus();
}

absl::Status RealCard(Card c, absl::string_view field) {
  if (c.index() >= kDeckSize) return Invalid(std::string(field), Refusal::kNotACard);
  return absl::OkStatus();
}

int IndexIn(const ::stud::Seat& s, Card c) {
  for (int k = 0; k < s.num_cards; ++k) {
    if (s.cards[k].card == c) return k;
  }
  return -1;
}

// A report the engine made from a deal action (DealIrregularity): it must be
// exactly what that deal stands for now.
absl::Status FromDeal(const HandState& st, const IrregularityReport& r) {
  Action a{.kind = ActionKind::kDeal, .seat = r.seat, .card = r.card, .face_up = true};
  if (r.kind == K::kPrematureDeal && r.cards.size() == 1) a.card = r.cards[0];
  const std::optional<IrregularityReport> made = DealIrregularity(st, a);
  if (!made || !(*made == r)) {
    return Invalid("report.from_deal", Refusal::kFromDealMismatch);
  }
  return absl::OkStatus();
}

}  // namespace

// [STUD-IRR-EXP-1], [STUD-IRR-EXP-3], [STUD-IRR-EXP-4], [STUD-IRR-EXP-5]:
// the named card is one of the seat's cards.
absl::Status CheckCardOfSeat(const HandState& st, const IrregularityReport& r) {
  if (!r.has_card) return Invalid("report.card", Refusal::kCardRequired);
  if (absl::Status s = RealCard(r.card, "report.card"); !s.ok()) return s;
  if (IndexIn(st.seats[r.seat], r.card) < 0) {
    return Malformed(
        {.what = Refusal::kNotCardOfSeat, .field = "report.card", .seat = r.seat, .card = r.card});
  }
  return absl::OkStatus();
}

// [STUD-IRR-EXP-2]: no cards, or exactly the seat's two hole cards.
absl::Status CheckHoleCards(const HandState& st, const IrregularityReport& r) {
  if (r.cards.empty()) return absl::OkStatus();
  if (r.cards.size() != 2) {
    return Malformed({.what = Refusal::kHoleCardsCount,
                      .field = "report.cards",
                      .seat = r.seat,
                      .count = static_cast<int>(r.cards.size())});
  }
  const ::stud::Seat& s = st.seats[r.seat];
  for (size_t i = 0; i < r.cards.size(); ++i) {
    const std::string field = absl::StrCat("report.cards[", i, "]");  // a path, not prose
    const Card c = r.cards[i];
    if (absl::Status e = RealCard(c, field); !e.ok()) return e;
    if (i == 1 && c == r.cards[0]) {
      return Malformed({.what = Refusal::kCardNamedTwice, .field = field, .card = c});
    }
    const int k = IndexIn(s, c);
    if (k < 0) {
      return Malformed(
          {.what = Refusal::kNotCardOfSeat, .field = field, .seat = r.seat, .card = c});
    }
    if (k > 1) {
      return Malformed(
          {.what = Refusal::kNotHoleCardOfSeat, .field = field, .seat = r.seat, .card = c});
    }
  }
  return absl::OkStatus();
}

// [STUD-IRR-WRONG-1]
absl::Status CheckWrongOpener(const HandState& st, const IrregularityReport& r) {
  if (r.action < ActionKind::kFold || r.action > ActionKind::kRaise) {
    return Invalid("report.action", Refusal::kNotBettingAction);
  }
  const ::stud::Seat& s = st.seats[r.seat];
  if (r.amount_to < 0 || r.amount_to > s.street_bet + s.stack) {
    return Malformed({.what = Refusal::kAmountAboveStack,
                      .field = "report.amount_to",
                      .seat = r.seat,
                      .chips = s.street_bet + s.stack});
  }
  return absl::OkStatus();
}

// [STUD-IRR-WRONG-1] an action out of turn: a betting action within the
// seat's chips; a fold or check puts in nothing, anything else puts in some.
absl::Status CheckOutOfTurn(const HandState& st, const IrregularityReport& r) {
  if (r.next_acted) return Invalid("report.next_acted", Refusal::kNextActedUnread);
  if (absl::Status s = CheckWrongOpener(st, r); !s.ok()) return s;
  const bool no_chips = r.action == ActionKind::kFold || r.action == ActionKind::kCheck;
  if (no_chips && r.amount_to != 0) {
    return Invalid("report.amount_to", Refusal::kFoldCheckNoChips);
  }
  const ::stud::Seat& s = st.seats[r.seat];
  if (!no_chips && r.amount_to <= s.street_bet) {
    return Malformed({.what = Refusal::kAmountNotAboveStreetBet,
                      .field = "report.amount_to",
                      .seat = r.seat,
                      .chips = s.street_bet});
  }
  return absl::OkStatus();
}

// [STUD-IRR-BURN-1], [STUD-IRR-BURN-2]: the form of the report; BurnError
// checks the cards against the street.
absl::Status CheckBurn(const HandState& st, const IrregularityReport& r) {
  const int n = st.config.num_seats;
  if (r.street < Street::kThird || r.street > Street::kSeventh) {
    return Invalid("report.street", Refusal::kStreetOutOfRange);
  }
  if (r.burn_delta != 1 && r.burn_delta != -1) {
    return Invalid("report.burn_delta", Refusal::kBurnDelta);
  }
  if (static_cast<int>(r.moves.size()) > n) {
    return Malformed({.what = Refusal::kTooManyPerSeat,
                      .field = "report.moves",
                      .count = n,
                      .limit = static_cast<int>(r.moves.size())});
  }
  CardSet cards;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    const CardMove& m = r.moves[i];
    const std::string seat_field = absl::StrCat("report.moves[", i, "].seat");  // a path
    if (absl::Status s = SeatInRange(st, m.seat, seat_field); !s.ok()) return s;
    for (size_t j = 0; j < i; ++j) {
      if (r.moves[j].seat == m.seat) {
        return Malformed({.what = Refusal::kSeatMovedTwice, .field = seat_field, .seat = m.seat});
      }
    }
    const std::string field = absl::StrCat("report.moves[", i, "].card");
    if (absl::Status s = RealCard(m.card, field); !s.ok()) return s;
    if (cards.Contains(m.card)) {
      return Malformed({.what = Refusal::kCardNamedTwice, .field = field, .card = m.card});
    }
    cards.Add(m.card);
  }
  if (r.has_card) {
    if (absl::Status s = RealCard(r.card, "report.card"); !s.ok()) return s;
    if (cards.Contains(r.card)) {
      return Malformed(
          {.what = Refusal::kMisplacedAndCorrected, .field = "report.card", .card = r.card});
    }
  } else if (r.card != Card()) {
    return Invalid("report.card", Refusal::kCardWithoutHasCard);
  }
  if (!r.seats.empty() && r.street != Street::kSeventh) {
    return Invalid("report.seats", Refusal::kKeptOnlyFinal);
  }
  if (static_cast<int>(r.seats.size()) > n) {
    return Malformed({.what = Refusal::kTooManyPerSeat,
                      .field = "report.seats",
                      .count = n,
                      .limit = static_cast<int>(r.seats.size())});
  }
  for (size_t i = 0; i < r.seats.size(); ++i) {
    const std::string field = absl::StrCat("report.seats[", i, "]");  // a path, not prose
    if (absl::Status s = SeatInRange(st, r.seats[i], field); !s.ok()) return s;
    if (std::find(r.seats.begin(), r.seats.begin() + static_cast<long>(i), r.seats[i]) !=
        r.seats.begin() + static_cast<long>(i)) {
      return Malformed({.what = Refusal::kSeatNamedTwice, .field = field, .seat = r.seats[i]});
    }
  }
  return absl::OkStatus();
}

// [STUD-IRR-PREM-1], [STUD-IRR-PREM-2]: at most one early card per player
// still in, each real, named once and not yet in play.
absl::Status CheckPremature(const HandState& st, const IrregularityReport& r) {
  if (r.street < Street::kThird || r.street > Street::kSeventh) {
    return Invalid("report.street", Refusal::kStreetOutOfRange);
  }
  if (r.has_card) {
    if (absl::Status s = SeatInRange(st, r.seat, "report.seat"); !s.ok()) return s;
  } else if (r.seat != 0) {
    return Invalid("report.seat", Refusal::kPrematureSeatWithoutCard);
  } else if (r.card != Card()) {
    return Invalid("report.card", Refusal::kCardWithoutHasCard);
  }
  const int live = LiveSeatCount(st);
  const int named = static_cast<int>(r.cards.size()) + (r.has_card ? 1 : 0);
  if (named > live) {
    return Malformed(
        {.what = Refusal::kTooManyEarlyCards,
         .field = r.cards.size() > static_cast<size_t>(live) ? "report.cards" : "report.card",
         .count = live,
         .limit = named});
  }
  CardSet seen_here;
  auto check = [&](Card c, const std::string& field) -> absl::Status {
    if (absl::Status s = RealCard(c, field); !s.ok()) return s;
    if (seen_here.Contains(c)) {
      return Malformed({.what = Refusal::kCardNamedTwice, .field = field, .card = c});
    }
    if (st.seen.Contains(c)) {
      return Refuse(RuleId::kDeal4, {.what = Refusal::kCardInPlay, .field = field, .card = c});
    }
    seen_here.Add(c);
    return absl::OkStatus();
  };
  for (size_t i = 0; i < r.cards.size(); ++i) {
    if (absl::Status s = check(r.cards[i], absl::StrCat("report.cards[", i, "]")); !s.ok())
      return s;
  }
  if (r.has_card) return check(r.card, "report.card");
  return absl::OkStatus();
}

// [STUD-IRR-CARDS-1]
absl::Status CheckCardCount(const HandState&, const IrregularityReport& r) {
  if (r.card_count < 0 || r.card_count == 7 || r.card_count > 8 + 7) {
    return Invalid("report.card_count", Refusal::kCardCount);
  }
  return absl::OkStatus();
}

// [STUD-IRR-CALL-1] the seat called in this hand.
absl::Status CheckCalled(const HandState& st, const IrregularityReport& r) {
  const int seat = r.seat;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kCall && op.seat == seat) return absl::OkStatus();
  }
  return Refuse(RuleId::kIrrCall1, {.what = Refusal::kNotCalled, .seat = seat});
}

// [STUD-GAME-5] the seat has a live hand with upcards to rearrange.
absl::Status CheckReordered(const HandState& st, const IrregularityReport& r) {
  const int seat = r.seat;
  const ::stud::Seat& s = st.seats[seat];
  bool up = false;
  for (int k = 0; k < s.num_cards; ++k) up = up || s.cards[k].face_up;
  if (!s.live() || !up) {
    return Refuse(RuleId::kGame5, {.what = Refusal::kNoUpcards, .seat = seat});
  }
  return absl::OkStatus();
}

// [STUD-ALLIN-5] the platform's count of disconnect all-ins left.
absl::Status CheckTimeout(const HandState&, const IrregularityReport& r) {
  if (r.allowance_remaining < 0) {
    return Invalid("report.allowance_remaining", Refusal::kAllowanceNegative);
  }
  return absl::OkStatus();
}

namespace {

// The rule of a dealer error, which only a person dealing can make (LIVE
// dealing), or kNone for the kinds any hand can have: the kind's rule, or
// the more specific one the report names (a final card, a kept card).
RuleId DealerErrorRule(const IrregularityReport& r) {
  const IrregularityTraits& t = *TraitsOf(static_cast<int>(r.kind));
  if (!t.dealer_error) return RuleId::kNone;
  if (r.kind == K::kBurnError && r.street == Street::kSeventh) return RuleId::kIrrBurn2;
  if (r.kind == K::kPrematureDeal && r.has_card) return RuleId::kIrrPrem2;
  return t.rule;
}

}  // namespace

absl::Status ValidateReport(const HandState& st, const IrregularityReport& r) {
  const IrregularityTraits* traits = TraitsOf(static_cast<int>(r.kind));
  if (traits == nullptr) return Invalid("report.kind", Refusal::kUnknownKind);
  if (r.from_deal) {
    if (!traits->from_deal) {
      return Invalid("report.from_deal", Refusal::kFromDealNoKind);
    }
    return FromDeal(st, r);
  }
  const unsigned read = traits->reads;
  if (const std::string field = UnreadField(r, read); !field.empty()) {
    return Invalid(field, Refusal::kFieldUnread);
  }
  if (traits->needs_seat) {
    if (absl::Status s = SeatInRange(st, r.seat, "report.seat"); !s.ok()) return s;
  }
  // A dealer error in a hand the engine deals cannot have happened: nothing
  // in the report can be checked against a deal no person made.
  if (const RuleId rule = DealerErrorRule(r); rule != RuleId::kNone) {
    if (absl::Status s = LiveOnly(st, rule); !s.ok()) return s;
  }
  const CheckFn check = RulesOf(r.kind).check;
  return check != nullptr ? check(st, r) : absl::OkStatus();
}

}  // namespace stud::internal
