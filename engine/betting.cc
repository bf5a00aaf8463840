// Fixed-limit betting: the one place that decides what a seat may do.
// LegalActions lists BettingOptions; Apply accepts an action only when it
// matches one of them, and ExplainRefusal says which rule forbids the rest.
#include <algorithm>

#include "engine/internal.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

// [STUD-STAKES-3] The bring-in from the stakes table or half the small bet.
Chips BringInAmount(const HandState& st) {
  return StakesInPlay(st.config.stakes, st.config.options).bring_in;
}

// The unit raises are measured in right now: the big bet once a big bet or
// raise has been made on 4th street with an open pair [STUD-PAIR-3].
Chips CurrentUnit(const HandState& st) {
  if (st.street == Street::kFourth && st.big_bet_made) return st.config.stakes.big_bet;
  return StreetUnit(st);
}

// [STUD-PAIR-1] Whether `seat` may choose the big bet on 4th street now.
bool BigOptionOpen(const HandState& st, int seat) {
  if (st.street != Street::kFourth || !st.open_pair || st.big_bet_made) return false;
  if (st.config.options.open_pair_scope == OpenPairScope::kFirstActorWithPair) {
    // 002's reading: only the first actor's opening bet may be big. Once anyone
    // has acted this round (a check included), nobody else gets the choice.
    if (st.full_level != 0 || st.bet_to != 0 || seat != st.actor) return false;
    for (int i = 1; i <= st.config.num_seats; ++i) {
      if (st.seats[i].acted) return false;
    }
    return true;
  }
  return true;
}

// The kind of an action that puts in more than a call.
ActionKind AggressiveKind(const HandState& st) {
  if (st.full_level > 0) return ActionKind::kRaise;
  // [STUD-BRING-5] On 3rd street the first full bet over the bring-in is a completion.
  if (st.street == Street::kThird && st.bring_in_seat != 0) return ActionKind::kComplete;
  return ActionKind::kBet;
}

// [STUD-CAP-1] One bet or completion plus max_raises_per_round raises.
bool CapReached(const HandState& st) {
  if (st.raises < st.config.options.max_raises_per_round) return false;
  // Heads-up raising is unlimited only if the cap was not already reached multiway.
  return st.cap_locked || !(st.config.options.uncapped_heads_up && ActiveSeatCount(st) == 2);
}

// [STUD-CAP-2] Has the betting been reopened for a seat that already acted?
bool Reopened(const HandState& st, const Seat& s) {
  if (!s.acted) return true;
  if (st.full_level > s.acted_to) return true;  // a full bet or raise since
  if (st.config.options.short_allin_rule == ShortAllInRule::kHalfBet) {
    return 2 * (st.bet_to - s.acted_to) >= CurrentUnit(st);  // several short all-ins
  }
  return false;
}

// [STUD-ALLIN-7] Whether any other seat could put in more than `level`: a
// bet, completion or raise to above `level` is offered only then, since when
// every opponent still in is all-in or can at most call, nobody could call
// the excess and it would only come back as uncalled [STUD-ALLIN-1].
bool AnotherSeatCanExceed(const HandState& st, int seat, Chips level) {
  for (int i = 1; i <= st.config.num_seats; ++i) {
    const Seat& s = st.seats[i];
    if (i != seat && s.can_act() && s.street_bet + s.stack > level) return true;
  }
  return false;
}

OpType OpFor(ActionKind k) {
  switch (k) {
    case ActionKind::kFold:
      return OpType::kFold;
    case ActionKind::kCheck:
      return OpType::kCheck;
    case ActionKind::kCall:
      return OpType::kCall;
    case ActionKind::kBringIn:
      return OpType::kBringIn;
    case ActionKind::kComplete:
      return OpType::kComplete;
    case ActionKind::kBet:
      return OpType::kBet;
    case ActionKind::kDeclareAllIn:
      return OpType::kDeclareAllIn;
    case ActionKind::kDeclineOption:
      return OpType::kDeclineOption;
    default:
      return OpType::kRaise;
  }
}

