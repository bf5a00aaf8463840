#include "service/trust/tenant_limits.h"

#include "prometheus/family.h"

namespace stud::service {

TenantLimiter::TenantLimiter(int max_in_flight_per_tenant, const std::vector<std::string>& tenants,
                             prometheus::Registry* registry)
    : limit_(max_in_flight_per_tenant) {
  prometheus::Family<prometheus::Gauge>* in_flight = nullptr;
  prometheus::Family<prometheus::Counter>* refused = nullptr;
  if (registry != nullptr) {
    in_flight = &prometheus::BuildGauge()
                     .Name("stud_tenant_calls_in_flight")
                     .Help("Calls of the tenant queued or running (--max_in_flight_per_tenant)")
                     .Register(*registry);
    refused = &prometheus::BuildCounter()
                   .Name("stud_tenant_calls_refused_total")
                   .Help("Calls refused because the tenant had its limit in flight")
                   .Register(*registry);
  }
  for (const std::string& t : tenants) {
    PerTenant& p = tenants_[t];
    if (registry != nullptr) {
      p.in_flight_gauge = &in_flight->Add({{"tenant", t}});
      p.refused_counter = &refused->Add({{"tenant", t}});
    }
  }
}

void TenantLimiter::Slot::Give() {
  if (limiter_ != nullptr) limiter_->Release(*tenant_);
  limiter_ = nullptr;
}

std::optional<TenantLimiter::Slot> TenantLimiter::TryAcquire(const std::string& tenant) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tenants_.find(tenant);
  if (it == tenants_.end()) return std::nullopt;
  PerTenant& p = it->second;
  if (p.in_flight >= limit_) {
    ++p.refused;
    if (p.refused_counter != nullptr) p.refused_counter->Increment();
    return std::nullopt;
  }
  ++p.in_flight;
  if (p.in_flight_gauge != nullptr) p.in_flight_gauge->Increment();
  return Slot(this, &it->first);
}

void TenantLimiter::Release(const std::string& tenant) {
  std::lock_guard<std::mutex> lock(mu_);
  PerTenant& p = tenants_.at(tenant);
  --p.in_flight;
  if (p.in_flight_gauge != nullptr) p.in_flight_gauge->Decrement();
}

uint64_t TenantLimiter::refused(const std::string& tenant) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tenants_.find(tenant);
  return it == tenants_.end() ? 0 : it->second.refused;
}

}  // namespace stud::service
