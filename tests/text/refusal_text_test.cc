// The engine's refusals in words (text/refusal_text.h), against the golden
// record of the English the engine built itself before refusals became data
// (tests/text/refusal_golden.h).
#include "text/refusal_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/refusal.h"
#include "tests/text/refusal_golden.h"

namespace stud::text {
namespace {

using R = Refusal;
using golden::C;
using golden::Golden;
using golden::Table;

TEST(RefusalText, EnglishIsTheEnginesOldMessage) {
  for (const Golden& g : Table()) {
    EXPECT_EQ(RefusalEn(g.facts), g.en) << static_cast<int>(g.facts.what);
  }
}

TEST(RefusalText, EveryRefusalHasAGoldenRow) {
  std::set<int> covered;
  for (const Golden& g : Table()) covered.insert(static_cast<int>(g.facts.what));
  for (int i = 1; i <= static_cast<int>(R::kLast); ++i) {
    EXPECT_TRUE(covered.count(i)) << "no golden row for Refusal " << i;
  }
}

TEST(RefusalText, SpanishIsASentenceWithTheSameFacts) {
  std::set<std::string> seen;
  for (const Golden& g : Table()) {
    const std::string es = RefusalEs(g.facts);
    EXPECT_NE(es, g.en);
    EXPECT_NE(RefusalWhyEs(g.facts), RefusalWhyEn(g.facts)) << es;
    EXPECT_EQ(es.back(), '.') << es;
    if (g.facts.rule != RuleId::kNone) {
      EXPECT_THAT(es, ::testing::StartsWith(absl::StrCat("La regla ", RuleIdName(g.facts.rule))));
    }
    if (!g.facts.field.empty()) {
      EXPECT_THAT(es, ::testing::HasSubstr(g.facts.field));
    }
    if (g.facts.seat > 0) {
      EXPECT_THAT(es, ::testing::HasSubstr(absl::StrCat(g.facts.seat)));
    }
    seen.insert(es);
  }
  EXPECT_EQ(RefusalEs({.what = R::kCapped, .rule = RuleId::kCap1, .count = 3}),
            "La regla STUD-CAP-1 no lo permite: las apuestas están topadas tras 3 subidas; "
            "iguale o retírese.");
  EXPECT_EQ(RefusalEs({.what = R::kStackOutOfRange, .field = "seats[2].stack", .chips = -5}),
            "Solicitud no válida: revise el campo «seats[2].stack»: debe ser positivo y como "
            "mucho 2^40 fichas; se recibió -5.");
}

TEST(RefusalText, TheEnginesStatusCarriesFactsNotWords) {
  const RefusalFacts facts{.what = R::kCapped, .count = 4};
  const absl::Status refused = Refuse(RuleId::kCap1, facts);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.message(), "STUD-CAP-1");
  EXPECT_EQ(RuleIdOf(refused), "STUD-CAP-1");
  ASSERT_TRUE(RefusalOf(refused).has_value());
  EXPECT_EQ(RefusalOf(refused)->what, R::kCapped);
  EXPECT_EQ(RefusalOf(refused)->count, 4);
  EXPECT_EQ(RefusalOf(refused)->rule, RuleId::kCap1);

  const absl::Status worded = Worded(refused);
  EXPECT_EQ(worded.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(worded.message(), "STUD-CAP-1: betting is capped after 4 raises; call or fold");
  EXPECT_EQ(RuleIdOf(worded), "STUD-CAP-1");
  EXPECT_EQ(RefusalOf(worded), RefusalOf(refused));
  EXPECT_EQ(Worded(worded), worded) << "idempotent";

  const absl::Status plain = absl::InternalError("boom");
  EXPECT_EQ(Worded(plain), plain);
  EXPECT_FALSE(RefusalOf(plain).has_value());
}

TEST(RefusalText, RenameFieldNamesTheRequestsPath) {
  const absl::Status bad =
      Malformed({.what = R::kSeatNotAtTable, .field = "seat", .seat = 9, .count = 6});
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.message(), "seat");
  const absl::Status nested = RenameField(bad, "", "action.");
  EXPECT_EQ(nested.message(), "action.seat: 9 is not at this table (seats 1..6)");
  EXPECT_EQ(RefusalOf(nested)->field, "action.seat");
  EXPECT_EQ(Worded(nested), nested);
  EXPECT_EQ(RenameField(bad, "report.", "x.").message(),
            "seat: 9 is not at this table (seats 1..6)");

  const absl::Status kept = Malformed({.what = R::kCardRequired, .field = "report.card"});
  EXPECT_EQ(RenameField(kept, "report.card", "report.kept_card").message(),
            "report.kept_card: required for this kind");
  EXPECT_EQ(RenameField(absl::InvalidArgumentError("seat: bad"), "", "action.").message(),
            "action.seat: bad");
}

}  // namespace
}  // namespace stud::text
