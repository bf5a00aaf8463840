// Hand flow: NewHand, Apply, LegalActions, showdown and awards. Betting
// decisions live in betting.cc and dealing in dealing.cc.
#include "engine/engine.h"

#include <algorithm>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "engine/internal.h"
#include "engine/pot.h"
#include "engine/refusal.h"

namespace stud {
namespace {

using internal::Log;

absl::Status ValidateConfig(const HandConfig& c) {
  if (c.variant != Variant::kStud && c.variant != Variant::kStudHiLo &&
      c.variant != Variant::kRazz) {
    return Malformed({.what = Refusal::kVariantUnknown, .field = "variant"});
  }
  if (c.num_seats < kMinSeats || c.num_seats > kMaxSeats) {
    return Malformed({.what = Refusal::kSeatCount, .field = "seats", .count = c.num_seats});
  }
  if (absl::Status s = ValidateStakes(c.stakes); !s.ok()) return s;
  if (absl::Status s = ValidateOptions(c.options); !s.ok()) return s;
  if (absl::Status s = internal::ValidateCarriedAntes(c); !s.ok()) return s;
  for (int i = 1; i <= c.num_seats; ++i) {
    // A seat all-in for an ante carried into a redeal has nothing behind.
    const Chips least = c.carried_antes[i] > 0 ? 0 : 1;
    if (c.starting_stacks[i] < least || c.starting_stacks[i] > kMaxStack) {
      const std::string field = absl::StrCat("seats[", i, "].stack");  // a path, not prose
      return Malformed(
          {.what = Refusal::kStackOutOfRange, .field = field, .chips = c.starting_stacks[i]});
    }
  }
  auto permutation = [](const std::vector<Card>& cards, absl::string_view field) {
    CardSet set;
    for (Card card : cards) {
      if (card.index() >= kDeckSize || set.Contains(card)) {
        return Malformed(
            {.what = Refusal::kDeckCardTwice, .field = std::string(field), .card = card});
      }
      set.Add(card);
    }
    if (cards.size() != kDeckSize) {
      return Malformed({.what = Refusal::kDeckIncomplete,
                        .field = std::string(field),
                        .count = static_cast<int>(cards.size())});
    }
    return absl::OkStatus();
  };
  if (c.deal_source == DealSource::kDeck) {
    if (absl::Status s = permutation(c.deck, "deck"); !s.ok()) return s;
    if (!c.recycle_order.empty()) {
      if (absl::Status s = permutation(c.recycle_order, "recycle_order"); !s.ok()) return s;
    }
  } else if (!c.deck.empty()) {
    return Malformed({.what = Refusal::kDeckNotTaken, .field = "deck"});
  }
  return absl::OkStatus();
}

using internal::AfterStreetDealt;

bool IsBettingKind(ActionKind k) {
  return k == ActionKind::kFold || k == ActionKind::kCheck || k == ActionKind::kCall ||
         k == ActionKind::kBringIn || k == ActionKind::kComplete || k == ActionKind::kBet ||
         k == ActionKind::kRaise || k == ActionKind::kDeclareAllIn ||
         k == ActionKind::kDeclineOption;
}

absl::Status ApplyDeal(HandState& st, const Action& a) {
  if (a.kind == ActionKind::kBurn || a.kind == ActionKind::kReshuffle) {
    return internal::ApplyDealerStep(st, a);
  }
  if (a.kind != ActionKind::kDeal) {
    return Refuse(RuleId::kDeal1,
                  {.what = Refusal::kCardOwedFirst, .other_seat = NextDeal(st).seat});
  }
  absl::StatusOr<internal::DealCheck> check = internal::CheckDeal(st, a);
  if (!check.ok()) return check.status();
  const ExpectedDeal& next = check->next;
  const bool burn_implied = check->burn_implied;
  if (a.seat != next.seat || a.face_up != next.face_up) {
    // A report that reveals a dealer error was ruled by Advance before this
    // point (engine/advance.cc); any other mismatch is refused. When the
    // common card is due, or one is reported after a reshuffle, the deck
    // procedure decides (a street is never split between private cards and a
    // common card) [STUD-DECK-1..3], not the dealing order.
    const bool common =
        next.seat == kBoardSeat || (a.seat == kBoardSeat && internal::ReshuffledThisStreet(st));
    return Refuse(common ? internal::DeckProcedureRule(st) : RuleId::kDeal1,
                  {.what = Refusal::kWrongDeal,
                   .seat = a.seat,
                   .other_seat = next.seat,
                   .street = next.street,
                   .face_up = a.face_up,
                   .flag = next.face_up});
  }
  if (burn_implied) internal::BurnReported(st, a, /*implied=*/true);
  internal::GiveReportedCard(st, a.card);
  const bool done =
      st.street_uses_common
          ? st.has_common
          : std::none_of(st.pending_deal.begin(), st.pending_deal.end(), [](bool b) { return b; });
  if (done) AfterStreetDealt(st);
  return absl::OkStatus();
}

// A seat that can no longer bet: the rule that took it out is the one to cite
// (a killed hand's ruling, e.g. [STUD-IRR-FOLD-2]; all-in [STUD-ALLIN-1]).
absl::Status NotInTheBetting(const HandState& st, int seat) {
  // The seat's last fold or kill, and the ruling it belongs to when a ruling
  // appended it (kRuling: `amount_to` operations follow it).
  RuleId dead_rule = RuleId::kNone;
  size_t ruling_end = 0;
  RuleId ruling_rule = RuleId::kNone;
  for (size_t i = 0; i < st.log.size(); ++i) {
    const Operation& op = st.log[i];
    if (op.type == OpType::kRuling) {
      ruling_end = i + static_cast<size_t>(op.amount_to);
      ruling_rule = op.rule_id;
    }
    if (op.seat != seat || (op.type != OpType::kKill && op.type != OpType::kFold)) continue;
    dead_rule = op.type == OpType::kKill ? op.rule_id
                : i <= ruling_end        ? ruling_rule
                                         : RuleId::kNone;
  }
  if (dead_rule != RuleId::kNone) {
    return Refuse(dead_rule, {.what = Refusal::kHandDead, .seat = seat});
  }
  if (st.seats[seat].all_in && !st.seats[seat].folded) {
    return Refuse(RuleId::kAllin1, {.what = Refusal::kAllInNoMoreAction, .seat = seat});
  }
  return Refuse(RuleId::kBet1, {.what = Refusal::kFolded, .seat = seat});
}

// Folds, checks and the all-in option's answers put in no chips: their amount
// is 0 or the street total LegalActions lists for them; anything else is a
// malformed request, not a choice the rules refuse.
absl::Status CheckNoAmount(const Action& a, absl::Span<const LegalAction> legal) {
  const bool no_chips = a.kind == ActionKind::kFold || a.kind == ActionKind::kCheck ||
                        a.kind == ActionKind::kDeclareAllIn || a.kind == ActionKind::kDeclineOption;
  if (!no_chips || a.amount_to == 0) return absl::OkStatus();
  for (const LegalAction& l : legal) {
    if (l.kind != a.kind) continue;
    if (l.amount_to == a.amount_to) return absl::OkStatus();
    return Malformed({.what = Refusal::kNoChipsForKind,
                      .field = "amount_to",
                      .chips = l.amount_to,
                      .amount = a.amount_to,
                      .action = a.kind});
  }
  return absl::OkStatus();  // the kind is not allowed now: the rules say why
}

}  // namespace

namespace internal {

absl::StatusOr<DealCheck> CheckDeal(const HandState& st, const Action& a) {
  const ExpectedDeal next = NextDeal(st);
  if (a.card.index() >= kDeckSize) return Malformed({.what = Refusal::kNotACard, .field = "card"});
  if (st.seen.Contains(a.card)) {
    const bool burned = std::find(st.burns.begin(), st.burns.end(), a.card) != st.burns.end();
    return Refuse(RuleId::kDeal4,
                  {.what = burned ? Refusal::kCardBurned : Refusal::kCardInPlay, .card = a.card});
  }
  if (next.step == DealStep::kReshuffle) {
    return Refuse(RuleId::kDeck1,
                  {.what = Refusal::kReshuffleFirst, .count = LiveStub(st), .street = st.street});
  }
  // [STUD-DEAL-3] a card reported where a burn is due: burned face down first.
  const bool burn_implied = next.step == DealStep::kBurn;
  if (burn_implied) {
    if (absl::Status s = CheckImpliedBurn(st); !s.ok()) return s;
  }
  return DealCheck{next, burn_implied};
}

void AfterStreetDealt(HandState& st) {
  DesignateOpener(st);
  st.phase = Phase::kBetting;
  if (RoundComplete(st)) AdvanceAfterRound(st);
}

}  // namespace internal

const LegalAction* ChooseLegal(const std::vector<LegalAction>& legal, const Action& action) {
  const LegalAction* chosen = internal::FindLegal(legal, action.kind, action.amount_to);
  // Kinds that put in no chips take 0 or the street total listed for them.
  if (chosen != nullptr && action.amount_to != 0 && chosen->amount_to != action.amount_to) {
    return nullptr;
  }
  return chosen;
}

namespace internal {

void Log(HandState& st, Operation op) { st.log.push_back(op); }

const LegalAction* FindLegal(absl::Span<const LegalAction> legal, ActionKind kind,
                             Chips amount_to) {
  const LegalAction* chosen = nullptr;
  int same_kind = 0;
  for (const LegalAction& l : legal) {
    if (l.kind != kind) continue;
    ++same_kind;
    const bool amount_free = kind == ActionKind::kFold || kind == ActionKind::kCheck ||
                             kind == ActionKind::kDeclareAllIn ||
                             kind == ActionKind::kDeclineOption;
    if (amount_free || l.amount_to == amount_to) chosen = &l;
  }
  if (chosen == nullptr && same_kind == 1 && amount_to == 0) {
    for (const LegalAction& l : legal) {
      if (l.kind == kind) chosen = &l;  // the only amount; amount_to may be omitted
    }
  }
  return chosen;
}

namespace {

// After a betting action: the option answered, the round closed, or the turn
// moves on.
void MoveOn(HandState& st, int seat, ActionKind kind) {
  if (kind == ActionKind::kDeclareAllIn || kind == ActionKind::kDeclineOption) {
    // [STUD-IRR-EXP-5] the option answered, the high hand on board opens.
    DesignateOpener(st);
    if (LiveSeatCount(st) == 1 || RoundComplete(st)) AdvanceAfterRound(st);
    return;
  }
  if (LiveSeatCount(st) == 1 || RoundComplete(st)) {
    AdvanceAfterRound(st);
  } else {
    st.actor = NextToAct(st, seat);
  }
}

}  // namespace

void ApplyAndAdvance(HandState& st, int seat, const LegalAction& chosen) {
  const LegalAction action = chosen;
  ApplyBet(st, seat, action);
  MoveOn(st, seat, action.kind);
}

void ApplyAndAdvance(HandState& st, int seat, const LegalAction& chosen, RuleId cite) {
  const LegalAction action = chosen;
  const size_t at = st.log.size();
  ApplyBet(st, seat, action);
  st.log[at].rule_id = cite;  // before the round can close: the mark settles a held action
  MoveOn(st, seat, action.kind);
}

void AdvanceAfterRound(HandState& st) {
  RulingsAtRoundEnd(st);  // e.g. held out-of-turn chips are no part of the pot
  // [STUD-BRING-7] a 3rd-street round where everyone just called the bring-in
  // ends there: the bring-in gets no option.
  const bool bring_in_called = st.street == Street::kThird && st.bring_in_seat != 0 &&
                               st.full_level == 0 && st.raises == 0 && !st.bring_in_due &&
                               !st.config.options.bring_in_option && LiveSeatCount(st) > 1;
  Log(st, {.type = OpType::kStreetEnd,
           .street = st.street,
           .rule_id = bring_in_called ? RuleId::kBring7 : RuleId::kNone});
  st.actor = 0;
  if (LiveSeatCount(st) == 1) {
    SettleHand(st);
    return;
  }
  if (st.street == Street::kSeventh) {
    StartShowdown(st);
    return;
  }
  st.street = static_cast<Street>(static_cast<int>(st.street) + 1);
  ResetRound(st);
  if (BeginStreetDeal(st)) AfterStreetDealt(st);
}

}  // namespace internal

absl::StatusOr<HandState> NewHand(HandConfig config) {
  if (absl::Status s = ValidateConfig(config); !s.ok()) return s;
  HandState st;
  st.config = std::move(config);
  st.log.reserve(96);
  for (int i = 1; i <= st.config.num_seats; ++i) st.seats[i].stack = st.config.starting_stacks[i];
  if (HasCarriedAntes(st.config)) {
    internal::CarryAntes(st);  // a redeal [STUD-IRR-EXP-1]
  } else {
    internal::PostAntes(st);
  }
  if (internal::BeginStreetDeal(st)) AfterStreetDealt(st);
  return st;
}

int ToAct(const HandState& st) {
  return st.phase == Phase::kBetting || st.phase == Phase::kShowdown ? st.actor : 0;
}

std::vector<LegalAction> LegalActions(const HandState& st, int seat) {
  const LegalActionList legal = LegalActionsInline(st, seat);
  return {legal.begin(), legal.end()};
}

LegalActionList LegalActionsInline(const HandState& st, int seat) {
  switch (st.phase) {
    case Phase::kBetting:
      if (seat == st.actor && seat != 0) return internal::BettingOptions(st, seat);
      return {};
    case Phase::kShowdown:
      if (seat != st.actor || seat == 0) return {};
      return {{ActionKind::kShow, 0, 0, false}, {ActionKind::kMuck, 0, 0, false}};
    case Phase::kAwaitingDeal: {
      // [STUD-DEAL-3, STUD-DECK-1] the dealer (seat 0) burns and reshuffles.
      const ExpectedDeal next = NextDeal(st);
      if (next.step == DealStep::kReshuffle) {
        if (seat != kBoardSeat) return {};
        return {{ActionKind::kReshuffle, 0, 0, false}};
      }
      LegalActionList out;
      // A deal implies a due burn only when the stub then still serves [STUD-DECK-1].
      const bool deal_ok = next.step != DealStep::kBurn || internal::CheckImpliedBurn(st).ok();
      if (next.seat == seat && deal_ok) out.push_back({ActionKind::kDeal, 0, 0, false});
      if (next.step == DealStep::kBurn && seat == kBoardSeat) {
        out.push_back({ActionKind::kBurn, 0, 0, false});
      }
      return out;
    }
    case Phase::kComplete:
      return {};
  }
  return {};
}

ExpectedDeal NextDeal(const HandState& st) {
  if (st.phase != Phase::kAwaitingDeal) return {0, false, st.street};
  const DealStep step = internal::LiveStep(st);
  if (st.street_uses_common) return {kBoardSeat, true, st.street, step};
  for (int i = 1; i <= st.config.num_seats; ++i) {
    if (!st.pending_deal[i]) continue;
    // [STUD-IRR-EXP-1] a seat with an exposed hole card gets its third card
    // down; [STUD-IRR-EXP-5(b)] heads-up, the second final card comes up too.
    bool up = st.street == Street::kThird ? st.deal_pass == 2 && !st.seats[i].door_down
                                          : st.street != Street::kSeventh;
    if (st.street == Street::kSeventh && st.seats[i].final_up) up = true;
    return {i, up, st.street, step};
  }
  return {0, false, st.street, step};
}

namespace internal {

absl::Status CheckRequest(const HandState& st, const Action& a) {
  if (a.seat < 0 || a.seat > st.config.num_seats) {
    return Malformed({.what = Refusal::kSeatNotAtTable,
                      .field = "seat",
                      .seat = a.seat,
                      .count = st.config.num_seats});
  }
  // Showing, mucking and dealing never move chips: LegalActions lists them
  // with amount 0, and any other amount is a malformed request.
  if (a.amount_to != 0 &&
      (a.kind == ActionKind::kShow || a.kind == ActionKind::kMuck || a.kind == ActionKind::kDeal ||
       a.kind == ActionKind::kBurn || a.kind == ActionKind::kReshuffle)) {
    return Malformed({.what = Refusal::kNoChipsForStep,
                      .field = "amount_to",
                      .amount = a.amount_to,
                      .action = a.kind});
  }
  return absl::OkStatus();
}

absl::Status ApplyAction(HandState& st, const Action& a) {
  if (absl::Status s = CheckRequest(st, a); !s.ok()) return s;
  switch (st.phase) {
    case Phase::kComplete:
      return Refuse(RuleId::kGame1, {.what = Refusal::kHandOver});
    case Phase::kAwaitingDeal:
      return ApplyDeal(st, a);
    case Phase::kShowdown:
      return ApplyShowdown(st, a);
    case Phase::kBetting: {
      if (!IsBettingKind(a.kind) || a.seat != st.actor) {
        if (IsBettingKind(a.kind) && a.seat >= 1 && !st.seats[a.seat].can_act()) {
          return NotInTheBetting(st, a.seat);
        }
        if (IsBettingKind(a.kind)) {
          const RuleId rule = st.bring_in_due
                                  ? RuleId::kBring1
                                  : (st.street == Street::kThird ? RuleId::kBet1 : RuleId::kOrder1);
          return Refuse(rule, {.what = Refusal::kNotYourTurn,
                               .seat = a.seat,
                               .other_seat = st.actor,
                               .street = st.street});
        }
        return ExplainRefusal(st, a, {});
      }
      const LegalActionList legal = BettingOptions(st, a.seat);
      if (absl::Status s = CheckNoAmount(a, legal); !s.ok()) return s;
      const LegalAction* chosen = FindLegal(legal, a.kind, a.amount_to);
      if (chosen == nullptr) return ExplainRefusal(st, a, legal);
      ApplyAndAdvance(st, a.seat, *chosen);
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

}  // namespace internal

}  // namespace stud
