// IsOk() and StatusIs() (tests/testing/status_matchers.h) for grpc::Status:
//
//   EXPECT_THAT(stub->NewHand(&ctx, req, &resp), IsOk());
//   EXPECT_THAT(status, StatusIs(grpc::StatusCode::INVALID_ARGUMENT, HasSubstr("stakes")));
//
// A separate header so the engine tests never include gRPC.
#ifndef STUD_TESTS_TESTING_GRPC_STATUS_MATCHERS_H_
#define STUD_TESTS_TESTING_GRPC_STATUS_MATCHERS_H_

#include <string>

#include "grpcpp/support/status.h"
#include "tests/testing/status_matchers.h"

namespace stud::testing {

template <>
struct StatusTraits<grpc::Status> {
  static bool Ok(const grpc::Status& s) { return s.ok(); }
  static grpc::StatusCode Code(const grpc::Status& s) { return s.error_code(); }
  static std::string Message(const grpc::Status& s) { return s.error_message(); }
  static std::string Describe(const grpc::Status& s) {
    return "gRPC code " + std::to_string(static_cast<int>(s.error_code())) + ": " +
           s.error_message();
  }
};

}  // namespace stud::testing

#endif  // STUD_TESTS_TESTING_GRPC_STATUS_MATCHERS_H_
