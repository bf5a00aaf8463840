// gMock matchers for statuses (Abseil 20220623 ships none):
//
//   EXPECT_THAT(Apply(st, a), IsOk());
//   ASSERT_THAT(ruling, IsOk());                       // an absl::StatusOr<T>
//   EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument));
//   EXPECT_THAT(s, StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("STUD-BET-3")));
//
// They match absl::Status and absl::StatusOr<T>; tests/testing/grpc_status_matchers.h
// adds grpc::Status (with grpc::StatusCode). Unlike ASSERT_TRUE(s.ok()), a
// failing matcher prints the code and message it got.
//
// Another status type joins by specializing StatusTraits<T> (Ok, Code, Message,
// Describe) before the matcher is used.
#ifndef STUD_TESTS_TESTING_STATUS_MATCHERS_H_
#define STUD_TESTS_TESTING_STATUS_MATCHERS_H_

#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace stud::testing {

template <typename T>
struct StatusTraits;

template <>
struct StatusTraits<absl::Status> {
  static bool Ok(const absl::Status& s) { return s.ok(); }
  static absl::StatusCode Code(const absl::Status& s) { return s.code(); }
  static std::string Message(const absl::Status& s) { return std::string(s.message()); }
  static std::string Describe(const absl::Status& s) { return s.ToString(); }
};

template <typename V>
struct StatusTraits<absl::StatusOr<V>> {
  static bool Ok(const absl::StatusOr<V>& s) { return s.ok(); }
  static absl::StatusCode Code(const absl::StatusOr<V>& s) { return s.status().code(); }
  static std::string Message(const absl::StatusOr<V>& s) {
    return std::string(s.status().message());
  }
  static std::string Describe(const absl::StatusOr<V>& s) { return s.status().ToString(); }
};

namespace internal_status {

template <typename S>
using TraitsOf = StatusTraits<std::remove_cv_t<std::remove_reference_t<S>>>;

class IsOkMatcher {
 public:
  template <typename S>
  bool MatchAndExplain(const S& s, ::testing::MatchResultListener* listener) const {
    if (TraitsOf<S>::Ok(s)) return true;
    *listener << "which is " << TraitsOf<S>::Describe(s);
    return false;
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

template <typename Code>
class StatusIsMatcher {
 public:
  StatusIsMatcher(Code code, ::testing::Matcher<const std::string&> message)
      : code_(code), message_(std::move(message)) {}

  template <typename S>
  bool MatchAndExplain(const S& s, ::testing::MatchResultListener* listener) const {
    *listener << "which is " << TraitsOf<S>::Describe(s);
    if (TraitsOf<S>::Code(s) != code_) return false;
    ::testing::StringMatchResultListener inner;
    if (message_.MatchAndExplain(TraitsOf<S>::Message(s), &inner)) return true;
    if (!inner.str().empty()) *listener << ", and the message " << inner.str();
    return false;
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has code " << static_cast<int>(code_) << " and a message that ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "does not have code " << static_cast<int>(code_) << " or has a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  Code code_;
  ::testing::Matcher<const std::string&> message_;
};

}  // namespace internal_status

// The status (or StatusOr) is OK.
inline ::testing::PolymorphicMatcher<internal_status::IsOkMatcher> IsOk() {
  return ::testing::MakePolymorphicMatcher(internal_status::IsOkMatcher());
}

// The status has `code` (absl::StatusCode, or grpc::StatusCode for
// grpc::Status) and a message matched by `message` (any message if omitted;
// a plain string must equal the message).
template <typename Code, typename MessageMatcher = std::decay_t<decltype(::testing::_)>>
::testing::PolymorphicMatcher<internal_status::StatusIsMatcher<Code>> StatusIs(
    Code code, MessageMatcher message = ::testing::_) {
  return ::testing::MakePolymorphicMatcher(internal_status::StatusIsMatcher<Code>(
      code, ::testing::MatcherCast<const std::string&>(message)));
}

}  // namespace stud::testing

#endif  // STUD_TESTS_TESTING_STATUS_MATCHERS_H_
