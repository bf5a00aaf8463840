// The hand ledger's operational guards against a real redis-server: a token
// newer than the ledger's line (an older snapshot restored) is LEDGER_BEHIND,
// not "superseded"; one tenant's live hands are bounded
// (--ledger_max_hands_per_tenant) so it cannot fill Redis for the others; a
// Redis that refuses the password fails closed and says so; WAIT for a
// replica that is not there fails closed and the exact retry completes the
// call once it is; and the memory a hand costs, for sizing (docs/ledger.md).
#include <hiredis/hiredis.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ledger_fixture.h"
#include "service/api/status_mapping.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;

// DUMP / RESTORE ... REPLACE of a key (binary values): a backup of a key and
// its restore.
std::string Dump(const RedisServer& redis, const std::string& key) {
  timeval tv{2, 0};
  redisContext* c = redisConnectWithTimeout("127.0.0.1", redis.port(), tv);
  std::string out;
  if (c != nullptr && c->err == 0) {
    if (auto* r = static_cast<redisReply*>(redisCommand(c, "DUMP %b", key.data(), key.size()))) {
      if (r->str != nullptr) out.assign(r->str, r->len);
      freeReplyObject(r);
    }
  }
  if (c != nullptr) redisFree(c);
  return out;
}
void Restore(const RedisServer& redis, const std::string& key, const std::string& dump) {
  timeval tv{2, 0};
  redisContext* c = redisConnectWithTimeout("127.0.0.1", redis.port(), tv);
  if (c != nullptr && c->err == 0) {
    auto* r = static_cast<redisReply*>(redisCommand(c, "RESTORE %b 0 %b REPLACE", key.data(),
                                                    key.size(), dump.data(), dump.size()));
    EXPECT_TRUE(r != nullptr && r->type == REDIS_REPLY_STATUS) << "RESTORE " << key;
    if (r != nullptr) freeReplyObject(r);
  }
  if (c != nullptr) redisFree(c);
}

long long Number(const RedisServer& redis, const std::string& command) {
  const std::string s = redis.Command(command);
  return s.empty() ? -1 : std::stoll(s);
}

// used_memory from INFO memory.
long long UsedMemory(const RedisServer& redis) {
  const std::string info = redis.Command("INFO memory");
  const size_t at = info.find("used_memory:");
  return at == std::string::npos ? -1 : std::stoll(info.substr(at + 12));
}

TEST(LedgerOps, ATokenNewerThanTheLedgerIsLedgerBehind) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  const v1::HandUpdate u1 = Next(r.stub(), Start(r.stub()));
  const std::string key = LedgerKey("", u1.public_view().hand_id());
  const std::string stream = key + kWatchStreamSuffix;
  // The backup: the hand's entry and watch stream at u1.
  const std::string entry_at_u1 = Dump(redis, key);
  const std::string stream_at_u1 = Dump(redis, stream);
  ASSERT_FALSE(entry_at_u1.empty());
  ASSERT_FALSE(stream_at_u1.empty());
  const v1::HandUpdate u3 = Next(r.stub(), Next(r.stub(), u1));
  Restore(redis, key, entry_at_u1);  // restored: the ledger is back at u1's version
  Restore(redis, stream, stream_at_u1);

  // Every call on the newer token: LEDGER_BEHIND, not TOKEN_SUPERSEDED.
  v1::ApplyActionResponse applied;
  const grpc::Status st = Apply(r.stub(), u3.token(), ChooseAction(u3, false), &applied);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << st.error_message();
  EXPECT_EQ(ErrorInfoOf(st).reason(), "LEDGER_BEHIND") << st.error_message();
  EXPECT_TRUE(absl::StrContains(st.error_message(), absl::StrCat("version ", u3.version(),
                                                                 " in this token but only at "
                                                                 "version ",
                                                                 u1.version())))
      << st.error_message();
  v1::GetViewRequest gr;
  gr.set_token(u3.token());
  v1::GetViewResponse gresp;
  const grpc::Status view = Call(r.stub(), &v1::StudService::Stub::GetView, gr, &gresp);
  EXPECT_EQ(ErrorInfoOf(view).reason(), "LEDGER_BEHIND") << view.error_message();
  // An older token than the entry is still only superseded.
  const v1::HandUpdate other0 = Start(r.stub());
  (void)Next(r.stub(), other0);
  gr.set_token(other0.token());
  EXPECT_EQ(ErrorInfoOf(Call(r.stub(), &v1::StudService::Stub::GetView, gr, &gresp)).reason(),
            "TOKEN_SUPERSEDED");
  EXPECT_EQ(r.Metric("stud_ledger_calls_total", "op=advance,result=behind"), 1);
  EXPECT_EQ(r.Metric("stud_ledger_calls_total", "op=check,result=behind"), 1);
  // The ledger's own line still plays (a person decides which line is the hand).
  EXPECT_EQ(Next(r.stub(), u1).version(), u1.version() + 1);
}

