#include "service/trust/seat_rate_limit.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "service/api/status_mapping.h"

namespace stud::service {

SeatRateLimiter::SeatRateLimiter(double rate, double burst, size_t max_seats)
    : rate_(rate), burst_(std::max(1.0, burst)), max_seats_(std::max<size_t>(1, max_seats)) {}

absl::Status SeatRateLimiter::Admit(absl::string_view tenant, absl::string_view hand_id, int seat,
                                    absl::Time now) {
  // The tenant is bound too: two tenants' hands never share a bucket.
  std::string key = absl::StrCat(tenant, "/", hand_id, "/", seat);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_seats_) EvictOne(now);
    it = buckets_.emplace(std::move(key), Bucket{.tokens = burst_, .refilled = now}).first;
  }
  Bucket& b = it->second;
  const double elapsed = std::max(0.0, absl::ToDoubleSeconds(now - b.refilled));
  b.tokens = std::min(burst_, b.tokens + elapsed * rate_);
  b.refilled = now;
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return absl::OkStatus();
  }
  const auto wait_ms = static_cast<int64_t>(std::ceil((1.0 - b.tokens) / rate_ * 1000.0));
  return SeatRateLimited(seat, wait_ms);
}

void SeatRateLimiter::EvictOne(absl::Time now) {
  // A full bucket carries no memory of past calls: dropping it changes
  // nothing. One sweep drops them all, so sweeps are rare (amortized O(1)).
  const size_t before = buckets_.size();
  absl::erase_if(buckets_, [&](const auto& entry) {
    const Bucket& b = entry.second;
    return b.tokens + absl::ToDoubleSeconds(now - b.refilled) * rate_ >= burst_;
  });
  if (buckets_.size() < before || buckets_.empty()) return;
  auto oldest = buckets_.begin();
  for (auto it = buckets_.begin(); it != buckets_.end(); ++it) {
    if (it->second.refilled < oldest->second.refilled) oldest = it;
  }
  buckets_.erase(oldest);
}

}  // namespace stud::service
