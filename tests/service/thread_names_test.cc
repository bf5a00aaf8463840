// The service's own threads carry names (observability/thread_name.h), so
// that `top -H`, perf and gdb show which is which beside gRPC's: the ledger's
// pipeline, the watch hub's reader, the span exporter and the admission
// workers. Each is started here as the server starts it, and its name is read
// back from /proc, where those tools read it.
#include <pthread.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "service/observability/thread_name.h"
#include "service/observability/tracing.h"
#include "service/server/admission.h"
#include "service/trust/redis_pipeline.h"
#include "service/trust/watch_hub.h"

namespace stud::service {
namespace {

using ::testing::Contains;

// The names of this process's threads, as /proc/self/task/*/comm gives them.
std::vector<std::string> ThreadNames() {
  std::vector<std::string> names;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    names.push_back(name);
  }
  return names;
}

std::string OwnName() {
  char name[64] = {};
  pthread_getname_np(pthread_self(), name, sizeof(name));
  return name;
}

TEST(ThreadNames, ALongNameIsCutToWhatLinuxKeepsRatherThanRefused) {
  std::string named, cut;
  std::thread([&] {
    NameThisThread("stud-short");
    named = OwnName();
    NameThisThread("stud-a-name-longer-than-fifteen");
    cut = OwnName();
  }).join();
  EXPECT_EQ(named, "stud-short");
  EXPECT_EQ(cut, "stud-a-name-lon");
  EXPECT_EQ(cut.size(), kMaxThreadName);
}

class NoExporter : public SpanExporter {
 public:
  bool Export(const std::vector<SpanData>&) override { return true; }
};

TEST(ThreadNames, EveryThreadTheServiceStartsIsNamed) {
  // Redis on a port nothing listens on: the pipeline connects only when sent
  // a command, and the watch hub retries in the background; neither needs one.
  RedisLedgerOptions redis;
  redis.host = "127.0.0.1";
  redis.port = 1;
  RedisPipeline pipeline(redis, absl::Milliseconds(100), nullptr);
  WatchHub hub(WatchHubOptions{.redis = redis}, nullptr);
  BatchSpanProcessor spans(std::make_unique<NoExporter>(), BatchOptions{}, SpanCounters{});
  Admission admission(/*max_in_flight=*/4, /*workers=*/2);
  // Each thread names itself as it starts: wait for the last of them.
  std::vector<std::string> names;
  for (int i = 0; i < 500; ++i) {
    names = ThreadNames();
    if (std::count(names.begin(), names.end(), "stud-worker") == 2 &&
        std::count(names.begin(), names.end(), "stud-ledger") == 1 &&
        std::count(names.begin(), names.end(), "stud-watch-hub") == 1 &&
        std::count(names.begin(), names.end(), "stud-otlp-spans") == 1) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_THAT(names, Contains("stud-ledger").Times(1));
  EXPECT_THAT(names, Contains("stud-watch-hub").Times(1));
  EXPECT_THAT(names, Contains("stud-otlp-spans").Times(1));
  EXPECT_THAT(names, Contains("stud-worker").Times(2));
}

}  // namespace
}  // namespace stud::service
