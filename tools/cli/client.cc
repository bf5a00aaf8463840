#include "tools/cli/client.h"

#include <chrono>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace stud_cli {
namespace {

const char* CodeName(grpc::StatusCode c) {
  switch (c) {
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    default:
      return "ERROR";
  }
}

// Every seat of the hand, so that the update carries each seat's own cards
// (the CLI shows them in hot-seat play and in hand-file boards).
template <typename Request>
void AskForEveryPrivateView(const v1::HandUpdate& current, Request* req) {
  for (const v1::SeatView& s : current.public_view().seats()) req->add_private_view_seats(s.seat());
}

}  // namespace

CallError ErrorOf(const grpc::Status& status) {
  CallError e;
  e.code = status.error_code();
  e.message = status.error_message();
  google::rpc::Status details;
  if (!status.error_details().empty() && details.ParseFromString(status.error_details())) {
    for (const google::protobuf::Any& any : details.details()) {
      google::rpc::ErrorInfo info;
      google::rpc::LocalizedMessage localized;
      if (any.UnpackTo(&info)) e.reason = info.reason();
      if (any.UnpackTo(&localized) && !localized.message().empty()) e.message = localized.message();
    }
  }
  return e;
}

std::string DescribeError(const CallError& e) {
  if (e.code == grpc::StatusCode::FAILED_PRECONDITION && !e.reason.empty()) {
    absl::string_view message = e.message;
    absl::ConsumePrefix(&message, absl::StrCat(e.reason, ": "));  // the message may cite it too
    return absl::StrCat("rule ", e.reason, ": ", message);
  }
  return absl::StrCat(CodeName(e.code), e.reason.empty() ? "" : absl::StrCat(" (", e.reason, ")"),
                      ": ", e.message);
}

Client::Client(const std::string& address, int timeout_seconds)
    : channel_(grpc::CreateChannel(address, grpc::InsecureChannelCredentials())),
      stub_(v1::StudService::NewStub(channel_)),
      timeout_(timeout_seconds),
      address_(address) {}

bool Client::Connect() {
  if (channel_->WaitForConnected(std::chrono::system_clock::now() +
                                 std::chrono::seconds(timeout_))) {
    return true;
  }
  std::fprintf(stderr, "stud_cli: cannot reach stud_server at %s within %d s\n", address_.c_str(),
               timeout_);
  return false;
}

template <typename Req, typename Resp, typename Method>
std::optional<CallError> Client::Call(Method method, const Req& req, Resp* resp) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(timeout_));
  grpc::Status st = ((*stub_).*method)(&ctx, req, resp);
  if (st.ok()) return std::nullopt;
  return ErrorOf(st);
}

std::optional<CallError> Client::NewHand(const v1::NewHandRequest& req, v1::HandUpdate* out) {
  v1::NewHandResponse resp;
  auto err = Call(&v1::StudService::Stub::NewHand, req, &resp);
  if (!err) *out = resp.update();
  return err;
}

std::optional<CallError> Client::ApplyAction(const v1::HandUpdate& current,
                                             const v1::Action& action,
                                             v1::ApplyActionResponse* resp) {
  v1::ApplyActionRequest req;
  req.set_token(current.token());
  req.set_expected_version(current.version());
  *req.mutable_action() = action;
  AskForEveryPrivateView(current, &req);
  return Call(&v1::StudService::Stub::ApplyAction, req, resp);
}

std::optional<CallError> Client::Apply(const v1::HandUpdate& current, v1::ActionKind kind, int seat,
                                       int64_t amount_to, v1::HandUpdate* out) {
  v1::Action action;
  action.set_kind(kind);
  action.set_seat(seat);
  action.set_amount_to(amount_to);
  v1::ApplyActionResponse resp;
  auto err = ApplyAction(current, action, &resp);
  if (!err) *out = resp.update();
  return err;
}

std::optional<CallError> Client::Deal(const v1::HandUpdate& current, const v1::Action& action,
                                      v1::HandUpdate* out, std::optional<v1::Ruling>* ruling) {
  v1::ApplyActionResponse resp;
  if (auto err = ApplyAction(current, action, &resp)) return err;
  *out = resp.update();
  ruling->reset();
  if (resp.has_ruling()) *ruling = resp.ruling();
  return std::nullopt;
}

std::optional<CallError> Client::Rule(const v1::HandUpdate& current,
                                      const v1::IrregularityReport& report, v1::HandUpdate* out,
                                      std::optional<v1::Ruling>* ruling) {
  v1::RuleIrregularityRequest req;
  req.set_token(current.token());
  req.set_expected_version(current.version());
  *req.mutable_report() = report;
  AskForEveryPrivateView(current, &req);
  v1::RuleIrregularityResponse resp;
  auto err = Call(&v1::StudService::Stub::RuleIrregularity, req, &resp);
  if (err) return err;
  *out = resp.update();
  *ruling = resp.ruling();
  return std::nullopt;
}

std::optional<CallError> Client::Resolve(const v1::HandUpdate& current, v1::Locale locale,
                                         v1::ResolveShowdownResponse* out) {
  v1::ResolveShowdownRequest req;
  req.set_token(current.token());
  req.set_locale(locale);
  return Call(&v1::StudService::Stub::ResolveShowdown, req, out);
}

std::optional<CallError> Client::RevealDeck(const std::string& token, v1::HandUpdate* out) {
  v1::GetViewRequest req;
  req.set_token(token);
  req.set_reveal_deck(true);
  v1::GetViewResponse resp;
  std::optional<CallError> err = Call(&v1::StudService::Stub::GetView, req, &resp);
  if (!err) *out = std::move(*resp.mutable_update());
  return err;
}

std::optional<CallError> Client::ExportHistory(const std::string& token, int viewer, bool reveal,
                                               v1::ExportHandHistoryResponse* out) {
  v1::ExportHandHistoryRequest req;
  req.set_token(token);
  req.set_viewer_seat(viewer);
  req.set_reveal_hidden_cards(reveal);
  return Call(&v1::StudService::Stub::ExportHandHistory, req, out);
}

std::optional<CallError> Client::ReplayHistory(const std::string& phh, v1::Profile profile,
                                               v1::ReplayHandHistoryResponse* out) {
  v1::ReplayHandHistoryRequest req;
  req.set_phh(phh);
  req.set_profile(profile);
  return Call(&v1::StudService::Stub::ReplayHandHistory, req, out);
}

}  // namespace stud_cli
