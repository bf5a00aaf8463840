// The seeding phase of a hand dealt with players' seeds
// (FairnessOptions.player_seeds; docs/fairness.md) [STUD-DEAL-6]: NewHand
// commits the server seed and deals nothing; each seat sends its seed once
// (under its own ticket, or the platform for it); the table may close
// seeding for the silent seats; then the deck is stud-shuffle-v1 of the
// server seed, the hand id and the seeds. A seed is one action, one version
// and one ledger entry: no fork.
#include <sodium.h>

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "ledger_fixture.h"
#include "service/api/status_mapping.h"
#include "service/fairness/merkle.h"
#include "service/fairness/receipt.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/hand_service.h"
#include "service/token/codec.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

v1::NewHandRequest SeededHand(int seats, v1::Variant variant = v1::VARIANT_STUD) {
  v1::NewHandRequest req = BasicHand(seats, v1::DEALING_MODE_SERVICE, variant);
  req.mutable_fairness()->set_player_seeds(true);
  return req;
}

v1::Action Seed(int seat, const std::string& seed) {
  v1::Action a;
  a.set_kind(v1::ACTION_KIND_SEED);
  a.set_seat(seat);
  a.set_seed(seed);
  return a;
}

class Seeding {
 public:
  explicit Seeding(ServiceOptions options = {})
      : sealer_(*Sealer::Create({TestKey(1, 5)})), service_(&sealer_, options) {}
  v1::NewHandResponse Deal(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    const absl::Status st = service_.NewHand(req, &resp);
    EXPECT_THAT(st, IsOk());
    return resp;
  }
  absl::Status Apply(const v1::HandUpdate& u, const v1::Action& a, v1::ApplyActionResponse* out,
                     v1::UpdateDetail detail = v1::UPDATE_DETAIL_UNSPECIFIED) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    *req.mutable_action() = a;
    req.set_detail(detail);
    for (int s = 1; s <= u.public_view().seats_size(); ++s) req.add_private_view_seats(s);
    return service_.ApplyAction(req, out);
  }
  v1::HandUpdate ApplyOk(const v1::HandUpdate& u, const v1::Action& a) {
    v1::ApplyActionResponse resp;
    const absl::Status st = Apply(u, a, &resp);
    EXPECT_THAT(st, IsOk());
    return resp.update();
  }
  SealedHand Open(const std::string& token) const { return OpenSealedHand(sealer_, token); }
  HandService& service() { return service_; }

 private:
  Sealer sealer_;
  HandService service_;
};

void ExpectRuled(const absl::Status& st, const std::string& says) {
  EXPECT_THAT(st, StatusIs(absl::StatusCode::kFailedPrecondition)) << st;
  EXPECT_EQ(ErrorReason(st), "STUD-DEAL-6") << st;
  EXPECT_NE(st.message().find(says), absl::string_view::npos) << st;
}

