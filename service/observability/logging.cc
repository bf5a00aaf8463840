#include "service/observability/logging.h"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "service/observability/hand_facts.h"
#include "service/observability/tracing.h"

namespace stud::service {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};

std::mutex& SinkMutex() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}
std::function<void(const std::string&)>& Sink() {
  static auto* sink = new std::function<void(const std::string&)>;
  return *sink;
}

}  // namespace

bool ParseLogLevel(absl::string_view text, LogLevel* level) {
  const std::string t = absl::AsciiStrToLower(text);
  if (t == "debug")
    *level = LogLevel::kDebug;
  else if (t == "info")
    *level = LogLevel::kInfo;
  else if (t == "warn" || t == "warning")
    *level = LogLevel::kWarn;
  else if (t == "error")
    *level = LogLevel::kError;
  else
    return false;
  return true;
}

absl::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

void SetLogLevel(LogLevel level) {
  g_level.store(static_cast<int>(level), std::memory_order_relaxed);
}

bool LogEnabled(LogLevel level) {
  return static_cast<int>(level) >= g_level.load(std::memory_order_relaxed);
}

void SetLogSink(std::function<void(const std::string& line)> sink) {
  std::lock_guard<std::mutex> lock(SinkMutex());
  Sink() = std::move(sink);
}

std::string JsonEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x",
                                static_cast<unsigned>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  return out;
}

LogLine::LogLine(LogLevel level, absl::string_view event) : LogLine(CallTrace{}, level, event) {}

LogLine::LogLine(const CallTrace& call, LogLevel level, absl::string_view event)
    : enabled_(LogEnabled(level)) {
  if (!enabled_) return;
  absl::StrAppend(&text_, "{\"ts\":\"",
                  absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", absl::Now(), absl::UTCTimeZone()),
                  "\",\"level\":\"", LogLevelName(level), "\",\"event\":\"", JsonEscape(event),
                  "\"");
  if (call.span != nullptr) {
    absl::StrAppend(&text_, ",\"trace_id\":\"", HexId(call.span->span().trace_id),
                    "\",\"span_id\":\"", HexId(call.span->span().span_id), "\"");
  }
  // The hand the call is on, once the handler knows it (hand_facts.h).
  if (call.hand != nullptr && !call.hand->hand_id().empty()) {
    absl::StrAppend(&text_, ",\"hand_id\":\"", JsonEscape(call.hand->hand_id()), "\"");
  }
}

LogLine::~LogLine() {
  if (!enabled_) return;
  text_ += "}";
  std::lock_guard<std::mutex> lock(SinkMutex());
  if (Sink()) {
    Sink()(text_);
  } else {
    text_ += "\n";
    std::fwrite(text_.data(), 1, text_.size(), stderr);
    std::fflush(stderr);
  }
}

LogLine& LogLine::Str(absl::string_view key, absl::string_view value) {
  if (enabled_) absl::StrAppend(&text_, ",\"", JsonEscape(key), "\":\"", JsonEscape(value), "\"");
  return *this;
}

LogLine& LogLine::Int(absl::string_view key, int64_t value) {
  if (enabled_) absl::StrAppend(&text_, ",\"", JsonEscape(key), "\":", value);
  return *this;
}

LogLine& LogLine::Num(absl::string_view key, double value) {
  if (enabled_) absl::StrAppend(&text_, ",\"", JsonEscape(key), "\":", value);
  return *this;
}

LogLine& LogLine::Bool(absl::string_view key, bool value) {
  if (enabled_) absl::StrAppend(&text_, ",\"", JsonEscape(key), "\":", value ? "true" : "false");
  return *this;
}

}  // namespace stud::service
