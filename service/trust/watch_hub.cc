#include "service/trust/watch_hub.h"

#include <hiredis/hiredis.h>
#include <sys/socket.h>

#include <algorithm>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "service/api/status_mapping.h"
#include "service/observability/thread_name.h"
#include "service/trust/ledger.h"

namespace stud::service {
namespace {

constexpr absl::Duration kMinBackoff = absl::Milliseconds(50);
constexpr absl::Duration kMaxBackoff = absl::Seconds(2);
constexpr absl::Duration kIdleCheckEvery = absl::Milliseconds(250);

using ReplyPtr = std::unique_ptr<redisReply, void (*)(void*)>;

absl::string_view Str(const redisReply* r) {
  return r != nullptr && r->str != nullptr ? absl::string_view(r->str, r->len)
                                           : absl::string_view();
}

// "<version>-<seq>" -> version.
bool VersionOfId(absl::string_view id, uint64_t* version) {
  return absl::SimpleAtoi(id.substr(0, id.find('-')), version);
}

// The XREAD ID after which version `next` and later are read ("<next-1>-1"
// exclusive; "0-0" for version 0, the deal).
std::string IdBefore(uint64_t next) { return next == 0 ? "0-0" : WatchStreamId(next - 1); }

// One entry of an XREAD/XRANGE reply: [id, [field, value, ...]]. Null when
// it is not a well-formed watch entry.
WatchEntryPtr ParseEntry(const redisReply* e, absl::Time now) {
  if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
      e->element[1]->type != REDIS_REPLY_ARRAY) {
    return nullptr;
  }
  auto out = std::make_shared<WatchEntry>();
  if (!VersionOfId(Str(e->element[0]), &out->version)) return nullptr;
  const redisReply* fields = e->element[1];
  bool has_token = false;
  for (size_t i = 0; i + 1 < fields->elements; i += 2) {
    const absl::string_view name = Str(fields->element[i]);
    const absl::string_view value = Str(fields->element[i + 1]);
    if (name == kWatchFieldToken) {
      out->token = std::string(value);
      has_token = true;
    } else if (name == kWatchFieldFirstOp) {
      (void)absl::SimpleAtoi(value, &out->first_op);
    } else if (name == kWatchFieldEnded) {
      out->ended = value == "1";
    }
  }
  out->read_at = now;
  return has_token ? out : nullptr;
}

}  // namespace

struct WatchHub::Metrics {
  prometheus::Gauge* watchers = nullptr;
  prometheus::Counter* messages = nullptr;
  prometheus::Histogram* lag = nullptr;
};

WatchHub::WatchHub(WatchHubOptions options, prometheus::Registry* registry)
    : options_(std::move(options)),
      wake_key_(absl::StrCat("stud:watch-wake:",
                             absl::Hex(absl::Uniform<uint64_t>(absl::BitGen()), absl::kZeroPad16))),
      metrics_(std::make_unique<Metrics>()) {
  if (registry != nullptr) {
    metrics_->watchers = &prometheus::BuildGauge()
                              .Name("stud_watchers")
                              .Help("Open WatchHand streams on this replica")
                              .Register(*registry)
                              .Add({});
    metrics_->messages =
        &prometheus::BuildCounter()
             .Name("stud_watch_messages_total")
             .Help("WatchHand messages handed to gRPC (one per version per watcher)")
             .Register(*registry)
             .Add({});
    metrics_->lag =
        &prometheus::BuildHistogram()
             .Name("stud_watch_delivery_lag_seconds")
             .Help(
                 "From the watch hub's XREAD returning a version to its message being handed to "
                 "gRPC for one watcher (queueing behind that watcher's earlier messages included; "
                 "the commit-to-XREAD part is not measured here)")
             .Register(*registry)
             .Add({}, prometheus::Histogram::BucketBoundaries{0.0001, 0.00025, 0.0005, 0.001,
                                                              0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                              0.25, 0.5, 1, 2.5});
  }
  thread_ = std::thread([this] {
    NameThisThread("stud-watch-hub");
    Run();
  });
}