// [STUD-IRR-PREM-2] a player who already holds a premature final downcard may
// not bet or raise on 6th street (ALL_PLAYERS: nobody may).
bool NoBetOnSixth(const HandState& st, int seat) {
  return st.street == Street::kSixth && st.premature_seat != 0 &&
         (seat == st.premature_seat ||
          st.config.options.premature_seventh == PrematureSeventh::kAllPlayers);
}

// [STUD-IRR-EXP-5] the seat holds the declare-all-in option before the betting.
bool AllInOptionOpen(const HandState& st, int seat) {
  return st.allin_option_seat == seat && seat == st.actor &&
         st.config.options.faceup_final_option == FaceupFinalOption::kDeclareAllIn;
}

}  // namespace

Chips StreetUnit(const HandState& st) {
  // [STUD-BET-2] small bet on 3rd and 4th street, big bet from 5th street on.
  return st.street <= Street::kFourth ? st.config.stakes.small_bet : st.config.stakes.big_bet;
}

LegalActionList BettingOptions(const HandState& st, int seat) {
  LegalActionList out;
  const Seat& s = st.seats[seat];
  const Chips max_to = s.street_bet + s.stack;
  auto add = [&](ActionKind kind, Chips to) {
    out.push_back({kind, to, to - s.street_bet, s.stack > 0 && to == max_to});
  };
  if (AllInOptionOpen(st, seat)) {
    // [STUD-IRR-EXP-5] declare all-in (no more chips go in) or play on.
    out.push_back({ActionKind::kDeclareAllIn, s.street_bet, 0, true});
    out.push_back({ActionKind::kDeclineOption, s.street_bet, 0, false});
    return out;
  }
  if (st.bring_in_due) {
    // [STUD-BRING-4] bring in or complete; [STUD-BRING-8] a seat opening for an
    // all-in low card may also fold; [STUD-IRR-EXP-2] so may the seat opening
    // for a dead low card, unless the opening is forced.
    if (seat != st.bring_in_seat && seat != st.forced_opener) add(ActionKind::kFold, s.street_bet);
    add(ActionKind::kBringIn, std::min(BringInAmount(st), max_to));
    if (max_to > BringInAmount(st) && AnotherSeatCanExceed(st, seat, BringInAmount(st))) {
      add(ActionKind::kComplete, std::min(st.config.stakes.small_bet, max_to));
    }
    return out;
  }
  if (st.bet_to > s.street_bet) {
    add(ActionKind::kFold, s.street_bet);
    add(ActionKind::kCall, std::min(st.bet_to, max_to));
  } else {
    add(ActionKind::kCheck, s.street_bet);
    // [STUD-IRR-FOLD-1] folding with no bet to face takes effect at once.
    if (st.config.options.allow_fold_when_check) add(ActionKind::kFold, s.street_bet);
  }
  if (max_to <= st.bet_to || !AnotherSeatCanExceed(st, seat, st.bet_to) || !Reopened(st, s)) {
    return out;
  }
  if (NoBetOnSixth(st, seat)) return out;
  const ActionKind kind = AggressiveKind(st);
  if (kind == ActionKind::kRaise && CapReached(st)) return out;
  absl::InlinedVector<Chips, 2> targets = {st.full_level + CurrentUnit(st)};
  if (BigOptionOpen(st, seat)) targets.push_back(st.full_level + st.config.stakes.big_bet);
  for (Chips to : targets) {
    if (to <= st.bet_to) continue;
    if (to < max_to) {
      add(kind, to);
    } else {
      add(kind, max_to);  // all-in for the full amount or less [STUD-ALLIN-1, STUD-CAP-2]
      break;
    }
  }
  return out;
}

