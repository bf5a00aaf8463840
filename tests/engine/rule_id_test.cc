// RuleId is the rule book's list of rules as a type (engine/rule_id.h):
// every ID of docs/rules.md is a constant of the right section and every
// constant is in docs/rules.md; and the numbers, which the sealed tokens
// store, never change (entries are only appended).
#include "engine/rule_id.h"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace stud {
namespace {

// Rule rows of docs/rules.md ("| STUD-BRING-2 | ..."), with the "### N. Section"
// heading above each.
std::map<std::string, std::string> RulesInTheRuleBook() {
  // One literal: GCC 12 at -O1 warns (-Warray-bounds, a false positive) on
  // std::string + const char* here.
  std::ifstream in(STUD_SOURCE_DIR "/docs/rules.md");
  std::map<std::string, std::string> out;
  std::string line, section;
  const std::regex heading(R"(^### \d+\. (.*)$)");
  const std::regex row(R"(^\| (STUD-[A-Z0-9-]+) \|)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, heading)) section = m[1];
    if (std::regex_search(line, m, row)) out[m[1]] = section;
  }
  return out;
}

TEST(RuleIds, TheTableIsTheRuleBook) {
  const std::map<std::string, std::string> book = RulesInTheRuleBook();
  ASSERT_GT(book.size(), 90u);
  for (const RuleInfo& r : AllRules()) {
    auto it = book.find(std::string(r.id));
    ASSERT_NE(it, book.end()) << r.id << " is not in docs/rules.md";
    EXPECT_EQ(it->second, r.section) << r.id;
  }
  for (const auto& [id, section] : book) {
    EXPECT_TRUE(RuleIdFromName(id).has_value()) << id << " of docs/rules.md has no RuleId";
  }
}

TEST(RuleIds, NamesAndNumbersRoundTrip) {
  EXPECT_EQ(RuleIdName(RuleId::kNone), "");
  EXPECT_EQ(RuleIdName(static_cast<RuleId>(static_cast<int>(LastRuleId()) + 1)), "");
  EXPECT_FALSE(RuleIdFromName("STUD-NOPE-1").has_value());
  EXPECT_FALSE(RuleIdFromName("").has_value());
  for (const RuleInfo& r : AllRules()) {
    EXPECT_EQ(RuleIdName(r.rule), r.id);
    EXPECT_EQ(RuleIdFromName(r.id), r.rule);
  }
  EXPECT_EQ(RuleId::kBring4, "STUD-BRING-4");
  std::ostringstream os;
  os << RuleId::kIrrExp5 << " " << RuleId::kNone;
  EXPECT_EQ(os.str(), "STUD-IRR-EXP-5 (none)");
}

// Tokens store these numbers: a rule keeps its number forever. A new rule is
// appended to the table and to this list.
TEST(RuleIds, NumbersArePinned) {
  const char* const kPinned[] = {
      "STUD-GAME-1",     "STUD-GAME-2",     "STUD-GAME-3",      "STUD-GAME-4",
      "STUD-GAME-5",     "STUD-SETUP-1",    "STUD-SETUP-2",     "STUD-SETUP-3",
      "STUD-STAKES-1",   "STUD-STAKES-2",   "STUD-STAKES-3",    "STUD-STAKES-4",
      "STUD-STAKES-5",   "STUD-DEAL-1",     "STUD-DEAL-2",      "STUD-DEAL-3",
      "STUD-DEAL-4",     "STUD-DEAL-5",     "STUD-BRING-1",     "STUD-BRING-2",
      "STUD-BRING-3",    "STUD-BRING-4",    "STUD-BRING-5",     "STUD-BRING-6",
      "STUD-BRING-7",    "STUD-BRING-8",    "STUD-BRING-9",     "STUD-BRING-10",
      "STUD-BRING-11",   "STUD-BET-1",      "STUD-BET-2",       "STUD-CAP-1",
      "STUD-CAP-2",      "STUD-PAIR-1",     "STUD-PAIR-2",      "STUD-PAIR-3",
      "STUD-PAIR-4",     "STUD-PAIR-5",     "STUD-PAIR-6",      "STUD-ORDER-1",
      "STUD-ORDER-2",    "STUD-ORDER-3",    "STUD-ORDER-4",     "STUD-ORDER-5",
      "STUD-ORDER-6",    "STUD-ALLIN-1",    "STUD-ALLIN-2",     "STUD-ALLIN-3",
      "STUD-ALLIN-4",    "STUD-ALLIN-5",    "STUD-ALLIN-6",     "STUD-ALLIN-7",
      "STUD-DECK-1",     "STUD-DECK-2",     "STUD-DECK-3",      "STUD-DECK-4",
      "STUD-DECK-5",     "STUD-DECK-6",     "STUD-DECK-7",      "STUD-SHOW-1",
      "STUD-SHOW-2",     "STUD-SHOW-3",     "STUD-SHOW-4",      "STUD-ODD-1",
      "STUD-ODD-2",      "STUD-ODD-3",      "STUD-ODD-4",       "STUD-ODD-5",
      "STUD-HILO-1",     "STUD-HILO-2",     "STUD-HILO-3",      "STUD-HILO-4",
      "STUD-HILO-5",     "STUD-HILO-6",     "STUD-HILO-7",      "STUD-HILO-8",
      "STUD-HILO-9",     "STUD-IRR-EXP-1",  "STUD-IRR-EXP-2",   "STUD-IRR-EXP-3",
      "STUD-IRR-EXP-4",  "STUD-IRR-EXP-5",  "STUD-IRR-WRONG-1", "STUD-IRR-ABS-1",
      "STUD-IRR-FOLD-1", "STUD-IRR-FOLD-2", "STUD-IRR-BURN-1",  "STUD-IRR-BURN-2",
      "STUD-IRR-PREM-1", "STUD-IRR-PREM-2", "STUD-IRR-CARDS-1", "STUD-IRR-CALL-1",
      "STUD-IRR-ANN-1",  "STUD-DEAL-6",
  };
  ASSERT_EQ(AllRules().size(), std::size(kPinned));
  for (size_t i = 0; i < std::size(kPinned); ++i) {
    EXPECT_EQ(RuleIdName(static_cast<RuleId>(i + 1)), kPinned[i]) << "number " << i + 1;
  }
}

}  // namespace
}  // namespace stud
