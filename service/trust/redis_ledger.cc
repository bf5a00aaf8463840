#include "service/trust/redis_ledger.h"

#include <hiredis/hiredis.h>
#include <signal.h>
#include <sys/time.h>

#include <cerrno>
#include <condition_variable>
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
#include "service/observability/logging.h"

namespace stud::service {
namespace {

// The longest head: a 20-digit version, a colon and 32 hex digits. Check
// and the commit script read this much and one byte more, not the token.
constexpr size_t kMaxHeadBytes = 20 + 1 + 32;

// The compare-and-set of Create and Advance, which also publishes the change
// (ledger.h, the watch stream). KEYS[1] the hand's entry, KEYS[2] its watch
// stream, KEYS[3] the tenant's live hands (LiveHandsKey); ARGV[1] the entry
// the call read ("<version>:<digest>", "" for Create), ARGV[2] the entry it
// writes, ARGV[3] the new token, ARGV[4] the expiry in seconds, ARGV[5] the
// stream entry ID, ARGV[6] first_op, ARGV[7] ended ("1"/"0"), ARGV[8] the
// tenant's limit of live hands (0: none, KEYS[3] untouched), ARGV[9] the hand
// id. Only the head of a value ("<version>:<digest>", before the token) is
// read and compared (GETRANGE: a retry or a refusal never copies the token),
// so entries written before tokens were kept compare too; a missing key reads
// as "".
// Replies {0, ""} no entry (Advance), {1, head} already the new entry (the
// exact retry: nothing is appended; the expiry is set again, a write that
// WAIT then covers), {2, head} written, {3, head} superseded by `head`,
// {4, n} the tenant already has n live hands (Create). XADD goes first: if it
// fails (an ID not above the stream's last, which a version that only
// increases never gives) nothing is written.
const std::string& CommitScript() {
  static const std::string* const script = new std::string(absl::StrCat(
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
local now = 0
if limit > 0 then
  now = tonumber(redis.call('TIME')[1])
  if ARGV[1] == '' and ARGV[7] ~= '1' then
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
    local n = redis.call('ZCARD', KEYS[3])
    if n >= limit then return {4, tostring(n)} end
  end
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ')lua",
      kWatchStreamMaxLen, R"lua(', ARGV[5], ')lua", kWatchFieldToken, R"lua(', ARGV[3], ')lua",
      kWatchFieldFirstOp, R"lua(', ARGV[6], ')lua", kWatchFieldEnded, R"lua(', ARGV[7])
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[3], 'EX', ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
if limit > 0 then
  if ARGV[7] == '1' then
    redis.call('ZREM', KEYS[3], ARGV[9])
  else
    local ttl = tonumber(ARGV[4])
    redis.call('ZADD', KEYS[3], now + ttl, ARGV[9])
    if redis.call('TTL', KEYS[3]) < ttl then redis.call('EXPIRE', KEYS[3], ttl) end
  end
end
return {2, head}
)lua"));
  return *script;
}

// The head of an entry's value: "<version>:<digest hex>". The value is
// "<head>:<token bytes>" (or the head alone, written before tokens were kept).
std::string Head(const LedgerEntry& e) { return absl::StrCat(e.version, ":", e.digest); }
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

constexpr const char* kOps[] = {"create", "advance", "check", "latest"};  // Record's `op`
constexpr const char* kResults[] = {"applied", "retry",  "latest",          "superseded",
                                    "missing", "behind", "hands_exhausted", "unavailable"};
constexpr size_t kUnavailable = std::size(kResults) - 1;

// Index into kResults.
size_t ResultIndex(const absl::Status& status, LedgerOutcome outcome) {
  if (!status.ok()) return kUnavailable;
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

// The outcome when the entry's head is not the one the call expected:
// superseded by a later version, or behind the token (the ledger lost writes).
LedgerOutcome NotLatest(uint64_t token_version, uint64_t entry_version) {
  return entry_version < token_version ? LedgerOutcome::kBehind : LedgerOutcome::kSuperseded;
}

bool StartsWith(const redisReply* r, absl::string_view prefix) {
  return r->str != nullptr && absl::string_view(r->str, r->len).substr(0, prefix.size()) == prefix;
}

}  // namespace

struct RedisLedger::Reply {
  std::unique_ptr<redisReply, void (*)(void*)> r{nullptr, freeReplyObject};
  uint64_t connection = 0;  // connection_serial_ of the connection that answered
};

// One queued command: `done` (guarded by mu_) once `result` is final; `wake`
// when it is done or has become the front of the queue.
struct RedisLedger::Command {
  const std::vector<std::string>* args;
  absl::StatusOr<Reply> result = LedgerUnavailable("not sent");
  bool done = false;
  std::condition_variable wake;
};

// Every series made at start-up (at zero) and then used without a lookup.
struct RedisLedger::Metrics {
  prometheus::Counter* calls[std::size(kOps)][std::size(kResults)] = {};
  prometheus::Histogram* duration[std::size(kOps)] = {};
  prometheus::Counter* unreachable = nullptr;
  prometheus::Histogram* batch = nullptr;
  // By RedisConnectFailure (kNone unused).
  prometheus::Counter* connect_failures[5] = {};
  prometheus::Counter* master_changes = nullptr;
  prometheus::Counter* readonly = nullptr;
  prometheus::Counter* wait_short = nullptr;
};

RedisLedger::RedisLedger(RedisLedgerOptions options, prometheus::Registry* registry)
    : options_(std::move(options)), metrics_(std::make_unique<Metrics>()) {
  // hiredis writes with write(2): a write to a connection Redis has closed
  // must fail with EPIPE (and the call with UNAVAILABLE), not kill the process.
  signal(SIGPIPE, SIG_IGN);
  if (registry != nullptr) RegisterMetrics(*registry);
}

void RedisLedger::RegisterMetrics(prometheus::Registry& registry) {
  auto& calls = prometheus::BuildCounter()
                    .Name("stud_ledger_calls_total")
                    .Help(
                        "Hand ledger calls by operation and result (result=unavailable: "
                        "refused, fail closed)")
                    .Register(registry);
  auto& duration = prometheus::BuildHistogram()
                       .Name("stud_ledger_call_duration_seconds")
                       .Help("Hand ledger round trip time by operation (failed calls included)")
                       .Register(registry);
  metrics_->unreachable =
      &prometheus::BuildCounter()
           .Name("stud_ledger_unreachable_total")
           .Help("Redis commands that found no working connection (refused, timed out, broken)")
           .Register(registry)
           .Add({});
  metrics_->batch =
      &prometheus::BuildHistogram()
           .Name("stud_ledger_batch_commands")
           .Help("Redis commands sent together in one write (pipelined batches)")
           .Register(registry)
           .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128, 256});
  auto& failures = prometheus::BuildCounter()
                       .Name("stud_ledger_connect_failures_total")
                       .Help(
                           "Connections to the ledger's Redis that failed, by cause: unreachable, "
                           "no_master (no Sentinel named one), not_master (a replica: failover "
                           "under way), auth (password refused or missing)")
                       .Register(registry);
  for (RedisConnectFailure f : {RedisConnectFailure::kUnreachable, RedisConnectFailure::kNoMaster,
                                RedisConnectFailure::kNotMaster, RedisConnectFailure::kAuth}) {
    metrics_->connect_failures[static_cast<int>(f)] =
        &failures.Add({{"cause", RedisConnectFailureName(f)}});
  }
  metrics_->master_changes =
      &prometheus::BuildCounter()
           .Name("stud_ledger_master_changes_total")
           .Help("New ledger connections that went to another Redis than the last (a failover)")
           .Register(registry)
           .Add({});
  metrics_->readonly = &prometheus::BuildCounter()
                            .Name("stud_ledger_readonly_total")
                            .Help(
                                "Ledger writes refused READONLY (the connection was to a former "
                                "master, now a replica) and sent again to the current master")
                            .Register(registry)
                            .Add({});
  metrics_->wait_short =
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
    metrics_->duration[o] = &duration.Add({{"op", kOps[o]}}, buckets);
    for (size_t r = 0; r < std::size(kResults); ++r) {
      metrics_->calls[o][r] = &calls.Add({{"op", kOps[o]}, {"result", kResults[r]}});
    }
  }
}

