// WatchHand (service/server/watch_hand.h) and its hub (service/trust/watch_hub.h)
// against a real redis-server, with two replicas sharing the key ring
// (watch_fixture.h): a watcher on replica B sees every version made on
// replica A, in order, once each; a resume gets exactly the missed versions;
// the stream ends at the hand's end; a seat's watcher never receives another
// seat's down card. The refusals, the limits, the drain and a Redis outage:
// watch_hand_refusals_test.cc. The hub's own rules: watch_hub_test.cc.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "watch_fixture.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

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
  EXPECT_THAT(seat1.status, IsOk());  // ends OK at hand end
  EXPECT_THAT(table.status, IsOk());
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

// A stream opens on the ledger's latest entry of the hand, read without
// holding a thread: while Redis is stopped, more streams open than gRPC has
// threads, and a call that needs no ledger is still answered.
TEST(WatchHandTest, StreamsOpeningWhileRedisIsStoppedHoldNoThread) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.io_timeout = absl::Seconds(60);  // longer than the test: nothing times out
  WatchHubOptions watch;
  watch.block = absl::Seconds(60);
  Replica a(o, watch);
  Hand h = Deal(a, 3);
  constexpr int kStreams = 8;
  std::vector<std::unique_ptr<OpenWatch>> streams(kStreams);
  redis.Pause();
  std::vector<std::thread> openers;
  for (int i = 0; i < kStreams; ++i) {
    openers.emplace_back(
        [&, i] { streams[static_cast<size_t>(i)] = std::make_unique<OpenWatch>(a, h, i % 4); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the streams reach the server
  ExpectAnsweredWithoutTheLedger(a.stub(), "8 WatchHand streams await a stopped Redis");
  redis.Resume();
  for (std::thread& t : openers) t.join();
  for (int i = 0; i < kStreams; ++i) {
    OpenWatch& w = *streams[static_cast<size_t>(i)];
    EXPECT_TRUE(w.first) << "stream " << i << " got the deal once Redis answered";
    w.ctx.TryCancel();
    EXPECT_THAT(w.End(), StatusIs(grpc::StatusCode::CANCELLED));
  }
  EXPECT_TRUE(Eventually([&] { return a.hub->watchers() == 0; }));
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
  EXPECT_THAT(rest.status, IsOk());
  ASSERT_FALSE(rest.updates.empty());
  ExpectVersions(h, rest, 2);
  // Once the hand is over, a resume after its last version ends at once, OK.
  Watched done = Watch(b, h.id, h.tickets[2], h.versions.back().version());
  EXPECT_THAT(done.status, IsOk());
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
    EXPECT_THAT(w.status, IsOk());
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

}  // namespace
}  // namespace stud::service::testing
