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

namespace stud::service {
namespace {

// The longest head: a 20-digit version, a colon and 32 hex digits. Check
// and the commit script read this much and one byte more, not the token.
constexpr size_t kMaxHeadBytes = 20 + 1 + 32;

// The compare-and-set of Create and Advance, which also publishes the change
// (ledger.h, the watch stream). KEYS[1] the hand's entry, KEYS[2] its watch
// stream; ARGV[1] the entry the call read ("<version>:<digest>", "" for
// Create), ARGV[2] the entry it writes, ARGV[3] the new token, ARGV[4] the
// expiry in seconds, ARGV[5] the stream entry ID, ARGV[6] first_op, ARGV[7]
// ended ("1"/"0"). Only the head of a value ("<version>:<digest>", before the
// token) is read and compared (GETRANGE: a retry or a refusal never copies the
// token), so entries written before tokens were kept compare too; a missing
// key reads as "".
// Replies {0, ""} no entry (Advance), {1, head} already the new entry (the
// exact retry: nothing is appended), {2, head} written, {3, head} superseded
// by `head`. XADD goes first: if it fails (an ID not above the stream's last,
// which a version that only increases never gives) nothing is written.
const std::string& CommitScript() {
  static const std::string* const script = new std::string(absl::StrCat(
      R"lua(
local cur = redis.call('GETRANGE', KEYS[1], 0, )lua",
      kMaxHeadBytes, R"lua()
if cur == '' and ARGV[1] ~= '' then return {0, ''} end
local head = string.match(cur, '^[^:]*:[^:]*') or cur
if head == ARGV[2] then return {1, head} end
if head ~= ARGV[1] then return {3, head} end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ')lua",
      kWatchStreamMaxLen, R"lua(', ARGV[5], ')lua", kWatchFieldToken, R"lua(', ARGV[3], ')lua",
      kWatchFieldFirstOp, R"lua(', ARGV[6], ')lua", kWatchFieldEnded, R"lua(', ARGV[7])
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[3], 'EX', ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
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
constexpr const char* kResults[] = {"applied",    "retry",   "latest",
                                    "superseded", "missing", "unavailable"};

// Index into kResults.
size_t ResultIndex(const absl::Status& status, LedgerOutcome outcome) {
  if (!status.ok()) return 5;
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
  }
  return 5;
}

}  // namespace

struct RedisLedger::Reply {
  std::unique_ptr<redisReply, void (*)(void*)> r{nullptr, freeReplyObject};
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
};

absl::StatusOr<RedisLedgerOptions> ParseLedgerUrl(absl::string_view url) {
  constexpr absl::string_view kScheme = "redis://";
  if (url.substr(0, kScheme.size()) != kScheme) {
    return absl::InvalidArgumentError(
        absl::StrCat("--ledger: expected redis://HOST:PORT, got '", url, "'"));
  }
  absl::string_view rest = url.substr(kScheme.size());
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  RedisLedgerOptions out;
  if (size_t at = rest.rfind('@'); at != absl::string_view::npos) {
    absl::string_view user = rest.substr(0, at);
    const size_t colon = user.find(':');
    out.password = std::string(colon == absl::string_view::npos ? user : user.substr(colon + 1));
    rest = rest.substr(at + 1);
  }
  if (rest.find('/') != absl::string_view::npos) {
    return absl::InvalidArgumentError(
        "--ledger: a database number is not supported (keys live in database 0)");
  }
  const size_t colon = rest.rfind(':');
  out.host = std::string(colon == absl::string_view::npos ? rest : rest.substr(0, colon));
  if (colon != absl::string_view::npos &&
      (!absl::SimpleAtoi(rest.substr(colon + 1), &out.port) || out.port < 1 || out.port > 65535)) {
    return absl::InvalidArgumentError(absl::StrCat("--ledger: bad port in '", url, "'"));
  }
  if (out.host.empty())
    return absl::InvalidArgumentError(absl::StrCat("--ledger: no host in '", url, "'"));
  return out;
}

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

redisContext* RedisLedger::Connect(std::string* error) const {
  redisContext* c = redisConnectWithTimeout(options_.host.c_str(), options_.port,
                                            absl::ToTimeval(options_.connect_timeout));
  if (c == nullptr || c->err != 0) {
    *error = absl::StrCat("cannot connect to redis at ", options_.host, ":", options_.port, ": ",
                          c != nullptr ? c->errstr : "out of memory");
    if (c != nullptr) redisFree(c);
    return nullptr;
  }
  redisSetTimeout(c, absl::ToTimeval(options_.io_timeout));
  redisEnableKeepAlive(c);
  if (!options_.password.empty()) {
    auto* r = static_cast<redisReply*>(
        redisCommand(c, "AUTH %b", options_.password.data(), options_.password.size()));
    const bool ok = r != nullptr && r->type != REDIS_REPLY_ERROR;
    *error = r == nullptr ? std::string("redis AUTH: ") + c->errstr
                          : absl::StrCat("redis AUTH refused: ", absl::string_view(r->str, r->len));
    if (r != nullptr) freeReplyObject(r);
    if (!ok) {
      redisFree(c);
      return nullptr;
    }
  }
  return c;
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
  size_t next = 0;  // the first command without a result
  std::string error;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool reused = connection_ != nullptr;
    if (connection_ == nullptr) connection_ = Connect(&error);
    if (connection_ == nullptr) break;
    for (size_t i = next; i < batch.size(); ++i) {
      std::vector<const char*> argv;
      std::vector<size_t> argvlen;
      for (const std::string& a : *batch[i]->args) {
        argv.push_back(a.data());
        argvlen.push_back(a.size());
      }
      redisAppendCommandArgv(connection_, static_cast<int>(argv.size()), argv.data(),
                             argvlen.data());
    }
    bool timed_out = false;
    for (; next < batch.size(); ++next) {  // the first read sends the whole batch
      void* raw = nullptr;
      if (redisGetReply(connection_, &raw) != REDIS_OK) {
        timed_out = connection_->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
        error = timed_out ? absl::StrCat("redis at ", options_.host, ":", options_.port,
                                         " did not answer within ",
                                         absl::FormatDuration(options_.io_timeout))
                          : absl::StrCat("redis at ", options_.host, ":", options_.port, ": ",
                                         connection_->errstr);
        redisFree(connection_);
        connection_ = nullptr;
        break;
      }
      Reply reply;
      reply.r.reset(static_cast<redisReply*>(raw));
      if (reply.r->type == REDIS_REPLY_ERROR) {
        // LOADING (restarting), READONLY (a replica after failover), OOM, ...
        batch[next]->result = LedgerUnavailable(
            absl::StrCat("redis error: ", absl::string_view(reply.r->str, reply.r->len)));
      } else {
        batch[next]->result = std::move(reply);
      }
    }
    if (next == batch.size()) return;
    // A connection the server closed (it restarted): the rest once more on a
    // fresh one. A timeout is not retried (the wait would double).
    if (!reused || timed_out) break;
  }
  for (; next < batch.size(); ++next) {
    if (metrics_->unreachable != nullptr) metrics_->unreachable->Increment();
    batch[next]->result = LedgerUnavailable(error);
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
                                                 const LedgerCommit& to) {
  const uint64_t version = to.entry.version;
  absl::StatusOr<Reply> r =
      Run({"EVAL", CommitScript(), "2", key, absl::StrCat(key, kWatchStreamSuffix), std::move(from),
           Head(to.entry), to.token, absl::StrCat(Ttl(to.ended)), WatchStreamId(version),
           absl::StrCat(to.first_op), to.ended ? "1" : "0"});
  if (!r.ok()) return r.status();
  const redisReply* a = r->r.get();
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
    default:
      return LedgerResult{LedgerOutcome::kSuperseded, VersionOf(head)};
  }
}

absl::StatusOr<LedgerResult> RedisLedger::Create(const std::string& key,
                                                 const LedgerCommit& commit) {
  const absl::Time start = absl::Now();
  return Record(0, start, Commit(key, "", commit));
}

absl::StatusOr<LedgerResult> RedisLedger::Advance(const std::string& key, const LedgerEntry& from,
                                                  const LedgerCommit& to) {
  const absl::Time start = absl::Now();
  return Record(1, start, Commit(key, Head(from), to));
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
    return LedgerResult{head == Head(entry) ? LedgerOutcome::kLatest : LedgerOutcome::kSuperseded,
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
