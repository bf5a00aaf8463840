// The watch hub (service/trust/watch_hub.h) alone, against a real
// redis-server, on stream entries written by hand as the ledger writes them
// (ledger.h, the watch stream contract): a full watcher is read again once it
// has room, nothing lost and nothing twice; a watcher too far behind ends
// WATCHER_TOO_SLOW; a stream that lost the version a watcher needs ends it
// WATCH_HISTORY_GONE. The hub blocks 60 s per read, so each pick-up here also
// relies on its prompt wake-up.
#include "service/trust/watch_hub.h"

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "redis_fixture.h"
#include "service/api/status_mapping.h"
#include "service/trust/redis_ledger.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;

// Waits (bounded) until `done`.
template <typename F>
bool Eventually(F done) {
  for (int i = 0; i < 10000 && !done(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

class FakeSink final : public WatchSink {
 public:
  explicit FakeSink(size_t room) : room_(room) {}
  bool Offer(WatchEntryPtr e) override {
    std::lock_guard<std::mutex> l(mu_);
    if (room_ == 0) return false;
    --room_;
    got_.push_back(e->version);
    return true;
  }
  void End(const absl::Status& s) override {
    std::lock_guard<std::mutex> l(mu_);
    end_ = s;
    ended_ = true;
  }
  void AddRoom(size_t n) {
    std::lock_guard<std::mutex> l(mu_);
    room_ += n;
  }
  std::vector<uint64_t> got() {
    std::lock_guard<std::mutex> l(mu_);
    return got_;
  }
  bool ended() {
    std::lock_guard<std::mutex> l(mu_);
    return ended_;
  }
  absl::Status end() {
    std::lock_guard<std::mutex> l(mu_);
    return end_;
  }

 private:
  std::mutex mu_;
  size_t room_;
  std::vector<uint64_t> got_;
  bool ended_ = false;
  absl::Status end_;
};

void Add(const RedisServer& redis, const std::string& key, uint64_t version, bool ended = false) {
  EXPECT_EQ(redis.Command(absl::StrCat("XADD ", key, " ", version, "-1 t tok", version, " o 0 e ",
                                       ended ? 1 : 0)),
            absl::StrCat(version, "-1"));
}

TEST(WatchHubTest, AFullWatcherIsReadAgainWhenItHasRoomNothingLostNothingTwice) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  WatchHub hub({.redis = *ParseLedgerUrl(redis.url()), .block = absl::Seconds(60)}, nullptr);
  const std::string key = "stud:{t:h1}:watch";
  for (uint64_t v = 0; v < 10; ++v) Add(redis, key, v);
  FakeSink slow(3), fast(100);
  ASSERT_THAT(hub.Add(&slow, "t", key, 0), IsOk());
  ASSERT_THAT(hub.Add(&fast, "t", key, 4), IsOk());
  ASSERT_TRUE(Eventually([&] { return fast.got().size() == 6; }));
  EXPECT_EQ(slow.got(), (std::vector<uint64_t>{0, 1, 2}));
  slow.AddRoom(100);
  hub.Resume(&slow);
  ASSERT_TRUE(Eventually([&] { return slow.got().size() == 10; }));
  Add(redis, key, 10, /*ended=*/true);
  ASSERT_TRUE(Eventually([&] { return slow.ended() && fast.ended(); }));
  EXPECT_EQ(slow.got(), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(fast.got(), (std::vector<uint64_t>{4, 5, 6, 7, 8, 9, 10}));
  EXPECT_THAT(slow.end(), IsOk());
  EXPECT_EQ(hub.watchers(), 0);
}

TEST(WatchHubTest, AWatcherTooFarBehindEndsAndAGapEndsHistoryGone) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  WatchHub hub(
      {.redis = *ParseLedgerUrl(redis.url()), .block = absl::Seconds(60), .max_lag_versions = 4},
      nullptr);
  const std::string key = "stud:{t:h2}:watch";
  FakeSink stuck(1), keeps_up(100);
  ASSERT_THAT(hub.Add(&stuck, "t", key, 0), IsOk());
  ASSERT_THAT(hub.Add(&keeps_up, "t", key, 0), IsOk());
  for (uint64_t v = 0; v < 8; ++v) Add(redis, key, v);
  ASSERT_TRUE(Eventually([&] { return stuck.ended() && keeps_up.got().size() == 8; }));
  EXPECT_EQ(stuck.end().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ErrorReason(stuck.end()), "WATCHER_TOO_SLOW");

  const std::string trimmed = "stud:{t:h3}:watch";
  Add(redis, trimmed, 5);
  FakeSink late(100);
  ASSERT_THAT(hub.Add(&late, "t", trimmed, 2), IsOk());
  ASSERT_TRUE(Eventually([&] { return late.ended(); }));
  EXPECT_EQ(ErrorReason(late.end()), "WATCH_HISTORY_GONE");
  EXPECT_TRUE(late.got().empty());
  hub.Remove(&keeps_up);
}

TEST(WatchHubTest, AWatcherAddedWhileAReadIsOutStartsFromItsOwnCursor) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  WatchHub hub({.redis = *ParseLedgerUrl(redis.url()), .block = absl::Seconds(60)}, nullptr);
  // A read asked for one watcher's later versions may return while a new
  // watcher of the same hand, from the deal, is being added: it must not
  // take that read for its own (no WATCH_HISTORY_GONE), and must get all.
  for (int round = 0; round < 50; ++round) {
    const std::string key = absl::StrCat("stud:{t:race", round, "}:watch");
    for (uint64_t v = 0; v < 5; ++v) Add(redis, key, v);
    FakeSink ahead(100), late(100);
    ASSERT_THAT(hub.Add(&ahead, "t", key, 5), IsOk());
    std::thread writer([&] { Add(redis, key, 5, /*ended=*/true); });
    ASSERT_THAT(hub.Add(&late, "t", key, 0), IsOk());
    writer.join();
    ASSERT_TRUE(Eventually([&] { return ahead.ended() && late.ended(); }));
    EXPECT_THAT(late.end(), IsOk()) << "round " << round << ": " << late.end();
    EXPECT_EQ(late.got(), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5})) << "round " << round;
  }
}

// The destructor shuts the reader's socket down to end its blocked XREAD. A
// hub stopped while its reader is between connecting and sending the XREAD
// writes to that shut-down socket: the write must fail (EPIPE), not kill the
// process with SIGPIPE. Stopped here at many points of its start-up.
TEST(WatchHubTest, AHubStoppedAtAnyMomentStopsWithoutKillingTheProcess) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  const std::string key = "stud:{t:stop}:watch";
  Add(redis, key, 0);
  for (int round = 0; round < 200; ++round) {
    FakeSink sink(100);
    WatchHub hub({.redis = *ParseLedgerUrl(redis.url()), .block = absl::Seconds(60)}, nullptr);
    ASSERT_THAT(hub.Add(&sink, "t", key, 0), IsOk());
    std::this_thread::sleep_for(std::chrono::microseconds(round * 7));
  }
  EXPECT_EQ(redis.Command("PING"), "PONG");
}

}  // namespace
}  // namespace stud::service::testing
