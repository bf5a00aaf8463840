#include "service/observability/tracing.h"

#include <chrono>
#include <cstring>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "grpcpp/grpcpp.h"
#include "opentelemetry/proto/collector/trace/v1/trace_service.grpc.pb.h"
#include "opentelemetry/proto/collector/trace/v1/trace_service.pb.h"
#include "service/observability/thread_name.h"

namespace stud::service {
namespace otlp_common = opentelemetry::proto::common::v1;
namespace otlp_trace = opentelemetry::proto::trace::v1;
namespace otlp_collector = opentelemetry::proto::collector::trace::v1;

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // upper case is invalid in traceparent
}

template <size_t N>
bool ParseHex(absl::string_view text, std::array<uint8_t, N>* out) {
  if (text.size() != 2 * N) return false;
  bool any = false;
  for (size_t i = 0; i < N; ++i) {
    const int hi = HexDigit(text[2 * i]);
    const int lo = HexDigit(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    (*out)[i] = static_cast<uint8_t>(hi * 16 + lo);
    any = any || (*out)[i] != 0;
  }
  return any;  // all-zero ids are invalid
}

absl::BitGen& Rng() {
  thread_local absl::BitGen gen;
  return gen;
}

void SetValue(const AttributeValue& v, otlp_common::AnyValue* out) {
  if (const auto* s = std::get_if<std::string>(&v)) {
    out->set_string_value(*s);
  } else if (const auto* i = std::get_if<int64_t>(&v)) {
    out->set_int_value(*i);
  } else if (const auto* b = std::get_if<bool>(&v)) {
    out->set_bool_value(*b);
  } else if (const auto* a = std::get_if<std::vector<std::string>>(&v)) {
    auto* arr = out->mutable_array_value();
    for (const std::string& e : *a) arr->add_values()->set_string_value(e);
  }
}

class OtlpGrpcExporter : public SpanExporter {
 public:
  OtlpGrpcExporter(const std::string& endpoint, absl::Duration timeout,
                   const std::vector<Attribute>& resource)
      : timeout_(timeout), resource_(resource) {
    std::string target = endpoint;
    if (absl::StartsWith(target, "http://")) target = target.substr(7);
    channel_ = grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    stub_ = otlp_collector::TraceService::NewStub(channel_);
  }

  bool Export(const std::vector<SpanData>& batch) override {
    otlp_collector::ExportTraceServiceRequest req;
    otlp_trace::ResourceSpans* rs = req.add_resource_spans();
    for (const Attribute& a : resource_) {
      otlp_common::KeyValue* kv = rs->mutable_resource()->add_attributes();
      kv->set_key(a.key);
      SetValue(a.value, kv->mutable_value());
    }
    otlp_trace::ScopeSpans* ss = rs->add_scope_spans();
    ss->mutable_scope()->set_name("stud.service");
    for (const SpanData& s : batch) {
      otlp_trace::Span* out = ss->add_spans();
      out->set_trace_id(s.trace_id.data(), s.trace_id.size());
      out->set_span_id(s.span_id.data(), s.span_id.size());
      if (s.has_parent) out->set_parent_span_id(s.parent_span_id.data(), s.parent_span_id.size());
      out->set_trace_state(s.trace_state);
      out->set_flags(s.flags);
      out->set_name(s.name);
      out->set_kind(s.kind == SpanKind::kServer ? otlp_trace::Span::SPAN_KIND_SERVER
                                                : otlp_trace::Span::SPAN_KIND_INTERNAL);
      out->set_start_time_unix_nano(static_cast<uint64_t>(s.start_unix_nanos));
      out->set_end_time_unix_nano(static_cast<uint64_t>(s.end_unix_nanos));
      for (const Attribute& a : s.attributes) {
        otlp_common::KeyValue* kv = out->add_attributes();
        kv->set_key(a.key);
        SetValue(a.value, kv->mutable_value());
      }
      if (s.error) {
        out->mutable_status()->set_code(otlp_trace::Status::STATUS_CODE_ERROR);
        out->mutable_status()->set_message(s.status_message);
      }
    }
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + timeout_));
    otlp_collector::ExportTraceServiceResponse resp;
    return stub_->Export(&ctx, req, &resp).ok();
  }

 private:
  const absl::Duration timeout_;
  const std::vector<Attribute> resource_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<otlp_collector::TraceService::Stub> stub_;
};

}  // namespace

