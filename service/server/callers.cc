#include "service/server/callers.h"

#include <algorithm>

namespace stud::service {

Callers::Callers(const Sealer* sealer, const TenantAuth* tenants, const SeatTicketPolicy* policy)
    : sealer_(sealer), tenants_(tenants) {
  if (tenants_ == nullptr || policy == nullptr) return;
  for (std::string& tenant : tenants_->tenants()) {
    if (policy->RequiredFor(tenant)) ticket_tenants_.push_back(std::move(tenant));
  }
}

absl::StatusOr<Caller> Callers::Authenticate(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata,
    absl::string_view seat_ticket, bool platform_only) const {
  if (tenants_ == nullptr) return Caller{};
  if (metadata.count(kApiKeyHeader) > 0 || seat_ticket.empty() || platform_only) {
    absl::StatusOr<std::string> tenant = tenants_->Authenticate(metadata);
    if (!tenant.ok()) return tenant.status();
    return Caller{.tenant = *std::move(tenant)};
  }
  // A device: its ticket is its credential. A tenant it names narrows the
  // search; a tenant that does not use tickets is never tried.
  std::vector<std::string> named;
  const std::vector<std::string>* candidates = &ticket_tenants_;
  if (auto it = metadata.find(kTenantHeader); it != metadata.end()) {
    const std::string tenant(it->second.data(), it->second.size());
    if (std::find(ticket_tenants_.begin(), ticket_tenants_.end(), tenant) != ticket_tenants_.end())
      named.push_back(tenant);
    candidates = &named;
  }
  absl::StatusOr<TicketHolder> holder = AuthenticateSeatTicket(*sealer_, seat_ticket, *candidates);
  if (!holder.ok()) return holder.status();
  return Caller{.tenant = std::move(holder->tenant), .device = true};
}

}  // namespace stud::service