TEST(LedgerOps, OneTenantsLiveHandsAreBounded) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.max_hands_per_tenant = 3;
  const absl::StatusOr<TenantAuth> auth =
      TenantAuth::Create({TestTenantKey("acme", 1), TestTenantKey("bet", 2)});
  ASSERT_THAT(auth, IsOk());
  Replica r(o, ServiceOptions{.allow_preset = true, .tenants = &*auth});
  auto as = [](const std::string& tenant, uint8_t fill) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    SetDeadline(ctx.get());
    ctx->AddMetadata(kTenantHeader, tenant);
    const std::string key = FormatTenantKey(TestTenantKey(tenant, fill));
    ctx->AddMetadata(kApiKeyHeader, key.substr(tenant.size() + 1));
    return ctx;
  };
  auto start = [&](const std::string& tenant, uint8_t fill, v1::NewHandResponse* resp) {
    return r.stub().NewHand(as(tenant, fill).get(), BasicHand(3, v1::DEALING_MODE_SERVICE), resp);
  };
  std::vector<v1::HandUpdate> acme;
  for (int i = 0; i < 3; ++i) {
    v1::NewHandResponse resp;
    ASSERT_THAT(start("acme", 1, &resp), IsOk());
    acme.push_back(resp.update());
  }
  v1::NewHandResponse refused;
  const grpc::Status st = start("acme", 1, &refused);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
  EXPECT_EQ(ErrorInfoOf(st).reason(), "TENANT_HANDS_EXHAUSTED");
  EXPECT_TRUE(absl::StrContains(st.error_message(), "has 3 hands in play")) << st.error_message();
  EXPECT_TRUE(refused.update().token().empty());
  EXPECT_EQ(r.Metric("stud_ledger_calls_total", "op=create,result=hands_exhausted"), 1);
  // Another tenant is not stopped by it.
  v1::NewHandResponse theirs;
  ASSERT_THAT(start("bet", 2, &theirs), IsOk());
  // A hand that ends frees its place.
  v1::HandUpdate u = acme[0];
  for (int i = 0; i < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i) {
    v1::ApplyActionResponse resp;
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    *req.mutable_action() = ChooseAction(u, false);
    ASSERT_THAT(r.stub().ApplyAction(as("acme", 1).get(), req, &resp), IsOk());
    u = resp.update();
  }
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  v1::NewHandResponse again;
  EXPECT_THAT(start("acme", 1, &again), IsOk());
  EXPECT_EQ(Number(redis, "ZCARD " + LiveHandsKey(LedgerKey("acme", "x"))), 3);
  EXPECT_EQ(Number(redis, "ZCARD " + LiveHandsKey(LedgerKey("bet", "x"))), 1);
  EXPECT_GT(Number(redis, "TTL " + LiveHandsKey(LedgerKey("acme", "x"))), 0);
}