TEST(SeedingTest, STUD_DEAL_6_NoOtherActionWhileSeeding) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Seeding table;
  v1::HandUpdate u = table.Deal(SeededHand(3)).update();
  const v1::PublicView pub = u.public_view();  // a copy: u is reassigned
  EXPECT_EQ(pub.phase(), v1::PHASE_SEEDING);
  EXPECT_EQ(u.version(), 0u);
  EXPECT_EQ(u.to_act(), 0);
  EXPECT_EQ(u.legal_actions_size(), 0);
  EXPECT_EQ(u.operations_size(), 0);
  for (const v1::SeatView& s : pub.seats()) {
    EXPECT_EQ(s.cards_size(), 0);
    EXPECT_EQ(s.stack(), 100000);
  }
  EXPECT_EQ(pub.fairness().server_seed_commitment().size(), 32u);
  EXPECT_TRUE(pub.fairness().deck_root().empty());
  EXPECT_TRUE(pub.fairness().player_seeds());
  ASSERT_EQ(pub.fairness().seeds_size(), 3);
  EXPECT_TRUE(pub.deck_commitment().commitment().empty());  // no deck yet
  const SealedHand sealed = table.Open(u.token());
  EXPECT_TRUE(sealed.service.seeding);
  EXPECT_TRUE(sealed.state.config.deck.empty());
  EXPECT_EQ(pub.fairness().server_seed_commitment(),
            fairness::ServerSeedCommitment(sealed.service.server_seed));

  // Nothing but seeds: a bet, LegalActions, an irregularity report, a history.
  v1::Action bet;
  bet.set_kind(v1::ACTION_KIND_BRING_IN);
  bet.set_seat(1);
  v1::ApplyActionResponse resp;
  ExpectRuled(table.Apply(u, bet, &resp), "PHASE_SEEDING");
  v1::LegalActionsRequest legal;
  legal.set_token(u.token());
  legal.set_seat(1);
  v1::LegalActionsResponse legal_resp;
  ExpectRuled(table.service().LegalActions(legal, &legal_resp), "PHASE_SEEDING");
  v1::ExportHandHistoryRequest history;
  history.set_token(u.token());
  v1::ExportHandHistoryResponse history_resp;
  ExpectRuled(table.service().ExportHandHistory(history, &history_resp), "PHASE_SEEDING");
  // Malformed seeds.
  EXPECT_EQ(table.Apply(u, Seed(1, ""), &resp).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(table.Apply(u, Seed(1, std::string(65, 'x')), &resp).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(table.Apply(u, Seed(4, "x"), &resp).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(table.Apply(u, Seed(0, "x"), &resp).code(), absl::StatusCode::kInvalidArgument);

  // Seat 1 seeds: one version, still seeding, its seed not shown yet.
  u = table.ApplyOk(u, Seed(1, std::string(64, '\xff')));
  EXPECT_EQ(u.version(), 1u);
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_SEEDING);
  EXPECT_TRUE(u.public_view().fairness().seeds(0).seeded());
  EXPECT_TRUE(u.public_view().fairness().seeds(0).seed().empty());
  EXPECT_FALSE(u.public_view().fairness().seeds(1).seeded());
  ExpectRuled(table.Apply(u, Seed(1, "again"), &resp), "already given its seed");
  // A compact answer during seeding is whole and sane too.
  v1::ApplyActionResponse compact;
  ASSERT_THAT(table.Apply(u, Seed(2, "b"), &compact, v1::UPDATE_DETAIL_COMPACT), IsOk());
  EXPECT_EQ(compact.update().public_view().phase(), v1::PHASE_SEEDING);

  u = table.ApplyOk(u, Seed(2, "b"));
  u = table.ApplyOk(u, Seed(3, "seat three"));
  // Dealt, in the version of the last seed.
  EXPECT_EQ(u.version(), 3u);
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_BETTING);
  const SealedHand dealt = table.Open(u.token());
  EXPECT_FALSE(dealt.service.seeding);
  const std::vector<std::string> seeds = {std::string(64, '\xff'), "b", "seat three"};
  const fairness::Derived d =
      fairness::Derive(sealed.service.server_seed, sealed.service.hand_id, seeds);
  for (int p = 0; p < 52; ++p) EXPECT_EQ(dealt.state.config.deck[p].index(), d.deck[p]) << p;
  EXPECT_EQ(u.public_view().fairness().deck_root(), fairness::DeckTree(d).root());
  EXPECT_EQ(u.public_view().fairness().server_seed_commitment(),
            pub.fairness().server_seed_commitment());  // fixed before any seed
  for (int s = 0; s < 3; ++s) EXPECT_EQ(u.public_view().fairness().seeds(s).seed(), seeds[s]);
  ExpectRuled(table.Apply(u, Seed(1, "late"), &resp), "seeding is over");
  for (const v1::PrivateView& pv : u.private_views()) EXPECT_EQ(pv.card_proofs_size(), 3);
}

