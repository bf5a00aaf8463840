// stud_server's steps (startup.h). Their order, their log lines and their
// errors are stud_server's contract with its operators: keep them.
#include "service/server/startup.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "engine/hand_key.h"
#include "grpcpp/health_check_service_interface.h"
#include "prometheus/collectable.h"
#include "prometheus/metric_family.h"
#include "service/observability/grpc_log.h"
#include "service/server/drain.h"
#include "service/server/options.h"

namespace stud::service {
namespace {

// The hand cache's counts as series, read at each scrape (token/hand_cache.h
// counts them itself: the token floor has no Prometheus).
class HandCacheSeries : public prometheus::Collectable {
 public:
  explicit HandCacheSeries(std::shared_ptr<const HandCache> cache) : cache_(std::move(cache)) {}
  std::vector<prometheus::MetricFamily> Collect() const override {
    const HandCache::Counts n = cache_->counts();
    auto sample = [](std::vector<prometheus::ClientMetric::Label> labels, double value,
                     prometheus::MetricType type) {
      prometheus::ClientMetric m;
      m.label = std::move(labels);
      (type == prometheus::MetricType::Counter ? m.counter.value : m.gauge.value) = value;
      return m;
    };
    using prometheus::MetricType;
    return {
        {"stud_hand_cache_lookups_total",
         "Calls that looked for their hand among the hands kept decoded, by result",
         MetricType::Counter,
         {sample({{"result", "hit"}}, static_cast<double>(n.hits), MetricType::Counter),
          sample({{"result", "miss"}}, static_cast<double>(n.misses), MetricType::Counter)}},
        {"stud_hand_cache_evictions_total",
         "Kept hands pushed out unused by newer ones",
         MetricType::Counter,
         {sample({}, static_cast<double>(n.evictions), MetricType::Counter)}},
        {"stud_hand_cache_capacity",
         "Hands this replica keeps decoded at most (--hand_cache)",
         MetricType::Gauge,
         {sample({}, static_cast<double>(cache_->capacity()), MetricType::Gauge)}},
    };
  }

 private:
  std::shared_ptr<const HandCache> cache_;
};

// --hand_cache's largest value: about 5 GB of hands kept, and its slots'
// bookkeeping allocated at start-up (a typo of a few digits more stops
// start-up with a message instead of exhausting memory).
constexpr int kMaxKeptHands = 1 << 18;

// The default of --max_in_flight when a ledger is on.
constexpr int kLedgerMaxInFlight = 1024;

absl::Status Invalid(absl::string_view message) { return absl::InvalidArgumentError(message); }

// The registry the trust floor's metrics go to; null without metrics.
prometheus::Registry* RegistryOf(const ServerParts& parts) {
  return parts.metrics != nullptr ? parts.metrics->registry().get() : nullptr;
}

// --ledger: the Redis hand ledger and WatchHand's hub over it. Unreachable at
// start is not fatal: calls fail closed (UNAVAILABLE) until it answers.
absl::Status StartLedger(const std::string& url, ServerParts& parts) {
  absl::StatusOr<RedisLedgerOptions> lo = LedgerOptionsFromFlags(url);
  if (!lo.ok()) return lo.status();
  const std::string where = DescribeLedgerAddress(*lo);
  parts.watch_hub = std::make_unique<WatchHub>(WatchHubOptionsFromFlags(*lo), RegistryOf(parts));
  parts.options.watch_hub = parts.watch_hub.get();
  parts.ledger = std::make_unique<RedisLedger>(*std::move(lo), RegistryOf(parts));
  const absl::Status ping = parts.ledger->Ping();
  LogLine(ping.ok() ? LogLevel::kInfo : LogLevel::kWarn, "ledger")
      .Str("address", where)
      .Bool("reachable", ping.ok())
      .Str("msg", ping.ok() ? "hand ledger on" : std::string(ping.message()));
  parts.options.ledger = parts.ledger.get();
  // A ledger call leaves its thread while Redis answers (trust/ledger.h), so
  // the calls stay on gRPC's threads, and the calls awaiting Redis are
  // bounded: without a bound a stalled Redis would hold every call that
  // arrives until its timeout (docs/benchmarks.md, "With the hand ledger").
  if (parts.options.max_in_flight == 0) parts.options.max_in_flight = kLedgerMaxInFlight;
  if (parts.options.workers == 0) parts.options.workers = kCallsOnGrpcThreads;
  return absl::OkStatus();
}

}  // namespace

void ParseFlags(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Seven Card Stud rules service (gRPC, stud.v1.StudService).\n"
      "Runs with no flags at all: 127.0.0.1:50051, an ephemeral key. Flags:");
  // --help lists the server's own flags (defined under service/), not only
  // those of a file named after the binary; --helpfull lists every library's.
  absl::FlagsUsageConfig usage;
  usage.contains_help_flags = [](absl::string_view file) {
    return absl::StrContains(file, "service/");
  };
  usage.contains_helpshort_flags = usage.contains_help_flags;
  absl::SetFlagsUsageConfig(usage);
  absl::ParseCommandLine(argc, argv);
}