// An expired hand no longer counts (pruned on the next Create).
TEST(LedgerOps, ExpiredHandsLeaveTheQuota) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.max_hands_per_tenant = 1;
  o.ttl_in_play_seconds = 1;
  RedisLedger ledger(o, nullptr);
  ASSERT_EQ(ledger.Create(LedgerKey("t", "01"), {{1, "a"}, "x"})->outcome, LedgerOutcome::kApplied);
  EXPECT_EQ(ledger.Create(LedgerKey("t", "02"), {{1, "b"}, "y"})->outcome,
            LedgerOutcome::kHandsExhausted);
  // The exact retry of the first Create is not refused by the quota.
  EXPECT_EQ(ledger.Create(LedgerKey("t", "01"), {{1, "a"}, "x"})->outcome, LedgerOutcome::kRetry);
  // Move the member's expiry into the past (as 1 s later) rather than sleep.
  redis.Command("ZADD " + LiveHandsKey(LedgerKey("t", "01")) + " 1 01");
  EXPECT_EQ(ledger.Create(LedgerKey("t", "02"), {{1, "b"}, "y"})->outcome, LedgerOutcome::kApplied);
}

// A quota switched on mid-flight (a restart with
// --ledger_max_hands_per_tenant) counts the hands already in play: the live
// set is kept with no quota too (redis_ledger.h). A hand that ended meanwhile
// does not count; one written by a release that kept no set counts from its
// next move on.
TEST(LedgerOps, AQuotaSwitchedOnLaterCountsTheHandsAlreadyInPlay) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  const std::string live = LiveHandsKey(LedgerKey("t", "x"));
  {
    RedisLedger no_quota(o, nullptr);
    for (const char* h : {"01", "02", "03"})
      ASSERT_EQ(no_quota.Create(LedgerKey("t", h), {{1, "a"}, "x"})->outcome,
                LedgerOutcome::kApplied);
    ASSERT_EQ(no_quota.Create(LedgerKey("u", "01"), {{1, "a"}, "x"})->outcome,
              LedgerOutcome::kApplied);
    // Hand 03 ends: it leaves the set.
    LedgerCommit end{{2, "b"}, "y"};
    end.ended = true;
    ASSERT_EQ(no_quota.Advance(LedgerKey("t", "03"), {1, "a"}, end)->outcome,
              LedgerOutcome::kApplied);
    EXPECT_EQ(Number(redis, "ZCARD " + live), 2);
    // As if hand 02 had been written by a release that kept no set: its next
    // move puts it back.
    redis.Command("ZREM " + live + " 02");
    EXPECT_EQ(Number(redis, "ZCARD " + live), 1);
    ASSERT_EQ(no_quota.Advance(LedgerKey("t", "02"), {1, "a"}, {{2, "b"}, "y"})->outcome,
              LedgerOutcome::kApplied);
    EXPECT_EQ(Number(redis, "ZCARD " + live), 2);
  }
  o.max_hands_per_tenant = 3;
  RedisLedger quota(o, nullptr);
  EXPECT_EQ(quota.Create(LedgerKey("t", "04"), {{1, "a"}, "x"})->outcome, LedgerOutcome::kApplied);
  const absl::StatusOr<LedgerResult> full = quota.Create(LedgerKey("t", "05"), {{1, "a"}, "x"});
  ASSERT_THAT(full, IsOk());
  EXPECT_EQ(full->outcome, LedgerOutcome::kHandsExhausted);
  EXPECT_EQ(full->live_hands, 3u);
  EXPECT_EQ(quota.Create(LedgerKey("u", "02"), {{1, "a"}, "x"})->outcome, LedgerOutcome::kApplied);
}

TEST(LedgerOps, ARedisThatRefusesThePasswordFailsClosed) {
  RedisServer redis({"--requirepass", "right-password"});
  redis.set_password("right-password");
  ASSERT_TRUE(redis.Start());
  for (const char* password : {"", "wrong-password"}) {
    RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
    o.password = password;
    Replica r(o);
    v1::NewHandResponse resp;
    const grpc::Status st = Call(r.stub(), &v1::StudService::Stub::NewHand,
                                 BasicHand(3, v1::DEALING_MODE_SERVICE), &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE) << st.error_message();
    EXPECT_EQ(ErrorInfoOf(st).reason(), "LEDGER_UNAVAILABLE");
    EXPECT_TRUE(absl::StrContains(st.error_message(),
                                  *password ? "refused the password" : "needs a password"))
        << st.error_message();
    EXPECT_FALSE(absl::StrContains(st.error_message(), "right-password"));
    EXPECT_TRUE(resp.update().token().empty());
    EXPECT_EQ(r.Metric("stud_ledger_connect_failures_total", "cause=auth"), 1);
  }
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.password = "right-password";
  Replica ok(o);
  EXPECT_EQ(Start(ok.stub()).version(), 0u);
}

