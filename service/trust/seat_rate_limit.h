// Per-seat rate limit for players' devices.
//
// A device authenticated by its seat ticket alone (seat_tickets.h,
// AuthenticateSeatTicket) could send calls as fast as its link allows; one
// phone must not be able to take a replica's capacity from the table. Each
// (tenant, hand, seat) gets a token bucket: `rate` calls per second with
// bursts of `burst`. A call over the limit is refused at once with
// RESOURCE_EXHAUSTED, reason SEAT_RATE_LIMITED and the wait in milliseconds.
//
// The limit is per replica (a device spread over N replicas gets up to N
// times the rate): it bounds flooding, not fairness between seats. Memory is
// bounded: at most `max_seats` buckets; when full, every bucket idle long
// enough to be full again is dropped, and if none is, the least recently used.
// Thread-safe.
#ifndef STUD_SERVICE_TRUST_SEAT_RATE_LIMIT_H_
#define STUD_SERVICE_TRUST_SEAT_RATE_LIMIT_H_

#include <cstdint>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace stud::service {

class SeatRateLimiter {
 public:
  // `rate` > 0 calls per second; `burst` >= 1.
  SeatRateLimiter(double rate, double burst, size_t max_seats = 100000);

  // OK and one call counted, or SEAT_RATE_LIMITED. `hand_id` is the ticket's
  // raw hand id.
  absl::Status Admit(absl::string_view tenant, absl::string_view hand_id, int seat, absl::Time now);

 private:
  struct Bucket {
    double tokens = 0;
    absl::Time refilled;
  };
  void EvictOne(absl::Time now);  // mu_ held

  const double rate_;
  const double burst_;
  const size_t max_seats_;
  std::mutex mu_;  // std::mutex: ThreadSanitizer sees it (admission.h)
  absl::flat_hash_map<std::string, Bucket> buckets_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_SEAT_RATE_LIMIT_H_
