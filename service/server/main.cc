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
#include <fstream>
#include <memory>
#include <sstream>
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

ABSL_FLAG(std::string, listen, "127.0.0.1:50051",
          "gRPC listen address (host:port; port 0 = any free port)");
ABSL_FLAG(
    std::string, metrics_listen, "127.0.0.1:9464",
    "Prometheus /metrics address (host:port; port 0 = any free port, logged as metrics_listening); "
    "empty disables metrics");
ABSL_FLAG(std::string, otlp_endpoint, "",
          "OTLP/gRPC trace collector (host:port, plaintext); empty disables trace export");
ABSL_FLAG(double, trace_sampling_ratio, 1.0,
          "Share of calls without a sampled caller traceparent that are traced (0..1); a caller's "
          "sampled flag is always followed");
ABSL_FLAG(int, otlp_queue_spans, 2048,
          "Spans the trace export queue holds; more are dropped and counted");
ABSL_FLAG(int, otlp_batch_spans, 512, "Most spans sent in one OTLP Export call");
ABSL_FLAG(int, otlp_flush_ms, 1000,
          "Longest time a span waits in the queue before a batch is sent");
ABSL_FLAG(int, otlp_timeout_ms, 3000, "Deadline of one OTLP Export call");
ABSL_FLAG(std::string, log_level, "info", "Lowest log level written: debug, info, warn or error");
ABSL_FLAG(std::string, key_file, "",
          "Sealing key ring file (\"<id>:<64 hex>\" entries; the largest id seals). "
          "Without it, env STUD_KEYS is read; without both, an ephemeral key is made.");
ABSL_FLAG(std::string, signing_keys_file, "",
          "Hand receipt signing keys (\"<name>:<base64 of a 32-byte Ed25519 seed>\" per line; "
          "the first signs, all are published by GetSigningKeys). Without it, a random key "
          "per process (receipts then verify only against this process's key).");
ABSL_FLAG(int, token_format, stud::service::kDerivedTokenFormat,
          "Format of the tokens this server seals (service/token/sealer.h): 5 (AES-256-GCM-SIV "
          "under a subkey of the ring key, the tenant as a keyed tag); 4 (AES-256-GCM-SIV under "
          "the ring key, the tenant by name) during a rolling upgrade from a release that cannot "
          "open format 5; 1 (formats 1 and 2: keyed-BLAKE2b nonce, XChaCha20-Poly1305) from a "
          "release that cannot open format 4. 3 (SipHash-derived nonce) is deprecated. "
          "Every format is opened whatever this flag says");
ABSL_FLAG(int, sealed_schema, 3,
          "Schema of the token plaintext this server writes: 3 (rule IDs as numbers), or 2 (rule "
          "IDs as names), which releases before 3 also read: use 2 during a rolling upgrade from "
          "one of them (CHANGELOG.md). Both are always read");
ABSL_FLAG(bool, allow_preset, false, "Accept DEALING_MODE_PRESET (caller-chosen deck order)");
ABSL_FLAG(
    bool, allow_history_reveal, false,
    "ExportHandHistory honours reveal_hidden_cards (every seat's down cards in the PHH record); "
    "without it such a request is PERMISSION_DENIED");
ABSL_FLAG(bool, allow_deck_reveal, false,
          "GetView honours reveal_deck: a complete hand's deck, recycle order and salt, for a "
          "call without a seat ticket on a hand that requires none; without it (and for every "
          "seat ticket) such a request is PERMISSION_DENIED DECK_REVEAL_NOT_PERMITTED");
ABSL_FLAG(std::string, tls_cert, "", "PEM certificate chain; with --tls_key enables TLS");
ABSL_FLAG(std::string, tls_key, "", "PEM private key; with --tls_cert enables TLS");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA bundle: with TLS, require a client certificate signed by it (mutual TLS)");
ABSL_FLAG(
    std::string, tenant_keys_file, "",
    "Caller authentication: \"<tenant>:<64 hex>\" entries; calls must send x-stud-tenant and "
    "x-stud-api-key, and tokens are bound to their tenant. Without it, env STUD_TENANT_KEYS is "
    "read; without both, callers are not authenticated.");