WatchHub::~WatchHub() {
  stop_.store(true);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (reader_fd_ >= 0) shutdown(reader_fd_, SHUT_RDWR);  // the blocked XREAD returns now
  }
  thread_.join();
  EndAll(LedgerUnavailable("the server is stopping its watch streams"));
  if (reader_ != nullptr) redisFree(reader_);
  // Under its lock: the last Wake may have run on another thread (a stream
  // opened from the ledger's reply runs on the ledger's).
  std::lock_guard<std::mutex> lock(wake_mu_);
  if (wake_conn_ != nullptr) redisFree(wake_conn_);
}

redisContext* WatchHub::Connect(absl::Duration read_timeout, std::string* error) const {
  // The master, through the Sentinels with redis-sentinel:// (redis_connect.h).
  RedisConnection c = ConnectLedgerRedis(options_.redis, read_timeout);
  if (c.context == nullptr) *error = std::move(c.error);
  return c.context;
}

absl::Status WatchHub::Add(WatchSink* sink, const std::string& tenant,
                           const std::string& stream_key, uint64_t next_version) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!reachable_) return LedgerUnavailable("the watch connection to redis is down");
    if (static_cast<int>(watchers_.size()) >= options_.max_watchers) {
      return WithReason(absl::StatusCode::kResourceExhausted, "WATCHERS_EXHAUSTED",
                        absl::StrCat("this replica has ", watchers_.size(),
                                     " open WatchHand streams (--max_watchers); retry with "
                                     "backoff (another replica may have room)"));
    }
    int& mine = per_tenant_[tenant];
    if (options_.max_watchers_per_tenant > 0 && mine >= options_.max_watchers_per_tenant) {
      if (mine == 0) per_tenant_.erase(tenant);
      return WithReason(absl::StatusCode::kResourceExhausted, "TENANT_WATCHERS_EXHAUSTED",
                        absl::StrCat("tenant ", tenant, " has ", options_.max_watchers_per_tenant,
                                     " open WatchHand streams on this replica "
                                     "(--max_watchers_per_tenant); close one or retry later"));
    }
    ++mine;
    watchers_[sink] = Watcher{tenant, stream_key, next_version, true, absl::Now()};
    hands_[stream_key].sinks.push_back(sink);
    if (metrics_->watchers != nullptr)
      metrics_->watchers->Set(static_cast<double>(watchers_.size()));
    if (wake_pending_) return absl::OkStatus();  // a wake-up is on its way; ReadArgs sees this one
    wake_pending_ = true;
  }
  Wake();
  return absl::OkStatus();
}

void WatchHub::Remove(WatchSink* sink) {
  std::lock_guard<std::mutex> lock(mu_);
  ForgetLocked(sink);
}

void WatchHub::Resume(WatchSink* sink) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = watchers_.find(sink);
    if (it == watchers_.end() || it->second.ready) return;
    it->second.ready = true;
    it->second.active = absl::Now();
    if (wake_pending_) return;
    wake_pending_ = true;
  }
  Wake();
}

void WatchHub::EndAll(const absl::Status& status) {
  std::lock_guard<std::mutex> lock(mu_);
  while (!watchers_.empty()) EndLocked(watchers_.begin()->first, status);
}

void WatchHub::Sent(absl::Time read_at) {
  if (metrics_->messages == nullptr) return;
  metrics_->messages->Increment();
  metrics_->lag->Observe(absl::ToDoubleSeconds(absl::Now() - read_at));
}

int WatchHub::watchers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(watchers_.size());
}

void WatchHub::EndLocked(WatchSink* sink, const absl::Status& status) {
  ForgetLocked(sink);
  sink->End(status);
}

void WatchHub::ForgetLocked(WatchSink* sink) {
  auto it = watchers_.find(sink);
  if (it == watchers_.end()) return;
  auto hand = hands_.find(it->second.key);
  if (hand != hands_.end()) {
    std::vector<WatchSink*>& sinks = hand->second.sinks;
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());
    if (sinks.empty()) hands_.erase(hand);
  }
  auto tenant = per_tenant_.find(it->second.tenant);
  if (tenant != per_tenant_.end() && --tenant->second <= 0) per_tenant_.erase(tenant);
  watchers_.erase(it);
  if (metrics_->watchers != nullptr) metrics_->watchers->Set(static_cast<double>(watchers_.size()));
}

