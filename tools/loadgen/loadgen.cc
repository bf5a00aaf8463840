// stud_loadgen: an asynchronous gRPC load generator for stud.v1.StudService,
// with a do-nothing baseline measured in the same run (docs/benchmarks.md).
//
// Requests are built before the clock starts (workload.h: a pool of real
// mid-hand tokens for ApplyAction and LegalActions, finished hands for
// ResolveShowdown by token, random 8-seat showdowns for the stateless form) and sent as
// pre-serialized bytes through grpc::GenericStub on completion queues, so the
// client spends its CPU on the transport only.
//
// Loops:
//   closed: --concurrency calls in flight over --channels connections; each
//           completion starts the next call (throughput at saturation).
//   open:   calls start at a fixed --rate whatever the completions; latency
//           is measured from each call's scheduled start, so a slow server
//           cannot hide its queueing (no coordinated omission).
// Every phase lasts --duration seconds after --warmup seconds and every call
// has a --timeout_ms deadline, so a run always ends by itself.
//
// Baseline: with --baseline_target (a loadgen_echo_server), every request of
// the pool gets an echo twin of the same request size asking for a response
// of the same size as the real one, and the run measures, one after the
// other: the RPC closed-loop, the baseline closed-loop, then both open-loop at
// half the RPC's closed-loop throughput; it prints the throughput ratio and
// the p99 ratio at half load.
//
// Output: a readable report and one "RESULT key=value ..." line per phase
// (result.h).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "play.h"
#include "result.h"
#include "workload.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "stud_server address");
ABSL_FLAG(std::string, rpc, "apply_action",
          "apply_action | new_hand | play_hands | legal_actions | showdown_stateless | "
          "showdown_token | echo. play_hands (closed loop only): each call slot deals 8-seat "
          "hands and plays each to its end, every action on the token its last answer carried "
          "(tools/loadgen/play.h)");
ABSL_FLAG(std::string, mode, "closed", "closed (N in flight) or open (fixed --rate)");
ABSL_FLAG(int, concurrency, 32, "closed loop: calls in flight");
ABSL_FLAG(int, channels, 4, "connections (one gRPC channel each)");
ABSL_FLAG(double, rate, 1000, "open loop: calls per second");
ABSL_FLAG(double, duration, 10, "seconds measured per phase");
ABSL_FLAG(double, warmup, 1, "seconds run before measuring, per phase");
ABSL_FLAG(int, timeout_ms, 5000, "deadline of every call");
ABSL_FLAG(int, threads, 1, "client completion-queue threads");
ABSL_FLAG(int, pool, 256, "distinct requests (tokens) in the pool");
ABSL_FLAG(int, chain, 0,
          "--rpc=apply_action: the pool as runs of N consecutive actions of one hand, each on the "
          "token the one before it is answered with; in the closed loop each call slot plays its "
          "runs in order, as a hand played on one replica (whose hand cache then finds the hand, "
          "service/token/hand_cache.h). 0: independent mid-hand requests");
ABSL_FLAG(bool, hand_header, false,
          "--chain or --rpc=play_hands: every action carries its hand's id (PublicView.hand_id) as "
          "x-stud-hand-id metadata, as a client does for a load balancer that keeps a hand on one "
          "replica (deploy/local-stack.sh --hand-affinity)");
ABSL_FLAG(std::string, detail, "full",
          "--rpc=apply_action and new_hand: the answer's UpdateDetail, full or changes (no public "
          "view or announcements)");
ABSL_FLAG(int, seed, 1, "seed of the pool builder");
ABSL_FLAG(int, server_pid, 0, "pid of the server at --target, for its CPU and memory");
ABSL_FLAG(std::string, baseline_target, "",
          "loadgen_echo_server address: measure the baseline too");
ABSL_FLAG(int, baseline_pid, 0, "pid of the baseline server");
ABSL_FLAG(bool, half_load, true,
          "closed loop with --baseline_target: then run both open loop at half the service's "
          "closed-loop throughput (false: the closed-loop pair only, for sweeps over "
          "--concurrency)");
ABSL_FLAG(int, echo_request_bytes, 1000, "--rpc=echo: request size");
ABSL_FLAG(int, echo_response_bytes, 2000, "--rpc=echo: response size");
ABSL_FLAG(std::string, dump_request, "",
          "write the first pool request as a gRPC length-prefixed frame to this file and exit "
          "(the request body for h2load -d)");

