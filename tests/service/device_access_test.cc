// Players' devices (docs/mobile.md) through a real gRPC server: a seat ticket
// alone authenticates its seat when caller authentication is on; NewHand and
// stateless calls still need the platform's key; a per-seat rate limit keeps
// a phone from flooding; a hand carries its own policy to every replica; the
// table's ticket reports every dealer step of an 8-seat LIVE hand to its end.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "google/protobuf/util/json_util.h"
#include "service/trust/ledger.h"
#include "service/trust/seat_rate_limit.h"
#include "service/trust/seat_tickets.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

TenantKey Tenant(const std::string& name, uint8_t fill, bool tickets) {
  TenantKey k = TestTenantKey(name, fill);
  k.seat_tickets = tickets;
  return k;
}

// The metadata of the platform of `k` (its API key).
void AddPlatformKey(grpc::ClientContext* ctx, const TenantKey& k) {
  ctx->AddMetadata(kTenantHeader, k.tenant);
  ctx->AddMetadata(kApiKeyHeader, FormatTenantKey(k).substr(k.tenant.size() + 1, 64));
}

class DeviceAccessTest : public ::testing::Test {
 protected:
  const TenantKey acme_ = Tenant("acme", 1, true);  // its hands use tickets
  const TenantKey bet_ = Tenant("bet", 2, false);   // a trusted backend
  const TenantAuth auth_ = *TenantAuth::Create({acme_, bet_});
  const SeatTicketPolicy policy_{.tenants = {"acme"}};
  Server server_{{TestKey(1, 7)},
                 ServiceOptions{.allow_preset = true, .tenants = &auth_, .seat_tickets = &policy_}};

  v1::NewHandResponse Deal(const TenantKey& platform) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    AddPlatformKey(&ctx, platform);
    v1::NewHandResponse resp;
    const grpc::Status st =
        server_.stub().NewHand(&ctx, BasicHand(3, v1::DEALING_MODE_PRESET), &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    return resp;
  }
  // GetView as a phone: the ticket and nothing else.
  grpc::Status PhoneView(const std::string& token, const std::string& ticket,
                         std::vector<int> seats, v1::GetViewResponse* resp) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::GetViewRequest r;
    r.set_token(token);
    r.set_seat_ticket(ticket);
    for (int s : seats) r.add_private_view_seats(s);
    return server_.stub().GetView(&ctx, r, resp);
  }
};

TEST_F(DeviceAccessTest, ASeatTicketAloneOpensItsSeatAndNothingElse) {
  const v1::NewHandResponse hand = Deal(acme_);
  const std::string& token = hand.update().token();
  const int to_act = hand.update().to_act();
  const std::string& ticket = hand.seat_tickets(to_act - 1).ticket();
  v1::GetViewResponse view;
  grpc::Status st = PhoneView(token, ticket, {to_act}, &view);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  ASSERT_EQ(view.update().private_views_size(), 1);
  EXPECT_TRUE(view.update().public_view().policy().seat_tickets());
  // Its own seat's view only, as for any ticket.
  const int other = to_act % 3 + 1;
  st = PhoneView(token, ticket, {other}, &view);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "SEAT_TICKET_WRONG_SEAT") << st.error_message();
  // It acts for its seat without the API key.
  v1::ApplyActionRequest act;
  act.set_token(token);
  act.set_seat_ticket(ticket);
  *act.mutable_action() = ChooseAction(hand.update(), false);
  v1::ApplyActionResponse acted;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  st = server_.stub().ApplyAction(&ctx, act, &acted);
  EXPECT_THAT(st, IsOk()) << st.error_message();
  // Naming its tenant (x-stud-tenant alone) works too; naming another does not.
  for (const auto& [tenant, ok] : {std::pair{"acme", true}, std::pair{"bet", false}}) {
    grpc::ClientContext named;
    SetDeadline(&named);
    named.AddMetadata(kTenantHeader, tenant);
    v1::GetViewRequest r;
    r.set_token(token);
    r.set_seat_ticket(ticket);
    st = server_.stub().GetView(&named, r, &view);
    EXPECT_EQ(st.ok(), ok) << tenant << ": " << st.error_message();
  }
}

