// Action out of turn with chips in the pot (IrregularityKind::kActionOutOfTurn).
//
// No rule book has a general out-of-turn rule; the nearest is STUD-IRR-WRONG-1
// (a wrongly designated opener acts: "the incorrect bettor takes back" the
// action and the right seat acts) with the order of action of STUD-BRING-1 and
// STUD-ORDER-1..4. The table reports what it saw, so the chips first go into
// the pot as seen (kOutOfTurn); they sit there, not in the seat's bet, so the
// betting round itself is untouched. Then, by out_of_turn_binding:
//   false (default, the WRONG-1 text): they come back at once (kReturnAnte
//   with the rule ID: chips given back);
//   true (cardroom practice): they wait; when the seat's turn comes with no
//   bet, raise, completion or bring-in since, the action stands as its own
//   (its betting operation, with the rule ID); otherwise, or when the round
//   ends or the seat can no longer act, they come back and it acts anew.
// The held action is found in the log (the last kOutOfTurn of the street not
// yet settled), so the hand state needs no new field and Replay() rebuilds it.
#include <optional>
#include <utility>

#include "engine/irregularities_internal.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

constexpr RuleId kRule = kOutOfTurnRule;

bool IsBet(OpType t) {
  return t == OpType::kFold || t == OpType::kCheck || t == OpType::kCall || t == OpType::kBringIn ||
         t == OpType::kComplete || t == OpType::kBet || t == OpType::kRaise;
}

struct Held {
  size_t op = 0;  // index of the kOutOfTurn operation
  int seat = 0;
  Chips chips = 0;
  ActionKind action = ActionKind::kFold;
  Chips amount_to = 0;
};

// The out-of-turn action still waiting on this street, if any.
std::optional<Held> FindHeld(const HandState& st) {
  for (size_t i = st.log.size(); i-- > 0;) {
    const Operation& op = st.log[i];
    // Settled: given back, or stood as the seat's action.
    if (op.rule_id == kRule && (op.type == OpType::kReturnAnte || IsBet(op.type))) {
      return std::nullopt;
    }
    switch (op.type) {
      case OpType::kStreetEnd:
        return std::nullopt;
      case OpType::kOutOfTurn: {
        // The ruling's kRuling operation comes right before it.
        const size_t report = i > 0 ? static_cast<size_t>(st.log[i - 1].amount) : 0;
        if (i == 0 || report >= st.reports.size()) return std::nullopt;
        const IrregularityReport& r = st.reports[report];
        return Held{i, op.seat, op.amount, r.action, r.amount_to};
      }
      default:
        break;
    }
  }
  return std::nullopt;
}

// A bet, raise, completion or bring-in since the out-of-turn action changed
// the action the seat faces.
bool ActionChanged(const HandState& st, size_t since) {
  for (size_t i = since + 1; i < st.log.size(); ++i) {
    switch (st.log[i].type) {
      case OpType::kBringIn:
      case OpType::kComplete:
      case OpType::kBet:
      case OpType::kRaise:
        return true;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

void TakeBackOutOfTurn(HandState& st) {
  if (std::optional<Held> h = FindHeld(st)) TakeBackChips(st, h->seat, h->chips, kRule);
}

void SettleOutOfTurn(HandState& st) {
  const std::optional<Held> h = FindHeld(st);
  if (!h) return;
  const bool betting = st.phase == Phase::kBetting && st.street == st.log[h->op].street;
  if (betting && st.seats[h->seat].can_act() && st.actor != h->seat) return;  // still waiting
  if (betting && st.actor == h->seat && !ActionChanged(st, h->op)) {
    // The chips leave the hold and become the seat's action, if it still is
    // one: its options are read with the chips back in its stack.
    HandState scratch = st;
    ReleaseHeldChips(scratch, h->seat, h->chips);
    const LegalActionList legal = BettingOptions(scratch, h->seat);
    if (const LegalAction* chosen = FindLegal(legal, h->action, h->amount_to)) {
      const LegalAction action = *chosen;
      ReleaseHeldChips(st, h->seat, h->chips);      // now st is what scratch is
      ApplyAndAdvance(st, h->seat, action, kRule);  // cited: the mark settles the hold
      return;
    }
  }
  TakeBackChips(st, h->seat, h->chips, kRule);
}

// [STUD-IRR-WRONG-1], [STUD-ORDER-1], [STUD-BRING-1]
absl::StatusOr<Outcome> RuleOutOfTurn(HandState& st, const IrregularityReport& r) {
  if (st.config.options.profile == Profile::kOnline) {
    return Refuse(kRule, {.what = Refusal::kOutOfTurnOnline});
  }
  if (st.phase != Phase::kBetting) {
    return Refuse(kRule, {.what = Refusal::kOutOfTurnOutsideBetting});
  }
  if (r.seat == st.actor) {
    return Refuse(kRule, {.what = Refusal::kOutOfTurnIsToAct, .seat = r.seat});
  }
  if (!st.seats[r.seat].can_act()) {
    return Refuse(kRule, {.what = Refusal::kOutOfTurnNoAction, .seat = r.seat});
  }
  if (FindHeld(st)) {
    return Refuse(kRule, {.what = Refusal::kOutOfTurnWaiting});
  }
  // What the seat did must be something it could do in turn at this level.
  const LegalActionList legal = BettingOptions(st, r.seat);
  const LegalAction* chosen = FindLegal(legal, r.action, r.amount_to);
  if (chosen == nullptr) {
    // What it could do: each action, and its street total when it puts in chips.
    RefusalFacts f{.what = Refusal::kOutOfTurnImpossible,
                   .seat = r.seat,
                   .amount = r.amount_to,
                   .action = r.action};
    for (const LegalAction& l : legal) {
      if (f.num_amounts == static_cast<int>(f.amounts.size())) break;
      const size_t k = static_cast<size_t>(f.num_amounts++);
      f.actions[k] = l.kind;
      f.amounts[k] = l.amount_by > 0 ? l.amount_to : -1;
    }
    return Refuse(kRule, std::move(f));
  }
  const Chips chips = chosen->amount_by;
  PutChipsOutOfTurn(st, r.seat, chips, chosen->amount_to, kRule);
  const int right = st.actor;
  Outcome o{.rule_id = kRule,
            .params = {.seat = r.seat,
                       .other_seat = right,
                       .chips = chips,
                       .action = r.action,
                       .amount_to = r.amount_to}};
  if (!st.config.options.out_of_turn_binding) {
    TakeBackChips(st, r.seat, chips, kRule);
    o.decision = Decision::kActionCorrected;
    return o;
  }
  o.decision = Decision::kActionBinding;
  o.params.option = RulingOption::kOutOfTurnBinding;
  return o;
}

}  // namespace stud::internal
