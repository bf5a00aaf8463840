// stud_loadgen's measurements (loadgen.cc): a process's CPU time and memory
// from /proc, one phase's result, and its report (a readable line, and one
// "RESULT key=value ..." line that the benchmark scripts read).
#ifndef STUD_TOOLS_LOADGEN_RESULT_H_
#define STUD_TOOLS_LOADGEN_RESULT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stud::bench {

struct ProcSample {
  double cpu_seconds = 0;
  double rss_mb = 0;
};
// Process `pid`'s CPU seconds (user + system) and resident memory; zeros
// when it cannot be read (pid 0: none).
ProcSample SampleProc(int pid);
// This process's CPU seconds (user + system).
double SelfCpuSeconds();

// One phase of the load loop: what it measured.
struct Result {
  std::string label;
  std::string mode;
  double seconds = 0;
  uint64_t ok = 0;
  std::map<int, uint64_t> errors;  // by grpc status code
  uint64_t late = 0;               // open loop: calls not started because too many were in flight
  uint64_t hands = 0;              // play_hands: hands played to their end
  std::vector<uint32_t> latency_us10;  // tenths of microseconds
  double client_cpu = 0, server_cpu = 0, server_rss_mb = 0;
  double req_bytes = 0, resp_bytes = 0;
  double qps() const { return static_cast<double>(ok) / seconds; }
  uint64_t error_count() const {
    uint64_t n = 0;
    for (const auto& [code, count] : errors) n += count;
    return n;
  }
  double Percentile(double q) {
    if (latency_us10.empty()) return 0;
    std::sort(latency_us10.begin(), latency_us10.end());
    size_t i = static_cast<size_t>(q * static_cast<double>(latency_us10.size()));
    return latency_us10[std::min(i, latency_us10.size() - 1)] / 10.0;
  }
};

// Prints r (sorting its latencies): the readable line, the RESULT line and,
// for whole hands, a HANDS line.
void Report(Result& r);

}  // namespace stud::bench

#endif  // STUD_TOOLS_LOADGEN_RESULT_H_
