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
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "service/trust/seat_tickets.h"
#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using grpc::StatusCode;

constexpr int kMaxMessageBytes = 1 << 20;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

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

// One server for the whole matrix, plus tokens to attack.
class Matrix {
 public:
  Matrix() {
    EXPECT_TRUE(InitCrypto().ok());
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
    EXPECT_TRUE(stub_->ApplyAction(&ctx, a, &r).ok());
    next_ = r.update();
  }
  ~Matrix() { server_->Shutdown(); }

  v1::HandUpdate Start(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    EXPECT_TRUE(stub_->NewHand(&ctx, req, &resp).ok());
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

// Token surgery.
std::string Truncated(std::string t, size_t n) { return t.substr(0, n); }
std::string WithByte(std::string t, size_t i, char v) {
  t[i] = v;
  return t;
}
std::string Flipped(std::string t, size_t i) {
  t[i] = static_cast<char>(t[i] ^ 0x01);
  return t;
}
std::string BlocksSwapped(std::string t) {  // two 16-byte ciphertext blocks change places
  const size_t a = kTokenHeaderBytes + kTokenNonceBytes, b = a + 16;
  std::string block = t.substr(a, 16);
  t.replace(a, 16, t.substr(b, 16));
  t.replace(b, 16, block);
  return t;
}
std::string NonceFrom(std::string t, const std::string& other) {  // another token's nonce
  t.replace(kTokenHeaderBytes, kTokenNonceBytes, other.substr(kTokenHeaderBytes, kTokenNonceBytes));
  return t;
}
std::string SealedBy(const Key& key, const std::string& plain_from_token) {
  Sealer mine = *Sealer::Create({TestKey(1, 7)});
  Sealer theirs = *Sealer::Create({key});
  return theirs.Seal(*mine.Open(plain_from_token));
}

template <typename Req>
std::function<grpc::Status(Matrix&)> Send(std::function<Req(Matrix&)> make) {
  return [make](Matrix& m) { return m.Call(make(m)); };
}

// Every RPC that takes a token, with that token.
std::vector<std::pair<std::string, std::function<grpc::Status(Matrix&, const std::string&)>>>
TokenRpcs() {
  return {
      {"ApplyAction",
       [](Matrix& m, const std::string& t) {
         v1::ApplyActionRequest r = m.GoodAction();
         r.set_token(t);
         return m.Call(r);
       }},
      {"LegalActions",
       [](Matrix& m, const std::string& t) {
         v1::LegalActionsRequest r;
         r.set_token(t);
         r.set_seat(1);
         return m.Call(r);
       }},
      {"ResolveShowdown",
       [](Matrix& m, const std::string& t) {
         v1::ResolveShowdownRequest r;
         r.set_token(t);
         return m.Call(r);
       }},
      {"RuleIrregularity",
       [](Matrix& m, const std::string& t) {
         v1::RuleIrregularityRequest r = m.GoodReport();
         r.set_token(t);
         return m.Call(r);
       }},
      {"GetView",
       [](Matrix& m, const std::string& t) {
         v1::GetViewRequest r;
         r.set_token(t);
         return m.Call(r);
       }},
      {"ExportHandHistory",
       [](Matrix& m, const std::string& t) {
         v1::ExportHandHistoryRequest r;
         r.set_token(t);
         return m.Call(r);
       }},
  };
}

// Seat tickets (service/trust/seat_tickets.h). This matrix's server runs trusted
// (tickets not required), and a ticket sent still scopes the call; `required`
// sends to a server that requires them.
void AddSeatTicketRows(std::vector<Row>& rows) {
  static const SeatTicketPolicy kRequired{.required = true};
  auto required = [](auto request) {
    static Server server({TestKey(1, 7)}, ServiceOptions{.seat_tickets = &kRequired});
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    if constexpr (std::is_same_v<decltype(request), v1::GetViewRequest>) {
      v1::GetViewResponse resp;
      return server.stub().GetView(&ctx, request, &resp);
    } else {
      v1::ResolveShowdownResponse resp;
      return server.stub().ResolveShowdown(&ctx, request, &resp);
    }
  };
  auto gv = [&](std::string input, std::function<void(Matrix&, v1::GetViewRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"GetView", input, Send<v1::GetViewRequest>([edit](Matrix& m) {
                      v1::GetViewRequest r;
                      r.set_token(m.token());
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  const StatusCode kDenied = StatusCode::PERMISSION_DENIED;
  rows.push_back({"GetView", "seat_ticket missing (--seat_tickets=required)",
                  [required](Matrix& m) {
                    v1::GetViewRequest r;
                    r.set_token(m.token());
                    return required(r);
                  },
                  kDenied, "seat_ticket: required", "SEAT_TICKET_REQUIRED"});
  rows.push_back({"ResolveShowdown", "seat_ticket missing (--seat_tickets=required)",
                  [required](Matrix& m) {
                    v1::ResolveShowdownRequest r;
                    r.set_token(m.token());
                    return required(r);
                  },
                  kDenied, "seat_ticket: required", "SEAT_TICKET_REQUIRED"});
  gv(
      "seat_ticket with one tag bit flipped",
      [](Matrix& m, auto& r) { r.set_seat_ticket(Flipped(m.ticket(1), 35)); }, kDenied,
      "seat_ticket: not authentic", "SEAT_TICKET_INVALID");
  gv(
      "seat_ticket rewritten to another seat",
      [](Matrix& m, auto& r) { r.set_seat_ticket(WithByte(m.ticket(1), 23, 2)); }, kDenied,
      "seat_ticket: not authentic", "SEAT_TICKET_INVALID");
  gv(
      "seat_ticket is the token", [](Matrix& m, auto& r) { r.set_seat_ticket(m.token()); }, kDenied,
      "seat_ticket: not a seat ticket", "SEAT_TICKET_INVALID");
  gv(
      "seat_ticket of 39 bytes",
      [](Matrix& m, auto& r) { r.set_seat_ticket(Truncated(m.ticket(1), 39)); }, kDenied,
      "seat_ticket: not a seat ticket", "SEAT_TICKET_INVALID");
  gv(
      "seat_ticket key id altered",
      [](Matrix& m, auto& r) { r.set_seat_ticket(WithByte(m.ticket(1), 6, 5)); }, kDenied,
      "seat_ticket: issued under a key", "SEAT_TICKET_INVALID");
  gv(
      "seat_ticket of another hand",
      [](Matrix& m, auto& r) { r.set_seat_ticket(m.other_ticket(1)); }, kDenied,
      "seat_ticket: the ticket belongs to another hand", "SEAT_TICKET_WRONG_HAND");
  gv(
      "seat 1's ticket, seat 2's private view",
      [](Matrix& m, auto& r) { r.set_seat_ticket(m.ticket(1)), r.add_private_view_seats(2); },
      kDenied, "private_view_seats: seat 1's ticket may see only", "SEAT_TICKET_WRONG_SEAT");
  gv(
      "table ticket, a private view",
      [](Matrix& m, auto& r) { r.set_seat_ticket(m.ticket(0)), r.add_private_view_seats(1); },
      kDenied, "private_view_seats: the table's ticket", "SEAT_TICKET_WRONG_SEAT");
  gv(
      "seat 1's ticket, its own private view",
      [](Matrix& m, auto& r) { r.set_seat_ticket(m.ticket(1)), r.add_private_view_seats(1); },
      StatusCode::OK, "", "");
  rows.push_back({"ApplyAction", "another seat's ticket acting for the seat to act",
                  Send<v1::ApplyActionRequest>([](Matrix& m) {
                    v1::ApplyActionRequest r = m.GoodAction();
                    r.set_seat_ticket(m.ticket(m.bystander()));
                    return r;
                  }),
                  kDenied, "action.seat: seat ", "SEAT_TICKET_WRONG_SEAT"});
  rows.push_back({"ApplyAction", "table ticket acting for a seat",
                  Send<v1::ApplyActionRequest>([](Matrix& m) {
                    v1::ApplyActionRequest r = m.GoodAction();
                    r.set_seat_ticket(m.ticket(0));
                    return r;
                  }),
                  kDenied, "action.kind: the table's ticket", "SEAT_TICKET_NOT_PERMITTED"});
  rows.push_back({"LegalActions", "seat 1's ticket asking for seat 2",
                  Send<v1::LegalActionsRequest>([](Matrix& m) {
                    v1::LegalActionsRequest r;
                    r.set_token(m.token());
                    r.set_seat_ticket(m.ticket(1));
                    r.set_seat(2);
                    return r;
                  }),
                  kDenied, "seat: seat 1's ticket asks only for seat 1", "SEAT_TICKET_WRONG_SEAT"});
  rows.push_back({"RuleIrregularity", "a seat's ticket reporting an irregularity",
                  Send<v1::RuleIrregularityRequest>([](Matrix& m) {
                    v1::RuleIrregularityRequest r = m.GoodReport();
                    r.set_seat_ticket(m.ticket(1));
                    return r;
                  }),
                  kDenied, "seat_ticket: seat 1's ticket cannot report",
                  "SEAT_TICKET_NOT_PERMITTED"});
  rows.push_back({"ExportHandHistory", "seat 1's ticket, seat 2's view",
                  Send<v1::ExportHandHistoryRequest>([](Matrix& m) {
                    v1::ExportHandHistoryRequest r;
                    r.set_token(m.token());
                    r.set_seat_ticket(m.ticket(1));
                    r.set_viewer_seat(2);
                    return r;
                  }),
                  kDenied, "viewer_seat: seat 1's ticket exports", "SEAT_TICKET_WRONG_SEAT"});
  rows.push_back({"ExportHandHistory", "seat 1's ticket with reveal_hidden_cards",
                  Send<v1::ExportHandHistoryRequest>([](Matrix& m) {
                    v1::ExportHandHistoryRequest r;
                    r.set_token(m.token());
                    r.set_seat_ticket(m.ticket(1));
                    r.set_viewer_seat(1);
                    r.set_reveal_hidden_cards(true);
                    return r;
                  }),
                  kDenied, "reveal_hidden_cards: a ticket never", "SEAT_TICKET_NOT_PERMITTED"});
}

std::vector<Row> Rows() {
  std::vector<Row> rows;
  const StatusCode kInvalid = StatusCode::INVALID_ARGUMENT;
  auto nh = [&](std::string input, std::function<void(v1::NewHandRequest&)> edit,
                std::string prefix, StatusCode code = StatusCode::INVALID_ARGUMENT,
                std::string reason = "INVALID_ARGUMENT",
                v1::DealingMode mode = v1::DEALING_MODE_SERVICE) {
    rows.push_back({"NewHand", input, Send<v1::NewHandRequest>([edit, mode](Matrix&) {
                      v1::NewHandRequest r = BasicHand(3, mode);
                      edit(r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  // ---- NewHand ----
  nh(
      "variant missing", [](auto& r) { r.clear_variant(); }, "variant: required");
  nh(
      "variant unknown enum value (99)",
      [](auto& r) { r.set_variant(static_cast<v1::Variant>(99)); }, "variant: required");
  nh(
      "stakes missing", [](auto& r) { r.clear_stakes(); }, "stakes: required");
  nh(
      "stakes preset unknown", [](auto& r) { r.mutable_stakes()->set_preset("$1-$1000000"); },
      "stakes.preset:");
  nh(
      "stakes custom, negative ante",
      [](auto& r) {
        auto* c = r.mutable_stakes()->mutable_custom();
        c->set_ante(-5), c->set_bring_in(5), c->set_small_bet(10), c->set_big_bet(20);
      },
      "stakes.custom: stakes.ante: must not be negative");
  nh(
      "stakes custom, big bet INT64_MAX (overflow)",
      [](auto& r) {
        auto* c = r.mutable_stakes()->mutable_custom();
        c->set_ante(1), c->set_bring_in(5), c->set_small_bet(10), c->set_big_bet(kInt64Max);
      },
      "stakes.custom: stakes.big_bet: amounts above 2^40");
  nh(
      "no seats", [](auto& r) { r.clear_seats(); }, "seats: 0 seats given");
  nh(
      "9 seats", [](auto& r) { r = BasicHand(9, v1::DEALING_MODE_SERVICE); },
      "seats: 9 seats given");
  nh(
      "seat 0", [](auto& r) { r.mutable_seats(0)->set_seat(0); },
      "seats[0].seat: 0 is out of range or repeated");
  nh(
      "seat 9 of 3", [](auto& r) { r.mutable_seats(2)->set_seat(9); },
      "seats[2].seat: 9 is out of range");
  nh(
      "seat repeated", [](auto& r) { r.mutable_seats(1)->set_seat(1); },
      "seats[1].seat: 1 is out of range or repeated");
  nh(
      "stack 0", [](auto& r) { r.mutable_seats(0)->set_stack(0); },
      "seats[0].stack: must be positive");
  nh(
      "stack negative", [](auto& r) { r.mutable_seats(1)->set_stack(-100); },
      "seats[1].stack: must be positive");
  nh(
      "stack INT64_MAX (overflow)", [](auto& r) { r.mutable_seats(0)->set_stack(kInt64Max); },
      "seats[0].stack: must be positive and at most 2^40");
  nh(
      "profile unknown enum value", [](auto& r) { r.set_profile(static_cast<v1::Profile>(42)); },
      "profile: unknown profile");
  nh(
      "option override unknown enum value",
      [](auto& r) {
        r.mutable_option_overrides()->set_deck_exhaustion(static_cast<v1::DeckExhaustion>(77));
      },
      "option_overrides.deck_exhaustion: must be set to a named value");
  nh(
      "option override out of range (0 raises)",
      [](auto& r) { r.mutable_option_overrides()->set_max_raises_per_round(0); },
      "option_overrides:");
  nh(
      "dealing mode unknown enum value",
      [](auto& r) { r.set_dealing_mode(static_cast<v1::DealingMode>(9)); },
      "dealing_mode: unknown dealing mode");
  nh(
      "locale unknown enum value", [](auto& r) { r.set_locale(static_cast<v1::Locale>(5)); },
      "locale: must be LOCALE_EN or LOCALE_ES");
  nh(
      "private_view_seats out of range", [](auto& r) { r.add_private_view_seats(4); },
      "private_view_seats[0]: seat 4 is not 1..3");
  nh(
      "private_view_seats repeated",
      [](auto& r) { r.add_private_view_seats(2), r.add_private_view_seats(2); },
      "private_view_seats[1]: seat 2 appears twice");
  nh(
      "preset deck with SERVICE dealing", [](auto& r) { r.add_preset_deck("As"); },
      "preset_deck: only allowed with DEALING_MODE_PRESET");
  nh(
      "PRESET deck empty", [](auto& r) { r.clear_preset_deck(); }, "preset_deck: required",
      kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck of 51 cards", [](auto& r) { r.mutable_preset_deck()->RemoveLast(); },
      "deck: must list all 52 cards in dealing order, got 51", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck of 53 cards", [](auto& r) { r.add_preset_deck("As"); }, "deck: As appears twice",
      kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck with a duplicate card", [](auto& r) { r.set_preset_deck(10, "2c"); },
      "deck: 2c appears twice", kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck with a malformed card", [](auto& r) { r.set_preset_deck(3, "1x"); },
      "preset_deck[3]: \"1x\" is not a card", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck with an empty card", [](auto& r) { r.set_preset_deck(0, ""); },
      "preset_deck[0]: \"\" is not a card", kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET card of 100 KB (echoed back cut to 16 bytes)",
      [](auto& r) { r.set_preset_deck(0, std::string(100000, 'x')); },
      "preset_deck[0]: \"xxxxxxxxxxxxxxxx...(100000 bytes)\" is not a card", kInvalid,
      "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET card with control and non-ASCII characters (echoed as \\xNN)",
      [](auto& r) { r.set_preset_deck(0, "A\xe2\x99\xa0\n"); },
      "preset_deck[0]: \"A\\xe2\\x99\\xa0\\x0a\" is not a card", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "PRESET card that is not UTF-8 (refused by protobuf parsing: not a NewHandRequest)",
      [](auto& r) { r.set_preset_deck(0, std::string(8, '\xff')); },
      "request: the bytes sent to NewHand are not a valid stud.v1.NewHandRequest message", kInvalid,
      "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck of 10 000 cards",
      [](auto& r) {
        for (int i = 0; i < 10000; ++i) r.add_preset_deck("Kd");
      },
      "deck: Kd appears twice", kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET recycle order of 3 cards",
      [](auto& r) {
        r.add_preset_recycle_order("As"), r.add_preset_recycle_order("Ks"),
            r.add_preset_recycle_order("Qs");
      },
      "recycle_order: must list all 52 cards", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "oversized message (2 MiB > --max_message_bytes)",
      [](auto& r) { r.mutable_stakes()->set_preset(std::string(2 << 20, 'x')); }, "",
      StatusCode::RESOURCE_EXHAUSTED, "");

  // ---- token attacks, on every RPC that takes a token ----
  struct TokenAttack {
    std::string input;
    std::function<std::string(Matrix&)> token;
    StatusCode code;
    std::string prefix, reason;
  };
  const Key foreign_same_id = TestKey(1, 99), foreign_other_id = TestKey(2, 7);
  std::vector<TokenAttack> attacks = {
      {"token empty", [](Matrix&) { return std::string(); }, kInvalid, "token: required",
       "INVALID_ARGUMENT"},
      {"token of 10 bytes", [](Matrix& m) { return Truncated(m.token(), 10); },
       StatusCode::UNAUTHENTICATED, "token: malformed (10 bytes", "TOKEN_MALFORMED"},
      {"token truncated by one byte",
       [](Matrix& m) { return Truncated(m.token(), m.token().size() - 1); },
       StatusCode::UNAUTHENTICATED, "token: authentication failed", "TOKEN_AUTHENTICATION_FAILED"},
      {"token with bad magic", [](Matrix& m) { return WithByte(m.token(), 0, 'X'); },
       StatusCode::UNAUTHENTICATED, "token: malformed (bad magic)", "TOKEN_MALFORMED"},
      {"token format byte 9", [](Matrix& m) { return WithByte(m.token(), 2, 9); },
       StatusCode::UNAUTHENTICATED, "token: format version 9 is not supported",
       "TOKEN_VERSION_UNSUPPORTED"},
      {"token key id altered", [](Matrix& m) { return WithByte(m.token(), 6, 5); },
       StatusCode::UNAUTHENTICATED, "token: sealed with key id 5", "TOKEN_UNKNOWN_KEY"},
      {"token one ciphertext bit flipped",
       [](Matrix& m) { return Flipped(m.token(), m.token().size() / 2); },
       StatusCode::UNAUTHENTICATED, "token: authentication failed", "TOKEN_AUTHENTICATION_FAILED"},
      {"token ciphertext blocks reordered", [](Matrix& m) { return BlocksSwapped(m.token()); },
       StatusCode::UNAUTHENTICATED, "token: authentication failed", "TOKEN_AUTHENTICATION_FAILED"},
      {"token with another token's nonce",
       [](Matrix& m) { return NonceFrom(m.token(), m.other_token()); }, StatusCode::UNAUTHENTICATED,
       "token: authentication failed", "TOKEN_AUTHENTICATION_FAILED"},
      {"token sealed by another deployment's key with the same id",
       [foreign_same_id](Matrix& m) { return SealedBy(foreign_same_id, m.token()); },
       StatusCode::UNAUTHENTICATED, "token: authentication failed", "TOKEN_AUTHENTICATION_FAILED"},
      {"token sealed by another deployment's key id",
       [foreign_other_id](Matrix& m) { return SealedBy(foreign_other_id, m.token()); },
       StatusCode::UNAUTHENTICATED, "token: sealed with key id 2", "TOKEN_UNKNOWN_KEY"},
      {"token sealed for a tenant (this call has none; see tenants_test for tenant against tenant)",
       [](Matrix& m) {
         Sealer same = *Sealer::Create({TestKey(1, 7)});
         return same.Seal(*same.Open(m.token()), "acme");
       },
       StatusCode::PERMISSION_DENIED, "token: sealed for a tenant", "TOKEN_TENANT_MISMATCH"},
      {"token of 2 MiB (> --max_message_bytes)",
       [](Matrix& m) { return m.token() + std::string(2 << 20, 'x'); },
       StatusCode::RESOURCE_EXHAUSTED, "", ""},
  };
  for (const auto& [rpc, call] : TokenRpcs()) {
    for (const TokenAttack& a : attacks) {
      // Printed once for the six RPCs (they share Unseal).
      rows.push_back(
          {rpc, a.input, [call = call, token = a.token](Matrix& m) { return call(m, token(m)); },
           a.code, a.prefix, a.reason, rpc == "ApplyAction" ? "every RPC with a token" : "-"});
    }
  }

  // ---- ApplyAction ----
  auto aa = [&](std::string input, std::function<void(Matrix&, v1::ApplyActionRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"ApplyAction", input, Send<v1::ApplyActionRequest>([edit](Matrix& m) {
                      v1::ApplyActionRequest r = m.GoodAction();
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  aa(
      "action missing", [](Matrix&, auto& r) { r.clear_action(); }, kInvalid, "action: required",
      "INVALID_ARGUMENT");
  aa(
      "action kind missing", [](Matrix&, auto& r) { r.mutable_action()->clear_kind(); }, kInvalid,
      "action.kind: required", "INVALID_ARGUMENT");
  aa(
      "action kind unknown enum value (99)",
      [](Matrix&, auto& r) { r.mutable_action()->set_kind(static_cast<v1::ActionKind>(99)); },
      kInvalid, "action.kind: required", "INVALID_ARGUMENT");
  aa(
      "action seat -1", [](Matrix&, auto& r) { r.mutable_action()->set_seat(-1); }, kInvalid,
      "action.seat: must be 1..8", "INVALID_ARGUMENT");
  aa(
      "action seat 9", [](Matrix&, auto& r) { r.mutable_action()->set_seat(9); }, kInvalid,
      "action.seat: must be 1..8", "INVALID_ARGUMENT");
  aa(
      "action seat 5 at a 3-seat table", [](Matrix&, auto& r) { r.mutable_action()->set_seat(5); },
      kInvalid, "action.seat: 5 is not at this table (seats 1..3)", "INVALID_ARGUMENT");
  aa(
      "action by a seat not to act",
      [](Matrix& m, auto& r) { r.mutable_action()->set_seat(m.next().to_act() % 3 + 1); },
      StatusCode::FAILED_PRECONDITION, "", "*");
  aa(
      "amount_to negative", [](Matrix&, auto& r) { r.mutable_action()->set_amount_to(-1); },
      kInvalid, "action.amount_to: must not be negative", "INVALID_ARGUMENT");
  aa(
      "raise to INT64_MAX (overflow)",
      [](Matrix&, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_RAISE);
        r.mutable_action()->set_amount_to(kInt64Max);
      },
      StatusCode::FAILED_PRECONDITION, "", "*");
  aa(
      "card on a betting action", [](Matrix&, auto& r) { r.mutable_action()->set_card("As"); },
      kInvalid, "action.card: only ACTION_KIND_DEAL and ACTION_KIND_BURN carry a card",
      "INVALID_ARGUMENT");
  aa(
      "DEAL on a SERVICE-dealt hand",
      [](Matrix&, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
        r.mutable_action()->set_seat(1);
        r.mutable_action()->set_amount_to(0);
        r.mutable_action()->set_card("As");
      },
      StatusCode::FAILED_PRECONDITION, "", "*");
  aa(
      "FOLD with an amount (5000)",
      [](Matrix& m, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_FOLD);
        r.mutable_action()->set_seat(m.next().to_act());
        r.mutable_action()->set_amount_to(5000);
      },
      kInvalid, "action.amount_to: fold puts in no chips", "INVALID_ARGUMENT");
  aa(
      "face_up on a betting action",
      [](Matrix&, auto& r) { r.mutable_action()->set_face_up(true); }, kInvalid,
      "action.face_up: only ACTION_KIND_DEAL and ACTION_KIND_BURN are dealt face up or down",
      "INVALID_ARGUMENT");
  aa(
      "SHOW with an amount",
      [](Matrix&, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_SHOW);
        r.mutable_action()->set_amount_to(100);
      },
      kInvalid, "action.amount_to: show takes no amount", "INVALID_ARGUMENT");
  aa(
      "private_view_seats out of range", [](Matrix&, auto& r) { r.add_private_view_seats(0); },
      kInvalid, "private_view_seats[0]: seat 0 is not 1..3", "INVALID_ARGUMENT");
  aa(
      "expected_version stale", [](Matrix&, auto& r) { r.set_expected_version(0); },
      StatusCode::ABORTED, "expected_version: the request expects version 0", "VERSION_MISMATCH");
  aa(
      "expected_version UINT64_MAX",
      [](Matrix&, auto& r) { r.set_expected_version(std::numeric_limits<uint64_t>::max()); },
      StatusCode::ABORTED, "expected_version: the request expects version 18446744073709551615",
      "VERSION_MISMATCH");
  aa(
      "older token of the same hand, with expected_version",
      [](Matrix& m, auto& r) {
        r.set_token(m.stale_token());
        r.set_expected_version(m.next().version());
      },
      StatusCode::ABORTED, "expected_version:", "VERSION_MISMATCH");
  aa(
      "older token of the same hand replayed with its action, no expected_version (accepted: see "
      "the threat model)",
      [](Matrix& m, auto& r) {
        r.set_token(m.stale_token());
        *r.mutable_action() = ChooseAction(m.first(), false);
      },
      StatusCode::OK, "", "");
  aa(
      "token of another hand, expected_version of this one",
      [](Matrix& m, auto& r) {
        r.set_token(m.other_token());
        r.set_expected_version(m.next().version());
      },
      StatusCode::ABORTED, "expected_version:", "VERSION_MISMATCH");
  // LIVE dealing reports.
  auto deal = [&](std::string input, std::string card,
                  std::function<void(Matrix&, v1::Action&)> edit, StatusCode code,
                  std::string prefix, std::string reason) {
    rows.push_back({"ApplyAction", input, Send<v1::ApplyActionRequest>([card, edit](Matrix& m) {
                      v1::ApplyActionRequest r;
                      r.set_token(m.live_token());
                      v1::Action* a = r.mutable_action();
                      a->set_kind(v1::ACTION_KIND_DEAL);
                      a->set_seat(m.live().expected_deal().seat());
                      a->set_face_up(m.live().expected_deal().face_up());
                      a->set_card(card);
                      edit(m, *a);
                      return r;
                    }),
                    code, prefix, reason});
  };
  deal(
      "LIVE deal, malformed card", "Zz", [](Matrix&, v1::Action&) {}, kInvalid,
      "action.card: \"Zz\" is not a card", "INVALID_ARGUMENT");
  deal(
      "LIVE deal, card missing", "", [](Matrix&, v1::Action&) {}, kInvalid,
      "action.card: \"\" is not a card", "INVALID_ARGUMENT");
  deal(
      "LIVE deal, to the wrong seat", "As",
      [](Matrix& m, v1::Action& a) { a.set_seat(m.live().expected_deal().seat() % 3 + 1); },
      StatusCode::FAILED_PRECONDITION, "", "*");
  deal(
      "LIVE deal, seat 9", "As", [](Matrix&, v1::Action& a) { a.set_seat(9); }, kInvalid,
      "action.seat: must be 0..8", "INVALID_ARGUMENT");

  // ---- LegalActions ----
  auto la = [&](std::string input, int seat, StatusCode code, std::string prefix,
                std::string reason) {
    rows.push_back({"LegalActions", input, Send<v1::LegalActionsRequest>([seat](Matrix& m) {
                      v1::LegalActionsRequest r;
                      r.set_token(m.token());
                      r.set_seat(seat);
                      return r;
                    }),
                    code, prefix, reason});
  };
  la("seat -1", -1, kInvalid, "seat: -1 is not 1..3", "INVALID_ARGUMENT");
  la("seat 4 at a 3-seat table", 4, kInvalid, "seat: 4 is not 1..3", "INVALID_ARGUMENT");
  la("seat INT32_MAX", std::numeric_limits<int32_t>::max(), kInvalid,
     "seat: 2147483647 is not 1..3", "INVALID_ARGUMENT");

  // ---- ResolveShowdown ----
  auto rs = [&](std::string input, std::function<void(Matrix&, v1::ResolveShowdownRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"ResolveShowdown", input, Send<v1::ResolveShowdownRequest>([edit](Matrix& m) {
                      v1::ResolveShowdownRequest r = m.GoodStateless();
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  rs(
      "neither token nor stateless", [](Matrix&, auto& r) { r.clear_stateless(); }, kInvalid,
      "hand: required", "INVALID_ARGUMENT");
  rs(
      "token of a hand still being played", [](Matrix& m, auto& r) { r.set_token(m.token()); },
      StatusCode::FAILED_PRECONDITION, "STUD-SHOW-1", "STUD-SHOW-1");
  rs(
      "locale unknown enum value",
      [](Matrix&, auto& r) { r.set_locale(static_cast<v1::Locale>(3)); }, kInvalid,
      "locale:", "INVALID_ARGUMENT");
  rs(
      "variant missing", [](Matrix&, auto& r) { r.mutable_stateless()->clear_variant(); }, kInvalid,
      "stateless.variant: required", "INVALID_ARGUMENT");
  rs(
      "one seat", [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats()->RemoveLast(); },
      kInvalid, "stateless.seats: 2..8 seats required", "INVALID_ARGUMENT");
  rs(
      "seat 0", [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(0)->set_seat(0); },
      kInvalid, "stateless.seats[0].seat: must be 1..8", "INVALID_ARGUMENT");
  rs(
      "seat repeated",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->set_seat(1); }, kInvalid,
      "stateless.seats[1].seat: seat 1 appears twice", "INVALID_ARGUMENT");
  rs(
      "contribution negative",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(0)->set_contribution(-1); },
      kInvalid, "stateless.seats[0].contribution: must not be negative", "INVALID_ARGUMENT");
  rs(
      "contributions INT64_MAX on two seats (overflow)",
      [](Matrix&, auto& r) {
        r.mutable_stateless()->mutable_seats(0)->set_contribution(kInt64Max);
        r.mutable_stateless()->mutable_seats(1)->set_contribution(kInt64Max);
      },
      kInvalid, "stateless.seats[0].contribution: at most 2^40", "INVALID_ARGUMENT");
  rs(
      "duplicate card across seats",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->set_cards(0, "As"); },
      kInvalid, "stateless.seats[1].cards: As appears twice", "INVALID_ARGUMENT");
  rs(
      "malformed card",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->set_cards(3, "Q"); },
      kInvalid, "stateless.seats[1].cards[3]: \"Q\" is not a card", "INVALID_ARGUMENT");
  rs(
      "eight cards in a hand",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->add_cards("9c"); }, kInvalid,
      "stateless.seats[1].cards: a live hand needs 5 to 7 cards, has 8", "INVALID_ARGUMENT");
  rs(
      "common card duplicates a hand card",
      [](Matrix&, auto& r) { r.mutable_stateless()->set_common_card("As"); }, kInvalid,
      "stateless.seats[0].cards: As appears twice", "INVALID_ARGUMENT");
  rs(
      "10 000 seats",
      [](Matrix&, auto& r) {
        for (int i = 0; i < 10000; ++i) r.mutable_stateless()->add_seats()->set_seat(3);
      },
      kInvalid, "stateless.seats: 2..8 seats required", "INVALID_ARGUMENT");

  // ---- RuleIrregularity ----
  auto ri = [&](std::string input, std::function<void(Matrix&, v1::RuleIrregularityRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"RuleIrregularity", input, Send<v1::RuleIrregularityRequest>([edit](Matrix& m) {
                      v1::RuleIrregularityRequest r = m.GoodReport();
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  ri(
      "report missing", [](Matrix&, auto& r) { r.clear_report(); }, kInvalid, "report: required",
      "INVALID_ARGUMENT");
  ri(
      "kind missing", [](Matrix&, auto& r) { r.mutable_report()->clear_kind(); }, kInvalid,
      "report.kind: required", "INVALID_ARGUMENT");
  ri(
      "kind unknown enum value (99)",
      [](Matrix&, auto& r) { r.mutable_report()->set_kind(static_cast<v1::IrregularityKind>(99)); },
      kInvalid, "report.kind: required", "INVALID_ARGUMENT");
  ri(
      "seat 0", [](Matrix&, auto& r) { r.mutable_report()->set_seat(0); }, kInvalid,
      "report.seat: required for this kind; must be 1..3", "INVALID_ARGUMENT");
  ri(
      "seat 4 at a 3-seat table", [](Matrix&, auto& r) { r.mutable_report()->set_seat(4); },
      kInvalid, "report.seat: required for this kind; must be 1..3", "INVALID_ARGUMENT");
  ri(
      "exposed holecard without the card",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
      },
      kInvalid, "report.cards: this kind names exactly 1 card(s), got 0", "INVALID_ARGUMENT");
  ri(
      "exposed holecard, malformed card",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
        r.mutable_report()->add_cards("A");
      },
      kInvalid, "report.cards[0]: \"A\" is not a card", "INVALID_ARGUMENT");
  ri(
      "exposed holecard, a card the seat does not hold",
      [](Matrix& m, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
        // The door card of another seat: public, so naming it leaks nothing.
        const int other = m.next().to_act() % 3 + 1;
        r.mutable_report()->add_cards(m.next().public_view().seats(other - 1).cards(2).card());
      },
      StatusCode::FAILED_PRECONDITION, "", "*");
  ri(
      "burn error without a street",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BURN_ERROR);
        r.mutable_report()->set_seat(0);
      },
      kInvalid, "report.street: required for this kind", "INVALID_ARGUMENT");
  ri(
      "burn error, street unknown enum value (12)",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BURN_ERROR);
        r.mutable_report()->set_seat(0);
        r.mutable_report()->set_street(static_cast<v1::Street>(12));
      },
      kInvalid, "report.street: required for this kind", "INVALID_ARGUMENT");
  ri(
      "note over 500 bytes",
      [](Matrix&, auto& r) { r.mutable_report()->set_note(std::string(501, 'n')); }, kInvalid,
      "report.note: at most 500 bytes", "INVALID_ARGUMENT");
  ri(
      "amount_to negative", [](Matrix&, auto& r) { r.mutable_report()->set_amount_to(-7); },
      kInvalid, "report.amount_to: must not be negative", "INVALID_ARGUMENT");
  ri(
      "nine moves",
      [](Matrix&, auto& r) {
        for (int i = 0; i < 9; ++i) {
          auto* mv = r.mutable_report()->add_moves();
          mv->set_seat(1);
          mv->set_card("As");
        }
      },
      kInvalid, "report.moves: at most one per seat", "INVALID_ARGUMENT");
  ri(
      "nine kept_seats",
      [](Matrix&, auto& r) {
        for (int i = 0; i < 9; ++i) r.mutable_report()->add_kept_seats(1);
      },
      kInvalid, "report.kept_seats: at most one per seat", "INVALID_ARGUMENT");
  ri(
      "BOTH_HOLECARDS_EXPOSED with 250 000 cards",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BOTH_HOLECARDS_EXPOSED);
        for (int i = 0; i < 250000; ++i) r.mutable_report()->add_cards("As");
      },
      kInvalid, "report.cards: none, or both hole cards of the seat", "INVALID_ARGUMENT");
  ri(
      "BOTH_HOLECARDS_EXPOSED in a SERVICE-dealt hand (LIVE reports are checked card by card: "
      "irregularities_validate_test)",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BOTH_HOLECARDS_EXPOSED);
        r.mutable_report()->add_cards("2c");
        r.mutable_report()->add_cards("2d");
      },
      StatusCode::FAILED_PRECONDITION, "STUD-IRR-EXP-2: the engine deals this hand",
      "STUD-IRR-EXP-2");
  ri(
      "move with a malformed card",
      [](Matrix&, auto& r) { r.mutable_report()->add_moves()->set_card("??"); }, kInvalid,
      "report.moves[0].card: \"??\" is not a card", "INVALID_ARGUMENT");
  ri(
      "action on a kind without one",
      [](Matrix&, auto& r) { r.mutable_report()->set_action(v1::ACTION_KIND_RAISE); }, kInvalid,
      "report.action: a betting action, for WRONG_OPENER and ACTION_OUT_OF_TURN only",
      "INVALID_ARGUMENT");
  ri(
      "expected_version stale", [](Matrix&, auto& r) { r.set_expected_version(0); },
      StatusCode::ABORTED, "expected_version:", "VERSION_MISMATCH");
  ri(
      "private_view_seats repeated",
      [](Matrix&, auto& r) { r.add_private_view_seats(1), r.add_private_view_seats(1); }, kInvalid,
      "private_view_seats[1]: seat 1 appears twice", "INVALID_ARGUMENT");

  // ---- GetView ----
  rows.push_back({"GetView", "private_view_seats out of range",
                  Send<v1::GetViewRequest>([](Matrix& m) {
                    v1::GetViewRequest r;
                    r.set_token(m.token());
                    r.add_private_view_seats(-3);
                    return r;
                  }),
                  kInvalid, "private_view_seats[0]: seat -3 is not 1..3", "INVALID_ARGUMENT"});
  rows.push_back({"GetView", "token of another hand (a valid token: the hand it names)",
                  Send<v1::GetViewRequest>([](Matrix& m) {
                    v1::GetViewRequest r;
                    r.set_token(m.other_token());
                    return r;
                  }),
                  StatusCode::OK, "", ""});

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
}  // namespace stud::service::testing
