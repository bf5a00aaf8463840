#include "result.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace stud::bench {

ProcSample SampleProc(int pid) {
  ProcSample p;
  if (pid <= 0) return p;
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return p;
  std::istringstream fields(text.substr(close + 2));
  std::vector<std::string> f;
  for (std::string x; fields >> x;) f.push_back(x);
  // After "pid (comm) ": field 3 is f[0]; utime = field 14, stime = 15, rss = 24.
  if (f.size() < 22) return p;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  p.cpu_seconds = (std::stod(f[11]) + std::stod(f[12])) / ticks;
  p.rss_mb = std::stod(f[21]) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
  return p;
}
double SelfCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void Report(Result& r) {
  std::string errors;
  for (const auto& [code, n] : r.errors)
    absl::StrAppend(&errors, errors.empty() ? "" : ",", code, ":", n);
  const double p50 = r.Percentile(0.50), p90 = r.Percentile(0.90), p99 = r.Percentile(0.99),
               p999 = r.Percentile(0.999);
  std::printf(
      "%-22s %-16s %9.0f req/s  p50 %7.0f us  p90 %7.0f us  p99 %7.0f us  p99.9 %7.0f us  "
      "client %.2f cpu  server %.2f cpu (%.1f us/req, rss %.0f MB)  req %.0f B resp %.0f B  errors "
      "%" PRIu64 "\n",
      r.label.c_str(), r.mode.c_str(), r.qps(), p50, p90, p99, p999, r.client_cpu, r.server_cpu,
      r.ok > 0 ? r.server_cpu * 1e6 / r.qps() : 0.0, r.server_rss_mb, r.req_bytes, r.resp_bytes,
      r.error_count());
  std::printf(
      "RESULT label=%s mode=%s qps=%.1f p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f "
      "client_cpu=%.3f "
      "server_cpu=%.3f server_rss_mb=%.1f req_bytes=%.0f resp_bytes=%.0f ok=%" PRIu64
      " errors=%" PRIu64 " error_codes=%s late=%" PRIu64 "\n",
      r.label.c_str(), absl::StrReplaceAll(r.mode, {{" ", "_"}}).c_str(), r.qps(), p50, p90, p99,
      p999, r.client_cpu, r.server_cpu, r.server_rss_mb, r.req_bytes, r.resp_bytes, r.ok,
      r.error_count(), errors.empty() ? "none" : errors.c_str(), r.late);
  if (r.hands > 0) {
    std::printf("HANDS label=%s hands=%" PRIu64 " hands_per_s=%.1f calls_per_hand=%.1f\n",
                r.label.c_str(), r.hands, static_cast<double>(r.hands) / r.seconds,
                static_cast<double>(r.ok) / static_cast<double>(r.hands));
  }
  std::fflush(stdout);
}

}  // namespace stud::bench
