// WatchHand (service/server/watch_hand.h) and its hub (service/trust/watch_hub.h)
// against a real redis-server, with two replicas sharing the key ring: a
// watcher on replica B sees every version made on replica A, in order, once
// each; a resume gets exactly the missed versions; the stream ends at the
// hand's end; a seat's watcher never receives another seat's down card; the
// refusals; the limits; the drain; a Redis outage. The hub's own rules:
// watch_hub_test.cc.
//
// The replicas' hubs block for 60 s per read: a watcher or a change that
// were picked up only when a read times out would miss the calls' 10 s
// deadline, so every test here also checks the hub's prompt wake-up.
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "prometheus/registry.h"
#include "redis_fixture.h"
#include "service/api/status_mapping.h"
#include "service/server/stud_service.h"
#include "service/trust/redis_ledger.h"
#include "service/trust/seat_rate_limit.h"
#include "service/trust/watch_hub.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
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
  Replica(const RedisServer& redis, WatchHubOptions watch = {}, bool with_ledger = true,
          SeatRateLimiter* seat_rate_limit = nullptr) {
    ServiceOptions options{.allow_preset = true, .seat_rate_limit = seat_rate_limit};
    if (with_ledger) {
      RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
      ledger = std::make_unique<RedisLedger>(o, &registry);
      watch.redis = o;
      if (watch.block == WatchHubOptions{}.block) watch.block = absl::Seconds(60);
      hub = std::make_unique<WatchHub>(watch, &registry);
      options.ledger = ledger.get();
      options.watch_hub = hub.get();
    }
    server = std::make_unique<Server>(std::vector<Key>{TestKey(1, 7)}, options);
  }
  v1::StudService::Stub& stub() { return server->stub(); }

  prometheus::Registry registry;
  std::unique_ptr<RedisLedger> ledger;
  std::unique_ptr<WatchHub> hub;
  std::unique_ptr<Server> server;
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
Watched Watch(Replica& r, const std::string& hand_id, const std::string& ticket, uint64_t after,
              size_t stop_after = 0, const std::string& accept_language = "") {
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

Hand Deal(Replica& a, int seats) {
  v1::NewHandRequest req = BasicHand(seats, v1::DEALING_MODE_SERVICE);
  for (int s = 1; s <= seats; ++s) req.add_private_view_seats(s);
  v1::NewHandResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(a.stub().NewHand(&ctx, req, &resp), IsOk());
  Hand h;
  h.id = resp.update().public_view().hand_id();
  h.tickets.push_back(resp.table_ticket());
  for (const auto& t : resp.seat_tickets()) h.tickets.push_back(t.ticket());
  h.versions.push_back(resp.update());
  return h;
}

// One action on A (passive; `fold_out`: fold when allowed, so the hand ends
// without a showdown). False when the hand is over.
bool Step(Replica& a, Hand& h, bool fold_out) {
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
  EXPECT_THAT(st, IsOk()) << st.error_message();
  if (!st.ok()) return false;
  h.versions.push_back(resp.update());
  return true;
}

void PlayToEnd(Replica& a, Hand& h, bool fold_out = false) {
  for (int i = 0; i < 400 && Step(a, h, fold_out);) ++i;
  ASSERT_EQ(h.versions.back().public_view().phase(), v1::PHASE_COMPLETE);
}

// Every message is version i of A's hand, with A's token and operations.
void ExpectVersions(const Hand& h, const Watched& w, uint64_t first) {
  ASSERT_EQ(w.updates.size(), h.versions.size() - first);
  for (size_t i = 0; i < w.updates.size(); ++i) {
    const v1::HandUpdate& a = h.versions[first + i];
    const v1::HandUpdate& b = w.updates[i];
    EXPECT_EQ(b.version(), first + i);
    EXPECT_EQ(b.token(), a.token()) << "version " << b.version();
    ASSERT_EQ(b.operations_size(), a.operations_size()) << "version " << b.version();
    for (int o = 0; o < b.operations_size(); ++o)
      EXPECT_EQ(b.operations(o).index(), a.operations(o).index());
  }
}

TEST(WatchHandTest, WatcherOnReplicaBSeesEveryVersionMadeOnReplicaA) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  Hand h = Deal(a, 3);
  // Watching live from the deal on: B's streams start before A's first action.
  Watched seat1, table;
  std::thread w1([&] { seat1 = Watch(b, h.id, h.tickets[1], 0); });
  std::thread w2([&] { table = Watch(b, h.id, h.tickets[0], 0); });
  EXPECT_TRUE(Eventually([&] { return b.hub->watchers() == 2; }));
  PlayToEnd(a, h);
  w1.join();
  w2.join();
  EXPECT_THAT(seat1.status, IsOk()) << seat1.status.error_message();  // ends OK at hand end
  EXPECT_THAT(table.status, IsOk()) << table.status.error_message();
  ExpectVersions(h, seat1, 0);
  ExpectVersions(h, table, 0);
  for (const auto& u : seat1.updates) {
    ASSERT_EQ(u.private_views_size(), 1);
    EXPECT_EQ(u.private_views(0).seat(), 1);
  }
  for (const auto& u : table.updates) EXPECT_EQ(u.private_views_size(), 0);
  EXPECT_EQ(seat1.updates.back().public_view().phase(), v1::PHASE_COMPLETE);
  EXPECT_EQ(b.hub->watchers(), 0);
}