namespace {

using Clock = std::chrono::steady_clock;
using stud::bench::BuildWorkload;
using stud::bench::Die;
using stud::bench::EchoTwin;
using stud::bench::HandPlayer;
using stud::bench::MakeChannel;
using stud::bench::ProcSample;
using stud::bench::Report;
using stud::bench::Result;
using stud::bench::SampleProc;
using stud::bench::SelfCpuSeconds;
using stud::bench::Workload;

// ---- The load loop ----

// One phase: a Runner is used once (fresh connections each phase).
class Runner {
 public:
  Runner(const std::string& target, const Workload& w, int channels, int threads) : w_(w) {
    for (int i = 0; i < channels; ++i)
      stubs_.push_back(std::make_unique<grpc::GenericStub>(MakeChannel(target, i)));
    for (int i = 0; i < threads; ++i) cqs_.push_back(std::make_unique<grpc::CompletionQueue>());
  }

  Result Run(const std::string& label, bool open, int concurrency, double rate, int server_pid) {
    const double warmup = absl::GetFlag(FLAGS_warmup);
    const double duration = absl::GetFlag(FLAGS_duration);
    start_ = Clock::now();
    measure_from_ = start_ + ToDur(warmup);
    end_ = measure_from_ + ToDur(duration);
    stop_.store(false);
    in_flight_.store(0);
    next_request_.store(0);
    slot_next_.assign(open ? 0 : static_cast<size_t>(concurrency), kNotStarted);
    per_thread_.assign(cqs_.size(), PerThread());
    players_.clear();
    if (w_.play) {
      const bool hand_header = absl::GetFlag(FLAGS_hand_header);
      const bool changes_only = absl::GetFlag(FLAGS_detail) == "changes";
      const auto seed = static_cast<uint64_t>(absl::GetFlag(FLAGS_seed));
      for (int i = 0; i < concurrency; ++i) {
        players_.emplace_back(seed * 1000003 + static_cast<uint64_t>(i), hand_header, changes_only);
      }
    }

    std::vector<std::thread> pollers;
    pollers.reserve(cqs_.size());
    for (size_t t = 0; t < cqs_.size(); ++t) pollers.emplace_back([this, t] { Poll(t); });

    ProcSample server_before;
    double client_before = 0;
    std::thread sampler([&] {
      std::this_thread::sleep_until(measure_from_);
      server_before = SampleProc(server_pid);
      client_before = SelfCpuSeconds();
    });

    uint64_t late = 0;
    if (!open) {
      for (int i = 0; i < concurrency; ++i) Start(static_cast<size_t>(i), Clock::now());
    } else {
      // Pacer: the k-th call is due at start + k / rate.
      const int max_in_flight = 20000;
      const auto interval = std::chrono::duration<double>(1.0 / rate);
      uint64_t k = 0;
      for (;;) {
        const auto due =
            start_ + std::chrono::duration_cast<Clock::duration>(interval * static_cast<double>(k));
        if (due >= end_) break;
        std::this_thread::sleep_until(due);
        if (in_flight_.load() >= max_in_flight) {
          ++late;
        } else {
          Start(k, due);
        }
        ++k;
      }
    }
    sampler.join();
    std::this_thread::sleep_until(end_);
    const ProcSample server_after = SampleProc(server_pid);
    const double client_after = SelfCpuSeconds();
    stop_.store(true);
    // Calls still in flight finish within their deadline.
    while (in_flight_.load() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (auto& cq : cqs_) cq->Shutdown();
    for (auto& t : pollers) t.join();

    Result r;
    r.label = label;
    r.mode = open ? absl::StrFormat("open@%.0f/s", rate) : absl::StrCat("closed c=", concurrency);
    r.seconds = duration;
    r.late = late;
    double req = 0, resp = 0;
    for (PerThread& p : per_thread_) {
      r.ok += p.ok;
      r.hands += p.hands;
      for (const auto& [code, n] : p.errors) r.errors[code] += n;
      r.latency_us10.insert(r.latency_us10.end(), p.latency_us10.begin(), p.latency_us10.end());
      req += p.req_bytes;
      resp += p.resp_bytes;
    }
    const double calls = static_cast<double>(std::max<uint64_t>(1, r.ok));
    r.req_bytes = req / calls;
    r.resp_bytes = resp / calls;
    r.client_cpu = (client_after - client_before) / duration;
    r.server_cpu = (server_after.cpu_seconds - server_before.cpu_seconds) / duration;
    r.server_rss_mb = server_after.rss_mb;
    return r;
  }

 private:
  struct CallState {
    grpc::ClientContext ctx;
    grpc::ByteBuffer response;
    grpc::Status status;
    std::unique_ptr<grpc::GenericClientAsyncResponseReader> reader;
    Clock::time_point scheduled;
    size_t request_size;
    size_t slot;
  };
  struct PerThread {
    uint64_t ok = 0;
    uint64_t hands = 0;
    std::map<int, uint64_t> errors;
    std::vector<uint32_t> latency_us10;
    double req_bytes = 0, resp_bytes = 0;
  };

  static Clock::duration ToDur(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  // The pool request a call of `slot` sends. With runs (--chain) in the
  // closed loop, slot s plays runs s, s + c, s + 2c, ... (c slots) each in
  // order: no two slots play one hand at once, and each call's token is the
  // one the slot's call before it was answered with.
  size_t NextRequest(size_t slot) {
    const size_t runs = w_.chain == 0 ? 0 : w_.pool.size() / w_.chain;
    if (open_ || runs == 0) return next_request_.fetch_add(1) % w_.pool.size();
    size_t& at = slot_next_[slot];  // only this slot's calls touch it, one at a time
    if (at == kNotStarted) at = (slot % runs) * w_.chain;
    const size_t req = at;
    ++at;
    if (at % w_.chain == 0) at = ((at / w_.chain - 1 + slot_next_.size()) % runs) * w_.chain;
    return req;
  }

  void Start(size_t slot, Clock::time_point scheduled) {
    auto* c = new CallState;
    c->scheduled = scheduled;
    c->slot = slot;
    c->ctx.set_deadline(std::chrono::system_clock::now() +
                        std::chrono::milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
    grpc::CompletionQueue* cq = cqs_[slot % cqs_.size()].get();
    grpc::GenericStub& stub = *stubs_[slot % stubs_.size()];
    if (w_.play) {
      const HandPlayer::Call call = players_[slot].Next();
      c->request_size = call.size;
      if (!call.hand_id.empty()) c->ctx.AddMetadata("x-stud-hand-id", call.hand_id);
      c->reader = stub.PrepareUnaryCall(&c->ctx, *call.method, call.bytes, cq);
    } else {
      const stud::bench::Request& req = w_.pool[NextRequest(slot)];
      c->request_size = req.request_size;
      if (!req.hand_id.empty()) c->ctx.AddMetadata("x-stud-hand-id", req.hand_id);
      c->reader = stub.PrepareUnaryCall(&c->ctx, w_.method, req.bytes, cq);
    }
    in_flight_.fetch_add(1);
    c->reader->StartCall();
    c->reader->Finish(&c->response, &c->status, c);
  }

  void Poll(size_t t) {
    PerThread& me = per_thread_[t];
    void* tag = nullptr;
    bool ok = false;
    while (cqs_[t]->Next(&tag, &ok)) {
      auto* c = static_cast<CallState*>(tag);
      const auto now = Clock::now();
      const bool measured = c->scheduled >= measure_from_ && now <= end_;
      if (w_.play) {
        HandPlayer& player = players_[c->slot];  // this slot's one call, so no other thread's
        const uint64_t hands_before = player.hands_finished();
        if (!player.Answered(c->status.ok() ? &c->response : nullptr)) {
          c->status = grpc::Status(grpc::StatusCode::DATA_LOSS, "unreadable answer");
        }
        if (measured) me.hands += player.hands_finished() - hands_before;
      }
      if (measured) {
        if (c->status.ok()) {
          ++me.ok;
          me.latency_us10.push_back(static_cast<uint32_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(now - c->scheduled).count() /
              100));
          me.req_bytes += static_cast<double>(c->request_size);
          me.resp_bytes += static_cast<double>(c->response.Length());
        } else {
          ++me.errors[static_cast<int>(c->status.error_code())];
        }
      } else if (!c->status.ok() && now <= end_) {
        ++me.errors[static_cast<int>(c->status.error_code())];  // warm-up errors count too
      }
      const size_t slot = c->slot;
      const bool closed_loop_next = !open_ && !stop_.load() && now < end_;
      delete c;
      if (closed_loop_next) Start(slot, Clock::now());
      in_flight_.fetch_sub(1);
    }
  }

 public:
  bool open_ = false;

 private:
  const Workload& w_;
  std::vector<std::unique_ptr<grpc::GenericStub>> stubs_;
  std::vector<std::unique_ptr<grpc::CompletionQueue>> cqs_;
  std::vector<PerThread> per_thread_;
  Clock::time_point start_, measure_from_, end_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> in_flight_{0};
  std::atomic<uint64_t> next_request_{0};
  static constexpr size_t kNotStarted = ~size_t{0};
  std::vector<size_t> slot_next_;    // closed loop with runs: each slot's next request
  std::vector<HandPlayer> players_;  // play_hands: one per call slot
};

Result RunPhase(const std::string& label, const std::string& target, const Workload& w, bool open,
                double rate, int pid) {
  Runner runner(target, w, absl::GetFlag(FLAGS_channels), absl::GetFlag(FLAGS_threads));
  runner.open_ = open;
  return runner.Run(label, open, absl::GetFlag(FLAGS_concurrency), rate, pid);
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("Load generator for stud.v1.StudService with a do-nothing baseline");
  absl::ParseCommandLine(argc, argv);
  const std::string rpc = absl::GetFlag(FLAGS_rpc);
  const std::string target = absl::GetFlag(FLAGS_target);
  const std::string baseline = absl::GetFlag(FLAGS_baseline_target);
  const bool open = absl::GetFlag(FLAGS_mode) == "open";
  if (!open && absl::GetFlag(FLAGS_mode) != "closed") Die("--mode must be closed or open");
  if (absl::GetFlag(FLAGS_detail) != "full" && absl::GetFlag(FLAGS_detail) != "changes")
    Die("--detail must be full or changes");

  const int chain = absl::GetFlag(FLAGS_chain);
  if (chain < 0 || (chain > 0 && rpc != "apply_action"))
    Die("--chain: a run length of 1 or more, with --rpc=apply_action only (0 = off)");
  const bool play = rpc == "play_hands";
  if (absl::GetFlag(FLAGS_hand_header) && chain == 0 && !play)
    Die("--hand_header: with --chain or --rpc=play_hands only (the calls of one hand)");
  if (play && (open || !baseline.empty() || !absl::GetFlag(FLAGS_dump_request).empty()))
    Die("--rpc=play_hands: closed loop only, with no baseline (its calls are made as it plays) "
        "and no --dump_request");
  if (chain > 0 && absl::GetFlag(FLAGS_pool) / chain < absl::GetFlag(FLAGS_concurrency))
    Die("--chain: --pool / --chain runs must be at least --concurrency (one hand per call slot)");
  const Workload w =
      BuildWorkload({.rpc = rpc,
                     .target = target,
                     .pool = absl::GetFlag(FLAGS_pool),
                     .seed = absl::GetFlag(FLAGS_seed),
                     .chain = chain,
                     .hand_header = absl::GetFlag(FLAGS_hand_header),
                     .changes_only = absl::GetFlag(FLAGS_detail) == "changes",
                     .echo_request_bytes = absl::GetFlag(FLAGS_echo_request_bytes),
                     .echo_response_bytes = absl::GetFlag(FLAGS_echo_response_bytes)});
  std::printf(
      "# %s: %zu distinct requests; %d channels, %d client threads, %.1f s per phase after %.1f s "
      "warm-up\n",
      w.method.c_str(), w.pool.size(), absl::GetFlag(FLAGS_channels), absl::GetFlag(FLAGS_threads),
      absl::GetFlag(FLAGS_duration), absl::GetFlag(FLAGS_warmup));
  std::fflush(stdout);  // at once, into a file too: scripts start counting when the pool is built

  if (const std::string path = absl::GetFlag(FLAGS_dump_request); !path.empty()) {
    std::vector<grpc::Slice> slices;
    if (!w.pool[0].bytes.Dump(&slices).ok()) Die("cannot read the request");
    std::string body;
    for (const grpc::Slice& sl : slices)
      body.append(reinterpret_cast<const char*>(sl.begin()), sl.size());
    std::string frame(5, '\0');
    for (size_t i = 0; i < 4; ++i) frame[1 + i] = static_cast<char>(body.size() >> (8 * (3 - i)));
    std::ofstream(path, std::ios::binary) << frame << body;
    std::printf("# wrote %zu-byte frame of %s to %s\n", frame.size() + body.size(),
                w.method.c_str(), path.c_str());
    return 0;
  }

  uint64_t errors = 0;
  Result main =
      RunPhase(rpc, target, w, open, absl::GetFlag(FLAGS_rate), absl::GetFlag(FLAGS_server_pid));
  Report(main);
  errors += main.error_count();
  if (!baseline.empty()) {
    const Workload twin = EchoTwin(w);
    Result base = RunPhase("baseline:" + rpc, baseline, twin, open, absl::GetFlag(FLAGS_rate),
                           absl::GetFlag(FLAGS_baseline_pid));
    Report(base);
    errors += base.error_count();
    std::printf("RATIO label=%s mode=%s throughput=%.3f p99=%.3f\n", rpc.c_str(),
                open ? "open" : "closed", main.qps() / base.qps(),
                main.Percentile(0.99) / base.Percentile(0.99));
    if (!open && absl::GetFlag(FLAGS_half_load)) {
      // Half load: both at half the RPC's closed-loop throughput.
      const double half = main.qps() / 2;
      Result main_half = RunPhase(rpc, target, w, true, half, absl::GetFlag(FLAGS_server_pid));
      Report(main_half);
      Result base_half = RunPhase("baseline:" + rpc, baseline, twin, true, half,
                                  absl::GetFlag(FLAGS_baseline_pid));
      Report(base_half);
      errors += main_half.error_count() + base_half.error_count();
      std::printf("RATIO label=%s mode=half_load throughput=%.3f p99=%.3f\n", rpc.c_str(),
                  main_half.qps() / base_half.qps(),
                  main_half.Percentile(0.99) / base_half.Percentile(0.99));
    }
  }
  return errors == 0 ? 0 : 1;
}
