// stud_server's flags and what is built from them (options.h).
#include "service/server/options.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "grpcpp/security/server_credentials.h"
#include "service/observability/logging.h"

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
ABSL_FLAG(int, hand_cache, 1024,
          "Hands this replica keeps decoded between calls (service/token/hand_cache.h): a call "
          "on the token it just answered with skips opening and decoding it. 18-24 KB of memory "
          "each (measured); 0 = off. Answers are the same bytes either way");
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
ABSL_FLAG(std::string, ledger_token_names, "digest",
          "How ledger entries name tokens: digest (BLAKE2b of the token, as every release) or tag "
          "(the token's AES-GCM-SIV tag: no hashing; formats 4 and 5). Replicas of either "
          "setting share a ledger, so a fleet switches one replica at a time");
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
          "Threads serving calls when --max_in_flight is set (0 = one per core; -1 = none, calls "
          "run on gRPC's threads: the default with --ledger)");
ABSL_FLAG(std::string, connect_listen, "",
          "Connect unary calls over HTTP/1.1 (JSON or binary) on this address (host:port; port 0 = "
          "any free port, logged as connect_listening); empty = off. TLS as --tls_cert/--tls_key");
ABSL_FLAG(int, connect_threads, 0,
          "Threads of --connect_listen, each serving one call at a time (0 = two per core)");
ABSL_FLAG(int, connect_max_connections, 4096, "Open --connect_listen connections at most");
ABSL_FLAG(int, connect_max_buffered_mib, 64,
          "Request bodies --connect_listen holds while they arrive, all connections together, in "
          "MiB; a body that would pass it is refused RESOURCE_EXHAUSTED (429)");
ABSL_FLAG(int, connect_idle_timeout_seconds, 60,
          "A --connect_listen connection idle this long is closed");
ABSL_FLAG(int, connect_default_timeout_ms, 10000,
          "Deadline of a Connect call that sends no connect-timeout-ms");

