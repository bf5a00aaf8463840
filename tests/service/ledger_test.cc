// The hand ledger (service/trust/ledger.h) against a real redis-server: only each
// hand's latest token is accepted on every RPC, the exact retry of the last
// call gets the identical answer, 64 racers on one token leave one winner,
// and two servers sharing one Redis continue each other's hands. A Redis
// outage (fails closed, loses nothing): ledger_outage_test.cc.
#include <sys/resource.h>

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ledger_fixture.h"
#include "prometheus/registry.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

// A kept hand carries the digest of its token to the next call
// (token/hand_cache.h); the scope hands out a digest only for the very token
// the call opened, and takes one it is given as is.
TEST(LedgerScope, GivesTheDigestOfTheTokenItOpenedAndNoOther) {
  NoLedger ledger;
  const std::string a = "the bytes of token a", b = "the bytes of token b";
  LedgerScope scope(&ledger);
  EXPECT_EQ(scope.OpenedNameOf(a), "");  // nothing opened yet
  scope.NoteOpened("hand", 1, a);
  EXPECT_EQ(scope.OpenedNameOf(a), TokenDigest(a));
  EXPECT_EQ(scope.OpenedNameOf(b), "");
  scope.NoteOpened("hand", 2, b);  // not the call's token: the first one opened is
  EXPECT_EQ(scope.OpenedNameOf(b), "");
  EXPECT_EQ(scope.OpenedNameOf(a), TokenDigest(a));
  EXPECT_EQ(scope.NoteSealed("hand", 3, 0, false, b), TokenDigest(b));

  LedgerScope kept(&ledger);
  kept.NoteOpened("hand", 1, a, "kept with the hand");
  EXPECT_EQ(kept.OpenedNameOf(a), "kept with the hand");

  LedgerScope off(nullptr);  // no ledger: nothing noted, no digest made
  off.NoteOpened("hand", 1, a);
  EXPECT_EQ(off.OpenedNameOf(a), "");
  EXPECT_EQ(off.NoteSealed("hand", 2, 0, false, b), "");
}

TEST(Ledger, ForkAndRewindAreRefusedOnEveryRpc) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  const v1::HandUpdate u0 = Start(r.stub());
  const v1::HandUpdate u1 = Next(r.stub(), u0);
  const v1::Action a1 = ChooseAction(u1, false);
  v1::ApplyActionResponse first;
  ASSERT_THAT(Apply(r.stub(), u1.token(), a1, &first), IsOk());
  const v1::HandUpdate u2 = first.update();

  // The exact retry of the call that made the latest token: the identical answer.
  v1::ApplyActionResponse again;
  ASSERT_THAT(Apply(r.stub(), u1.token(), a1, &again), IsOk());
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());

  // Rewinds (u0) and forks (u1 with another action): refused on every RPC.
  for (const v1::HandUpdate* old : {&u0, &u1}) {
    for (const v1::LegalAction& la : old->legal_actions()) {
      v1::Action other;
      other.set_seat(old->to_act());
      other.set_kind(la.kind());
      other.set_amount_to(la.amount_to());
      if (old == &u1 && other.SerializeAsString() == a1.SerializeAsString())
        continue;  // the retry above
      for (const auto& [rpc, st] : EveryRpc(r.stub(), old->token(), other)) {
        ExpectSuperseded(st, rpc + " on version " + std::to_string(old->version()));
      }
    }
  }
  // The metadata says which version is the latest.
  v1::ApplyActionResponse stale;
  const grpc::Status st = Apply(r.stub(), u0.token(), ChooseAction(u0, false), &stale);
  EXPECT_EQ(ErrorInfoOf(st).metadata().at("token_version"), std::to_string(u0.version()));
  EXPECT_EQ(ErrorInfoOf(st).metadata().at("latest_version"), std::to_string(u2.version()));

  // The latest token still works, and the hand plays to its end.
  v1::HandUpdate u = u2;
  for (int i = 0; i < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i)
    u = Next(r.stub(), u);
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  const auto done = EveryRpc(r.stub(), u.token(), ChooseAction(u, false));
  for (const char* rpc : {"LegalActions", "GetView", "ResolveShowdown", "ExportHandHistory"}) {
    EXPECT_THAT(done.at(rpc), IsOk()) << rpc;
  }
  ExpectSuperseded(EveryRpc(r.stub(), u2.token(), ChooseAction(u2, false)).at("GetView"),
                   "GetView after the end");
}