// Over gRPC with seat tickets required: each seat seeds under its own ticket
// only; the table's ticket closes seeding for the silent seats, ruled with
// STUD-DEAL-6; the hand plays out and its receipt names the ruling.
TEST(SeedingTest, STUD_DEAL_6_TheTableClosesSeedingForASilentSeat) {
  SeatTicketPolicy tickets{.required = true, .tenants = {}};
  Server server({TestKey(1, 7)}, ServiceOptions{.seat_tickets = &tickets});
  v1::NewHandResponse start;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().NewHand(&ctx, SeededHand(3), &start), IsOk());
  }
  auto apply = [&](const v1::HandUpdate& u, const v1::Action& a, const std::string& ticket,
                   v1::ApplyActionResponse* resp) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    *req.mutable_action() = a;
    req.set_seat_ticket(ticket);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return server.stub().ApplyAction(&ctx, req, resp);
  };
  const std::string seat1 = start.seat_tickets(0).ticket(), seat2 = start.seat_tickets(1).ticket();
  v1::HandUpdate u = start.update();
  v1::ApplyActionResponse resp;
  // Seat 2's ticket neither seeds for seat 3 nor closes seeding.
  grpc::Status st = apply(u, Seed(3, "x"), seat2, &resp);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "SEAT_TICKET_WRONG_SEAT") << st.error_message();
  st = apply(u, Seed(0, ""), seat2, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
  // The table's ticket gives no seat's seed.
  st = apply(u, Seed(2, "x"), start.table_ticket(), &resp);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "SEAT_TICKET_NOT_PERMITTED") << st.error_message();
  ASSERT_THAT(apply(u, Seed(1, "alice"), seat1, &resp), IsOk());
  u = resp.update();
  ASSERT_THAT(apply(u, Seed(0, ""), start.table_ticket(), &resp), IsOk());
  EXPECT_EQ(resp.ruling().rule_id(), "STUD-DEAL-6");
  EXPECT_EQ(resp.ruling().decision(), "SEEDING_CLOSED");
  u = resp.update();
  EXPECT_EQ(u.version(), 2u);
  EXPECT_NE(u.public_view().phase(), v1::PHASE_SEEDING);
  const v1::FairnessView f = u.public_view().fairness();  // a copy: u is reassigned
  EXPECT_EQ(f.seeds(0).seed(), "alice");
  EXPECT_FALSE(f.seeds(1).seeded());
  EXPECT_TRUE(f.seeds(1).closed());
  EXPECT_TRUE(f.seeds(2).closed());
  EXPECT_FALSE(f.seeds(0).closed());
  // Play on with each seat's own ticket to the end.
  const std::string* ticket_of[] = {nullptr, &seat1, &seat2, &start.seat_tickets(2).ticket()};
  for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
    const v1::Action a = ChooseAction(u, false);
    ASSERT_THAT(apply(u, a, *ticket_of[a.seat()], &resp), IsOk());
    u = resp.update();
  }
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  const std::string& t = u.receipt().transcript();
  EXPECT_NE(t.find("\"player_seeds\":[\"" + absl::BytesToHexString("alice") + "\",\"\",\"\"]"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("{\"rule\":\"STUD-DEAL-6\",\"seat\":2},{\"rule\":\"STUD-DEAL-6\",\"seat\":3}"),
            std::string::npos)
      << t;
  v1::GetSigningKeysResponse keys;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().GetSigningKeys(&ctx, {}, &keys), IsOk());
  }
  ASSERT_EQ(keys.keys_size(), 1);
  EXPECT_EQ(keys.keys(0).key_id(), u.receipt().key_id());
  EXPECT_TRUE(fairness::VerifySignature(t, u.receipt().signature(), keys.keys(0).public_key()));
}

