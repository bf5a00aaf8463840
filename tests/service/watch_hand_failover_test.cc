// WatchHand across a Redis failover, on loopback: a master, two replicas and
// three sentinels (sentinel_fixture.h), two stud replicas with the ledger on
// redis-sentinel:// (WAIT 1). A device watches a hand on replica B while
// replica A plays it; the master is killed (SIGKILL) mid-hand and the
// sentinels promote a replica. The watcher either keeps receiving or its
// stream ends UNAVAILABLE LEDGER_UNAVAILABLE; it then watches again after the
// last version it received, as docs/mobile.md tells devices to. Asserted on
// versions: every version the hand reached arrives exactly once, in order,
// with the player's token, and nothing else arrives.
#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "sentinel_fixture.h"
#include "service/api/status_mapping.h"
#include "service/server/stud_service.h"
#include "service/trust/redis_ledger.h"
#include "service_fixture.h"
#include "watch_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using Clock = std::chrono::steady_clock;
using ::stud::testing::IsOk;

TEST(WatchHandFailover, NoVersionIsMissedWhenTheMasterFails) {
  SentinelSet set;
  ASSERT_TRUE(set.Start(/*down_after_ms=*/1000, /*replicas=*/2));
  RedisLedgerOptions o = *ParseLedgerUrl(set.url());
  o.wait_replicas = 1;
  o.wait_timeout = absl::Milliseconds(500);
  Replica a(o), b(o);

  v1::NewHandRequest deal = BasicHand(3, v1::DEALING_MODE_SERVICE);
  deal.add_private_view_seats(1);
  // WAIT 1 may time out on a loaded machine: UNAVAILABLE is retried here as
  // in the player below (a retried NewHand deals another hand; fine).
  v1::NewHandResponse dealt;
  grpc::Status dealt_status;
  for (int i = 0; i < 100; ++i) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    dealt_status = a.stub().NewHand(&ctx, deal, &dealt);
    if (dealt_status.error_code() != grpc::StatusCode::UNAVAILABLE) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_THAT(dealt_status, IsOk());
  const std::string hand_id = dealt.update().public_view().hand_id();
  std::string ticket;  // seat 1's
  for (const v1::SeatTicket& t : dealt.seat_tickets())
    if (t.seat() == 1) ticket = t.ticket();
  ASSERT_FALSE(ticket.empty());

  // The player on A: one action every 50 ms; an UNAVAILABLE call is sent
  // again as it was (the exact retry) every 20 ms. At most 90 s.
  std::mutex mu;
  std::vector<v1::HandUpdate> played = {dealt.update()};  // by version
  std::atomic<int> player_unavailable{0};
  std::string player_error;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(90);
  std::thread player([&] {
    v1::HandUpdate u = dealt.update();
    while (u.public_view().phase() != v1::PHASE_COMPLETE && Clock::now() < deadline) {
      v1::ApplyActionRequest req;
      req.set_token(u.token());
      *req.mutable_action() = ChooseAction(u, false);
      v1::ApplyActionResponse resp;
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      const grpc::Status st = a.stub().ApplyAction(&ctx, req, &resp);
      if (st.error_code() == grpc::StatusCode::UNAVAILABLE) {
        ++player_unavailable;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      if (!st.ok() || resp.update().version() != u.version() + 1) {
        std::lock_guard<std::mutex> lock(mu);
        player_error = absl::StrCat(st.error_code(), " ", st.error_message(), " at version ",
                                    u.version(), " -> ", resp.update().version());
        return;
      }
      u = resp.update();
      {
        std::lock_guard<std::mutex> lock(mu);
        played.push_back(u);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });

  // The device on B: watches after the last version it received; a stream
  // that ends UNAVAILABLE (or at its deadline) is opened again.
  std::vector<v1::HandUpdate> seen;
  std::vector<std::string> endings;  // how each stream ended
  grpc::Status last;
  std::thread device([&] {
    while (Clock::now() < deadline) {
      v1::WatchHandRequest req;
      req.set_hand_id(hand_id);
      req.set_seat_ticket(ticket);
      req.set_after_version(seen.empty() ? 0 : seen.back().version());
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
      auto reader = b.stub().WatchHand(&ctx, req);
      v1::WatchHandResponse resp;
      while (reader->Read(&resp)) {
        // after_version 0 means "from the first version": a re-watch with
        // only version 0 seen gets it again; that one is not a duplicate.
        if (!seen.empty() && resp.update().version() == 0 && seen.back().version() == 0) continue;
        seen.push_back(resp.update());
      }
      last = reader->Finish();
      endings.push_back(absl::StrCat(last.error_code(), " ", ErrorInfoOf(last).reason()));
      if (last.ok()) return;  // the hand is over
      const bool again = last.error_code() == grpc::StatusCode::UNAVAILABLE ||
                         last.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
      if (!again) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });

  // Kill the master once the device has received a few versions live.
  for (int i = 0; i < 30000; ++i) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (played.size() >= 4) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const Clock::time_point kill_time = Clock::now();
  const int old_master = set.master.port();
  set.master.Stop();
  player.join();
  device.join();
  const double window_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - kill_time).count();

  ASSERT_TRUE(player_error.empty()) << player_error;
  const int now_master = set.sentinels[0].MasterPort(SentinelSet::kName);
  EXPECT_TRUE(now_master != old_master && now_master != 0) << "no failover happened";
  ASSERT_EQ(played.back().public_view().phase(), v1::PHASE_COMPLETE) << "the hand did not end";
  EXPECT_THAT(last, IsOk()) << "the last stream ended (reason " << ErrorInfoOf(last).reason()
                            << ")";
  // Every version once, in order, with the player's token: none missed, none twice.
  ASSERT_EQ(seen.size(), played.size());
  for (size_t v = 0; v < seen.size(); ++v) {
    EXPECT_EQ(seen[v].version(), v);
    EXPECT_EQ(seen[v].token(), played[v].token()) << "version " << v;
  }
  for (const std::string& e : endings) {
    EXPECT_TRUE(e == "0 " || e.rfind("14 ", 0) == 0 || e.rfind("4 ", 0) == 0) << e;
  }
  std::map<std::string, int> by_ending;
  for (const std::string& e : endings) ++by_ending[e];
  std::cout << "watcher across a failover: " << seen.size() << " versions over " << endings.size()
            << " stream(s), ended:";
  for (const auto& [e, n] : by_ending) std::cout << " " << n << " x [" << e << "]";
  std::cout << "; the player retried " << player_unavailable.load()
            << " UNAVAILABLE answers; the hand ended " << window_ms << " ms after the kill\n";
}

}  // namespace
}  // namespace stud::service::testing
