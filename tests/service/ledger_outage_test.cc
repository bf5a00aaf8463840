// The hand ledger (service/trust/ledger.h) when Redis fails: a Redis that is
// down fails closed (UNAVAILABLE, nothing applied) and, restarted, loses no
// hand; a Redis that stops answering times the call out, and the exact retry
// recovers the commit; and the calls awaiting a Redis that does not answer
// hold no thread, so calls that need no ledger are still answered. The
// ledger's normal work is ledger_test.cc's.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "ledger_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

TEST(Ledger, RedisDownFailsClosedAndRestartLosesNoHand) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  constexpr int kHands = 8;
  std::vector<v1::HandUpdate> latest, previous;
  for (int h = 0; h < kHands; ++h) {
    v1::HandUpdate u = Start(r.stub());
    v1::HandUpdate prev = u;
    for (int i = 0; i < 2 + h % 3; ++i) {
      prev = u;
      u = Next(r.stub(), u);
    }
    previous.push_back(prev);
    latest.push_back(u);
  }
  redis.Stop();  // killed mid-play
  for (int h = 0; h < kHands; ++h) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto all = EveryRpc(r.stub(), latest[static_cast<size_t>(h)].token(),
                              ChooseAction(latest[static_cast<size_t>(h)], false));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10))
        << "bounded by the ledger timeouts";
    for (const char* rpc : {"ApplyAction", "LegalActions", "GetView"}) {
      EXPECT_THAT(all.at(rpc), StatusIs(grpc::StatusCode::UNAVAILABLE)) << rpc;
      EXPECT_EQ(ErrorInfoOf(all.at(rpc)).reason(), "LEDGER_UNAVAILABLE") << rpc;
    }
  }
  v1::NewHandResponse fresh;
  EXPECT_THAT(Call(r.stub(), &v1::StudService::Stub::NewHand,
                   BasicHand(3, v1::DEALING_MODE_SERVICE), &fresh),
              StatusIs(grpc::StatusCode::UNAVAILABLE));
  EXPECT_TRUE(fresh.update().token().empty()) << "no token leaves without its ledger entry";
  EXPECT_GE(r.Metric("stud_ledger_calls_total", "op=advance,result=unavailable"), kHands);
  EXPECT_GE(r.Metric("stud_ledger_calls_total", "op=create,result=unavailable"), 1);
  EXPECT_GE(r.Metric("stud_ledger_unreachable_total", ""), kHands + 1);
  EXPECT_GE(r.Metric("stud_ledger_calls_total", "op=advance,result=applied"), 2 * kHands);
  EXPECT_GT(r.Metric("stud_ledger_call_duration_seconds", "op=advance"), 2 * kHands);

  ASSERT_TRUE(redis.Start());  // same port, same append-only file
  for (int h = 0; h < kHands; ++h) {
    // Nothing was applied while Redis was down: every hand continues from its
    // latest token, and the one before it is still refused.
    v1::GetViewRequest gr;
    gr.set_token(previous[static_cast<size_t>(h)].token());
    v1::GetViewResponse gresp;
    ExpectSuperseded(Call(r.stub(), &v1::StudService::Stub::GetView, gr, &gresp), "previous token");
    const v1::HandUpdate next = Next(r.stub(), latest[static_cast<size_t>(h)]);
    EXPECT_EQ(next.version(), latest[static_cast<size_t>(h)].version() + 1);
  }
}

// A Redis that stops answering: the call times out UNAVAILABLE and its answer
// never leaves. Its commit may still have reached Redis (here it did: Redis
// runs the queued script when it resumes), so the client retries the same
// call, which gets the answer; another action on that token is refused.
TEST(Ledger, TimedOutCommitIsRecoveredByTheExactRetry) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  const v1::HandUpdate u = Next(r.stub(), Start(r.stub()));
  const v1::Action a = ChooseAction(u, false);
  redis.Pause();
  v1::ApplyActionResponse lost;
  const auto t0 = std::chrono::steady_clock::now();
  const grpc::Status st = Apply(r.stub(), u.token(), a, &lost);
  const auto waited = std::chrono::steady_clock::now() - t0;
  redis.Resume();
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::UNAVAILABLE));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "LEDGER_UNAVAILABLE");
  EXPECT_LT(waited, std::chrono::seconds(3)) << "bounded by --ledger_timeout_ms (500 ms here)";
  EXPECT_TRUE(lost.update().token().empty());
  for (int i = 0; i < 100 && redis.Command("GET " + LedgerKey("", u.public_view().hand_id()))
                                     .rfind(std::to_string(u.version() + 1) + ":", 0) != 0;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  v1::ApplyActionResponse retry;
  ASSERT_THAT(Apply(r.stub(), u.token(), a, &retry), IsOk());
  EXPECT_EQ(retry.update().version(), u.version() + 1);
  for (const v1::LegalAction& la : u.legal_actions()) {
    v1::Action other = a;
    other.set_kind(la.kind());
    other.set_amount_to(la.amount_to());
    if (other.SerializeAsString() == a.SerializeAsString()) continue;
    v1::ApplyActionResponse fork;
    ExpectSuperseded(Apply(r.stub(), u.token(), other, &fork), "another action after the timeout");
  }
}

