// The one vocabulary in English and Spanish: how a seat, a street, a card, a
// rank, an action and an amount are worded inside a ruling's explanation
// (text/ruling_text.h), a refusal (text/refusal_text.h), a hand's name
// (text/hand_names.h) and a dealer's announcement (service/api/announce.h).
// Each word is spelled here once per language. The English street and action
// names are the engine's (StreetName, ActionKindName); the Spanish ones live
// only here.
#ifndef STUD_TEXT_VOCABULARY_H_
#define STUD_TEXT_VOCABULARY_H_

#include <span>
#include <string>

#include "absl/strings/string_view.h"
#include "engine/basics.h"
#include "engine/card.h"
#include "engine/stakes.h"

namespace stud::text::words {

// "seat 3" inside a sentence, "Seat 3" opening one.
std::string SeatEn(int seat);
std::string SeatCapEn(int seat);
// "asiento 3" inside a sentence, "Asiento 3" opening one; the article ("el
// asiento 3") belongs to the sentence.
std::string SeatEs(int seat);
std::string SeatCapEs(int seat);
// "Seats 3, 5" / "Los asientos 3, 5" opening a sentence; "" for none.
std::string SeatListEn(std::span<const int> seats);
std::string SeatListEs(std::span<const int> seats);

// "4th street" / "4a calle".
std::string StreetEn(Street street);
std::string StreetEs(Street street);
// An action named in Spanish ("subir", "igualar"); the English names are the
// engine's (ActionKindName).
absl::string_view ActionEs(ActionKind action);

// "As", "Td": the same in both languages.
std::string CardText(Card card);

// Rank names (0 = deuce .. 12 = ace): "deuce" / "dos", in the plural
// "deuces" / "doses".
absl::string_view RankNameEn(int rank_value);
absl::string_view RankNameEs(int rank_value);
absl::string_view RankPluralEn(int rank_value);
absl::string_view RankPluralEs(int rank_value);
// "al nueve", "a la reina": up to the rank (Spanish articles agree with the
// rank's name: la jota, la reina).
std::string RankToEs(int rank_value);

// The tag of the low: a hi-lo pot's low half in an announcement and a low
// hand's name, " (low)" / " (baja)"; the high half " (high)" / " (alta)".
inline constexpr absl::string_view kLowTagEn = " (low)";
inline constexpr absl::string_view kLowTagEs = " (baja)";
inline constexpr absl::string_view kHighTagEn = " (high)";
inline constexpr absl::string_view kHighTagEs = " (alta)";

// An action as the floor names it: "fold", "bet to 200" (amount_to read by
// the actions that put chips in).
std::string ActionText(ActionKind action, Chips amount_to);

// "$15.00" / "15,00 $".
std::string MoneyEn(Chips cents);
std::string MoneyEs(Chips cents);

}  // namespace stud::text::words

#endif  // STUD_TEXT_VOCABULARY_H_
