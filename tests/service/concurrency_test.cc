// Many clients at once on one server with metrics and span export on: the
// answers are exactly those of a lone client (every call is a pure function
// of request and token, so the same request on the same token gives the
// same bytes whatever runs beside it), and ThreadSanitizer
// (tools/sanitize.sh) sees the handlers, metrics, tracer and exporter thread
// under real contention.
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "service/observability/metrics.h"
#include "service/observability/observability.h"
#include "service/observability/tracing.h"
#include "service/token/hand_cache.h"
#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;

class CountingExporter : public SpanExporter {
 public:
  explicit CountingExporter(std::atomic<int>* spans) : spans_(spans) {}
  bool Export(const std::vector<SpanData>& batch) override {
    *spans_ += static_cast<int>(batch.size());
    return true;
  }

 private:
  std::atomic<int>* spans_;
};

// Our shared state without gRPC in between (so ThreadSanitizer sees every
// access): one HandService (sealer, the codec's interned rule IDs), one
// Metrics registry, one Tracer with its exporter thread, one Admission
// queue and one hand cache (the threads play the same hand, so they find,
// miss and keep the same tokens' hands at once), used by 8 threads at once.
TEST(ConcurrencyTest, SharedStateFromManyThreads) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 7)});
  HandCache cache(16);
  HandService service(&sealer, ServiceOptions{.allow_preset = true, .hand_cache = &cache});
  std::atomic<int> exported{0};
  Metrics metrics(BuildInfo{"t", "t"});
  BatchOptions batch;
  batch.max_queue = 64;
  batch.flush_interval = absl::Milliseconds(2);
  Tracer tracer(1.0, std::make_unique<BatchSpanProcessor>(
                         std::make_unique<CountingExporter>(&exported), batch, SpanCounters{}));
  std::atomic<int> ran{0}, refused{0};
  {
    Admission admission(/*max_in_flight=*/4, /*workers=*/2);
    v1::NewHandResponse start;
    ASSERT_THAT(service.NewHand(BasicHand(5, v1::DEALING_MODE_PRESET), &start), IsOk());
    const v1::HandUpdate hand = start.update();
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        v1::HandUpdate u = hand;
        for (int i = 0; i < 150; ++i) {
          if (u.public_view().phase() == v1::PHASE_COMPLETE) u = hand;
          v1::ApplyActionRequest r;
          r.set_token(u.token());
          *r.mutable_action() = ChooseAction(u, (i + t) % 4 == 0);
          v1::ApplyActionResponse resp;
          if (!service.ApplyAction(r, &resp).ok()) ++failures;
          u = resp.update();
          metrics.RpcFinished(RpcMethod::kApplyAction, 0, 1e-5);
          metrics.ActionRejected("STUD-CAP-1");
          metrics.TokenRejected("TOKEN_MALFORMED");
          SpanData span = tracer.StartServerSpan("x", std::nullopt);
          tracer.End(std::move(span));
          if (admission.TrySubmit([&ran] { ++ran; })) {
          } else {
            ++refused;
          }
        }
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
  }  // the Admission runs what is queued, then joins its workers
  tracer.processor()->Shutdown();
  EXPECT_EQ(ran.load() + refused.load(), 8 * 150);
  EXPECT_GT(ran.load(), 0);
  EXPECT_GT(exported.load(), 0);
  EXPECT_GT(cache.counts().hits, 0U);
}

TEST(ConcurrencyTest, ParallelClientsGetTheAnswersOfALoneClient) {
  std::atomic<int> exported{0};
  Metrics metrics(BuildInfo{"t", "t"});
  BatchOptions batch;
  batch.max_queue = 256;  // small: the queue also fills and drops under load
  batch.flush_interval = absl::Milliseconds(5);
  Tracer tracer(1.0, std::make_unique<BatchSpanProcessor>(
                         std::make_unique<CountingExporter>(&exported), batch, SpanCounters{}));
  Observability obs{&metrics, &tracer};
  Server server({TestKey(1, 7)}, /*allow_preset=*/true, &obs);

  // The reference: one PRESET hand played alone, every step's request and answer.
  std::vector<v1::ApplyActionRequest> requests;
  std::vector<std::string> answers;
  {
    v1::NewHandResponse start;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().NewHand(&ctx, BasicHand(6, v1::DEALING_MODE_PRESET), &start), IsOk());
    v1::HandUpdate u = start.update();
    while (u.public_view().phase() != v1::PHASE_COMPLETE && requests.size() < 200) {
      v1::ApplyActionRequest req;
      req.set_token(u.token());
      *req.mutable_action() = ChooseAction(u, requests.size() % 3 == 0);
      req.add_private_view_seats(1 + static_cast<int>(requests.size() % 6));
      v1::ApplyActionResponse resp;
      grpc::ClientContext c;
      SetDeadline(&c);
      ASSERT_THAT(server.stub().ApplyAction(&c, req, &resp), IsOk());
      requests.push_back(req);
      answers.push_back(resp.SerializeAsString());
      u = resp.update();
    }
  }
  ASSERT_GT(requests.size(), 10u);

  constexpr int kThreads = 8, kRounds = 3;
  std::atomic<int> mismatches{0}, failures{0}, calls{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread its own channel, as separate platform replicas would.
      auto stub = v1::StudService::NewStub(grpc::CreateChannel(
          "127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials()));
      for (int round = 0; round < kRounds; ++round) {
        for (size_t k = 0; k < requests.size(); ++k) {
          const size_t i =
              (k * 7 + static_cast<size_t>(t) * 13) % requests.size();  // different orders
          v1::ApplyActionResponse resp;
          grpc::ClientContext c;
          SetDeadline(&c);
          if (!stub->ApplyAction(&c, requests[i], &resp).ok()) {
            ++failures;
          } else if (resp.SerializeAsString() != answers[i]) {
            ++mismatches;
          }
          // And a refusal and a fresh hand in between.
          v1::GetViewRequest bad;
          bad.set_token("not a token");
          v1::GetViewResponse view;
          grpc::ClientContext c2;
          SetDeadline(&c2);
          if (stub->GetView(&c2, bad, &view).error_code() != grpc::StatusCode::UNAUTHENTICATED)
            ++failures;
          if (k % 10 == 0) {
            v1::NewHandResponse h;
            grpc::ClientContext c3;
            SetDeadline(&c3);
            if (!stub->NewHand(&c3, BasicHand(2 + t % 7, v1::DEALING_MODE_SERVICE), &h).ok())
              ++failures;
          }
          calls += 2;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  tracer.processor()->Shutdown();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_GT(exported.load(), 0);
  std::printf("concurrency: %d calls from %d threads, %d spans exported\n", calls.load(), kThreads,
              exported.load());
}

}  // namespace
}  // namespace stud::service::testing
