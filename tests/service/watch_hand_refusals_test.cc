// WatchHand (service/server/watch_hand.h) refused and ended, against a real
// redis-server with replicas sharing the key ring (watch_fixture.h): opening a
// watch counts against the seat's rate limit; bytes that are not a request, a
// bad hand id, an unknown hand, a future version, another hand's or a forged
// ticket and a replica without a ledger are refused with their reasons, in
// the caller's language; the limits per replica and per tenant; the drain and
// an idle stream end UNAVAILABLE; a Redis outage ends the streams and
// watching resumes after it. What the streams carry: watch_hand_test.cc.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "watch_fixture.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::StatusIs;
using ::testing::HasSubstr;

// Opening a watch counts against the seat's rate limit like any call, so a
// phone cannot flood a replica with reopened streams.
TEST(WatchHandTest, OpeningWatchesCountsAgainstTheSeatsRateLimit) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  SeatRateLimiter limit(/*rate=*/0.001, /*burst=*/2);
  Replica a(redis, {}, true, &limit);
  Hand h = Deal(a, 2);
  std::vector<std::string> reasons;
  for (int i = 0; i < 3; ++i) {
    Watched w = Watch(a, h.id, h.tickets[1], 0, /*stop_after=*/1);
    reasons.push_back(ErrorInfoOf(w.status).reason());
  }
  EXPECT_EQ(reasons.back(), "SEAT_RATE_LIMITED");
  EXPECT_NE(reasons.front(), "SEAT_RATE_LIMITED");
}

TEST(WatchHandTest, Refusals) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  Hand h = Deal(a, 2);
  Hand other = Deal(a, 2);
  const auto reason = [](const Watched& w) { return ErrorInfoOf(w.status).reason(); };

  Watched bad = Watch(b, "not-a-hand-id", h.tickets[1], 0);
  // The words GetView by hand id gives (ledger.h HandIdFromCaller), what was
  // sent escaped.
  EXPECT_THAT(bad.status, StatusIs(grpc::StatusCode::INVALID_ARGUMENT,
                                   HasSubstr("hand_id: 'not-a-hand-id' is not a hand id (32 hex "
                                             "digits, as in PublicView.hand_id)")));
  Watched control = Watch(b, std::string(31, 'a') + "\x01", h.tickets[1], 0);
  EXPECT_THAT(control.status, StatusIs(grpc::StatusCode::INVALID_ARGUMENT,
                                       HasSubstr("aaaa\\x01' is not a hand id")));
  // Bytes that are not a WatchHandRequest (a string field that is not UTF-8):
  // the service's own refusal, as for the unary calls (the method is raw).
  Watched undecodable = Watch(b, std::string(8, '\xff'), h.tickets[1], 0);
  EXPECT_THAT(undecodable.status,
              StatusIs(grpc::StatusCode::INVALID_ARGUMENT,
                       HasSubstr("are not a valid stud.v1.WatchHandRequest message")));

  // An unknown hand: a ticket of another hand is refused before the lookup
  // (it cannot tell whether a hand id exists); without one, the ledger says.
  Watched unknown = Watch(b, std::string(32, 'a'), h.tickets[1], 0);
  EXPECT_THAT(unknown.status, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
  EXPECT_EQ(reason(unknown), "SEAT_TICKET_WRONG_HAND");
  Watched unknown_untold = Watch(b, std::string(32, 'a'), "", 0);
  EXPECT_THAT(unknown_untold.status, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(reason(unknown_untold), "HAND_NOT_IN_LEDGER");

  // In the caller's language, as the unary calls' errors.
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(
      Watch(b, std::string(32, 'a'), h.tickets[1], 0, 0, "es").status.error_details()));
  google::rpc::LocalizedMessage localized;
  for (const auto& any : details.details()) {
    if (any.Is<google::rpc::LocalizedMessage>()) any.UnpackTo(&localized);
  }
  EXPECT_EQ(localized.locale(), "es");

  Watched future = Watch(b, h.id, h.tickets[1], 5);
  EXPECT_THAT(future.status,
              StatusIs(grpc::StatusCode::OUT_OF_RANGE, HasSubstr("latest version 0")));

  Watched wrong_hand = Watch(b, h.id, other.tickets[1], 0);
  EXPECT_THAT(wrong_hand.status, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
  EXPECT_EQ(reason(wrong_hand), "SEAT_TICKET_WRONG_HAND");

  std::string forged = h.tickets[1];
  forged.back() = static_cast<char>(forged.back() ^ 1);
  EXPECT_EQ(reason(Watch(b, h.id, forged, 0)), "SEAT_TICKET_INVALID");

  Replica no_ledger(redis, {}, /*with_ledger=*/false);
  Watched off = Watch(no_ledger, h.id, h.tickets[1], 0);
  EXPECT_THAT(off.status, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(reason(off), "LEDGER_NOT_CONFIGURED");
  for (const Watched* w : {&bad, &unknown, &future, &wrong_hand, &off})
    EXPECT_TRUE(w->updates.empty());
}

TEST(WatchHandTest, LimitsPerReplicaAndPerTenant) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis, WatchHubOptions{.max_watchers = 2});
  Replica c(redis, WatchHubOptions{.max_watchers_per_tenant = 1});
  Hand h = Deal(a, 2);
  OpenWatch one(b, h, 1), two(b, h, 2);
  ASSERT_TRUE(one.first && two.first);
  Watched third = Watch(b, h.id, h.tickets[0], 0);
  EXPECT_THAT(third.status, StatusIs(grpc::StatusCode::RESOURCE_EXHAUSTED));
  EXPECT_EQ(ErrorInfoOf(third.status).reason(), "WATCHERS_EXHAUSTED");
  OpenWatch mine(c, h, 1);
  ASSERT_TRUE(mine.first);
  Watched again = Watch(c, h.id, h.tickets[2], 0);
  EXPECT_EQ(ErrorInfoOf(again.status).reason(), "TENANT_WATCHERS_EXHAUSTED");
  // A closed stream frees its place.
  one.ctx.TryCancel();
  EXPECT_THAT(one.End(), StatusIs(grpc::StatusCode::CANCELLED));
  EXPECT_TRUE(Eventually([&] { return b.hub->watchers() == 1; }));
  OpenWatch fourth(b, h, 0);
  EXPECT_TRUE(fourth.first);
}

