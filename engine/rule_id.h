// Rule IDs as a type: every rule of the rule book (docs/rules.md) is one
// RuleId constant, spelled once in the table below with its catalogue ID and
// the rule book section it belongs to. The engine, the operation log and the
// sealed tokens carry the enum; its name is looked up only where text is
// made (errors, answers, metrics).
//
// The numeric values are part of the token format (the packed operation log
// stores them): entries are only ever appended to the end of the table,
// never reordered or removed. tests/engine/rule_id_test.cc checks the table
// against docs/rules.md and pins the numbers.
#ifndef STUD_ENGINE_RULE_ID_H_
#define STUD_ENGINE_RULE_ID_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>

#include "absl/strings/string_view.h"

namespace stud {

// X(constant, catalogue ID, rule book section)
#define STUD_RULE_IDS(X)                                             \
  X(kGame1, "STUD-GAME-1", "The game, the table and the stakes")     \
  X(kGame2, "STUD-GAME-2", "The game, the table and the stakes")     \
  X(kGame3, "STUD-GAME-3", "The game, the table and the stakes")     \
  X(kGame4, "STUD-GAME-4", "The game, the table and the stakes")     \
  X(kGame5, "STUD-GAME-5", "The game, the table and the stakes")     \
  X(kSetup1, "STUD-SETUP-1", "The game, the table and the stakes")   \
  X(kSetup2, "STUD-SETUP-2", "The game, the table and the stakes")   \
  X(kSetup3, "STUD-SETUP-3", "The game, the table and the stakes")   \
  X(kStakes1, "STUD-STAKES-1", "The game, the table and the stakes") \
  X(kStakes2, "STUD-STAKES-2", "The game, the table and the stakes") \
  X(kStakes3, "STUD-STAKES-3", "The game, the table and the stakes") \
  X(kStakes4, "STUD-STAKES-4", "The game, the table and the stakes") \
  X(kStakes5, "STUD-STAKES-5", "The game, the table and the stakes") \
  X(kDeal1, "STUD-DEAL-1", "Dealing")                                \
  X(kDeal2, "STUD-DEAL-2", "Dealing")                                \
  X(kDeal3, "STUD-DEAL-3", "Dealing")                                \
  X(kDeal4, "STUD-DEAL-4", "Dealing")                                \
  X(kDeal5, "STUD-DEAL-5", "Dealing")                                \
  X(kBring1, "STUD-BRING-1", "The bring-in (3rd street)")            \
  X(kBring2, "STUD-BRING-2", "The bring-in (3rd street)")            \
  X(kBring3, "STUD-BRING-3", "The bring-in (3rd street)")            \
  X(kBring4, "STUD-BRING-4", "The bring-in (3rd street)")            \
  X(kBring5, "STUD-BRING-5", "The bring-in (3rd street)")            \
  X(kBring6, "STUD-BRING-6", "The bring-in (3rd street)")            \
  X(kBring7, "STUD-BRING-7", "The bring-in (3rd street)")            \
  X(kBring8, "STUD-BRING-8", "The bring-in (3rd street)")            \
  X(kBring9, "STUD-BRING-9", "The bring-in (3rd street)")            \
  X(kBring10, "STUD-BRING-10", "The bring-in (3rd street)")          \
  X(kBring11, "STUD-BRING-11", "The bring-in (3rd street)")          \
  X(kBet1, "STUD-BET-1", "Betting and the raise cap")                \
  X(kBet2, "STUD-BET-2", "Betting and the raise cap")                \
  X(kCap1, "STUD-CAP-1", "Betting and the raise cap")                \
  X(kCap2, "STUD-CAP-2", "Betting and the raise cap")                \
  X(kPair1, "STUD-PAIR-1", "The open pair on 4th street")            \
  X(kPair2, "STUD-PAIR-2", "The open pair on 4th street")            \
  X(kPair3, "STUD-PAIR-3", "The open pair on 4th street")            \
  X(kPair4, "STUD-PAIR-4", "The open pair on 4th street")            \
  X(kPair5, "STUD-PAIR-5", "The open pair on 4th street")            \
  X(kPair6, "STUD-PAIR-6", "The open pair on 4th street")            \
  X(kOrder1, "STUD-ORDER-1", "Who acts first from 4th street")       \
  X(kOrder2, "STUD-ORDER-2", "Who acts first from 4th street")       \
  X(kOrder3, "STUD-ORDER-3", "Who acts first from 4th street")       \
  X(kOrder4, "STUD-ORDER-4", "Who acts first from 4th street")       \
  X(kOrder5, "STUD-ORDER-5", "Who acts first from 4th street")       \
  X(kOrder6, "STUD-ORDER-6", "Who acts first from 4th street")       \
  X(kAllin1, "STUD-ALLIN-1", "All-in and side pots")                 \
  X(kAllin2, "STUD-ALLIN-2", "All-in and side pots")                 \
  X(kAllin3, "STUD-ALLIN-3", "All-in and side pots")                 \
  X(kAllin4, "STUD-ALLIN-4", "All-in and side pots")                 \
  X(kAllin5, "STUD-ALLIN-5", "All-in and side pots")                 \
  X(kAllin6, "STUD-ALLIN-6", "All-in and side pots")                 \
  X(kAllin7, "STUD-ALLIN-7", "All-in and side pots")                 \
  X(kDeck1, "STUD-DECK-1", "Running out of cards")                   \
  X(kDeck2, "STUD-DECK-2", "Running out of cards")                   \
  X(kDeck3, "STUD-DECK-3", "Running out of cards")                   \
  X(kDeck4, "STUD-DECK-4", "Running out of cards")                   \
  X(kDeck5, "STUD-DECK-5", "Running out of cards")                   \
  X(kDeck6, "STUD-DECK-6", "Running out of cards")                   \
  X(kDeck7, "STUD-DECK-7", "Running out of cards")                   \
  X(kShow1, "STUD-SHOW-1", "Showdown, ties and odd chips")           \
  X(kShow2, "STUD-SHOW-2", "Showdown, ties and odd chips")           \
  X(kShow3, "STUD-SHOW-3", "Showdown, ties and odd chips")           \
  X(kShow4, "STUD-SHOW-4", "Showdown, ties and odd chips")           \
  X(kOdd1, "STUD-ODD-1", "Showdown, ties and odd chips")             \
  X(kOdd2, "STUD-ODD-2", "Showdown, ties and odd chips")             \
  X(kOdd3, "STUD-ODD-3", "Showdown, ties and odd chips")             \
  X(kOdd4, "STUD-ODD-4", "Showdown, ties and odd chips")             \
  X(kOdd5, "STUD-ODD-5", "Showdown, ties and odd chips")             \
  X(kHilo1, "STUD-HILO-1", "Hi-Lo eight-or-better")                  \
  X(kHilo2, "STUD-HILO-2", "Hi-Lo eight-or-better")                  \
  X(kHilo3, "STUD-HILO-3", "Hi-Lo eight-or-better")                  \
  X(kHilo4, "STUD-HILO-4", "Hi-Lo eight-or-better")                  \
  X(kHilo5, "STUD-HILO-5", "Hi-Lo eight-or-better")                  \
  X(kHilo6, "STUD-HILO-6", "Hi-Lo eight-or-better")                  \
  X(kHilo7, "STUD-HILO-7", "Hi-Lo eight-or-better")                  \
  X(kHilo8, "STUD-HILO-8", "Hi-Lo eight-or-better")                  \
  X(kHilo9, "STUD-HILO-9", "Hi-Lo eight-or-better")                  \
  X(kIrrExp1, "STUD-IRR-EXP-1", "Irregularities")                    \
  X(kIrrExp2, "STUD-IRR-EXP-2", "Irregularities")                    \
  X(kIrrExp3, "STUD-IRR-EXP-3", "Irregularities")                    \
  X(kIrrExp4, "STUD-IRR-EXP-4", "Irregularities")                    \
  X(kIrrExp5, "STUD-IRR-EXP-5", "Irregularities")                    \
  X(kIrrWrong1, "STUD-IRR-WRONG-1", "Irregularities")                \
  X(kIrrAbs1, "STUD-IRR-ABS-1", "Irregularities")                    \
  X(kIrrFold1, "STUD-IRR-FOLD-1", "Irregularities")                  \
  X(kIrrFold2, "STUD-IRR-FOLD-2", "Irregularities")                  \
  X(kIrrBurn1, "STUD-IRR-BURN-1", "Irregularities")                  \
  X(kIrrBurn2, "STUD-IRR-BURN-2", "Irregularities")                  \
  X(kIrrPrem1, "STUD-IRR-PREM-1", "Irregularities")                  \
  X(kIrrPrem2, "STUD-IRR-PREM-2", "Irregularities")                  \
  X(kIrrCards1, "STUD-IRR-CARDS-1", "Irregularities")                \
  X(kIrrCall1, "STUD-IRR-CALL-1", "Irregularities")                  \
  X(kIrrAnn1, "STUD-IRR-ANN-1", "Irregularities")                    \
  X(kDeal6, "STUD-DEAL-6", "Dealing")

enum class RuleId : uint8_t {
  kNone = 0,  // no rule decided this step
#define STUD_RULE_ID_ENUM(constant, id, section) constant,
  STUD_RULE_IDS(STUD_RULE_ID_ENUM)
#undef STUD_RULE_ID_ENUM
};

struct RuleInfo {
  RuleId rule;
  absl::string_view id;       // "STUD-BRING-2"
  absl::string_view section;  // "The bring-in (3rd street)"
};

// Every rule, in table order (RuleId::kNone excluded).
std::span<const RuleInfo> AllRules();
// "STUD-BRING-2"; "" for kNone and for a value outside the table.
absl::string_view RuleIdName(RuleId rule);
// The rule with this catalogue ID, if any.
std::optional<RuleId> RuleIdFromName(absl::string_view id);
// Largest valid value (for range checks on decoding).
RuleId LastRuleId();

// Rule IDs compare with their catalogue text, so that tests and log checks
// read like the rule book: EXPECT_EQ(op.rule_id, "STUD-BRING-4").
inline bool operator==(RuleId rule, absl::string_view id) { return RuleIdName(rule) == id; }
inline std::ostream& operator<<(std::ostream& os, RuleId rule) {
  const absl::string_view name = RuleIdName(rule);
  return os << (name.empty() ? absl::string_view("(none)") : name);
}

}  // namespace stud

#endif  // STUD_ENGINE_RULE_ID_H_