TEST(Ledger, EndedHandsExpireSoonerThanHandsInPlay) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis, /*ttl_ended=*/600);
  v1::HandUpdate u = Start(r.stub());
  const std::string key = LedgerKey("", u.public_view().hand_id());
  EXPECT_GT(std::stoll(redis.Command("TTL " + key)), 86400) << "in play: the long expiry";
  for (int i = 0; i < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i)
    u = Next(r.stub(), u);
  const long long ttl = std::stoll(redis.Command("TTL " + key));
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 600);
  EXPECT_EQ(redis.Command("GET " + key),
            std::to_string(u.version()) + ":" + TokenDigest(u.token()) + ":" + u.token());

  // An expired (here: deleted) entry: refused, the hand cannot be revived.
  redis.Command("DEL " + key);
  v1::GetViewRequest gr;
  gr.set_token(u.token());
  v1::GetViewResponse gresp;
  const grpc::Status st = Call(r.stub(), &v1::StudService::Stub::GetView, gr, &gresp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "HAND_NOT_IN_LEDGER");
}

TEST(Ledger, SixtyFourRacersOnOneTokenLeaveOneWinner) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  // LIVE dealing: the first card reported may be any card, so racer i
  // reports card i % 52 (52 different outcomes; some racers send the same call).
  const v1::HandUpdate u0 = Start(r.stub(), v1::DEALING_MODE_LIVE);
  const std::vector<std::string> deck = NaturalDeck();
  constexpr int kRacers = 64;
  std::vector<grpc::Status> status(kRacers);
  std::vector<std::string> tokens(kRacers);
  std::atomic<bool> go{false};
  std::vector<std::thread> racers;
  for (int i = 0; i < kRacers; ++i) {
    racers.emplace_back([&, i] {
      v1::Action a;
      a.set_kind(v1::ACTION_KIND_DEAL);
      a.set_seat(u0.expected_deal().seat());
      a.set_card(deck[static_cast<size_t>(i) % deck.size()]);
      while (!go.load()) std::this_thread::yield();
      v1::ApplyActionResponse resp;
      status[static_cast<size_t>(i)] = Apply(r.stub(), u0.token(), a, &resp);
      tokens[static_cast<size_t>(i)] = resp.update().token();
    });
  }
  go = true;
  for (std::thread& t : racers) t.join();
  std::set<std::string> won;
  std::set<std::string> winning_cards;
  for (int i = 0; i < kRacers; ++i) {
    const grpc::Status& st = status[static_cast<size_t>(i)];
    if (st.ok()) {
      won.insert(tokens[static_cast<size_t>(i)]);
      winning_cards.insert(deck[static_cast<size_t>(i) % deck.size()]);
    } else {
      ExpectSuperseded(st, "racer " + std::to_string(i));
    }
  }
  ASSERT_EQ(won.size(), 1u) << "exactly one new state wins";
  ASSERT_EQ(winning_cards.size(), 1u);
  // Every racer that sent the winning call got it (the exact retry); no other did.
  for (int i = 0; i < kRacers; ++i) {
    EXPECT_EQ(status[static_cast<size_t>(i)].ok(),
              winning_cards.count(deck[static_cast<size_t>(i) % 52]) == 1);
  }
  v1::GetViewRequest gr;
  gr.set_token(*won.begin());
  v1::GetViewResponse gresp;
  EXPECT_THAT(Call(r.stub(), &v1::StudService::Stub::GetView, gr, &gresp), IsOk());
}

