// LruCache: a small process-wide map from byte-string keys to shared values,
// the least recently found or kept going first once `capacity` is reached.
// What the per-hand caches of verifiable hands hold (rpc/fairness_view.cc:
// a hand's deck tree; rpc/receipt_view.cc: a complete hand's signed receipt):
// values a miss computes again, so an evicted entry costs time, never an
// answer. One mutex, held for a look-up or an insertion (no value is built
// under it).
#ifndef STUD_SERVICE_RPC_LRU_CACHE_H_
#define STUD_SERVICE_RPC_LRU_CACHE_H_

#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"

namespace stud::service {

// `Value` is copied out of the cache under its lock: a shared_ptr (or other
// cheap handle), null meaning "not found".
template <typename Value>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity) {}
  LruCache(const LruCache&) = delete;
  LruCache& operator=(const LruCache&) = delete;

  // The value kept under exactly `key`, now the most recent; null if none.
  Value Find(absl::string_view key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }
  // Keeps `value` under `key` unless the key is kept already (two calls that
  // missed at once computed the same value).
  void Put(absl::string_view key, Value value) {
    std::lock_guard<std::mutex> lock(mu_);
    if (index_.contains(key)) return;
    order_.emplace_front(std::string(key), std::move(value));
    index_.emplace(order_.front().first, order_.begin());
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

 private:
  using Order = std::list<std::pair<std::string, Value>>;
  const size_t capacity_;
  std::mutex mu_;
  Order order_;
  // Keys view the strings held in order_ (list nodes do not move).
  absl::flat_hash_map<absl::string_view, typename Order::iterator> index_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_LRU_CACHE_H_