// WAIT for a replica: none there is UNAVAILABLE (the write is on the master,
// the answer did not leave); once a replica is there the exact retry answers.
TEST(LedgerOps, WaitForAReplicaFailsClosedUntilOneAcknowledges) {
  RedisServer master;
  ASSERT_TRUE(master.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(master.url());
  o.wait_replicas = 1;
  // Long enough for a loaded machine's replica to acknowledge every write of
  // the hand below; with no replica the first write waits it out once.
  o.wait_timeout = absl::Seconds(2);
  Replica r(o);
  const std::string key = LedgerKey("", "0a");
  const LedgerCommit c{{1, "d"}, "t"};
  const auto alone = r.ledger->Create(key, c);
  ASSERT_THAT(alone, ::testing::Not(IsOk()));
  EXPECT_THAT(std::string(alone.status().message()),
              ::testing::HasSubstr("reached 0 of 1 replicas"));
  EXPECT_EQ(r.Metric("stud_ledger_wait_short_total", ""), 1);
  RedisServer replica({"--replicaof", "127.0.0.1", std::to_string(master.port())});
  ASSERT_TRUE(replica.Start());
  absl::StatusOr<LedgerResult> retried = LedgerUnavailable("not yet");
  for (int i = 0; i < 500 && !retried.ok(); ++i) retried = r.ledger->Create(key, c);
  ASSERT_THAT(retried, IsOk());
  EXPECT_EQ(retried->outcome, LedgerOutcome::kRetry);
  EXPECT_EQ(replica.Command("GETRANGE " + key + " 0 1"), "1:");
  // A whole hand with the replica acknowledging every write.
  v1::HandUpdate u = Start(r.stub());
  for (int i = 0; i < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i)
    u = Next(r.stub(), u);
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
}

// What Redis holds per hand, for sizing (docs/ledger.md, "Sizing"): used_memory
// over 100 8-seat hands in play (20 actions in) and
// after they end, and the live-hands set's share with a quota on.
TEST(LedgerOps, MemoryPerHandForSizing) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.max_hands_per_tenant = 100000;
  Replica r(o, ServiceOptions{.allow_preset = true}, kGcmSivTokenFormat);
  constexpr int kHands = 100;
  const long long before = UsedMemory(redis);
  std::vector<v1::HandUpdate> hands;
  for (int h = 0; h < kHands; ++h) {
    v1::NewHandResponse started;
    ASSERT_THAT(Call(r.stub(), &v1::StudService::Stub::NewHand,
                     BasicHand(8, v1::DEALING_MODE_SERVICE), &started),
                IsOk());
    v1::HandUpdate u = started.update();
    for (int i = 0; i < 20; ++i) u = Next(r.stub(), u);  // mid-hand
    hands.push_back(u);
  }
  const long long in_play = UsedMemory(redis);
  const uint64_t in_play_version = hands[0].version();
  for (v1::HandUpdate& u : hands) {
    for (int i = 0; i < 400 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i)
      u = Next(r.stub(), u);
  }
  const long long ended = UsedMemory(redis);
  const long long per_in_play = (in_play - before) / kHands;
  const long long per_ended = (ended - before) / kHands;
  std::cout << "8-seat hands: " << per_in_play << " bytes each in play (at version "
            << in_play_version << "), " << per_ended
            << " bytes each ended (entry + watch stream), used_memory " << before << " -> "
            << in_play << " -> " << ended << "\n";
  ::testing::Test::RecordProperty("bytes_per_hand_in_play", static_cast<int>(per_in_play));
  ::testing::Test::RecordProperty("bytes_per_hand_ended", static_cast<int>(per_ended));
  EXPECT_GT(per_in_play, 1000);
  EXPECT_GT(per_ended, per_in_play);
  EXPECT_LT(per_ended, 256 * 1024);
}

}  // namespace
}  // namespace stud::service::testing