TEST(WatchHandTest, DrainEndsOpenStreamsUnavailableServerDraining) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  Hand h = Deal(a, 2);
  OpenWatch open(b, h, 1);
  ASSERT_TRUE(open.first);
  b.server->service().StartDraining();
  b.server->service().EndWatches();
  const grpc::Status ended = open.End();
  EXPECT_THAT(ended, StatusIs(grpc::StatusCode::UNAVAILABLE));
  EXPECT_EQ(ErrorInfoOf(ended).reason(), "SERVER_DRAINING");
  Watched late = Watch(b, h.id, h.tickets[1], 0);
  EXPECT_EQ(ErrorInfoOf(late.status).reason(), "SERVER_DRAINING");
  // The client resumes on the other replica.
  ASSERT_TRUE(Step(a, h, false));
  Watched resumed = Watch(a, h.id, h.tickets[1], 0, 2);
  EXPECT_EQ(resumed.versions(), (std::vector<uint64_t>{0, 1}));
}

TEST(WatchHandTest, IdleStreamEndsUnavailableWatchIdle) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis);
  Replica b(redis, WatchHubOptions{.idle_timeout = absl::Milliseconds(200),
                                   .block = absl::Milliseconds(100)});
  Hand h = Deal(a, 2);
  const Watched w = Watch(b, h.id, h.tickets[1], 0);
  EXPECT_EQ(w.versions(), (std::vector<uint64_t>{0}));
  EXPECT_THAT(w.status, StatusIs(grpc::StatusCode::UNAVAILABLE));
  EXPECT_EQ(ErrorInfoOf(w.status).reason(), "WATCH_IDLE");
}

TEST(WatchHandTest, RedisOutageEndsStreamsUnavailableAndWatchingResumesAfter) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  Hand h = Deal(a, 2);
  OpenWatch open(b, h, 1);
  ASSERT_TRUE(open.first);
  redis.Stop();
  const grpc::Status ended = open.End();
  EXPECT_THAT(ended, StatusIs(grpc::StatusCode::UNAVAILABLE));
  EXPECT_EQ(ErrorInfoOf(ended).reason(), "LEDGER_UNAVAILABLE");
  EXPECT_THAT(Watch(b, h.id, h.tickets[1], 0).status, StatusIs(grpc::StatusCode::UNAVAILABLE));
  ASSERT_TRUE(redis.Start());  // append-only file: the hand is still there
  Watched again;
  for (int i = 0; i < 200; ++i) {  // the hub reconnects with backoff (at most 2 s apart)
    again = Watch(b, h.id, h.tickets[1], 0, 1);
    if (again.status.error_code() != grpc::StatusCode::UNAVAILABLE) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(again.versions(), (std::vector<uint64_t>{0}));
}

}  // namespace
}  // namespace stud::service::testing
