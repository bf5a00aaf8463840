#include "service/trust/redis_pipeline.h"

#include <hiredis/hiredis.h>
#include <openssl/sha.h>

#include <cerrno>
#include <charconv>
#include <ctime>
#include <iterator>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "service/api/status_mapping.h"
#include "service/observability/logging.h"
#include "service/observability/thread_name.h"
#include "service/trust/waited.h"

namespace stud::service {
namespace {

// The calling thread's own CPU time: what it spent running, not waiting on
// its queue or on the Redis socket.
double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

bool StartsWith(const redisReply* r, absl::string_view prefix) {
  return r->str != nullptr && absl::string_view(r->str, r->len).substr(0, prefix.size()) == prefix;
}

// RESP: an array of `argc` bulk strings, "*<argc>\r\n" then "$<size>\r\n<bytes>\r\n" each.
// Appended piece by piece into reserved room (absl::StrAppend of five pieces
// took about twice the instructions).
void AppendCountLine(char kind, size_t n, std::string* out) {
  char digits[20];
  const char* const end = std::to_chars(digits, digits + sizeof(digits), n).ptr;
  out->push_back(kind);
  out->append(digits, static_cast<size_t>(end - digits));
  out->append("\r\n", 2);
}
void AppendArrayHeader(size_t argc, std::string* out) { AppendCountLine('*', argc, out); }
void AppendBulk(absl::string_view arg, std::string* out) {
  AppendCountLine('$', arg.size(), out);
  out->append(arg.data(), arg.size());
  out->append("\r\n", 2);
}
// The bytes `args` take as bulk strings: 1 + digits + 2 + size + 2 each.
size_t BulkSize(std::initializer_list<absl::string_view> args) {
  size_t n = 0;
  for (absl::string_view a : args) n += a.size() + 25;  // 25: "$", up to 20 digits, 2 x "\r\n"
  return n;
}

constexpr RedisConnectFailure kFailures[] = {
    RedisConnectFailure::kUnreachable, RedisConnectFailure::kNoMaster,
    RedisConnectFailure::kNotMaster, RedisConnectFailure::kAuth,
    RedisConnectFailure::kSentinelAuth};

}  // namespace

RedisScript::RedisScript(std::string script)
    : text(std::move(script)), sha([this] {
        unsigned char digest[SHA_DIGEST_LENGTH];
        SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
        return absl::BytesToHexString(
            absl::string_view(reinterpret_cast<const char*>(digest), sizeof(digest)));
      }()) {}

// One queued command; `result` is final once Send has seen it.
struct RedisPipeline::Command {
  std::string resp;  // the command in RESP, as sent
  Done done;
  // Always set by Send; until then a code alone (no message to allocate).
  absl::StatusOr<Reply> result = absl::UnavailableError("");
  const RedisScript* script = nullptr;  // SubmitScript's: `resp` is EVALSHA, the SHA-1, ...
  size_t after_sha = 0;                 // ... and from here the number of keys, keys, arguments
  bool by_text = false;                 // sent once more as EVAL with the text (NOSCRIPT)

  // The same command as EVAL with the script's text, which caches it in that Redis.
  void UseScriptText() {
    const size_t header = resp.find('\n') + 1;  // "*<argc>\r\n": the same number of arguments
    std::string eval = resp.substr(0, header);
    AppendBulk("EVAL", &eval);
    AppendBulk(script->text, &eval);
    eval.append(resp, after_sha);
    resp = std::move(eval);
    by_text = true;
  }
};

// Every series made at start-up (at zero) and then used without a lookup.
struct RedisPipeline::Metrics {
  prometheus::Counter* unreachable = nullptr;
  prometheus::Histogram* batch = nullptr;
  prometheus::Counter* busy = nullptr;
  // By RedisConnectFailure (kNone unused).
  prometheus::Counter* connect_failures[std::size(kFailures) + 1] = {};
  prometheus::Counter* master_changes = nullptr;
  prometheus::Counter* readonly = nullptr;
  prometheus::Counter* noscript = nullptr;
};

RedisPipeline::RedisPipeline(RedisLedgerOptions options, absl::Duration read_timeout,
                             prometheus::Registry* registry)
    : options_(std::move(options)),
      read_timeout_(read_timeout),
      metrics_(std::make_unique<Metrics>()) {
  if (registry != nullptr) RegisterMetrics(*registry);
  thread_ = std::thread([this] {
    NameThisThread("stud-ledger");
    Loop();
  });
}

RedisPipeline::~RedisPipeline() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  queued_.notify_one();
  thread_.join();  // what was queued is sent and completed first
  if (connection_ != nullptr) redisFree(connection_);
}

