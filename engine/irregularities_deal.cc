// Dealer errors in LIVE dealing: exposed hole cards and final cards
// [STUD-IRR-EXP-1..5], burn errors [STUD-IRR-BURN-1, -2] and premature cards
// [STUD-IRR-PREM-1, -2]; and which deal reports stand for one of them.
#include <algorithm>

#include "engine/irregularities.h"
#include "engine/irregularities_internal.h"
#include "engine/refusal.h"

namespace stud {
namespace internal {
namespace {

// Index of `card` among the seat's cards, or -1.
int IndexOf(const HandState& st, int seat, Card card) {
  const ::stud::Seat& s = st.seats[seat];
  for (int k = 0; k < s.num_cards; ++k) {
    if (s.cards[k].card == card) return k;
  }
  return -1;
}

absl::Status CardOk(const HandState& st, Card card, absl::string_view field) {
  if (card.index() >= kDeckSize) {
    return Malformed({.what = Refusal::kNotACard, .field = std::string(field)});
  }
  if (st.seen.Contains(card)) {
    return Refuse(RuleId::kDeal4, {.what = Refusal::kCardAlreadyInPlay, .card = card});
  }
  return absl::OkStatus();
}

// Deals the reported card as the dealer turned it (a deal report ruled as an
// irregularity) and marks the seat served.
void GiveAsDealt(HandState& st, int seat, Card card, bool face_up) {
  GiveCard(st, seat, card, face_up, st.street);
  StopDealingTo(st, seat);
}

// After a 3rd-street or 7th-street card changed face mid-deal or after it.
void Resume(HandState& st) {
  if (st.phase == Phase::kAwaitingDeal) {
    ContinueDeal(st);
  } else if (st.phase == Phase::kBetting) {
    if (LiveSeatCount(st) <= 1) {
      AdvanceAfterRound(st);
      return;
    }
    DesignateOpenerAgain(st);
    if (RoundComplete(st)) AdvanceAfterRound(st);
  }
}

bool BeforeThirdStreetBetting(const HandState& st) {
  return st.street == Street::kThird && (st.phase == Phase::kAwaitingDeal || NoActionYet(st));
}

// [STUD-IRR-EXP-2] both hole cards face up: dead hand, ante back.
Outcome BothExposed(HandState& st, int seat, RuleId rule) {
  if (st.config.options.exposed_holecard == ExposedHolecard::kMisdeal)
    return Misdeal(st, seat, rule);
  const ::stud::Seat& s = st.seats[seat];
  for (int k = 0; k < s.num_cards && k < 2; ++k) {
    if (!s.cards[k].face_up) Expose(st, seat, k, rule);
  }
  const Chips ante = s.committed - s.street_bet;
  Kill(st, seat, rule);
  ReturnChips(st, seat, ante, rule);
  MarkDeadLowCard(st, seat);
  StopDealingTo(st, seat);
  Resume(st);
  Outcome o{.rule_id = rule, .decision = Decision::kHandDeadAnteReturned, .params = {.seat = seat}};
  const bool forced =
      st.config.options.dead_hand_low_opener == DeadHandLowOpener::kLeftPlayerForced;
  if (forced) {
    o.params.option = RulingOption::kDeadHandLowOpenerForced;
  }
  return o;
}

// [STUD-IRR-EXP-1] one hole card face up (card already in the seat's hand).
absl::StatusOr<Outcome> HoleExposed(HandState& st, int seat, int index, RuleId rule) {
  const ::stud::Seat& s = st.seats[seat];
  if (st.config.options.exposed_holecard == ExposedHolecard::kMisdeal) {
    if (!s.cards[index].face_up) Expose(st, seat, index, rule);
    return Misdeal(st, seat, rule);
  }
  if (s.door_down) return BothExposed(st, seat, RuleId::kIrrExp2);
  if (s.num_cards > 2) {
    return Refuse(rule, {.what = Refusal::kThirdCardAlreadyDealt, .seat = seat});
  }
  if (!s.cards[index].face_up) Expose(st, seat, index, rule);
  MarkCardDue(st, seat, CardDue::kThirdDown);
  Resume(st);
  Outcome o{.rule_id = rule,
            .decision = Decision::kThirdCardDown,
            .params = {.seat = seat,
                       .has_card = true,
                       .card = s.cards[index].card,
                       .option = RulingOption::kExposedHolecardDealThirdDown}};
  return o;
}

// [STUD-IRR-EXP-4], [STUD-IRR-EXP-5] the final card of `seat` is face up.
Outcome FinalUp(HandState& st, int seat, RuleId rule) {
  Outcome o;
  if (st.seats[seat].all_in) {
    o = {.rule_id = rule == RuleId::kIrrExp3 ? rule : RuleId::kIrrExp4,
         .decision = Decision::kKeepFaceUp,
         .params = {.seat = seat}};
    Resume(st);
    return o;
  }
  int first = 0, other = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    if (!st.seats[i].live()) continue;
    if (first == 0) first = i;
    if (i != seat) other = i;
  }
  const RuleId applied = rule == RuleId::kIrrExp3 ? rule : RuleId::kIrrExp5;
  if (LiveSeatCount(st) == 2 && seat == first) {
    // (b) heads-up, the first player's card up: the second's comes up too.
    MarkCardDue(st, other, CardDue::kFinalUp);
    const ::stud::Seat& t = st.seats[other];
    if (t.num_cards > 0 && t.cards[t.num_cards - 1].street == Street::kSeventh &&
        !t.cards[t.num_cards - 1].face_up) {
      Expose(st, other, t.num_cards - 1, applied);
    }
    Resume(st);
    return {.rule_id = applied,
            .decision = Decision::kBothFinalCardsUp,
            .params = {.seat = seat, .other_seat = other}};
  }
  OfferAllInOption(st, seat);
  Resume(st);
  const bool act_first = st.config.options.faceup_final_option == FaceupFinalOption::kActFirst;
  o.rule_id = applied;
  o.decision = act_first ? Decision::kActFirstOption : Decision::kAllInOption;
  o.params = {.seat = seat,
              .option = act_first ? RulingOption::kFaceupFinalActFirst : RulingOption::kNone,
              .others_down = LiveSeatCount(st) > 2};
  return o;
}

bool FinalRoundOpen(const HandState& st) {
  return st.street == Street::kSeventh && (st.phase == Phase::kAwaitingDeal || NoActionYet(st));
}

}  // namespace

// EXP-1, EXP-2, EXP-3, EXP-4/5.
absl::StatusOr<Outcome> RuleExposed(HandState& st, const IrregularityReport& r) {
  RuleId rule = RuleId::kIrrExp1;
  if (r.kind == IrregularityKind::kBothHolecardsExposed) rule = RuleId::kIrrExp2;
  if (r.kind == IrregularityKind::kCardOffTable) rule = RuleId::kIrrExp3;
  if (r.kind == IrregularityKind::kFinalCardFaceUp) rule = RuleId::kIrrExp5;
  if (absl::Status s = LiveOnly(st, rule); !s.ok()) return s;
  if (!st.seats[r.seat].live()) {
    return Refuse(rule, {.what = Refusal::kSeatHasNoLiveHand, .seat = r.seat});
  }
  if (r.from_deal) {
    // The reported card itself came face up (DealIrregularity checked it).
    GiveAsDealt(st, r.seat, r.card, true);
    if (st.street == Street::kSeventh) return FinalUp(st, r.seat, rule);
    const int index = st.seats[r.seat].num_cards - 1;
    Expose(st, r.seat, index, rule);  // logged for the record: the card is public
    return HoleExposed(st, r.seat, index, rule);
  }
  if (r.kind == IrregularityKind::kBothHolecardsExposed) {
    if (!BeforeThirdStreetBetting(st) || st.seats[r.seat].num_cards < 2) {
      return Refuse(rule, {.what = Refusal::kBothHoleCardsTooLate});
    }
    return BothExposed(st, r.seat, rule);
  }
  if (!r.has_card) return Malformed({.what = Refusal::kCardRequired, .field = "report.card"});
  const int index = IndexOf(st, r.seat, r.card);
  if (index < 0) {
    return Malformed(
        {.what = Refusal::kNotCardOfSeat, .field = "report.card", .seat = r.seat, .card = r.card});
  }
  const SeatCard& c = st.seats[r.seat].cards[index];
  if (c.face_up) {
    return Outcome{.rule_id = rule,
                   .decision = Decision::kNoEffect,
                   .params = {.seat = r.seat, .has_card = true, .card = c.card}};
  }
  if (c.street == Street::kThird && r.kind != IrregularityKind::kFinalCardFaceUp) {
    if (!BeforeThirdStreetBetting(st)) {
      return Refuse(rule, {.what = Refusal::kHoleCardTooLate});
    }
    return HoleExposed(st, r.seat, index, rule);
  }
  if (c.street == Street::kSeventh) {
    if (!FinalRoundOpen(st)) {
      return Refuse(rule, {.what = Refusal::kFinalCardTooLate});
    }
    Expose(st, r.seat, index, rule);
    return FinalUp(st, r.seat, rule);
  }
  return Refuse(rule, {.what = Refusal::kNotExposable});
}

// [STUD-IRR-BURN-1], [STUD-IRR-BURN-2]
absl::StatusOr<Outcome> RuleBurnError(HandState& st, const IrregularityReport& r) {
  const bool final_card = r.street == Street::kSeventh;
  const RuleId rule = final_card ? RuleId::kIrrBurn2 : RuleId::kIrrBurn1;
  if (absl::Status s = LiveOnly(st, rule); !s.ok()) return s;
  if (r.burn_delta != 1 && r.burn_delta != -1) {
    return Malformed({.what = Refusal::kBurnDelta, .field = "report.burn_delta"});
  }
  if (r.street != st.street || !(st.phase == Phase::kAwaitingDeal || NoActionYet(st))) {
    return Refuse(rule, {.what = Refusal::kBurnErrorTooLate, .street = st.street});
  }
  const bool all_stand =
      final_card && st.config.options.final_burn_error == FinalBurnError::kAllStand;
  if (all_stand && !r.moves.empty()) {
    return Malformed({.what = Refusal::kMovesUnderAllStand, .field = "report.moves"});
  }
  // Validate the moves: each seat once, a card of this street, and a new card
  // that is unseen or another moved seat's card.
  CardSet replaced, placed;
  for (const CardMove& m : r.moves) {
    if (m.seat < 1 || m.seat > st.config.num_seats || st.street == Street::kThird) {
      return Malformed({.what = Refusal::kMoveSeatInvalid, .field = "report.moves"});
    }
    const ::stud::Seat& s = st.seats[m.seat];
    if (s.num_cards == 0 || s.cards[s.num_cards - 1].street != st.street) {
      return Malformed({.what = Refusal::kMoveSeatNoCard,
                        .field = "report.moves",
                        .seat = m.seat,
                        .street = st.street});
    }
    if (std::find(r.seats.begin(), r.seats.end(), m.seat) != r.seats.end()) {
      return Refuse(rule, {.what = Refusal::kMoveKeptSeat, .seat = m.seat});
    }
    replaced.Add(s.cards[s.num_cards - 1].card);
  }
  for (const CardMove& m : r.moves) {
    if (m.card.index() >= kDeckSize || placed.Contains(m.card) ||
        (st.seen.Contains(m.card) && !replaced.Contains(m.card))) {
      return Malformed({.what = Refusal::kMoveCardInPlay, .field = "report.moves", .card = m.card});
    }
    placed.Add(m.card);
  }
  if (r.has_card) {
    if (absl::Status s = CardOk(st, r.card, "report.card"); !s.ok() && !replaced.Contains(r.card)) {
      return s;
    }
  }
  for (const CardMove& m : r.moves) ReplaceCard(st, m.seat, m.card, rule);
  // Cards displaced and not placed again, and the named misplaced card, become
  // the burn, known to everyone.
  for (int i = 0; i < kDeckSize; ++i) {
    const Card c = Card::FromIndex(i);
    if ((replaced.Contains(c) && !placed.Contains(c)) ||
        (r.has_card && c == r.card && !placed.Contains(c))) {
      BurnFaceUp(st, c, rule);
    }
  }
  CorrectBurnCount(st, r.burn_delta);
  if (st.phase == Phase::kBetting && !r.moves.empty()) Resume(st);
  Outcome o{.rule_id = rule,
            .decision = all_stand ? Decision::kCardsStand : Decision::kCardsCorrected,
            .params = {.seat = r.seat,
                       .street = r.street,
                       .option = all_stand ? RulingOption::kFinalBurnAllStand : RulingOption::kNone,
                       .burned_two = r.burn_delta > 0}};
  for (int seat : r.seats) o.params.kept[static_cast<size_t>(o.params.num_kept++)] = seat;
  return o;
}

// [STUD-IRR-PREM-1], [STUD-IRR-PREM-2]
absl::StatusOr<Outcome> RulePremature(HandState& st, const IrregularityReport& r) {
  const bool keeps = r.has_card;
  const RuleId rule = keeps ? RuleId::kIrrPrem2 : RuleId::kIrrPrem1;
  if (absl::Status s = LiveOnly(st, rule); !s.ok()) return s;
  if (st.phase != Phase::kBetting || st.street == Street::kSeventh ||
      static_cast<int>(r.street) != static_cast<int>(st.street) + 1) {
    return Refuse(rule, {.what = Refusal::kPrematureNotNext});
  }
  if (r.cards.empty() && !keeps) {
    return Malformed({.what = Refusal::kPrematureNoCards, .field = "report.cards"});
  }
  if (keeps && (r.street != Street::kSeventh || r.seat < 1 || r.seat > st.config.num_seats ||
                !st.seats[r.seat].live() || st.seats[r.seat].has_seventh)) {
    return Refuse(rule, {.what = Refusal::kPrematureKeepNotLive});
  }
  CardSet named;
  for (Card c : r.cards) {
    if (absl::Status s = CardOk(st, c, "report.cards"); !s.ok()) return s;
    if (named.Contains(c) || (keeps && c == r.card)) {
      return Malformed({.what = Refusal::kCardNamedTwiceInList, .field = "report.cards"});
    }
    named.Add(c);
  }
  if (keeps) {
    if (absl::Status s = CardOk(st, r.card, "report.card"); !s.ok()) return s;
  }
  // The burn before them, face down and unreported: counted and logged.
  if (st.premature_pending == 0) BurnReported(st, {}, /*implied=*/true);
  TakeOutPremature(st, r.cards, /*face_up=*/r.street != Street::kSeventh);
  if (keeps) {
    KeepPrematureSeventh(st, r.seat, r.card);
    const bool all = st.config.options.premature_seventh == PrematureSeventh::kAllPlayers;
    Outcome o{
        .rule_id = rule,
        .decision = Decision::kPlayerKeepsCard,
        .params = {.seat = r.seat,
                   .street = r.street,
                   .option = all ? RulingOption::kPrematureSeventhAllPlayers : RulingOption::kNone,
                   .more_cards = !r.cards.empty()}};
    return o;
  }
  return Outcome{.rule_id = rule,
                 .decision = Decision::kCardsTakenOut,
                 .params = {.street = st.street, .count = static_cast<int>(r.cards.size())}};
}

}  // namespace internal

