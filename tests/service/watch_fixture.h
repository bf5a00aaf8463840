// Test support for WatchHand (service/server/watch_hand.h): replicas that share
// a redis-server (redis_fixture.h) and the key ring, each with its ledger and
// watch hub; a hand played on one of them; streams read whole or held open.
// watch_hand_test.cc watches what the streams carry, watch_hand_refusals_test.cc
// how they are refused and how they end, watch_hand_failover_test.cc what a
// Sentinel failover does to them. (ledger_fixture.h has its own Replica, with
// no hub: a test includes one of the two.)
//
// The replicas' hubs block for 60 s per read: a watcher or a change that
// were picked up only when a read times out would miss the calls' 10 s
// deadline, so every test on them also checks the hub's prompt wake-up.
#ifndef STUD_TESTS_SERVICE_WATCH_FIXTURE_H_
#define STUD_TESTS_SERVICE_WATCH_FIXTURE_H_

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "prometheus/registry.h"
#include "redis_fixture.h"
#include "service/server/stud_service.h"
#include "service/trust/redis_ledger.h"
#include "service/trust/seat_rate_limit.h"
#include "service/trust/watch_hub.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace v1 = stud::v1;

// Waits (bounded) until `done`.
template <typename F>
bool Eventually(F done) {
  for (int i = 0; i < 10000 && !done(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

// One replica: its ledger, its hub and its server, the key ring shared.
struct Replica {
  // On the redis-server `redis`, the hub's reads blocking 60 s unless `watch`
  // sets its own; with no ledger (and so no hub) when !with_ledger.
  Replica(const RedisServer& redis, WatchHubOptions watch = {}, bool with_ledger = true,
          SeatRateLimiter* seat_rate_limit = nullptr) {
    if (!with_ledger) {
      server = std::make_unique<Server>(
          std::vector<Key>{TestKey(1, 7)},
          ServiceOptions{.allow_preset = true, .seat_rate_limit = seat_rate_limit});
      return;
    }
    if (watch.block == WatchHubOptions{}.block) watch.block = absl::Seconds(60);
    Connect(*ParseLedgerUrl(redis.url()), watch, seat_rate_limit);
  }
  // On the ledger `o` names (a redis-server or its Sentinels), `watch` as given.
  explicit Replica(const RedisLedgerOptions& o, WatchHubOptions watch = {},
                   SeatRateLimiter* seat_rate_limit = nullptr) {
    Connect(o, watch, seat_rate_limit);
  }
  v1::StudService::Stub& stub() { return server->stub(); }

  prometheus::Registry registry;
  std::unique_ptr<RedisLedger> ledger;
  std::unique_ptr<WatchHub> hub;
  std::unique_ptr<Server> server;

 private:
  void Connect(const RedisLedgerOptions& o, WatchHubOptions watch,
               SeatRateLimiter* seat_rate_limit) {
    ledger = std::make_unique<RedisLedger>(o, &registry);
    watch.redis = o;
    hub = std::make_unique<WatchHub>(watch, &registry);
    ServiceOptions options{.allow_preset = true, .seat_rate_limit = seat_rate_limit};
    options.ledger = ledger.get();
    options.watch_hub = hub.get();
    server = std::make_unique<Server>(std::vector<Key>{TestKey(1, 7)}, options);
    PublishToLedgerThread(*ledger);
  }
};

// A stream's messages and its final status.
struct Watched {
  std::vector<v1::HandUpdate> updates;
  grpc::Status status;
  std::vector<uint64_t> versions() const {
    std::vector<uint64_t> out;
    for (const auto& u : updates) out.push_back(u.version());
    return out;
  }
};

// Reads a whole stream (10 s deadline). `stop_after`: cancel once that many
// messages came (0 = read to the end).
inline Watched Watch(Replica& r, const std::string& hand_id, const std::string& ticket,
                     uint64_t after, size_t stop_after = 0,
                     const std::string& accept_language = "") {
  v1::WatchHandRequest req;
  req.set_hand_id(hand_id);
  req.set_seat_ticket(ticket);
  req.set_after_version(after);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  if (!accept_language.empty()) ctx.AddMetadata("accept-language", accept_language);
  auto reader = r.stub().WatchHand(&ctx, req);
  Watched out;
  v1::WatchHandResponse resp;
  while (reader->Read(&resp)) {
    out.updates.push_back(resp.update());
    if (stop_after != 0 && out.updates.size() == stop_after) ctx.TryCancel();
  }
  out.status = reader->Finish();
  return out;
}

// A hand played on replica A, every version's update seen with every private view.
struct Hand {
  std::string id;
  std::vector<std::string> tickets;  // [0] the table, [s] seat s
  std::vector<v1::HandUpdate> versions;
};

inline Hand Deal(Replica& a, int seats) {
  v1::NewHandRequest req = BasicHand(seats, v1::DEALING_MODE_SERVICE);
  for (int s = 1; s <= seats; ++s) req.add_private_view_seats(s);
  v1::NewHandResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(a.stub().NewHand(&ctx, req, &resp), ::stud::testing::IsOk());
  Hand h;
  h.id = resp.update().public_view().hand_id();
  h.tickets.push_back(resp.table_ticket());
  for (const auto& t : resp.seat_tickets()) h.tickets.push_back(t.ticket());
  h.versions.push_back(resp.update());
  return h;
}

// One action on A (passive; `fold_out`: fold when allowed, so the hand ends
// without a showdown). False when the hand is over.
inline bool Step(Replica& a, Hand& h, bool fold_out) {
  const v1::HandUpdate& u = h.versions.back();
  if (u.legal_actions().empty()) return false;
  v1::Action action = ChooseAction(u, false);
  if (fold_out) {
    for (const auto& la : u.legal_actions()) {
      if (la.kind() == v1::ACTION_KIND_FOLD) {
        action.set_kind(la.kind());
        action.set_amount_to(la.amount_to());
      }
    }
  }
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  *req.mutable_action() = action;
  for (int s = 1; s < static_cast<int>(h.tickets.size()); ++s) req.add_private_view_seats(s);
  v1::ApplyActionResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  const grpc::Status st = a.stub().ApplyAction(&ctx, req, &resp);
  EXPECT_THAT(st, ::stud::testing::IsOk());
  if (!st.ok()) return false;
  h.versions.push_back(resp.update());
  return true;
}

inline void PlayToEnd(Replica& a, Hand& h, bool fold_out = false) {
  for (int i = 0; i < 400 && Step(a, h, fold_out);) ++i;
  ASSERT_EQ(h.versions.back().public_view().phase(), v1::PHASE_COMPLETE);
}

// Opens a stream and waits for its first message (the deal), leaving it open.
struct OpenWatch {
  OpenWatch(Replica& r, const Hand& h, int seat) {
    v1::WatchHandRequest req;
    req.set_hand_id(h.id);
    req.set_seat_ticket(h.tickets[static_cast<size_t>(seat)]);
    SetDeadline(&ctx);
    reader = r.stub().WatchHand(&ctx, req);
    v1::WatchHandResponse resp;
    first = reader->Read(&resp);
  }
  // The stream's end (the messages before it are skipped).
  grpc::Status End() {
    v1::WatchHandResponse resp;
    while (reader->Read(&resp)) {
    }
    return reader->Finish();
  }
  grpc::ClientContext ctx;
  std::unique_ptr<grpc::ClientReader<v1::WatchHandResponse>> reader;
  bool first = false;
};

}  // namespace stud::service::testing

#endif  // STUD_TESTS_SERVICE_WATCH_FIXTURE_H_
