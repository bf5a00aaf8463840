// Every ruling in words, pinned: for each kind of ruling (rule, decision,
// option and variant) the English and Spanish explanation, the option text
// and the redeal instructions exactly as the API answers them
// (text/ruling_text.h). The cases were recorded from the rulings the
// engine's tests make when the sentences moved out of the engine; the last
// few are variants those tests do not reach. A change here is a change every
// client sees. Burn errors, premature cards and skipped seats here; exposed cards in
// ruling_text_exposed_test.cc; player and table irregularities in
// ruling_text_test.cc.
#include <gtest/gtest.h>

#include "ruling_text_cases.h"

namespace stud::text {
namespace {

const RulingTextCase kCases[] = {
    {.rule = RuleId::kIrrBurn1,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kSkippedSeat,
                .seat = 1,
                .has_card = true,
                .card = C("As"),
                .street = Street::kFourth},
     .text = {.en = "Seat 1 was skipped on 4th street and it is found before anyone has acted: the "
                    "dealer gives it the missed card (As) and the hand plays normally.",
              .es = "Al asiento 1 le faltó la carta de 4a calle y se descubre antes de que nadie "
                    "actúe: el dealer le da la carta (As) y la mano sigue con normalidad."}},
    {.rule = RuleId::kIrrBurn1,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError},
     .text = {.en = "The dealer did not burn a card: the cards are put back in their proper order "
                    "and the misplaced card becomes the burn, known to everyone.",
              .es = "El dealer no quemó carta: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos."}},
    {.rule = RuleId::kIrrBurn1,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError, .burned_two = true},
     .text = {.en = "The dealer burned two cards: the cards are put back in their proper order and "
                    "the misplaced card becomes the burn, known to everyone.",
              .es = "El dealer quemó dos cartas: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos."}},
    {.rule = RuleId::kIrrBurn1,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError, .street = Street::kFourth},
     .text = {.en = "The dealer did not burn a card: the cards are put back in their proper order "
                    "and the misplaced card becomes the burn, known to everyone.",
              .es = "El dealer no quemó carta: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos."}},
    {.rule = RuleId::kIrrBurn1,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError,
                .street = Street::kFourth,
                .burned_two = true},
     .text = {.en = "The dealer burned two cards: the cards are put back in their proper order and "
                    "the misplaced card becomes the burn, known to everyone.",
              .es = "El dealer quemó dos cartas: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos."}},
    {.rule = RuleId::kIrrBurn2,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError, .street = Street::kSeventh},
     .text = {.en = "The dealer did not burn a card: the cards are put back in their proper order "
                    "and the misplaced card becomes the burn, known to everyone.",
              .es = "El dealer no quemó carta: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos."}},
    {.rule = RuleId::kIrrBurn2,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError,
                .street = Street::kSeventh,
                .kept = {1},
                .num_kept = 1},
     .text = {.en = "The dealer did not burn a card: the cards are put back in their proper order "
                    "and the misplaced card becomes the burn, known to everyone. Seats 1 mixed in "
                    "or looked at the card and keep it.",
              .es = "El dealer no quemó carta: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos. Los asientos 1 "
                    "mezclaron o miraron la carta y se la quedan."}},
    {.rule = RuleId::kIrrBurn2,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kBurnError,
                .street = Street::kSeventh,
                .kept = {1},
                .num_kept = 1,
                .burned_two = true},
     .text = {.en = "The dealer burned two cards: the cards are put back in their proper order and "
                    "the misplaced card becomes the burn, known to everyone. Seats 1 mixed in or "
                    "looked at the card and keep it.",
              .es = "El dealer quemó dos cartas: las cartas vuelven a su orden correcto y la carta "
                    "fuera de lugar pasa a ser la quemada, a la vista de todos. Los asientos 1 "
                    "mezclaron o miraron la carta y se la quedan."}},
    {.rule = RuleId::kIrrBurn2,
     .decision = Decision::kCardsStand,
     .params = {.kind = IrregularityKind::kBurnError,
                .street = Street::kSeventh,
                .option = RulingOption::kFinalBurnAllStand},
     .text = {.en = "The dealer did not burn a card before the final downcard: every player "
                    "accepts the card dealt and play continues.",
              .es = "El dealer no quemó carta antes de la última carta tapada: todos aceptan la "
                    "carta recibida y el juego sigue.",
              .alternative = "final_burn_error = ALL_STAND"}},
    {.rule = RuleId::kIrrBurn2,
     .decision = Decision::kCardsStand,
     .params = {.kind = IrregularityKind::kBurnError,
                .street = Street::kSeventh,
                .option = RulingOption::kFinalBurnAllStand,
                .burned_two = true},
     .text = {.en = "The dealer burned two cards before the final downcard: every player accepts "
                    "the card dealt and play continues.",
              .es = "El dealer quemó dos cartas antes de la última carta tapada: todos aceptan la "
                    "carta recibida y el juego sigue.",
              .alternative = "final_burn_error = ALL_STAND"}},
    {.rule = RuleId::kIrrBurn2,
     .decision = Decision::kCardsStand,
     .params = {.kind = IrregularityKind::kBurnError,
                .street = Street::kSeventh,
                .kept = {8},
                .num_kept = 1,
                .option = RulingOption::kFinalBurnAllStand,
                .burned_two = true},
     .text = {.en = "The dealer burned two cards before the final downcard: every player accepts "
                    "the card dealt and play continues.",
              .es = "El dealer quemó dos cartas antes de la última carta tapada: todos aceptan la "
                    "carta recibida y el juego sigue.",
              .alternative = "final_burn_error = ALL_STAND"}},
    {.rule = RuleId::kIrrPrem1,
     .decision = Decision::kCardsTakenOut,
     .params = {.kind = IrregularityKind::kPrematureDeal, .count = 1},
     .text = {.en = "1 card(s) were dealt before the betting on 3rd street was over: they are "
                    "taken out of play. When the betting is complete, one more card for each "
                    "player still in is taken out, then the dealer burns and deals. The removed "
                    "cards are kept aside in case the deck runs out.",
              .es = "1 carta(s) se repartieron antes de terminar las apuestas de 3a calle: se "
                    "retiran del juego. Al terminar las apuestas se retira una carta más por cada "
                    "jugador que siga en la mano; luego el dealer quema y reparte. Las cartas "
                    "retiradas se guardan aparte por si se acaba la baraja."}},
    {.rule = RuleId::kIrrPrem1,
     .decision = Decision::kCardsTakenOut,
     .params = {.kind = IrregularityKind::kPrematureDeal, .street = Street::kFourth, .count = 1},
     .text = {.en = "1 card(s) were dealt before the betting on 4th street was over: they are "
                    "taken out of play. When the betting is complete, one more card for each "
                    "player still in is taken out, then the dealer burns and deals. The removed "
                    "cards are kept aside in case the deck runs out.",
              .es = "1 carta(s) se repartieron antes de terminar las apuestas de 4a calle: se "
                    "retiran del juego. Al terminar las apuestas se retira una carta más por cada "
                    "jugador que siga en la mano; luego el dealer quema y reparte. Las cartas "
                    "retiradas se guardan aparte por si se acaba la baraja."}},
    {.rule = RuleId::kIrrPrem2,
     .decision = Decision::kPlayerKeepsCard,
     .params = {.kind = IrregularityKind::kPrematureDeal, .seat = 1, .street = Street::kSeventh},
     .text = {.en = "seat 1 looked at its final downcard dealt too early: it keeps it and gets no "
                    "other card. That player may bet or raise on 6th street, because seat 1 "
                    "already holds seven cards.",
              .es = "El asiento 1 miró su última carta tapada repartida antes de tiempo: se la "
                    "queda y no recibe otra. Ese jugador no puede apostar ni subir en 6a calle, "
                    "porque el asiento 1 ya tiene siete cartas."}},
    {.rule = RuleId::kIrrPrem2,
     .decision = Decision::kPlayerKeepsCard,
     .params = {.kind = IrregularityKind::kPrematureDeal,
                .seat = 1,
                .street = Street::kSeventh,
                .option = RulingOption::kPrematureSeventhAllPlayers},
     .text = {.en = "seat 1 looked at its final downcard dealt too early: it keeps it and gets no "
                    "other card. Nobody may bet or raise on 6th street, because seat 1 already "
                    "holds seven cards.",
              .es = "El asiento 1 miró su última carta tapada repartida antes de tiempo: se la "
                    "queda y no recibe otra. Nadie puede apostar ni subir en 6a calle, porque el "
                    "asiento 1 ya tiene siete cartas.",
              .alternative = "premature_seventh = ALL_PLAYERS"}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandKilled,
     .params =
         {.kind = IrregularityKind::kSkippedSeat, .seat = 1, .street = Street::kFourth, .count = 6},
     .text = {.en = "Seat 1 has only 6 cards at the showdown (its 4th street card was never "
                    "dealt): the hand is dead.",
              .es = "El asiento 1 solo tiene 6 cartas en el showdown (nunca recibió la carta de 4a "
                    "calle): la mano está muerta."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kSkippedSeat,
                .seat = 1,
                .street = Street::kSixth,
                .while_dealing = true},
     .text = {.en = "Seat 1 was skipped on 6th street and now misses three cards: it can no longer "
                    "hold five cards at the showdown, so the hand is dead.",
              .es = "El asiento 1 se quedó sin carta en 6a calle y ya le faltan tres: no puede "
                    "llegar a cinco cartas en el showdown, así que la mano está muerta."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandLive,
     .params = {.kind = IrregularityKind::kSkippedSeat,
                .seat = 1,
                .street = Street::kFourth,
                .count = 6,
                .option = RulingOption::kShortHandAnyShort},
     .text = {.en = "Seat 1 has 6 cards at the showdown; the player declares the hand live: it "
                    "plays the best five of its 6.",
              .es = "El asiento 1 tiene 6 cartas en el showdown; el jugador declara la mano viva: "
                    "juega las mejores cinco de sus 6.",
              .alternative = "short_hand = PLAYER_OPTION_ANY_SHORT"}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandLive,
     .params = {.kind = IrregularityKind::kSkippedSeat,
                .seat = 1,
                .street = Street::kSeventh,
                .count = 6},
     .text = {.en = "Seat 1 has 6 cards at the showdown; a hand missing only its seventh card is "
                    "live: it plays the best five of its 6.",
              .es = "El asiento 1 tiene 6 cartas en el showdown; una mano a la que solo le falta "
                    "la séptima carta está viva: juega las mejores cinco de sus 6."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kPlaysShort,
     .params = {.kind = IrregularityKind::kSkippedSeat, .seat = 1, .street = Street::kFourth},
     .text =
         {.en = "Seat 1 missed its 4th street card and players have acted since: it keeps playing "
                "short. At the showdown the hand is dead unless it misses only its seventh card.",
          .es = "Al asiento 1 le faltó la carta de 4a calle y ya se ha actuado: sigue jugando con "
                "la mano corta. En el showdown la mano está muerta salvo que solo le falte la "
                "séptima carta."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kPlaysShort,
     .params = {.kind = IrregularityKind::kSkippedSeat,
                .seat = 1,
                .street = Street::kFourth,
                .while_dealing = true},
     .text = {.en =
                  "Seat 1 was skipped on 4th street: the deal and the betting go on with the hand "
                  "short a card. Found before anyone acts on the street, the missed card is given; "
                  "at the showdown a short hand is dead unless it misses only its seventh card.",
              .es = "El asiento 1 se quedó sin carta en 4a calle: el reparto y las apuestas siguen "
                    "con la mano corta. Si se descubre antes de que nadie actúe en la calle, se le "
                    "da la carta; en el showdown una mano corta está muerta salvo que solo le "
                    "falte la séptima carta."}},
    {.rule = RuleId::kIrrBurn1,
     .decision = Decision::kCardsCorrected,
     .params = {.kind = IrregularityKind::kSkippedSeat,
                .seat = 4,
                .street = Street::kSeventh,
                .face_down = true},
     .text = {.en = "Seat 4 was skipped on 7th street and it is found before anyone has acted: the "
                    "dealer gives it the missed card (face down) and the hand plays normally.",
              .es = "Al asiento 4 le faltó la carta de 7a calle y se descubre antes de que nadie "
                    "actúe: el dealer le da la carta (tapada) y la mano sigue con normalidad."}},
    {.rule = RuleId::kIrrPrem2,
     .decision = Decision::kPlayerKeepsCard,
     .params = {.kind = IrregularityKind::kPrematureDeal,
                .seat = 3,
                .street = Street::kSeventh,
                .more_cards = true},
     .text = {.en = "seat 3 looked at its final downcard dealt too early: it keeps it and gets no "
                    "other card. That player may bet or raise on 6th street, because seat 3 "
                    "already holds seven cards. The other early cards are taken out of play.",
              .es = "El asiento 3 miró su última carta tapada repartida antes de tiempo: se la "
                    "queda y no recibe otra. Ese jugador no puede apostar ni subir en 6a calle, "
                    "porque el asiento 3 ya tiene siete cartas. Las demás cartas adelantadas se "
                    "retiran del juego."}},
};

TEST(RulingText, DealerErrorsWordedAsBefore) { ExpectWordedAsBefore(kCases); }

}  // namespace
}  // namespace stud::text
