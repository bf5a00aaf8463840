// One connection to the hand ledger's Redis (its master, through the
// Sentinels with redis-sentinel://), shared by every caller of RedisLedger,
// in batches (group commit, as LevelDB batches its writers): callers queue
// their commands with a completion and return at once; the pipeline's own
// thread sends everything queued so far in one write, reads the replies in
// order (Redis answers a connection's commands in order) and runs each
// command's completion with its reply. No caller's thread waits on Redis
// (Submit); Run is the waiting form, for callers that have nothing else to
// do. At light load a command is its own round trip; under load one round
// trip and a few system calls, here and in Redis, serve a whole batch. Every
// connect and every read has a timeout.
//
// Lua scripts (SubmitScript) go by their SHA-1 (EVALSHA): some 1 KB less per
// call to write, and for Redis to read and hash, than the script's text. A
// NOSCRIPT answer (a Redis that has not run the script since it started, a
// master new after a failover, SCRIPT FLUSH) has the command sent once more
// with the text (EVAL), which caches it there.
//
// A command is written in Redis's protocol (RESP) once, when it is submitted,
// straight from its arguments: the pipeline's thread copies the bytes into the
// connection's buffer as they are (no argument list to build and format again
// on the one thread that serves every ledger call of the replica).
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
// stud_ledger_master_changes_total, stud_ledger_readonly_total,
// stud_ledger_noscript_total, stud_ledger_pipeline_busy_seconds_total (the
// CPU time of the pipeline's thread: one thread per replica sends every
// ledger command and finishes every ledger call, so a rate near 1 is a
// saturated replica).
#ifndef STUD_SERVICE_TRUST_REDIS_PIPELINE_H_
#define STUD_SERVICE_TRUST_REDIS_PIPELINE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/trust/redis_connect.h"

struct redisContext;
struct redisReply;
namespace prometheus {
class Registry;
}

namespace stud::service {

// A Lua script and its SHA-1 in hex (EVALSHA's argument), made once.
struct RedisScript {
  explicit RedisScript(std::string text);
  const std::string text;
  const std::string sha;
};

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

  // A command's completion: its reply, or UNAVAILABLE LEDGER_UNAVAILABLE
  // (an error reply other than READONLY becomes one). It runs on the
  // pipeline's thread, once, and must not wait on this pipeline (Run): that
  // thread is the one that would answer. What it submits goes in a later batch.
  using Done = absl::AnyInvocable<void(absl::StatusOr<Reply>) &&>;

  // Queues the command `args` (its bytes copied before it returns, so they may
  // be temporaries) and returns at once; `done` runs when the reply is in.
  void Submit(std::initializer_list<absl::string_view> args, Done done);
  // Submit of `script` (which outlives the pipeline) with `numkeys_keys_args`
  // (the number of keys, the keys, the arguments): EVALSHA, or EVAL on
  // NOSCRIPT (above).
  void SubmitScript(const RedisScript& script,
                    std::initializer_list<absl::string_view> numkeys_keys_args, Done done);
  // Submit, then wait for the reply. Refused (UNAVAILABLE) on the pipeline's
  // own thread, where it could only wait for itself.
  absl::StatusOr<Reply> Run(std::initializer_list<absl::string_view> args);

 private:
  struct Metrics;
  struct Command;
  void RegisterMetrics(prometheus::Registry& registry);
  void Enqueue(Command* command);  // takes it
  // The pipeline's thread: takes what is queued, sends it, completes it.
  void Loop();
  // Sends `batch` and fills in every command's result (the pipeline's thread).
  void Send(const std::vector<Command*>& batch);
  // A connection to the (current) master; null with `error` set.
  redisContext* Connect(std::string* error);

  const RedisLedgerOptions options_;
  const absl::Duration read_timeout_;
  std::unique_ptr<Metrics> metrics_;
  // std::mutex rather than absl::Mutex: ThreadSanitizer sees it (admission.h).
  std::mutex mu_;
  std::condition_variable queued_;      // signalled when queue_ gains a command or on stop
  std::deque<Command*> queue_;          // guarded by mu_; sent in order
  bool stop_ = false;                   // guarded by mu_
  redisContext* connection_ = nullptr;  // the pipeline's thread only
  uint64_t connection_serial_ = 0;      // counts connections (the pipeline's thread only)
  RedisAddress master_;                 // where connection_ went last (the pipeline's thread only)
  std::thread thread_;                  // last: started once the members above exist
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_REDIS_PIPELINE_H_
