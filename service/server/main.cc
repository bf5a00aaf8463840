// stud_server: the stud.v1.StudService gRPC server.
//
// With no flags it serves on 127.0.0.1:50051 with an ephemeral sealing key.
// When ready it prints exactly one line on stdout:
//   stud_server listening on <host>:<port>
// (with the bound port when --listen asks for port 0). Diagnostics go to
// stderr as JSON lines (logging.h): the start-up configuration (never key
// bytes), the metrics port, rejected tokens, irregularity rulings, errors, and gRPC's own lines.
// SIGTERM or SIGINT starts a graceful drain: new calls are refused UNAVAILABLE, in-flight calls get
// up to --drain_seconds to finish, the sockets close, then the process exits 0.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/hand_key.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "service/fairness/receipt.h"
#include "service/observability/grpc_log.h"
#include "service/observability/logging.h"
#include "service/observability/metrics.h"
#include "service/observability/observability.h"
#include "service/observability/tracing.h"
#include "service/server/connection_policy.h"
#include "service/server/drain.h"
#include "service/server/options.h"
#include "service/server/stud_service.h"
#include "service/token/sealer.h"
#include "service/trust/redis_ledger.h"
#include "service/trust/seat_rate_limit.h"
#include "service/trust/seat_tickets.h"
#include "service/trust/tenant_limits.h"
#include "service/trust/tenants.h"
#include "service/trust/watch_hub.h"

#ifndef STUD_VERSION
#define STUD_VERSION "dev"
#endif
#ifndef STUD_GIT_COMMIT
#define STUD_GIT_COMMIT "unknown"
#endif

