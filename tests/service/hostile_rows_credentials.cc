// The hostile-input matrix (hostile_input.h): what proves the caller may
// make a call: token attacks on every RPC that takes a token, GetView rows
// and seat tickets.
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hostile_input.h"
#include "service/token/codec.h"
#include "service/trust/seat_tickets.h"

namespace stud::service::testing::hostile {

namespace {

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

}  // namespace

void AddTokenRows(std::vector<Row>& rows) {
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
}

void AddGetViewRows(std::vector<Row>& rows) {
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

}  // namespace stud::service::testing::hostile
