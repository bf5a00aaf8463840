// Every ruling in words, pinned: for each kind of ruling (rule, decision,
// option and variant) the English and Spanish explanation, the option text
// and the redeal instructions exactly as the API answers them
// (text/ruling_text.h). The cases were recorded from the rulings the
// engine's tests make when the sentences moved out of the engine; the last
// few are variants those tests do not reach. A change here is a change every
// client sees. Exposed cards and misdeals here; other dealer errors in
// ruling_text_deal_test.cc; player and table irregularities in
// ruling_text_test.cc.
#include <gtest/gtest.h>

#include "ruling_text_cases.h"

namespace stud::text {
namespace {

const RulingTextCase kCases[] = {
    {.rule = RuleId::kIrrExp1,
     .decision = Decision::kThirdCardDown,
     .params = {.kind = IrregularityKind::kHolecardExposed,
                .seat = 1,
                .has_card = true,
                .card = C("2c"),
                .option = RulingOption::kExposedHolecardDealThirdDown},
     .text = {.en = "A hole card of seat 1 (2c) was dealt face up: it stays face up as the "
                    "player's upcard, and the third card is dealt face down.",
              .es = "Una carta tapada del asiento 1 (2c) se repartió descubierta: queda "
                    "descubierta como su carta abierta, y la tercera carta se reparte tapada.",
              .alternative = "exposed_holecard = DEAL_THIRD_DOWN (cash)"}},
    {.rule = RuleId::kIrrExp1,
     .decision = Decision::kMisdeal,
     .params = {.kind = IrregularityKind::kHolecardExposed,
                .seat = 1,
                .option = RulingOption::kExposedHolecardMisdeal},
     .text = {.en = "A hole card of seat 1 was dealt face up: in tournament play that is a "
                    "misdeal. The hand is void and every ante is returned.",
              .es = "Una carta tapada del asiento 1 se repartió descubierta: en torneo es un "
                    "misdeal. La mano se anula y se devuelven todos los antes.",
              .alternative = "exposed_holecard = MISDEAL (tournament)",
              .redeal_en = "Collect every card, shuffle and cut, keep the button where it is, post "
                           "the antes again and deal the hand again to the same players.",
              .redeal_es =
                  "Recoja todas las cartas, baraje y corte, deje el botón donde está, vuelva a "
                  "poner los antes y reparta de nuevo la mano a los mismos jugadores."}},
    {.rule = RuleId::kIrrExp1,
     .decision = Decision::kMisdeal,
     .params = {.kind = IrregularityKind::kHolecardExposed,
                .seat = 2,
                .option = RulingOption::kExposedHolecardMisdealAntesKept},
     .text = {.en = "A hole card of seat 2 was dealt face up: in tournament play that is a "
                    "misdeal. The hand is void and the antes stay in the pot for the redeal.",
              .es =
                  "Una carta tapada del asiento 2 se repartió descubierta: en torneo es un "
                  "misdeal. La mano se anula y los antes se quedan en el bote para la nueva mano.",
              .alternative = "exposed_holecard = MISDEAL (tournament), misdeal_antes = STAY_IN_POT",
              .redeal_en = "Collect every card, shuffle and cut, keep the button where it is and "
                           "deal the hand again to the same players: the antes stay in the pot, "
                           "nobody posts a new ante (start the new hand with redeal_of).",
              .redeal_es =
                  "Recoja todas las cartas, baraje y corte, deje el botón donde está y reparta de "
                  "nuevo la mano a los mismos jugadores: los antes se quedan en el bote y nadie "
                  "pone un ante nuevo (empiece la nueva mano con redeal_of)."}},
    {.rule = RuleId::kIrrExp1,
     .decision = Decision::kNoEffect,
     .params =
         {.kind = IrregularityKind::kHolecardExposed, .seat = 1, .has_card = true, .card = C("4h")},
     .text = {.en = "4h is an upcard of seat 1: exposing it changes nothing.",
              .es = "4h es una carta descubierta del asiento 1: que se vea no cambia nada."}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kMisdeal,
     .params = {.kind = IrregularityKind::kBothHolecardsExposed,
                .seat = 1,
                .option = RulingOption::kExposedHolecardMisdeal},
     .text = {.en = "A hole card of seat 1 was dealt face up: in tournament play that is a "
                    "misdeal. The hand is void and every ante is returned.",
              .es = "Una carta tapada del asiento 1 se repartió descubierta: en torneo es un "
                    "misdeal. La mano se anula y se devuelven todos los antes.",
              .alternative = "exposed_holecard = MISDEAL (tournament)",
              .redeal_en = "Collect every card, shuffle and cut, keep the button where it is, post "
                           "the antes again and deal the hand again to the same players.",
              .redeal_es =
                  "Recoja todas las cartas, baraje y corte, deje el botón donde está, vuelva a "
                  "poner los antes y reparta de nuevo la mano a los mismos jugadores."}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kHandDeadAnteReturned,
     .params = {.kind = IrregularityKind::kHolecardExposed, .seat = 1},
     .text =
         {.en = "Both hole cards of seat 1 were dealt face up: the hand is dead and the ante is "
                "returned. If its first exposed card would have been the low card, the bring-in is "
                "not passed on: the player to its left opens and may fold, bring in or complete.",
          .es = "Las dos cartas tapadas del asiento 1 se repartieron descubiertas: la mano está "
                "muerta y se le devuelve el ante. Si su primera carta descubierta hubiera sido la "
                "más baja, la apuesta forzada no pasa a otro: abre el jugador de su izquierda, que "
                "puede retirarse, abrir o completar."}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kHandDeadAnteReturned,
     .params = {.kind = IrregularityKind::kHolecardExposed,
                .seat = 7,
                .option = RulingOption::kDeadHandLowOpenerForced},
     .text = {.en =
                  "Both hole cards of seat 7 were dealt face up: the hand is dead and the ante is "
                  "returned. If its first exposed card would have been the low card, the bring-in "
                  "is not passed on: the player to its left opens and must bring in or complete.",
              .es = "Las dos cartas tapadas del asiento 7 se repartieron descubiertas: la mano "
                    "está muerta y se le devuelve el ante. Si su primera carta descubierta hubiera "
                    "sido la más baja, la apuesta forzada no pasa a otro: abre el jugador de su "
                    "izquierda, que debe abrir o completar.",
              .alternative = "dead_hand_low_opener = LEFT_PLAYER_FORCED"}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kHandDeadAnteReturned,
     .params = {.kind = IrregularityKind::kBothHolecardsExposed, .seat = 1},
     .text =
         {.en = "Both hole cards of seat 1 were dealt face up: the hand is dead and the ante is "
                "returned. If its first exposed card would have been the low card, the bring-in is "
                "not passed on: the player to its left opens and may fold, bring in or complete.",
          .es = "Las dos cartas tapadas del asiento 1 se repartieron descubiertas: la mano está "
                "muerta y se le devuelve el ante. Si su primera carta descubierta hubiera sido la "
                "más baja, la apuesta forzada no pasa a otro: abre el jugador de su izquierda, que "
                "puede retirarse, abrir o completar."}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kHandDeadAnteReturned,
     .params = {.kind = IrregularityKind::kBothHolecardsExposed,
                .seat = 1,
                .option = RulingOption::kDeadHandLowOpenerForced},
     .text = {.en =
                  "Both hole cards of seat 1 were dealt face up: the hand is dead and the ante is "
                  "returned. If its first exposed card would have been the low card, the bring-in "
                  "is not passed on: the player to its left opens and must bring in or complete.",
              .es = "Las dos cartas tapadas del asiento 1 se repartieron descubiertas: la mano "
                    "está muerta y se le devuelve el ante. Si su primera carta descubierta hubiera "
                    "sido la más baja, la apuesta forzada no pasa a otro: abre el jugador de su "
                    "izquierda, que debe abrir o completar.",
              .alternative = "dead_hand_low_opener = LEFT_PLAYER_FORCED"}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kHandDeadAnteReturned,
     .params = {.kind = IrregularityKind::kCardOffTable, .seat = 1},
     .text =
         {.en = "Both hole cards of seat 1 were dealt face up: the hand is dead and the ante is "
                "returned. If its first exposed card would have been the low card, the bring-in is "
                "not passed on: the player to its left opens and may fold, bring in or complete.",
          .es = "Las dos cartas tapadas del asiento 1 se repartieron descubiertas: la mano está "
                "muerta y se le devuelve el ante. Si su primera carta descubierta hubiera sido la "
                "más baja, la apuesta forzada no pasa a otro: abre el jugador de su izquierda, que "
                "puede retirarse, abrir o completar."}},
    {.rule = RuleId::kIrrExp2,
     .decision = Decision::kHandDeadAnteReturned,
     .params = {.kind = IrregularityKind::kCardOffTable,
                .seat = 1,
                .option = RulingOption::kDeadHandLowOpenerForced},
     .text = {.en =
                  "Both hole cards of seat 1 were dealt face up: the hand is dead and the ante is "
                  "returned. If its first exposed card would have been the low card, the bring-in "
                  "is not passed on: the player to its left opens and must bring in or complete.",
              .es = "Las dos cartas tapadas del asiento 1 se repartieron descubiertas: la mano "
                    "está muerta y se le devuelve el ante. Si su primera carta descubierta hubiera "
                    "sido la más baja, la apuesta forzada no pasa a otro: abre el jugador de su "
                    "izquierda, que debe abrir o completar.",
              .alternative = "dead_hand_low_opener = LEFT_PLAYER_FORCED"}},
    {.rule = RuleId::kIrrExp3,
     .decision = Decision::kThirdCardDown,
     .params = {.kind = IrregularityKind::kCardOffTable,
                .seat = 1,
                .has_card = true,
                .card = C("2c"),
                .option = RulingOption::kExposedHolecardDealThirdDown},
     .text = {.en = "A hole card of seat 1 (2c) was dealt face up: it stays face up as the "
                    "player's upcard, and the third card is dealt face down.",
              .es = "Una carta tapada del asiento 1 (2c) se repartió descubierta: queda "
                    "descubierta como su carta abierta, y la tercera carta se reparte tapada.",
              .alternative = "exposed_holecard = DEAL_THIRD_DOWN (cash)"}},
    {.rule = RuleId::kIrrExp3,
     .decision = Decision::kMisdeal,
     .params = {.kind = IrregularityKind::kCardOffTable,
                .seat = 1,
                .option = RulingOption::kExposedHolecardMisdeal},
     .text = {.en = "A hole card of seat 1 was dealt face up: in tournament play that is a "
                    "misdeal. The hand is void and every ante is returned.",
              .es = "Una carta tapada del asiento 1 se repartió descubierta: en torneo es un "
                    "misdeal. La mano se anula y se devuelven todos los antes.",
              .alternative = "exposed_holecard = MISDEAL (tournament)",
              .redeal_en = "Collect every card, shuffle and cut, keep the button where it is, post "
                           "the antes again and deal the hand again to the same players.",
              .redeal_es =
                  "Recoja todas las cartas, baraje y corte, deje el botón donde está, vuelva a "
                  "poner los antes y reparta de nuevo la mano a los mismos jugadores."}},
    {.rule = RuleId::kIrrExp3,
     .decision = Decision::kNoEffect,
     .params =
         {.kind = IrregularityKind::kCardOffTable, .seat = 1, .has_card = true, .card = C("2c")},
     .text = {.en = "2c is an upcard of seat 1: exposing it changes nothing.",
              .es = "2c es una carta descubierta del asiento 1: que se vea no cambia nada."}},
    {.rule = RuleId::kIrrExp4,
     .decision = Decision::kKeepFaceUp,
     .params = {.kind = IrregularityKind::kFinalCardFaceUp, .seat = 1},
     .text = {.en = "seat 1 is all-in: it keeps its final card face up; everyone else gets the "
                    "final card face down as usual.",
              .es = "El asiento 1 está all-in: se queda su última carta descubierta; los demás "
                    "reciben la suya tapada como siempre."}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kNoEffect,
     .params =
         {.kind = IrregularityKind::kFinalCardFaceUp, .seat = 1, .has_card = true, .card = C("2c")},
     .text = {.en = "2c is an upcard of seat 1: exposing it changes nothing.",
              .es = "2c es una carta descubierta del asiento 1: que se vea no cambia nada."}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kAllInOption,
     .params = {.kind = IrregularityKind::kFinalCardFaceUp, .seat = 1, .others_down = true},
     .text = {.en = "The final card of seat 1 was dealt face up. Everyone else gets the final card "
                    "face down. Seat 1 may declare all-in before the betting: no more chips from "
                    "it, later bets go to a side pot. Then the high hand on board acts first.",
              .es = "La última carta del asiento 1 se repartió descubierta. Los demás reciben la "
                    "última carta tapada. El asiento 1 puede declararse all-in antes de las "
                    "apuestas: no pone más fichas y las apuestas siguientes van a un bote lateral. "
                    "Luego habla primero la mano alta."}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kAllInOption,
     .params = {.kind = IrregularityKind::kFinalCardFaceUp, .seat = 2},
     .text = {.en = "The final card of seat 2 was dealt face up. Seat 2 may declare all-in before "
                    "the betting: no more chips from it, later bets go to a side pot. Then the "
                    "high hand on board acts first.",
              .es = "La última carta del asiento 2 se repartió descubierta. El asiento 2 puede "
                    "declararse all-in antes de las apuestas: no pone más fichas y las apuestas "
                    "siguientes van a un bote lateral. Luego habla primero la mano alta."}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kActFirstOption,
     .params = {.kind = IrregularityKind::kFinalCardFaceUp,
                .seat = 1,
                .option = RulingOption::kFaceupFinalActFirst,
                .others_down = true},
     .text =
         {.en = "The final card of seat 1 was dealt face up. Everyone else gets the final card "
                "face down. Seat 1 may act before the betting starts.",
          .es =
              "La última carta del asiento 1 se repartió descubierta. Los demás reciben la última "
              "carta tapada. El asiento 1 puede actuar antes de que empiecen las apuestas.",
          .alternative = "faceup_final_option = ACT_FIRST"}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kActFirstOption,
     .params = {.kind = IrregularityKind::kFinalCardFaceUp,
                .seat = 3,
                .option = RulingOption::kFaceupFinalActFirst},
     .text = {.en = "The final card of seat 3 was dealt face up. Seat 3 may act before the betting "
                    "starts.",
              .es = "La última carta del asiento 3 se repartió descubierta. El asiento 3 puede "
                    "actuar antes de que empiecen las apuestas.",
              .alternative = "faceup_final_option = ACT_FIRST"}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kBothFinalCardsUp,
     .params = {.kind = IrregularityKind::kHolecardExposed, .seat = 1, .other_seat = 2},
     .text = {.en = "Heads-up, the first player's final card was dealt face up: seat 2's final "
                    "card is dealt face up too and the betting proceeds normally; the high hand on "
                    "board acts first.",
              .es = "Mano a mano, la última carta del primer jugador salió descubierta: la del "
                    "asiento 2 también se reparte descubierta y las apuestas siguen normalmente; "
                    "habla primero la mano alta."}},
    {.rule = RuleId::kIrrExp5,
     .decision = Decision::kBothFinalCardsUp,
     .params = {.kind = IrregularityKind::kFinalCardFaceUp, .seat = 1, .other_seat = 2},
     .text = {.en = "Heads-up, the first player's final card was dealt face up: seat 2's final "
                    "card is dealt face up too and the betting proceeds normally; the high hand on "
                    "board acts first.",
              .es = "Mano a mano, la última carta del primer jugador salió descubierta: la del "
                    "asiento 2 también se reparte descubierta y las apuestas siguen normalmente; "
                    "habla primero la mano alta."}},
};

TEST(RulingText, ExposedCardsWordedAsBefore) { ExpectWordedAsBefore(kCases); }

}  // namespace
}  // namespace stud::text