TEST(WatchHandTest, ResumeGetsExactlyTheMissedVersions) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  Hand h = Deal(a, 2);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(Step(a, h, false));
  // The device reads two versions and goes away.
  Watched first = Watch(b, h.id, h.tickets[2], 0, 2);
  EXPECT_THAT(first.status, StatusIs(grpc::StatusCode::CANCELLED));
  ASSERT_EQ(first.versions(), (std::vector<uint64_t>{0, 1}));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(Step(a, h, false));
  // Resumed on A after version 1: 2..7 committed meanwhile, then live to the end.
  Watched rest;
  std::thread w([&] { rest = Watch(a, h.id, h.tickets[2], 1); });
  PlayToEnd(a, h);
  w.join();
  EXPECT_THAT(rest.status, IsOk()) << rest.status.error_message();
  ASSERT_FALSE(rest.updates.empty());
  ExpectVersions(h, rest, 2);
  // Once the hand is over, a resume after its last version ends at once, OK.
  Watched done = Watch(b, h.id, h.tickets[2], h.versions.back().version());
  EXPECT_THAT(done.status, IsOk()) << done.status.error_message();
  EXPECT_TRUE(done.updates.empty());
}

// Every string anywhere in `m` (reflection), nested messages included.
void Strings(const google::protobuf::Message& m, std::vector<std::string>* out) {
  const auto* refl = m.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  refl->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_STRING) {
      if (f->is_repeated()) {
        for (int i = 0; i < refl->FieldSize(m, f); ++i)
          out->push_back(refl->GetRepeatedString(m, f, i));
      } else {
        out->push_back(refl->GetString(m, f));
      }
    } else if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < refl->FieldSize(m, f); ++i)
          Strings(refl->GetRepeatedMessage(m, f, i), out);
      } else {
        Strings(refl->GetMessage(m, f), out);
      }
    }
  }
}

TEST(WatchHandTest, ASeatsWatcherNeverReceivesAnotherSeatsDownCards) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  constexpr int kSeats = 4;
  Hand h = Deal(a, kSeats);
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(Step(a, h, false));  // some streets, then fold out
  PlayToEnd(a, h, /*fold_out=*/true);
  std::map<int, std::set<std::string>> down;  // seat -> its down cards, from A's private views
  for (const auto& u : h.versions) {
    for (const auto& pv : u.private_views()) {
      for (const auto& c : pv.cards())
        if (!c.face_up() && !c.card().empty()) down[pv.seat()].insert(c.card());
    }
  }
  ASSERT_EQ(down.size(), static_cast<size_t>(kSeats));
  for (int seat = 0; seat <= kSeats; ++seat) {
    const Watched w = Watch(b, h.id, h.tickets[static_cast<size_t>(seat)], 0);
    EXPECT_THAT(w.status, IsOk()) << w.status.error_message();
    ASSERT_EQ(w.updates.size(), h.versions.size());
    size_t own_seen = 0;
    for (const auto& u : w.updates) {
      v1::WatchHandResponse resp;
      *resp.mutable_update() = u;
      std::vector<std::string> strings;
      Strings(resp, &strings);
      for (const std::string& s : strings) {
        for (const auto& [other, cards] : down) {
          if (other == seat) {
            own_seen += cards.count(s);
            continue;
          }
          EXPECT_EQ(cards.count(s), 0u) << "seat " << seat << "'s watcher got seat " << other
                                        << "'s down card " << s << " at version " << u.version();
        }
      }
    }
    if (seat != 0) {
      EXPECT_GT(own_seen, 0u) << "seat " << seat << " never saw its own down cards";
    }
  }
}

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
  EXPECT_THAT(bad.status, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_NE(bad.status.error_message().find("hand_id"), std::string::npos);

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
  EXPECT_THAT(future.status, StatusIs(grpc::StatusCode::OUT_OF_RANGE));
  EXPECT_NE(future.status.error_message().find("latest version 0"), std::string::npos)
      << future.status.error_message();

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
  EXPECT_EQ(one.End().error_code(), grpc::StatusCode::CANCELLED);
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
  EXPECT_EQ(Watch(b, h.id, h.tickets[1], 0).status.error_code(), grpc::StatusCode::UNAVAILABLE);
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