namespace {

// The defaults of --max_in_flight and --workers when a ledger is on.
constexpr int kLedgerMaxInFlight = 1024;
constexpr int kLedgerWorkers = 32;

int Fail(const std::string& message) {
  stud::service::LogLine(stud::service::LogLevel::kError, "startup_failed").Str("msg", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // gRPC's core locks are absl::Mutex; Debian's Abseil build leaves deadlock
  // detection on, which maintains a lock-order graph (absl GraphCycles) on
  // every acquisition: ~3% of server CPU under load, for a check that only
  // reports (measured: ~3% more ApplyAction calls per second without it). The
  // do-nothing baseline measured faster with it on, so it keeps it
  // (tools/loadgen/echo_server.cc).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
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
  stud::service::LogLevel log_level = stud::service::LogLevel::kInfo;
  if (!stud::service::ParseLogLevel(absl::GetFlag(FLAGS_log_level), &log_level)) {
    return Fail("--log_level: must be debug, info, warn or error");
  }
  stud::service::SetLogLevel(log_level);
  stud::service::RouteGrpcLogToJson();
  const double sampling_ratio = absl::GetFlag(FLAGS_trace_sampling_ratio);
  if (!(sampling_ratio >= 0.0 && sampling_ratio <= 1.0))
    return Fail("--trace_sampling_ratio: must be in 0..1");

  // Block the shutdown signals in every thread (gRPC's threads inherit this
  // mask) so that only sigwait below receives them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  if (absl::Status st = stud::service::InitCrypto(); !st.ok())
    return Fail(std::string(st.message()));
  // The hand evaluator builds its tables at first use (tens of ms): do it now,
  // before the server reports ready, not inside the first showdown's call.
  const stud::KeyEvaluator evaluator_tables;
  (void)evaluator_tables;
  std::string key_ids;
  absl::StatusOr<stud::service::Sealer> sealer = stud::service::SealerFromFlags(&key_ids);
  if (!sealer.ok()) return Fail(std::string(sealer.status().message()));
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> creds =
      stud::service::ServerCredentialsFromFlags();
  if (!creds.ok()) return Fail(std::string(creds.status().message()));
  stud::service::SeatTicketPolicy seat_tickets;
  absl::StatusOr<std::unique_ptr<stud::service::TenantAuth>> tenant_auth =
      stud::service::TenantsFromFlags(&seat_tickets);
  if (!tenant_auth.ok()) return Fail(std::string(tenant_auth.status().message()));
  std::unique_ptr<stud::service::TenantAuth> tenants = *std::move(tenant_auth);

  // Metrics: on by default on loopback. A port taken at the default address
  // is a warning (several servers on one host); an address given explicitly
  // must work.
  std::unique_ptr<stud::service::Metrics> metrics;
  const std::string metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  if (!metrics_listen.empty()) {
    metrics = std::make_unique<stud::service::Metrics>(
        stud::service::BuildInfo{STUD_VERSION, STUD_GIT_COMMIT});
    metrics->SetSealingKey(sealer->sealing_key_id());
    int metrics_port = 0;
    if (absl::Status st = metrics->Serve(metrics_listen, &metrics_port); !st.ok()) {
      if (metrics_listen != absl::GetFlagReflectionHandle(FLAGS_metrics_listen).DefaultValue()) {
        return Fail(std::string(st.message()));
      }
      stud::service::LogLine(stud::service::LogLevel::kWarn, "metrics_unavailable")
          .Str("msg", st.message());
      metrics.reset();
    } else {
      const size_t c = metrics_listen.rfind(':');
      stud::service::LogLine(stud::service::LogLevel::kInfo, "metrics_listening")
          .Str("address", absl::StrCat(metrics_listen.substr(0, c), ":", metrics_port))
          .Int("port", metrics_port);
    }
  }

  // Traces: exported only when an OTLP endpoint is set.
  const std::string otlp_endpoint = absl::GetFlag(FLAGS_otlp_endpoint);
  std::unique_ptr<stud::service::BatchSpanProcessor> processor;
  if (!otlp_endpoint.empty()) {
    stud::service::BatchOptions batch;
    batch.max_queue = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_otlp_queue_spans)));
    batch.max_batch = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_otlp_batch_spans)));
    batch.flush_interval = absl::Milliseconds(std::max(1, absl::GetFlag(FLAGS_otlp_flush_ms)));
    stud::service::SpanCounters counters;
    stud::service::Metrics* m = metrics.get();
    counters.dropped = [m](absl::string_view reason, uint64_t spans) {
      if (m != nullptr) m->SpansDropped(reason, spans);
    };
    counters.exported = [m](uint64_t spans) {
      if (m != nullptr) m->SpansExported(spans);
    };
    counters.queue_size = [m](size_t spans) {
      if (m != nullptr) m->SpanQueueSize(spans);
    };
    processor = std::make_unique<stud::service::BatchSpanProcessor>(
        stud::service::MakeOtlpGrpcExporter(
            otlp_endpoint, absl::Milliseconds(absl::GetFlag(FLAGS_otlp_timeout_ms)),
            {{"service.name", std::string("stud_server")},
             {"service.version", std::string(STUD_VERSION)}}),
        batch, std::move(counters));
  }
  stud::service::Tracer tracer(sampling_ratio, std::move(processor));
  stud::service::Observability observability{metrics.get(), &tracer};

  stud::service::ServiceOptions options;
  options.allow_preset = absl::GetFlag(FLAGS_allow_preset);
  const int sealed_schema = absl::GetFlag(FLAGS_sealed_schema);
  if (sealed_schema != static_cast<int>(stud::service::kSealedSchema) &&
      sealed_schema != static_cast<int>(stud::service::kRollingUpgradeSchema)) {
    return Fail("--sealed_schema must be 3 or 2");
  }
  options.sealed_schema = static_cast<uint32_t>(sealed_schema);
  options.allow_history_reveal = absl::GetFlag(FLAGS_allow_history_reveal);
  options.allow_deck_reveal = absl::GetFlag(FLAGS_allow_deck_reveal);
  // Receipt signing keys (fairness/receipt.h): apart from the sealing keys.
  absl::StatusOr<stud::fairness::SigningKeys> loaded_signing_keys =
      stud::service::SigningKeysFromFlags();
  if (!loaded_signing_keys.ok()) return Fail(std::string(loaded_signing_keys.status().message()));
  stud::fairness::SigningKeys signing_keys = *std::move(loaded_signing_keys);
  options.signing_keys = &signing_keys;
  options.observability = &observability;
  options.tenants = tenants.get();
  options.seat_tickets = &seat_tickets;
  options.max_in_flight = std::max(0, absl::GetFlag(FLAGS_max_in_flight));
  options.workers = std::max(0, absl::GetFlag(FLAGS_workers));
  std::unique_ptr<stud::service::RedisLedger> ledger;
  std::unique_ptr<stud::service::WatchHub> watch_hub;
  if (const std::string url = absl::GetFlag(FLAGS_ledger); !url.empty()) {
    absl::StatusOr<stud::service::RedisLedgerOptions> lo =
        stud::service::LedgerOptionsFromFlags(url);
    if (!lo.ok()) return Fail(std::string(lo.status().message()));
    const std::string where = stud::service::DescribeLedgerAddress(*lo);
    watch_hub = std::make_unique<stud::service::WatchHub>(
        stud::service::WatchHubOptionsFromFlags(*lo),
        metrics != nullptr ? metrics->registry().get() : nullptr);
    options.watch_hub = watch_hub.get();
    ledger = std::make_unique<stud::service::RedisLedger>(
        *std::move(lo), metrics != nullptr ? metrics->registry().get() : nullptr);
    // Unreachable at start is not fatal: calls fail closed (UNAVAILABLE) until it answers.
    const absl::Status ping = ledger->Ping();
    stud::service::LogLine(
        ping.ok() ? stud::service::LogLevel::kInfo : stud::service::LogLevel::kWarn, "ledger")
        .Str("address", where)
        .Bool("reachable", ping.ok())
        .Str("msg", ping.ok() ? "hand ledger on" : std::string(ping.message()));
    options.ledger = ledger.get();
    // A ledger call waits for Redis. On gRPC's two callback threads that wait
    // would hold the server to two calls at a time, so with a ledger the calls
    // run on a pool of workers (docs/benchmarks.md, "With the hand ledger").
    if (options.max_in_flight == 0) options.max_in_flight = kLedgerMaxInFlight;
    if (options.workers == 0) options.workers = kLedgerWorkers;
  }
  std::unique_ptr<stud::service::TenantLimiter> tenant_limits;
  if (const int per_tenant = absl::GetFlag(FLAGS_max_in_flight_per_tenant); per_tenant > 0) {
    if (tenants == nullptr) return Fail("--max_in_flight_per_tenant needs --tenant_keys_file");
    tenant_limits = std::make_unique<stud::service::TenantLimiter>(
        per_tenant, tenants->tenants(), metrics != nullptr ? metrics->registry().get() : nullptr);
    options.tenant_limits = tenant_limits.get();
  }
  std::unique_ptr<stud::service::SeatRateLimiter> seat_rate_limit;
  if (const double rate = absl::GetFlag(FLAGS_seat_rate_limit); rate > 0) {
    seat_rate_limit = std::make_unique<stud::service::SeatRateLimiter>(rate, 2 * rate);
    options.seat_rate_limit = seat_rate_limit.get();
  }
  stud::service::StudServiceImpl service(&*sealer, options);
  const absl::StatusOr<stud::service::ConnectionPolicy> connections =
      stud::service::ConnectionPolicyFromFlags();
  if (!connections.ok()) return Fail(std::string(connections.status().message()));

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  const std::string listen = absl::GetFlag(FLAGS_listen);
  int bound_port = 0;
  builder.AddListeningPort(listen, *creds, &bound_port);
  builder.SetMaxReceiveMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  builder.SetMaxSendMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  stud::service::ApplyConnectionPolicy(*connections, builder);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || bound_port == 0) return Fail("cannot listen on " + listen);
  server->GetHealthCheckService()->SetServingStatus("stud.v1.StudService", true);
  server->GetHealthCheckService()->SetServingStatus("", true);

  const size_t colon = listen.rfind(':');
  const std::string host = colon == std::string::npos ? listen : listen.substr(0, colon);
  stud::service::LogLine(stud::service::LogLevel::kInfo, "startup")
      .Str("version", STUD_VERSION)
      .Str("commit", STUD_GIT_COMMIT)
      .Str("listen", absl::StrCat(host, ":", bound_port))
      .Bool("tls", !absl::GetFlag(FLAGS_tls_cert).empty())
      .Bool("mutual_tls", !absl::GetFlag(FLAGS_tls_client_ca).empty())
      .Int("tenants", tenants != nullptr ? static_cast<int64_t>(tenants->tenants().size()) : 0)
      .Str("metrics_listen", metrics != nullptr ? metrics_listen : "")
      .Str("otlp_endpoint", otlp_endpoint)
      .Num("trace_sampling_ratio", sampling_ratio)
      .Str("log_level", stud::service::LogLevelName(log_level))
      .Bool("allow_preset", options.allow_preset)
      .Int("sealed_schema", sealed_schema)
      .Str("connections", stud::service::DescribeConnectionPolicy(*connections))
      .Bool("allow_history_reveal", options.allow_history_reveal)
      .Bool("allow_deck_reveal", options.allow_deck_reveal)
      .Str("key_ids", key_ids)
      .Int("sealing_key_id", sealer->sealing_key_id())
      .Int("token_format", absl::GetFlag(FLAGS_token_format))
      .Str("key_source", !absl::GetFlag(FLAGS_key_file).empty() ? "key_file" : "env_or_ephemeral")
      .Str("signing_key_id", signing_keys.signer().key_id)
      .Int("signing_keys", static_cast<int64_t>(signing_keys.keys().size()))
      .Int("max_message_bytes", absl::GetFlag(FLAGS_max_message_bytes))
      .Int("drain_seconds", absl::GetFlag(FLAGS_drain_seconds))
      .Bool("seat_tickets_required", seat_tickets.required)
      .Int("seat_ticket_tenants", static_cast<int64_t>(seat_tickets.tenants.size()))
      .Int("max_in_flight", options.max_in_flight)
      .Int("workers", options.workers)
      .Bool("ledger", options.ledger != nullptr);
  if (options.allow_preset) {
    stud::service::LogLine(stud::service::LogLevel::kWarn, "preset_allowed")
        .Str("msg", "PRESET dealing is allowed (--allow_preset)");
  }
  std::printf("stud_server listening on %s:%d\n", host.c_str(), bound_port);
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  stud::service::LogLine(stud::service::LogLevel::kInfo, "draining")
      .Int("signal", sig)
      .Int("drain_seconds", absl::GetFlag(FLAGS_drain_seconds));
  stud::service::Drain(*server, service, bound_port,
                       absl::Seconds(absl::GetFlag(FLAGS_drain_seconds)));
  if (tracer.processor() != nullptr) tracer.processor()->Shutdown();  // sends what is queued
  // A LogLine writes itself when destroyed: here, at once.
  // NOLINTNEXTLINE(bugprone-unused-raii)
  stud::service::LogLine(stud::service::LogLevel::kInfo, "stopped");
  return 0;
}