RedisLedger::~RedisLedger() {
  if (connection_ != nullptr) redisFree(connection_);
}

int64_t RedisLedger::Ttl(bool ended) const {
  return std::max<int64_t>(1, ended ? options_.ttl_ended_seconds : options_.ttl_in_play_seconds);
}

redisContext* RedisLedger::Connect(std::string* error) {
  // A WAIT holds the connection's replies for up to its timeout.
  const absl::Duration read_timeout =
      options_.io_timeout +
      (options_.wait_replicas > 0 ? options_.wait_timeout : absl::ZeroDuration());
  RedisConnection c = ConnectLedgerRedis(options_, read_timeout);
  if (c.context == nullptr) {
    *error = std::move(c.error);
    if (metrics_->connect_failures[static_cast<int>(c.failure)] != nullptr)
      metrics_->connect_failures[static_cast<int>(c.failure)]->Increment();
    return nullptr;
  }
  ++connection_serial_;
  if (connection_serial_ > 1 && !(c.address == master_)) {
    if (metrics_->master_changes != nullptr) metrics_->master_changes->Increment();
    LogLine(LogLevel::kWarn, "ledger_master_changed")
        .Str("from", absl::StrCat(master_.host, ":", master_.port))
        .Str("to", absl::StrCat(c.address.host, ":", c.address.port));
  }
  master_ = c.address;
  return c.context;
}

