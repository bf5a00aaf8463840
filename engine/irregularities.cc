// Irregularity rulings: the ruling's record (what changed), and the player
// and table irregularities (wrong opener, absent player, folds out of turn,
// card counts, calls when beaten, rearranged upcards, time-outs). Dealer
// errors are in irregularities_deal.cc; the table of kinds that dispatches
// to them in irregularity_table.cc.
#include "engine/irregularities.h"

#include <utility>

#include "engine/irregularities_internal.h"
#include "engine/irregularity_table.h"
#include "engine/refusal.h"

namespace stud {
namespace internal {
namespace {

// A report the rules do not allow now.
absl::Status NotNow(RuleId rule, RefusalFacts facts) { return Refuse(rule, std::move(facts)); }

bool Facing(const HandState& st, int seat) { return st.bet_to > st.seats[seat].street_bet; }

}  // namespace

// [STUD-IRR-WRONG-1]
absl::StatusOr<Outcome> RuleWrongOpener(HandState& st, const IrregularityReport& r) {
  constexpr RuleId kRule = RuleId::kIrrWrong1;
  if (absl::Status s = LiveOnly(st, kRule); !s.ok()) return s;
  if (!NoActionYet(st)) {
    return NotNow(kRule, {.what = Refusal::kOpenerAfterAction});
  }
  if (r.seat == st.actor || !st.seats[r.seat].can_act()) {
    return NotNow(kRule, {.what = Refusal::kNotWrongOpener,
                          .seat = r.seat,
                          .other_seat = st.actor,
                          .street = st.street});
  }
  const int right = st.actor;
  Outcome o{.rule_id = kRule};
  o.params = {.seat = r.seat, .other_seat = right, .street = st.street};
  if (!r.next_acted) {
    o.decision = Decision::kActionCorrected;
    return o;
  }
  // The wrong action stands and play continues from it.
  MakeOpener(st, r.seat, kRule);
  const LegalActionList legal = BettingOptions(st, r.seat);
  const LegalAction* chosen = FindLegal(legal, r.action, r.amount_to);
  if (chosen == nullptr) {
    return ExplainRefusal(st, {.kind = r.action, .seat = r.seat, .amount_to = r.amount_to}, legal);
  }
  ApplyAndAdvance(st, r.seat, *chosen);
  o.decision = Decision::kActionStands;
  return o;
}

// [STUD-IRR-ABS-1]
absl::StatusOr<Outcome> RuleAbsent(HandState& st, const IrregularityReport& r) {
  constexpr RuleId kRule = RuleId::kIrrAbs1;
  const Options& opt = st.config.options;
  if (opt.profile == Profile::kOnline) {
    return NotNow(kRule, {.what = Refusal::kAbsentOnline});
  }
  if (st.phase != Phase::kBetting) {
    return NotNow(kRule, {.what = Refusal::kAbsentOutsideBetting});
  }
  const bool tournament = opt.absent_kill == AbsentKill::kAfterStartingHands;
  if (!tournament && r.seat != st.actor) {
    return NotNow(kRule,
                  {.what = Refusal::kAbsentNotReached, .seat = r.seat, .other_seat = st.actor});
  }
  Outcome o{.rule_id = kRule, .decision = Decision::kHandKilled};
  o.params = {.seat = r.seat,
              .option = tournament ? RulingOption::kAbsentKillAfterStartingHands
                                   : RulingOption::kAbsentKillWhenActionReaches};
  const bool low = r.seat == st.actor && st.bring_in_due && r.seat == st.bring_in_seat;
  if (low) {
    // The absent low card's bring-in is posted from its stack and stands.
    const LegalActionList legal = BettingOptions(st, r.seat);
    const LegalAction* bring = FindLegal(legal, ActionKind::kBringIn, 0);
    if (bring != nullptr) ApplyBet(st, r.seat, *bring);
    o.decision = Decision::kBringInPostedHandKilled;
  }
  Kill(st, r.seat, kRule);
  AfterSeatRemoved(st, r.seat);
  return o;
}

// [STUD-IRR-FOLD-1], [STUD-IRR-FOLD-2]
absl::StatusOr<Outcome> RuleFoldOut(HandState& st, const IrregularityReport& r) {
  const bool picked_up = r.kind == IrregularityKind::kUpcardsPickedUp;
  const RuleId rule = picked_up ? RuleId::kIrrFold2 : RuleId::kIrrFold1;
  if (picked_up && st.phase == Phase::kShowdown) {
    // The betting is over: the showdown rule decides, not the fold rule.
    return Outcome{
        .rule_id = RuleId::kShow3, .decision = Decision::kNoEffect, .params = {.seat = r.seat}};
  }
  if (st.phase != Phase::kBetting || r.seat != st.actor) {
    return NotNow(rule, {.what = Refusal::kFoldNotToAct, .other_seat = st.actor});
  }
  const bool facing = Facing(st, r.seat) || st.bring_in_due;
  if (picked_up && !facing) {
    return NotNow(rule, {.what = Refusal::kPickedUpWithoutBet});
  }
  if (!picked_up && facing) {
    return NotNow(rule, {.what = Refusal::kCheckedOutFacingBet});
  }
  const LegalActionList legal = BettingOptions(st, r.seat);
  const LegalAction* fold = FindLegal(legal, ActionKind::kFold, 0);
  if (fold == nullptr)
    return ExplainRefusal(st, {.kind = ActionKind::kFold, .seat = r.seat}, legal);
  ApplyAndAdvance(st, r.seat, *fold);
  if (picked_up) {
    return Outcome{.rule_id = rule, .decision = Decision::kHandKilled, .params = {.seat = r.seat}};
  }
  const FoldWhenCheck mode = st.config.options.fold_when_check;
  Outcome o{.rule_id = rule, .decision = Decision::kCheckedOut, .params = {.seat = r.seat}};
  if (mode == FoldWhenCheck::kAtOnce) {
    o.params.option = RulingOption::kFoldWhenCheckAtOnce;
  } else {
    if (mode == FoldWhenCheck::kLiveUntilBet) {
      o.params.option = RulingOption::kFoldWhenCheckLiveUntilBet;
    }
  }
  return o;
}

// [STUD-IRR-CARDS-1]
absl::StatusOr<Outcome> RuleCardCount(HandState& st, const IrregularityReport& r) {
  constexpr RuleId kRule = RuleId::kIrrCards1;
  if (absl::Status s = LiveOnly(st, kRule); !s.ok()) return s;
  if (r.card_count < 0 || r.card_count == 7 || r.card_count > 8 + 7) {
    return Malformed({.what = Refusal::kCardCountSeven, .field = "report.card_count"});
  }
  if (!st.seats[r.seat].live() || st.phase == Phase::kComplete) {
    return NotNow(kRule, {.what = Refusal::kSeatHasNoLiveHand, .seat = r.seat});
  }
  Outcome o{.rule_id = kRule,
            .decision = Decision::kHandKilled,
            .params = {.seat = r.seat, .count = r.card_count}};
  if (r.card_count > 7) {
    Kill(st, r.seat, kRule);
    AfterSeatRemoved(st, r.seat);
    return o;
  }
  if (!(st.phase == Phase::kShowdown ||
        (st.phase == Phase::kBetting && st.street == Street::kSeventh))) {
    return NotNow(kRule, {.what = Refusal::kShortHandBeforeShowdown});
  }
  const bool any_short = st.config.options.short_hand == ShortHand::kPlayerOptionAnyShort;
  // A seat skipped on an earlier street misses more than its 7th card.
  const bool live = any_short ? r.declare_live && r.card_count >= 5
                              : r.card_count == 6 && !MissesEarlierCard(st, r.seat);
  if (any_short) {
    o.params.option = RulingOption::kShortHandAnyShort;
  }
  if (live) {
    SetAside(st, r.seat, r.card_count, kRule);
    o.decision = Decision::kHandLive;
    return o;
  }
  Kill(st, r.seat, kRule);
  AfterSeatRemoved(st, r.seat);
  return o;
}

// [STUD-ALLIN-4], [STUD-ALLIN-5]
absl::StatusOr<Outcome> RuleTimeout(HandState& st, const IrregularityReport& r) {
  if (r.allowance_remaining < 0) {
    return Malformed({.what = Refusal::kAllowanceNegative, .field = "report.allowance_remaining"});
  }
  if (st.phase != Phase::kBetting || r.seat != st.actor) {
    return NotNow(RuleId::kAllin4, {.what = Refusal::kTimeoutNotToAct, .other_seat = st.actor});
  }
  if (r.allowance_remaining > 0) {
    const int left = r.allowance_remaining - 1;
    MarkTimedOutAllIn(st, r.seat, left);
    AfterSeatRemoved(st, r.seat);
    return Outcome{.rule_id = RuleId::kAllin4,
                   .decision = Decision::kTimeoutAllIn,
                   .params = {.seat = r.seat,
                              .count = left,
                              .chips = st.seats[r.seat].committed,
                              .disconnect = r.disconnect},
                   .allowance_remaining = left};
  }
  const LegalActionList legal = BettingOptions(st, r.seat);
  Outcome o{.rule_id = RuleId::kAllin5,
            .decision = Decision::kTimeoutFold,
            .params = {.seat = r.seat, .disconnect = r.disconnect},
            .allowance_remaining = 0};
  const LegalAction* check = FindLegal(legal, ActionKind::kCheck, 0);
  if (st.config.options.exhausted_timeout_action == ExhaustedTimeout::kCheckIfFree) {
    o.params.option = RulingOption::kExhaustedTimeoutCheckIfFree;
    if (check != nullptr) {
      ApplyAndAdvance(st, r.seat, *check);
      o.decision = Decision::kTimeoutCheck;
      return o;
    }
  }
  if (const LegalAction* fold = FindLegal(legal, ActionKind::kFold, 0); fold != nullptr) {
    ApplyAndAdvance(st, r.seat, *fold);
  } else {
    Kill(st, r.seat, RuleId::kAllin5);
    AfterSeatRemoved(st, r.seat);
  }
  return o;
}

// [STUD-IRR-CALL-1]
absl::StatusOr<Outcome> RuleCalledWhenBeaten(HandState&, const IrregularityReport& r) {
  return Outcome{
      .rule_id = RuleId::kIrrCall1, .decision = Decision::kNoRefund, .params = {.seat = r.seat}};
}

// [STUD-GAME-5]
absl::StatusOr<Outcome> RuleUpcardsReordered(HandState&, const IrregularityReport& r) {
  return Outcome{
      .rule_id = RuleId::kGame5, .decision = Decision::kWarning, .params = {.seat = r.seat}};
}

absl::Status LiveOnly(const HandState& st, RuleId rule) {
  if (st.config.deal_source == DealSource::kReported) return absl::OkStatus();
  return Refuse(rule, {.what = Refusal::kLiveDealingOnly});
}

namespace {

// The whole ruling on a scratch copy: checks, record, dispatch by kind.
absl::StatusOr<Outcome> RuleOnCopy(HandState& st, const IrregularityReport& r) {
  // Every field is checked before anything changes.
  if (absl::Status s = ValidateReport(st, r); !s.ok()) return s;
  if (st.phase == Phase::kComplete && r.kind != IrregularityKind::kCalledWhenBeaten) {
    return Refuse(RuleId::kGame1, {.what = Refusal::kNothingLeftToRule});
  }
  const size_t at = OpenRuling(st, r);
  absl::StatusOr<Outcome> o = RulesOf(r.kind).rule(st, r);
  if (!o.ok()) return o.status();
  RulingsAfterStep(st);  // the ruling may have brought the turn to a held action
  CloseRuling(st, at, o->rule_id);
  return o;
}

}  // namespace

absl::StatusOr<Ruling> RuleOn(HandState& work, const IrregularityReport& report,
                              const HandState& before) {
  const size_t first = work.log.size();
  absl::StatusOr<Outcome> o = RuleOnCopy(work, report);
  if (!o.ok()) return o.status();
  Ruling r{.rule_id = o->rule_id, .decision = o->decision, .params = o->params};
  r.params.kind = report.kind;
  r.allowance_remaining = o->allowance_remaining;
  r.first_op = first;
  r.end_op = work.log.size();
  for (size_t i = first; i < work.log.size(); ++i) {
    const Operation& op = work.log[i];
    switch (op.type) {
      case OpType::kExpose:
        r.exposed.push_back({op.seat, op.card, true});
        break;
      case OpType::kAside:
        r.removed.push_back({op.seat, op.card, op.amount == 0});
        break;
      case OpType::kDeal:
      case OpType::kReplaceCard:
        r.given.push_back({op.seat, op.card, true});
        break;
      case OpType::kKill:
        r.killed.push_back(op.seat);
        break;
      default:
        break;
    }
  }
  for (int i = 1; i <= work.config.num_seats; ++i) {
    const Chips ds = work.seats[i].stack - before.seats[i].stack;
    const Chips dc = work.seats[i].committed - before.seats[i].committed;
    if (ds != 0 || dc != 0) r.chips.push_back({i, ds, dc});
  }
  r.to_act = ToAct(work);
  if (r.to_act != 0) r.options = LegalActions(work, r.to_act);
  return r;
}

}  // namespace internal

}  // namespace stud
