// The hand ledger (ledger.h) in Redis, over hiredis's blocking API.
//
// One string key per hand, LedgerKey(tenant, hand id) = "stud:{<tenant
// tag>:hand}" (ledger.h: a hash, not the tenant's name)
// -> "<version>:<token name>:<token bytes>" (ledger.h, TokenName), with an expiry:
// `ttl_in_play` while the hand is in play, `ttl_ended` once it is over. The
// version and name (the value's head) decide every comparison; the token is
// kept for Latest. Create and Advance are one call (EVALSHA) of one Lua script (atomic
// on the server, one round trip): Create sets the key only when it is free (as
// SET NX), Advance only when its head is the token the call opened (the
// compare-and-set), and a write also appends the change to the hand's watch
// stream "stud:{<tenant tag>:hand}:watch" (XADD, ID "<version>-1", fields t, o, e;
// ledger.h states the contract) and gives the stream the key's expiry. Check
// is GETRANGE of the head; Latest is GET.
//
// Every command goes through one shared connection in batches
// (redis_pipeline.h: group commit, timeouts, one resend on a fresh connection
// when it breaks, which is safe because every command here is idempotent: a
// repeated CAS finds its own result and answers kRetry). Anything else is
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
// Live hands per tenant: the commit script keeps each tenant's hands in play
// in a sorted set LiveHandsKey(key) (hand id -> expiry), always, quota or
// not: every write of a hand in play adds it (or moves its expiry), the write
// that ends it removes it. With max_hands_per_tenant > 0 a Create is refused
// when the tenant has that many (kHandsExhausted: RESOURCE_EXHAUSTED
// TENANT_HANDS_EXHAUSTED); expired members are pruned on each such Create.
// Kept always so that a quota switched on mid-flight (a restart with
// --ledger_max_hands_per_tenant) counts the hands already in play: every
// hand this code wrote, and an older one from its next move on.
#ifndef STUD_SERVICE_TRUST_REDIS_LEDGER_H_
#define STUD_SERVICE_TRUST_REDIS_LEDGER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/trust/ledger.h"
#include "service/trust/redis_connect.h"
#include "service/trust/redis_pipeline.h"

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

  TokenNaming naming() const override {
    return options_.tag_names ? TokenNaming::kTag : TokenNaming::kDigest;
  }
  void StartCreate(const std::string& key, const LedgerCommit& commit, LedgerDone done) override;
  void StartAdvance(const std::string& key, const LedgerEntry& from, const LedgerCommit& to,
                    LedgerDone done) override;
  void StartCheck(const std::string& key, const LedgerEntry& entry, LedgerDone done) override;
  void StartLatest(const std::string& key, LatestDone done) override;
  absl::StatusOr<LedgerLatest> Latest(const std::string& key) override;
  // PING: OK when the server answers (startup log, readiness).
  absl::Status Ping();

 private:
  struct Metrics;
  // The stud_ledger_* series, registered in `registry` (none when null):
  // made before the pipeline's thread starts, which counts into them.
  static std::unique_ptr<Metrics> MakeMetrics(prometheus::Registry* registry);
  int64_t Ttl(bool ended) const;
  // The commit script for Create (`from` "") and Advance (`from` the head of
  // the entry the call opened), then the WAIT for replicas when asked for.
  void Commit(const std::string& key, absl::string_view from, uint64_t from_version,
              TokenNaming from_naming, const LedgerCommit& to, LedgerDone done);
  // `from_naming`, `naming`: how the call names the tokens of those versions.
  static absl::StatusOr<LedgerResult> CommitResult(const RedisPipeline::Reply& reply,
                                                   uint64_t from_version, uint64_t version,
                                                   TokenNaming from_naming, TokenNaming naming);
  // `out` once the WAIT `w` (sent on the write's `connection`) counted the replicas asked for.
  absl::StatusOr<LedgerResult> Acknowledged(const absl::StatusOr<RedisPipeline::Reply>& w,
                                            uint64_t connection, int64_t ms,
                                            const LedgerResult& out);
  static absl::StatusOr<LedgerLatest> LatestResult(const absl::StatusOr<RedisPipeline::Reply>& r);
  // Counts the call (op: 0 create, 1 advance, 2 check, 3 latest) and its round trip time.
  // named_otherwise: LedgerResult::named_otherwise, counted as a result of its own.
  void Count(int op, absl::Time start, const absl::Status& status, LedgerOutcome outcome,
             bool named_otherwise = false);
  // `done`, counted when it runs (op as in Count, timed from now).
  LedgerDone Recorded(int op, LedgerDone done);

  const RedisLedgerOptions options_;
  std::unique_ptr<Metrics> metrics_;  // before redis_: its completions count into it
  RedisPipeline redis_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_REDIS_LEDGER_H_