int StartupFailed(const absl::Status& why) {
  LogLine(LogLevel::kError, "startup_failed").Str("msg", why.message());
  return 2;
}

absl::Status ConfigureLogs(ServerParts& parts) {
  if (!ParseLogLevel(absl::GetFlag(FLAGS_log_level), &parts.log_level)) {
    return Invalid("--log_level: must be debug, info, warn or error");
  }
  SetLogLevel(parts.log_level);
  RouteGrpcLogToJson();
  parts.sampling_ratio = absl::GetFlag(FLAGS_trace_sampling_ratio);
  if (!(parts.sampling_ratio >= 0.0 && parts.sampling_ratio <= 1.0))
    return Invalid("--trace_sampling_ratio: must be in 0..1");
  return absl::OkStatus();
}

sigset_t BlockShutdownSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

absl::Status LoadKeys(ServerParts& parts) {
  if (absl::Status st = InitCrypto(); !st.ok()) return st;
  // The hand evaluator builds its tables at first use (tens of ms): do it now,
  // before the server reports ready, not inside the first showdown's call.
  const KeyEvaluator evaluator_tables;
  (void)evaluator_tables;
  absl::StatusOr<Sealer> sealer = SealerFromFlags(&parts.key_ids);
  if (!sealer.ok()) return sealer.status();
  parts.sealer.emplace(*std::move(sealer));
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> creds = ServerCredentialsFromFlags();
  if (!creds.ok()) return creds.status();
  parts.credentials = *std::move(creds);
  absl::StatusOr<std::unique_ptr<TenantAuth>> tenants = TenantsFromFlags(&parts.seat_tickets);
  if (!tenants.ok()) return tenants.status();
  parts.tenants = *std::move(tenants);
  return absl::OkStatus();
}

absl::Status StartMetrics(ServerParts& parts) {
  parts.metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  if (parts.metrics_listen.empty()) return absl::OkStatus();
  parts.metrics = std::make_unique<Metrics>(parts.build);
  parts.metrics->SetSealingKey(parts.sealer->sealing_key_id());
  int port = 0;
  if (absl::Status st = parts.metrics->Serve(parts.metrics_listen, &port); !st.ok()) {
    if (parts.metrics_listen !=
        absl::GetFlagReflectionHandle(FLAGS_metrics_listen).DefaultValue()) {
      return st;
    }
    LogLine(LogLevel::kWarn, "metrics_unavailable").Str("msg", st.message());
    parts.metrics.reset();
    return absl::OkStatus();
  }
  const size_t c = parts.metrics_listen.rfind(':');
  LogLine(LogLevel::kInfo, "metrics_listening")
      .Str("address", absl::StrCat(parts.metrics_listen.substr(0, c), ":", port))
      .Int("port", port);
  return absl::OkStatus();
}

void StartTracing(ServerParts& parts) {
  parts.otlp_endpoint = absl::GetFlag(FLAGS_otlp_endpoint);
  std::unique_ptr<BatchSpanProcessor> processor;
  if (!parts.otlp_endpoint.empty()) {
    BatchOptions batch;
    batch.max_queue = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_otlp_queue_spans)));
    batch.max_batch = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_otlp_batch_spans)));
    batch.flush_interval = absl::Milliseconds(std::max(1, absl::GetFlag(FLAGS_otlp_flush_ms)));
    SpanCounters counters;
    Metrics* m = parts.metrics.get();
    counters.dropped = [m](absl::string_view reason, uint64_t spans) {
      if (m != nullptr) m->SpansDropped(reason, spans);
    };
    counters.exported = [m](uint64_t spans) {
      if (m != nullptr) m->SpansExported(spans);
    };
    counters.queue_size = [m](size_t spans) {
      if (m != nullptr) m->SpanQueueSize(spans);
    };
    processor = std::make_unique<BatchSpanProcessor>(
        MakeOtlpGrpcExporter(parts.otlp_endpoint,
                             absl::Milliseconds(absl::GetFlag(FLAGS_otlp_timeout_ms)),
                             {{"service.name", std::string("stud_server")},
                              {"service.version", parts.build.version}}),
        batch, std::move(counters));
  }
  parts.tracer = std::make_unique<Tracer>(parts.sampling_ratio, std::move(processor));
  parts.observability = {parts.metrics.get(), parts.tracer.get()};
}

