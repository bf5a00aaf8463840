// Where the hand ledger's Redis is and how to reach it: the --ledger address
// (one Redis, or the Sentinels that know the current master) and one
// connection to the master, shared by RedisLedger and the WatchHub.
//
// hiredis 0.14 has no Sentinel client, so this is the smallest part of one
// that the ledger needs (the Sentinel client guidelines,
// https://redis.io/docs/reference/sentinel-clients/):
//   1. ask each Sentinel in turn SENTINEL get-master-addr-by-name <name>; the
//      first that answers with an address is used (a Sentinel that cannot be
//      reached, or knows no such master, is skipped);
//      Sentinels with a password of their own (requirepass on the Sentinels)
//      are sent AUTH first; one that refuses it is skipped like an
//      unreachable one, and when no Sentinel could be asked the failure is
//      kSentinelAuth;
//   2. connect to that address, AUTH when a password is set;
//   3. ROLE must answer "master": a Sentinel may name a server that is still
//      a replica while a failover is under way, and writing there would only
//      be refused (READONLY).
// No subscription to +switch-master: the ledger rediscovers when a
// connection breaks or a write is refused READONLY (redis_ledger.h), which is
// what a failover does to a connection to the old master. Every step has the
// connect or I/O timeout, so finding no master takes at most about
// (Sentinels + 1) x the connect timeout; the caller then fails closed.
#ifndef STUD_SERVICE_TRUST_REDIS_CONNECT_H_
#define STUD_SERVICE_TRUST_REDIS_CONNECT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

struct redisContext;

namespace stud::service {

struct RedisAddress {
  std::string host;
  int port = 6379;
  friend bool operator==(const RedisAddress&, const RedisAddress&) = default;
};

struct RedisLedgerOptions {
  std::string host;  // the one Redis (redis://); unused with Sentinels
  int port = 6379;
  std::vector<RedisAddress> sentinels;  // redis-sentinel://: ask these for the master
  std::string master_name;              // the Sentinels' name of the ledger's master
  // AUTH when set. Never from the command line: --ledger_password_file or
  // STUD_LEDGER_PASSWORD (server/main.cc). Sentinels are asked without it.
  std::string password;
  // AUTH to each Sentinel when set (requirepass on the Sentinels; a password
  // of their own, not the master's). Never from the command line:
  // --ledger_sentinel_password_file or STUD_LEDGER_SENTINEL_PASSWORD. A
  // Sentinel that has no password configured answers AUTH with an error; that
  // one is asked anyway, so clients can get the password before the Sentinels
  // start requiring it.
  std::string sentinel_password;
  absl::Duration connect_timeout = absl::Milliseconds(250);
  absl::Duration io_timeout = absl::Milliseconds(500);
  int64_t ttl_ended_seconds = 86400;        // --ledger_ttl_seconds
  int64_t ttl_in_play_seconds = 7 * 86400;  // --ledger_in_play_ttl_seconds
  int max_batch = 256;                      // commands sent in one write
  // --ledger_wait_replicas / --ledger_wait_timeout_ms: after each write, WAIT
  // until this many replicas have it (0 = do not wait; redis_ledger.h).
  int wait_replicas = 0;
  absl::Duration wait_timeout = absl::Milliseconds(100);
  // --ledger_max_hands_per_tenant: live (not ended, not expired) hands a
  // tenant may hold in the ledger; 0 = no limit (redis_ledger.h).
  int64_t max_hands_per_tenant = 0;
  // --ledger_token_names=tag: entries name tokens by their AES-GCM-SIV tag
  // (ledger.h, TokenNaming::kTag) rather than their BLAKE2b digest.
  bool tag_names = false;
};

// "redis://HOST[:PORT]" (port 6379), or
// "redis-sentinel://HOST[:PORT][,HOST[:PORT]...]/MASTER_NAME" (port 26379).
// A password in the URL ("redis://:PASSWORD@HOST") is still parsed into
// `password`; server/main.cc refuses it (it would be readable in /proc).
// INVALID_ARGUMENT naming what is wrong.
absl::StatusOr<RedisLedgerOptions> ParseLedgerUrl(absl::string_view url);

// "HOST:PORT", or "sentinel MASTER_NAME via HOST:PORT,..." for logs and errors.
std::string DescribeLedgerAddress(const RedisLedgerOptions& o);

// Why ConnectLedgerRedis found no usable connection (a metric label).
enum class RedisConnectFailure {
  kNone,
  kUnreachable,   // the Redis (or the master a Sentinel named) did not accept a connection
  kNoMaster,      // no Sentinel could be reached or none named a master
  kNotMaster,     // the named server answers ROLE as a replica (a failover under way)
  kAuth,          // AUTH refused (wrong password) or needed and not given
  kSentinelAuth,  // no Sentinel could be asked: each refused its password or needed one
};
const char* RedisConnectFailureName(RedisConnectFailure f);

struct RedisConnection {
  redisContext* context = nullptr;  // owned by the caller (redisFree); null on failure
  RedisAddress address;             // where it is connected (the master)
  RedisConnectFailure failure = RedisConnectFailure::kNone;
  std::string error;  // a sentence for a person when `context` is null
};

// A connection to the ledger's Redis (its master with Sentinels), with
// `read_timeout` on every later read, keep-alive, and AUTH done.
RedisConnection ConnectLedgerRedis(const RedisLedgerOptions& o, absl::Duration read_timeout);

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_REDIS_CONNECT_H_