ABSL_FLAG(
    std::string, seat_tickets, "off",
    "Seat-scoped access: \"off\" (a token sees and acts for every seat: a trusted backend) or "
    "\"required\" (every call on a hand must carry a seat ticket from NewHand and is limited "
    "to that seat). Per tenant: mark its entry \"<tenant>:<hex>:tickets\" in the tenant key file.");
ABSL_FLAG(double, seat_rate_limit, 20,
          "Calls per second one seat's ticket may make on this replica (bursts of twice that); "
          "more are RESOURCE_EXHAUSTED SEAT_RATE_LIMITED. 0 = no limit");
ABSL_FLAG(int, max_message_bytes, 1 << 20, "Largest request or response message, in bytes");
ABSL_FLAG(int, drain_seconds, 10, "Grace period for in-flight calls on SIGTERM/SIGINT");
ABSL_FLAG(int, max_in_flight, 0,
          "Load shedding: 0 = off (1024 with --ledger); N = calls are queued for --workers threads "
          "and a call arriving while N are queued or running is refused with RESOURCE_EXHAUSTED");
ABSL_FLAG(std::string, ledger, "",
          "Hand ledger, redis://HOST:PORT or redis-sentinel://HOST:PORT,HOST:PORT/MASTER_NAME "
          "(the master found through Redis Sentinel and followed across failovers): only each "
          "hand's latest token is accepted (no rewinds or forks); empty = off (trusted mode). "
          "No password here: --ledger_password_file or STUD_LEDGER_PASSWORD");
ABSL_FLAG(std::string, ledger_password_file, "",
          "File holding the ledger Redis password (AUTH; one line). Without it the environment "
          "variable STUD_LEDGER_PASSWORD is used when set. Never on the command line");
ABSL_FLAG(std::string, ledger_sentinel_password_file, "",
          "File holding the password of the Redis Sentinels themselves (requirepass on the "
          "Sentinels; one line), for redis-sentinel://. Without it the environment variable "
          "STUD_LEDGER_SENTINEL_PASSWORD is used when set. Never on the command line");
ABSL_FLAG(int, ledger_wait_replicas, 0,
          "After each ledger write, wait until this many Redis replicas have it (WAIT) before "
          "answering, so a failover cannot lose a write whose answer left; 0 = do not wait");
ABSL_FLAG(int, ledger_wait_timeout_ms, 100,
          "How long a write waits for --ledger_wait_replicas; fewer acknowledgements is "
          "UNAVAILABLE (the exact retry completes the call)");
ABSL_FLAG(int64_t, ledger_max_hands_per_tenant, 0,
          "Hands in play a tenant may hold in the ledger (across replicas); a NewHand beyond it "
          "is RESOURCE_EXHAUSTED TENANT_HANDS_EXHAUSTED. 0 = no limit");
ABSL_FLAG(int64_t, ledger_ttl_seconds, 86400,
          "How long a hand's ledger entry is kept after the hand ends");
ABSL_FLAG(int64_t, ledger_in_play_ttl_seconds, 7 * 86400,
          "How long a hand's ledger entry is kept after its last change while the hand is in play");
ABSL_FLAG(int, ledger_timeout_ms, 500, "Connect and reply timeout of each ledger (Redis) call");
ABSL_FLAG(int, max_watchers, 10000,
          "With --ledger: open WatchHand streams on this replica; more are RESOURCE_EXHAUSTED");
ABSL_FLAG(int, max_watchers_per_tenant, 0,
          "Open WatchHand streams one tenant may have on this replica (0 = no per-tenant limit)");
ABSL_FLAG(int, watch_idle_timeout_seconds, 300,
          "A WatchHand stream whose hand has not changed for this long ends UNAVAILABLE WATCH_IDLE "
          "(the client resumes with after_version); 0 = never");
ABSL_FLAG(int, max_in_flight_per_tenant, 0,
          "With --tenant_keys_file: calls one tenant may have queued or running; more are refused "
          "RESOURCE_EXHAUSTED TENANT_OVERLOADED (0 = no per-tenant limit)");
ABSL_FLAG(int, workers, 0,
          "Threads serving calls when --max_in_flight is set (0 = one per core; 32 with --ledger)");

