// stud_server's flags (defined in options.cc, so that --help lists them with
// their help text) and what is built from them before the server starts
// (server/main.cc). Each *FromFlags function reads its own flags and returns
// what it built, or an error whose message main logs as startup_failed (exit 2).
#ifndef STUD_SERVICE_SERVER_OPTIONS_H_
#define STUD_SERVICE_SERVER_OPTIONS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "grpcpp/security/server_credentials.h"
#include "service/connect/connect_listener.h"
#include "service/fairness/receipt.h"
#include "service/token/sealer.h"
#include "service/trust/redis_ledger.h"
#include "service/trust/seat_tickets.h"
#include "service/trust/tenants.h"
#include "service/trust/watch_hub.h"

ABSL_DECLARE_FLAG(std::string, listen);
ABSL_DECLARE_FLAG(std::string, metrics_listen);
ABSL_DECLARE_FLAG(std::string, otlp_endpoint);
ABSL_DECLARE_FLAG(double, trace_sampling_ratio);
ABSL_DECLARE_FLAG(int, otlp_queue_spans);
ABSL_DECLARE_FLAG(int, otlp_batch_spans);
ABSL_DECLARE_FLAG(int, otlp_flush_ms);
ABSL_DECLARE_FLAG(int, otlp_timeout_ms);
ABSL_DECLARE_FLAG(std::string, log_level);
ABSL_DECLARE_FLAG(std::string, key_file);
ABSL_DECLARE_FLAG(std::string, signing_keys_file);
ABSL_DECLARE_FLAG(int, token_format);
ABSL_DECLARE_FLAG(int, sealed_schema);
ABSL_DECLARE_FLAG(int, hand_cache);
ABSL_DECLARE_FLAG(bool, allow_preset);
ABSL_DECLARE_FLAG(bool, allow_history_reveal);
ABSL_DECLARE_FLAG(bool, allow_deck_reveal);
ABSL_DECLARE_FLAG(std::string, tls_cert);
ABSL_DECLARE_FLAG(std::string, tls_key);
ABSL_DECLARE_FLAG(std::string, tls_client_ca);
ABSL_DECLARE_FLAG(std::string, tenant_keys_file);
ABSL_DECLARE_FLAG(std::string, seat_tickets);
ABSL_DECLARE_FLAG(double, seat_rate_limit);
ABSL_DECLARE_FLAG(int, max_message_bytes);
ABSL_DECLARE_FLAG(int, drain_seconds);
ABSL_DECLARE_FLAG(int, max_in_flight);
ABSL_DECLARE_FLAG(std::string, ledger);
ABSL_DECLARE_FLAG(std::string, ledger_password_file);
ABSL_DECLARE_FLAG(std::string, ledger_sentinel_password_file);
ABSL_DECLARE_FLAG(int, ledger_wait_replicas);
ABSL_DECLARE_FLAG(int, ledger_wait_timeout_ms);
ABSL_DECLARE_FLAG(int64_t, ledger_max_hands_per_tenant);
ABSL_DECLARE_FLAG(int64_t, ledger_ttl_seconds);
ABSL_DECLARE_FLAG(int64_t, ledger_in_play_ttl_seconds);
ABSL_DECLARE_FLAG(int, ledger_timeout_ms);
ABSL_DECLARE_FLAG(std::string, ledger_token_names);
ABSL_DECLARE_FLAG(int, max_watchers);
ABSL_DECLARE_FLAG(int, max_watchers_per_tenant);
ABSL_DECLARE_FLAG(int, watch_idle_timeout_seconds);
ABSL_DECLARE_FLAG(int, max_in_flight_per_tenant);
ABSL_DECLARE_FLAG(int, workers);
ABSL_DECLARE_FLAG(std::string, connect_listen);
ABSL_DECLARE_FLAG(int, connect_threads);
ABSL_DECLARE_FLAG(int, connect_max_connections);
ABSL_DECLARE_FLAG(int, connect_max_buffered_mib);
ABSL_DECLARE_FLAG(int, connect_idle_timeout_seconds);
ABSL_DECLARE_FLAG(int, connect_default_timeout_ms);

namespace stud::service {

// The whole file at `path` into `out`; false when it cannot be read.
bool ReadFile(const std::string& path, std::string* out);

// --tls_cert, --tls_key (both or neither), --tls_client_ca: plaintext, TLS or mutual TLS.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFromFlags();
// --connect_listen and its limits; an empty address when it is off. With
// --tls_cert the listener serves TLS with the same certificate and key.
absl::StatusOr<ConnectListenerOptions> ConnectListenerOptionsFromFlags();

// The key ring from --key_file, else env STUD_KEYS, else an ephemeral key
// (logged ephemeral_key), sealing --token_format. `key_ids`: the ring's key
// ids, comma-separated, for the startup line (never key bytes).
absl::StatusOr<Sealer> SealerFromFlags(std::string* key_ids);

// Caller authentication from --tenant_keys_file (or env STUD_TENANT_KEYS):
// null when there are no tenant keys (authentication off). `seat_tickets`:
// --seat_tickets, and the tenants whose key entries are marked ":tickets".
absl::StatusOr<std::unique_ptr<TenantAuth>> TenantsFromFlags(SeatTicketPolicy* seat_tickets);

// Receipt signing keys from --signing_keys_file, else a random key for this
// process alone (logged signing_key_ephemeral).
absl::StatusOr<fairness::SigningKeys> SigningKeysFromFlags();

// The hand ledger's Redis options: --ledger `url`, its passwords (from their
// files or the environment, never from the URL or the command line), WAIT,
// the per-tenant hand quota, the TTLs and the timeouts.
absl::StatusOr<RedisLedgerOptions> LedgerOptionsFromFlags(const std::string& url);

// WatchHand's limits over the ledger's Redis: --max_watchers,
// --max_watchers_per_tenant, --watch_idle_timeout_seconds.
WatchHubOptions WatchHubOptionsFromFlags(const RedisLedgerOptions& redis);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_OPTIONS_H_