absl::Status BuildService(ServerParts& parts) {
  ServiceOptions& options = parts.options;
  options.allow_preset = absl::GetFlag(FLAGS_allow_preset);
  parts.sealed_schema = absl::GetFlag(FLAGS_sealed_schema);
  if (parts.sealed_schema != static_cast<int>(kSealedSchema) &&
      parts.sealed_schema != static_cast<int>(kRollingUpgradeSchema)) {
    return Invalid("--sealed_schema must be 3 or 2");
  }
  options.sealed_schema = static_cast<uint32_t>(parts.sealed_schema);
  options.allow_history_reveal = absl::GetFlag(FLAGS_allow_history_reveal);
  options.allow_deck_reveal = absl::GetFlag(FLAGS_allow_deck_reveal);
  // Receipt signing keys (fairness/receipt.h): apart from the sealing keys.
  absl::StatusOr<fairness::SigningKeys> signing_keys = SigningKeysFromFlags();
  if (!signing_keys.ok()) return signing_keys.status();
  parts.signing_keys.emplace(*std::move(signing_keys));
  options.signing_keys = &*parts.signing_keys;
  options.observability = &parts.observability;
  options.tenants = parts.tenants.get();
  options.seat_tickets = &parts.seat_tickets;
  options.max_in_flight = std::max(0, absl::GetFlag(FLAGS_max_in_flight));
  options.workers = std::max(kCallsOnGrpcThreads, absl::GetFlag(FLAGS_workers));
  if (const std::string url = absl::GetFlag(FLAGS_ledger); !url.empty()) {
    if (absl::Status st = StartLedger(url, parts); !st.ok()) return st;
  }
  if (const int per_tenant = absl::GetFlag(FLAGS_max_in_flight_per_tenant); per_tenant > 0) {
    if (parts.tenants == nullptr)
      return Invalid("--max_in_flight_per_tenant needs --tenant_keys_file");
    parts.tenant_limits =
        std::make_unique<TenantLimiter>(per_tenant, parts.tenants->tenants(), RegistryOf(parts));
    options.tenant_limits = parts.tenant_limits.get();
  }
  if (const double rate = absl::GetFlag(FLAGS_seat_rate_limit); rate > 0) {
    parts.seat_rate_limit = std::make_unique<SeatRateLimiter>(rate, 2 * rate);
    options.seat_rate_limit = parts.seat_rate_limit.get();
  }
  const int kept_hands = absl::GetFlag(FLAGS_hand_cache);
  if (kept_hands < 0 || kept_hands > kMaxKeptHands) {
    return Invalid(absl::StrCat("--hand_cache: ", kept_hands, " is not 0 (off) to ", kMaxKeptHands,
                                " hands (about 20 KB each)"));
  }
  if (kept_hands > 0) {
    parts.hand_cache = std::make_shared<HandCache>(static_cast<size_t>(kept_hands));
    options.hand_cache = parts.hand_cache.get();
    if (parts.metrics != nullptr)
      parts.metrics->AddCollectable(std::make_shared<HandCacheSeries>(parts.hand_cache));
  }
  parts.service = std::make_unique<StudServiceImpl>(&*parts.sealer, options);
  return absl::OkStatus();
}

absl::Status StartServer(ServerParts& parts) {
  absl::StatusOr<ConnectionPolicy> connections = ConnectionPolicyFromFlags();
  if (!connections.ok()) return connections.status();
  parts.connections = *connections;
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  const std::string listen = absl::GetFlag(FLAGS_listen);
  builder.AddListeningPort(listen, parts.credentials, &parts.port);
  builder.SetMaxReceiveMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  builder.SetMaxSendMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  ApplyConnectionPolicy(parts.connections, builder);
  builder.RegisterService(parts.service.get());
  parts.server = builder.BuildAndStart();
  if (parts.server == nullptr || parts.port == 0) return Invalid("cannot listen on " + listen);
  parts.server->GetHealthCheckService()->SetServingStatus("stud.v1.StudService", true);
  parts.server->GetHealthCheckService()->SetServingStatus("", true);
  const size_t colon = listen.rfind(':');
  parts.host = colon == std::string::npos ? listen : listen.substr(0, colon);
  return absl::OkStatus();
}