TEST_F(DeviceAccessTest, NewHandStatelessCallsAndForgedTicketsNeedThePlatformKey) {
  const v1::NewHandResponse hand = Deal(acme_);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::NewHandResponse resp;
    const grpc::Status st =
        server_.stub().NewHand(&ctx, BasicHand(3, v1::DEALING_MODE_PRESET), &resp);
    EXPECT_THAT(st, StatusIs(grpc::StatusCode::UNAUTHENTICATED));
    EXPECT_EQ(ErrorInfoOf(st).reason(), "CALLER_UNAUTHENTICATED");
  }
  {  // A stateless showdown carrying a (valid) ticket is still the platform's.
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::ResolveShowdownRequest r;
    r.set_seat_ticket(hand.seat_tickets(0).ticket());
    r.mutable_stateless()->set_variant(v1::VARIANT_STUD);
    v1::ResolveShowdownResponse resp;
    const grpc::Status st = server_.stub().ResolveShowdown(&ctx, r, &resp);
    EXPECT_EQ(ErrorInfoOf(st).reason(), "CALLER_UNAUTHENTICATED") << st.error_message();
  }
  v1::GetViewResponse view;
  std::string forged = hand.seat_tickets(0).ticket();
  forged[30] = static_cast<char>(forged[30] ^ 1);
  for (const std::string& bad : {forged, std::string("not a ticket"), std::string()}) {
    const grpc::Status st = PhoneView(hand.update().token(), bad, {}, &view);
    EXPECT_THAT(st, StatusIs(grpc::StatusCode::UNAUTHENTICATED));
    EXPECT_EQ(ErrorInfoOf(st).reason(), "CALLER_UNAUTHENTICATED");
  }
  // A trusted-backend tenant's tickets never authenticate a device.
  const v1::NewHandResponse trusted = Deal(bet_);
  const grpc::Status st =
      PhoneView(trusted.update().token(), trusted.seat_tickets(0).ticket(), {}, &view);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "CALLER_UNAUTHENTICATED") << st.error_message();
}

TEST(SeatTicketHandTest, ATicketOfAnotherHandIsRefusedBeforeTheHandIsLookedUp) {
  const std::string ticket = std::string("ST\x01\0\0\0\x01", 7) + std::string(16, '\xab') +
                             std::string(1, '\x02') + std::string(16, '\0');
  ASSERT_EQ(ticket.size(), kSeatTicketBytes);
  EXPECT_THAT(CheckTicketNamesHand(ticket, "ABABABABABABABABABABABABABABABAB"), IsOk());
  EXPECT_THAT(CheckTicketNamesHand(ticket, "abababababababababababababababab"), IsOk());
  EXPECT_THAT(CheckTicketNamesHand("", "abababababababababababababababab"), IsOk());
  const absl::Status other = CheckTicketNamesHand(ticket, "abababababababababababababababac");
  EXPECT_EQ(SeatTicketReasonOf(other), "SEAT_TICKET_WRONG_HAND");
  EXPECT_EQ(SeatTicketReasonOf(CheckTicketNamesHand("short", "ab")), "SEAT_TICKET_WRONG_HAND");
}

