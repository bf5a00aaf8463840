// stud_watch_loadgen: WatchHand under load (tools/bench/watch_bench.sh,
// docs/benchmarks.md "WatchHand").
//
// Plays --hands hands at once on the writer replica (--writer) at --rate
// actions per second in total (open loop, each hand one action at a time,
// passive play; a finished hand is replaced by a new one), while
// --watchers_per_hand streams per hand watch it on the other replica
// (--watcher) from the deal on. For every version it notes when the
// ApplyAction was sent and when its answer came back (the commit happens in
// between), and for every message when it arrived, and prints
//   RESULT ... lat_p50_ms lat_p99_ms          arrival - the ApplyAction's answer
//          ... lat_sent_p50_ms lat_sent_p99_ms  arrival - the ApplyAction's sending
// (the commit-to-watcher latency lies between the two), messages, actions,
// errors, and with --watcher_pid the watcher replica's RSS before any stream,
// with every stream open and idle, and after the load, as KB per 1,000 streams.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "grpcpp/grpcpp.h"
#include "stud/v1/stud.grpc.pb.h"

ABSL_FLAG(std::string, writer, "127.0.0.1:50051", "Replica that plays the hands");
ABSL_FLAG(std::string, watcher, "127.0.0.1:50052", "Replica the streams watch from");
ABSL_FLAG(int, watcher_pid, 0, "The watcher replica's pid (its RSS is read from /proc)");
ABSL_FLAG(int, hands, 125, "Hands in play at once");
ABSL_FLAG(int, seats, 4, "Seats per hand");
ABSL_FLAG(int, watchers_per_hand, 8,
          "Streams per hand (the table's and each seat's ticket, in turn)");
ABSL_FLAG(double, rate, 1000, "Actions per second, all hands together");
ABSL_FLAG(double, duration, 10, "Seconds of load");
ABSL_FLAG(double, settle, 2, "Seconds with every stream open and idle before the load (RSS)");

