// The hand ledger (ledger.h) in Redis, over hiredis's blocking API.
//
// One string key per hand, LedgerKey(tenant, hand id) = "stud:{tenant:hand}"
// -> "<version>:<token digest hex>:<token bytes>", with an expiry:
// `ttl_in_play` while the hand is in play, `ttl_ended` once it is over. The
// version and digest (the value's head) decide every comparison; the token is
// kept for Latest. Create and Advance are one EVAL of one Lua script (atomic
// on the server, one round trip): Create sets the key only when it is free (as
// SET NX), Advance only when its head is the token the call opened (the
// compare-and-set), and a write also appends the change to the hand's watch
// stream "stud:{tenant:hand}:watch" (XADD, ID "<version>-1", fields t, o, e;
// ledger.h states the contract) and gives the stream the key's expiry. Check
// is GETRANGE of the head; Latest is GET.
//
// Every command goes through one connection, in batches (group commit, as
// LevelDB batches its writers): callers queue their commands; the caller at
// the front of the queue sends everything queued so far in one write, reads
// the replies in order (Redis answers a connection's commands in order),
// hands each caller its reply and wakes the next front. At light load a
// command is its caller's own round trip; under load one round trip and a few
// system calls, here and in Redis, serve a whole batch. Every connect and
// every read has a timeout. When the connection breaks (the server restarted)
// the commands of the batch that got no reply are sent once more on a fresh
// connection, which is safe because every command is idempotent (a repeated
// CAS finds its own result and answers kRetry). Anything else (refused
// connection, timeout, an error reply such as LOADING or OOM) is
// UNAVAILABLE, reason LEDGER_UNAVAILABLE: fail closed.
//
// Failover (redis-sentinel://, redis_connect.h): every new connection asks
// the Sentinels for the master and checks its ROLE. A connection that breaks,
// or a write refused READONLY (the old master, now a replica), is dropped and
// the refused commands are sent once more on a connection to the master the
// Sentinels name now; while none is known every call is UNAVAILABLE
// LEDGER_UNAVAILABLE with a message that says so
// (stud_ledger_connect_failures_total{cause}; stud_ledger_master_changes_total
// counts the moves).
//
// Replica acknowledgement (wait_replicas > 0, --ledger_wait_replicas): after
// a write (and after an exact retry, whose script refreshes the entry's
// expiry so that it is a write too) the same connection sends
// WAIT <wait_replicas> <wait_timeout ms>, and the answer leaves only when that
// many replicas have the write. This closes the window in which Redis
// acknowledged a write, the answer (and its new token) left, and a failover
// then promoted a replica that never received it: the ledger would be behind
// a token a player holds (LEDGER_BEHIND) and the older token could fork the
// hand again. Fewer acknowledgements in time, or a connection that changed
// between the write and WAIT, is UNAVAILABLE: the exact retry gets the answer
// once a replica has it. The cost is one more round trip to the replica per
// write; WAIT is not consensus (docs/ledger.md, "High availability").
//
// Live hands per tenant (max_hands_per_tenant > 0): the commit script keeps
// each tenant's hands in play in a sorted set LiveHandsKey(key) (hand id ->
// expiry), refuses a Create when the tenant has that many
// (kHandsExhausted: RESOURCE_EXHAUSTED TENANT_HANDS_EXHAUSTED), and removes a
// hand when it ends; expired members are pruned on each Create.
#ifndef STUD_SERVICE_REDIS_LEDGER_H_
#define STUD_SERVICE_REDIS_LEDGER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/trust/ledger.h"
#include "service/trust/redis_connect.h"

struct redisContext;
namespace prometheus {
class Registry;
}

namespace stud::service {

class RedisLedger final : public Ledger {
 public:
  // `registry` (may be null) receives the stud_ledger_* metrics.
  RedisLedger(RedisLedgerOptions options, prometheus::Registry* registry);
  ~RedisLedger() override;
  RedisLedger(const RedisLedger&) = delete;
  RedisLedger& operator=(const RedisLedger&) = delete;

  absl::StatusOr<LedgerResult> Create(const std::string& key, const LedgerCommit& commit) override;
  absl::StatusOr<LedgerResult> Advance(const std::string& key, const LedgerEntry& from,
                                       const LedgerCommit& to) override;
  absl::StatusOr<LedgerResult> Check(const std::string& key, const LedgerEntry& entry) override;
  absl::StatusOr<LedgerLatest> Latest(const std::string& key) override;
  // PING: OK when the server answers (startup log, readiness).
  absl::Status Ping();

 private:
  struct Metrics;
  struct Reply;
  struct Command;
  // Queues `args` and returns its reply (sending a batch when at the front).
  absl::StatusOr<Reply> Run(const std::vector<std::string>& args);
  void RegisterMetrics(prometheus::Registry& registry);
  // Sends `batch` and fills in every command's result (the batch's leader only).
  void Send(const std::vector<Command*>& batch);
  // A connection to the (current) master; null with `error` set.
  redisContext* Connect(std::string* error);
  int64_t Ttl(bool ended) const;
  // The commit script for Create (`from` "") and Advance (`from` the head of
  // the entry the call opened).
  absl::StatusOr<LedgerResult> Commit(const std::string& key, std::string from,
                                      uint64_t from_version, const LedgerCommit& to);
  // Counts the call (op: 0 create, 1 advance, 2 check, 3 latest) and its round trip time.
  void Count(int op, absl::Time start, const absl::Status& status, LedgerOutcome outcome);
  absl::StatusOr<LedgerResult> Record(int op, absl::Time start, absl::StatusOr<LedgerResult> r);

  const RedisLedgerOptions options_;
  std::unique_ptr<Metrics> metrics_;
  // std::mutex rather than absl::Mutex: ThreadSanitizer sees it (admission.h).
  std::mutex mu_;
  std::deque<Command*> queue_;          // guarded by mu_; the front leads
  redisContext* connection_ = nullptr;  // used by the leader only
  uint64_t connection_serial_ = 0;      // counts connections (the leader only)
  RedisAddress master_;                 // where connection_ went last (the leader only)
};

}  // namespace stud::service

#endif  // STUD_SERVICE_REDIS_LEDGER_H_
