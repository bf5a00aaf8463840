#include "service/observability/grpc_log.h"

#include <grpc/support/log.h>

#include <atomic>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "service/observability/logging.h"

namespace stud::service {
namespace {

std::atomic<bool> g_listener_closed{false};

LogLevel LevelOf(const gpr_log_func_args& args) {
  if (g_listener_closed.load() && absl::StartsWith(args.message, "Failed accept4")) {
    return LogLevel::kDebug;
  }
  switch (args.severity) {
    case GPR_LOG_SEVERITY_ERROR:
      return LogLevel::kError;
    case GPR_LOG_SEVERITY_INFO:
      return LogLevel::kInfo;
    default:
      return LogLevel::kDebug;
  }
}

void LogGrpcLine(gpr_log_func_args* args) {
  absl::string_view file = args->file != nullptr ? args->file : "";
  if (const size_t slash = file.rfind('/'); slash != absl::string_view::npos) {
    file.remove_prefix(slash + 1);
  }
  LogLine(LevelOf(*args), "grpc")
      .Str("file", file)
      .Int("line", args->line)
      .Str("msg", args->message != nullptr ? args->message : "");
}

}  // namespace

void RouteGrpcLogToJson() { gpr_set_log_function(&LogGrpcLine); }

void ExpectListenerClosed() { g_listener_closed.store(true); }

}  // namespace stud::service