TEST(SeatRateLimitTest, BurstThenTheRateAndEachSeatItsOwnBucket) {
  SeatRateLimiter limit(/*rate=*/2, /*burst=*/3);
  const absl::Time t0 = absl::FromUnixSeconds(1000);
  for (int i = 0; i < 3; ++i) EXPECT_THAT(limit.Admit("acme", "hand", 1, t0), IsOk());
  const absl::Status refused = limit.Admit("acme", "hand", 1, t0);
  EXPECT_THAT(refused, StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_NE(refused.message().find("retry in 500 ms"), absl::string_view::npos)
      << refused.message();
  EXPECT_THAT(limit.Admit("acme", "hand", 2, t0), IsOk());  // another seat
  EXPECT_THAT(limit.Admit("bet", "hand", 1, t0), IsOk());   // another tenant
  EXPECT_THAT(limit.Admit("acme", "hand", 1, t0 + absl::Milliseconds(500)), IsOk());
  EXPECT_THAT(limit.Admit("acme", "hand", 1, t0 + absl::Milliseconds(500)), ::testing::Not(IsOk()));
  // Memory stays bounded: a full table of seats makes room.
  SeatRateLimiter small(1, 1, /*max_seats=*/2);
  for (int seat = 1; seat <= 10; ++seat) EXPECT_THAT(small.Admit("t", "h", seat, t0), IsOk());
}

TEST(SeatRateLimitTest, APhoneThatFloodsIsRefusedWithItsReason) {
  SeatRateLimiter limit(/*rate=*/0.001, /*burst=*/2);
  const SeatTicketPolicy required{.required = true};
  Server server(
      {TestKey(1, 7)},
      ServiceOptions{.allow_preset = true, .seat_tickets = &required, .seat_rate_limit = &limit});
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::NewHandResponse hand;
  ASSERT_THAT(server.stub().NewHand(&ctx, BasicHand(2, v1::DEALING_MODE_PRESET), &hand), IsOk());
  std::vector<grpc::StatusCode> codes;
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext c;
    SetDeadline(&c);
    v1::GetViewRequest r;
    r.set_token(hand.update().token());
    r.set_seat_ticket(hand.seat_tickets(0).ticket());
    v1::GetViewResponse resp;
    const grpc::Status st = server.stub().GetView(&c, r, &resp);
    codes.push_back(st.error_code());
    if (i == 2) {
      EXPECT_EQ(ErrorInfoOf(st).reason(), "SEAT_RATE_LIMITED") << st.error_message();
      EXPECT_GT(std::stoll(ErrorInfoOf(st).metadata().at("retry_after_ms")), 0);
    }
  }
  EXPECT_EQ(codes, (std::vector<grpc::StatusCode>{grpc::StatusCode::OK, grpc::StatusCode::OK,
                                                  grpc::StatusCode::RESOURCE_EXHAUSTED}));
}

// A hand carries its own rules [HandPolicy]: a replica started without the
// flags (same key ring) enforces the hand's tickets, and refuses a ledger
// hand it cannot serve with the ledger.
TEST(HandPolicyTest, AReplicaWithoutTheFlagsStillEnforcesTheHandsPolicy) {
  const SeatTicketPolicy required{.required = true};
  NoLedger ledger;  // a ledger that keeps nothing: enough to seal the policy
  Server dealer({TestKey(1, 7)},
                ServiceOptions{.allow_preset = true, .seat_tickets = &required, .ledger = &ledger});
  Server plain({TestKey(1, 7)}, ServiceOptions{.allow_preset = true});
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::NewHandResponse hand;
  ASSERT_THAT(dealer.stub().NewHand(&ctx, BasicHand(2, v1::DEALING_MODE_PRESET), &hand), IsOk());
  EXPECT_TRUE(hand.update().public_view().policy().seat_tickets());
  EXPECT_TRUE(hand.update().public_view().policy().ledger());
  grpc::ClientContext c;
  SetDeadline(&c);
  v1::GetViewRequest r;
  r.set_token(hand.update().token());
  r.add_private_view_seats(1);
  r.add_private_view_seats(2);
  v1::GetViewResponse resp;
  const grpc::Status st = plain.stub().GetView(&c, r, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "LEDGER_REQUIRED");
  EXPECT_EQ(resp.update().private_views_size(), 0);

  // Tickets only (no ledger): the plain replica asks for the ticket.
  Server tickets_only({TestKey(1, 7)},
                      ServiceOptions{.allow_preset = true, .seat_tickets = &required});
  grpc::ClientContext c2;
  SetDeadline(&c2);
  v1::NewHandResponse hand2;
  ASSERT_THAT(tickets_only.stub().NewHand(&c2, BasicHand(2, v1::DEALING_MODE_PRESET), &hand2),
              IsOk());
  EXPECT_FALSE(hand2.update().public_view().policy().ledger());
  grpc::ClientContext c3;
  SetDeadline(&c3);
  r.set_token(hand2.update().token());
  const grpc::Status st2 = plain.stub().GetView(&c3, r, &resp);
  EXPECT_EQ(ErrorInfoOf(st2).reason(), "SEAT_TICKET_REQUIRED") << st2.error_message();
  EXPECT_EQ(resp.update().private_views_size(), 0);
}