// Concurrent calls share one connection and go out in pipelined batches;
// every call still gets its own answer.
TEST(Ledger, ConcurrentCommandsArePipelinedOnOneConnection) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  prometheus::Registry registry;
  RedisLedger ledger(*ParseLedgerUrl(redis.url()), &registry);
  constexpr int kThreads = 32;
  constexpr int kHands = 40;
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int h = 0; h < kHands; ++h) {
        const std::string key = LedgerKey("tenant", absl::StrCat(t, "-", h));
        const LedgerCommit first{{1, absl::StrCat("d", t, "-", h)}, "token 1"};
        const LedgerCommit second{{2, absl::StrCat("e", t, "-", h)}, "token 2", 1};
        const auto created = ledger.Create(key, first);
        const auto advanced = ledger.Advance(key, first.entry, second);
        const auto stale = ledger.Check(key, first.entry);
        if (!created.ok() || created->outcome != LedgerOutcome::kApplied || !advanced.ok() ||
            advanced->outcome != LedgerOutcome::kApplied || !stale.ok() ||
            stale->outcome != LedgerOutcome::kSuperseded || stale->latest_version != 2) {
          ++wrong[static_cast<size_t>(t)];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[static_cast<size_t>(t)], 0) << "thread " << t;
  // One connection for the ledger plus the one this query opens.
  const std::string clients = redis.Command("INFO clients");
  EXPECT_TRUE(absl::StrContains(clients, "connected_clients:2")) << clients;
  double commands = 0;
  uint64_t batches = 0;
  double busy = -1;
  for (const prometheus::MetricFamily& f : registry.Collect()) {
    if (f.name == "stud_ledger_pipeline_busy_seconds_total") busy = f.metric[0].counter.value;
    if (f.name != "stud_ledger_batch_commands") continue;
    commands = f.metric[0].histogram.sample_sum;
    batches = f.metric[0].histogram.sample_count;
  }
  EXPECT_EQ(commands, 3.0 * kThreads * kHands);
  EXPECT_LT(static_cast<double>(batches), commands) << "some commands went out together";
  // The pipeline's thread ran for every batch: its CPU time is counted, and is
  // no more than the test's own (the thread's share of this process).
  EXPECT_GT(busy, 0.0);
  rusage self{};
  getrusage(RUSAGE_SELF, &self);
  const double process_cpu =
      static_cast<double>(self.ru_utime.tv_sec + self.ru_stime.tv_sec) +
      static_cast<double>(self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
  EXPECT_LE(busy, process_cpu);
}

// The commit script goes by its SHA-1 (EVALSHA); a Redis without it (here
// SCRIPT FLUSH; in production a new master) answers NOSCRIPT, and the write
// goes once more with the script's text, which caches it again.
TEST(Ledger, AFlushedCommitScriptIsSentAgainWithItsText) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  prometheus::Registry registry;
  RedisLedger ledger(*ParseLedgerUrl(redis.url()), &registry);
  auto noscript = [&registry] {
    for (const prometheus::MetricFamily& f : registry.Collect()) {
      if (f.name == "stud_ledger_noscript_total") return f.metric[0].counter.value;
    }
    return -1.0;
  };
  const std::string key = LedgerKey("tenant", "flushed");
  const LedgerCommit v1{{1, "d1"}, "token 1"};
  const LedgerCommit v2{{2, "d2"}, "token 2", 1};
  const LedgerCommit v3{{3, "d3"}, "token 3", 2};
  // A new Redis has never seen the script: the first write is resent with it.
  ASSERT_THAT(ledger.Create(key, v1), IsOk());
  EXPECT_EQ(noscript(), 1.0);
  ASSERT_EQ(redis.Command("SCRIPT FLUSH"), "OK");
  const absl::StatusOr<LedgerResult> advanced = ledger.Advance(key, v1.entry, v2);
  ASSERT_THAT(advanced, IsOk());
  EXPECT_EQ(advanced->outcome, LedgerOutcome::kApplied);
  EXPECT_EQ(noscript(), 2.0);
  // Cached again: the next write goes by its SHA-1 alone.
  const absl::StatusOr<LedgerResult> third = ledger.Advance(key, v2.entry, v3);
  ASSERT_THAT(third, IsOk());
  EXPECT_EQ(third->outcome, LedgerOutcome::kApplied);
  EXPECT_EQ(noscript(), 2.0);
  EXPECT_EQ(redis.Command("GET " + key), "3:d3:token 3");
}

TEST(Ledger, TwoReplicasSharingOneRedisContinueEachOthersHands) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  const std::vector<v1::HandUpdate> seen = PlayInTurn(a, b, Start(a.stub()));
  ASSERT_EQ(seen.back().public_view().phase(), v1::PHASE_COMPLETE);
  ASSERT_GE(seen.size(), 4u);
  // A token one replica superseded is refused by the other too.
  ExpectStaleOnEach({&a, &b}, seen[seen.size() - 3]);
}

// A redeal (NewHand with redeal_of) under the ledger [STUD-IRR-EXP-1]: the
// misdealt hand must be at its latest token, and the redeal is a new hand the
// ledger then follows like any other.
TEST(Ledger, RedealOfAMisdealStartsANewLedgerLine) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_LIVE);
  req.set_profile(v1::PROFILE_TOURNAMENT);
  req.mutable_option_overrides()->set_misdeal_antes(v1::MISDEAL_ANTES_STAY_IN_POT);
  v1::NewHandResponse started;
  ASSERT_THAT(Call(r.stub(), &v1::StudService::Stub::NewHand, req, &started), IsOk());
  v1::Action deal;
  deal.set_kind(v1::ACTION_KIND_DEAL);
  deal.set_seat(1);
  deal.set_card("2d");
  v1::ApplyActionResponse dealt;
  ASSERT_THAT(Apply(r.stub(), started.update().token(), deal, &dealt), IsOk());
  v1::RuleIrregularityRequest rr;
  rr.set_token(dealt.update().token());
  rr.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
  rr.mutable_report()->set_seat(1);
  rr.mutable_report()->add_cards("2d");
  v1::RuleIrregularityResponse misdeal;
  ASSERT_THAT(Call(r.stub(), &v1::StudService::Stub::RuleIrregularity, rr, &misdeal), IsOk());
  ASSERT_EQ(misdeal.ruling().decision(), "MISDEAL");

  // From a superseded token of the misdealt hand: refused.
  v1::NewHandRequest stale;
  stale.set_redeal_of(dealt.update().token());
  v1::NewHandResponse refused;
  ExpectSuperseded(Call(r.stub(), &v1::StudService::Stub::NewHand, stale, &refused),
                   "stale redeal");
  // From its latest token: a new hand, followed by the ledger.
  v1::NewHandRequest redeal;
  redeal.set_redeal_of(misdeal.update().token());
  v1::NewHandResponse again;
  ASSERT_THAT(Call(r.stub(), &v1::StudService::Stub::NewHand, redeal, &again), IsOk());
  EXPECT_NE(again.update().public_view().hand_id(), started.update().public_view().hand_id());
  v1::HandUpdate u = again.update();
  v1::Action next_deal;
  next_deal.set_kind(v1::ACTION_KIND_DEAL);
  next_deal.set_seat(1);
  next_deal.set_card("3c");
  v1::ApplyActionResponse first;
  ASSERT_THAT(Apply(r.stub(), u.token(), next_deal, &first), IsOk());
  next_deal.set_card("4c");
  v1::ApplyActionResponse fork;
  ExpectSuperseded(Apply(r.stub(), u.token(), next_deal, &fork), "fork of the redeal");
}

