// Per-tenant fairness (--max_in_flight_per_tenant): each authenticated tenant
// may have at most N calls queued or running at once, beside the global
// --max_in_flight, so one platform's burst cannot fill the shared queue and
// starve the others. A call over its tenant's limit is refused at once with
// RESOURCE_EXHAUSTED, reason TENANT_OVERLOADED (retry with backoff).
//
// Metrics, one series per tenant of the tenant key file (bounded):
//   stud_tenant_calls_in_flight{tenant}    calls holding a slot
//   stud_tenant_calls_refused_total{tenant}  calls refused for the tenant's limit
#ifndef STUD_SERVICE_TRUST_TENANT_LIMITS_H_
#define STUD_SERVICE_TRUST_TENANT_LIMITS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace stud::service {

class TenantLimiter {
 public:
  // `tenants`: every tenant of the key file; `registry` may be null (no metrics).
  TenantLimiter(int max_in_flight_per_tenant, const std::vector<std::string>& tenants,
                prometheus::Registry* registry);
  TenantLimiter(const TenantLimiter&) = delete;
  TenantLimiter& operator=(const TenantLimiter&) = delete;

  // A call's place in its tenant's limit, given back when destroyed.
  class Slot {
   public:
    Slot(Slot&& other) noexcept : limiter_(other.limiter_), tenant_(other.tenant_) {
      other.limiter_ = nullptr;
    }
    Slot& operator=(Slot&& other) noexcept {
      if (this != &other) {
        Give();
        limiter_ = other.limiter_;
        tenant_ = other.tenant_;
        other.limiter_ = nullptr;
      }
      return *this;
    }
    ~Slot() { Give(); }

   private:
    friend class TenantLimiter;
    Slot(TenantLimiter* limiter, const std::string* tenant) : limiter_(limiter), tenant_(tenant) {}
    void Give();  // back to the limiter, once
    TenantLimiter* limiter_;
    const std::string* tenant_;  // key of the limiter's map
  };

  // A slot for `tenant`, or nullopt when it has its limit in flight (counted
  // as refused). An unknown tenant gets no slot and no series.
  std::optional<Slot> TryAcquire(const std::string& tenant);
  int limit() const { return limit_; }
  // Calls refused so far for `tenant` (tests).
  uint64_t refused(const std::string& tenant) const;

 private:
  struct PerTenant {
    int in_flight = 0;  // guarded by mu_
    uint64_t refused = 0;
    prometheus::Gauge* in_flight_gauge = nullptr;
    prometheus::Counter* refused_counter = nullptr;
  };
  void Release(const std::string& tenant);

  const int limit_;
  // std::mutex: ThreadSanitizer sees it (Debian's Abseil is not instrumented).
  mutable std::mutex mu_;
  std::map<std::string, PerTenant> tenants_;  // fixed at construction
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_TENANT_LIMITS_H_