TEST(HandPolicyTest, CompactAnswersLeaveOutTheHandsFixedFacts) {
  Server server;
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_PRESET);
  const v1::HandUpdate u = StartHand(server, req);
  ASSERT_TRUE(u.public_view().has_options());
  v1::ApplyActionRequest act;
  act.set_token(u.token());
  *act.mutable_action() = ChooseAction(u, false);
  v1::ApplyActionResponse full, compact;
  for (auto [detail, out] :
       {std::pair{v1::UPDATE_DETAIL_FULL, &full}, std::pair{v1::UPDATE_DETAIL_COMPACT, &compact}}) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    act.set_detail(detail);
    ASSERT_THAT(server.stub().ApplyAction(&ctx, act, out), IsOk());
  }
  EXPECT_FALSE(compact.update().public_view().has_options());
  EXPECT_FALSE(compact.update().public_view().has_stakes());
  EXPECT_EQ(compact.update().public_view().variant(), v1::VARIANT_UNSPECIFIED);
  // Everything that changes is still there, identical.
  EXPECT_EQ(compact.update().token(), full.update().token());
  // Only the seat that acted; cards without their street.
  ASSERT_EQ(compact.update().public_view().seats_size(), 1);
  EXPECT_EQ(compact.update().public_view().seats(0).seat(), u.to_act());
  EXPECT_EQ(compact.update().public_view().seats(0).cards(0).street(), v1::STREET_UNSPECIFIED);
  EXPECT_EQ(compact.update().announcements_size(), full.update().announcements_size());
  EXPECT_EQ(compact.update().legal_actions_size(), full.update().legal_actions_size());
  EXPECT_LT(compact.ByteSizeLong(), full.ByteSizeLong());
}

// A device's typical answer: an 8-seat hand on 5th street, one action, as
// JSON through the gateway (the proto3 JSON mapping). The figures are printed
// for docs/mobile.md; the compact answer must stay under 2 KB.
TEST(HandPolicyTest, ACompactApplyActionAnswerIsUnderTwoKilobytesOfJson) {
  Server server;
  v1::HandUpdate u = StartHand(server, BasicHand(8, v1::DEALING_MODE_PRESET));
  while (u.public_view().street() < v1::STREET_FIFTH &&
         u.public_view().phase() == v1::PHASE_BETTING) {
    u = ApplyExpectingOk(server, u, ChooseAction(u, false));
  }
  ASSERT_EQ(u.public_view().street(), v1::STREET_FIFTH);
  std::string json[2];
  for (int i = 0; i < 2; ++i) {
    v1::ApplyActionRequest act;
    act.set_token(u.token());
    *act.mutable_action() = ChooseAction(u, false);
    act.add_private_view_seats(u.to_act());
    act.set_detail(i == 0 ? v1::UPDATE_DETAIL_FULL : v1::UPDATE_DETAIL_COMPACT);
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().ApplyAction(&ctx, act, &resp), IsOk());
    ASSERT_TRUE(google::protobuf::util::MessageToJsonString(resp, &json[i]).ok());
  }
  if (getenv("STUD_DUMP_JSON")) std::printf("%s\n", json[1].c_str());
  std::printf("ApplyAction answer, 8 seats, 5th street, as JSON: full %zu bytes, compact %zu\n",
              json[0].size(), json[1].size());
  EXPECT_LT(json[1].size(), 2000u);
}

