// WatchHub: one replica's reader of the hands' watch streams (ledger.h,
// kWatchStreamSuffix), for WatchHand (server/watch_hand.h).
//
// One dedicated Redis connection and one thread run
//   XREAD COUNT <read_count> BLOCK <block> STREAMS <wake> k1 k2 ... <wake id> id1 id2 ...
// over every hand that has a watcher, and offer each entry to that hand's
// watchers (WatchSink) in version order. Each watcher has its own cursor (the
// next version it needs); a hand is read from the smallest cursor among its
// watchers, so a new watcher's backlog (after_version on) comes through the
// same read as the live changes, and a watcher that already has an entry
// skips it: no gap, no duplicate, whichever watcher joined when.
//
// Prompt pick-up: `wake` is a stream of this hub's own. Adding (or resuming)
// a watcher appends to it from a second connection, and because the reader
// always reads it from the last ID it saw, the XREAD in progress (or the next
// one, if the append wins the race) returns at once. Unlike CLIENT UNBLOCK,
// this has no window in which the wake-up is lost; at worst a wake-up costs
// one extra round of the read. `block` only bounds how long the idle check
// and a stop wait.
//
// Backpressure, not loss: a watcher's queue is bounded (the sink says so by
// refusing an Offer). A full watcher is left out of the reads, keeping its
// cursor, until it calls Resume; the entries it misses stay in Redis and are
// read again for it. A watcher whose cursor falls `max_lag_versions` behind
// its hand's newest version is ended RESOURCE_EXHAUSTED, reason
// WATCHER_TOO_SLOW (it may resume with after_version).
//
// Ends (WatchSink::End, once per watcher; the hub then forgets it):
//   OK                                   after the version that ended the hand
//   UNAVAILABLE LEDGER_UNAVAILABLE       the Redis connection failed (the hub
//                                        reconnects with backoff, 50 ms .. 2 s)
//   UNAVAILABLE WATCH_IDLE               no new version for `idle_timeout`
//   RESOURCE_EXHAUSTED WATCHER_TOO_SLOW  see above
//   FAILED_PRECONDITION WATCH_HISTORY_GONE  the stream no longer holds the
//                                        version the watcher needs (trimmed)
//   EndAll's status                      (the drain: SERVER_DRAINING)
// Thread safety: every public method may be called from any thread. The hub
// calls a sink (Offer, End) on its reader thread or inside Add/EndAll, with
// its lock held: a sink must not call back into the hub from there. After
// Remove(sink) returns the hub never calls that sink again.
#ifndef STUD_SERVICE_TRUST_WATCH_HUB_H_
#define STUD_SERVICE_TRUST_WATCH_HUB_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "service/trust/redis_ledger.h"

struct redisContext;
namespace prometheus {
class Registry;
}

namespace stud::service {

// One entry of a watch stream (ledger.h): a version of the hand.
struct WatchEntry {
  uint64_t version = 0;
  std::string token;
  uint64_t first_op = 0;
  bool ended = false;
  absl::Time read_at;  // when the hub's XREAD returned it (stud_watch_delivery_lag_seconds)
};
using WatchEntryPtr = std::shared_ptr<const WatchEntry>;

class WatchSink {
 public:
  virtual ~WatchSink() = default;
  // `entry` is the watcher's next version. False: the sink's queue is full
  // and it did not take the entry (it calls WatchHub::Resume when it has room).
  virtual bool Offer(WatchEntryPtr entry) = 0;
  // The hub is done with this watcher (see the top of the file).
  virtual void End(const absl::Status& status) = 0;
};

struct WatchHubOptions {
  RedisLedgerOptions redis;                        // host, port, password, timeouts (--ledger)
  int max_watchers = 10000;                        // --max_watchers: per replica
  int max_watchers_per_tenant = 0;                 // --max_watchers_per_tenant: 0 = no limit
  absl::Duration idle_timeout = absl::Minutes(5);  // --watch_idle_timeout_seconds; 0 = none
  absl::Duration block = absl::Seconds(1);         // longest XREAD BLOCK
  int read_count = 64;                             // entries per hand per read
  uint64_t max_lag_versions = kWatchStreamMaxLen / 2;
};

class WatchHub {
 public:
  // Starts the reader thread. `registry` (may be null) gets stud_watchers and
  // stud_watch_messages_total and stud_watch_delivery_lag_seconds.
  WatchHub(WatchHubOptions options, prometheus::Registry* registry);
  // Ends every watcher UNAVAILABLE and stops the thread.
  ~WatchHub();
  WatchHub(const WatchHub&) = delete;
  WatchHub& operator=(const WatchHub&) = delete;

  // Watches `stream_key` (WatchStreamKey) from version `next_version` on.
  // RESOURCE_EXHAUSTED WATCHERS_EXHAUSTED or TENANT_WATCHERS_EXHAUSTED over a
  // limit; UNAVAILABLE LEDGER_UNAVAILABLE while Redis is unreachable; else OK,
  // and the sink gets its entries from now on.
  absl::Status Add(WatchSink* sink, const std::string& tenant, const std::string& stream_key,
                   uint64_t next_version);
  // Forgets the sink (no-op when the hub already ended it).
  void Remove(WatchSink* sink);
  // The sink has room again after refusing an Offer.
  void Resume(WatchSink* sink);
  // Ends every watcher with `status` (the drain). Later Adds are not refused.
  void EndAll(const absl::Status& status);
  // A message went to a client (metrics): `read_at` is its entry's.
  void Sent(absl::Time read_at);
  int watchers() const;

 private:
  struct Metrics;
  struct Watcher {
    std::string tenant;
    std::string key;
    uint64_t next = 0;  // the version the watcher needs next
    bool ready = true;  // false: its queue is full (left out of reads)
    absl::Time active;  // added, or last given an entry
  };
  struct Hand {
    std::vector<WatchSink*> sinks;
    uint64_t newest = 0;  // the newest version read
  };

  void Run();
  // XREAD's keys and IDs (the wake stream first), each hand's first version
  // noted in read_from_; ends idle watchers.
  std::vector<std::string> ReadArgs(absl::Time now);
  // Offers the entries of one hand's reply to its watchers.
  void Deliver(const std::string& key, const std::vector<WatchEntryPtr>& entries);
  // Under mu_: ends and forgets `sink`.
  void EndLocked(WatchSink* sink, const absl::Status& status);
  void ForgetLocked(WatchSink* sink);
  // Appends to the wake stream (not under mu_).
  void Wake();
  redisContext* Connect(absl::Duration read_timeout, std::string* error) const;

  const WatchHubOptions options_;
  const std::string wake_key_;  // this hub's own wake stream
  std::unique_ptr<Metrics> metrics_;

  mutable std::mutex mu_;
  std::unordered_map<WatchSink*, Watcher> watchers_;  // guarded by mu_
  std::unordered_map<std::string, Hand> hands_;       // guarded by mu_
  std::unordered_map<std::string, int> per_tenant_;   // guarded by mu_
  bool wake_pending_ = false;                         // guarded by mu_
  bool reachable_ = true;                             // guarded by mu_
  int reader_fd_ = -1;                                // guarded by mu_ (stop: shutdown(2))

  std::mutex wake_mu_;                 // the wake connection
  redisContext* wake_conn_ = nullptr;  // guarded by wake_mu_
  redisContext* reader_ = nullptr;     // the reader thread's
  std::string wake_id_ = "0-0";        // the reader thread's
  absl::Time last_idle_check_;         // the reader thread's
  std::unordered_map<std::string, uint64_t>
      read_from_;  // guarded by mu_: each read's start per hand
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_WATCH_HUB_H_
