// The stud_cli side of stud.v1.StudService: one blocking stub with a deadline
// on every call, and the structured error details (google.rpc ErrorInfo and
// LocalizedMessage) read out of a refused call.
//
// Every method returns std::nullopt when the call succeeded (and fills its
// output), or the CallError it was refused with (the output is untouched).
#ifndef STUD_TOOLS_CLI_CLIENT_H_
#define STUD_TOOLS_CLI_CLIENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "grpcpp/grpcpp.h"
#include "stud/v1/stud.grpc.pb.h"
#include "stud/v1/stud.pb.h"

namespace stud_cli {

namespace v1 = stud::v1;

// A refused call, as the service explains it.
struct CallError {
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string reason;   // ErrorInfo.reason: the rule ID for rule errors
  std::string message;  // LocalizedMessage, else the status message
};

// Reads the error details of a failed status.
CallError ErrorOf(const grpc::Status& status);

// One line for a person: "rule STUD-CAP-1: ..." for a rule the request broke
// (FAILED_PRECONDITION with a reason), else "CODE (reason): message".
std::string DescribeError(const CallError& e);

class Client {
 public:
  // Plaintext gRPC to `address` (host:port); `timeout_seconds` bounds the
  // first connection and each call.
  Client(const std::string& address, int timeout_seconds);

  // Waits for the channel; on failure prints why to stderr and returns false.
  bool Connect();

  std::optional<CallError> NewHand(const v1::NewHandRequest& req, v1::HandUpdate* out);

  // A betting (or show/muck/option) action by `seat` on the hand `current`.
  std::optional<CallError> Apply(const v1::HandUpdate& current, v1::ActionKind kind, int seat,
                                 int64_t amount_to, v1::HandUpdate* out);

  // A LIVE deal report; `ruling` is set when the report was ruled.
  std::optional<CallError> Deal(const v1::HandUpdate& current, const v1::Action& action,
                                v1::HandUpdate* out, std::optional<v1::Ruling>* ruling);

  // An irregularity the floor saw; a ruling always comes back.
  std::optional<CallError> Rule(const v1::HandUpdate& current, const v1::IrregularityReport& report,
                                v1::HandUpdate* out, std::optional<v1::Ruling>* ruling);

  std::optional<CallError> Resolve(const v1::HandUpdate& current, v1::Locale locale,
                                   v1::ResolveShowdownResponse* out);

  // GetView with reveal_deck: the complete hand's deck, recycle order and
  // salt in out->public_view().deck_commitment(). A server without
  // --allow_deck_reveal refuses it (PERMISSION_DENIED DECK_REVEAL_NOT_PERMITTED).
  std::optional<CallError> RevealDeck(const std::string& token, v1::HandUpdate* out);

  std::optional<CallError> ExportHistory(const std::string& token, int viewer, bool reveal,
                                         v1::ExportHandHistoryResponse* out);

  std::optional<CallError> ReplayHistory(const std::string& phh, v1::Profile profile,
                                         v1::ReplayHandHistoryResponse* out);

 private:
  template <typename Req, typename Resp, typename Method>
  std::optional<CallError> Call(Method method, const Req& req, Resp* resp);

  // ApplyAction with `action` on `current`, asking for every seat's private view.
  std::optional<CallError> ApplyAction(const v1::HandUpdate& current, const v1::Action& action,
                                       v1::ApplyActionResponse* resp);

  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::StudService::Stub> stub_;
  int timeout_;
  std::string address_;
};

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_CLIENT_H_