// STUD-DEAL-3, STUD-DECK-1, STUD-DECK-5: in ticket mode the table's ticket
// reports every dealer step (cards, burns, the reshuffle, the common card) and
// each seat acts with its own ticket: an 8-seat LIVE hand reaches its end.
TEST(TableTicketTest, STUD_DECK_1_AnEightSeatLiveHandPlaysToTheEndInTicketMode) {
  const SeatTicketPolicy required{.required = true};
  Server server({TestKey(1, 7)}, ServiceOptions{.allow_preset = true, .seat_tickets = &required});
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::NewHandResponse hand;
  ASSERT_THAT(server.stub().NewHand(&ctx, BasicHand(8, v1::DEALING_MODE_LIVE), &hand), IsOk());
  v1::HandUpdate u = hand.update();
  std::set<std::string> dealt, burned;
  bool reshuffled = false;
  std::set<v1::DealStep> steps;
  auto next_card = [&] {
    for (const std::string& c : NaturalDeck()) {
      if (!dealt.count(c) && (reshuffled || !burned.count(c))) return c;
    }
    return std::string();
  };
  for (int calls = 0; calls < 400 && u.public_view().phase() != v1::PHASE_COMPLETE; ++calls) {
    v1::ApplyActionRequest r;
    v1::Action* a = r.mutable_action();
    if (u.public_view().phase() == v1::PHASE_AWAITING_DEAL) {
      const v1::DealStep step = u.expected_deal().step();
      steps.insert(step);
      r.set_seat_ticket(hand.table_ticket());
      if (step == v1::DEAL_STEP_RESHUFFLE) {
        a->set_kind(v1::ACTION_KIND_RESHUFFLE);
        reshuffled = true;
      } else if (step == v1::DEAL_STEP_BURN) {
        a->set_kind(v1::ACTION_KIND_BURN);
        if (!reshuffled) {
          a->set_card(next_card());
          burned.insert(a->card());
        }
      } else {
        a->set_kind(v1::ACTION_KIND_DEAL);
        a->set_seat(u.expected_deal().seat());
        a->set_face_up(u.expected_deal().face_up());
        a->set_card(next_card());
        dealt.insert(a->card());
      }
    } else {
      *a = ChooseAction(u, false);
      r.set_seat_ticket(hand.seat_tickets(u.to_act() - 1).ticket());
    }
    r.set_token(u.token());
    v1::ApplyActionResponse resp;
    grpc::ClientContext c;
    SetDeadline(&c);
    const grpc::Status st = server.stub().ApplyAction(&c, r, &resp);
    ASSERT_THAT(st, IsOk()) << a->ShortDebugString() << ": " << st.error_message();
    u = resp.update();
  }
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  EXPECT_TRUE(steps.count(v1::DEAL_STEP_BURN));
  EXPECT_TRUE(steps.count(v1::DEAL_STEP_RESHUFFLE));
  EXPECT_TRUE(steps.count(v1::DEAL_STEP_COMMON_CARD));
  EXPECT_FALSE(u.public_view().common_card().empty());
  // A seat's ticket may not report the dealer's steps.
  v1::ApplyActionRequest r;
  r.set_token(hand.update().token());
  r.set_seat_ticket(hand.seat_tickets(0).ticket());
  r.mutable_action()->set_kind(v1::ACTION_KIND_BURN);
  v1::ApplyActionResponse resp;
  grpc::ClientContext c;
  SetDeadline(&c);
  const grpc::Status st = server.stub().ApplyAction(&c, r, &resp);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "SEAT_TICKET_NOT_PERMITTED") << st.error_message();
}

}  // namespace
}  // namespace stud::service::testing