namespace {
namespace v1 = stud::v1;
using Clock = std::chrono::steady_clock;

struct Times {
  Clock::time_point sent, answered;
};

std::mutex mu;
std::map<std::string, std::vector<Times>> commits;  // hand id -> per version
struct Arrival {
  std::string hand;
  uint64_t version;
  Clock::time_point at;
};
std::vector<Arrival> arrivals;
std::atomic<int64_t> messages{0}, open_streams{0}, first_messages{0}, stream_errors{0},
    action_errors{0}, actions{0}, skipped{0};
std::atomic<bool> measuring{false};

long RssKb(int pid) {
  std::ifstream in(absl::StrFormat("/proc/%d/status", pid));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

class Watch final : public grpc::ClientReadReactor<v1::WatchHandResponse> {
 public:
  Watch(v1::StudService::Stub& stub, const std::string& hand, const std::string& ticket) {
    req_.set_hand_id(hand);
    req_.set_seat_ticket(ticket);
    ++open_streams;
    stub.async()->WatchHand(&ctx_, &req_, this);
    StartRead(&resp_);
    StartCall();
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;
    const auto now = Clock::now();
    ++messages;
    if (resp_.update().version() == 0) ++first_messages;
    if (measuring.load(std::memory_order_relaxed)) {
      std::lock_guard<std::mutex> l(mu);
      arrivals.push_back({req_.hand_id(), resp_.update().version(), now});
    }
    StartRead(&resp_);
  }
  void OnDone(const grpc::Status& s) override {
    if (!s.ok()) {
      ++stream_errors;
      std::fprintf(stderr, "watch ended %d %s\n", s.error_code(), s.error_message().c_str());
    }
    --open_streams;
    delete this;
  }

 private:
  grpc::ClientContext ctx_;
  v1::WatchHandRequest req_;
  v1::WatchHandResponse resp_;
};

// One hand in play: one action in flight at most.
struct Slot {
  std::mutex mu;
  bool busy = true;  // dealing or acting
  std::string id;
  v1::HandUpdate latest;
};

v1::Action Choose(const v1::HandUpdate& u) {
  v1::Action a;
  a.set_seat(u.to_act());
  const v1::ActionKind order[] = {v1::ACTION_KIND_CHECK, v1::ACTION_KIND_CALL,
                                  v1::ACTION_KIND_BRING_IN, v1::ACTION_KIND_SHOW};
  for (v1::ActionKind k : order) {
    for (const auto& la : u.legal_actions()) {
      if (la.kind() == k) {
        a.set_kind(k);
        a.set_amount_to(la.amount_to());
        return a;
      }
    }
  }
  a.set_kind(u.legal_actions(0).kind());
  a.set_amount_to(u.legal_actions(0).amount_to());
  return a;
}

class Driver {
 public:
  // The streams spread over connections of kStreamsPerConnection each (a
  // server allows --max_concurrent_streams, 100 by default, per connection;
  // more wait in the client), as devices with their own connections would.
  static constexpr int kStreamsPerConnection = 50;
  Driver(std::shared_ptr<grpc::Channel> writer, const std::string& watcher, int64_t streams)
      : writer_(v1::StudService::NewStub(writer)) {
    for (int64_t i = 0; i * kStreamsPerConnection < streams; ++i) {
      grpc::ChannelArguments args;
      args.SetInt("stud.watch_connection", static_cast<int>(i));  // one connection each
      watchers_.push_back(v1::StudService::NewStub(
          grpc::CreateCustomChannel(watcher, grpc::InsecureChannelCredentials(), args)));
    }
    for (int i = 0; i < absl::GetFlag(FLAGS_hands); ++i) slots_.push_back(std::make_unique<Slot>());
  }

  void DealAll() {
    for (auto& s : slots_) Deal(*s);
  }

  // Deals a new hand in `slot` and opens its streams.
  void Deal(Slot& slot) {
    auto* ctx = new grpc::ClientContext;
    auto* req = new v1::NewHandRequest;
    auto* resp = new v1::NewHandResponse;
    req->set_variant(v1::VARIANT_STUD);
    req->mutable_stakes()->set_preset("$15-$30");
    for (int s = 1; s <= absl::GetFlag(FLAGS_seats); ++s) {
      auto* seat = req->add_seats();
      seat->set_seat(s);
      seat->set_stack(100000);
    }
    writer_->async()->NewHand(ctx, req, resp, [this, &slot, ctx, req, resp](grpc::Status st) {
      if (st.ok()) {
        std::vector<std::string> tickets = {resp->table_ticket()};
        for (const auto& t : resp->seat_tickets()) tickets.push_back(t.ticket());
        const std::string id = resp->update().public_view().hand_id();
        for (int w = 0; w < absl::GetFlag(FLAGS_watchers_per_hand); ++w)
          new Watch(*watchers_[next_stub_++ % watchers_.size()], id,
                    tickets[static_cast<size_t>(w) % tickets.size()]);
        std::lock_guard<std::mutex> l(slot.mu);
        slot.id = id;
        slot.latest = resp->update();
        slot.busy = false;
      } else {
        ++action_errors;
        std::fprintf(stderr, "NewHand: %s\n", st.error_message().c_str());
      }
      delete ctx;
      delete req;
      delete resp;
    });
  }

  // One action on the next hand that has none in flight; false when all have.
  bool Act() {
    for (size_t n = 0; n < slots_.size(); ++n) {
      Slot& slot = *slots_[next_++ % slots_.size()];
      std::unique_lock<std::mutex> l(slot.mu);
      if (slot.busy) continue;
      if (slot.latest.legal_actions().empty()) {  // over: a new hand takes its place
        slot.busy = true;
        l.unlock();
        Deal(slot);
        continue;
      }
      slot.busy = true;
      auto* ctx = new grpc::ClientContext;
      auto* req = new v1::ApplyActionRequest;
      auto* resp = new v1::ApplyActionResponse;
      req->set_token(slot.latest.token());
      *req->mutable_action() = Choose(slot.latest);
      const std::string id = slot.id;
      l.unlock();
      const auto sent = Clock::now();
      writer_->async()->ApplyAction(
          ctx, req, resp, [&slot, ctx, req, resp, sent, id](grpc::Status st) {
            const auto answered = Clock::now();
            if (st.ok()) {
              ++actions;
              if (measuring.load(std::memory_order_relaxed)) {
                std::lock_guard<std::mutex> g(mu);
                auto& v = commits[id];
                const size_t version = resp->update().version();
                if (v.size() <= version) v.resize(version + 1);
                v[version] = {sent, answered};
              }
            } else {
              ++action_errors;
              std::fprintf(stderr, "ApplyAction: %s\n", st.error_message().c_str());
            }
            {
              std::lock_guard<std::mutex> g(slot.mu);
              if (st.ok()) slot.latest = resp->update();
              slot.busy = false;
            }
            delete ctx;
            delete req;
            delete resp;
          });
      return true;
    }
    return false;
  }

 private:
  std::unique_ptr<v1::StudService::Stub> writer_;
  std::vector<std::unique_ptr<v1::StudService::Stub>> watchers_;
  std::atomic<size_t> next_stub_{0};
  std::vector<std::unique_ptr<Slot>> slots_;
  size_t next_ = 0;
};

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const int pid = absl::GetFlag(FLAGS_watcher_pid);
  const long rss_base = pid > 0 ? RssKb(pid) : 0;
  const int64_t streams =
      static_cast<int64_t>(absl::GetFlag(FLAGS_hands)) * absl::GetFlag(FLAGS_watchers_per_hand);
  Driver driver(
      grpc::CreateChannel(absl::GetFlag(FLAGS_writer), grpc::InsecureChannelCredentials()),
      absl::GetFlag(FLAGS_watcher), streams);
  driver.DealAll();
  // Every stream open and idle (its deal received), then the RSS.
  const auto open_by = Clock::now() + std::chrono::seconds(60);
  while (first_messages.load() < streams && Clock::now() < open_by)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(
      std::chrono::milliseconds(static_cast<int64_t>(absl::GetFlag(FLAGS_settle) * 1000)));
  const long rss_open = pid > 0 ? RssKb(pid) : 0;
  const int64_t open_idle = open_streams.load();

  measuring = true;
  const auto interval =
      std::chrono::nanoseconds(static_cast<int64_t>(1e9 / absl::GetFlag(FLAGS_rate)));
  const auto start = Clock::now();
  const auto end =
      start + std::chrono::milliseconds(static_cast<int64_t>(absl::GetFlag(FLAGS_duration) * 1000));
  auto next = start;
  while (next < end) {
    std::this_thread::sleep_until(next);
    if (!driver.Act()) ++skipped;
    next += interval;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the last messages arrive
  measuring = false;
  const long rss_load = pid > 0 ? RssKb(pid) : 0;
  const double seconds = std::chrono::duration<double>(end - start).count();

  std::vector<double> lat, lat_sent;
  int64_t unmatched = 0;
  {
    std::lock_guard<std::mutex> l(mu);
    for (const Arrival& a : arrivals) {
      auto it = commits.find(a.hand);
      if (it == commits.end() || it->second.size() <= a.version ||
          it->second[a.version].sent == Clock::time_point()) {
        ++unmatched;  // a version whose action was sent before the measurement began
        continue;
      }
      const Times& t = it->second[a.version];
      lat.push_back(std::chrono::duration<double, std::milli>(a.at - t.answered).count());
      lat_sent.push_back(std::chrono::duration<double, std::milli>(a.at - t.sent).count());
    }
  }
  const size_t matched = lat.size();
  std::printf(
      "RESULT streams=%lld open_idle=%lld actions=%lld actions_per_s=%.0f skipped=%lld "
      "messages=%lld messages_matched=%zu unmatched=%lld lat_p50_ms=%.2f lat_p99_ms=%.2f "
      "lat_sent_p50_ms=%.2f "
      "lat_sent_p99_ms=%.2f stream_errors=%lld action_errors=%lld\n",
      static_cast<long long>(streams), static_cast<long long>(open_idle),
      static_cast<long long>(actions.load()), static_cast<double>(actions.load()) / seconds,
      static_cast<long long>(skipped.load()), static_cast<long long>(messages.load()), matched,
      static_cast<long long>(unmatched), Percentile(lat, 0.50), Percentile(lat, 0.99),
      Percentile(lat_sent, 0.50), Percentile(lat_sent, 0.99),
      static_cast<long long>(stream_errors.load()), static_cast<long long>(action_errors.load()));
  if (pid > 0 && open_idle > 0) {
    std::printf(
        "RSS base_kb=%ld open_kb=%ld load_kb=%ld kb_per_1000_streams_idle=%.0f "
        "kb_per_1000_streams_load=%.0f\n",
        rss_base, rss_open, rss_load,
        static_cast<double>(rss_open - rss_base) * 1000.0 / static_cast<double>(open_idle),
        static_cast<double>(rss_load - rss_base) * 1000.0 / static_cast<double>(open_idle));
  }
  std::fflush(stdout);
  std::_Exit(0);  // streams still open: no orderly teardown needed for a measurement
}