absl::StatusOr<RedisLedger::Reply> RedisLedger::Run(const std::vector<std::string>& args) {
  Command command{&args};
  std::unique_lock<std::mutex> lock(mu_);
  queue_.push_back(&command);
  command.wake.wait(lock, [&] { return command.done || queue_.front() == &command; });
  if (command.done) return std::move(command.result);
  // The front of the queue leads: it sends the commands queued so far as one
  // batch while later callers queue up behind it for the next.
  std::vector<Command*> batch;
  for (Command* c : queue_) {
    if (static_cast<int>(batch.size()) == options_.max_batch) break;
    batch.push_back(c);
  }
  lock.unlock();
  Send(batch);
  lock.lock();
  for (Command* c : batch) {
    queue_.pop_front();
    c->done = true;
    if (c != &command) c->wake.notify_one();
  }
  if (!queue_.empty()) queue_.front()->wake.notify_one();  // the next leader
  return std::move(command.result);
}

void RedisLedger::Send(const std::vector<Command*>& batch) {
  if (metrics_->batch != nullptr) metrics_->batch->Observe(static_cast<double>(batch.size()));
  std::vector<Command*> todo = batch;  // the commands without a final result
  std::string error;
  for (int attempt = 0; attempt < 2 && !todo.empty(); ++attempt) {
    const bool reused = connection_ != nullptr;
    if (connection_ == nullptr) connection_ = Connect(&error);
    if (connection_ == nullptr) break;
    for (Command* c : todo) {
      std::vector<const char*> argv;
      std::vector<size_t> argvlen;
      for (const std::string& a : *c->args) {
        argv.push_back(a.data());
        argvlen.push_back(a.size());
      }
      redisAppendCommandArgv(connection_, static_cast<int>(argv.size()), argv.data(),
                             argvlen.data());
    }
    std::vector<Command*> again;  // to send once more on a fresh connection
    bool timed_out = false;
    bool broken = false;
    bool demoted = false;
    const std::string where = absl::StrCat(master_.host, ":", master_.port);
    for (size_t i = 0; i < todo.size(); ++i) {  // the first read sends the whole batch
      void* raw = nullptr;
      if (broken || redisGetReply(connection_, &raw) != REDIS_OK) {
        if (!broken) {
          timed_out = connection_->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
          error = timed_out ? absl::StrCat("redis at ", where, " did not answer within ",
                                           absl::FormatDuration(options_.io_timeout))
                            : absl::StrCat("redis at ", where, ": ", connection_->errstr);
          broken = true;
        }
        again.push_back(todo[i]);
        continue;
      }
      Reply reply;
      reply.r.reset(static_cast<redisReply*>(raw));
      reply.connection = connection_serial_;
      if (reply.r->type != REDIS_REPLY_ERROR) {
        todo[i]->result = std::move(reply);
      } else if (StartsWith(reply.r.get(), "READONLY")) {
        // A former master, now a replica (a failover): nothing was written.
        // Ask the Sentinels again and send it to the master they name now.
        demoted = true;
        if (metrics_->readonly != nullptr) metrics_->readonly->Increment();
        error = absl::StrCat("redis at ", where, " is now a replica (READONLY)");
        again.push_back(todo[i]);
      } else {
        // LOADING (restarting), OOM, NOAUTH, ...
        todo[i]->result = LedgerUnavailable(
            absl::StrCat("redis error: ", absl::string_view(reply.r->str, reply.r->len)));
      }
    }
    if (broken || demoted) {
      redisFree(connection_);
      connection_ = nullptr;
    }
    todo = std::move(again);
    // A connection the server closed (it restarted) or a demoted master: the
    // rest once more on a fresh one. A timeout is not retried (the wait would double).
    if (broken && (!reused || timed_out)) break;
  }
  for (Command* c : todo) {
    if (metrics_->unreachable != nullptr) metrics_->unreachable->Increment();
    c->result = LedgerUnavailable(error);
  }
}

void RedisLedger::Count(int op, absl::Time start, const absl::Status& status,
                        LedgerOutcome outcome) {
  if (metrics_->unreachable != nullptr) {
    metrics_->calls[op][ResultIndex(status, outcome)]->Increment();
    metrics_->duration[op]->Observe(absl::ToDoubleSeconds(absl::Now() - start));
  }
}

absl::StatusOr<LedgerResult> RedisLedger::Record(int op, absl::Time start,
                                                 absl::StatusOr<LedgerResult> r) {
  Count(op, start, r.status(), r.ok() ? r->outcome : LedgerOutcome::kMissing);
  return r;
}

