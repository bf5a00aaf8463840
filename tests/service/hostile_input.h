// The hostile-input matrix (hostile_input_test.cc, docs/reliability.md):
// one real gRPC server with hands to attack (Matrix), one row per attack
// (Row), and the rows of each RPC family, in the order the matrix runs them:
//
//   hostile_rows_new_hand.cc               NewHand
//   hostile_rows_credentials.cc            token attacks on every RPC that takes a token
//   hostile_rows_actions.cc                ApplyAction (LIVE deals too) and LegalActions
//   hostile_rows_showdown_irregularity.cc  ResolveShowdown and RuleIrregularity
//   hostile_rows_credentials.cc            GetView and seat tickets
#ifndef STUD_TESTS_SERVICE_HOSTILE_INPUT_H_
#define STUD_TESTS_SERVICE_HOSTILE_INPUT_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "service_fixture.h"

namespace stud::service::testing::hostile {
namespace v1 = stud::v1;
using grpc::StatusCode;

inline constexpr int kMaxMessageBytes = 1 << 20;
inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
inline constexpr StatusCode kInvalid = StatusCode::INVALID_ARGUMENT;

// One server for the whole matrix, plus tokens to attack.
class Matrix {
 public:
  Matrix() {
    EXPECT_THAT(InitCrypto(), ::stud::testing::IsOk());
    sealer_ = std::make_unique<Sealer>(*Sealer::Create({TestKey(1, 7)}));
    ServiceOptions options;
    options.allow_preset = true;
    service_ = std::make_unique<StudServiceImpl>(sealer_.get(), options);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
    builder.SetMaxSendMessageSize(kMaxMessageBytes);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(-1);  // let oversized requests reach the server
    auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port_),
                                             grpc::InsecureChannelCredentials(), args);
    stub_ = v1::StudService::NewStub(channel);