void WatchHub::Wake() {
  std::lock_guard<std::mutex> lock(wake_mu_);
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::string error;
    if (wake_conn_ == nullptr) wake_conn_ = Connect(options_.redis.io_timeout, &error);
    if (wake_conn_ == nullptr) return;  // the reader's own timeout picks the watcher up
    const std::string ttl = absl::StrCat(absl::ToInt64Milliseconds(options_.block) * 60 + 60000);
    redisAppendCommand(wake_conn_, "XADD %b MAXLEN 1 * w 1", wake_key_.data(), wake_key_.size());
    redisAppendCommand(wake_conn_, "PEXPIRE %b %s", wake_key_.data(), wake_key_.size(),
                       ttl.c_str());
    bool ok = true;
    for (int i = 0; i < 2; ++i) {
      void* raw = nullptr;
      if (redisGetReply(wake_conn_, &raw) != REDIS_OK) {
        ok = false;
        break;
      }
      freeReplyObject(raw);
    }
    if (ok) return;
    redisFree(wake_conn_);  // broken (Redis restarted): once more on a new connection
    wake_conn_ = nullptr;
  }
}

std::vector<std::string> WatchHub::ReadArgs(absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  wake_pending_ = false;
  read_from_.clear();
  if (options_.idle_timeout > absl::ZeroDuration() && now - last_idle_check_ >= kIdleCheckEvery) {
    last_idle_check_ = now;
    std::vector<WatchSink*> idle;
    for (const auto& [sink, w] : watchers_) {
      if (w.ready && now - w.active >= options_.idle_timeout) idle.push_back(sink);
    }
    for (WatchSink* sink : idle) {
      EndLocked(sink, WithReason(absl::StatusCode::kUnavailable, "WATCH_IDLE",
                                 absl::StrCat("the hand did not change for ",
                                              absl::FormatDuration(options_.idle_timeout),
                                              " (--watch_idle_timeout_seconds); resume with "
                                              "after_version = the last version received")));
    }
  }
  std::vector<std::string> keys = {"XREAD",
                                   "COUNT",
                                   absl::StrCat(options_.read_count),
                                   "BLOCK",
                                   absl::StrCat(absl::ToInt64Milliseconds(options_.block)),
                                   "STREAMS",
                                   wake_key_};
  std::vector<std::string> ids = {wake_id_};
  for (const auto& [key, hand] : hands_) {
    bool any = false;
    uint64_t from = 0;
    for (WatchSink* sink : hand.sinks) {
      const Watcher& w = watchers_.at(sink);
      if (!w.ready) continue;
      from = any ? std::min(from, w.next) : w.next;
      any = true;
    }
    if (!any) continue;
    keys.push_back(key);
    ids.push_back(IdBefore(from));
    read_from_[key] = from;
  }
  keys.insert(keys.end(), std::make_move_iterator(ids.begin()), std::make_move_iterator(ids.end()));
  return keys;
}

void WatchHub::Deliver(const std::string& key, const std::vector<WatchEntryPtr>& entries) {
  std::lock_guard<std::mutex> lock(mu_);
  auto hand = hands_.find(key);
  auto read = read_from_.find(key);
  if (hand == hands_.end() || read == read_from_.end() || entries.empty()) return;
  const uint64_t from = read->second;  // the read returned versions from `from` on
  hand->second.newest = std::max(hand->second.newest, entries.back()->version);
  const uint64_t newest = hand->second.newest;
  const std::vector<WatchSink*> sinks = hand->second.sinks;  // EndLocked edits the hand's list
  const absl::Time now = absl::Now();
  // A full watcher ends once it is max_lag_versions behind the newest
  // version read, whether it filled up in an earlier read or in this one
  // (all of a burst can arrive in one read, and no later read may come).
  const auto end_if_too_slow = [&](WatchSink* sink, const Watcher& w) {
    if (newest < w.next + options_.max_lag_versions) return;
    EndLocked(sink, WithReason(absl::StatusCode::kResourceExhausted, "WATCHER_TOO_SLOW",
                               absl::StrCat("this stream fell ", newest + 1 - w.next,
                                            " versions behind the hand; resume with "
                                            "after_version = the last version received")));
  };
  for (WatchSink* sink : sinks) {
    Watcher& w = watchers_.at(sink);
    if (!w.ready) {
      end_if_too_slow(sink, w);
      continue;
    }
    // A watcher added or resumed after this read was asked for may need
    // versions before `from`: the next read starts from its cursor.
    if (w.next < from) continue;
    for (const WatchEntryPtr& e : entries) {
      if (e->version < w.next) continue;  // this watcher has it already
      if (e->version > w.next) {
        EndLocked(sink, WithReason(absl::StatusCode::kFailedPrecondition, "WATCH_HISTORY_GONE",
                                   absl::StrCat("version ", w.next,
                                                " of the hand is no longer on its watch stream "
                                                "(the oldest kept is ",
                                                e->version,
                                                "); fetch the latest state (GetView by hand_id) "
                                                "and watch after its version")));
        break;
      }
      if (!sink->Offer(e)) {
        w.ready = false;  // full: read again for it once it has room
        end_if_too_slow(sink, w);
        break;
      }
      ++w.next;
      w.active = now;
      if (e->ended) {
        EndLocked(sink, absl::OkStatus());
        break;
      }
    }
  }
}