absl::Status ExplainRefusal(const HandState& st, const Action& a,
                            absl::Span<const LegalAction> legal) {
  const Seat& s = st.seats[a.seat];
  // `f` with the amounts LegalActions lists for kind `k`, in order.
  auto amounts = [&](ActionKind k, RefusalFacts f) {
    for (const LegalAction& l : legal) {
      if (l.kind == k && f.num_amounts < static_cast<int>(f.amounts.size())) {
        f.amounts[static_cast<size_t>(f.num_amounts++)] = l.amount_to;
      }
    }
    return f;
  };
  for (const LegalAction& l : legal) {
    if (l.kind != a.kind) continue;
    // Right kind, wrong amount.
    if (a.amount_to > s.street_bet + s.stack) {
      return Refuse(RuleId::kAllin1, {.what = Refusal::kStackTooShort,
                                      .seat = a.seat,
                                      .chips = s.stack,
                                      .amount = s.street_bet + s.stack});
    }
    RuleId rule = RuleId::kStakes5;
    if (a.kind == ActionKind::kBringIn) rule = RuleId::kStakes3;
    if (a.kind == ActionKind::kComplete) rule = RuleId::kBring5;
    if (a.kind == ActionKind::kCall) {
      // [STUD-BRING-9] after a short all-in bring-in, others still call the full bring-in.
      const bool short_bring_in = st.street == Street::kThird && st.full_level == 0 &&
                                  st.bring_in_seat != 0 && st.seats[st.bring_in_seat].all_in &&
                                  st.seats[st.bring_in_seat].street_bet < st.bet_to;
      rule = short_bring_in ? RuleId::kBring9 : RuleId::kBet1;
    }
    if (st.street == Street::kFourth && a.amount_to - st.full_level == st.config.stakes.big_bet) {
      // The big bet on 4th street: without an open pair it is simply the wrong
      // size for the street [STUD-BET-2]; with one showing, the Hi-Lo default
      // [STUD-PAIR-5] or the pair's scope [STUD-PAIR-1] is what refuses it.
      bool pair_showing = false;
      for (int i = 1; i <= st.config.num_seats; ++i) {
        pair_showing = pair_showing || (st.seats[i].live() && HasOpenPair(st, i));
      }
      rule = !pair_showing                             ? RuleId::kBet2
             : st.config.variant == Variant::kStudHiLo ? RuleId::kPair5
                                                       : RuleId::kPair1;
    }
    if (st.street == Street::kFourth && st.big_bet_made) rule = RuleId::kPair3;
    return Refuse(rule, amounts(a.kind, {.what = Refusal::kWrongAmount,
                                         .amount = a.amount_to,
                                         .street = st.street,
                                         .action = a.kind}));
  }
  const bool facing = st.bet_to > s.street_bet;
  switch (a.kind) {
    case ActionKind::kShow:
    case ActionKind::kMuck:
      return Refuse(RuleId::kShow1, {.what = Refusal::kShowdownNotReached});
    case ActionKind::kDeal:
      return Refuse(RuleId::kDeal2, {.what = Refusal::kNoCardDue});
    case ActionKind::kBurn:
      return Refuse(RuleId::kDeal3, {.what = Refusal::kNoBurnDue});
    case ActionKind::kReshuffle:
      return Refuse(RuleId::kDeck1, {.what = Refusal::kNoReshuffleDue});
    case ActionKind::kDeclareAllIn:
    case ActionKind::kDeclineOption:
      return Refuse(RuleId::kIrrExp5, {.what = Refusal::kNoAllInOption, .seat = a.seat});
    default:
      break;
  }
  if (AllInOptionOpen(st, a.seat)) {
    return Refuse(RuleId::kIrrExp5, {.what = Refusal::kAllInOptionFirst, .seat = a.seat});
  }
  if (st.bring_in_due && a.kind == ActionKind::kComplete &&
      !AnotherSeatCanExceed(st, a.seat, BringInAmount(st))) {
    return Refuse(RuleId::kAllin7, {.what = Refusal::kNobodyCouldCallComplete});
  }
  if (st.bring_in_due) {
    return Refuse(RuleId::kBring4,
                  amounts(ActionKind::kBringIn, {.what = Refusal::kBringInDue,
                                                 .seat = a.seat,
                                                 .chips = st.config.stakes.small_bet}));
  }
  switch (a.kind) {
    case ActionKind::kCheck:
      return Refuse(RuleId::kBet1, {.what = Refusal::kCheckFacingBet, .amount = st.bet_to});
    case ActionKind::kCall:
      return Refuse(RuleId::kBet1, {.what = Refusal::kNothingToCall});
    case ActionKind::kFold:
      return Refuse(RuleId::kIrrFold1, {.what = Refusal::kFoldWithoutBet});
    case ActionKind::kBringIn:
      return Refuse(RuleId::kBring1, {.what = Refusal::kBringInOnlyOnThird});
    default:
      break;
  }
  // A bet, completion or raise that is not available.
  if (s.street_bet + s.stack <= st.bet_to) {
    return Refuse(RuleId::kAllin1, {.what = Refusal::kCannotCoverMoreThanCall, .seat = a.seat});
  }
  if (!AnotherSeatCanExceed(st, a.seat, st.bet_to)) {
    return Refuse(RuleId::kAllin7, {.what = Refusal::kNobodyCouldCallMore});
  }
  if (NoBetOnSixth(st, a.seat)) {
    return Refuse(RuleId::kIrrPrem2, {.what = Refusal::kNoBetAfterPremature,
                                      .seat = a.seat,
                                      .flag = a.seat == st.premature_seat});
  }
  if (!Reopened(st, s)) {
    return Refuse(RuleId::kCap2, {.what = Refusal::kNotReopened});
  }
  const ActionKind kind = AggressiveKind(st);
  if (kind == ActionKind::kRaise && CapReached(st)) {
    return Refuse(RuleId::kCap1, {.what = Refusal::kCapped, .count = st.raises});
  }
  if (kind == ActionKind::kComplete) {
    return Refuse(RuleId::kBring6,
                  {.what = Refusal::kCompletionNext, .chips = st.config.stakes.small_bet});
  }
  if (kind == ActionKind::kRaise && a.kind == ActionKind::kComplete) {
    return Refuse(RuleId::kBring5, {.what = Refusal::kAlreadyCompleted});
  }
  if (kind == ActionKind::kRaise) {
    return Refuse(RuleId::kBet1,
                  amounts(kind, {.what = Refusal::kRaiseInstead, .amount = st.bet_to}));
  }
  // Only a bet is available: nobody has made a full bet on this street yet.
  return Refuse(RuleId::kBet1,
                amounts(kind, {.what = Refusal::kBetInstead, .action = a.kind, .flag = facing}));
}

