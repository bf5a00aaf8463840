// loadgen_echo_server: the do-nothing baseline for tools/loadgen (see
// echo.proto). Built and served the way stud_server is (callback API, same
// message size limit), so the difference between the two is the service's
// own work. Prints "loadgen_echo_server listening on <host>:<port>" when ready;
// SIGTERM or SIGINT stops it.
//
// --async_threads=N serves it instead on gRPC's completion-queue API, N
// queues each polled by a thread of its own that answers its calls inline:
// what another server model would cost per call (docs/benchmarks.md).
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/synchronization/mutex.h"
#include "echo.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tools/loadgen/arena_allocator.h"

ABSL_FLAG(std::string, listen, "127.0.0.1:0", "listen address (port 0 = any free port)");
ABSL_FLAG(int, max_message_bytes, 1 << 20, "largest request or response message, in bytes");
// The baseline is the fastest do-nothing server we can make. Two settings
// that stud_server uses are flags here, off by default, because this server
// measured slower with them (docs/benchmarks.md): a per-call message arena
// (for two one-field messages it costs more than it saves) and absl::Mutex
// deadlock detection turned off (~20 % fewer calls per second here, while
// stud_server gains ~3 %).
ABSL_FLAG(bool, message_arena, false, "put each call's messages on an arena, as stud_server does");
ABSL_FLAG(bool, no_deadlock_detection, false,
          "turn absl::Mutex deadlock detection off, as stud_server does");
// A calibration baseline rather than a do-nothing one: every call first spins
// this many microseconds on the CPU, as long as a handler of that cost would
// run, so the load generator shows what a handler of a given length costs a
// callback-API server under load (docs/benchmarks.md).
ABSL_FLAG(double, work_us, 0, "microseconds of CPU each call spins before answering");
// A spin touches no memory. A real handler also reads and writes its state,
// evicting the transport's code and data from the caches it shares with it:
// with --touch_kb each call also writes that many KiB of a 16 MiB per-thread
// buffer, moving through it from call to call (docs/benchmarks.md).
ABSL_FLAG(int, touch_kb, 0, "KiB of memory each call writes before answering");
ABSL_FLAG(
    int, async_threads, 0,
    "0: the callback API (as stud_server); N: the completion-queue API, N queues and threads");

namespace {

using stud::loadgen::v1::EchoRequest;
using stud::loadgen::v1::EchoResponse;

// What every call does, whichever API serves it.
class Answerer {
 public:
  Answerer(size_t max_bytes, double work_us, int touch_kb)
      : zeros_(max_bytes, '\0'),
        work_(std::chrono::nanoseconds(static_cast<int64_t>(work_us * 1e3))),
        touch_bytes_(static_cast<size_t>(touch_kb) * 1024) {}

  grpc::Status Answer(const EchoRequest& req, EchoResponse* resp) const {
    if (work_.count() > 0) {
      const auto until = std::chrono::steady_clock::now() + work_;
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    if (touch_bytes_ > 0) Touch();
    if (req.response_bytes() > zeros_.size()) {
      return {grpc::StatusCode::INVALID_ARGUMENT, "response_bytes too large"};
    }
    resp->set_payload(zeros_.data(), req.response_bytes());
    return grpc::Status::OK;
  }

 private:
  void Touch() const {
    constexpr size_t kBuffer = size_t{16} << 20;
    thread_local std::unique_ptr<char[]> buffer(new char[kBuffer]);
    thread_local size_t at = 0;
    for (size_t done = 0; done < touch_bytes_;) {
      if (at == kBuffer) at = 0;
      const size_t n = std::min(touch_bytes_ - done, kBuffer - at);
      std::memset(buffer.get() + at, static_cast<int>(done & 0xFF), n);
      at += n;
      done += n;
    }
  }

  const std::string zeros_;
  const std::chrono::nanoseconds work_;
  const size_t touch_bytes_;
};

class EchoServiceImpl final : public stud::loadgen::v1::EchoService::CallbackService {
 public:
  EchoServiceImpl(const Answerer& answerer, bool message_arena) : answerer_(answerer) {
    if (message_arena) SetMessageAllocatorFor_Echo(&alloc_);
  }
  grpc::ServerUnaryReactor* Echo(grpc::CallbackServerContext* ctx, const EchoRequest* req,
                                 EchoResponse* resp) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    reactor->Finish(answerer_.Answer(*req, resp));
    return reactor;
  }

 private:
  const Answerer& answerer_;
  stud::loadgen::ArenaMessageAllocator<EchoRequest, EchoResponse> alloc_;
};

// --async_threads: one call on a completion queue, from its arrival to its
// answer; each call asks for the next before answering.
class AsyncCall {
 public:
  using Service = stud::loadgen::v1::EchoService::AsyncService;
  AsyncCall(Service* service, grpc::ServerCompletionQueue* cq, const Answerer& answerer)
      : service_(service), cq_(cq), answerer_(answerer), responder_(&ctx_) {
    service_->RequestEcho(&ctx_, &req_, &responder_, cq_, cq_, this);
  }
  // `ok` false: the server is shutting down; the call ends and asks for none.
  void Proceed(bool ok) {
    if (answered_ || !ok) {
      delete this;
      return;
    }
    new AsyncCall(service_, cq_, answerer_);
    answered_ = true;
    responder_.Finish(resp_, answerer_.Answer(req_, &resp_), this);
  }

 private:
  Service* service_;
  grpc::ServerCompletionQueue* cq_;
  const Answerer& answerer_;
  grpc::ServerContext ctx_;
  EchoRequest req_;
  EchoResponse resp_;
  grpc::ServerAsyncResponseWriter<EchoResponse> responder_;
  bool answered_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  if (absl::GetFlag(FLAGS_no_deadlock_detection)) {
    absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const int max_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  const Answerer answerer(static_cast<size_t>(max_bytes), absl::GetFlag(FLAGS_work_us),
                          absl::GetFlag(FLAGS_touch_kb));
  EchoServiceImpl service(answerer, absl::GetFlag(FLAGS_message_arena));
  AsyncCall::Service async_service;
  const int async_threads = absl::GetFlag(FLAGS_async_threads);
  grpc::ServerBuilder builder;
  const std::string listen = absl::GetFlag(FLAGS_listen);
  int port = 0;
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &port);
  builder.SetMaxReceiveMessageSize(max_bytes);
  builder.SetMaxSendMessageSize(max_bytes);
  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues;
  if (async_threads > 0) {
    builder.RegisterService(&async_service);
    for (int i = 0; i < async_threads; ++i) queues.push_back(builder.AddCompletionQueue());
  } else {
    builder.RegisterService(&service);
  }
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    std::fprintf(stderr, "loadgen_echo_server: cannot listen on %s\n", listen.c_str());
    return 2;
  }
  const std::string host = listen.substr(0, listen.rfind(':'));
  std::printf("loadgen_echo_server listening on %s:%d\n", host.c_str(), port);
  std::fflush(stdout);
  std::vector<std::thread> pollers;
  pollers.reserve(queues.size());
  for (auto& queue : queues) {
    pollers.emplace_back([&async_service, &answerer, cq = queue.get()] {
      for (int i = 0; i < 64; ++i) new AsyncCall(&async_service, cq, answerer);  // calls awaited
      void* tag = nullptr;
      bool ok = false;
      while (cq->Next(&tag, &ok)) static_cast<AsyncCall*>(tag)->Proceed(ok);
    });
  }
  int sig = 0;
  sigwait(&signals, &sig);
  server->Shutdown();
  for (auto& queue : queues) queue->Shutdown();
  for (std::thread& t : pollers) t.join();
  return 0;
}
