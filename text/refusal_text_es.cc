// The Spanish words of the engine's refusals (text/refusal_text.h): a real
// sentence with the same facts as the English.
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/hand_state.h"  // kBoardSeat
#include "text/refusal_text.h"
#include "text/refusal_text_internal.h"
#include "text/vocabulary.h"

namespace stud::text {
namespace {

using R = Refusal;
using internal::AmountList;

using words::ActionEs;
using words::StreetEs;

std::string SeatOrNobodyEs(int seat) {
  return seat != 0 ? absl::StrCat("el asiento ", seat) : std::string("nadie");
}

std::string CouldEs(const RefusalFacts& f) {
  std::string out;
  for (int i = 0; i < f.num_amounts && i < static_cast<int>(f.amounts.size()); ++i) {
    const size_t k = static_cast<size_t>(i);
    absl::StrAppend(&out, i == 0 ? "" : ", ", ActionEs(f.actions[k]));
    if (f.amounts[k] >= 0) absl::StrAppend(&out, " a ", f.amounts[k]);
  }
  return out;
}

}  // namespace

std::string RefusalWhyEs(const RefusalFacts& f) {
  const std::string card = f.card.ToString();
  const std::string seat = absl::StrCat("el asiento ", f.seat);
  switch (f.what) {
    case R::kNone:
      return "no se permite";
    // Betting.
    case R::kStackTooShort:
      return absl::StrCat(seat, " solo tiene ", f.chips, " fichas detrás; puede ir all-in hasta ",
                          f.amount);
    case R::kWrongAmount:
      return absl::StrCat(ActionEs(f.action), " debe ser a ", AmountList(f, " o "), " en ",
                          StreetEs(f.street), ", no a ", f.amount, " (límite fijo)");
    case R::kShowdownNotReached:
      return "aún no se ha llegado al showdown; las apuestas siguen abiertas";
    case R::kNoCardDue:
      return "ahora no toca repartir ninguna carta; la ronda de apuestas está abierta";
    case R::kNoBurnDue:
      return "ahora no toca quemar ninguna carta; la ronda de apuestas está abierta";
    case R::kNoReshuffleDue:
      return "ahora no toca rebarajar; la ronda de apuestas está abierta";
    case R::kNoAllInOption:
      return absl::StrCat(seat, " no tiene ninguna opción de all-in que responder");
    case R::kAllInOptionFirst:
      return absl::StrCat("la última carta del asiento ", f.seat,
                          " se repartió boca arriba: primero se declara all-in o rechaza la "
                          "opción");
    case R::kNobodyCouldCallComplete:
      return "ningún otro jugador en la mano puede poner más que el bring-in, así que nadie "
             "podría igualar una completa; ponga el bring-in";
    case R::kBringInDue:
      return absl::StrCat(seat, " abre la 3a calle y debe poner el bring-in de ",
                          AmountList(f, " o "), " o completar a ", f.chips);
    case R::kCheckFacingBet:
      return absl::StrCat("no se puede pasar ante una apuesta de ", f.amount,
                          "; iguale, suba o retírese");
    case R::kNothingToCall:
      return "no hay apuesta que igualar; pase o apueste";
    case R::kFoldWithoutBet:
      return "en esta mano no se permite retirarse sin apuesta delante; pase";
    case R::kBringInOnlyOnThird:
      return "el bring-in solo se pone para abrir la 3a calle";
    case R::kCannotCoverMoreThanCall:
      return absl::StrCat(seat, " no puede cubrir más que igualar");
    case R::kNobodyCouldCallMore:
      return "todos los demás jugadores en la mano están all-in o como mucho pueden igualar: "
             "nadie podría igualar más, así que solo cabe igualar, pasar o retirarse";
    case R::kNoBetAfterPremature:
      return absl::StrCat(f.flag ? absl::StrCat(seat, " ya tiene su 7a carta")
                                 : std::string("un jugador ya tiene una 7a carta prematura"),
                          ": no se apuesta ni se sube en 6a calle; pase, iguale o retírese");
    case R::kNotReopened:
      return "un all-in corto no reabre las apuestas para quien ya actuó; iguale o retírese";
    case R::kCapped:
      return absl::StrCat("las apuestas están topadas tras ", f.count,
                          " subidas; iguale o retírese");
    case R::kCompletionNext:
      return absl::StrCat("tras el bring-in, la siguiente apuesta completa es completar a ",
                          f.chips);
    case R::kAlreadyCompleted:
      return "la apuesta ya se completó; suba";
    case R::kRaiseInstead:
      return absl::StrCat("ya hay una apuesta de ", f.amount, "; suba a ", AmountList(f, " o "));
    case R::kBetInstead:
      return absl::StrCat(f.flag ? "lo apostado delante no llega a una apuesta completa; "
                                 : "no hay apuesta que subir; ",
                          "apueste ", AmountList(f, " o "), " en lugar de ", ActionEs(f.action));
    // The hand's configuration.
    case R::kVariantUnknown:
      return "debe ser stud, stud hi-lo o razz";
    case R::kSeatCount:
      return absl::StrCat(f.count, " asientos; una mesa de stud tiene de 2 a 8 (STUD-DECK-1)");
    case R::kStackOutOfRange:
      return absl::StrCat("debe ser positivo y como mucho 2^40 fichas; se recibió ", f.chips);
    case R::kDeckCardTwice:
      return absl::StrCat(card, " aparece dos veces; la baraja tiene cada carta una sola vez");
    case R::kDeckIncomplete:
      return absl::StrCat("debe listar las 52 cartas en orden de reparto; se recibieron ", f.count);
    case R::kDeckNotTaken:
      return "el reparto informado no admite un orden de baraja";
    case R::kAnteNegative:
      return "no puede ser negativo (STUD-SETUP-2)";
    case R::kSmallBetNotPositive:
      return "debe ser positiva (STUD-STAKES-1)";
    case R::kBigBetNotLarger:
      return "debe ser mayor que la apuesta pequeña (STUD-STAKES-1)";
    case R::kBringInOutOfRange:
      return "debe ser positivo y menor que la apuesta pequeña; completar a la apuesta pequeña "
             "es la otra opción del jugador del bring-in (STUD-BRING-4, STUD-STAKES-3)";
    case R::kStakesTooLarge:
      return "no se admiten cantidades por encima de 2^40 fichas";
    case R::kMaxRaisesOutOfRange:
      return absl::StrCat(f.count, " está fuera del rango 1..100 (STUD-CAP-1)");
    case R::kOddChipUnitNotPositive:
      return "debe ser positiva (STUD-ODD-5)";
    case R::kDisconnectAllInsNegative:
      return "no puede ser negativo (STUD-ALLIN-5)";
    case R::kCarriedAnteOutOfRange:
      return absl::StrCat(f.amount, " no es un ante de un asiento de esta mano (de 0 al ante ",
                          f.chips, ", asientos 1..", f.count, ") (STUD-IRR-EXP-1)");
    // Requests and dealing.
    case R::kCardOwedFirst:
      return absl::StrCat("el crupier debe antes una carta: ",
                          f.other_seat == kBoardSeat ? std::string("la carta común")
                                                     : absl::StrCat("asiento ", f.other_seat),
                          "; infórmela con una acción de reparto");
    case R::kWrongDeal:
      return absl::StrCat(
          "la siguiente carta va ", f.flag ? "boca arriba" : "boca abajo", " a ",
          f.other_seat == kBoardSeat ? std::string("la mesa (carta común)")
                                     : absl::StrCat("el asiento ", f.other_seat),
          " en ", StreetEs(f.street), "; el informe dice ",
          f.face_up ? "boca arriba" : "boca abajo", " al asiento ", f.seat, "; ",
          f.seat != f.other_seat
              ? "una carta dada al asiento equivocado se corrige donde se pueda y se informa para "
                "el asiento correcto, o se informa como BURN_ERROR con las cartas corregidas "
                "(STUD-IRR-BURN-1)"
              : (f.flag ? "désela la vuelta e infórmela boca arriba"
                        : "informe la irregularidad con RuleIrregularity"));
    case R::kHandDead:
      return absl::StrCat("la mano del asiento ", f.seat, " está muerta (", RuleIdName(f.rule),
                          "); ya no actúa");
    case R::kAllInNoMoreAction:
      return absl::StrCat(seat, " está all-in; ya no actúa");
    case R::kFolded:
      return absl::StrCat(seat, " se ha retirado");
    case R::kNoChipsForKind:
      return absl::StrCat(ActionEs(f.action), " no pone fichas; envíe 0 (o el total de la calle ",
                          f.chips, " que lista LegalActions), no ", f.amount);
    case R::kNoChipsForStep:
      return absl::StrCat(ActionEs(f.action), " no pone fichas; envíe 0, no ", f.amount);
    case R::kNotACard:
      return "no es una carta";
    case R::kCardBurned:
      return absl::StrCat(card,
                          " se quemó; una carta quemada solo vuelve con un rebarajado "
                          "(STUD-DECK-1)");
    case R::kCardInPlay:
      return absl::StrCat(card, " ya está en juego; cada carta se reparte una vez");
    case R::kReshuffleFirst:
      return absl::StrCat("al resto de la baraja le quedan ", f.count, " carta(s) y la ",
                          StreetEs(f.street),
                          " necesita más: informe primero el rebarajado (RESHUFFLE) de las "
                          "quemadas, las apartadas y el resto");
    case R::kSeatNotAtTable:
      return absl::StrCat(f.seat, " no es un asiento de esta mesa (asientos 1..", f.count, ")");
    case R::kHandOver:
      return "la mano ha terminado; empiece una nueva";
    case R::kNotYourTurn:
      return absl::StrCat("es el turno del asiento ", f.other_seat, " en ", StreetEs(f.street),
                          ", no del asiento ", f.seat);
    case R::kStubShortAfterBurn:
      return absl::StrCat("tras la quemada al resto le quedan ", f.count, " carta(s) para ",
                          f.limit,
                          " jugadores: informe la quemada (BURN) y después el rebarajado de las "
                          "quemadas, las apartadas y el resto (RESHUFFLE)");
    case R::kDealerStepSeat:
      return absl::StrCat("la acción ", ActionEs(f.action),
                          " se informa con el asiento 0 (el crupier); se recibió ", f.seat);
    case R::kReshuffleNotDue:
      return absl::StrCat("no toca rebarajar: al resto aún le quedan ", f.count,
                          " carta(s) para lo que necesita la ", StreetEs(f.street));
    case R::kCardBurnedTwice:
      return absl::StrCat(card, " ya está en juego; cada carta se quema una vez");
    case R::kUnseenBurnFaceUp:
      return "una quemada mostrada boca arriba nombra su carta";
    case R::kReshuffleBeforeBurn:
      return absl::StrCat("al resto le quedan ", f.count,
                          " carta(s): informe primero el rebarajado de las quemadas, las "
                          "apartadas y el resto");
    case R::kNoBurnBeforeThird:
      return "en esta mano no se quema carta antes de la 3a calle";
    case R::kBurnSkipped:
      return "el resto es corto: se omite la quemada para que cada jugador reciba una carta sin "
             "usar";
    case R::kSecondBurn:
      return absl::StrCat("la quemada de la ", StreetEs(f.street),
                          " ya está hecha; una segunda quemada es un error del crupier: "
                          "infórmela como BURN_ERROR (burn_delta +1) con las cartas corregidas");
    case R::kShowOrMuck:
      return "las apuestas han terminado; la mano está en el showdown: muestre o tire las cartas";
    case R::kShowsFirst:
      return absl::StrCat(seat, " muestra primero");
    case R::kCardUnreadable:
      return absl::StrCat("'", f.text,
                          "' no es una carta; escriba el rango y luego el palo, como As, Td o 2c");
    case R::kRulingWithoutReport:
      return "una decisión remite a un informe que falta";
    // Settling a described showdown.
    case R::kSettleSeatOutOfRange:
      return absl::StrCat(f.seat, " no está en 1..8");
    case R::kSettleSeatTwice:
      return absl::StrCat(seat, " aparece dos veces");
    case R::kCommittedNegative:
      return "es negativo";
    case R::kSettleCardTwice:
      return absl::StrCat(card, " aparece dos veces");
    case R::kLiveHandCardCount:
      return absl::StrCat("una mano viva necesita de 5 a 7 cartas y tiene ", f.count,
                          " (STUD-IRR-CARDS-1)");
    case R::kShortHandNotLive:
      return absl::StrCat(seat, " tiene ", f.count,
                          " cartas; solo una mano a la que le falta únicamente la 7a puede "
                          "declararse viva; envíela como mano muerta (retirada)");
    case R::kNoLiveHand:
      return "al menos una mano debe estar viva para repartir los botes";
    // Irregularity reports.
    case R::kSeatOutOfRange:
      return absl::StrCat("debe estar en 1..", f.count);
    case R::kFromDealMismatch:
      return "solo lo pone el motor para un reparto informado que revela un error del crupier; "
             "este informe no lo es";
    case R::kCardRequired:
      return "es obligatorio para este tipo";
    case R::kNotCardOfSeat:
      return absl::StrCat(card, " no es una carta del asiento ", f.seat);
    case R::kHoleCardsCount:
      return absl::StrCat("nombre las dos cartas tapadas del asiento ", f.seat,
                          " o ninguna; se recibieron ", f.count);
    case R::kCardNamedTwice:
      return absl::StrCat(card, " se nombra dos veces");
    case R::kNotHoleCardOfSeat:
      return absl::StrCat(card, " no es una carta tapada del asiento ", f.seat);
    case R::kNotBettingAction:
      return "una acción de apuesta: FOLD, CHECK, CALL, BRING_IN, COMPLETE, BET o RAISE";
    case R::kAmountAboveStack:
      return absl::StrCat(seat, " puede poner como mucho ", f.chips, " en esta calle");
    case R::kNextActedUnread:
      return "este tipo no lo lee; déjelo en false";
    case R::kFoldCheckNoChips:
      return "retirarse o pasar no pone fichas; déjelo en 0";
    case R::kAmountNotAboveStreetBet:
      return absl::StrCat("el total del asiento en la calle tras actuar; ", seat, " ya tiene ",
                          f.chips, " puestas");
    case R::kStreetOutOfRange:
      return "debe estar en 3..7";
    case R::kBurnDelta:
      return "+1 (dos cartas quemadas) o -1 (ninguna quemada)";
    case R::kTooManyPerSeat:
      return absl::StrCat("como mucho uno por asiento (", f.count, "); se recibieron ", f.limit);
    case R::kSeatMovedTwice:
      return absl::StrCat(seat, " se mueve dos veces");
    case R::kMisplacedAndCorrected:
      return absl::StrCat(card, " es a la vez la carta mal colocada y una carta corregida");
    case R::kCardWithoutHasCard:
      return "puesto sin has_card";
    case R::kKeptOnlyFinal:
      return "solo una última carta tapada la conserva quien la mezcló o la miró";
    case R::kSeatNamedTwice:
      return absl::StrCat(seat, " se nombra dos veces");
    case R::kPrematureSeatWithoutCard:
      return "solo con report.card, la última carta tapada prematura que el jugador conserva; "
             "déjelo en 0";
    case R::kTooManyEarlyCards:
      return absl::StrCat("como mucho una carta adelantada por jugador que sigue en la mano (",
                          f.count, "); se recibieron ", f.limit);
    case R::kCardCount:
      return "las cartas que tiene el asiento, no 7 (0..6 u 8..15)";
    case R::kNotCalled:
      return absl::StrCat(seat, " no ha igualado en esta mano");
    case R::kNoUpcards:
      return absl::StrCat(seat, " no tiene una mano viva con cartas descubiertas");
    case R::kAllowanceNegative:
      return "no puede ser negativo";
    case R::kUnknownKind:
      return "irregularidad desconocida";
    case R::kFromDealNoKind:
      return "ningún reparto informado equivale a este tipo";
    case R::kFieldUnread:
      return "este tipo no lo lee; déjelo en su valor por defecto";
    // Rulings on irregularities.
    case R::kOpenerAfterAction:
      return "el abridor solo se corrige antes de que nadie más haya actuado en la calle";
    case R::kNotWrongOpener:
      return absl::StrCat(seat, " no es un abridor mal designado: abre el asiento ", f.other_seat,
                          " la ", StreetEs(f.street));
    case R::kAbsentOnline:
      return "en línea, un jugador ausente es un tiempo agotado: informe TIMEOUT (STUD-ALLIN-4)";
    case R::kAbsentOutsideBetting:
      return "la mano de un jugador ausente se mata durante las apuestas, cuando todos tienen su "
             "mano inicial";
    case R::kAbsentNotReached:
      return absl::StrCat(
          "en una partida de cash la mano se mata cuando la acción llega al asiento; infórmelo "
          "cuando le toque al asiento ",
          f.seat, " (ahora le toca al asiento ", f.other_seat, ")");
    case R::kFoldNotToAct:
      return absl::StrCat("solo el jugador al que le toca puede retirarse así; le toca a ",
                          SeatOrNobodyEs(f.other_seat));
    case R::kPickedUpWithoutBet:
      return "no hay apuesta delante: es retirarse sin apuesta (checking out); informe "
             "CHECKED_OUT (STUD-IRR-FOLD-1)";
    case R::kCheckedOutFacingBet:
      return "hay una apuesta delante: es un retiro normal; aplique una acción de retirarse";
    case R::kCardCountSeven:
      return "las cartas que tiene el asiento, no 7";
    case R::kSeatHasNoLiveHand:
      return absl::StrCat(seat, " no tiene una mano viva");
    case R::kShortHandBeforeShowdown:
      return "una mano corta se decide en el showdown (7a calle)";
    case R::kTimeoutNotToAct:
      return absl::StrCat("un tiempo agotado se decide para el jugador al que le toca; le toca a ",
                          SeatOrNobodyEs(f.other_seat));
    case R::kLiveDealingOnly:
      return "el motor reparte esta mano y designa al abridor: este error del crupier no puede "
             "ocurrir (solo con reparto LIVE)";
    case R::kNothingLeftToRule:
      return "la mano ha terminado; no queda nada que decidir";
    case R::kCardAlreadyInPlay:
      return absl::StrCat(card, " ya está en juego");
    case R::kThirdCardAlreadyDealt:
      return absl::StrCat(seat,
                          " ya tiene su tercera carta; una carta tapada expuesta se decide antes "
                          "de repartir la tercera");
    case R::kBothHoleCardsTooLate:
      return "las dos cartas tapadas se deciden una vez repartidas, antes de que empiecen las "
             "apuestas de la 3a calle";
    case R::kHoleCardTooLate:
      return "una carta tapada expuesta se decide antes de las apuestas de la 3a calle";
    case R::kFinalCardTooLate:
      return "una última carta boca arriba se decide antes de las apuestas de la 7a calle";
    case R::kNotExposable:
      return "solo puede exponerse una carta tapada de la 3a calle o la última carta";
    case R::kBurnErrorTooLate:
      return absl::StrCat(
          "un error de quemada se corrige en la calle en que ocurrió, antes de que nadie actúe en "
          "ella (ahora ",
          StreetEs(f.street), ")");
    case R::kMovesUnderAllStand:
      return "con final_burn_error = ALL_STAND todas las cartas se mantienen; no informe "
             "movimientos";
    case R::kMoveSeatInvalid:
      return "un asiento 1..N con una carta de la 4a a la 7a calle";
    case R::kMoveSeatNoCard:
      return absl::StrCat(seat, " no tiene carta de la ", StreetEs(f.street));
    case R::kMoveKeptSeat:
      return absl::StrCat(seat, " mezcló o miró su última carta y debe conservarla");
    case R::kMoveCardInPlay:
      return absl::StrCat(card, " ya está en juego en otro sitio o se repite");
    case R::kPrematureNotNext:
      return "las cartas prematuras son las de la calle siguiente, repartidas con las apuestas "
             "de esta calle aún abiertas";
    case R::kPrematureNoCards:
      return "nombre las cartas repartidas antes de tiempo (o report.card con report.seat para "
             "una última carta tapada que el jugador conserva)";
    case R::kPrematureKeepNotLive:
      return "solo puede conservarse la última carta tapada prematura de un jugador vivo";
    case R::kCardNamedTwiceInList:
      return "una carta se nombra dos veces";
    case R::kOutOfTurnOnline:
      return "en línea, el servicio solo acepta una acción del asiento al que le toca";
    case R::kOutOfTurnOutsideBetting:
      return "una acción fuera de turno se decide durante una ronda de apuestas";
    case R::kOutOfTurnIsToAct:
      return absl::StrCat("le toca al asiento ", f.seat, ": aplique su acción");
    case R::kOutOfTurnNoAction:
      return absl::StrCat(seat, " ya no tiene acción en esta mano");
    case R::kOutOfTurnWaiting:
      return "otra acción fuera de turno sigue esperando el turno de su asiento";
    case R::kOutOfTurnImpossible: {
      const bool no_chips = f.action == ActionKind::kFold || f.action == ActionKind::kCheck;
      return absl::StrCat(seat, " no podría ", ActionEs(f.action),
                          no_chips ? "" : absl::StrCat(" a ", f.amount),
                          " ni en su turno; podría: ", CouldEs(f));
    }
    case R::kSkippedCardCountUnread:
      return "SKIPPED_SEAT no lo lee (el motor cuenta las cartas del asiento); déjelo en 0";
    case R::kDeclareLiveWithCard:
      return "una mano corta se declara viva en el showdown, no con la carta omitida";
    case R::kSkippedThirdStreet:
      return "la mano inicial se completa antes del bring-in: informe la carta omitida de la 3a "
             "calle como un reparto a ese asiento";
    case R::kStreetNotDealt:
      return absl::StrCat("la ", StreetEs(f.street), " aún no se ha repartido (ahora ",
                          StreetEs(f.current), ")");
    case R::kDealNotReached:
      return absl::StrCat("el reparto no ha llegado al asiento ", f.seat, " en la ",
                          StreetEs(f.street), "; al asiento ", f.other_seat,
                          " se le debe la siguiente carta");
    case R::kNotSkipped:
      return absl::StrCat(seat, " tiene su carta de la ", StreetEs(f.street), ": no se le omitió");
    case R::kDealNotPassed:
      return absl::StrCat("el reparto no ha pasado del asiento ", f.seat,
                          ": informe esa carta como repartida a él");
    case R::kMissedCardTooLate:
      return absl::StrCat("la carta omitida de la ", StreetEs(f.street),
                          " solo puede darse antes de que nadie actúe en esa calle; ", seat,
                          " juega corto: informe SKIPPED_SEAT sin carta");
  }
  return "no se permite";
}

std::string RefusalEs(const RefusalFacts& f) {
  if (f.rule != RuleId::kNone) {
    return absl::StrCat("La regla ", RuleIdName(f.rule), " no lo permite: ",
                        f.field.empty() ? "" : absl::StrCat("«", f.field, "»: "), RefusalWhyEs(f),
                        ".");
  }
  if (f.field.empty()) return absl::StrCat("Solicitud no válida: ", RefusalWhyEs(f), ".");
  return absl::StrCat("Solicitud no válida: revise el campo «", f.field, "»: ", RefusalWhyEs(f),
                      ".");
}

}  // namespace stud::text
