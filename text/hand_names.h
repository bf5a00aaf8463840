// A shown hand's name in words, English or Spanish. The engine gives the hand
// as data (engine/hand_eval.h: a HighValue or LowValue, read back by
// RanksOfHigh/RanksOfLow); this is the one place its name is worded, from the
// rank names of text/vocabulary.h. The API's ShownHand.high_name and
// low_name (service/api/convert.h EncodeSettlement) are its only callers, in
// the language ResolveShowdownRequest.locale asks for. The English names are
// part of the API's answers: a change here is a change clients see
// (tests/service/hand_names_test.cc pins every one).
//
//   high  "Full house, kings full of fives"       "Full de reyes y cincos"
//         "Straight, queen high"                  "Escalera a la reina"
//   low   "8-6-4-2-A"                             "8-6-4-2-A"
//         "Pair of sixes, 9-7-3 (low)"            "Pareja de seises, 9-7-3 (baja)"
#ifndef STUD_TEXT_HAND_NAMES_H_
#define STUD_TEXT_HAND_NAMES_H_

#include <string>

#include "engine/hand_eval.h"
#include "text/language.h"

namespace stud::text {

// The best high hand [STUD-GAME-3]; "Invalid hand value" for a number no
// evaluator returns.
std::string HighHandName(HighValue value, MessageLanguage language);
// The best ace-to-five low [STUD-HILO-2]: its ranks from the worst down, and
// for a paired low (Razz) the pairing first; "Invalid low value" for a number
// no evaluator returns.
std::string LowHandName(LowValue value, MessageLanguage language);

}  // namespace stud::text

#endif  // STUD_TEXT_HAND_NAMES_H_