namespace {

// The defaults of --max_in_flight and --workers when a ledger is on.
constexpr int kLedgerMaxInFlight = 1024;
constexpr int kLedgerWorkers = 32;

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

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
  absl::StatusOr<std::vector<stud::service::Key>> keys =
      stud::service::LoadKeys(absl::GetFlag(FLAGS_key_file));
  if (!keys.ok()) return Fail(std::string(keys.status().message()));
  if (keys->empty()) {
    keys->push_back(stud::service::Sealer::EphemeralKey());
    stud::service::LogLine(stud::service::LogLevel::kWarn, "ephemeral_key")
        .Int("key_id", keys->back().id)
        .Str("msg",
             absl::StrCat(
                 "no --key_file and no STUD_KEYS: sealing with an EPHEMERAL key (id ",
                 keys->back().id,
                 "). Tokens will NOT survive a restart and other replicas cannot open them."));
  }
  std::string key_ids;
  for (const stud::service::Key& k : *keys)
    absl::StrAppend(&key_ids, key_ids.empty() ? "" : ",", k.id);
  absl::StatusOr<stud::service::Sealer> sealer = stud::service::Sealer::Create(
      *std::move(keys),
      static_cast<uint8_t>(std::clamp(absl::GetFlag(FLAGS_token_format), 0, 255)));
  if (!sealer.ok()) return Fail(std::string(sealer.status().message()));

  std::shared_ptr<grpc::ServerCredentials> creds = grpc::InsecureServerCredentials();
  const std::string cert_file = absl::GetFlag(FLAGS_tls_cert);
  const std::string key_file = absl::GetFlag(FLAGS_tls_key);
  if (cert_file.empty() != key_file.empty()) return Fail("--tls_cert and --tls_key go together");
  if (!cert_file.empty()) {
    grpc::SslServerCredentialsOptions ssl;
    grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
    if (!ReadFile(cert_file, &pair.cert_chain)) return Fail("--tls_cert: cannot read " + cert_file);
    if (!ReadFile(key_file, &pair.private_key)) return Fail("--tls_key: cannot read " + key_file);
    ssl.pem_key_cert_pairs.push_back(std::move(pair));
    if (const std::string ca = absl::GetFlag(FLAGS_tls_client_ca); !ca.empty()) {
      if (!ReadFile(ca, &ssl.pem_root_certs)) return Fail("--tls_client_ca: cannot read " + ca);
      ssl.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    }
    creds = grpc::SslServerCredentials(ssl);
  } else if (!absl::GetFlag(FLAGS_tls_client_ca).empty()) {
    return Fail("--tls_client_ca needs --tls_cert and --tls_key");
  }