TEST(Ledger, TokensWithoutALedgerEntryAreRefused) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  Server trusted;  // same key, no ledger
  const v1::HandUpdate u = Start(trusted.stub());
  v1::ApplyActionResponse resp;
  const grpc::Status st = Apply(r.stub(), u.token(), ChooseAction(u, false), &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "HAND_NOT_IN_LEDGER");
}

TEST(Ledger, TokensSealedBeforeHandIdsAreRefused) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  Server trusted;
  const v1::HandUpdate u = Start(trusted.stub());
  std::string plain;
  ASSERT_THAT(trusted.sealer().OpenInto(u.token(), "", &plain), IsOk());
  absl::StatusOr<SealedHand> hand = ParseSealedHand(plain);
  ASSERT_THAT(hand, IsOk());
  hand->service.hand_id.clear();  // as sealed before hands had ids
  v1::GetViewRequest gr;
  gr.set_token(trusted.sealer().Seal(SerializeSealedHand(*hand), ""));
  v1::GetViewResponse gresp;
  const grpc::Status st = Call(r.stub(), &v1::StudService::Stub::GetView, gr, &gresp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "HAND_ID_REQUIRED");
  EXPECT_THAT(Call(trusted.stub(), &v1::StudService::Stub::GetView, gr, &gresp), IsOk())
      << "accepted without a ledger";
}

TEST(Ledger, LedgerUrls) {
  absl::StatusOr<RedisLedgerOptions> o = ParseLedgerUrl("redis://10.0.0.5:6380");
  ASSERT_THAT(o, IsOk());
  EXPECT_EQ(o->host, "10.0.0.5");
  EXPECT_EQ(o->port, 6380);
  o = ParseLedgerUrl("redis://:s3cret@redis.example:6379/");
  ASSERT_THAT(o, IsOk());
  EXPECT_EQ(o->password, "s3cret");
  EXPECT_EQ(o->host, "redis.example");
  EXPECT_THAT(ParseLedgerUrl("http://x:1"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParseLedgerUrl("redis://x:99999"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParseLedgerUrl("redis://x:1/3"), StatusIs(absl::StatusCode::kInvalidArgument));
  // A tenant is named by a hash (ledger.h, TenantKeyTag), never by its name.
  const std::string acme = LedgerKey("acme", "00ff");
  EXPECT_EQ(acme, "stud:{" + TenantKeyTag("acme") + ":00ff}");
  EXPECT_FALSE(absl::StrContains(acme, "acme")) << acme;
  // The tag is part of the stored layout (a changed tag orphans every key):
  // a golden value, which Python's hashlib.blake2b(b"acme", digest_size=8,
  // person=b"studledgertenant") also gives (docs/runbook.md's key rename).
  EXPECT_EQ(TenantKeyTag("acme"), "tf7089810bbf550c8");
  EXPECT_NE(TenantKeyTag("acme"), TenantKeyTag("acmf"));
  EXPECT_EQ(LiveHandsKey(acme), "stud:live:{" + TenantKeyTag("acme") + "}");
  EXPECT_EQ(HandIdOfKey(acme), "00ff");
  // A tenant whose name has braces or colons cannot leave its hash tag.
  EXPECT_EQ(LedgerKey("a}:{b", "00ff"), "stud:{" + TenantKeyTag("a}:{b") + ":00ff}");
  EXPECT_EQ(LedgerKey("", "00ff"), "stud:{:00ff}");
}

}  // namespace
}  // namespace stud::service::testing
