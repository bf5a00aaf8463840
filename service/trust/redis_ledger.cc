#include "service/trust/redis_ledger.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "service/api/status_mapping.h"

namespace stud::service {
namespace {

// The longest head: a 20-digit version, a colon and a token name (ledger.h,
// TokenName: at most 33 characters). Check and the commit script read this
// much and one byte more, not the token.
constexpr size_t kMaxHeadBytes = 20 + 1 + 33;

// The compare-and-set of Create and Advance, which also publishes the change
// (ledger.h, the watch stream). KEYS[1] the hand's entry, KEYS[2] its watch
// stream, KEYS[3] the tenant's live hands (LiveHandsKey); ARGV[1] the entry
// the call read ("<version>:<name>", "" for Create), ARGV[2] the entry it
// writes, ARGV[3] the new token, ARGV[4] the expiry in seconds, ARGV[5] the
// stream entry ID, ARGV[6] first_op, ARGV[7] ended ("1"/"0"), ARGV[8] the
// tenant's limit of live hands (0: none; KEYS[3] is kept up to date either
// way, so a limit switched on later counts every hand written since), ARGV[9]
// the hand id. Only the head of a value ("<version>:<name>", before the token) is
// read and compared (GETRANGE: a retry or a refusal never copies the token),
// so entries written before tokens were kept compare too; a missing key reads
// as "".
// Replies {0, ""} no entry (Advance), {1, head} already the new entry (the
// exact retry: nothing is appended; the expiry is set again, a write that
// WAIT then covers), {2, head} written, {3, head} superseded by `head`,
// {4, n} the tenant already has n live hands (Create). XADD goes first: if it
// fails (an ID not above the stream's last, which a version that only
// increases never gives) nothing is written.
const RedisScript& CommitScript() {
  static const RedisScript* const script = new RedisScript(absl::StrCat(
      R"lua(
local cur = redis.call('GETRANGE', KEYS[1], 0, )lua",
      kMaxHeadBytes, R"lua()
if cur == '' and ARGV[1] ~= '' then return {0, ''} end
local head = string.match(cur, '^[^:]*:[^:]*') or cur
if head == ARGV[2] then
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  return {1, head}
end
if head ~= ARGV[1] then return {3, head} end
local limit = tonumber(ARGV[8])
local now = tonumber(redis.call('TIME')[1])
if limit > 0 and ARGV[1] == '' and ARGV[7] ~= '1' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  local n = redis.call('ZCARD', KEYS[3])
  if n >= limit then return {4, tostring(n)} end
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ')lua",
      kWatchStreamMaxLen, R"lua(', ARGV[5], ')lua", kWatchFieldToken, R"lua(', ARGV[3], ')lua",
      kWatchFieldFirstOp, R"lua(', ARGV[6], ')lua", kWatchFieldEnded, R"lua(', ARGV[7])
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[3], 'EX', ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
if ARGV[7] == '1' then
  redis.call('ZREM', KEYS[3], ARGV[9])
else
  local ttl = tonumber(ARGV[4])
  redis.call('ZADD', KEYS[3], now + ttl, ARGV[9])
  if redis.call('TTL', KEYS[3]) < ttl then redis.call('EXPIRE', KEYS[3], ttl) end
end
return {2, head}
)lua"));
  return *script;
}

// The head of an entry's value: "<version>:<token name>". The value is
// "<head>:<token bytes>" (or the head alone, written before tokens were kept).
std::string Head(const LedgerEntry& e) { return absl::StrCat(e.version, ":", e.name); }
absl::string_view HeadOf(absl::string_view value) {
  const size_t first = value.find(':');
  if (first == absl::string_view::npos) return value;
  return value.substr(0, value.find(':', first + 1));
}

uint64_t VersionOf(absl::string_view value) {
  uint64_t v = 0;
  (void)absl::SimpleAtoi(value.substr(0, value.find(':')), &v);
  return v;
}
// The token name of a head ("" for a value without one).
absl::string_view NameOf(absl::string_view head) {
  const size_t colon = head.find(':');
  return colon == absl::string_view::npos ? "" : head.substr(colon + 1);
}

// A version a call names, and how it names its token there.
struct Named {
  uint64_t version = 0;
  TokenNaming naming = TokenNaming::kDigest;
};
Named NamedAs(const LedgerEntry& e) { return {e.version, NamingOf(e.name)}; }

// Check's and the commit script's answer when the entry's head is not the
// one the call expected: superseded by a later version, or behind the token
// (the ledger lost writes). `token_version` is the version of the token the
// call opened; `named` every version the call names.
LedgerResult NotLatestResult(uint64_t token_version, absl::string_view head,
                             std::initializer_list<Named> named) {
  const uint64_t entry_version = VersionOf(head);
  LedgerResult out{.outcome = entry_version < token_version ? LedgerOutcome::kBehind
                                                            : LedgerOutcome::kSuperseded,
                   .latest_version = entry_version,
                   .latest_name = std::string(NameOf(head))};
  if (out.outcome != LedgerOutcome::kSuperseded || out.latest_name.empty()) return out;
  const TokenNaming entry_naming = NamingOf(out.latest_name);
  for (const Named& n : named) {
    out.named_otherwise |= n.version == entry_version && n.naming != entry_naming;
  }
  return out;
}

constexpr const char* kOps[] = {"create", "advance", "check", "latest"};  // Count's `op`
constexpr const char* kResults[] = {"applied",         "retry",           "latest",
                                    "superseded",      "missing",         "behind",
                                    "hands_exhausted", "named_otherwise", "unavailable"};
constexpr size_t kNamedOtherwise = std::size(kResults) - 2;
constexpr size_t kUnavailable = std::size(kResults) - 1;

// Index into kResults.
size_t ResultIndex(const absl::Status& status, LedgerOutcome outcome, bool named_otherwise) {
  if (!status.ok()) return kUnavailable;
  if (named_otherwise) return kNamedOtherwise;
  switch (outcome) {
    case LedgerOutcome::kApplied:
      return 0;
    case LedgerOutcome::kRetry:
      return 1;
    case LedgerOutcome::kLatest:
      return 2;
    case LedgerOutcome::kSuperseded:
      return 3;
    case LedgerOutcome::kMissing:
      return 4;
    case LedgerOutcome::kBehind:
      return 5;
    case LedgerOutcome::kHandsExhausted:
      return 6;
  }
  return kUnavailable;
}

}  // namespace

// Every series made at start-up (at zero) and then used without a lookup.
struct RedisLedger::Metrics {
  prometheus::Counter* calls[std::size(kOps)][std::size(kResults)] = {};
  prometheus::Histogram* duration[std::size(kOps)] = {};
  prometheus::Counter* wait_short = nullptr;
};

// A WAIT holds the connection's replies for up to its timeout.
RedisLedger::RedisLedger(RedisLedgerOptions options, prometheus::Registry* registry)
    : options_(std::move(options)),
      metrics_(MakeMetrics(registry)),
      redis_(options_,
             options_.io_timeout +
                 (options_.wait_replicas > 0 ? options_.wait_timeout : absl::ZeroDuration()),
             registry) {}

RedisLedger::~RedisLedger() = default;

std::unique_ptr<RedisLedger::Metrics> RedisLedger::MakeMetrics(prometheus::Registry* to) {
  auto metrics = std::make_unique<Metrics>();
  if (to == nullptr) return metrics;
  prometheus::Registry& registry = *to;
  auto& calls = prometheus::BuildCounter()
                    .Name("stud_ledger_calls_total")
                    .Help(
                        "Hand ledger calls by operation and result (result=unavailable: "
                        "refused, fail closed; result=named_otherwise: the entry names the "
                        "token the other way, --ledger_token_names, and the call asks again)")
                    .Register(registry);
  auto& duration = prometheus::BuildHistogram()
                       .Name("stud_ledger_call_duration_seconds")
                       .Help("Hand ledger round trip time by operation (failed calls included)")
                       .Register(registry);
  metrics->wait_short =
      &prometheus::BuildCounter()
           .Name("stud_ledger_wait_short_total")
           .Help(
               "Ledger writes that fewer replicas than --ledger_wait_replicas acknowledged in "
               "time (the call was UNAVAILABLE; its exact retry completes it)")
           .Register(registry)
           .Add({});
  const prometheus::Histogram::BucketBoundaries buckets{
      0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1};
  for (size_t o = 0; o < std::size(kOps); ++o) {
    metrics->duration[o] = &duration.Add({{"op", kOps[o]}}, buckets);
    for (size_t r = 0; r < std::size(kResults); ++r) {
      metrics->calls[o][r] = &calls.Add({{"op", kOps[o]}, {"result", kResults[r]}});
    }
  }
  return metrics;
}

int64_t RedisLedger::Ttl(bool ended) const {
  return std::max<int64_t>(1, ended ? options_.ttl_ended_seconds : options_.ttl_in_play_seconds);
}

void RedisLedger::Count(int op, absl::Time start, const absl::Status& status, LedgerOutcome outcome,
                        bool named_otherwise) {
  if (metrics_->wait_short != nullptr) {
    metrics_->calls[op][ResultIndex(status, outcome, named_otherwise)]->Increment();
    metrics_->duration[op]->Observe(absl::ToDoubleSeconds(absl::Now() - start));
  }
}

LedgerDone RedisLedger::Recorded(int op, LedgerDone done) {
  return [this, op, start = absl::Now(),
          done = std::move(done)](absl::StatusOr<LedgerResult> r) mutable {
    Count(op, start, r.status(), r.ok() ? r->outcome : LedgerOutcome::kMissing,
          r.ok() && r->named_otherwise);
    std::move(done)(std::move(r));
  };
}

// The script's answer: {code, head of the entry now}.
absl::StatusOr<LedgerResult> RedisLedger::CommitResult(const RedisPipeline::Reply& reply,
                                                       uint64_t from_version, uint64_t version,
                                                       TokenNaming from_naming,
                                                       TokenNaming naming) {
  const redisReply* a = reply.r.get();
  if (a->type != REDIS_REPLY_ARRAY || a->elements != 2 ||
      a->element[0]->type != REDIS_REPLY_INTEGER || a->element[1]->type != REDIS_REPLY_STRING) {
    return LedgerUnavailable("unexpected reply to the ledger script");
  }
  const absl::string_view head(a->element[1]->str, a->element[1]->len);
  switch (a->element[0]->integer) {
    case 0:
      return LedgerResult{LedgerOutcome::kMissing, 0};
    case 1:
      return LedgerResult{LedgerOutcome::kRetry, VersionOf(head)};
    case 2:
      return LedgerResult{LedgerOutcome::kApplied, version};
    case 4:
      return LedgerResult{LedgerOutcome::kHandsExhausted, 0, VersionOf(head)};
    default:
      return NotLatestResult(from_version, head, {{from_version, from_naming}, {version, naming}});
  }
}

void RedisLedger::Commit(const std::string& key, absl::string_view from, uint64_t from_version,
                         TokenNaming from_naming, const LedgerCommit& to, LedgerDone done) {
  const uint64_t version = to.entry.version;
  const TokenNaming naming = NamingOf(to.entry.name);
  // Written as the command's bytes before SubmitScript returns: the
  // temporaries may go with this statement.
  redis_.SubmitScript(
      CommitScript(),
      {"3", key, absl::StrCat(key, kWatchStreamSuffix), LiveHandsKey(key), from, Head(to.entry),
       to.token, absl::StrCat(Ttl(to.ended)), WatchStreamId(version), absl::StrCat(to.first_op),
       to.ended ? "1" : "0", absl::StrCat(std::max<int64_t>(0, options_.max_hands_per_tenant)),
       HandIdOfKey(key)},
      [this, from_version, version, from_naming, naming,
       done = std::move(done)](absl::StatusOr<RedisPipeline::Reply> r) mutable {
        if (!r.ok()) return std::move(done)(r.status());
        absl::StatusOr<LedgerResult> out =
            CommitResult(*r, from_version, version, from_naming, naming);
        const bool wrote = out.ok() && (out->outcome == LedgerOutcome::kApplied ||
                                        out->outcome == LedgerOutcome::kRetry);
        if (!wrote || options_.wait_replicas <= 0) return std::move(done)(std::move(out));
        // Acknowledged by enough replicas, on the connection that wrote (a WAIT
        // counts that connection's writes). Queued from the pipeline's own
        // thread: it goes in the next batch.
        const int64_t ms = std::max<int64_t>(1, absl::ToInt64Milliseconds(options_.wait_timeout));
        redis_.Submit({"WAIT", absl::StrCat(options_.wait_replicas), absl::StrCat(ms)},
                      [this, ms, connection = r->connection, out = *out,
                       done = std::move(done)](absl::StatusOr<RedisPipeline::Reply> w) mutable {
                        std::move(done)(Acknowledged(w, connection, ms, out));
                      });
      });
}

absl::StatusOr<LedgerResult> RedisLedger::Acknowledged(
    const absl::StatusOr<RedisPipeline::Reply>& w, uint64_t connection, int64_t ms,
    const LedgerResult& out) {
  if (!w.ok()) return w.status();
  if (w->connection != connection) {
    return LedgerUnavailable(
        "the connection to redis changed between the write and its WAIT (a failover?)");
  }
  if (w->r->type != REDIS_REPLY_INTEGER || w->r->integer < options_.wait_replicas) {
    if (metrics_->wait_short != nullptr) metrics_->wait_short->Increment();
    return LedgerUnavailable(absl::StrCat(
        "the write reached ", w->r->type == REDIS_REPLY_INTEGER ? w->r->integer : 0, " of ",
        options_.wait_replicas, " replicas within ", ms, " ms (--ledger_wait_replicas)"));
  }
  return out;
}

void RedisLedger::StartCreate(const std::string& key, const LedgerCommit& commit, LedgerDone done) {
  Commit(key, "", 0, NamingOf(commit.entry.name), commit, Recorded(0, std::move(done)));
}

void RedisLedger::StartAdvance(const std::string& key, const LedgerEntry& from,
                               const LedgerCommit& to, LedgerDone done) {
  Commit(key, Head(from), from.version, NamingOf(from.name), to, Recorded(1, std::move(done)));
}

void RedisLedger::StartCheck(const std::string& key, const LedgerEntry& entry, LedgerDone done) {
  // The head and one byte more, not the token; "" when there is no entry.
  redis_.Submit(
      {"GETRANGE", key, "0", absl::StrCat(kMaxHeadBytes)},
      [head_wanted = Head(entry), named = NamedAs(entry),
       done = Recorded(2, std::move(done))](absl::StatusOr<RedisPipeline::Reply> r) mutable {
        if (!r.ok()) return std::move(done)(r.status());
        if (r->r->type != REDIS_REPLY_STRING || r->r->len == 0)
          return std::move(done)(LedgerResult{LedgerOutcome::kMissing, 0});
        const absl::string_view head = HeadOf(absl::string_view(r->r->str, r->r->len));
        if (head != head_wanted) {
          return std::move(done)(NotLatestResult(named.version, head, {named}));
        }
        std::move(done)(LedgerResult{LedgerOutcome::kLatest, named.version});
      });
}

// GET's answer: the value "<head>:<token>", or none.
absl::StatusOr<LedgerLatest> RedisLedger::LatestResult(
    const absl::StatusOr<RedisPipeline::Reply>& r) {
  if (!r.ok()) return r.status();
  if (r->r->type != REDIS_REPLY_STRING) return LedgerLatest{};
  const absl::string_view value(r->r->str, r->r->len);
  const absl::string_view head = HeadOf(value);
  LedgerLatest out{LedgerOutcome::kMissing, VersionOf(head), ""};
  if (head.size() < value.size()) {  // an entry written before tokens were kept has none
    out.outcome = LedgerOutcome::kLatest;
    out.token = std::string(value.substr(head.size() + 1));
  }
  return out;
}

void RedisLedger::StartLatest(const std::string& key, LatestDone done) {
  redis_.Submit({"GET", key}, [this, start = absl::Now(), done = std::move(done)](
                                  absl::StatusOr<RedisPipeline::Reply> r) mutable {
    absl::StatusOr<LedgerLatest> latest = LatestResult(r);
    Count(3, start, latest.status(), latest.ok() ? latest->outcome : LedgerOutcome::kMissing);
    std::move(done)(std::move(latest));
  });
}

// Run rather than Waited(StartLatest): refused on the pipeline's own thread
// instead of waiting there for itself.
absl::StatusOr<LedgerLatest> RedisLedger::Latest(const std::string& key) {
  const absl::Time start = absl::Now();
  absl::StatusOr<LedgerLatest> latest = LatestResult(redis_.Run({"GET", key}));
  Count(3, start, latest.status(), latest.ok() ? latest->outcome : LedgerOutcome::kMissing);
  return latest;
}

absl::Status RedisLedger::Ping() {
  absl::StatusOr<RedisPipeline::Reply> r = redis_.Run({"PING"});
  return r.ok() ? absl::OkStatus() : r.status();
}

}  // namespace stud::service