namespace stud::service {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

absl::StatusOr<ConnectListenerOptions> ConnectListenerOptionsFromFlags() {
  ConnectListenerOptions options;
  options.address = absl::GetFlag(FLAGS_connect_listen);
  if (options.address.empty()) return options;
  const int threads = absl::GetFlag(FLAGS_connect_threads);
  options.threads = threads > 0
                        ? threads
                        : 2 * std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  options.max_connections = absl::GetFlag(FLAGS_connect_max_connections);
  options.max_buffered_bytes =
      static_cast<size_t>(std::max(0, absl::GetFlag(FLAGS_connect_max_buffered_mib))) << 20;
  options.idle_timeout = absl::Seconds(absl::GetFlag(FLAGS_connect_idle_timeout_seconds));
  options.default_timeout = absl::Milliseconds(absl::GetFlag(FLAGS_connect_default_timeout_ms));
  if (options.max_connections < 1 || options.max_buffered_bytes == 0 ||
      options.idle_timeout <= absl::ZeroDuration() ||
      options.default_timeout <= absl::ZeroDuration())
    return absl::InvalidArgumentError(
        "--connect_max_connections, --connect_max_buffered_mib, --connect_idle_timeout_seconds and "
        "--connect_default_timeout_ms must be positive");
  if (!absl::GetFlag(FLAGS_tls_client_ca).empty())
    return absl::InvalidArgumentError(
        "--connect_listen does not ask for client certificates: it cannot serve with "
        "--tls_client_ca");
  if (const std::string cert = absl::GetFlag(FLAGS_tls_cert); !cert.empty()) {
    if (!ReadFile(cert, &options.tls_cert_pem))
      return absl::InvalidArgumentError("--tls_cert: cannot read " + cert);
    if (!ReadFile(absl::GetFlag(FLAGS_tls_key), &options.tls_key_pem))
      return absl::InvalidArgumentError("--tls_key: cannot read " + absl::GetFlag(FLAGS_tls_key));
  }
  return options;
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFromFlags() {
  const std::string cert_file = absl::GetFlag(FLAGS_tls_cert);
  const std::string key_file = absl::GetFlag(FLAGS_tls_key);
  const std::string ca = absl::GetFlag(FLAGS_tls_client_ca);
  if (cert_file.empty() != key_file.empty())
    return absl::InvalidArgumentError("--tls_cert and --tls_key go together");
  if (cert_file.empty()) {
    if (!ca.empty())
      return absl::InvalidArgumentError("--tls_client_ca needs --tls_cert and --tls_key");
    return grpc::InsecureServerCredentials();
  }
  grpc::SslServerCredentialsOptions ssl;
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  if (!ReadFile(cert_file, &pair.cert_chain))
    return absl::InvalidArgumentError("--tls_cert: cannot read " + cert_file);
  if (!ReadFile(key_file, &pair.private_key))
    return absl::InvalidArgumentError("--tls_key: cannot read " + key_file);
  ssl.pem_key_cert_pairs.push_back(std::move(pair));
  if (!ca.empty()) {
    if (!ReadFile(ca, &ssl.pem_root_certs))
      return absl::InvalidArgumentError("--tls_client_ca: cannot read " + ca);
    ssl.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(ssl);
}

absl::StatusOr<Sealer> SealerFromFlags(std::string* key_ids) {
  absl::StatusOr<std::vector<Key>> keys = LoadKeys(absl::GetFlag(FLAGS_key_file));
  if (!keys.ok()) return keys.status();
  if (keys->empty()) {
    keys->push_back(Sealer::EphemeralKey());
    LogLine(LogLevel::kWarn, "ephemeral_key")
        .Int("key_id", keys->back().id)
        .Str("msg",
             absl::StrCat(
                 "no --key_file and no STUD_KEYS: sealing with an EPHEMERAL key (id ",
                 keys->back().id,
                 "). Tokens will NOT survive a restart and other replicas cannot open them."));
  }
  for (const Key& k : *keys) absl::StrAppend(key_ids, key_ids->empty() ? "" : ",", k.id);
  return Sealer::Create(*std::move(keys), static_cast<uint8_t>(std::clamp(
                                              absl::GetFlag(FLAGS_token_format), 0, 255)));
}

absl::StatusOr<std::unique_ptr<TenantAuth>> TenantsFromFlags(SeatTicketPolicy* seat_tickets) {
  // Seat tickets (seat_tickets.h): the server-wide mode, then each tenant's mark.
  if (const std::string mode = absl::GetFlag(FLAGS_seat_tickets); mode == "required") {
    seat_tickets->required = true;
  } else if (mode != "off") {
    return absl::InvalidArgumentError("--seat_tickets: \"off\" or \"required\", not \"" + mode +
                                      "\"");
  }
  // Caller authentication (tenants.h). Key bytes are never logged.
  absl::StatusOr<std::vector<TenantKey>> tenant_keys =
      LoadTenantKeys(absl::GetFlag(FLAGS_tenant_keys_file));
  if (!tenant_keys.ok()) return tenant_keys.status();
  for (const TenantKey& k : *tenant_keys) {
    if (k.seat_tickets) seat_tickets->tenants.insert(k.tenant);
  }
  if (tenant_keys->empty()) return std::unique_ptr<TenantAuth>();
  absl::StatusOr<TenantAuth> auth = TenantAuth::Create(*std::move(tenant_keys));
  if (!auth.ok()) return auth.status();
  return std::make_unique<TenantAuth>(*std::move(auth));
}

absl::StatusOr<fairness::SigningKeys> SigningKeysFromFlags() {
  const std::string path = absl::GetFlag(FLAGS_signing_keys_file);
  if (path.empty()) {
    fairness::SigningKeys keys = fairness::SigningKeys::Ephemeral();
    LogLine(LogLevel::kWarn, "signing_key_ephemeral")
        .Str("msg",
             "no --signing_keys_file: hand receipts are signed with a random key made for this "
             "process alone; replicas sign differently and no receipt verifies after a restart")
        .Str("key_id", keys.signer().key_id);
    return keys;
  }
  std::string text;
  if (!ReadFile(path, &text))
    return absl::InvalidArgumentError("--signing_keys_file: cannot read " + path);
  absl::StatusOr<fairness::SigningKeys> loaded = fairness::SigningKeys::FromText(text);
  if (!loaded.ok()) {
    return absl::InvalidArgumentError("--signing_keys_file: " +
                                      std::string(loaded.status().message()));
  }
  return loaded;
}

namespace {
// A secret from its file (one line), else from the environment; "" when neither.
std::string Secret(const char* flag, const std::string& path, const char* env, std::string* out) {
  if (path.empty()) {
    if (const char* value = std::getenv(env); value != nullptr) *out = value;
    return "";
  }
  if (!ReadFile(path, out)) return absl::StrCat(flag, ": cannot read ", path);
  while (!out->empty() && (out->back() == '\n' || out->back() == '\r')) out->pop_back();
  return out->empty() ? absl::StrCat(flag, ": ", path, " is empty") : "";
}
}  // namespace

absl::StatusOr<RedisLedgerOptions> LedgerOptionsFromFlags(const std::string& url) {
  absl::StatusOr<RedisLedgerOptions> lo = ParseLedgerUrl(url);
  if (!lo.ok()) return lo.status();
  // The password never on the command line (readable in /proc/PID/cmdline).
  if (!lo->password.empty()) {
    return absl::InvalidArgumentError(
        "--ledger: a password in the URL is readable by anyone who can list processes; put it "
        "in a file (--ledger_password_file) or STUD_LEDGER_PASSWORD");
  }
  if (std::string e = Secret("--ledger_password_file", absl::GetFlag(FLAGS_ledger_password_file),
                             "STUD_LEDGER_PASSWORD", &lo->password);
      !e.empty()) {
    return absl::InvalidArgumentError(e);
  }
  if (std::string e = Secret("--ledger_sentinel_password_file",
                             absl::GetFlag(FLAGS_ledger_sentinel_password_file),
                             "STUD_LEDGER_SENTINEL_PASSWORD", &lo->sentinel_password);
      !e.empty()) {
    return absl::InvalidArgumentError(e);
  }
  lo->wait_replicas = std::max(0, absl::GetFlag(FLAGS_ledger_wait_replicas));
  lo->wait_timeout = absl::Milliseconds(std::max(1, absl::GetFlag(FLAGS_ledger_wait_timeout_ms)));
  lo->max_hands_per_tenant = std::max<int64_t>(0, absl::GetFlag(FLAGS_ledger_max_hands_per_tenant));
  lo->ttl_ended_seconds = std::max<int64_t>(1, absl::GetFlag(FLAGS_ledger_ttl_seconds));
  lo->ttl_in_play_seconds = std::max<int64_t>(1, absl::GetFlag(FLAGS_ledger_in_play_ttl_seconds));
  lo->connect_timeout = lo->io_timeout =
      absl::Milliseconds(std::max(1, absl::GetFlag(FLAGS_ledger_timeout_ms)));
  const std::string names = absl::GetFlag(FLAGS_ledger_token_names);
  if (names != "digest" && names != "tag") {
    return absl::InvalidArgumentError(
        absl::StrCat("--ledger_token_names: '", names, "' is neither digest nor tag"));
  }
  lo->tag_names = names == "tag";
  return lo;
}

WatchHubOptions WatchHubOptionsFromFlags(const RedisLedgerOptions& redis) {
  return WatchHubOptions{
      .redis = redis,
      .max_watchers = std::max(0, absl::GetFlag(FLAGS_max_watchers)),
      .max_watchers_per_tenant = std::max(0, absl::GetFlag(FLAGS_max_watchers_per_tenant)),
      .idle_timeout = absl::Seconds(std::max(0, absl::GetFlag(FLAGS_watch_idle_timeout_seconds)))};
}

}  // namespace stud::service