std::optional<SpanContext> ParseTraceparent(absl::string_view header) {
  // version "-" trace-id "-" parent-id "-" flags; future versions may append
  // "-..." fields, version ff is invalid.
  if (header.size() < 55) return std::nullopt;
  if (header[2] != '-' || header[35] != '-' || header[52] != '-') return std::nullopt;
  std::array<uint8_t, 1> version{}, flags{};
  if (HexDigit(header[0]) < 0 || HexDigit(header[1]) < 0) return std::nullopt;
  version[0] = static_cast<uint8_t>(HexDigit(header[0]) * 16 + HexDigit(header[1]));
  if (version[0] == 0xff) return std::nullopt;
  if (version[0] == 0 && header.size() != 55) return std::nullopt;
  if (version[0] != 0 && header.size() > 55 && header[55] != '-') return std::nullopt;
  SpanContext ctx;
  if (!ParseHex(header.substr(3, 32), &ctx.trace_id)) return std::nullopt;
  if (!ParseHex(header.substr(36, 16), &ctx.span_id)) return std::nullopt;
  if (HexDigit(header[53]) < 0 || HexDigit(header[54]) < 0) return std::nullopt;
  flags[0] = static_cast<uint8_t>(HexDigit(header[53]) * 16 + HexDigit(header[54]));
  ctx.flags = flags[0];
  return ctx;
}

std::string HexId(const uint8_t* bytes, size_t n) {
  static const char kHex[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 15];
  }
  return out;
}

std::string FormatTraceparent(const SpanContext& ctx) {
  const uint8_t flags[1] = {ctx.flags};
  return "00-" + HexId(ctx.trace_id) + "-" + HexId(ctx.span_id) + "-" + HexId(flags, 1);
}

int64_t NowUnixNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

SpanId NewSpanId() {
  SpanId id{};
  while (id == SpanId{}) {
    const uint64_t r = absl::Uniform<uint64_t>(Rng());
    std::memcpy(id.data(), &r, id.size());
  }
  return id;
}

TraceId NewTraceId() {
  TraceId id{};
  while (id == TraceId{}) {
    const uint64_t a = absl::Uniform<uint64_t>(Rng());
    const uint64_t b = absl::Uniform<uint64_t>(Rng());
    std::memcpy(id.data(), &a, 8);
    std::memcpy(id.data() + 8, &b, 8);
  }
  return id;
}

std::unique_ptr<SpanExporter> MakeOtlpGrpcExporter(const std::string& endpoint,
                                                   absl::Duration timeout,
                                                   const std::vector<Attribute>& resource) {
  return std::make_unique<OtlpGrpcExporter>(endpoint, timeout, resource);
}

// ---- BatchSpanProcessor ----

BatchSpanProcessor::BatchSpanProcessor(std::unique_ptr<SpanExporter> exporter, BatchOptions options,
                                       SpanCounters counters)
    : exporter_(std::move(exporter)), options_(options), counters_(std::move(counters)) {
  thread_ = std::thread([this] {
    NameThisThread("stud-otlp-spans");
    Run();
  });
}

BatchSpanProcessor::~BatchSpanProcessor() { Shutdown(); }

bool BatchSpanProcessor::Enqueue(SpanData span) {
  size_t queued = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || queue_.size() >= options_.max_queue) {
      ++dropped_;
    } else {
      queue_.push_back(std::move(span));
      queued = queue_.size();
    }
  }
  if (queued == 0) {
    if (counters_.dropped) counters_.dropped("queue_full", 1);
    return false;
  }
  if (queued >= options_.max_batch) cv_.notify_one();
  return true;
}

