// Traces: W3C trace context in, OTLP/gRPC spans out, without an OpenTelemetry
// SDK (none is packaged for Debian 12; see service/README.md, "Tracing").
//
// - ParseTraceparent reads the `traceparent` header ("00-<32 hex trace id>-
//   <16 hex parent span id>-<2 hex flags>"); `tracestate` is kept verbatim.
// - Tracer decides sampling (parent-based: a caller's sampled flag wins; a
//   call without a parent is sampled with probability --trace_sampling_ratio,
//   by its trace id) and hands finished spans to a BatchSpanProcessor.
// - BatchSpanProcessor: a bounded queue and one background thread that sends
//   batches to a SpanExporter. Enqueue never waits for the exporter: when the
//   queue is full the span is dropped and counted. Export failures are
//   counted as drops too.
// - RpcSpan (one per RPC, made by the observability wrapper) holds the RPC's
//   server span; the call's handler gets it as a parameter (call_trace.h,
//   CallTrace::span; no thread-local). ChildSpan (used around unseal, engine
//   and seal in the handlers of service/rpc/) records a child of it. With
//   tracing off or the call unsampled, ChildSpan costs one pointer test.
#ifndef STUD_SERVICE_OBSERVABILITY_TRACING_H_
#define STUD_SERVICE_OBSERVABILITY_TRACING_H_

#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace stud::service {

using TraceId = std::array<uint8_t, 16>;
using SpanId = std::array<uint8_t, 8>;

struct SpanContext {
  TraceId trace_id{};
  SpanId span_id{};
  uint8_t flags = 0;  // bit 0: sampled
  std::string trace_state;
  bool sampled() const { return (flags & 1) != 0; }
};

// nullopt unless `header` is a valid version-00 (or later, per the spec's
// forward-compatibility rule) traceparent with non-zero ids.
std::optional<SpanContext> ParseTraceparent(absl::string_view header);
std::string FormatTraceparent(const SpanContext& ctx);
std::string HexId(const uint8_t* bytes, size_t n);
template <size_t N>
std::string HexId(const std::array<uint8_t, N>& id) {
  return HexId(id.data(), N);
}

using AttributeValue = std::variant<std::string, int64_t, bool, std::vector<std::string>>;
struct Attribute {
  std::string key;
  AttributeValue value;
};

enum class SpanKind { kInternal, kServer };

struct SpanData {
  TraceId trace_id{};
  SpanId span_id{};
  SpanId parent_span_id{};
  bool has_parent = false;
  uint8_t flags = 0;
  std::string trace_state;
  std::string name;
  SpanKind kind = SpanKind::kInternal;
  int64_t start_unix_nanos = 0;
  int64_t end_unix_nanos = 0;
  std::vector<Attribute> attributes;
  bool error = false;
  std::string status_message;
};

// Sends one batch; false when the batch was not delivered.
class SpanExporter {
 public:
  virtual ~SpanExporter() = default;
  virtual bool Export(const std::vector<SpanData>& batch) = 0;
};

// OTLP/gRPC: opentelemetry.proto.collector.trace.v1.TraceService/Export on
// `endpoint` ("host:port"; a leading "http://" is ignored), plaintext.
std::unique_ptr<SpanExporter> MakeOtlpGrpcExporter(const std::string& endpoint,
                                                   absl::Duration timeout,
                                                   const std::vector<Attribute>& resource);

struct BatchOptions {
  size_t max_queue = 2048;
  size_t max_batch = 512;
  absl::Duration flush_interval = absl::Seconds(1);
};

// Counters for the processor; each may be empty. `reason` is "queue_full" or
// "export_failed".
struct SpanCounters {
  std::function<void(absl::string_view reason, uint64_t spans)> dropped;
  std::function<void(uint64_t spans)> exported;
  std::function<void(size_t queued)> queue_size;
};

class BatchSpanProcessor {
 public:
  BatchSpanProcessor(std::unique_ptr<SpanExporter> exporter, BatchOptions options,
                     SpanCounters counters);
  ~BatchSpanProcessor();  // Shutdown()
  BatchSpanProcessor(const BatchSpanProcessor&) = delete;
  BatchSpanProcessor& operator=(const BatchSpanProcessor&) = delete;

  // Never waits for the exporter. False (and counted) when the queue is full.
  bool Enqueue(SpanData span);
  // Stops accepting spans, sends what is queued (one last try), joins.
  void Shutdown();

  uint64_t dropped() const;
  uint64_t exported() const;

 private:
  void Run();

  const std::unique_ptr<SpanExporter> exporter_;
  const BatchOptions options_;
  const SpanCounters counters_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<SpanData> queue_;
  bool stopping_ = false;
  uint64_t dropped_ = 0;
  uint64_t exported_ = 0;
  std::thread thread_;
};

class Tracer {
 public:
  // `processor` may be null: spans are then never sampled, but trace and span
  // ids are still made (and a caller's trace id kept) for log correlation.
  Tracer(double sampling_ratio, std::unique_ptr<BatchSpanProcessor> processor);
  bool exporting() const { return processor_ != nullptr; }
  BatchSpanProcessor* processor() { return processor_.get(); }
  // The server span's context: the caller's trace id (or a new one), a new
  // span id and the sampling decision.
  SpanData StartServerSpan(absl::string_view name, const std::optional<SpanContext>& parent) const;
  void End(SpanData span);

 private:
  bool SampleRoot(const TraceId& id) const;
  const double ratio_;
  std::unique_ptr<BatchSpanProcessor> processor_;
};

int64_t NowUnixNanos();
SpanId NewSpanId();
TraceId NewTraceId();

// The RPC's server span, from the call's start to End. Not tied to a thread:
// the call's handler and log lines get it through CallTrace (call_trace.h).
class RpcSpan {
 public:
  RpcSpan(Tracer* tracer, SpanData span);
  RpcSpan(const RpcSpan&) = delete;
  RpcSpan& operator=(const RpcSpan&) = delete;

  SpanData& span() { return span_; }
  const SpanData& span() const { return span_; }
  bool sampled() const { return (span_.flags & 1) != 0; }
  Tracer* tracer() const { return tracer_; }
  // Ends the server span and hands it to the tracer (once).
  void End();

 private:
  Tracer* tracer_;
  SpanData span_;
  bool ended_ = false;
};

// A child of the RPC's server span `parent`: "unseal", "engine", "seal".
// Records nothing when `parent` is null (no tracing, or a call made without
// the gRPC server) or not sampled.
class ChildSpan {
 public:
  ChildSpan(const RpcSpan* parent, absl::string_view name);
  ~ChildSpan();
  ChildSpan(const ChildSpan&) = delete;
  ChildSpan& operator=(const ChildSpan&) = delete;

 private:
  const RpcSpan* parent_;  // null when not sampled
  SpanData span_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_TRACING_H_
