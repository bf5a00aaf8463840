// Who is calling: the one authentication of every call (unary or stream).
//
// With caller authentication off (no tenant keys) every call is the trusted
// backend of tenant "". With it on, a call is either
//   - the platform: metadata x-stud-tenant + x-stud-api-key (trust/tenants.h),
//     which may make every call; or
//   - a player's device: no API key, and the request's seat ticket is an
//     authentic ticket of a tenant whose hands use tickets (the tenants marked
//     ":tickets", or every tenant with --seat_tickets=required). The ticket is
//     its whole credential: it opens only its own hand and seat (the ticket
//     checks of trust/seat_tickets.h scope the call), never NewHand, a
//     stateless call or administration. A device may send x-stud-tenant alone
//     to name its tenant; otherwise each candidate tenant is tried.
// A call that is neither is UNAUTHENTICATED, CALLER_UNAUTHENTICATED.
#ifndef STUD_SERVICE_SERVER_CALLERS_H_
#define STUD_SERVICE_SERVER_CALLERS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"
#include "service/token/sealer.h"
#include "service/trust/seat_tickets.h"
#include "service/trust/tenants.h"

namespace stud::service {

struct Caller {
  std::string tenant;   // "" when authentication is off
  bool device = false;  // authenticated by its seat ticket alone
};

class Callers {
 public:
  // `tenants` null: authentication off. `policy` null: no tenant uses tickets
  // (no device can call). All must outlive this object.
  Callers(const Sealer* sealer, const TenantAuth* tenants, const SeatTicketPolicy* policy);

  // `seat_ticket`: the request's ticket ("" when none); `platform_only`: the
  // request needs the platform's key whatever it carries.
  absl::StatusOr<Caller> Authenticate(
      const std::multimap<grpc::string_ref, grpc::string_ref>& metadata,
      absl::string_view seat_ticket, bool platform_only) const;

 private:
  const Sealer* sealer_;
  const TenantAuth* tenants_;
  std::vector<std::string> ticket_tenants_;  // tenants whose hands use tickets
};

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_CALLERS_H_
