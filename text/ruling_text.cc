// The rulings on player and table irregularities in words (wrong opener,
// absent player, folds out of turn, card counts, time-outs, calls when
// beaten, rearranged upcards, actions out of turn), the dispatch by kind and
// the option values. Dealer errors are worded in ruling_text_deal.cc.
#include "text/ruling_text.h"

#include "absl/strings/str_cat.h"
#include "text/vocabulary.h"

namespace stud::text {
namespace {

using words::ActionText;
using words::SeatEn;
using words::SeatEs;

// [STUD-IRR-WRONG-1] a wrongly designated opener acted.
RulingText WrongOpener(Decision decision, const RulingParams& p) {
  const bool third = p.street == Street::kThird;
  if (decision == Decision::kActionCorrected) {
    return {.en = absl::StrCat(
                SeatEn(p.seat),
                " was wrongly designated and acted, but the next player has "
                "not: the action is corrected. ",
                SeatEn(p.seat), " takes back its chips and ", SeatEn(p.other_seat),
                third ? ", the true low card, must bring in." : ", the true high hand, must act."),
            .es = absl::StrCat("El ", SeatEs(p.seat),
                               " fue designado por error y actuó, pero el siguiente "
                               "jugador no: se corrige la acción. El ",
                               SeatEs(p.seat), " recupera sus fichas y el ", SeatEs(p.other_seat),
                               third ? ", la verdadera carta baja, debe abrir."
                                     : ", la verdadera mano alta, debe actuar.")};
  }
  return {
      .en = absl::StrCat("The next player has already acted after ", SeatEn(p.seat),
                         ": the action stands and play continues from there. ",
                         SeatEn(p.other_seat), " has no obligation", third ? " to bring in." : "."),
      .es = absl::StrCat("El siguiente jugador ya actuó después del ", SeatEs(p.seat),
                         ": la acción se mantiene y el juego sigue desde ahí. El ",
                         SeatEs(p.other_seat), " no tiene ninguna obligación",
                         third ? " de abrir." : ".")};
}

// [STUD-IRR-ABS-1]
RulingText Absent(Decision decision, const RulingParams& p) {
  const bool tournament = p.option == RulingOption::kAbsentKillAfterStartingHands;
  const bool low = decision == Decision::kBringInPostedHandKilled;
  return {.en = absl::StrCat(
              SeatEn(p.seat), " is not at the table", tournament ? "" : " when it is to act",
              ": the hand is dead and the ante is forfeited",
              low ? "; the bring-in is posted from the stack and stands as the opening bet." : "."),
          .es = absl::StrCat(
              "El ", SeatEs(p.seat), " no está en la mesa",
              tournament ? "" : " cuando le toca actuar", ": la mano está muerta y pierde el ante",
              low ? "; la apuesta forzada se paga de su stack y queda como apuesta de "
                    "apertura."
                  : ".")};
}

// [STUD-IRR-FOLD-1], [STUD-IRR-FOLD-2], [STUD-SHOW-3]
RulingText FoldOut(RuleId rule, Decision decision, const RulingParams& p) {
  if (rule == RuleId::kShow3) {
    return {.en = absl::StrCat("The betting is over: ", SeatEn(p.seat),
                               " picking up its upcards "
                               "means nothing; the hand is live until it is thrown away (",
                               RuleIdName(rule), ")."),
            .es = absl::StrCat("Las apuestas han terminado: que el ", SeatEs(p.seat),
                               " recoja sus cartas descubiertas no significa nada; la mano "
                               "sigue viva hasta que se descarte (",
                               RuleIdName(rule), ").")};
  }
  if (decision == Decision::kHandKilled) {
    return {.en = absl::StrCat(SeatEn(p.seat),
                               " picked up its upcards facing a bet without "
                               "calling: that is a fold and the hand is dead."),
            .es = absl::StrCat("El ", SeatEs(p.seat),
                               " recogió sus cartas descubiertas "
                               "ante una apuesta sin igualar: es un retiro y la mano está "
                               "muerta.")};
  }
  if (p.option == RulingOption::kFoldWhenCheckAtOnce) {
    return {.en = absl::StrCat(SeatEn(p.seat),
                               " folded with no bet to face: the fold takes effect at once."),
            .es = absl::StrCat("El ", SeatEs(p.seat),
                               " se retiró sin apuesta: el retiro es inmediato.")};
  }
  return {.en = absl::StrCat(SeatEn(p.seat),
                             " folded with no bet to face: the fold stands, but the seat "
                             "keeps receiving cards until a bet kills the hand, so nobody's "
                             "cards change."),
          .es = absl::StrCat("El ", SeatEs(p.seat),
                             " se retiró sin apuesta: el retiro vale, pero el "
                             "asiento sigue recibiendo cartas hasta que una apuesta anule la "
                             "mano, para no cambiar las cartas de nadie.")};
}

// [STUD-IRR-CARDS-1] the table counted a seat's cards.
RulingText CardCount(Decision decision, const RulingParams& p) {
  if (decision == Decision::kHandLive) return ruling_text::ShortHandLive(p, /*cap=*/false);
  if (p.count > 7) {
    return {.en = absl::StrCat(SeatEn(p.seat), " holds ", p.count,
                               " cards: a hand with more than seven cards is dead."),
            .es = absl::StrCat("El ", SeatEs(p.seat), " tiene ", p.count,
                               " cartas: una mano con más de siete cartas está muerta.")};
  }
  return {.en = absl::StrCat(SeatEn(p.seat), " has only ", p.count,
                             " cards at the showdown: the hand is dead."),
          .es = absl::StrCat("El ", SeatEs(p.seat), " solo tiene ", p.count,
                             " cartas en el showdown: la mano está muerta.")};
}

// [STUD-ALLIN-4], [STUD-ALLIN-5]
RulingText Timeout(Decision decision, const RulingParams& p) {
  const char* what_en = p.disconnect ? "disconnected" : "ran out of time";
  const char* what_es = p.disconnect ? "se desconectó" : "agotó su tiempo";
  switch (decision) {
    case Decision::kTimeoutAllIn:
      return {.en = absl::StrCat(SeatEn(p.seat), " ", what_en, ": it is all-in for the ", p.chips,
                                 " already in the pot and can win up to that; further bets go "
                                 "to a side pot. Disconnect all-ins left this period: ",
                                 p.count, "."),
              .es = absl::StrCat("El ", SeatEs(p.seat), " ", what_es, ": queda all-in por las ",
                                 p.chips,
                                 " fichas que ya tiene en el bote y puede ganar hasta ahí; "
                                 "las apuestas siguientes van a un bote lateral. All-ins por "
                                 "desconexión que le quedan en el periodo: ",
                                 p.count, ".")};
    case Decision::kTimeoutCheck:
      return {.en = absl::StrCat(SeatEn(p.seat), " ", what_en,
                                 " with its disconnect all-ins used up for the "
                                 "period; with no bet to face it checks."),
              .es = absl::StrCat("El ", SeatEs(p.seat), " ", what_es,
                                 " sin all-ins por desconexión en el "
                                 "periodo; sin apuesta que igualar, pasa.")};
    default:
      return {.en = absl::StrCat(SeatEn(p.seat), " ", what_en,
                                 " with its disconnect all-ins used up for the "
                                 "period: the hand is folded."),
              .es = absl::StrCat("El ", SeatEs(p.seat), " ", what_es,
                                 " sin all-ins por desconexión en el "
                                 "periodo: la mano se retira.")};
  }
}

// [STUD-IRR-WRONG-1] chips put in out of turn (irregularities_outofturn.cc).
RulingText OutOfTurn(Decision decision, const RulingParams& p) {
  const std::string action = ActionText(p.action, p.amount_to);
  if (decision == Decision::kActionCorrected) {
    return {
        .en = absl::StrCat(SeatEn(p.seat), " acted out of turn (", action, "): ", SeatEn(p.seat),
                           " takes back its ", p.chips, " chips and ", SeatEn(p.other_seat),
                           " must act; ", SeatEn(p.seat), " acts anew when its turn comes."),
        .es = absl::StrCat("El ", SeatEs(p.seat), " actuó fuera de turno (", action,
                           "): recupera sus ", p.chips, " fichas y debe actuar el ",
                           SeatEs(p.other_seat), "; el ", SeatEs(p.seat),
                           " actuará de nuevo en su turno.")};
  }
  return {.en = absl::StrCat(SeatEn(p.seat), " acted out of turn (", action,
                             "): ", SeatEn(p.other_seat), " must act. The ", p.chips,
                             " chips stay in the pot; if nobody bets or raises before ",
                             SeatEn(p.seat), "'s turn, the action stands, otherwise the chips ",
                             "come back and ", SeatEn(p.seat), " acts anew."),
          .es = absl::StrCat("El ", SeatEs(p.seat), " actuó fuera de turno (", action,
                             "): debe actuar el ", SeatEs(p.other_seat), ". Las ", p.chips,
                             " fichas quedan en el bote; si nadie apuesta ni sube antes del "
                             "turno del ",
                             SeatEs(p.seat),
                             ", la acción vale; si no, recupera las fichas y actúa de nuevo.")};
}

}  // namespace

absl::string_view OptionText(RulingOption option) {
  switch (option) {
    case RulingOption::kNone:
      return "";
    case RulingOption::kAbsentKillAfterStartingHands:
      return "absent_kill = AFTER_STARTING_HANDS (tournament)";
    case RulingOption::kAbsentKillWhenActionReaches:
      return "absent_kill = WHEN_ACTION_REACHES (cash)";
    case RulingOption::kFoldWhenCheckAtOnce:
      return "fold_when_check = AT_ONCE (online)";
    case RulingOption::kFoldWhenCheckLiveUntilBet:
      return "fold_when_check = LIVE_UNTIL_BET";
    case RulingOption::kShortHandAnyShort:
      return "short_hand = PLAYER_OPTION_ANY_SHORT";
    case RulingOption::kExhaustedTimeoutCheckIfFree:
      return "exhausted_timeout_action = CHECK_IF_FREE";
    case RulingOption::kDeadHandLowOpenerForced:
      return "dead_hand_low_opener = LEFT_PLAYER_FORCED";
    case RulingOption::kExposedHolecardDealThirdDown:
      return "exposed_holecard = DEAL_THIRD_DOWN (cash)";
    case RulingOption::kExposedHolecardMisdeal:
      return "exposed_holecard = MISDEAL (tournament)";
    case RulingOption::kExposedHolecardMisdealAntesKept:
      return "exposed_holecard = MISDEAL (tournament), misdeal_antes = STAY_IN_POT";
    case RulingOption::kFaceupFinalActFirst:
      return "faceup_final_option = ACT_FIRST";
    case RulingOption::kFinalBurnAllStand:
      return "final_burn_error = ALL_STAND";
    case RulingOption::kPrematureSeventhAllPlayers:
      return "premature_seventh = ALL_PLAYERS";
    case RulingOption::kOutOfTurnBinding:
      return "out_of_turn_binding = true";
  }
  return "";
}

RulingText RenderRuling(const Ruling& ruling) {
  const RulingParams& p = ruling.params;
  RulingText text;
  switch (p.kind) {
    case IrregularityKind::kWrongOpener:
      text = WrongOpener(ruling.decision, p);
      break;
    case IrregularityKind::kAbsentPlayer:
      text = Absent(ruling.decision, p);
      break;
    case IrregularityKind::kCheckedOut:
    case IrregularityKind::kUpcardsPickedUp:
      text = FoldOut(ruling.rule_id, ruling.decision, p);
      break;
    case IrregularityKind::kWrongCardCount:
      text = CardCount(ruling.decision, p);
      break;
    case IrregularityKind::kTimeout:
      text = Timeout(ruling.decision, p);
      break;
    case IrregularityKind::kActionOutOfTurn:
      text = OutOfTurn(ruling.decision, p);
      break;
    case IrregularityKind::kCalledWhenBeaten:  // [STUD-IRR-CALL-1]
      text = {.en = absl::StrCat(SeatEn(p.seat),
                                 " called while beaten on board: no refund; "
                                 "the call bought information the board did not give."),
              .es = absl::StrCat("El ", SeatEs(p.seat),
                                 " igualó ya ganado por las cartas "
                                 "descubiertas: no hay devolución; pagó por información.")};
      break;
    case IrregularityKind::kUpcardsReordered:  // [STUD-GAME-5]
      text = {.en = absl::StrCat(SeatEn(p.seat),
                                 ": changing the order of your upcards is "
                                 "improper; put them back in the order dealt."),
              .es = absl::StrCat("El ", SeatEs(p.seat),
                                 ": cambiar el orden de las cartas "
                                 "descubiertas es incorrecto; vuelva a ponerlas en orden.")};
      break;
    case IrregularityKind::kHolecardExposed:
    case IrregularityKind::kBothHolecardsExposed:
    case IrregularityKind::kCardOffTable:
    case IrregularityKind::kFinalCardFaceUp:
    case IrregularityKind::kBurnError:
    case IrregularityKind::kPrematureDeal:
    case IrregularityKind::kSkippedSeat:
      text = ruling_text::DealerError(ruling.decision, p);
      break;
  }
  text.alternative = std::string(OptionText(p.option));
  return text;
}

RulingText SeedingClosedText() {
  return {.en =
              "Seeding is closed: every seat that sent no seed is dealt without one, and the "
              "hand is dealt now.",
          .es =
              "Se cierra la siembra: los asientos que no enviaron semilla juegan sin ella y la "
              "mano se reparte ahora."};
}

}  // namespace stud::text
