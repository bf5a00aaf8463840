// The hand ledger through Redis Sentinel (redis-sentinel://, redis_connect.h)
// on loopback: a master, a replica and three sentinels started here. The
// master is killed (SIGKILL) while hands are in play and calls are in flight;
// the sentinels promote the replica, the ledger follows it, and every hand
// continues from its latest token with nothing lost (--ledger_wait_replicas 1:
// no answer left before the replica had its write). The outage window (kill
// to the first acknowledged write) is printed for docs/ledger.md.
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ledger_fixture.h"
#include "sentinel_fixture.h"
#include "service/api/status_mapping.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using Clock = std::chrono::steady_clock;
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
using ::testing::HasSubstr;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// Plays 8 hands through a failover of a master with `replicas` replicas
// (WAIT 1). With one replica the killed master is restarted once the replica
// is promoted (WAIT 1 needs a replica); with two the other one serves.
// With `passwords`, Redis and the Sentinels each require theirs.
void PlayThroughFailover(int replicas, const SentinelPasswords& passwords = {}) {
  SentinelSet set(passwords);
  ASSERT_TRUE(set.Start(/*down_after_ms=*/1000, replicas));
  RedisLedgerOptions o = *ParseLedgerUrl(set.url());
  o.password = passwords.redis;
  o.sentinel_password = passwords.sentinel;
  o.wait_replicas = 1;
  o.wait_timeout = absl::Milliseconds(500);
  Replica r(o);
  ASSERT_THAT(r.ledger->Ping(), IsOk());

  constexpr int kHands = 8;
  std::atomic<bool> killed{false};
  std::atomic<int> moves_before_kill{0};
  Clock::time_point kill_time;
  std::mutex mu;
  Clock::time_point first_write_after_kill = Clock::time_point::max();
  std::vector<std::string> errors;  // anything but UNAVAILABLE
  std::vector<v1::HandUpdate> final_state(kHands);
  std::atomic<int> unavailable{0};

  // One player per hand: one move every 50 ms (pacing, so that hands are in
  // play when the master dies); an UNAVAILABLE call is sent again as it was
  // (the exact retry) every 20 ms, for at most 90 s.
  auto play = [&](int h) {
    const Clock::time_point deadline = Clock::now() + std::chrono::seconds(90);
    auto call = [&](auto&& once) {
      while (Clock::now() < deadline) {
        const grpc::Status st = once();
        if (st.ok()) return true;
        if (st.error_code() != grpc::StatusCode::UNAVAILABLE) {
          std::lock_guard<std::mutex> lock(mu);
          errors.push_back(absl::StrCat("hand ", h, ": ", st.error_code(), " ",
                                        ErrorInfoOf(st).reason(), " ", st.error_message()));
          return false;
        }
        ++unavailable;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      std::lock_guard<std::mutex> lock(mu);
      errors.push_back(absl::StrCat("hand ", h, ": still UNAVAILABLE after 90 s"));
      return false;
    };
    v1::NewHandResponse started;
    if (!call([&] {
          return Call(r.stub(), &v1::StudService::Stub::NewHand,
                      BasicHand(3, v1::DEALING_MODE_SERVICE), &started);
        })) {
      return;
    }
    v1::HandUpdate u = started.update();
    for (int i = 0; i < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i) {
      const v1::Action a = ChooseAction(u, false);
      v1::ApplyActionResponse resp;
      if (!call([&] { return Apply(r.stub(), u.token(), a, &resp); })) return;
      if (resp.update().version() != u.version() + 1) {
        std::lock_guard<std::mutex> lock(mu);
        errors.push_back(
            absl::StrCat("hand ", h, ": version ", u.version(), " -> ", resp.update().version()));
        return;
      }
      if (killed.load()) {
        std::lock_guard<std::mutex> lock(mu);
        first_write_after_kill = std::min(first_write_after_kill, Clock::now());
      } else {
        ++moves_before_kill;
      }
      u = resp.update();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    final_state[static_cast<size_t>(h)] = u;
  };
  std::vector<std::thread> players;
  for (int h = 0; h < kHands; ++h) players.emplace_back(play, h);
  while (moves_before_kill.load() < 2 * kHands)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));

  {
    std::lock_guard<std::mutex> lock(mu);
    kill_time = Clock::now();
  }
  set.master.Stop();  // SIGKILL mid-play: calls are in flight
  killed = true;
  // A write that waits for no replica: the window of the promotion alone.
  Clock::time_point first_plain_write = Clock::time_point::max();
  std::thread probe([&] {
    RedisLedgerOptions plain = o;
    plain.wait_replicas = 0;
    RedisLedger ledger(plain, nullptr);
    for (int i = 0; Clock::now() < kill_time + std::chrono::seconds(60); ++i) {
      if (ledger.Create(LedgerKey("probe", absl::StrCat(i)), {{1, "d"}, "t"}).ok()) {
        first_plain_write = Clock::now();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  // The sentinels promote the replica; then the old master comes back, as a
  // supervisor would restart it, and the sentinels make it the new replica
  // (with one replica, WAIT 1 needs it).
  Clock::time_point promoted = Clock::time_point::max();
  RedisServer* new_master = nullptr;
  for (auto until = Clock::now() + std::chrono::seconds(60); Clock::now() < until;) {
    const int port = set.sentinels[0].MasterPort(SentinelSet::kName);
    new_master = port == set.replica->port()              ? set.replica.get()
                 : set.spare && port == set.spare->port() ? set.spare.get()
                                                          : nullptr;
    if (new_master != nullptr) {
      promoted = Clock::now();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  probe.join();
  ASSERT_NE(promoted, Clock::time_point::max()) << "no promotion within 60 s";
  if (replicas == 1) {
    ASSERT_TRUE(set.master.Start());
  }
  for (std::thread& t : players) t.join();
  ASSERT_NE(first_plain_write, Clock::time_point::max()) << "no write on the new master";

  for (const std::string& e : errors) ADD_FAILURE() << e;
  ASSERT_TRUE(errors.empty());
  ASSERT_NE(first_write_after_kill, Clock::time_point::max()) << "no hand was left to play";
  for (int h = 0; h < kHands; ++h) {
    const v1::HandUpdate& u = final_state[static_cast<size_t>(h)];
    EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE) << "hand " << h;
    // Nothing lost: the new master's entry is the hand's last token.
    EXPECT_TRUE(absl::StartsWith(
        new_master->Command("GETRANGE " + LedgerKey("", u.public_view().hand_id()) + " 0 60"),
        absl::StrCat(u.version(), ":", TokenDigest(u.token()))))
        << "hand " << h;
  }
  EXPECT_GE(r.Metric("stud_ledger_master_changes_total", ""), 1);
  EXPECT_GE(unavailable.load(), 1) << "calls failed closed during the failover";

  const double window = Ms(first_write_after_kill - kill_time);
  std::cout << "failover with " << replicas << " replica(s)"
            << (passwords.sentinel.empty() ? "" : " (passwords on Redis and the Sentinels)")
            << ": sentinels named a replica " << Ms(promoted - kill_time)
            << " ms after the kill (down-after-milliseconds 1000); first write without WAIT "
            << Ms(first_plain_write - kill_time)
            << " ms after it; first write acknowledged by a replica (WAIT 1"
            << (replicas == 1 ? ": the old master restarted and resynced as the new replica) "
                              : ": the other replica, now following the new master) ")
            << window << " ms after the kill; " << unavailable.load()
            << " UNAVAILABLE answers retried\n";
  ::testing::Test::RecordProperty("promotion_ms", static_cast<int>(Ms(promoted - kill_time)));
  ::testing::Test::RecordProperty("first_write_ms", static_cast<int>(window));
  ::testing::Test::RecordProperty("first_plain_write_ms",
                                  static_cast<int>(Ms(first_plain_write - kill_time)));
}

TEST(LedgerFailover, SentinelsPromoteTheReplicaAndEveryHandContinues) { PlayThroughFailover(1); }

// With a second replica, WAIT 1 is acknowledged as soon as the other replica
// follows the new master: the window stays that of the promotion.
TEST(LedgerFailover, WithTwoReplicasWaitKeepsTheShortWindow) { PlayThroughFailover(2); }

// Redis and the Sentinels each with a password (requirepass; the Sentinels
// also authenticate to each other with theirs): the same failover.
TEST(LedgerFailover, WithPasswordsOnRedisAndTheSentinels) {
  PlayThroughFailover(2, {"redis-pw", "sentinel-pw"});
}

// Sentinels with a password of their own: none, or a wrong one, is
// UNAVAILABLE LEDGER_UNAVAILABLE naming the cause, counted as
// cause="sentinel_auth", and no secret in the message; nothing is lost: the
// hand goes on from the same token once the password is right.
TEST(LedgerFailover, SentinelsThatRefuseThePasswordFailClosed) {
  SentinelSet set({"redis-pw", "sentinel-pw"});
  ASSERT_TRUE(set.Start());
  RedisLedgerOptions good = *ParseLedgerUrl(set.url());
  good.password = "redis-pw";
  good.sentinel_password = "sentinel-pw";
  Replica ok(good);
  const v1::HandUpdate u = Next(ok.stub(), Start(ok.stub()));
  ASSERT_EQ(u.version(), 1u);
  for (const char* password : {"", "wrong-pw"}) {
    RedisLedgerOptions o = good;
    o.sentinel_password = password;
    Replica refused(o);
    v1::ApplyActionResponse resp;
    const grpc::Status st = Apply(refused.stub(), u.token(), ChooseAction(u, false), &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE) << st.error_message();
    EXPECT_EQ(ErrorInfoOf(st).reason(), "LEDGER_UNAVAILABLE");
    EXPECT_TRUE(absl::StrContains(st.error_message(),
                                  *password ? "refused the password" : "needs a password"))
        << st.error_message();
    EXPECT_TRUE(absl::StrContains(st.error_message(), "--ledger_sentinel_password_file"))
        << st.error_message();
    EXPECT_FALSE(absl::StrContains(st.error_message(), "-pw")) << st.error_message();
    EXPECT_TRUE(resp.update().token().empty());
    EXPECT_EQ(refused.Metric("stud_ledger_connect_failures_total", "cause=sentinel_auth"), 1);
    EXPECT_EQ(refused.Metric("stud_ledger_calls_total", "op=advance,result=unavailable"), 1);
  }
  // The refused calls wrote nothing: the same token advances to version 2.
  EXPECT_EQ(Next(ok.stub(), u).version(), 2u);
  EXPECT_EQ(ok.Metric("stud_ledger_connect_failures_total", "cause=sentinel_auth"), 0);
}

// A Sentinel that names a master nobody answers at, a master name no Sentinel
// knows, and no Sentinel at all: UNAVAILABLE with a message that says which,
// and the cause counted.
TEST(LedgerFailover, NoReachableMasterFailsClosedWithTheReason) {
  const int nobody = FreeLoopbackPort();
  RedisSentinel sentinel;
  ASSERT_TRUE(sentinel.Start("ledger", nobody));
  {
    prometheus::Registry registry;
    RedisLedger ledger(
        *ParseLedgerUrl(absl::StrCat("redis-sentinel://127.0.0.1:", sentinel.port(), "/ledger")),
        &registry);
    const LedgerCommit c{{1, "d"}, "t"};
    const auto created = ledger.Create(LedgerKey("t", "00"), c);
    ASSERT_THAT(created, ::testing::Not(IsOk()));
    EXPECT_THAT(created,
                StatusIs(absl::StatusCode::kUnavailable,
                         ::testing::AllOf(HasSubstr("no master for 'ledger'"),
                                          HasSubstr(absl::StrCat("names 127.0.0.1:", nobody)))));
    EXPECT_EQ(ErrorReason(created.status()), "LEDGER_UNAVAILABLE");
    double unreachable = -1;
    for (const prometheus::MetricFamily& f : registry.Collect()) {
      if (f.name != "stud_ledger_connect_failures_total") continue;
      for (const auto& m : f.metric)
        if (m.label[0].value == "unreachable") unreachable = m.counter.value;
    }
    EXPECT_EQ(unreachable, 1);
  }
  RedisLedger unknown(
      *ParseLedgerUrl(absl::StrCat("redis-sentinel://127.0.0.1:", sentinel.port(), "/other")),
      nullptr);
  const absl::Status st = unknown.Ping();
  EXPECT_EQ(st.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(st.message(), "knows no master named 'other'")) << st.message();

  RedisLedger none(*ParseLedgerUrl(absl::StrCat("redis-sentinel://127.0.0.1:", nobody, "/ledger")),
                   nullptr);
  const absl::Status st2 = none.Ping();
  EXPECT_EQ(st2.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(st2.message(), "cannot reach sentinel")) << st2.message();
}

// A Sentinel that still names a replica (a failover under way, or a wrong
// name): the ROLE check refuses it rather than writing there.
TEST(LedgerFailover, AReplicaNamedAsMasterIsRefused) {
  RedisServer master;
  ASSERT_TRUE(master.Start());
  RedisServer replica({"--replicaof", "127.0.0.1", std::to_string(master.port())});
  ASSERT_TRUE(replica.Start());
  RedisSentinel sentinel;
  ASSERT_TRUE(sentinel.Start("wrong", replica.port()));
  RedisLedger ledger(
      *ParseLedgerUrl(absl::StrCat("redis-sentinel://127.0.0.1:", sentinel.port(), "/wrong")),
      nullptr);
  const absl::Status st = ledger.Ping();
  EXPECT_EQ(st.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(st.message(), "not the master")) << st.message();
}

TEST(LedgerFailover, SentinelUrls) {
  absl::StatusOr<RedisLedgerOptions> o =
      ParseLedgerUrl("redis-sentinel://10.0.0.1:26380,sentinel-b,10.0.0.3:1/ledger");
  ASSERT_THAT(o, IsOk());
  ASSERT_EQ(o->sentinels.size(), 3u);
  EXPECT_EQ(o->sentinels[0], (RedisAddress{"10.0.0.1", 26380}));
  EXPECT_EQ(o->sentinels[1], (RedisAddress{"sentinel-b", 26379}));
  EXPECT_EQ(o->master_name, "ledger");
  EXPECT_EQ(DescribeLedgerAddress(*o),
            "sentinel master ledger via 10.0.0.1:26380,sentinel-b:26379,10.0.0.3:1");
  const auto refused = StatusIs(absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(ParseLedgerUrl("redis-sentinel://10.0.0.1:26379"), refused) << "no master name";
  EXPECT_THAT(ParseLedgerUrl("redis-sentinel://10.0.0.1:26379/"), refused) << "no master name";
  EXPECT_THAT(ParseLedgerUrl("redis-sentinel://a:1,:2/m"), refused) << "empty host";
  EXPECT_THAT(ParseLedgerUrl("redis-sentinel://a:0/m"), refused) << "bad port";
}

}  // namespace
}  // namespace stud::service::testing