void RedisPipeline::RegisterMetrics(prometheus::Registry& registry) {
  metrics_->unreachable =
      &prometheus::BuildCounter()
           .Name("stud_ledger_unreachable_total")
           .Help("Redis commands that found no working connection (refused, timed out, broken)")
           .Register(registry)
           .Add({});
  metrics_->busy =
      &prometheus::BuildCounter()
           .Name("stud_ledger_pipeline_busy_seconds_total")
           .Help(
               "CPU seconds of the ledger's pipeline thread (stud-ledger): sending batches, "
               "reading replies and finishing the calls; a rate near 1 means this replica's "
               "ledger path is saturated")
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
                           "under way), auth (password refused or missing), sentinel_auth (the "
                           "Sentinels refused their password or need one)")
                       .Register(registry);
  for (RedisConnectFailure f : kFailures) {
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
  metrics_->noscript = &prometheus::BuildCounter()
                            .Name("stud_ledger_noscript_total")
                            .Help(
                                "Ledger scripts a Redis did not have (NOSCRIPT: restarted, new "
                                "master, SCRIPT FLUSH), sent again with their text")
                            .Register(registry)
                            .Add({});
}

redisContext* RedisPipeline::Connect(std::string* error) {
  RedisConnection c = ConnectLedgerRedis(options_, read_timeout_);
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

void RedisPipeline::Submit(std::initializer_list<absl::string_view> args, Done done) {
  auto* command = new Command{.done = std::move(done)};
  command->resp.reserve(16 + BulkSize(args));
  AppendArrayHeader(args.size(), &command->resp);
  for (absl::string_view a : args) AppendBulk(a, &command->resp);
  Enqueue(command);
}

void RedisPipeline::Enqueue(Command* command) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(command);
  }
  queued_.notify_one();  // no system call when the thread is busy sending
}

void RedisPipeline::SubmitScript(const RedisScript& script,
                                 std::initializer_list<absl::string_view> numkeys_keys_args,
                                 Done done) {
  auto* command = new Command{.done = std::move(done), .script = &script};
  std::string& resp = command->resp;
  resp.reserve(16 + BulkSize({"EVALSHA", script.sha}) + BulkSize(numkeys_keys_args));
  AppendArrayHeader(2 + numkeys_keys_args.size(), &resp);
  AppendBulk("EVALSHA", &resp);
  AppendBulk(script.sha, &resp);
  command->after_sha = resp.size();
  for (absl::string_view a : numkeys_keys_args) AppendBulk(a, &resp);
  Enqueue(command);
}

absl::StatusOr<RedisPipeline::Reply> RedisPipeline::Run(
    std::initializer_list<absl::string_view> args) {
  if (std::this_thread::get_id() == thread_.get_id()) {
    return LedgerUnavailable("internal: a ledger completion waited on the ledger's own thread");
  }
  return Waited<absl::StatusOr<Reply>>([&](Done done) { Submit(args, std::move(done)); });
}

void RedisPipeline::Loop() {
  std::vector<Command*> batch;
  double cpu = ThreadCpuSeconds();
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    queued_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopped, and everything queued is answered
    // Everything queued so far (up to max_batch) in one write, while later
    // callers queue up behind it for the next.
    batch.clear();
    while (!queue_.empty() && static_cast<int>(batch.size()) < options_.max_batch) {
      batch.push_back(queue_.front());
      queue_.pop_front();
    }
    lock.unlock();
    Send(batch);
    for (Command* c : batch) {
      std::move(c->done)(std::move(c->result));
      delete c;
    }
    if (metrics_->busy != nullptr) {
      const double now = ThreadCpuSeconds();
      metrics_->busy->Increment(now - cpu);
      cpu = now;
    }
    lock.lock();
  }
}

void RedisPipeline::Send(const std::vector<Command*>& batch) {
  if (metrics_->batch != nullptr) metrics_->batch->Observe(static_cast<double>(batch.size()));
  std::vector<Command*> todo = batch;  // the commands without a final result
  std::string error;
  for (int attempt = 0; attempt < 2 && !todo.empty(); ++attempt) {
    const bool reused = connection_ != nullptr;
    if (connection_ == nullptr) connection_ = Connect(&error);
    if (connection_ == nullptr) break;
    for (Command* c : todo) {
      redisAppendFormattedCommand(connection_, c->resp.data(), c->resp.size());
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
      reply.r = {static_cast<redisReply*>(raw), freeReplyObject};
      reply.connection = connection_serial_;
      if (reply.r->type != REDIS_REPLY_ERROR) {
        todo[i]->result = std::move(reply);
      } else if (todo[i]->script != nullptr && !todo[i]->by_text &&
                 StartsWith(reply.r.get(), "NOSCRIPT")) {
        // Not run: this Redis does not have the script (yet). Once more with its text.
        if (metrics_->noscript != nullptr) metrics_->noscript->Increment();
        todo[i]->UseScriptText();
        error = absl::StrCat("redis at ", where, " does not have the ledger's script (NOSCRIPT)");
        again.push_back(todo[i]);
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

}  // namespace stud::service
