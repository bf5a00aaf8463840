#include "service/token/hand_cache.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace stud::service {
namespace {

// Every token format ends with a 16-byte authentication tag (token/sealer.h),
// a pseudorandom function of the key, header and plaintext: its last 8 bytes
// index the cache without hashing the token. Only tokens this process sealed
// or opened are ever kept, so a caller cannot choose the keys of entries; a
// forged token with a kept token's tag finds that entry, and its bytes then
// differ.
constexpr size_t kKeyBytes = 8;
constexpr size_t kMinTokenBytes = 16;

uint64_t KeyOf(absl::string_view token) {
  uint64_t key = 0;
  std::memcpy(&key, token.data() + token.size() - kKeyBytes, kKeyBytes);
  return key;
}

// Fewer shards than threads would contend; more only cost memory. A shard
// is held for a look-up, a comparison of the token and a pointer swap.
constexpr size_t kShards = 16;

}  // namespace

struct HandCache::Shard {
  struct Slot {
    std::string token;
    std::string tenant;
    std::string digest;                // the ledger's digest of `token`, or ""
    std::unique_ptr<SealedHand> hand;  // null until a hand is kept here
    uint64_t key = 0;
    bool live = false;
  };
  // std::mutex rather than absl::Mutex: ThreadSanitizer sees it (admission.h).
  // Guards everything below.
  mutable std::mutex mu;
  std::vector<Slot> slots;
  size_t next = 0;  // the slot the next Keep fills
  absl::flat_hash_map<uint64_t, size_t> index;
  Counts counts;
};

HandCache::HandCache(size_t capacity)
    : capacity_(capacity),
      shard_count_(std::min(capacity, kShards)),
      shards_(new Shard[shard_count_]) {
  for (size_t i = 0; i < shard_count_; ++i) {
    Shard& s = shards_[i];
    std::lock_guard<std::mutex> lock(s.mu);
    // The first capacity % shard_count shards hold one slot more.
    s.slots.resize(capacity / shard_count_ + (i < capacity % shard_count_ ? 1 : 0));
  }
}

HandCache::~HandCache() = default;

HandCache::Shard& HandCache::ShardOf(uint64_t key) const {
  // The key's high bits: the index's hash mixes the whole key anyway.
  return shards_[(key >> 40) % shard_count_];
}

bool HandCache::Take(absl::string_view token, absl::string_view tenant,
                     std::unique_ptr<SealedHand>* hand, std::string* digest) {
  if (shard_count_ == 0 || token.size() < kMinTokenBytes) return false;
  const uint64_t key = KeyOf(token);
  Shard& s = ShardOf(key);
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.index.find(key);
  if (it == s.index.end()) {
    ++s.counts.misses;
    return false;
  }
  Shard::Slot& slot = s.slots[it->second];
  // Another tenant's call on these bytes opens them and is refused there; the
  // entry stays for its own tenant.
  if (slot.token != token || slot.tenant != tenant) {
    ++s.counts.misses;
    return false;
  }
  slot.hand.swap(*hand);
  digest->swap(slot.digest);  // both keep their capacity
  slot.live = false;
  s.index.erase(it);
  ++s.counts.hits;
  return true;
}

void HandCache::Keep(absl::string_view token, absl::string_view tenant,
                     std::unique_ptr<SealedHand>* hand, absl::string_view digest) {
  if (shard_count_ == 0 || token.size() < kMinTokenBytes || *hand == nullptr) return;
  const uint64_t key = KeyOf(token);
  Shard& s = ShardOf(key);
  std::lock_guard<std::mutex> lock(s.mu);
  if (auto it = s.index.find(key); it != s.index.end()) {  // the same token, kept again
    s.slots[it->second].live = false;
    s.index.erase(it);
  }
  const size_t at = s.next;
  s.next = (s.next + 1) % s.slots.size();
  Shard::Slot& slot = s.slots[at];
  if (slot.live) {
    s.index.erase(slot.key);
    ++s.counts.evictions;
  }
  slot.hand.swap(*hand);
  slot.token.assign(token.data(), token.size());
  slot.tenant.assign(tenant.data(), tenant.size());
  slot.digest.assign(digest.data(), digest.size());
  slot.key = key;
  slot.live = true;
  s.index[key] = at;
}

HandCache::Counts HandCache::counts() const {
  Counts total;
  for (size_t i = 0; i < shard_count_; ++i) {
    const Shard& s = shards_[i];
    std::lock_guard<std::mutex> lock(s.mu);
    total.hits += s.counts.hits;
    total.misses += s.counts.misses;
    total.evictions += s.counts.evictions;
  }
  return total;
}

}  // namespace stud::service
