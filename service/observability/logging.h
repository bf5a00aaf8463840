// Structured logs: one JSON object per line on stderr, for notable events
// only (start-up configuration, rejected tokens, irregularity rulings,
// errors). Every line carries "ts", "level" and "event"; a line written for
// an RPC (made with the call's CallTrace, call_trace.h) also carries that
// RPC's "trace_id" and "span_id" (tracing.h), so a log line leads to its
// trace, and, once the call's handler knows the hand it is on, that hand's
// "hand_id" (hand_facts.h), so a disputed hand leads to its lines.
//
//   LogLine(LogLevel::kInfo, "startup").Str("listen", address);
//   LogLine(call.trace, LogLevel::kWarn, "token_rejected").Str("reason", "TOKEN_MALFORMED");
//
// The line is written when the LogLine is destroyed, and only if its level is
// at least the configured one (--log_level). Never put key bytes in a log.
#ifndef STUD_SERVICE_OBSERVABILITY_LOGGING_H_
#define STUD_SERVICE_OBSERVABILITY_LOGGING_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/strings/string_view.h"
#include "service/observability/call_trace.h"

namespace stud::service {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

// "debug", "info", "warn"/"warning", "error"; false for anything else.
bool ParseLogLevel(absl::string_view text, LogLevel* level);
absl::string_view LogLevelName(LogLevel level);
void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);
// Where finished lines go (default: stderr). Tests capture lines with it;
// pass nullptr to restore stderr.
void SetLogSink(std::function<void(const std::string& line)> sink);

// JSON string escaping (quotes not included).
std::string JsonEscape(absl::string_view text);

class LogLine {
 public:
  LogLine(LogLevel level, absl::string_view event);
  // A line of the call `call` is about: with its trace ids and hand id.
  LogLine(const CallTrace& call, LogLevel level, absl::string_view event);
  ~LogLine();
  LogLine(const LogLine&) = delete;
  LogLine& operator=(const LogLine&) = delete;

  LogLine& Str(absl::string_view key, absl::string_view value);
  LogLine& Int(absl::string_view key, int64_t value);
  LogLine& Num(absl::string_view key, double value);
  LogLine& Bool(absl::string_view key, bool value);

 private:
  bool enabled_;
  std::string text_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_LOGGING_H_
