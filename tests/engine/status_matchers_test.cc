// The status matchers of tests/testing/status_matchers.h match what they say,
// refuse what they should, and explain a refusal with the status they got.
#include "tests/testing/status_matchers.h"

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace stud {
namespace {
using ::testing::HasSubstr;
using ::testing::Not;
using namespace stud::testing;

template <typename M, typename V>
std::string Explain(const M& matcher, const V& value) {
  ::testing::StringMatchResultListener listener;
  ::testing::Matcher<const V&>(matcher).MatchAndExplain(value, &listener);
  return listener.str();
}

TEST(StatusMatchers, IsOkMatchesOkStatusesOnly) {
  EXPECT_THAT(absl::OkStatus(), IsOk());
  EXPECT_THAT(absl::StatusOr<int>(3), IsOk());
  EXPECT_THAT(absl::InvalidArgumentError("seat: out of range"), Not(IsOk()));
  EXPECT_THAT(absl::StatusOr<int>(absl::InternalError("x")), Not(IsOk()));
}

TEST(StatusMatchers, StatusIsChecksTheCodeAndTheMessage) {
  const absl::Status s = absl::FailedPreconditionError("STUD-BET-3: the bet is capped");
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("capped")));
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kFailedPrecondition, "STUD-BET-3: the bet is capped"));
  EXPECT_THAT(s, Not(StatusIs(absl::StatusCode::kInvalidArgument)));
  EXPECT_THAT(s, Not(StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("uncapped"))));
  EXPECT_THAT(absl::OkStatus(), Not(StatusIs(absl::StatusCode::kInvalidArgument)));
  EXPECT_THAT(absl::OkStatus(), StatusIs(absl::StatusCode::kOk));
  const absl::StatusOr<int> refused = absl::InvalidArgumentError("seat: out of range");
  EXPECT_THAT(refused, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("seat")));
}

TEST(StatusMatchers, ARefusalPrintsTheStatusItGot) {
  const absl::Status s = absl::InvalidArgumentError("seat: out of range");
  EXPECT_THAT(Explain(IsOk(), s), HasSubstr("seat: out of range"));
  EXPECT_THAT(Explain(StatusIs(absl::StatusCode::kFailedPrecondition), s),
              HasSubstr("INVALID_ARGUMENT: seat: out of range"));
}

}  // namespace
}  // namespace stud
