// Dealer errors in words: exposed hole cards and final cards
// [STUD-IRR-EXP-1..5], misdeals, burn errors [STUD-IRR-BURN-1, -2], premature
// cards [STUD-IRR-PREM-1, -2] and skipped seats [STUD-IRR-CARDS-1]
// (engine/irregularities_deal.cc, engine/misdeal.cc,
// engine/irregularities_skipped.cc decide them).
#include <span>

#include "absl/strings/str_cat.h"
#include "text/ruling_text.h"
#include "text/vocabulary.h"

namespace stud::text::ruling_text {
namespace {

using words::CardText;
using words::SeatCapEn;
using words::SeatEn;
using words::SeatEs;
using words::StreetEn;
using words::StreetEs;

// [STUD-IRR-EXP-1] MISDEAL (tournament): the hand is void.
RulingText Misdeal(const RulingParams& p) {
  const bool keep = p.option == RulingOption::kExposedHolecardMisdealAntesKept;
  RulingText t{
      .en = absl::StrCat(
          "A hole card of ", SeatEn(p.seat),
          " was dealt face up: in tournament play that is a misdeal. The hand is "
          "void ",
          keep ? "and the antes stay in the pot for the redeal." : "and every ante is returned."),
      .es = absl::StrCat("Una carta tapada del ", SeatEs(p.seat),
                         " se repartió descubierta: en torneo es un misdeal. La mano se anula ",
                         keep ? "y los antes se quedan en el bote para la nueva mano."
                              : "y se devuelven todos los antes.")};
  if (keep) {
    t.redeal_en =
        "Collect every card, shuffle and cut, keep the button where it is and deal the "
        "hand again to the same players: the antes stay in the pot, nobody posts a new "
        "ante (start the new hand with redeal_of).";
    t.redeal_es =
        "Recoja todas las cartas, baraje y corte, deje el botón donde está y reparta de "
        "nuevo la mano a los mismos jugadores: los antes se quedan en el bote y nadie "
        "pone un ante nuevo (empiece la nueva mano con redeal_of).";
  } else {
    t.redeal_en =
        "Collect every card, shuffle and cut, keep the button where it is, post the antes "
        "again and deal the hand again to the same players.";
    t.redeal_es =
        "Recoja todas las cartas, baraje y corte, deje el botón donde está, vuelva a "
        "poner los antes y reparta de nuevo la mano a los mismos jugadores.";
  }
  return t;
}

// [STUD-IRR-EXP-1..5]
RulingText Exposed(Decision decision, const RulingParams& p) {
  switch (decision) {
    case Decision::kMisdeal:
      return Misdeal(p);
    case Decision::kHandDeadAnteReturned: {
      const bool forced = p.option == RulingOption::kDeadHandLowOpenerForced;
      return {.en = absl::StrCat(
                  "Both hole cards of ", SeatEn(p.seat),
                  " were dealt face up: the hand is dead and the ante is returned. "
                  "If its first exposed card would have been the low card, the "
                  "bring-in is not passed on: the player to its left opens and ",
                  forced ? "must bring in or complete." : "may fold, bring in or complete."),
              .es = absl::StrCat(
                  "Las dos cartas tapadas del ", SeatEs(p.seat),
                  " se repartieron descubiertas: la mano está muerta y se le "
                  "devuelve el ante. Si su primera carta descubierta hubiera sido la "
                  "más baja, la apuesta forzada no pasa a otro: abre el jugador de su "
                  "izquierda, que ",
                  forced ? "debe abrir o completar." : "puede retirarse, abrir o completar.")};
    }
    case Decision::kThirdCardDown:
      return {.en = absl::StrCat("A hole card of ", SeatEn(p.seat), " (", CardText(p.card),
                                 ") was dealt face up: it stays face up as the player's upcard, "
                                 "and the third card is dealt face down."),
              .es = absl::StrCat("Una carta tapada del ", SeatEs(p.seat), " (", CardText(p.card),
                                 ") se repartió descubierta: queda descubierta como su carta "
                                 "abierta, y la tercera carta se reparte tapada.")};
    case Decision::kKeepFaceUp:
      return {.en = absl::StrCat(SeatEn(p.seat),
                                 " is all-in: it keeps its final card face up; everyone else "
                                 "gets the final card face down as usual."),
              .es = absl::StrCat("El ", SeatEs(p.seat),
                                 " está all-in: se queda su última carta descubierta; los demás "
                                 "reciben la suya tapada como siempre.")};
    case Decision::kBothFinalCardsUp:
      return {.en = absl::StrCat("Heads-up, the first player's final card was dealt face up: ",
                                 SeatEn(p.other_seat),
                                 "'s final card is dealt face up too and the betting proceeds "
                                 "normally; the high hand on board acts first."),
              .es = absl::StrCat("Mano a mano, la última carta del primer jugador salió "
                                 "descubierta: la del ",
                                 SeatEs(p.other_seat),
                                 " también se reparte descubierta y las apuestas siguen "
                                 "normalmente; habla primero la mano alta.")};
    case Decision::kAllInOption:
    case Decision::kActFirstOption: {
      const bool act_first = decision == Decision::kActFirstOption;
      return {
          .en = absl::StrCat(
              "The final card of ", SeatEn(p.seat), " was dealt face up. ",
              p.others_down ? "Everyone else gets the final card face down. " : "",
              SeatCapEn(p.seat),
              act_first ? " may act before the betting starts."
                        : " may declare all-in before the betting: no more chips from it, later "
                          "bets go to a side pot. Then the high hand on board acts first."),
          .es = absl::StrCat(
              "La última carta del ", SeatEs(p.seat), " se repartió descubierta. ",
              p.others_down ? "Los demás reciben la última carta tapada. " : "", "El ",
              SeatEs(p.seat),
              act_first ? " puede actuar antes de que empiecen las apuestas."
                        : " puede declararse all-in antes de las apuestas: no pone más fichas y "
                          "las apuestas siguientes van a un bote lateral. Luego habla primero "
                          "la mano alta.")};
    }
    default:  // kNoEffect: an upcard off the table
      return {.en = absl::StrCat(CardText(p.card), " is an upcard of ", SeatEn(p.seat),
                                 ": exposing it changes nothing."),
              .es = absl::StrCat(CardText(p.card), " es una carta descubierta del ", SeatEs(p.seat),
                                 ": que se vea no cambia nada.")};
  }
}

// [STUD-IRR-BURN-1], [STUD-IRR-BURN-2]
RulingText BurnError(Decision decision, const RulingParams& p) {
  const char* what_en = p.burned_two ? "burned two cards" : "did not burn a card";
  const char* what_es = p.burned_two ? "quemó dos cartas" : "no quemó carta";
  if (decision == Decision::kCardsStand) {
    return {.en = absl::StrCat("The dealer ", what_en,
                               " before the final downcard: every player accepts the card dealt "
                               "and play continues."),
            .es = absl::StrCat("El dealer ", what_es,
                               " antes de la última carta tapada: todos aceptan la carta "
                               "recibida y el juego sigue.")};
  }
  const std::span<const int> seats(p.kept.data(), static_cast<size_t>(p.num_kept));
  const bool kept = !seats.empty();
  return {.en = absl::StrCat("The dealer ", what_en,
                             ": the cards are put back in their proper order and the misplaced "
                             "card becomes the burn, known to everyone.",
                             kept ? " " : "", words::SeatListEn(seats),
                             kept ? " mixed in or looked at the card and keep it." : ""),
          .es = absl::StrCat("El dealer ", what_es,
                             ": las cartas vuelven a su orden correcto y la carta fuera de "
                             "lugar pasa a ser la quemada, a la vista de todos.",
                             kept ? " " : "", words::SeatListEs(seats),
                             kept ? " mezclaron o miraron la carta y se la quedan." : "")};
}

// [STUD-IRR-PREM-1], [STUD-IRR-PREM-2]
RulingText Premature(Decision decision, const RulingParams& p) {
  if (decision == Decision::kPlayerKeepsCard) {
    const bool all = p.option == RulingOption::kPrematureSeventhAllPlayers;
    return {.en = absl::StrCat(SeatEn(p.seat),
                               " looked at its final downcard dealt too early: it keeps it and "
                               "gets no other card. ",
                               all ? "Nobody" : "That player", " may bet or raise on ",
                               StreetEn(Street::kSixth), ", because ", SeatEn(p.seat),
                               " already holds seven cards.",
                               p.more_cards ? " The other early cards are taken out of play." : ""),
            .es = absl::StrCat(
                "El ", SeatEs(p.seat),
                " miró su última carta tapada repartida antes de tiempo: se la queda y no recibe "
                "otra. ",
                all ? "Nadie" : "Ese jugador no", " puede apostar ni subir en ",
                StreetEs(Street::kSixth), ", porque el ", SeatEs(p.seat), " ya tiene siete cartas.",
                p.more_cards ? " Las demás cartas adelantadas se retiran del juego." : "")};
  }
  return {
      .en = absl::StrCat(p.count, " card(s) were dealt before the betting on ", StreetEn(p.street),
                         " was over: they are taken out of play. When the betting is "
                         "complete, one more card for each player still in is taken out, "
                         "then the dealer burns and deals. The removed cards are kept aside "
                         "in case the deck runs out."),
      .es = absl::StrCat(p.count, " carta(s) se repartieron antes de terminar las apuestas de ",
                         StreetEs(p.street),
                         ": se retiran del juego. Al terminar las apuestas se retira una "
                         "carta más por cada jugador que siga en la mano; luego el dealer "
                         "quema y reparte. Las cartas retiradas se guardan aparte por si se "
                         "acaba la baraja.")};
}

// [STUD-IRR-CARDS-1], [STUD-IRR-BURN-1] a seat skipped on a street.
RulingText Skipped(Decision decision, const RulingParams& p) {
  const std::string seat_en = SeatCapEn(p.seat);
  const std::string street_en = StreetEn(p.street);
  const std::string street_es = StreetEs(p.street);
  switch (decision) {
    case Decision::kHandKilled:
      if (p.while_dealing) {
        return {.en = absl::StrCat(seat_en, " was skipped on ", street_en,
                                   " and now misses three cards: it can no longer hold five "
                                   "cards at the showdown, so the hand is dead."),
                .es = absl::StrCat("El ", SeatEs(p.seat), " se quedó sin carta en ", street_es,
                                   " y ya le faltan tres: no puede llegar a cinco cartas en el "
                                   "showdown, así que la mano está muerta.")};
      }
      return {.en = absl::StrCat(seat_en, " has only ", p.count, " cards at the showdown (its ",
                                 street_en, " card was never dealt): the hand is dead."),
              .es = absl::StrCat("El ", SeatEs(p.seat), " solo tiene ", p.count,
                                 " cartas en el showdown (nunca recibió la carta de ", street_es,
                                 "): la mano está muerta.")};
    case Decision::kCardsCorrected:
      return {.en = absl::StrCat(seat_en, " was skipped on ", street_en,
                                 " and it is found before anyone has acted: the dealer gives it "
                                 "the missed card (",
                                 p.face_down ? "face down" : CardText(p.card),
                                 ") and the hand plays normally."),
              .es = absl::StrCat("Al ", SeatEs(p.seat), " le faltó la carta de ", street_es,
                                 " y se descubre antes de que nadie actúe: el dealer le da la "
                                 "carta (",
                                 p.face_down ? "tapada" : CardText(p.card),
                                 ") y la mano sigue con normalidad.")};
    case Decision::kHandLive:
      return ShortHandLive(p, /*cap=*/true);
    default:  // kPlaysShort
      if (p.while_dealing) {
        return {.en = absl::StrCat(seat_en, " was skipped on ", street_en,
                                   ": the deal and the betting go on with the hand short a card. "
                                   "Found before anyone acts on the street, the missed card is "
                                   "given; at the showdown a short hand is dead unless it misses "
                                   "only its seventh card."),
                .es = absl::StrCat("El ", SeatEs(p.seat), " se quedó sin carta en ", street_es,
                                   ": el reparto y las apuestas siguen con la mano corta. Si se "
                                   "descubre antes de que nadie actúe en la calle, se le da la "
                                   "carta; en el showdown una mano corta está muerta salvo que "
                                   "solo le falte la séptima carta.")};
      }
      return {.en = absl::StrCat(seat_en, " missed its ", street_en,
                                 " card and players have acted since: it keeps playing short. At "
                                 "the showdown the hand is dead unless it misses only its "
                                 "seventh card."),
              .es = absl::StrCat("Al ", SeatEs(p.seat), " le faltó la carta de ", street_es,
                                 " y ya se ha actuado: sigue jugando con la mano corta. En el "
                                 "showdown la mano está muerta salvo que solo le falte la "
                                 "séptima carta.")};
  }
}

}  // namespace

RulingText ShortHandLive(const RulingParams& p, bool cap) {
  const bool any_short = p.option == RulingOption::kShortHandAnyShort;
  return {.en = absl::StrCat(cap ? SeatCapEn(p.seat) : SeatEn(p.seat), " has ", p.count,
                             " cards at the showdown; ",
                             any_short ? "the player declares the hand live"
                                       : "a hand missing only its seventh card is live",
                             ": it plays the best five of its ", p.count, "."),
          .es = absl::StrCat("El ", SeatEs(p.seat), " tiene ", p.count, " cartas en el showdown; ",
                             any_short ? "el jugador declara la mano viva"
                                       : "una mano a la que solo le falta la séptima carta está "
                                         "viva",
                             ": juega las mejores cinco de sus ", p.count, ".")};
}

RulingText DealerError(Decision decision, const RulingParams& p) {
  switch (p.kind) {
    case IrregularityKind::kBurnError:
      return BurnError(decision, p);
    case IrregularityKind::kPrematureDeal:
      return Premature(decision, p);
    case IrregularityKind::kSkippedSeat:
      return Skipped(decision, p);
    default:
      return Exposed(decision, p);
  }
}

}  // namespace stud::text::ruling_text
