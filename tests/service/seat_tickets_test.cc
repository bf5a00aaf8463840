// Seat-scoped access (service/trust/seat_tickets.h) through a real gRPC server:
// NewHand hands out one ticket per seat and a table ticket; with tickets
// required, a call without one, with a forged, altered or foreign one, or
// asking for another seat's view, action or history is refused with
// PERMISSION_DENIED and its SEAT_TICKET_* reason, and each seat can still
// play its own hand.
#include "service/trust/seat_tickets.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "service/token/codec.h"
#include "service/trust/tenants.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

const SeatTicketPolicy kRequired{.required = true};

struct Hand {
  v1::NewHandResponse start;
  const std::string& token() const { return start.update().token(); }
  const std::string& ticket(int seat) const {
    return seat == 0 ? start.table_ticket() : start.seat_tickets(seat - 1).ticket();
  }
};

Hand Start(Server& server, int seats = 3, v1::DealingMode mode = v1::DEALING_MODE_PRESET) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  Hand h;
  const grpc::Status st = server.stub().NewHand(&ctx, BasicHand(seats, mode), &h.start);
  EXPECT_THAT(st, IsOk()) << st.error_message();
  return h;
}

struct Outcome {
  grpc::StatusCode code;
  std::string reason;
  std::string message;
};
Outcome Of(const grpc::Status& st) {
  return {st.error_code(), ErrorInfoOf(st).reason(), st.error_message()};
}

Outcome View(Server& s, const std::string& token, const std::string& ticket,
             std::vector<int> seats) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GetViewRequest r;
  r.set_token(token);
  r.set_seat_ticket(ticket);
  for (int seat : seats) r.add_private_view_seats(seat);
  v1::GetViewResponse resp;
  return Of(s.stub().GetView(&ctx, r, &resp));
}

Outcome Act(Server& s, const std::string& token, const std::string& ticket,
            const v1::Action& action, v1::ApplyActionResponse* resp, std::vector<int> seats = {}) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ApplyActionRequest r;
  r.set_token(token);
  r.set_seat_ticket(ticket);
  *r.mutable_action() = action;
  for (int seat : seats) r.add_private_view_seats(seat);
  return Of(s.stub().ApplyAction(&ctx, r, resp));
}

Outcome Export(Server& s, const std::string& token, const std::string& ticket, int viewer,
               bool reveal) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ExportHandHistoryRequest r;
  r.set_token(token);
  r.set_seat_ticket(ticket);
  r.set_viewer_seat(viewer);
  r.set_reveal_hidden_cards(reveal);
  v1::ExportHandHistoryResponse resp;
  return Of(s.stub().ExportHandHistory(&ctx, r, &resp));
}

Outcome Legal(Server& s, const std::string& token, const std::string& ticket, int seat) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::LegalActionsRequest r;
  r.set_token(token);
  r.set_seat_ticket(ticket);
  r.set_seat(seat);
  v1::LegalActionsResponse resp;
  return Of(s.stub().LegalActions(&ctx, r, &resp));
}

#define EXPECT_REFUSED(outcome, want_reason)                             \
  do {                                                                   \
    const Outcome o = (outcome);                                         \
    EXPECT_EQ(o.code, grpc::StatusCode::PERMISSION_DENIED) << o.message; \
    EXPECT_EQ(o.reason, want_reason) << o.message;                       \
    /* the field at fault first, then why */                             \
    EXPECT_NE(o.message.find(": "), std::string::npos) << o.message;     \
    EXPECT_NE(o.message.find("ticket"), std::string::npos) << o.message; \
  } while (0)
#define EXPECT_ALLOWED(outcome)                                               \
  do {                                                                        \
    const Outcome o = (outcome);                                              \
    EXPECT_EQ(o.code, grpc::StatusCode::OK) << o.reason << ": " << o.message; \
  } while (0)

TEST(SeatTicketsTest, NewHandReturnsATicketPerSeatAndTheTable) {
  Server server;  // trusted mode: tickets are issued all the same
  const Hand h = Start(server, 5);
  ASSERT_EQ(h.start.seat_tickets_size(), 5);
  std::vector<std::string> all;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(h.start.seat_tickets(i).seat(), i + 1);
    EXPECT_EQ(h.start.seat_tickets(i).ticket().size(), kSeatTicketBytes);
    EXPECT_EQ(h.start.seat_tickets(i).ticket().substr(0, 2), "ST");
    all.push_back(h.start.seat_tickets(i).ticket());
  }
  EXPECT_EQ(h.start.table_ticket().size(), kSeatTicketBytes);
  all.push_back(h.start.table_ticket());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::unique(all.begin(), all.end()), all.end()) << "every ticket differs";
  // Deterministic: the same tenant, hand and seat give the same ticket.
  const std::string hand_id = ParseSealedHand(*server.sealer().Open(h.token()))->service.hand_id;
  EXPECT_EQ(IssueSeatTicket(server.sealer(), "", hand_id, 2), h.ticket(2));
}