// No handler thread waits on Redis: a call is finished from the ledger's
// reply (trust/ledger.h). With Redis stopped, 64 ApplyActions are accepted and
// all await the ledger at once (more than gRPC has threads: with a handler
// waiting on Redis, at most one call per thread could be in the server), a
// stateless ResolveShowdown, which needs no ledger, is answered meanwhile,
// and once Redis answers every ApplyAction gets its answer (the first
// applies, the rest are its exact retries).
// kCalls calls (`send(context, response, done)`), sent while Redis is stopped: all are
// accepted and none answered, a call that needs no ledger is answered
// meanwhile, and once Redis resumes every one is answered OK.
template <typename Resp, typename Send>
std::vector<Resp> CallsWhileRedisIsStopped(RedisServer& redis, Replica& r, Send send,
                                           absl::string_view what) {
  constexpr int kCalls = 64;
  std::mutex mu;
  std::condition_variable answered;
  std::vector<grpc::Status> statuses;
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<Resp> responses(kCalls);
  redis.Pause();
  for (int i = 0; i < kCalls; ++i) {
    contexts.push_back(std::make_unique<grpc::ClientContext>());
    contexts.back()->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    send(contexts.back().get(), &responses[static_cast<size_t>(i)], [&](grpc::Status st) {
      std::lock_guard<std::mutex> lock(mu);
      statuses.push_back(std::move(st));
      answered.notify_one();
    });
  }
  for (int i = 0; i < 500 && r.server->service().in_flight() < kCalls; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(r.server->service().in_flight(), kCalls) << what << " accepted while Redis is stopped";
  ExpectAnsweredWithoutTheLedger(r.stub(), absl::StrCat(kCalls, " ", what, " await Redis"));
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_TRUE(statuses.empty()) << "no " << what << " can be answered before Redis answers";
  }
  redis.Resume();
  std::unique_lock<std::mutex> lock(mu);
  EXPECT_TRUE(
      answered.wait_for(lock, std::chrono::seconds(30), [&] { return statuses.size() == kCalls; }))
      << statuses.size() << " of " << kCalls << " answered";
  for (const grpc::Status& st : statuses) EXPECT_THAT(st, IsOk());
  lock.unlock();
  EXPECT_EQ(r.server->service().in_flight(), 0);
  return responses;
}

TEST(Ledger, CallsAwaitingRedisHoldNoThread) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.io_timeout = absl::Seconds(60);  // longer than the test: no call times out
  Replica r(o);
  PublishToLedgerThread(*r.ledger);  // its thread serves calls here (service_fixture.h)
  const v1::HandUpdate u = Next(r.stub(), Start(r.stub()));
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  *req.mutable_action() = ChooseAction(u, false);
  const std::vector<v1::ApplyActionResponse> responses =
      CallsWhileRedisIsStopped<v1::ApplyActionResponse>(
          redis, r,
          [&](grpc::ClientContext* ctx, v1::ApplyActionResponse* resp,
              std::function<void(grpc::Status)> done) {
            r.stub().async()->ApplyAction(ctx, &req, resp, std::move(done));
          },
          "ApplyActions");
  for (const v1::ApplyActionResponse& resp : responses) {
    EXPECT_EQ(resp.update().version(), u.version() + 1);
    EXPECT_EQ(resp.update().token(), responses[0].update().token());
  }
}

// A phone fetching its hand by id (GetView hand_id: the ledger's latest
// token, read before the call is served) holds no thread either.
TEST(Ledger, GetViewByHandIdAwaitingRedisHoldsNoThread) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
  o.io_timeout = absl::Seconds(60);
  Replica r(o);
  PublishToLedgerThread(*r.ledger);  // its thread serves calls here (service_fixture.h)
  const v1::HandUpdate u = Next(r.stub(), Start(r.stub()));
  v1::GetViewRequest req;
  req.set_hand_id(u.public_view().hand_id());
  const std::vector<v1::GetViewResponse> responses = CallsWhileRedisIsStopped<v1::GetViewResponse>(
      redis, r,
      [&](grpc::ClientContext* ctx, v1::GetViewResponse* resp,
          std::function<void(grpc::Status)> done) {
        r.stub().async()->GetView(ctx, &req, resp, std::move(done));
      },
      "GetViews by hand id");
  for (const v1::GetViewResponse& resp : responses) {
    EXPECT_EQ(resp.update().version(), u.version());
    EXPECT_EQ(resp.update().token(), u.token()) << "the latest token";
  }
}

}  // namespace
}  // namespace stud::service::testing
