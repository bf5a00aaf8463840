// The cases of tests/service/ruling_text*_test.cc: a ruling as data and its
// words as the API answers them.
#ifndef STUD_TESTS_SERVICE_RULING_TEXT_CASES_H_
#define STUD_TESTS_SERVICE_RULING_TEXT_CASES_H_

#include <gtest/gtest.h>

#include <span>
#include <string>

#include "engine/card.h"
#include "engine/ruling.h"
#include "text/ruling_text.h"

namespace stud::text {

inline Card C(absl::string_view text) { return *ParseCard(text); }

struct RulingTextCase {
  RuleId rule;
  Decision decision;
  RulingParams params;
  RulingText text;
};

inline void ExpectWordedAsBefore(std::span<const RulingTextCase> cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const RulingTextCase& c = cases[i];
    const RulingText got =
        RenderRuling(Ruling{.rule_id = c.rule, .decision = c.decision, .params = c.params});
    const std::string where = std::string("case ") + std::to_string(i) + " (" +
                              std::string(RuleIdName(c.rule)) + " " +
                              std::string(DecisionName(c.decision)) + ")";
    EXPECT_EQ(got.en, c.text.en) << where;
    EXPECT_EQ(got.es, c.text.es) << where;
    EXPECT_EQ(got.alternative, c.text.alternative) << where;
    EXPECT_EQ(got.redeal_en, c.text.redeal_en) << where;
    EXPECT_EQ(got.redeal_es, c.text.redeal_es) << where;
  }
}

}  // namespace stud::text

#endif  // STUD_TESTS_SERVICE_RULING_TEXT_CASES_H_
