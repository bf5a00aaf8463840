// Irregularity rulings: the ruling's record (what changed), and the player
// and table irregularities (wrong opener, absent player, folds out of turn,
// card counts, calls when beaten, rearranged upcards, time-outs). Dealer
// errors are in irregularities_deal.cc; the table of kinds that dispatches
// to them in irregularity_table.cc.
#include "engine/irregularities.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/irregularities_internal.h"
#include "engine/irregularity_table.h"

namespace stud {
namespace internal {
namespace {

absl::Status NotNow(RuleId rule, absl::string_view why) { return RuleViolation(rule, why); }

bool Facing(const HandState& st, int seat) { return st.bet_to > st.seats[seat].street_bet; }

}  // namespace

// [STUD-IRR-WRONG-1]
absl::StatusOr<Outcome> RuleWrongOpener(HandState& st, const IrregularityReport& r) {
  constexpr RuleId kRule = RuleId::kIrrWrong1;
  if (absl::Status s = LiveOnly(st, kRule); !s.ok()) return s;
  if (!NoActionYet(st)) {
    return NotNow(kRule, "the opener is corrected only before anyone else has acted on the street");
  }
  if (r.seat == st.actor || !st.seats[r.seat].can_act()) {
    return NotNow(kRule, absl::StrCat(Seat(r.seat), " is not a wrongly designated opener: ",
                                      Seat(st.actor), " opens ", StreetName(st.street)));
  }
  const int right = st.actor;
  const bool third = st.street == Street::kThird;
  Outcome o{.rule_id = kRule};
  o.params = {.seat = r.seat, .other_seat = right, .street = st.street};
  if (!r.next_acted) {
    o.decision = Decision::kActionCorrected;
    o.en = absl::StrCat(
        Seat(r.seat),
        " was wrongly designated and acted, but the next player has "
        "not: the action is corrected. ",
        Seat(r.seat), " takes back its chips and ", Seat(right),
        third ? ", the true low card, must bring in." : ", the true high hand, must act.");
    o.es = absl::StrCat("El ", Asiento(r.seat),
                        " fue designado por error y actuó, pero el siguiente "
                        "jugador no: se corrige la acción. El ",
                        Asiento(r.seat), " recupera sus fichas y el ", Asiento(right),
                        third ? ", la verdadera carta baja, debe abrir."
                              : ", la verdadera mano alta, debe actuar.");
    return o;
  }
  // The wrong action stands and play continues from it.
  st.actor = r.seat;
  if (third && st.bring_in_due) st.bring_in_seat = r.seat;
  Log(st, {.type = OpType::kFirstToAct,
           .seat = static_cast<uint8_t>(r.seat),
           .street = st.street,
           .card = third ? DoorCard(st.seats[r.seat]) : Card(),
           .rule_id = kRule});
  const LegalActionList legal = BettingOptions(st, r.seat);
  const LegalAction* chosen = FindLegal(legal, r.action, r.amount_to);
  if (chosen == nullptr) {
    return ExplainRefusal(st, {.kind = r.action, .seat = r.seat, .amount_to = r.amount_to}, legal);
  }
  ApplyAndAdvance(st, r.seat, *chosen);
  o.decision = Decision::kActionStands;
  o.en = absl::StrCat("The next player has already acted after ", Seat(r.seat),
                      ": the action stands and play continues from there. ", Seat(right),
                      " has no obligation", third ? " to bring in." : ".");
  o.es = absl::StrCat("El siguiente jugador ya actuó después del ", Asiento(r.seat),
                      ": la acción se mantiene y el juego sigue desde ahí. El ", Asiento(right),
                      " no tiene ninguna obligación", third ? " de abrir." : ".");
  return o;
}

// [STUD-IRR-ABS-1]
absl::StatusOr<Outcome> RuleAbsent(HandState& st, const IrregularityReport& r) {
  constexpr RuleId kRule = RuleId::kIrrAbs1;
  const Options& opt = st.config.options;
  if (opt.profile == Profile::kOnline) {
    return NotNow(kRule, "online, an absent player is a time-out: report TIMEOUT (STUD-ALLIN-4)");
  }
  if (st.phase != Phase::kBetting) {
    return NotNow(kRule,
                  "an absent player's hand is killed during the betting, once everyone "
                  "has the starting hand");
  }
  const bool tournament = opt.absent_kill == AbsentKill::kAfterStartingHands;
  if (!tournament && r.seat != st.actor) {
    return NotNow(kRule,
                  absl::StrCat("in a cash game the hand is killed when the action reaches "
                               "the seat; report it when ",
                               Seat(r.seat), " is to act (", Seat(st.actor), " is to act now)"));
  }
  Outcome o{.rule_id = kRule, .decision = Decision::kHandKilled};
  o.params = {.seat = r.seat,
              .option = tournament ? RulingOption::kAbsentKillAfterStartingHands
                                   : RulingOption::kAbsentKillWhenActionReaches};
  o.alternative = tournament ? "absent_kill = AFTER_STARTING_HANDS (tournament)"
                             : "absent_kill = WHEN_ACTION_REACHES (cash)";
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
  o.en = absl::StrCat(
      Seat(r.seat), " is not at the table", tournament ? "" : " when it is to act",
      ": the hand is dead and the ante is forfeited",
      low ? "; the bring-in is posted from the stack and stands as the opening bet." : ".");
  o.es = absl::StrCat("El ", Asiento(r.seat), " no está en la mesa",
                      tournament ? "" : " cuando le toca actuar",
                      ": la mano está muerta y pierde el ante",
                      low ? "; la apuesta forzada se paga de su stack y queda como apuesta de "
                            "apertura."
                          : ".");
  return o;
}

// [STUD-IRR-FOLD-1], [STUD-IRR-FOLD-2]
absl::StatusOr<Outcome> RuleFoldOut(HandState& st, const IrregularityReport& r) {
  const bool picked_up = r.kind == IrregularityKind::kUpcardsPickedUp;
  const RuleId rule = picked_up ? RuleId::kIrrFold2 : RuleId::kIrrFold1;
  if (picked_up && st.phase == Phase::kShowdown) {
    // The betting is over: the showdown rule decides, not the fold rule.
    return Outcome{.rule_id = RuleId::kShow3,
                   .decision = Decision::kNoEffect,
                   .params = {.seat = r.seat},
                   .en = absl::StrCat("The betting is over: ", Seat(r.seat),
                                      " picking up its upcards "
                                      "means nothing; the hand is live until it is thrown away "
                                      "(STUD-SHOW-3)."),
                   .es = absl::StrCat("Las apuestas han terminado: que el ", Asiento(r.seat),
                                      " recoja sus cartas descubiertas no significa nada; la mano "
                                      "sigue viva hasta que se descarte (STUD-SHOW-3).")};
  }
  if (st.phase != Phase::kBetting || r.seat != st.actor) {
    return NotNow(
        rule, absl::StrCat("only the player to act can fold this way; ",
                           st.actor != 0 ? Seat(st.actor) : std::string("nobody"), " is to act"));
  }
  const bool facing = Facing(st, r.seat) || st.bring_in_due;
  if (picked_up && !facing) {
    return NotNow(rule,
                  "no bet is faced: this is a fold with no bet (checking out); report "
                  "CHECKED_OUT (STUD-IRR-FOLD-1)");
  }
  if (!picked_up && facing) {
    return NotNow(rule, "a bet is faced: this is an ordinary fold; apply a fold action");
  }
  const LegalActionList legal = BettingOptions(st, r.seat);
  const LegalAction* fold = FindLegal(legal, ActionKind::kFold, 0);
  if (fold == nullptr)
    return ExplainRefusal(st, {.kind = ActionKind::kFold, .seat = r.seat}, legal);
  ApplyAndAdvance(st, r.seat, *fold);
  if (picked_up) {
    return Outcome{.rule_id = rule,
                   .decision = Decision::kHandKilled,
                   .params = {.seat = r.seat},
                   .en = absl::StrCat(Seat(r.seat),
                                      " picked up its upcards facing a bet without "
                                      "calling: that is a fold and the hand is dead."),
                   .es = absl::StrCat("El ", Asiento(r.seat),
                                      " recogió sus cartas descubiertas "
                                      "ante una apuesta sin igualar: es un retiro y la mano está "
                                      "muerta.")};
  }
  const FoldWhenCheck mode = st.config.options.fold_when_check;
  Outcome o{.rule_id = rule, .decision = Decision::kCheckedOut, .params = {.seat = r.seat}};
  if (mode == FoldWhenCheck::kAtOnce) {
    o.params.option = RulingOption::kFoldWhenCheckAtOnce;
    o.alternative = "fold_when_check = AT_ONCE (online)";
    o.en =
        absl::StrCat(Seat(r.seat), " folded with no bet to face: the fold takes effect at once.");
    o.es = absl::StrCat("El ", Asiento(r.seat), " se retiró sin apuesta: el retiro es inmediato.");
  } else {
    if (mode == FoldWhenCheck::kLiveUntilBet) {
      o.params.option = RulingOption::kFoldWhenCheckLiveUntilBet;
      o.alternative = "fold_when_check = LIVE_UNTIL_BET";
    }
    o.en = absl::StrCat(Seat(r.seat),
                        " folded with no bet to face: the fold stands, but the seat "
                        "keeps receiving cards until a bet kills the hand, so nobody's cards "
                        "change.");
    o.es = absl::StrCat("El ", Asiento(r.seat),
                        " se retiró sin apuesta: el retiro vale, pero el "
                        "asiento sigue recibiendo cartas hasta que una apuesta anule la mano, "
                        "para no cambiar las cartas de nadie.");
  }
  return o;
}

// [STUD-IRR-CARDS-1]
absl::StatusOr<Outcome> RuleCardCount(HandState& st, const IrregularityReport& r) {
  constexpr RuleId kRule = RuleId::kIrrCards1;
  if (absl::Status s = LiveOnly(st, kRule); !s.ok()) return s;
  if (r.card_count < 0 || r.card_count == 7 || r.card_count > 8 + 7) {
    return absl::InvalidArgumentError("report.card_count: the cards the seat holds, not 7");
  }
  if (!st.seats[r.seat].live() || st.phase == Phase::kComplete) {
    return NotNow(kRule, absl::StrCat(Seat(r.seat), " has no live hand"));
  }
  Outcome o{.rule_id = kRule,
            .decision = Decision::kHandKilled,
            .params = {.seat = r.seat, .count = r.card_count}};
  if (r.card_count > 7) {
    Kill(st, r.seat, kRule);
    AfterSeatRemoved(st, r.seat);
    o.en = absl::StrCat(Seat(r.seat), " holds ", r.card_count,
                        " cards: a hand with more than seven "
                        "cards is dead.");
    o.es = absl::StrCat("El ", Asiento(r.seat), " tiene ", r.card_count,
                        " cartas: una mano con más "
                        "de siete cartas está muerta.");
    return o;
  }
  if (!(st.phase == Phase::kShowdown ||
        (st.phase == Phase::kBetting && st.street == Street::kSeventh))) {
    return NotNow(kRule, "a short hand is ruled at the showdown (7th street)");
  }
  const bool any_short = st.config.options.short_hand == ShortHand::kPlayerOptionAnyShort;
  // A seat skipped on an earlier street misses more than its 7th card.
  const bool live = any_short ? r.declare_live && r.card_count >= 5
                              : r.card_count == 6 && !MissesEarlierCard(st, r.seat);
  if (any_short) {
    o.params.option = RulingOption::kShortHandAnyShort;
    o.alternative = "short_hand = PLAYER_OPTION_ANY_SHORT";
  }
  if (live) {
    SetAside(st, r.seat, r.card_count, kRule);
    o.decision = Decision::kHandLive;
    o.en = absl::StrCat(Seat(r.seat), " has ", r.card_count, " cards at the showdown; ",
                        any_short ? "the player declares the hand live"
                                  : "a hand missing only its seventh card is live",
                        ": it plays the best five of its ", r.card_count, ".");
    o.es = absl::StrCat("El ", Asiento(r.seat), " tiene ", r.card_count, " cartas en el showdown; ",
                        any_short ? "el jugador declara la mano viva"
                                  : "una mano a la que solo le falta la séptima carta está viva",
                        ": juega las mejores cinco de sus ", r.card_count, ".");
    return o;
  }
  Kill(st, r.seat, kRule);
  AfterSeatRemoved(st, r.seat);
  o.en = absl::StrCat(Seat(r.seat), " has only ", r.card_count,
                      " cards at the showdown: the hand is "
                      "dead.");
  o.es = absl::StrCat("El ", Asiento(r.seat), " solo tiene ", r.card_count,
                      " cartas en el showdown: "
                      "la mano está muerta.");
  return o;
}

// [STUD-ALLIN-4], [STUD-ALLIN-5]
absl::StatusOr<Outcome> RuleTimeout(HandState& st, const IrregularityReport& r) {
  if (r.allowance_remaining < 0) {
    return absl::InvalidArgumentError("report.allowance_remaining: must not be negative");
  }
  if (st.phase != Phase::kBetting || r.seat != st.actor) {
    return NotNow(RuleId::kAllin4,
                  absl::StrCat("a time-out is ruled for the player to act; ",
                               st.actor != 0 ? Seat(st.actor) : "nobody", " is to act"));
  }
  const char* what_en = r.disconnect ? "disconnected" : "ran out of time";
  const char* what_es = r.disconnect ? "se desconectó" : "agotó su tiempo";
  if (r.allowance_remaining > 0) {
    ::stud::Seat& s = st.seats[r.seat];
    s.all_in = true;
    s.acted = true;
    s.acted_to = s.street_bet;
    if (st.allin_option_seat == r.seat) st.allin_option_seat = 0;
    Log(st, {.type = OpType::kTimeoutAllIn,
             .seat = static_cast<uint8_t>(r.seat),
             .street = st.street,
             .all_in = true,
             .amount = r.allowance_remaining - 1,
             .rule_id = RuleId::kAllin4});
    AfterSeatRemoved(st, r.seat);
    const int left = r.allowance_remaining - 1;
    return Outcome{
        .rule_id = RuleId::kAllin4,
        .decision = Decision::kTimeoutAllIn,
        .params = {.seat = r.seat, .count = left, .chips = s.committed, .disconnect = r.disconnect},
        .en = absl::StrCat(Seat(r.seat), " ", what_en, ": it is all-in for the ", s.committed,
                           " already in the pot and can win up to that; further bets go to a side "
                           "pot. Disconnect all-ins left this period: ",
                           left, "."),
        .es = absl::StrCat("El ", Asiento(r.seat), " ", what_es, ": queda all-in por las ",
                           s.committed,
                           " fichas que ya tiene en el bote y puede ganar hasta ahí; "
                           "las apuestas siguientes van a un bote lateral. All-ins por desconexión "
                           "que le quedan en el periodo: ",
                           left, "."),
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
    o.alternative = "exhausted_timeout_action = CHECK_IF_FREE";
    if (check != nullptr) {
      ApplyAndAdvance(st, r.seat, *check);
      o.decision = Decision::kTimeoutCheck;
      o.en = absl::StrCat(Seat(r.seat), " ", what_en,
                          " with its disconnect all-ins used up for the "
                          "period; with no bet to face it checks.");
      o.es = absl::StrCat("El ", Asiento(r.seat), " ", what_es,
                          " sin all-ins por desconexión en el "
                          "periodo; sin apuesta que igualar, pasa.");
      return o;
    }
  }
  if (const LegalAction* fold = FindLegal(legal, ActionKind::kFold, 0); fold != nullptr) {
    ApplyAndAdvance(st, r.seat, *fold);
  } else {
    Kill(st, r.seat, RuleId::kAllin5);
    AfterSeatRemoved(st, r.seat);
  }
  o.en = absl::StrCat(Seat(r.seat), " ", what_en,
                      " with its disconnect all-ins used up for the "
                      "period: the hand is folded.");
  o.es = absl::StrCat("El ", Asiento(r.seat), " ", what_es,
                      " sin all-ins por desconexión en el "
                      "periodo: la mano se retira.");
  return o;
}

// [STUD-IRR-CALL-1]
absl::StatusOr<Outcome> RuleCalledWhenBeaten(HandState&, const IrregularityReport& r) {
  return Outcome{.rule_id = RuleId::kIrrCall1,
                 .decision = Decision::kNoRefund,
                 .params = {.seat = r.seat},
                 .en = absl::StrCat(Seat(r.seat),
                                    " called while beaten on board: no refund; "
                                    "the call bought information the board did not give."),
                 .es = absl::StrCat("El ", Asiento(r.seat),
                                    " igualó ya ganado por las cartas "
                                    "descubiertas: no hay devolución; pagó por información.")};
}

// [STUD-GAME-5]
absl::StatusOr<Outcome> RuleUpcardsReordered(HandState&, const IrregularityReport& r) {
  return Outcome{.rule_id = RuleId::kGame5,
                 .decision = Decision::kWarning,
                 .params = {.seat = r.seat},
                 .en = absl::StrCat(Seat(r.seat),
                                    ": changing the order of your upcards is "
                                    "improper; put them back in the order dealt."),
                 .es = absl::StrCat("El ", Asiento(r.seat),
                                    ": cambiar el orden de las cartas "
                                    "descubiertas es incorrecto; vuelva a ponerlas en orden.")};
}

absl::Status LiveOnly(const HandState& st, RuleId rule) {
  if (st.config.deal_source == DealSource::kReported) return absl::OkStatus();
  return RuleViolation(rule,
                       "the engine deals this hand and designates the opener: this dealer "
                       "error cannot occur (LIVE dealing only)");
}

namespace {

// The whole ruling on a scratch copy: checks, record, dispatch by kind.
absl::StatusOr<Outcome> RuleOnCopy(HandState& st, const IrregularityReport& r) {
  const int n = st.config.num_seats;
  // Every field is checked before anything changes.
  if (absl::Status s = ValidateReport(st, r); !s.ok()) return s;
  if (st.phase == Phase::kComplete && r.kind != IrregularityKind::kCalledWhenBeaten) {
    return RuleViolation(RuleId::kGame1, "the hand is over; nothing left to rule on");
  }
  const size_t at = st.log.size();
  st.reports.push_back(r);
  Log(st, {.type = OpType::kRuling,
           .seat = static_cast<uint8_t>(std::clamp(r.seat, 0, n)),
           .street = st.street,
           .amount = static_cast<Chips>(st.reports.size() - 1)});
  absl::StatusOr<Outcome> o = RulesOf(r.kind).rule(st, r);
  if (!o.ok()) return o.status();
  RulingsAfterStep(st);  // the ruling may have brought the turn to a held action
  st.log[at].rule_id = o->rule_id;
  st.log[at].amount_to = static_cast<Chips>(st.log.size() - at - 1);
  return o;
}

}  // namespace

absl::StatusOr<Ruling> RuleOn(HandState& work, const IrregularityReport& report,
                              const HandState& before) {
  const size_t first = work.log.size();
  absl::StatusOr<Outcome> o = RuleOnCopy(work, report);
  if (!o.ok()) return o.status();
  Ruling r{.rule_id = o->rule_id,
           .decision = o->decision,
           .params = std::move(o->params),
           .explanation_en = std::move(o->en),
           .explanation_es = std::move(o->es),
           .alternative = std::move(o->alternative),
           .redeal_en = std::move(o->redeal_en),
           .redeal_es = std::move(o->redeal_es)};
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