std::optional<IrregularityReport> DealIrregularity(const HandState& st, const Action& a) {
  if (st.config.deal_source != DealSource::kReported || a.kind != ActionKind::kDeal)
    return std::nullopt;
  if (a.card.index() >= kDeckSize || st.seen.Contains(a.card)) return std::nullopt;
  if (a.seat < 0 || a.seat > st.config.num_seats) return std::nullopt;
  IrregularityReport r{
      .seat = a.seat, .street = st.street, .has_card = true, .card = a.card, .from_deal = true};
  if (st.phase == Phase::kBetting && st.street != Street::kSeventh) {
    // [STUD-IRR-PREM-1] a card before the betting round is over.
    return IrregularityReport{.kind = IrregularityKind::kPrematureDeal,
                              .street = static_cast<Street>(static_cast<int>(st.street) + 1),
                              .cards = {a.card},
                              .from_deal = true};
  }
  if (st.phase != Phase::kAwaitingDeal) return std::nullopt;
  const ExpectedDeal next = NextDeal(st);
  if (a.seat != next.seat || !a.face_up || next.face_up || a.seat == kBoardSeat)
    return std::nullopt;
  if (st.street == Street::kThird && st.deal_pass < 2) {
    r.kind = st.seats[a.seat].door_down ? IrregularityKind::kBothHolecardsExposed
                                        : IrregularityKind::kHolecardExposed;
    return r;
  }
  if (st.street == Street::kSeventh) {
    r.kind = IrregularityKind::kFinalCardFaceUp;
    return r;
  }
  return std::nullopt;
}

}  // namespace stud
