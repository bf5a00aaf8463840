// Advance: the one door into a hand (engine/advance.h), and the entry points
// that are Advance seen through a narrower answer (Apply, ApplyStep,
// RuleIrregularity) or driven by a log (Replay). The door stands above both
// floors: the core (engine/internal.h) and the irregularity rulings
// (engine/irregularities_internal.h).
#include "engine/advance.h"

#include <optional>
#include <utility>

#include "engine/internal.h"
#include "engine/irregularities_internal.h"
#include "engine/irregularity_table.h"
#include "engine/refusal.h"

namespace stud {
namespace {

bool IsBettingKind(ActionKind k) {
  return k == ActionKind::kFold || k == ActionKind::kCheck || k == ActionKind::kCall ||
         k == ActionKind::kBringIn || k == ActionKind::kComplete || k == ActionKind::kBet ||
         k == ActionKind::kRaise || k == ActionKind::kDeclareAllIn ||
         k == ActionKind::kDeclineOption;
}

// Rules on `report` on a copy of the hand (a failed ruling leaves it as it
// was), after the burn a card reported where one is due implies.
absl::StatusOr<Ruling> RuleOnHand(HandState& st, const IrregularityReport& report,
                                  bool burn_implied) {
  HandState work = st;
  if (burn_implied) internal::BurnReported(work, {}, /*implied=*/true);
  absl::StatusOr<Ruling> ruling = internal::RuleOn(work, report, st);
  if (ruling.ok()) st = std::move(work);
  return ruling;
}

// Steps 1 and 2 of Advance for a card reported in the deal or the betting:
// the request's and the deal's checks, then the classification.
absl::Status DealOrRule(HandState& st, const Action& a, std::optional<Ruling>* ruling) {
  if (absl::Status s = internal::CheckRequest(st, a); !s.ok()) return s;
  bool burn_implied = false;
  if (st.phase == Phase::kAwaitingDeal) {
    absl::StatusOr<internal::DealCheck> check = internal::CheckDeal(st, a);
    if (!check.ok()) return check.status();
    burn_implied = check->burn_implied;
  }
  // [catalogue section 11] a card whose report reveals a dealer's error.
  if (std::optional<IrregularityReport> report = DealIrregularity(st, a)) {
    absl::StatusOr<Ruling> r = RuleOnHand(st, *report, burn_implied);
    if (!r.ok()) return r.status();
    if (ruling != nullptr) *ruling = *std::move(r);
    return absl::OkStatus();
  }
  return internal::ApplyAction(st, a);
}

// Steps 1 and 2 of Advance for an action; ApplyAction checks the request of
// any other action itself. Kept small: it is inlined into Apply.
inline absl::Status ApplyOrRule(HandState& st, const Action& a, std::optional<Ruling>* ruling) {
  if (a.kind == ActionKind::kDeal &&
      (st.phase == Phase::kAwaitingDeal || st.phase == Phase::kBetting)) {
    return DealOrRule(st, a, ruling);
  }
  return internal::ApplyAction(st, a);
}

// Step 3: the epilogue every step shares.
void Epilogue(HandState& st) {
  internal::RulingsAfterStep(st);  // e.g. a held action out of turn whose turn came
  ++st.version;
}

// Advance's body without its answer, one overload per input; the ruling goes
// to `ruling` unless it is null. Apply calls it directly so that the hottest
// entry point builds no Step, Input or Ruling (the rules and the state are
// the same).
absl::Status AdvanceHand(HandState& st, const Action& action, std::optional<Ruling>* ruling) {
  if (absl::Status s = ApplyOrRule(st, action, ruling); !s.ok()) return s;
  Epilogue(st);
  return absl::OkStatus();
}
absl::Status AdvanceHand(HandState& st, const IrregularityReport& report,
                         std::optional<Ruling>* ruling) {
  absl::StatusOr<Ruling> r = RuleOnHand(st, report, false);
  if (!r.ok()) return r.status();
  if (ruling != nullptr) *ruling = *std::move(r);
  Epilogue(st);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Step> Advance(HandState& st, const Input& input, NextSteps next) {
  Step step;
  step.first_op = st.log.size();
  absl::Status s =
      std::visit([&](const auto& in) { return AdvanceHand(st, in, &step.ruling); }, input);
  if (!s.ok()) return s;
  if (next == NextSteps::kList) step.next = Next(st);
  return step;
}

absl::Status Apply(HandState& st, const Action& action) { return AdvanceHand(st, action, nullptr); }

absl::StatusOr<Step> ApplyStep(HandState& st, const Action& action) { return Advance(st, action); }

absl::StatusOr<Ruling> RuleIrregularity(HandState& st, const IrregularityReport& report) {
  absl::StatusOr<Step> step = Advance(st, report, NextSteps::kSkip);
  if (!step.ok()) return step.status();
  return *std::move(step->ruling);
}

absl::StatusOr<HandState> Replay(const HandConfig& config, const std::vector<Operation>& log) {
  return Replay(config, log, {});
}

absl::StatusOr<HandState> Replay(const HandConfig& config, const std::vector<Operation>& log,
                                 const std::vector<IrregularityReport>& reports) {
  absl::StatusOr<HandState> st = NewHand(config);
  if (!st.ok()) return st.status();
  const bool reported = config.deal_source == DealSource::kReported;
  for (size_t i = 0; i < log.size(); ++i) {
    const Operation& op = log[i];
    Action a{.seat = op.seat, .amount_to = op.amount_to, .card = op.card, .face_up = op.face_up};
    switch (op.type) {
      case OpType::kRuling: {
        // Re-apply the report; the operations it appended follow it and are
        // produced again by the ruling itself.
        if (op.amount < 0 || static_cast<size_t>(op.amount) >= reports.size()) {
          return Malformed({.what = Refusal::kRulingWithoutReport, .field = "log"});
        }
        absl::StatusOr<Step> step =
            Advance(*st, reports[static_cast<size_t>(op.amount)], NextSteps::kSkip);
        if (!step.ok()) return step.status();
        i += static_cast<size_t>(op.amount_to);
        continue;
      }
      case OpType::kDeclareAllIn:
        a.kind = ActionKind::kDeclareAllIn;
        break;
      case OpType::kDeclineOption:
        a.kind = ActionKind::kDeclineOption;
        break;
      case OpType::kFold:
        a.kind = ActionKind::kFold;
        break;
      case OpType::kCheck:
        a.kind = ActionKind::kCheck;
        break;
      case OpType::kCall:
        a.kind = ActionKind::kCall;
        break;
      case OpType::kBringIn:
        a.kind = ActionKind::kBringIn;
        break;
      case OpType::kComplete:
        a.kind = ActionKind::kComplete;
        break;
      case OpType::kBet:
        a.kind = ActionKind::kBet;
        break;
      case OpType::kRaise:
        a.kind = ActionKind::kRaise;
        break;
      case OpType::kShow:
        if (op.rule_id != RuleId::kShow1 || st->phase != Phase::kShowdown) continue;
        a.kind = ActionKind::kShow;
        break;
      case OpType::kMuck:
        a.kind = ActionKind::kMuck;
        break;
      case OpType::kDeal:
      case OpType::kCommonCard:
        if (!reported) continue;
        a.kind = ActionKind::kDeal;
        break;
      case OpType::kBurn:
        if (!reported) continue;
        if (op.amount == 2) {
          // Implied by the card reported after it, in the same step. Logs
          // written before every burn was logged also hold a deal ruled with
          // no burn before it, so the burn is re-made as recorded rather than
          // left to the next step to imply.
          internal::BurnReported(*st, a, /*implied=*/true);
          continue;
        }
        a = {.kind = ActionKind::kBurn,
             .card = op.card,
             .face_up = op.face_up,
             .unseen = op.amount == 1};
        break;
      case OpType::kRecycle:
        if (!reported) continue;
        a = {.kind = ActionKind::kReshuffle};
        break;
      default:
        continue;
    }
    // A held action out of turn that stood is applied again by the engine
    // itself when the turn reaches its seat [STUD-IRR-WRONG-1].
    if (op.rule_id == internal::kOutOfTurnRule && IsBettingKind(a.kind)) continue;
    if (absl::StatusOr<Step> step = Advance(*st, a, NextSteps::kSkip); !step.ok()) {
      return step.status();
    }
  }
  return st;
}

}  // namespace stud