absl::StatusOr<LedgerResult> RedisLedger::Commit(const std::string& key, std::string from,
                                                 uint64_t from_version, const LedgerCommit& to) {
  const uint64_t version = to.entry.version;
  absl::StatusOr<Reply> r =
      Run({"EVAL", CommitScript(), "3", key, absl::StrCat(key, kWatchStreamSuffix),
           LiveHandsKey(key), std::move(from), Head(to.entry), to.token,
           absl::StrCat(Ttl(to.ended)), WatchStreamId(version), absl::StrCat(to.first_op),
           to.ended ? "1" : "0", absl::StrCat(std::max<int64_t>(0, options_.max_hands_per_tenant)),
           std::string(HandIdOfKey(key))});
  if (!r.ok()) return r.status();
  const redisReply* a = r->r.get();
  if (a->type != REDIS_REPLY_ARRAY || a->elements != 2 ||
      a->element[0]->type != REDIS_REPLY_INTEGER || a->element[1]->type != REDIS_REPLY_STRING) {
    return LedgerUnavailable("unexpected reply to the ledger script");
  }
  const absl::string_view head(a->element[1]->str, a->element[1]->len);
  LedgerResult out;
  switch (a->element[0]->integer) {
    case 0:
      return LedgerResult{LedgerOutcome::kMissing, 0};
    case 1:
      out = LedgerResult{LedgerOutcome::kRetry, VersionOf(head)};
      break;
    case 2:
      out = LedgerResult{LedgerOutcome::kApplied, version};
      break;
    case 4:
      return LedgerResult{LedgerOutcome::kHandsExhausted, 0, VersionOf(head)};
    default:
      return LedgerResult{NotLatest(from_version, VersionOf(head)), VersionOf(head)};
  }
  if (options_.wait_replicas > 0) {
    const int64_t ms = std::max<int64_t>(1, absl::ToInt64Milliseconds(options_.wait_timeout));
    absl::StatusOr<Reply> w = Run({"WAIT", absl::StrCat(options_.wait_replicas), absl::StrCat(ms)});
    if (!w.ok()) return w.status();
    if (w->connection != r->connection) {
      return LedgerUnavailable(
          "the connection to redis changed between the write and its WAIT (a failover?)");
    }
    if (w->r->type != REDIS_REPLY_INTEGER || w->r->integer < options_.wait_replicas) {
      if (metrics_->wait_short != nullptr) metrics_->wait_short->Increment();
      return LedgerUnavailable(absl::StrCat(
          "the write reached ", w->r->type == REDIS_REPLY_INTEGER ? w->r->integer : 0, " of ",
          options_.wait_replicas, " replicas within ", ms, " ms (--ledger_wait_replicas)"));
    }
  }
  return out;
}

absl::StatusOr<LedgerResult> RedisLedger::Create(const std::string& key,
                                                 const LedgerCommit& commit) {
  const absl::Time start = absl::Now();
  return Record(0, start, Commit(key, "", 0, commit));
}

absl::StatusOr<LedgerResult> RedisLedger::Advance(const std::string& key, const LedgerEntry& from,
                                                  const LedgerCommit& to) {
  const absl::Time start = absl::Now();
  return Record(1, start, Commit(key, Head(from), from.version, to));
}
absl::StatusOr<LedgerResult> RedisLedger::Check(const std::string& key, const LedgerEntry& entry) {
  const absl::Time start = absl::Now();
  auto result = [&]() -> absl::StatusOr<LedgerResult> {
    // The head and one byte more, not the token; "" when there is no entry.
    absl::StatusOr<Reply> r = Run({"GETRANGE", key, "0", absl::StrCat(kMaxHeadBytes)});
    if (!r.ok()) return r.status();
    if (r->r->type != REDIS_REPLY_STRING || r->r->len == 0)
      return LedgerResult{LedgerOutcome::kMissing, 0};
    const absl::string_view head = HeadOf(absl::string_view(r->r->str, r->r->len));
    return LedgerResult{
        head == Head(entry) ? LedgerOutcome::kLatest : NotLatest(entry.version, VersionOf(head)),
        VersionOf(head)};
  }();
  return Record(2, start, std::move(result));
}

absl::StatusOr<LedgerLatest> RedisLedger::Latest(const std::string& key) {
  const absl::Time start = absl::Now();
  auto result = [&]() -> absl::StatusOr<LedgerLatest> {
    absl::StatusOr<Reply> r = Run({"GET", key});
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
  }();
  Count(3, start, result.status(), result.ok() ? result->outcome : LedgerOutcome::kMissing);
  return result;
}

absl::Status RedisLedger::Ping() {
  absl::StatusOr<Reply> r = Run({"PING"});
  return r.ok() ? absl::OkStatus() : r.status();
}

}  // namespace stud::service
