// The hostile-input matrix (docs/reliability.md): for every RPC, requests
// with missing, out-of-range or unknown values, negative and overflowing
// amounts, bad seats, bad cards, decks of the wrong length, oversized
// messages and forged, truncated, reordered or foreign tokens. Each row
// names the gRPC code, the start of the message and ErrorInfo.reason the
// caller gets; every call goes through a real gRPC server (1 MiB message
// limit, as stud_server's default), and every error must carry parseable
// google.rpc.Status details whose message is short valid UTF-8.
//
// STUD_PRINT_HOSTILE_TABLE=1 prints the matrix as the Markdown table of
// docs/reliability.md.
//
// The rows live by RPC family in hostile_rows_*.cc (hostile_input.h lists them).
#include "hostile_input.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace stud::service::testing::hostile {
namespace {

bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    }
    i += n;
  }
  return true;
}

std::string CodeName(StatusCode c) {
  switch (c) {
    case StatusCode::OK:
      return "OK";
    case StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case StatusCode::ABORTED:
      return "ABORTED";
    case StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    default:
      return "code " + std::to_string(static_cast<int>(c));
  }
}

std::vector<Row> Rows() {
  std::vector<Row> rows;
  AddNewHandRows(rows);
  AddTokenRows(rows);
  AddApplyActionRows(rows);
  AddLegalActionsRows(rows);
  AddResolveShowdownRows(rows);
  AddRuleIrregularityRows(rows);
  AddGetViewRows(rows);
  AddSeatTicketRows(rows);
  return rows;
}

TEST(HostileInputTest, EveryRowGetsItsDocumentedStatus) {
  Matrix m;
  const bool print = std::getenv("STUD_PRINT_HOSTILE_TABLE") != nullptr;
  if (print) {
    std::printf(
        "| RPC | input | gRPC code | ErrorInfo.reason | message starts with "
        "|\n|---|---|---|---|---|\n");
  }
  int n = 0;
  for (const Row& row : Rows()) {
    SCOPED_TRACE(row.rpc + ": " + row.input);
    const grpc::Status st = row.call(m);
    ++n;
    EXPECT_EQ(st.error_code(), row.code) << CodeName(st.error_code()) << ": " << st.error_message();
    EXPECT_NE(st.error_code(), StatusCode::UNKNOWN);
    EXPECT_NE(st.error_code(), StatusCode::INTERNAL);
    std::string reason;
    auto print_row = [&] {
      if (!print || row.doc_rpc == "-") return;
      std::string message = st.error_message().substr(0, 60);
      for (char& c : message) {
        if (c == '|') c = '/';
      }
      std::printf("| %s | %s | %s | %s | %s |\n",
                  row.doc_rpc.empty() ? row.rpc.c_str() : row.doc_rpc.c_str(), row.input.c_str(),
                  CodeName(st.error_code()).c_str(), reason.empty() ? "-" : reason.c_str(),
                  message.empty() ? "" : ("`" + message + "`").c_str());
    };
    if (st.ok()) {
      print_row();
      continue;
    }
    EXPECT_EQ(st.error_message().rfind(row.message_prefix, 0), 0u)
        << "message should start with \"" << row.message_prefix << "\": " << st.error_message();
    // Short, printable UTF-8: safe to log and to carry in proto3 strings.
    EXPECT_LE(st.error_message().size(), 400u) << st.error_message();
    EXPECT_TRUE(ValidUtf8(st.error_message())) << st.error_message();
    const bool transport = st.error_code() == StatusCode::RESOURCE_EXHAUSTED ||
                           st.error_code() == StatusCode::UNIMPLEMENTED;
    if (!transport) {  // refused by gRPC before the service: no details
      google::rpc::Status details;
      ASSERT_TRUE(details.ParseFromString(st.error_details())) << "details must parse";
      EXPECT_EQ(details.code(), static_cast<int>(st.error_code()));
      const google::rpc::ErrorInfo info = ErrorInfoOf(st);
      EXPECT_EQ(info.domain(), "stud.v1");
      reason = info.reason();
      if (row.reason == "*") {
        EXPECT_EQ(reason.rfind("STUD-", 0), 0u) << "a rule ID: " << reason;
      } else {
        EXPECT_EQ(reason, row.reason);
      }
    }
    print_row();
  }
  if (print) std::printf("\n%d calls\n", n);
  EXPECT_GT(n, 100);
}

}  // namespace
}  // namespace stud::service::testing::hostile
