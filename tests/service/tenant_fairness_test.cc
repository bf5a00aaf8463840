// Per-tenant fairness (service/trust/tenant_limits.h) through a real gRPC
// server with load shedding on (--max_in_flight 8, one worker): tenant
// "flood" keeps 16 NewHand calls in flight while tenant "calm" makes calls one
// at a time. With --max_in_flight_per_tenant 4 the flood is refused
// RESOURCE_EXHAUSTED TENANT_OVERLOADED at its own limit and never fills the
// shared queue, so every calm call succeeds; without it (the control run) the
// flood fills the queue and calm calls are refused as "server overloaded".
#include <atomic>
#include <thread>
#include <vector>

#include "service/trust/tenant_limits.h"
#include "service/trust/tenants.h"
#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;

struct Outcome {
  int calm_ok = 0, calm_refused = 0, flood_ok = 0, flood_tenant_refused = 0,
      flood_global_refused = 0;
};

Outcome Flood(int per_tenant_limit) {
  const std::vector<TenantKey> keys = {TestTenantKey("flood", 1), TestTenantKey("calm", 2)};
  TenantAuth auth = *TenantAuth::Create(keys);
  TenantLimiter limiter(per_tenant_limit, auth.tenants(), nullptr);
  ServiceOptions options{.allow_preset = true, .tenants = &auth, .max_in_flight = 8, .workers = 1};
  if (per_tenant_limit > 0) options.tenant_limits = &limiter;
  Server server({TestKey(1, 7)}, options);
  auto call = [&](const TenantKey& who, std::string* reason) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ctx.AddMetadata(kTenantHeader, who.tenant);
    ctx.AddMetadata(kApiKeyHeader, FormatTenantKey(who).substr(who.tenant.size() + 1));
    v1::NewHandResponse resp;
    const grpc::Status st =
        server.stub().NewHand(&ctx, BasicHand(8, v1::DEALING_MODE_SERVICE), &resp);
    *reason = st.ok() ? "" : ErrorInfoOf(st).reason();
    return st.error_code();
  };
  Outcome out;
  std::atomic<bool> stop{false};
  std::atomic<int> flood_ok{0}, flood_tenant{0}, flood_global{0};
  std::vector<std::thread> flood;
  for (int t = 0; t < 16; ++t) {
    flood.emplace_back([&] {
      std::string reason;
      while (!stop.load()) {
        const grpc::StatusCode code = call(keys[0], &reason);
        if (code == grpc::StatusCode::OK) ++flood_ok;
        if (reason == "TENANT_OVERLOADED") ++flood_tenant;
        if (code == grpc::StatusCode::RESOURCE_EXHAUSTED && reason != "TENANT_OVERLOADED") {
          ++flood_global;
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the flood is under way
  for (int i = 0; i < 300; ++i) {
    std::string reason;
    if (call(keys[1], &reason) == grpc::StatusCode::OK) {
      ++out.calm_ok;
    } else {
      ++out.calm_refused;
    }
  }
  stop = true;
  for (std::thread& t : flood) t.join();
  out.flood_ok = flood_ok;
  out.flood_tenant_refused = flood_tenant;
  out.flood_global_refused = flood_global;
  if (per_tenant_limit > 0) {
    EXPECT_EQ(limiter.refused("flood"), uint64_t(flood_tenant.load()));
  }
  std::printf(
      "per-tenant limit %d: calm %d ok / %d refused; flood %d ok, %d refused for its tenant, "
      "%d refused as server overloaded\n",
      per_tenant_limit, out.calm_ok, out.calm_refused, out.flood_ok, out.flood_tenant_refused,
      out.flood_global_refused);
  return out;
}

TEST(TenantFairness, OneTenantsFloodDoesNotStarveAnother) {
  const Outcome limited = Flood(4);
  EXPECT_EQ(limited.calm_refused, 0);
  EXPECT_EQ(limited.calm_ok, 300);
  EXPECT_GT(limited.flood_tenant_refused, 0);
  EXPECT_GT(limited.flood_ok, 0);
  EXPECT_EQ(limited.flood_global_refused, 0);  // the flood never fills the shared queue
}

TEST(TenantFairness, WithoutTheLimitTheFloodFillsTheSharedQueue) {
  const Outcome unlimited = Flood(0);
  EXPECT_EQ(unlimited.flood_tenant_refused, 0);
  EXPECT_GT(unlimited.flood_global_refused, 0);
  EXPECT_GT(unlimited.calm_refused, 0);  // what the limit prevents
}

}  // namespace
}  // namespace stud::service::testing