    service_hand_ = Start(BasicHand(3, v1::DEALING_MODE_SERVICE));
    tickets_ = last_tickets_;
    other_hand_ = Start(BasicHand(3, v1::DEALING_MODE_SERVICE));
    other_tickets_ = last_tickets_;
    live_hand_ = Start(BasicHand(3, v1::DEALING_MODE_LIVE));
    // One action later: the first token is now stale.
    v1::ApplyActionRequest a;
    a.set_token(service_hand_.token());
    *a.mutable_action() = ChooseAction(service_hand_, false);
    v1::ApplyActionResponse r;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    EXPECT_THAT(stub_->ApplyAction(&ctx, a, &r), ::stud::testing::IsOk());
    next_ = r.update();
  }
  ~Matrix() { server_->Shutdown(); }

  v1::HandUpdate Start(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    EXPECT_THAT(stub_->NewHand(&ctx, req, &resp), ::stud::testing::IsOk());
    last_tickets_ = {resp.table_ticket()};
    for (const v1::SeatTicket& t : resp.seat_tickets()) last_tickets_.push_back(t.ticket());
    return resp.update();
  }
  // Seat tickets of the fresh hand ([0] = the table's) and of the other hand.
  const std::string& ticket(int seat) const { return tickets_.at(static_cast<size_t>(seat)); }
  const std::string& other_ticket(int seat) const {
    return other_tickets_.at(static_cast<size_t>(seat));
  }
  // A seat of the fresh hand that is not to act, and one that is.
  int bystander() const { return next_.to_act() == 1 ? 2 : 1; }

  grpc::Status Call(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->NewHand(&ctx, req, &resp);
  }
  grpc::Status Call(const v1::ApplyActionRequest& req) {
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->ApplyAction(&ctx, req, &resp);
  }
  grpc::Status Call(const v1::LegalActionsRequest& req) {
    v1::LegalActionsResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->LegalActions(&ctx, req, &resp);
  }
  grpc::Status Call(const v1::ResolveShowdownRequest& req) {
    v1::ResolveShowdownResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->ResolveShowdown(&ctx, req, &resp);
  }
  grpc::Status Call(const v1::RuleIrregularityRequest& req) {
    v1::RuleIrregularityResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->RuleIrregularity(&ctx, req, &resp);
  }
  grpc::Status Call(const v1::ExportHandHistoryRequest& req) {
    v1::ExportHandHistoryResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->ExportHandHistory(&ctx, req, &resp);
  }
  grpc::Status Call(const v1::GetViewRequest& req) {
    v1::GetViewResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub_->GetView(&ctx, req, &resp);
  }

  // A valid action request on the fresh hand (the seat to act checks/calls).
  v1::ApplyActionRequest GoodAction() const {
    v1::ApplyActionRequest a;
    a.set_token(next_.token());
    *a.mutable_action() = ChooseAction(next_, false);
    return a;
  }
  v1::RuleIrregularityRequest GoodReport() const {
    v1::RuleIrregularityRequest r;
    r.set_token(next_.token());
    r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_ABSENT_PLAYER);
    r.mutable_report()->set_seat(next_.to_act());
    return r;
  }
  v1::ResolveShowdownRequest GoodStateless() const {
    v1::ResolveShowdownRequest r;
    v1::StatelessShowdown* sd = r.mutable_stateless();
    sd->set_variant(v1::VARIANT_STUD);
    const char* hands[2][7] = {{"As", "Ad", "Kc", "Kd", "2h", "3h", "4h"},
                               {"Qs", "Qd", "Jc", "Jd", "5h", "6h", "8s"}};
    for (int s = 0; s < 2; ++s) {
      v1::ShowdownSeat* seat = sd->add_seats();
      seat->set_seat(s + 1);
      seat->set_contribution(100);
      for (const char* c : hands[s]) seat->add_cards(c);
    }
    return r;
  }

  const std::string& token() const { return next_.token(); }
  const std::string& stale_token() const { return service_hand_.token(); }
  const std::string& other_token() const { return other_hand_.token(); }
  const std::string& live_token() const { return live_hand_.token(); }
  const v1::HandUpdate& live() const { return live_hand_; }
  const v1::HandUpdate& next() const { return next_; }
  const v1::HandUpdate& first() const { return service_hand_; }

 private:
  int port_ = 0;
  std::unique_ptr<Sealer> sealer_;
  std::unique_ptr<StudServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::StudService::Stub> stub_;
  v1::HandUpdate service_hand_, other_hand_, live_hand_, next_;
  std::vector<std::string> tickets_, other_tickets_, last_tickets_;
};

struct Row {
  std::string rpc;
  std::string input;
  std::function<grpc::Status(Matrix&)> call;
  StatusCode code;
  std::string message_prefix;  // the message starts with this
  std::string reason;          // ErrorInfo.reason ("" for OK rows and transport refusals)
  std::string doc_rpc = "";    // the RPC column of the printed table ("-": not printed)
};

// A row's call: sends the request `make` builds to the matrix's server.
template <typename Req>
std::function<grpc::Status(Matrix&)> Send(std::function<Req(Matrix&)> make) {
  return [make](Matrix& m) { return m.Call(make(m)); };
}

// The rows of each family, appended to `rows`.
void AddNewHandRows(std::vector<Row>& rows);
void AddTokenRows(std::vector<Row>& rows);  // every RPC that takes a token
void AddApplyActionRows(std::vector<Row>& rows);
void AddLegalActionsRows(std::vector<Row>& rows);
void AddResolveShowdownRows(std::vector<Row>& rows);
void AddRuleIrregularityRows(std::vector<Row>& rows);
void AddGetViewRows(std::vector<Row>& rows);
void AddSeatTicketRows(std::vector<Row>& rows);

}  // namespace stud::service::testing::hostile

#endif  // STUD_TESTS_SERVICE_HOSTILE_INPUT_H_
