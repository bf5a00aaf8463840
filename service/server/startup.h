// stud_server's life, step by step (server/main.cc calls them in this order):
// parse the flags, set up the logs, block the shutdown signals, load the keys,
// start the metrics and the tracing, build the service, start the gRPC server,
// announce it, wait for a signal, drain.
//
// Every piece lives in one ServerParts, declared in the order the steps build
// them, so that the process tears them down in reverse (the server before the
// service, the service before the ledger, the metrics last but the keys). A
// step that fails returns an error whose message main logs as
// "startup_failed" before exiting 2 (StartupFailed); what a step logs, and
// when, is what stud_server logs (service/README.md, "Logs").
#ifndef STUD_SERVICE_SERVER_STARTUP_H_
#define STUD_SERVICE_SERVER_STARTUP_H_

#include <signal.h>

#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "grpcpp/grpcpp.h"
#include "service/connect/connect_call.h"
#include "service/connect/connect_listener.h"
#include "service/fairness/receipt.h"
#include "service/observability/logging.h"
#include "service/observability/metrics.h"
#include "service/observability/observability.h"
#include "service/observability/tracing.h"
#include "service/rpc/hand_service.h"
#include "service/server/connection_policy.h"
#include "service/server/stud_service.h"
#include "service/token/hand_cache.h"
#include "service/token/sealer.h"
#include "service/trust/redis_ledger.h"
#include "service/trust/seat_rate_limit.h"
#include "service/trust/seat_tickets.h"
#include "service/trust/tenant_limits.h"
#include "service/trust/tenants.h"
#include "service/trust/watch_hub.h"

namespace stud::service {

struct ServerParts {
  BuildInfo build;  // the binary's version and commit (stud_build_info, the startup line)
  // ConfigureLogs
  LogLevel log_level = LogLevel::kInfo;
  double sampling_ratio = 1.0;
  // LoadKeys
  std::string key_ids;  // the sealing ring's ids, comma-separated (never key bytes)
  std::optional<Sealer> sealer;
  std::shared_ptr<grpc::ServerCredentials> credentials;
  SeatTicketPolicy seat_tickets;
  std::unique_ptr<TenantAuth> tenants;  // null: caller authentication off
  // StartMetrics
  std::string metrics_listen;
  std::unique_ptr<Metrics> metrics;  // null: off, or its default port was taken
  // StartTracing
  std::string otlp_endpoint;
  std::unique_ptr<Tracer> tracer;
  Observability observability;
  // BuildService
  int sealed_schema = 0;
  std::optional<fairness::SigningKeys> signing_keys;
  ServiceOptions options;
  std::unique_ptr<RedisLedger> ledger;  // null: trusted mode
  std::unique_ptr<WatchHub> watch_hub;  // with the ledger
  std::unique_ptr<TenantLimiter> tenant_limits;
  std::unique_ptr<SeatRateLimiter> seat_rate_limit;
  // null: --hand_cache=0. Shared with its metrics, which a scrape may read
  // while the server stops.
  std::shared_ptr<HandCache> hand_cache;
  std::unique_ptr<StudServiceImpl> service;
  // StartServer
  ConnectionPolicy connections;
  std::string host;  // of --listen
  int port = 0;      // bound
  std::unique_ptr<grpc::Server> server;
  // StartConnect (--connect_listen; null when off)
  std::unique_ptr<ConnectCalls> connect_calls;
  std::unique_ptr<ConnectListener> connect;
  std::string connect_host;  // of --connect_listen
};

// Parses the command line (absl exits on an unknown flag or --help); --help
// lists the server's own flags (those defined under service/).
void ParseFlags(int argc, char** argv);
// Logs "startup_failed" with `why`'s message; the exit code of a failed start (2).
int StartupFailed(const absl::Status& why);

// --log_level and --trace_sampling_ratio; gRPC's own lines become JSON lines.
absl::Status ConfigureLogs(ServerParts& parts);
// Blocks SIGTERM and SIGINT in this thread and every thread started after it
// (gRPC's), so that only WaitForShutdownSignal receives them.
sigset_t BlockShutdownSignals();
// libsodium, the hand evaluator's tables (built now, not in the first
// showdown), the sealing key ring, the TLS credentials, the tenants' keys and
// the seat-ticket policy (options.h).
absl::Status LoadKeys(ServerParts& parts);
// --metrics_listen: serving, or off. A taken default port is a warning
// (several servers on one host); an address given explicitly must work.
absl::Status StartMetrics(ServerParts& parts);
// The tracer; spans are exported only when --otlp_endpoint is set.
void StartTracing(ServerParts& parts);
// The service's options from the flags, the receipt signing keys, the hand
// ledger and its watch hub (logs "ledger"), the per-tenant and per-seat
// limits, then the service.
absl::Status BuildService(ServerParts& parts);
// The connection policy, the gRPC server listening on --listen with the
// service registered, and health SERVING.
absl::Status StartServer(ServerParts& parts);
// --connect_listen: Connect unary calls over HTTP/1.1, served by the
// service's own unary path (StudServiceImpl::ServeBytes,
// connect/connect_listener.h), logged as
// "connect_listening" with the bound port; or off.
absl::Status StartConnect(ServerParts& parts);
// The "startup" log line (the whole configuration, never key bytes), the
// "preset_allowed" warning, then the one stdout line
// "stud_server listening on <host>:<port>".
void AnnounceReady(const ServerParts& parts);
// Waits for SIGTERM or SIGINT (blocked by BlockShutdownSignals); the signal.
int WaitForShutdownSignal(const sigset_t& signals);
// Logs "draining", drains the server (drain.h), sends the queued spans, logs
// "stopped".
void DrainAndStop(ServerParts& parts, int signal);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_STARTUP_H_