  // Seat tickets (seat_tickets.h): the server-wide mode, then each tenant's mark.
  stud::service::SeatTicketPolicy seat_tickets;
  if (const std::string mode = absl::GetFlag(FLAGS_seat_tickets); mode == "required") {
    seat_tickets.required = true;
  } else if (mode != "off") {
    return Fail("--seat_tickets: \"off\" or \"required\", not \"" + mode + "\"");
  }
  // Caller authentication (tenants.h). Key bytes are never logged.
  std::unique_ptr<stud::service::TenantAuth> tenants;
  absl::StatusOr<std::vector<stud::service::TenantKey>> tenant_keys =
      stud::service::LoadTenantKeys(absl::GetFlag(FLAGS_tenant_keys_file));
  if (!tenant_keys.ok()) return Fail(std::string(tenant_keys.status().message()));
  for (const stud::service::TenantKey& k : *tenant_keys) {
    if (k.seat_tickets) seat_tickets.tenants.insert(k.tenant);
  }
  if (!tenant_keys->empty()) {
    absl::StatusOr<stud::service::TenantAuth> auth =
        stud::service::TenantAuth::Create(*std::move(tenant_keys));
    if (!auth.ok()) return Fail(std::string(auth.status().message()));
    tenants = std::make_unique<stud::service::TenantAuth>(*std::move(auth));
  }

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
  stud::fairness::SigningKeys signing_keys = stud::fairness::SigningKeys::Ephemeral();
  if (const std::string path = absl::GetFlag(FLAGS_signing_keys_file); !path.empty()) {
    std::string text;
    if (!ReadFile(path, &text)) return Fail("--signing_keys_file: cannot read " + path);
    absl::StatusOr<stud::fairness::SigningKeys> loaded =
        stud::fairness::SigningKeys::FromText(text);
    if (!loaded.ok()) return Fail("--signing_keys_file: " + std::string(loaded.status().message()));
    signing_keys = *std::move(loaded);
  } else {
    stud::service::LogLine(stud::service::LogLevel::kWarn, "signing_key_ephemeral")
        .Str("msg",
             "no --signing_keys_file: hand receipts are signed with a random key made for this "
             "process alone; replicas sign differently and no receipt verifies after a restart")
        .Str("key_id", signing_keys.signer().key_id);
  }
  options.signing_keys = &signing_keys;
  options.observability = &observability;
  options.tenants = tenants.get();
  options.seat_tickets = &seat_tickets;
  options.max_in_flight = std::max(0, absl::GetFlag(FLAGS_max_in_flight));
  options.workers = std::max(0, absl::GetFlag(FLAGS_workers));
  std::unique_ptr<stud::service::RedisLedger> ledger;
  std::unique_ptr<stud::service::WatchHub> watch_hub;
  if (const std::string url = absl::GetFlag(FLAGS_ledger); !url.empty()) {
    absl::StatusOr<stud::service::RedisLedgerOptions> lo = stud::service::ParseLedgerUrl(url);
    if (!lo.ok()) return Fail(std::string(lo.status().message()));
    // The password never on the command line (readable in /proc/PID/cmdline).
    if (!lo->password.empty()) {
      return Fail(
          "--ledger: a password in the URL is readable by anyone who can list processes; put it "
          "in a file (--ledger_password_file) or STUD_LEDGER_PASSWORD");
    }
    // A secret from its file (one line), else from the environment; "" when neither.
    auto secret = [](const char* flag, const std::string& path, const char* env,
                     std::string* out) -> std::string {
      if (path.empty()) {
        if (const char* value = std::getenv(env); value != nullptr) *out = value;
        return "";
      }
      if (!ReadFile(path, out)) return absl::StrCat(flag, ": cannot read ", path);
      while (!out->empty() && (out->back() == '\n' || out->back() == '\r')) out->pop_back();
      return out->empty() ? absl::StrCat(flag, ": ", path, " is empty") : "";
    };
    if (std::string e = secret("--ledger_password_file", absl::GetFlag(FLAGS_ledger_password_file),
                               "STUD_LEDGER_PASSWORD", &lo->password);
        !e.empty()) {
      return Fail(e);
    }
    if (std::string e = secret("--ledger_sentinel_password_file",
                               absl::GetFlag(FLAGS_ledger_sentinel_password_file),
                               "STUD_LEDGER_SENTINEL_PASSWORD", &lo->sentinel_password);
        !e.empty()) {
      return Fail(e);
    }
    lo->wait_replicas = std::max(0, absl::GetFlag(FLAGS_ledger_wait_replicas));
    lo->wait_timeout = absl::Milliseconds(std::max(1, absl::GetFlag(FLAGS_ledger_wait_timeout_ms)));
    lo->max_hands_per_tenant =
        std::max<int64_t>(0, absl::GetFlag(FLAGS_ledger_max_hands_per_tenant));
    lo->ttl_ended_seconds = std::max<int64_t>(1, absl::GetFlag(FLAGS_ledger_ttl_seconds));
    lo->ttl_in_play_seconds = std::max<int64_t>(1, absl::GetFlag(FLAGS_ledger_in_play_ttl_seconds));
    lo->connect_timeout = lo->io_timeout =
        absl::Milliseconds(std::max(1, absl::GetFlag(FLAGS_ledger_timeout_ms)));
    const std::string where = stud::service::DescribeLedgerAddress(*lo);
    watch_hub = std::make_unique<stud::service::WatchHub>(
        stud::service::WatchHubOptions{
            .redis = *lo,
            .max_watchers = std::max(0, absl::GetFlag(FLAGS_max_watchers)),
            .max_watchers_per_tenant = std::max(0, absl::GetFlag(FLAGS_max_watchers_per_tenant)),
            .idle_timeout =
                absl::Seconds(std::max(0, absl::GetFlag(FLAGS_watch_idle_timeout_seconds)))},
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
  builder.AddListeningPort(listen, creds, &bound_port);
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
      .Bool("tls", !cert_file.empty())
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