absl::Status StartConnect(ServerParts& parts) {
  absl::StatusOr<ConnectListenerOptions> options = ConnectListenerOptionsFromFlags();
  if (!options.ok()) return options.status();
  if (options->address.empty()) return absl::OkStatus();
  StudServiceImpl* service = parts.service.get();
  parts.connect_calls = std::make_unique<ConnectCalls>(
      [service](absl::string_view path, const ClientMetadata& metadata, absl::string_view request,
                std::string* response) {
        return service->ServeBytes(path, metadata, request, response);
      },
      options->default_timeout, absl::GetFlag(FLAGS_max_message_bytes), parts.metrics.get());
  absl::StatusOr<std::unique_ptr<ConnectListener>> listener =
      ConnectListener::Start(parts.connect_calls.get(), *options);
  if (!listener.ok()) return listener.status();
  parts.connect = *std::move(listener);
  const size_t colon = options->address.rfind(':');
  parts.connect_host = options->address.substr(0, colon);
  LogLine(LogLevel::kInfo, "connect_listening")
      .Str("address", absl::StrCat(parts.connect_host, ":", parts.connect->port()))
      .Int("port", parts.connect->port())
      .Int("threads", options->threads)
      .Bool("tls", !options->tls_cert_pem.empty());
  return absl::OkStatus();
}

void AnnounceReady(const ServerParts& parts) {
  const ServiceOptions& options = parts.options;
  LogLine(LogLevel::kInfo, "startup")
      .Str("version", parts.build.version)
      .Str("commit", parts.build.commit)
      .Str("listen", absl::StrCat(parts.host, ":", parts.port))
      .Bool("tls", !absl::GetFlag(FLAGS_tls_cert).empty())
      .Bool("mutual_tls", !absl::GetFlag(FLAGS_tls_client_ca).empty())
      .Int("tenants",
           parts.tenants != nullptr ? static_cast<int64_t>(parts.tenants->tenants().size()) : 0)
      .Str("metrics_listen", parts.metrics != nullptr ? parts.metrics_listen : "")
      .Str("otlp_endpoint", parts.otlp_endpoint)
      .Num("trace_sampling_ratio", parts.sampling_ratio)
      .Str("log_level", LogLevelName(parts.log_level))
      .Bool("allow_preset", options.allow_preset)
      .Int("sealed_schema", parts.sealed_schema)
      .Str("connections", DescribeConnectionPolicy(parts.connections))
      .Bool("allow_history_reveal", options.allow_history_reveal)
      .Bool("allow_deck_reveal", options.allow_deck_reveal)
      .Str("key_ids", parts.key_ids)
      .Int("sealing_key_id", parts.sealer->sealing_key_id())
      .Int("token_format", absl::GetFlag(FLAGS_token_format))
      .Str("key_source", !absl::GetFlag(FLAGS_key_file).empty() ? "key_file" : "env_or_ephemeral")
      .Str("signing_key_id", parts.signing_keys->signer().key_id)
      .Int("signing_keys", static_cast<int64_t>(parts.signing_keys->keys().size()))
      .Int("max_message_bytes", absl::GetFlag(FLAGS_max_message_bytes))
      .Int("drain_seconds", absl::GetFlag(FLAGS_drain_seconds))
      .Bool("seat_tickets_required", parts.seat_tickets.required)
      .Int("seat_ticket_tenants", static_cast<int64_t>(parts.seat_tickets.tenants.size()))
      .Int("max_in_flight", options.max_in_flight)
      .Int("workers", options.workers)
      .Int("hand_cache", absl::GetFlag(FLAGS_hand_cache))
      .Bool("ledger", options.ledger != nullptr);
  if (options.allow_preset) {
    LogLine(LogLevel::kWarn, "preset_allowed")
        .Str("msg", "PRESET dealing is allowed (--allow_preset)");
  }
  std::printf("stud_server listening on %s:%d\n", parts.host.c_str(), parts.port);
  std::fflush(stdout);
}

int WaitForShutdownSignal(const sigset_t& signals) {
  int sig = 0;
  sigwait(&signals, &sig);
  return sig;
}

void DrainAndStop(ServerParts& parts, int signal) {
  LogLine(LogLevel::kInfo, "draining")
      .Int("signal", signal)
      .Int("drain_seconds", absl::GetFlag(FLAGS_drain_seconds));
  Drain(*parts.server, *parts.service, parts.port,
        absl::Seconds(absl::GetFlag(FLAGS_drain_seconds)));
  if (parts.tracer->processor() != nullptr)
    parts.tracer->processor()->Shutdown();  // sends what is queued
  // A LogLine writes itself when destroyed: here, at once.
  // NOLINTNEXTLINE(bugprone-unused-raii)
  LogLine(LogLevel::kInfo, "stopped");
}

}  // namespace stud::service