// Every variant: seeded by every seat, played out, the receipt verifies.
// Every call but NewHand is a pure function of its request and token, the
// one that deals from the seeds too: its retry (a lost answer) gets the same
// bytes, deck commitment and token included, on this replica or another.
// The commitment's salt was drawn there once, so each retry committed anew.
TEST(SeedingTest, STUD_DEAL_6_TheSeedThatCompletesTheSeedsRetriedAnswersTheSameBytes) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Seeding table;
  Seeding other;  // another replica of the same key ring
  v1::HandUpdate u = table.Deal(SeededHand(3)).update();
  u = table.ApplyOk(u, Seed(1, "alice"));
  u = table.ApplyOk(u, Seed(2, "bob"));
  v1::ApplyActionResponse first, retried, elsewhere;
  ASSERT_THAT(table.Apply(u, Seed(3, "carol"), &first), IsOk());
  ASSERT_THAT(table.Apply(u, Seed(3, "carol"), &retried), IsOk());
  ASSERT_THAT(other.Apply(u, Seed(3, "carol"), &elsewhere), IsOk());
  EXPECT_EQ(first.update().public_view().phase(), v1::PHASE_BETTING);  // dealt
  EXPECT_EQ(first.update().public_view().deck_commitment().commitment().size(), 32u);
  EXPECT_EQ(first.SerializeAsString(), retried.SerializeAsString());
  EXPECT_EQ(first.SerializeAsString(), elsewhere.SerializeAsString());
}

TEST(SeedingTest, EveryVariantPlaysOutAfterSeeding) {
  ASSERT_THAT(InitCrypto(), IsOk());
  for (v1::Variant variant : {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ}) {
    SCOPED_TRACE(v1::Variant_Name(variant));
    Seeding table;
    v1::HandUpdate u = table.Deal(SeededHand(8, variant)).update();
    for (int s = 1; s <= 8; ++s)
      u = table.ApplyOk(u,
                        Seed(s, std::string(static_cast<size_t>(s), static_cast<char>('a' + s))));
    EXPECT_EQ(u.version(), 8u);
    for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      u = table.ApplyOk(u, ChooseAction(u, false));
    }
    ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
    v1::GetSigningKeysResponse keys;
    ASSERT_THAT(table.service().GetSigningKeys({}, &keys), IsOk());
    EXPECT_TRUE(fairness::VerifySignature(u.receipt().transcript(), u.receipt().signature(),
                                          keys.keys(0).public_key()));
  }
}

// With the ledger: every seed is one entry of the hand's line. A second seed
// on the superseded token is refused (no fork); the exact retry of the last
// seed gets the identical answer; GetView by hand id shows the latest.
TEST(SeedingTest, SeedsAreLedgerEntriesWithNoFork) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  v1::NewHandResponse started;
  ASSERT_THAT(Call(a.stub(), &v1::StudService::Stub::NewHand, SeededHand(2), &started), IsOk());
  const v1::HandUpdate start = started.update();
  ASSERT_EQ(start.public_view().phase(), v1::PHASE_SEEDING);
  v1::ApplyActionResponse first;
  ASSERT_THAT(Apply(a.stub(), start.token(), Seed(1, "one"), &first), IsOk());
  EXPECT_EQ(first.update().version(), 1u);
  // Another seed on the old token, on the other replica: superseded.
  v1::ApplyActionResponse fork;
  grpc::Status st = Apply(b.stub(), start.token(), Seed(2, "two"), &fork);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "TOKEN_SUPERSEDED") << st.error_message();
  // The exact retry: the identical answer.
  v1::ApplyActionResponse retry;
  ASSERT_THAT(Apply(b.stub(), start.token(), Seed(1, "one"), &retry), IsOk());
  EXPECT_EQ(retry.update().token(), first.update().token());
  v1::ApplyActionResponse dealt;
  ASSERT_THAT(Apply(b.stub(), first.update().token(), Seed(2, "two"), &dealt), IsOk());
  EXPECT_EQ(dealt.update().version(), 2u);
  EXPECT_EQ(dealt.update().public_view().phase(), v1::PHASE_BETTING);
  v1::GetViewRequest view;
  view.set_hand_id(start.public_view().hand_id());
  v1::GetViewResponse latest;
  ASSERT_THAT(Call(a.stub(), &v1::StudService::Stub::GetView, view, &latest), IsOk());
  EXPECT_EQ(latest.update().version(), 2u);
  EXPECT_EQ(latest.update().public_view().fairness().seeds(1).seed(), "two");
}

}  // namespace
}  // namespace stud::service::testing
