// One connection to the hand ledger's Redis (its master, through the
// Sentinels with redis-sentinel://), shared by every caller of RedisLedger,
// in batches (group commit, as LevelDB batches its writers): callers queue
// their commands; the caller at the front of the queue sends everything
// queued so far in one write, reads the replies in order (Redis answers a
// connection's commands in order), hands each caller its reply and wakes the
// next front. At light load a command is its caller's own round trip; under
// load one round trip and a few system calls, here and in Redis, serve a whole
// batch. Every connect and every read has a timeout.
//
// When the connection breaks (the server restarted) the commands of the batch
// that got no reply are sent once more on a fresh connection; the caller's
// commands must therefore be idempotent (RedisLedger's are: a repeated CAS
// finds its own result). A write refused READONLY (a former master, now a
// replica: a failover) is dropped with its connection and sent once more on a
// connection to the master the Sentinels name now (ConnectLedgerRedis). Any
// other failure (refused connection, timeout, no master known, a password
// refused, an error reply such as LOADING or OOM) is UNAVAILABLE, reason
// LEDGER_UNAVAILABLE, with a message that says which: fail closed.
//
// Metrics (when a registry is given): stud_ledger_unreachable_total,
// stud_ledger_batch_commands, stud_ledger_connect_failures_total{cause},
// stud_ledger_master_changes_total, stud_ledger_readonly_total.
#ifndef STUD_SERVICE_TRUST_REDIS_PIPELINE_H_
#define STUD_SERVICE_TRUST_REDIS_PIPELINE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "service/trust/redis_connect.h"

struct redisContext;
struct redisReply;
namespace prometheus {
class Registry;
}

namespace stud::service {

class RedisPipeline {
 public:
  struct Reply {
    std::unique_ptr<redisReply, void (*)(void*)> r{nullptr, nullptr};
    uint64_t connection = 0;  // counts connections: which one answered
  };

  // `read_timeout`: how long a reply may take (a WAIT holds its reply for up
  // to its own timeout). `registry` may be null.
  RedisPipeline(RedisLedgerOptions options, absl::Duration read_timeout,
                prometheus::Registry* registry);
  ~RedisPipeline();
  RedisPipeline(const RedisPipeline&) = delete;
  RedisPipeline& operator=(const RedisPipeline&) = delete;

  // Queues `args` and returns its reply (an error reply other than READONLY
  // becomes UNAVAILABLE LEDGER_UNAVAILABLE), sending a batch when at the front.
  absl::StatusOr<Reply> Run(const std::vector<std::string>& args);

 private:
  struct Metrics;
  struct Command;
  void RegisterMetrics(prometheus::Registry& registry);
  // Sends `batch` and fills in every command's result (the batch's leader only).
  void Send(const std::vector<Command*>& batch);
  // A connection to the (current) master; null with `error` set.
  redisContext* Connect(std::string* error);

  const RedisLedgerOptions options_;
  const absl::Duration read_timeout_;
  std::unique_ptr<Metrics> metrics_;
  // std::mutex rather than absl::Mutex: ThreadSanitizer sees it (admission.h).
  std::mutex mu_;
  std::deque<Command*> queue_;          // guarded by mu_; the front leads
  redisContext* connection_ = nullptr;  // used by the leader only
  uint64_t connection_serial_ = 0;      // counts connections (the leader only)
  RedisAddress master_;                 // where connection_ went last (the leader only)
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_REDIS_PIPELINE_H_
