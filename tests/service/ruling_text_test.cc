// Every ruling in words, pinned: for each kind of ruling (rule, decision,
// option and variant) the English and Spanish explanation, the option text
// and the redeal instructions exactly as the API answers them
// (text/ruling_text.h). The cases were recorded from the rulings the
// engine's tests make when the sentences moved out of the engine; the last
// few are variants those tests do not reach. A change here is a change every
// client sees. Player and table irregularities here; dealer errors in
// ruling_text_deal_test.cc.
#include <gtest/gtest.h>

#include "ruling_text_cases.h"

namespace stud::text {
namespace {

const RulingTextCase kCases[] = {
    {.rule = RuleId::kAllin4,
     .decision = Decision::kTimeoutAllIn,
     .params = {.kind = IrregularityKind::kTimeout, .seat = 1, .chips = 100, .disconnect = true},
     .text = {.en =
                  "seat 1 disconnected: it is all-in for the 100 already in the pot and can win up "
                  "to that; further bets go to a side pot. Disconnect all-ins left this period: 0.",
              .es = "El asiento 1 se desconectó: queda all-in por las 100 fichas que ya tiene en "
                    "el bote y puede ganar hasta ahí; las apuestas siguientes van a un bote "
                    "lateral. All-ins por desconexión que le quedan en el periodo: 0."}},
    {.rule = RuleId::kAllin4,
     .decision = Decision::kTimeoutAllIn,
     .params = {.kind = IrregularityKind::kTimeout, .seat = 1, .chips = 200},
     .text =
         {.en =
              "seat 1 ran out of time: it is all-in for the 200 already in the pot and can win up "
              "to that; further bets go to a side pot. Disconnect all-ins left this period: 0.",
          .es = "El asiento 1 agotó su tiempo: queda all-in por las 200 fichas que ya tiene en el "
                "bote y puede ganar hasta ahí; las apuestas siguientes van a un bote lateral. "
                "All-ins por desconexión que le quedan en el periodo: 0."}},
    {.rule = RuleId::kGame5,
     .decision = Decision::kWarning,
     .params = {.kind = IrregularityKind::kUpcardsReordered, .seat = 1},
     .text = {.en = "seat 1: changing the order of your upcards is improper; put them back in the "
                    "order dealt.",
              .es = "El asiento 1: cambiar el orden de las cartas descubiertas es incorrecto; "
                    "vuelva a ponerlas en orden."}},
    {.rule = RuleId::kAllin5,
     .decision = Decision::kTimeoutFold,
     .params = {.kind = IrregularityKind::kTimeout, .seat = 1},
     .text = {.en = "seat 1 ran out of time with its disconnect all-ins used up for the period: "
                    "the hand is folded.",
              .es = "El asiento 1 agotó su tiempo sin all-ins por desconexión en el periodo: la "
                    "mano se retira."}},
    {.rule = RuleId::kAllin5,
     .decision = Decision::kTimeoutFold,
     .params = {.kind = IrregularityKind::kTimeout, .seat = 1, .disconnect = true},
     .text = {.en = "seat 1 disconnected with its disconnect all-ins used up for the period: the "
                    "hand is folded.",
              .es = "El asiento 1 se desconectó sin all-ins por desconexión en el periodo: la mano "
                    "se retira."}},
    {.rule = RuleId::kAllin5,
     .decision = Decision::kTimeoutCheck,
     .params = {.kind = IrregularityKind::kTimeout,
                .seat = 3,
                .option = RulingOption::kExhaustedTimeoutCheckIfFree},
     .text = {.en = "seat 3 ran out of time with its disconnect all-ins used up for the period; "
                    "with no bet to face it checks.",
              .es = "El asiento 3 agotó su tiempo sin all-ins por desconexión en el periodo; sin "
                    "apuesta que igualar, pasa.",
              .alternative = "exhausted_timeout_action = CHECK_IF_FREE"}},
    {.rule = RuleId::kShow3,
     .decision = Decision::kNoEffect,
     .params = {.kind = IrregularityKind::kUpcardsPickedUp, .seat = 1},
     .text = {.en = "The betting is over: seat 1 picking up its upcards means nothing; the hand is "
                    "live until it is thrown away (STUD-SHOW-3).",
              .es = "Las apuestas han terminado: que el asiento 1 recoja sus cartas descubiertas "
                    "no significa nada; la mano sigue viva hasta que se descarte (STUD-SHOW-3)."}},
    {.rule = RuleId::kIrrWrong1,
     .decision = Decision::kActionStands,
     .params = {.kind = IrregularityKind::kWrongOpener, .seat = 1, .other_seat = 2},
     .text = {.en = "The next player has already acted after seat 1: the action stands and play "
                    "continues from there. seat 2 has no obligation to bring in.",
              .es =
                  "El siguiente jugador ya actuó después del asiento 1: la acción se mantiene y el "
                  "juego sigue desde ahí. El asiento 2 no tiene ninguna obligación de abrir."}},
    {.rule = RuleId::kIrrWrong1,
     .decision = Decision::kActionBinding,
     .params = {.kind = IrregularityKind::kActionOutOfTurn,
                .seat = 1,
                .other_seat = 2,
                .option = RulingOption::kOutOfTurnBinding},
     .text = {.en = "seat 1 acted out of turn (fold): seat 2 must act. The 0 chips stay in the "
                    "pot; if nobody bets or raises before seat 1's turn, the action stands, "
                    "otherwise the chips come back and seat 1 acts anew.",
              .es = "El asiento 1 actuó fuera de turno (fold): debe actuar el asiento 2. Las 0 "
                    "fichas quedan en el bote; si nadie apuesta ni sube antes del turno del "
                    "asiento 1, la acción vale; si no, recupera las fichas y actúa de nuevo.",
              .alternative = "out_of_turn_binding = true"}},
    {.rule = RuleId::kIrrWrong1,
     .decision = Decision::kActionCorrected,
     .params = {.kind = IrregularityKind::kActionOutOfTurn, .seat = 1, .other_seat = 2},
     .text = {.en = "seat 1 acted out of turn (fold): seat 1 takes back its 0 chips and seat 2 "
                    "must act; seat 1 acts anew when its turn comes.",
              .es = "El asiento 1 actuó fuera de turno (fold): recupera sus 0 fichas y debe actuar "
                    "el asiento 2; el asiento 1 actuará de nuevo en su turno."}},
    {.rule = RuleId::kIrrWrong1,
     .decision = Decision::kActionCorrected,
     .params = {.kind = IrregularityKind::kWrongOpener, .seat = 1, .other_seat = 2},
     .text = {.en = "seat 1 was wrongly designated and acted, but the next player has not: the "
                    "action is corrected. seat 1 takes back its chips and seat 2, the true low "
                    "card, must bring in.",
              .es = "El asiento 1 fue designado por error y actuó, pero el siguiente jugador no: "
                    "se corrige la acción. El asiento 1 recupera sus fichas y el asiento 2, la "
                    "verdadera carta baja, debe abrir."}},
    {.rule = RuleId::kIrrWrong1,
     .decision = Decision::kActionCorrected,
     .params = {.kind = IrregularityKind::kWrongOpener,
                .seat = 4,
                .other_seat = 3,
                .street = Street::kFourth},
     .text =
         {.en =
              "seat 4 was wrongly designated and acted, but the next player has not: the action is "
              "corrected. seat 4 takes back its chips and seat 3, the true high hand, must act.",
          .es = "El asiento 4 fue designado por error y actuó, pero el siguiente jugador no: se "
                "corrige la acción. El asiento 4 recupera sus fichas y el asiento 3, la verdadera "
                "mano alta, debe actuar."}},
    {.rule = RuleId::kIrrAbs1,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kAbsentPlayer,
                .seat = 1,
                .option = RulingOption::kAbsentKillAfterStartingHands},
     .text = {.en = "seat 1 is not at the table: the hand is dead and the ante is forfeited.",
              .es = "El asiento 1 no está en la mesa: la mano está muerta y pierde el ante.",
              .alternative = "absent_kill = AFTER_STARTING_HANDS (tournament)"}},
    {.rule = RuleId::kIrrAbs1,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kAbsentPlayer,
                .seat = 1,
                .option = RulingOption::kAbsentKillWhenActionReaches},
     .text = {.en = "seat 1 is not at the table when it is to act: the hand is dead and the ante "
                    "is forfeited.",
              .es = "El asiento 1 no está en la mesa cuando le toca actuar: la mano está muerta y "
                    "pierde el ante.",
              .alternative = "absent_kill = WHEN_ACTION_REACHES (cash)"}},
    {.rule = RuleId::kIrrAbs1,
     .decision = Decision::kBringInPostedHandKilled,
     .params = {.kind = IrregularityKind::kAbsentPlayer,
                .seat = 1,
                .option = RulingOption::kAbsentKillWhenActionReaches},
     .text =
         {.en = "seat 1 is not at the table when it is to act: the hand is dead and the ante is "
                "forfeited; the bring-in is posted from the stack and stands as the opening bet.",
          .es =
              "El asiento 1 no está en la mesa cuando le toca actuar: la mano está muerta y pierde "
              "el ante; la apuesta forzada se paga de su stack y queda como apuesta de apertura.",
          .alternative = "absent_kill = WHEN_ACTION_REACHES (cash)"}},
    {.rule = RuleId::kIrrFold1,
     .decision = Decision::kCheckedOut,
     .params = {.kind = IrregularityKind::kCheckedOut, .seat = 1},
     .text = {.en = "seat 1 folded with no bet to face: the fold stands, but the seat keeps "
                    "receiving cards until a bet kills the hand, so nobody's cards change.",
              .es = "El asiento 1 se retiró sin apuesta: el retiro vale, pero el asiento sigue "
                    "recibiendo cartas hasta que una apuesta anule la mano, para no cambiar las "
                    "cartas de nadie."}},
    {.rule = RuleId::kIrrFold1,
     .decision = Decision::kCheckedOut,
     .params = {.kind = IrregularityKind::kCheckedOut,
                .seat = 1,
                .option = RulingOption::kFoldWhenCheckAtOnce},
     .text = {.en = "seat 1 folded with no bet to face: the fold takes effect at once.",
              .es = "El asiento 1 se retiró sin apuesta: el retiro es inmediato.",
              .alternative = "fold_when_check = AT_ONCE (online)"}},
    {.rule = RuleId::kIrrFold2,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kUpcardsPickedUp, .seat = 1},
     .text = {.en = "seat 1 picked up its upcards facing a bet without calling: that is a fold and "
                    "the hand is dead.",
              .es = "El asiento 1 recogió sus cartas descubiertas ante una apuesta sin igualar: es "
                    "un retiro y la mano está muerta."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kWrongCardCount, .seat = 1, .count = 6},
     .text = {.en = "seat 1 has only 6 cards at the showdown: the hand is dead.",
              .es = "El asiento 1 solo tiene 6 cartas en el showdown: la mano está muerta."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kWrongCardCount, .seat = 1, .count = 8},
     .text = {.en = "seat 1 holds 8 cards: a hand with more than seven cards is dead.",
              .es = "El asiento 1 tiene 8 cartas: una mano con más de siete cartas está muerta."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandLive,
     .params = {.kind = IrregularityKind::kWrongCardCount, .seat = 1, .count = 6},
     .text = {.en = "seat 1 has 6 cards at the showdown; a hand missing only its seventh card is "
                    "live: it plays the best five of its 6.",
              .es = "El asiento 1 tiene 6 cartas en el showdown; una mano a la que solo le falta "
                    "la séptima carta está viva: juega las mejores cinco de sus 6."}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandLive,
     .params = {.kind = IrregularityKind::kWrongCardCount,
                .seat = 3,
                .count = 5,
                .option = RulingOption::kShortHandAnyShort},
     .text = {.en = "seat 3 has 5 cards at the showdown; the player declares the hand live: it "
                    "plays the best five of its 5.",
              .es = "El asiento 3 tiene 5 cartas en el showdown; el jugador declara la mano viva: "
                    "juega las mejores cinco de sus 5.",
              .alternative = "short_hand = PLAYER_OPTION_ANY_SHORT"}},
    {.rule = RuleId::kIrrCall1,
     .decision = Decision::kNoRefund,
     .params = {.kind = IrregularityKind::kCalledWhenBeaten, .seat = 1},
     .text = {.en = "seat 1 called while beaten on board: no refund; the call bought information "
                    "the board did not give.",
              .es = "El asiento 1 igualó ya ganado por las cartas descubiertas: no hay devolución; "
                    "pagó por información."}},
    {.rule = RuleId::kIrrAbs1,
     .decision = Decision::kBringInPostedHandKilled,
     .params = {.kind = IrregularityKind::kAbsentPlayer,
                .seat = 2,
                .option = RulingOption::kAbsentKillAfterStartingHands},
     .text = {.en = "seat 2 is not at the table: the hand is dead and the ante is forfeited; the "
                    "bring-in is posted from the stack and stands as the opening bet.",
              .es = "El asiento 2 no está en la mesa: la mano está muerta y pierde el ante; la "
                    "apuesta forzada se paga de su stack y queda como apuesta de apertura.",
              .alternative = "absent_kill = AFTER_STARTING_HANDS (tournament)"}},
    {.rule = RuleId::kIrrFold1,
     .decision = Decision::kCheckedOut,
     .params = {.kind = IrregularityKind::kCheckedOut,
                .seat = 3,
                .option = RulingOption::kFoldWhenCheckLiveUntilBet},
     .text = {.en = "seat 3 folded with no bet to face: the fold stands, but the seat keeps "
                    "receiving cards until a bet kills the hand, so nobody's cards change.",
              .es = "El asiento 3 se retiró sin apuesta: el retiro vale, pero el asiento sigue "
                    "recibiendo cartas hasta que una apuesta anule la mano, para no cambiar las "
                    "cartas de nadie.",
              .alternative = "fold_when_check = LIVE_UNTIL_BET"}},
    {.rule = RuleId::kIrrWrong1,
     .decision = Decision::kActionStands,
     .params = {.kind = IrregularityKind::kWrongOpener,
                .seat = 2,
                .other_seat = 5,
                .street = Street::kFourth},
     .text = {.en = "The next player has already acted after seat 2: the action stands and play "
                    "continues from there. seat 5 has no obligation.",
              .es = "El siguiente jugador ya actuó después del asiento 2: la acción se mantiene y "
                    "el juego sigue desde ahí. El asiento 5 no tiene ninguna obligación."}},
    {.rule = RuleId::kAllin5,
     .decision = Decision::kTimeoutFold,
     .params = {.kind = IrregularityKind::kTimeout,
                .seat = 1,
                .option = RulingOption::kExhaustedTimeoutCheckIfFree,
                .disconnect = true},
     .text = {.en = "seat 1 disconnected with its disconnect all-ins used up for the period: the "
                    "hand is folded.",
              .es = "El asiento 1 se desconectó sin all-ins por desconexión en el periodo: la mano "
                    "se retira.",
              .alternative = "exhausted_timeout_action = CHECK_IF_FREE"}},
    {.rule = RuleId::kIrrCards1,
     .decision = Decision::kHandKilled,
     .params = {.kind = IrregularityKind::kWrongCardCount,
                .seat = 2,
                .count = 4,
                .option = RulingOption::kShortHandAnyShort},
     .text = {.en = "seat 2 has only 4 cards at the showdown: the hand is dead.",
              .es = "El asiento 2 solo tiene 4 cartas en el showdown: la mano está muerta.",
              .alternative = "short_hand = PLAYER_OPTION_ANY_SHORT"}},
};

TEST(RulingText, PlayerAndTableRulingsWordedAsBefore) { ExpectWordedAsBefore(kCases); }

TEST(RulingText, EveryOptionHasItsText) {
  EXPECT_EQ(OptionText(RulingOption::kNone), "");
  for (int o = 1; o <= static_cast<int>(RulingOption::kOutOfTurnBinding); ++o) {
    EXPECT_NE(OptionText(static_cast<RulingOption>(o)).find(" = "), absl::string_view::npos) << o;
  }
}

// [STUD-DEAL-6] the service's own ruling when the table closes seeding.
TEST(RulingText, SeedingClosed) {
  const RulingText t = SeedingClosedText();
  EXPECT_EQ(t.en,
            "Seeding is closed: every seat that sent no seed is dealt without one, and the hand "
            "is dealt now.");
  EXPECT_EQ(t.es,
            "Se cierra la siembra: los asientos que no enviaron semilla juegan sin ella y la "
            "mano se reparte ahora.");
}

}  // namespace
}  // namespace stud::text