void ApplyBet(HandState& st, int seat, const LegalAction& c) {
  Seat& s = st.seats[seat];
  s.stack -= c.amount_by;
  s.committed += c.amount_by;
  s.street_bet = c.amount_to;
  if (s.stack == 0 && c.kind != ActionKind::kFold && c.kind != ActionKind::kCheck) s.all_in = true;
  Operation op{.type = OpFor(c.kind),
               .seat = static_cast<uint8_t>(seat),
               .street = st.street,
               .card = {},
               .all_in = s.all_in && c.amount_by > 0,
               .amount = c.amount_by,
               .amount_to = c.amount_to,
               .rule_id = {}};
  if (c.kind == ActionKind::kDeclareAllIn || c.kind == ActionKind::kDeclineOption) {
    // [STUD-IRR-EXP-5] the option is answered before the betting starts.
    if (c.kind == ActionKind::kDeclareAllIn) s.all_in = true;
    op.all_in = s.all_in;
    op.rule_id = RuleId::kIrrExp5;
    st.allin_option_seat = 0;
    Log(st, op);
    return;
  }
  if (seat == st.allin_option_seat) st.allin_option_seat = 0;  // ACT_FIRST: it has acted
  if (seat == st.forced_opener) st.forced_opener = 0;
  switch (c.kind) {
    case ActionKind::kFold:
      // [STUD-IRR-FOLD-1] folding with no bet to face: the seat keeps being
      // dealt to until a bet is made, so the card flow does not change.
      s.checked_out =
          st.bet_to <= s.street_bet && st.config.options.fold_when_check != FoldWhenCheck::kAtOnce;
      s.folded = true;
      break;
    case ActionKind::kBringIn:
      // [STUD-BRING-9] others enter for the normal bring-in even when it was posted short.
      st.bet_to = BringInAmount(st);
      st.bring_in_due = false;
      op.rule_id = RuleId::kBring4;
      break;
    case ActionKind::kComplete:
    case ActionKind::kBet:
    case ActionKind::kRaise: {
      st.bring_in_due = false;
      const Chips x = c.amount_to - st.full_level;
      Chips unit = CurrentUnit(st);
      // [STUD-CAP-2] on 4th street an action beyond the small unit is measured against the big bet.
      const bool big = st.street == Street::kFourth && st.open_pair && !st.big_bet_made &&
                       x > st.config.stakes.small_bet;
      if (big) unit = st.config.stakes.big_bet;
      const bool full =
          x >= unit ||
          (st.config.options.short_allin_rule == ShortAllInRule::kHalfBet && 2 * x >= unit);
      st.bet_to = std::max(st.bet_to, c.amount_to);
      if (full) {
        st.full_level = c.amount_to;
        if (c.kind == ActionKind::kRaise) ++st.raises;
        if (big) st.big_bet_made = true;
      }
      if (st.raises >= st.config.options.max_raises_per_round && ActiveSeatCount(st) > 2) {
        st.cap_locked = true;
      }
      st.last_aggressor = seat;
      // [STUD-IRR-FOLD-1] a bet kills the hands that checked out: no more cards.
      for (int i = 1; i <= st.config.num_seats; ++i) st.seats[i].checked_out = false;
      op.rule_id = c.kind == ActionKind::kComplete ? RuleId::kBring5
                   : full                          ? RuleId::kBet2
                                                   : RuleId::kCap2;
      if (big && full) op.rule_id = RuleId::kPair2;
      break;
    }
    default:
      break;
  }
  // [STUD-BRING-7] the bring-in has no option when everyone only calls.
  s.acted = !(c.kind == ActionKind::kBringIn && st.config.options.bring_in_option);
  s.acted_to = s.street_bet;
  Log(st, op);
}

static bool NeedsAction(const HandState& st, const Seat& s, int active) {
  if (!s.can_act()) return false;
  if (s.street_bet < st.bet_to) return true;
  return !s.acted && (active >= 2 || st.bring_in_due);
}

bool RoundComplete(const HandState& st) { return NextToAct(st, 0) == 0; }

int NextToAct(const HandState& st, int from) {
  const int n = st.config.num_seats;
  const int active = ActiveSeatCount(st);
  for (int step = 1; step <= n; ++step) {
    const int seat = (from + step - 1) % n + 1;
    if (NeedsAction(st, st.seats[seat], active)) return seat;
  }
  return 0;
}

void ResetRound(HandState& st) {
  for (int i = 1; i <= st.config.num_seats; ++i) {
    Seat& s = st.seats[i];
    s.street_bet = 0;
    s.acted = false;
    s.acted_to = 0;
  }
  st.bet_to = 0;
  st.full_level = 0;
  st.raises = 0;
  st.cap_locked = false;
  st.bring_in_due = false;
  st.forced_opener = 0;
  st.open_pair = false;
  st.big_bet_made = false;
  st.last_aggressor = 0;
  st.actor = 0;
}

}  // namespace stud::internal