TEST(SeatTicketsTest, RequiredModeRefusesEachWayWithItsReason) {
  Server server({TestKey(1, 7)}, ServiceOptions{.allow_preset = true,
                                                .allow_history_reveal = true,
                                                .seat_tickets = &kRequired});
  const Hand h = Start(server, 4);
  const Hand other = Start(server, 4);
  const int to_act = h.start.update().to_act();
  const int bystander = to_act == 3 ? 2 : 3;
  v1::Action act = ChooseAction(h.start.update(), false);
  v1::ApplyActionResponse resp;

  // No ticket: every call on a token.
  EXPECT_REFUSED(View(server, h.token(), "", {}), "SEAT_TICKET_REQUIRED");
  EXPECT_REFUSED(Act(server, h.token(), "", act, &resp), "SEAT_TICKET_REQUIRED");
  EXPECT_REFUSED(Legal(server, h.token(), "", to_act), "SEAT_TICKET_REQUIRED");
  EXPECT_REFUSED(Export(server, h.token(), "", 0, false), "SEAT_TICKET_REQUIRED");
  // Forged, altered, a token in its place, a truncated one.
  std::string forged = h.ticket(to_act);
  forged[30] = static_cast<char>(forged[30] ^ 1);
  EXPECT_REFUSED(View(server, h.token(), forged, {}), "SEAT_TICKET_INVALID");
  std::string reseated = h.ticket(2);
  reseated[23] = 3;  // seat 2's ticket rewritten to seat 3: the tag covers the seat
  EXPECT_REFUSED(View(server, h.token(), reseated, {3}), "SEAT_TICKET_INVALID");
  EXPECT_REFUSED(View(server, h.token(), h.token(), {}), "SEAT_TICKET_INVALID");
  EXPECT_REFUSED(View(server, h.token(), h.ticket(1).substr(0, 39), {}), "SEAT_TICKET_INVALID");
  EXPECT_REFUSED(View(server, h.token(), std::string(40, 'S'), {}), "SEAT_TICKET_INVALID");
  // A ticket is never a token either.
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::GetViewRequest r;
    r.set_token(h.ticket(1));
    r.set_seat_ticket(h.ticket(1));
    v1::GetViewResponse out;
    const grpc::Status st = server.stub().GetView(&ctx, r, &out);
    EXPECT_THAT(st, StatusIs(grpc::StatusCode::UNAUTHENTICATED));
    EXPECT_EQ(ErrorInfoOf(st).reason(), "TOKEN_MALFORMED");
  }
  // Another hand's ticket; a ticket under a key this server lacks.
  EXPECT_REFUSED(View(server, h.token(), other.ticket(to_act), {}), "SEAT_TICKET_WRONG_HAND");
  Server elsewhere({TestKey(5, 9)}, ServiceOptions{.allow_preset = true});
  EXPECT_REFUSED(View(server, h.token(), Start(elsewhere).ticket(1), {}), "SEAT_TICKET_INVALID");
  // Seat `bystander`'s ticket: acting for the seat to act, its view, its history.
  EXPECT_REFUSED(Act(server, h.token(), h.ticket(bystander), act, &resp), "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(View(server, h.token(), h.ticket(bystander), {to_act}), "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(View(server, h.token(), h.ticket(bystander), {bystander, to_act}),
                 "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(Act(server, h.token(), h.ticket(to_act), act, &resp, {bystander}),
                 "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(Legal(server, h.token(), h.ticket(bystander), to_act), "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(Export(server, h.token(), h.ticket(bystander), to_act, false),
                 "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(Export(server, h.token(), h.ticket(bystander), bystander, true),
                 "SEAT_TICKET_NOT_PERMITTED");
  // The table's ticket acts for nobody and sees no private view.
  EXPECT_REFUSED(Act(server, h.token(), h.ticket(0), act, &resp), "SEAT_TICKET_NOT_PERMITTED");
  EXPECT_REFUSED(View(server, h.token(), h.ticket(0), {1}), "SEAT_TICKET_WRONG_SEAT");
  EXPECT_REFUSED(Export(server, h.token(), h.ticket(0), 1, false), "SEAT_TICKET_WRONG_SEAT");
  // What each may do.
  EXPECT_ALLOWED(View(server, h.token(), h.ticket(bystander), {bystander}));
  EXPECT_ALLOWED(View(server, h.token(), h.ticket(bystander), {}));
  EXPECT_ALLOWED(View(server, h.token(), h.ticket(0), {}));
  EXPECT_ALLOWED(Legal(server, h.token(), h.ticket(to_act), to_act));
  EXPECT_ALLOWED(Export(server, h.token(), h.ticket(bystander), bystander, false));
  EXPECT_ALLOWED(Export(server, h.token(), h.ticket(bystander), 0, false));
  EXPECT_ALLOWED(Act(server, h.token(), h.ticket(to_act), act, &resp, {to_act}));
  ASSERT_EQ(resp.update().private_views_size(), 1);
  EXPECT_EQ(resp.update().private_views(0).seat(), to_act);
  // The ticket outlives the token it came with: it is valid for the whole hand.
  EXPECT_ALLOWED(View(server, resp.update().token(), h.ticket(bystander), {bystander}));
  // Stateless calls take no ticket.
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ReplayHandHistoryRequest replay;
  replay.set_phh("x");
  v1::ReplayHandHistoryResponse replayed;
  EXPECT_EQ(server.stub().ReplayHandHistory(&ctx, replay, &replayed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST(SeatTicketsTest, EachSeatPlaysItsOwnHand) {
  Server server({TestKey(1, 7)}, ServiceOptions{.allow_preset = true, .seat_tickets = &kRequired});
  const Hand h = Start(server, 4);
  v1::HandUpdate u = h.start.update();
  for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
    const int seat = u.to_act();
    ASSERT_GT(seat, 0);
    v1::ApplyActionResponse resp;
    const Outcome o =
        Act(server, u.token(), h.ticket(seat), ChooseAction(u, step % 5 == 0), &resp, {seat});
    ASSERT_EQ(o.code, grpc::StatusCode::OK) << o.reason << ": " << o.message;
    ASSERT_EQ(resp.update().private_views_size(), 1);
    u = resp.update();
  }
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  for (int seat = 0; seat <= 4; ++seat) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::ResolveShowdownRequest r;
    r.set_token(u.token());
    r.set_seat_ticket(h.ticket(seat));
    v1::ResolveShowdownResponse resp;
    const grpc::Status st = server.stub().ResolveShowdown(&ctx, r, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    EXPECT_GT(resp.pots_size(), 0);
  }
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ResolveShowdownRequest r;
  r.set_token(u.token());
  v1::ResolveShowdownResponse resp;
  EXPECT_EQ(ErrorInfoOf(server.stub().ResolveShowdown(&ctx, r, &resp)).reason(),
            "SEAT_TICKET_REQUIRED");
}

TEST(SeatTicketsTest, TheTableReportsDealsAndIrregularities) {
  Server server({TestKey(1, 7)}, ServiceOptions{.allow_preset = true, .seat_tickets = &kRequired});
  const Hand h = Start(server, 3, v1::DEALING_MODE_LIVE);
  v1::HandUpdate u = h.start.update();
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_AWAITING_DEAL);
  const std::vector<std::string> deck = NaturalDeck();
  v1::Action deal;
  deal.set_kind(v1::ACTION_KIND_DEAL);
  deal.set_seat(u.expected_deal().seat());
  deal.set_face_up(u.expected_deal().face_up());
  deal.set_card(deck[0]);
  v1::ApplyActionResponse resp;
  EXPECT_REFUSED(Act(server, u.token(), h.ticket(1), deal, &resp), "SEAT_TICKET_NOT_PERMITTED");
  EXPECT_REFUSED(Act(server, u.token(), h.ticket(0), deal, &resp, {1}), "SEAT_TICKET_WRONG_SEAT");
  EXPECT_ALLOWED(Legal(server, u.token(), h.ticket(0), 0));
  EXPECT_ALLOWED(Act(server, u.token(), h.ticket(0), deal, &resp));
  EXPECT_EQ(resp.update().private_views_size(), 0);
  u = resp.update();
  // An irregularity: the floor's, not a player's.
  v1::RuleIrregularityRequest r;
  r.set_token(u.token());
  r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_ABSENT_PLAYER);
  r.mutable_report()->set_seat(2);
  for (int seat : {1, 2}) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    r.set_seat_ticket(h.ticket(seat));
    v1::RuleIrregularityResponse out;
    const grpc::Status st = server.stub().RuleIrregularity(&ctx, r, &out);
    EXPECT_THAT(st, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
    EXPECT_EQ(ErrorInfoOf(st).reason(), "SEAT_TICKET_NOT_PERMITTED");
  }
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  r.set_seat_ticket(h.ticket(0));
  v1::RuleIrregularityResponse out;
  const grpc::Status st = server.stub().RuleIrregularity(&ctx, r, &out);
  EXPECT_NE(ErrorInfoOf(st).reason().rfind("SEAT_TICKET", 0), 0u) << st.error_message();
}

TEST(SeatTicketsTest, TrustedModeUnchangedButASentTicketScopesTheCall) {
  Server server;
  const Hand h = Start(server, 3);
  EXPECT_ALLOWED(View(server, h.token(), "", {1, 2, 3}));
  EXPECT_ALLOWED(Export(server, h.token(), "", 2, false));
  EXPECT_REFUSED(View(server, h.token(), h.ticket(1), {2}), "SEAT_TICKET_WRONG_SEAT");
  EXPECT_ALLOWED(View(server, h.token(), h.ticket(1), {1}));
}

TEST(SeatTicketsTest, PerTenantRequirementAndTenantBinding) {
  auto tk = [](const std::string& tenant, uint8_t fill, bool tickets) {
    TenantKey k;
    k.tenant = tenant;
    k.key.fill(fill);
    k.seat_tickets = tickets;
    return k;
  };
  // The key file mark round-trips, and old files read as before.
  absl::StatusOr<std::vector<TenantKey>> parsed = ParseTenantKeys(
      FormatTenantKey(tk("acme", 1, true)) + "\n" + FormatTenantKey(tk("bet", 2, false)));
  ASSERT_THAT(parsed, IsOk());
  EXPECT_TRUE((*parsed)[0].seat_tickets);
  EXPECT_FALSE((*parsed)[1].seat_tickets);
  EXPECT_EQ((*parsed)[0].tenant, "acme");
  EXPECT_THAT(ParseTenantKeys(FormatTenantKey(tk("acme", 1, false)) + ":tix"),
              ::testing::Not(IsOk()));

  const TenantAuth auth = *TenantAuth::Create({tk("acme", 1, true), tk("bet", 2, false)});
  const SeatTicketPolicy policy{.tenants = {"acme"}};
  Server server({TestKey(1, 7)},
                ServiceOptions{.allow_preset = true, .tenants = &auth, .seat_tickets = &policy});
  auto call = [&](const std::string& tenant, const std::string& token, const std::string& ticket) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ctx.AddMetadata(kTenantHeader, tenant);
    ctx.AddMetadata(
        kApiKeyHeader,
        FormatTenantKey(tk(tenant, tenant == "acme" ? 1 : 2, false)).substr(tenant.size() + 1));
    v1::GetViewRequest r;
    r.set_token(token);
    r.set_seat_ticket(ticket);
    v1::GetViewResponse resp;
    return Of(server.stub().GetView(&ctx, r, &resp));
  };
  auto start = [&](const std::string& tenant) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ctx.AddMetadata(kTenantHeader, tenant);
    ctx.AddMetadata(
        kApiKeyHeader,
        FormatTenantKey(tk(tenant, tenant == "acme" ? 1 : 2, false)).substr(tenant.size() + 1));
    Hand h;
    EXPECT_THAT(server.stub().NewHand(&ctx, BasicHand(3, v1::DEALING_MODE_PRESET), &h.start),
                IsOk());
    return h;
  };
  const Hand acme = start("acme"), bet = start("bet");
  EXPECT_REFUSED(call("acme", acme.token(), ""), "SEAT_TICKET_REQUIRED");
  EXPECT_ALLOWED(call("acme", acme.token(), acme.ticket(1)));
  EXPECT_ALLOWED(call("bet", bet.token(), ""));  // bet runs as a trusted backend
  // A ticket for bet's hand made for acme: the tag binds the tenant.
  const std::string bet_hand =
      ParseSealedHand(*server.sealer().Open(bet.token(), "bet"))->service.hand_id;
  EXPECT_REFUSED(call("bet", bet.token(), IssueSeatTicket(server.sealer(), "acme", bet_hand, 1)),
                 "SEAT_TICKET_INVALID");
  EXPECT_REFUSED(call("bet", bet.token(), acme.ticket(1)), "SEAT_TICKET_INVALID");
}

TEST(SeatTicketsTest, TicketsSurviveKeyRotationAcrossReplicas) {
  Server old_replica({TestKey(1, 7)},
                     ServiceOptions{.allow_preset = true, .seat_tickets = &kRequired});
  Key open_only = TestKey(1, 7);
  open_only.seals = false;
  Server new_replica({open_only, TestKey(2, 8)},
                     ServiceOptions{.allow_preset = true, .seat_tickets = &kRequired});
  const Hand h = Start(old_replica, 3);
  EXPECT_ALLOWED(View(new_replica, h.token(), h.ticket(2), {2}));
  EXPECT_REFUSED(View(new_replica, h.token(), h.ticket(2), {1}), "SEAT_TICKET_WRONG_SEAT");
}

}  // namespace
}  // namespace stud::service::testing