void BatchSpanProcessor::Run() {
  for (;;) {
    std::vector<SpanData> batch;
    bool stopping = false;
    size_t left = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, absl::ToChronoNanoseconds(options_.flush_interval),
                   [this] { return stopping_ || queue_.size() >= options_.max_batch; });
      const size_t n = std::min(queue_.size(), options_.max_batch);
      batch.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      stopping = stopping_;
      left = queue_.size();
    }
    if (counters_.queue_size) counters_.queue_size(left);
    if (!batch.empty()) {
      const bool ok = exporter_->Export(batch);
      {
        std::lock_guard<std::mutex> lock(mu_);
        (ok ? exported_ : dropped_) += batch.size();
      }
      if (ok && counters_.exported) counters_.exported(batch.size());
      if (!ok && counters_.dropped) counters_.dropped("export_failed", batch.size());
    }
    if (stopping && left == 0) return;
  }
}

void BatchSpanProcessor::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

uint64_t BatchSpanProcessor::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

uint64_t BatchSpanProcessor::exported() const {
  std::lock_guard<std::mutex> lock(mu_);
  return exported_;
}

// ---- Tracer ----

Tracer::Tracer(double sampling_ratio, std::unique_ptr<BatchSpanProcessor> processor)
    : ratio_(sampling_ratio), processor_(std::move(processor)) {}

bool Tracer::SampleRoot(const TraceId& id) const {
  if (ratio_ >= 1.0) return true;
  if (ratio_ <= 0.0) return false;
  // TraceIdRatioBased: the trace id's last 8 bytes as a number below ratio * 2^64.
  uint64_t x = 0;
  for (size_t i = 8; i < 16; ++i) x = (x << 8) | id[i];
  return static_cast<double>(x) < ratio_ * 18446744073709551616.0;
}

SpanData Tracer::StartServerSpan(absl::string_view name,
                                 const std::optional<SpanContext>& parent) const {
  SpanData s;
  s.kind = SpanKind::kServer;
  s.start_unix_nanos = NowUnixNanos();
  s.span_id = NewSpanId();
  bool sampled = false;
  if (parent.has_value()) {
    s.trace_id = parent->trace_id;
    s.parent_span_id = parent->span_id;
    s.has_parent = true;
    s.trace_state = parent->trace_state;
    sampled = parent->sampled();
  } else {
    s.trace_id = NewTraceId();
    sampled = SampleRoot(s.trace_id);
  }
  s.flags = (sampled && processor_ != nullptr) ? 1 : 0;
  // Only an exported span needs its name (the ids serve log lines either way).
  if (s.flags != 0) s.name = std::string(name);
  return s;
}

void Tracer::End(SpanData span) {
  if (processor_ != nullptr && (span.flags & 1) != 0) processor_->Enqueue(std::move(span));
}

// ---- the server span and its children ----

RpcSpan::RpcSpan(Tracer* tracer, SpanData span) : tracer_(tracer), span_(std::move(span)) {}

void RpcSpan::End() {
  if (ended_) return;
  ended_ = true;
  span_.end_unix_nanos = NowUnixNanos();
  if (tracer_ != nullptr && sampled()) tracer_->End(std::move(span_));
}

ChildSpan::ChildSpan(const RpcSpan* parent, absl::string_view name) : parent_(parent) {
  if (parent_ == nullptr || !parent_->sampled()) {
    parent_ = nullptr;
    return;
  }
  const SpanData& server = parent_->span();
  span_.trace_id = server.trace_id;
  span_.span_id = NewSpanId();
  span_.parent_span_id = server.span_id;
  span_.has_parent = true;
  span_.flags = server.flags;
  span_.trace_state = server.trace_state;
  span_.name = std::string(name);
  span_.kind = SpanKind::kInternal;
  span_.start_unix_nanos = NowUnixNanos();
}

ChildSpan::~ChildSpan() {
  if (parent_ == nullptr) return;
  span_.end_unix_nanos = NowUnixNanos();
  parent_->tracer()->End(std::move(span_));
}

}  // namespace stud::service
