// Observability units: traceparent parsing, the span export queue (full ->
// dropped and counted, never blocking), sampling, JSON logs with trace ids,
// pre-created metric series, and per-call recording through a real server.
#include "service/observability/observability.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "prometheus/text_serializer.h"
#include "service/observability/logging.h"
#include "service/observability/metrics.h"
#include "service/observability/tracing.h"
#include "service_fixture.h"

namespace stud::service {
namespace {

using ::stud::testing::IsOk;

TEST(Traceparent, ParsesW3CExample) {
  auto ctx = ParseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  ASSERT_TRUE(ctx.has_value());
  EXPECT_EQ(HexId(ctx->trace_id), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(HexId(ctx->span_id), "00f067aa0ba902b7");
  EXPECT_TRUE(ctx->sampled());
  EXPECT_EQ(FormatTraceparent(*ctx), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  auto unsampled = ParseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
  ASSERT_TRUE(unsampled.has_value());
  EXPECT_FALSE(unsampled->sampled());
}

TEST(Traceparent, RejectsInvalid) {
  for (const char* bad :
       {"", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",       // short
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",        // zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",        // zero span id
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",        // upper case
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",        // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // v00 has no more fields
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}) {
    EXPECT_FALSE(ParseTraceparent(bad).has_value()) << bad;
  }
  // A later version may append fields.
  EXPECT_TRUE(
      ParseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-xyz").has_value());
}

// An exporter that blocks until released and records what it got.
class GatedExporter : public SpanExporter {
 public:
  bool Export(const std::vector<SpanData>& batch) override {
    std::unique_lock<std::mutex> lock(mu_);
    ++calls_;
    cv_.wait(lock, [this] { return open_; });
    received_ += batch.size();
    return ok_;
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  size_t received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }
  bool ok_ = true;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  int calls_ = 0;
  size_t received_ = 0;
};

SpanData Span(const std::string& name) {
  SpanData s;
  s.name = name;
  s.trace_id = NewTraceId();
  s.span_id = NewSpanId();
  s.flags = 1;
  return s;
}

TEST(BatchSpanProcessor, FullQueueDropsAndCountsWithoutBlocking) {
  auto exporter = std::make_unique<GatedExporter>();
  GatedExporter* gate = exporter.get();
  Metrics metrics(BuildInfo{"test", "test"});
  SpanCounters counters;
  counters.dropped = [&](absl::string_view reason, uint64_t n) { metrics.SpansDropped(reason, n); };
  counters.exported = [&](uint64_t n) { metrics.SpansExported(n); };
  BatchOptions options;
  options.max_queue = 8;
  options.max_batch = 4;
  options.flush_interval = absl::Milliseconds(5);
  BatchSpanProcessor processor(std::move(exporter), options, counters);

  // The exporter is stuck on its first batch; the queue fills and then every
  // further span is refused at once.
  const auto start = std::chrono::steady_clock::now();
  int accepted = 0;
  for (int i = 0; i < 1000; ++i) accepted += processor.Enqueue(Span("s")) ? 1 : 0;
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::milliseconds(500)) << "Enqueue waited for the exporter";
  EXPECT_LE(accepted, 8 + 4);  // the queue, plus at most one batch already taken out
  EXPECT_GE(accepted, 8);
  EXPECT_EQ(processor.dropped(), static_cast<uint64_t>(1000 - accepted));

  prometheus::TextSerializer serializer;
  const std::string text = serializer.Serialize(metrics.registry()->Collect());
  EXPECT_TRUE(absl::StrContains(text, "stud_trace_spans_dropped_total{reason=\"queue_full\"} " +
                                          std::to_string(1000 - accepted)))
      << text;

  gate->Open();
  processor.Shutdown();
  EXPECT_EQ(gate->received(), static_cast<size_t>(accepted));
  EXPECT_EQ(processor.exported(), static_cast<uint64_t>(accepted));
}

TEST(BatchSpanProcessor, FailedExportIsCountedAsDropped) {
  auto exporter = std::make_unique<GatedExporter>();
  exporter->ok_ = false;
  exporter->Open();
  uint64_t failed = 0;
  SpanCounters counters;
  counters.dropped = [&](absl::string_view reason, uint64_t n) {
    if (reason == "export_failed") failed += n;
  };
  BatchSpanProcessor processor(std::move(exporter), BatchOptions{}, counters);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(processor.Enqueue(Span("s")));
  processor.Shutdown();
  EXPECT_EQ(failed, 5u);
  EXPECT_EQ(processor.dropped(), 5u);
  EXPECT_FALSE(processor.Enqueue(Span("late")));  // after shutdown: refused, not blocked
}

TEST(Tracer, SamplingFollowsParentThenRatio) {
  auto processor = std::make_unique<BatchSpanProcessor>(std::make_unique<GatedExporter>(),
                                                        BatchOptions{}, SpanCounters{});
  processor->Shutdown();
  Tracer never(0.0, std::move(processor));
  auto sampled_parent = ParseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  SpanData s = never.StartServerSpan("x", sampled_parent);
  EXPECT_EQ(s.flags & 1, 1) << "a sampled caller is always followed";
  EXPECT_EQ(HexId(s.trace_id), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(HexId(s.parent_span_id), "00f067aa0ba902b7");
  EXPECT_NE(s.span_id, sampled_parent->span_id);
  EXPECT_EQ(never.StartServerSpan("x", std::nullopt).flags & 1, 0);

  Tracer half(0.5, std::make_unique<BatchSpanProcessor>(std::make_unique<GatedExporter>(),
                                                        BatchOptions{}, SpanCounters{}));
  int sampled = 0;
  for (int i = 0; i < 4000; ++i) sampled += half.StartServerSpan("x", std::nullopt).flags & 1;
  EXPECT_GT(sampled, 1700);
  EXPECT_LT(sampled, 2300);
  half.processor()->Shutdown();

  Tracer off(1.0, nullptr);  // no exporter: ids for logs, nothing sampled
  EXPECT_EQ(off.StartServerSpan("x", sampled_parent).flags & 1, 0);
}

TEST(Logging, JsonLinesWithTraceIdsAndLevels) {
  std::vector<std::string> lines;
  SetLogSink([&](const std::string& line) { lines.push_back(line); });
  SetLogLevel(LogLevel::kInfo);
  LogLine(LogLevel::kDebug, "hidden").Str("k", "v");
  LogLine(LogLevel::kInfo, "plain")
      .Str("msg", "quote \" backslash \\ newline \n")
      .Int("n", 3)
      .Bool("b", true);
  {
    Tracer tracer(1.0, nullptr);
    RpcSpan span(
        &tracer,
        tracer.StartServerSpan(
            "x", ParseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")));
    LogLine(CallTrace{.span = &span}, LogLevel::kWarn, "in_rpc");
  }
  SetLogSink(nullptr);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(absl::StrContains(lines[0], "\"level\":\"info\",\"event\":\"plain\"")) << lines[0];
  EXPECT_TRUE(absl::StrContains(
      lines[0], "\"msg\":\"quote \\\" backslash \\\\ newline \\n\",\"n\":3,\"b\":true}"))
      << lines[0];
  EXPECT_FALSE(absl::StrContains(lines[0], "trace_id"));
  EXPECT_TRUE(absl::StrContains(lines[1],
                                "\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"span_id\":\""))
      << lines[1];
  LogLevel level;
  EXPECT_TRUE(ParseLogLevel("WARN", &level));
  EXPECT_EQ(level, LogLevel::kWarn);
  EXPECT_FALSE(ParseLogLevel("verbose", &level));
}

TEST(Metrics, LabelSetsExistAtStartWithZeroValues) {
  Metrics metrics(BuildInfo{"1.2.3", "abc"});
  metrics.SetSealingKey(7);
  prometheus::TextSerializer serializer;
  const std::string text = serializer.Serialize(metrics.registry()->Collect());
  for (const char* want : {
           "stud_rpc_requests_total{code=\"OK\",method=\"NewHand\"} 0",
           "stud_rpc_requests_total{code=\"UNAUTHENTICATED\",method=\"ApplyAction\"} 0",
           "stud_rpc_duration_seconds_bucket{code=\"OK\",method=\"ApplyAction\",le=\"1e-05\"} 0",
           "stud_rpc_in_flight_requests{method=\"GetView\"} 0",
           "stud_hands_started_total{dealing_mode=\"SERVICE\",variant=\"STUD_HI_LO\"} 0",
           "stud_hands_finished_total{dealing_mode=\"LIVE\",variant=\"RAZZ\"} 0",
           "stud_irregularity_rulings_total{rule_id=\"STUD-IRR-EXP-1\"} 0",
           "stud_token_rejections_total{reason=\"TOKEN_AUTHENTICATION_FAILED\"} 0",
           "stud_trace_spans_dropped_total{reason=\"export_failed\"} 0",
           "stud_trace_spans_exported_total 0",
           "stud_sealing_key_info{key_id=\"7\"} 1",
           "stud_build_info{commit=\"abc\",version=\"1.2.3\"} 1",
       }) {
    EXPECT_TRUE(absl::StrContains(text, want)) << want;
  }
}

// Through a real server: one record per call, by method and code; hands and
// token rejections by their labels.
TEST(Observability, RecordsEveryCallOnce) {
  Metrics metrics(BuildInfo{"t", "t"});
  Tracer tracer(1.0, nullptr);
  Observability obs{&metrics, &tracer};
  testing::Server server({testing::TestKey(1, 7)}, /*allow_preset=*/true, &obs);

  grpc::ClientContext c1;
  testing::SetDeadline(&c1);
  stud::v1::NewHandResponse hand;
  ASSERT_THAT(
      server.stub().NewHand(&c1, testing::BasicHand(3, stud::v1::DEALING_MODE_PRESET), &hand),
      IsOk());
  grpc::ClientContext c2;
  testing::SetDeadline(&c2);
  stud::v1::GetViewRequest bad;
  bad.set_token("not a token at all, far too short?");
  stud::v1::GetViewResponse view;
  EXPECT_EQ(server.stub().GetView(&c2, bad, &view).error_code(), grpc::StatusCode::UNAUTHENTICATED);

  prometheus::TextSerializer serializer;
  const std::string text = serializer.Serialize(metrics.registry()->Collect());
  for (const char* want : {
           "stud_rpc_requests_total{code=\"OK\",method=\"NewHand\"} 1",
           "stud_rpc_requests_total{code=\"UNAUTHENTICATED\",method=\"GetView\"} 1",
           "stud_rpc_duration_seconds_count{code=\"OK\",method=\"NewHand\"} 1",
           "stud_hands_started_total{dealing_mode=\"PRESET\",variant=\"STUD\"} 1",
           "stud_token_rejections_total{reason=\"TOKEN_MALFORMED\"} 1",
           "stud_rpc_in_flight_requests{method=\"NewHand\"} 0",
       }) {
    EXPECT_TRUE(absl::StrContains(text, want)) << want << "\n" << text;
  }
}

// Hands are counted by their game whatever detail the client asks for: a
// changes-only or compact answer carries no variant, yet the hand is counted
// started and finished with its labels.
TEST(Observability, HandsCountedByGameWhateverTheDetailAsked) {
  for (const stud::v1::UpdateDetail detail :
       {stud::v1::UPDATE_DETAIL_CHANGES, stud::v1::UPDATE_DETAIL_COMPACT}) {
    Metrics metrics(BuildInfo{"t", "t"});
    Observability obs{&metrics, nullptr};
    testing::Server server({testing::TestKey(1, 7)}, /*allow_preset=*/true, &obs);
    stud::v1::NewHandRequest req =
        testing::BasicHand(2, stud::v1::DEALING_MODE_PRESET, stud::v1::VARIANT_RAZZ);
    req.set_detail(detail);
    grpc::ClientContext c1;
    testing::SetDeadline(&c1);
    stud::v1::NewHandResponse hand;
    ASSERT_THAT(server.stub().NewHand(&c1, req, &hand), IsOk());
    ASSERT_FALSE(hand.update().public_view().variant() == stud::v1::VARIANT_RAZZ);
    // The bring-in, then a fold: the hand is over.
    stud::v1::HandUpdate u = hand.update();
    for (int step = 0; step < 2; ++step) {
      ASSERT_GT(u.legal_actions_size(), 0);
      stud::v1::ApplyActionRequest act;
      act.set_token(u.token());
      act.set_detail(detail);
      act.mutable_action()->set_seat(u.to_act());
      act.mutable_action()->set_kind(u.legal_actions(0).kind());
      act.mutable_action()->set_amount_to(u.legal_actions(0).amount_to());
      for (const auto& legal : u.legal_actions()) {
        if (legal.kind() == stud::v1::ACTION_KIND_FOLD)
          act.mutable_action()->set_kind(legal.kind());
      }
      grpc::ClientContext c2;
      testing::SetDeadline(&c2);
      stud::v1::ApplyActionResponse done;
      ASSERT_THAT(server.stub().ApplyAction(&c2, act, &done), IsOk());
      u = done.update();
    }
    EXPECT_EQ(u.to_act(), 0);
    prometheus::TextSerializer serializer;
    const std::string text = serializer.Serialize(metrics.registry()->Collect());
    for (const char* want : {
             "stud_hands_started_total{dealing_mode=\"PRESET\",variant=\"RAZZ\"} 1",
             "stud_hands_finished_total{dealing_mode=\"PRESET\",variant=\"RAZZ\"} 1",
         }) {
      EXPECT_TRUE(absl::StrContains(text, want)) << detail << ": " << want << "\n" << text;
    }
  }
}

// Keeps every span it is given.
class RecordingExporter : public SpanExporter {
 public:
  explicit RecordingExporter(std::vector<SpanData>* out) : out_(out) {}
  bool Export(const std::vector<SpanData>& batch) override {
    out_->insert(out_->end(), batch.begin(), batch.end());
    return true;
  }

 private:
  std::vector<SpanData>* out_;  // read only after the processor's Shutdown
};

std::string StringAttribute(const SpanData& span, const std::string& key) {
  for (const Attribute& a : span.attributes) {
    if (a.key == key) return std::get<std::string>(a.value);
  }
  return "";
}

// A disputed hand is followed from the id a player's screen shows
// (PublicView.hand_id): every log line of a call on the hand and every such
// call's span carry it; a call whose token does not open names no hand.
TEST(Observability, HandIdOnLogLinesAndSpansOfEveryCallOnAHand) {
  std::mutex mu;
  std::vector<std::string> lines;
  SetLogSink([&](const std::string& line) {
    std::lock_guard<std::mutex> lock(mu);
    lines.push_back(line);
  });
  SetLogLevel(LogLevel::kDebug);  // refusals are logged at debug
  std::vector<SpanData> spans;
  Metrics metrics(BuildInfo{"t", "t"});
  Tracer tracer(1.0,
                std::make_unique<BatchSpanProcessor>(std::make_unique<RecordingExporter>(&spans),
                                                     BatchOptions{}, SpanCounters{}));
  Observability obs{&metrics, &tracer};
  std::string hand_id;
  {
    testing::Server server({testing::TestKey(1, 7)}, /*allow_preset=*/true, &obs);
    stud::v1::NewHandRequest deal = testing::BasicHand(3, stud::v1::DEALING_MODE_PRESET);
    deal.set_detail(stud::v1::UPDATE_DETAIL_CHANGES);  // no public view: the id still counts
    grpc::ClientContext c1;
    testing::SetDeadline(&c1);
    stud::v1::NewHandResponse hand;
    ASSERT_THAT(server.stub().NewHand(&c1, deal, &hand), IsOk());
    // The id as the player's screen shows it.
    grpc::ClientContext c2;
    testing::SetDeadline(&c2);
    stud::v1::GetViewRequest view_req;
    view_req.set_token(hand.update().token());
    stud::v1::GetViewResponse view;
    ASSERT_THAT(server.stub().GetView(&c2, view_req, &view), IsOk());
    hand_id = view.update().public_view().hand_id();
    ASSERT_EQ(hand_id.size(), 32u);
    // A stale call on the hand: refused, logged (debug) with the hand's id.
    grpc::ClientContext c3;
    testing::SetDeadline(&c3);
    stud::v1::ApplyActionRequest stale;
    stale.set_token(hand.update().token());
    stale.set_expected_version(hand.update().version() + 5);
    stale.mutable_action()->set_seat(hand.update().to_act());
    stale.mutable_action()->set_kind(hand.update().legal_actions(0).kind());
    stale.mutable_action()->set_amount_to(hand.update().legal_actions(0).amount_to());
    stud::v1::ApplyActionResponse refused;
    ASSERT_EQ(server.stub().ApplyAction(&c3, stale, &refused).error_code(),
              grpc::StatusCode::ABORTED);
    // A token that does not open: no hand, even with an id claimed.
    grpc::ClientContext c4;
    testing::SetDeadline(&c4);
    stud::v1::GetViewRequest bad;
    bad.set_token("not a token at all, far too short?");
    bad.set_expected_hand_id(hand_id);
    EXPECT_EQ(server.stub().GetView(&c4, bad, &view).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  tracer.processor()->Shutdown();
  SetLogSink(nullptr);
  SetLogLevel(LogLevel::kInfo);

  std::map<std::string, std::string> hand_of_method;
  for (const SpanData& span : spans) {
    hand_of_method[std::string(span.name)] += StringAttribute(span, "stud.hand_id") + ";";
  }
  EXPECT_EQ(hand_of_method["stud.v1.StudService/NewHand"], hand_id + ";");
  EXPECT_EQ(hand_of_method["stud.v1.StudService/ApplyAction"], hand_id + ";");
  EXPECT_EQ(hand_of_method["stud.v1.StudService/GetView"], hand_id + ";;")
      << "the GetView whose token opened names the hand; the rejected one none";

  const std::string field = "\"hand_id\":\"" + hand_id + "\"";
  int refused_lines = 0, rejected_lines = 0;
  for (const std::string& line : lines) {
    if (absl::StrContains(line, "\"event\":\"rpc_refused\"")) {
      ++refused_lines;
      EXPECT_TRUE(absl::StrContains(line, field)) << line;
    }
    if (absl::StrContains(line, "\"event\":\"token_rejected\"")) {
      ++rejected_lines;
      EXPECT_FALSE(absl::StrContains(line, "hand_id")) << line;
    }
  }
  EXPECT_EQ(refused_lines, 1);
  EXPECT_EQ(rejected_lines, 1);
}

}  // namespace
}  // namespace stud::service