void WatchHub::Run() {
  absl::Duration backoff = kMinBackoff;
  const auto pause = [&] {
    const absl::Time until = absl::Now() + backoff;
    while (!stop_.load() && absl::Now() < until) absl::SleepFor(absl::Milliseconds(10));
    backoff = std::min(backoff * 2, kMaxBackoff);
  };
  const auto fail = [&](const std::string& why) {
    std::lock_guard<std::mutex> lock(mu_);
    reachable_ = false;
    reader_fd_ = -1;
    while (!watchers_.empty()) EndLocked(watchers_.begin()->first, LedgerUnavailable(why));
  };
  while (!stop_.load()) {
    if (reader_ == nullptr) {
      std::string error;
      reader_ = Connect(options_.block + options_.redis.io_timeout, &error);
      if (reader_ == nullptr) {
        fail(error);
        pause();
        continue;
      }
      std::lock_guard<std::mutex> lock(mu_);
      reachable_ = true;
      reader_fd_ = reader_->fd;
      wake_id_ = "0-0";
    }
    const std::vector<std::string> args = ReadArgs(absl::Now());
    std::vector<const char*> argv;
    std::vector<size_t> argvlen;
    for (const std::string& a : args) {
      argv.push_back(a.data());
      argvlen.push_back(a.size());
    }
    ReplyPtr reply(static_cast<redisReply*>(redisCommandArgv(reader_, static_cast<int>(argv.size()),
                                                             argv.data(), argvlen.data())),
                   freeReplyObject);
    const absl::Time now = absl::Now();
    if (reply == nullptr || reply->type == REDIS_REPLY_ERROR) {
      const std::string why =
          reply == nullptr
              ? absl::StrCat("the watch connection to redis at ", options_.redis.host, ":",
                             options_.redis.port, " failed: ", reader_->errstr)
              : absl::StrCat("redis error on the watch connection: ", Str(reply.get()));
      {
        std::lock_guard<std::mutex> lock(mu_);
        reader_fd_ = -1;  // before the descriptor is closed (the destructor shuts it down)
      }
      redisFree(reader_);
      reader_ = nullptr;
      if (stop_.load()) break;
      fail(why);
      pause();
      continue;
    }
    backoff = kMinBackoff;
    if (reply->type != REDIS_REPLY_ARRAY) continue;  // nil: the BLOCK timed out
    for (size_t s = 0; s < reply->elements; ++s) {
      const redisReply* stream = reply->element[s];
      if (stream->type != REDIS_REPLY_ARRAY || stream->elements != 2) continue;
      const std::string key(Str(stream->element[0]));
      const redisReply* items = stream->element[1];
      if (key == wake_key_) {
        if (items->elements > 0) {
          const redisReply* last = items->element[items->elements - 1];
          if (last->type == REDIS_REPLY_ARRAY && last->elements >= 1)
            wake_id_ = std::string(Str(last->element[0]));
        }
        continue;
      }
      std::vector<WatchEntryPtr> entries;
      for (size_t i = 0; i < items->elements; ++i) {
        if (WatchEntryPtr e = ParseEntry(items->element[i], now)) entries.push_back(std::move(e));
      }
      Deliver(key, entries);
    }
  }
}

}  // namespace stud::service
