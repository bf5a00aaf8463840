// stud_server: the stud.v1.StudService gRPC server.
//
// With no flags it serves on 127.0.0.1:50051 with an ephemeral sealing key.
// When ready it prints exactly one line on stdout:
//   stud_server listening on <host>:<port>
// (with the bound port when --listen asks for port 0). Diagnostics go to
// stderr as JSON lines (logging.h): the start-up configuration (never key
// bytes), the metrics port, rejected tokens, irregularity rulings, errors, and
// gRPC's own lines. A start-up that fails logs startup_failed and exits 2.
// SIGTERM or SIGINT starts a graceful drain: new calls are refused UNAVAILABLE,
// in-flight calls get up to --drain_seconds to finish, the sockets close, then
// the process exits 0.
//
// The flags are in options.{h,cc} and connection_policy.{h,cc}; each step
// below is in startup.{h,cc}.
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "service/server/startup.h"

#ifndef STUD_VERSION
#define STUD_VERSION "dev"
#endif
#ifndef STUD_GIT_COMMIT
#define STUD_GIT_COMMIT "unknown"
#endif

int main(int argc, char** argv) {
  namespace service = stud::service;
  // gRPC's core locks are absl::Mutex; Debian's Abseil build leaves deadlock
  // detection on, which maintains a lock-order graph (absl GraphCycles) on
  // every acquisition: ~3% of server CPU under load, for a check that only
  // reports (measured: ~3% more ApplyAction calls per second without it). The
  // do-nothing baseline measured faster with it on, so it keeps it
  // (tools/loadgen/echo_server.cc).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  service::ParseFlags(argc, argv);
  service::ServerParts parts{.build = {STUD_VERSION, STUD_GIT_COMMIT}};
  if (absl::Status st = service::ConfigureLogs(parts); !st.ok()) return service::StartupFailed(st);
  const sigset_t signals = service::BlockShutdownSignals();
  if (absl::Status st = service::LoadKeys(parts); !st.ok()) return service::StartupFailed(st);
  if (absl::Status st = service::StartMetrics(parts); !st.ok()) return service::StartupFailed(st);
  service::StartTracing(parts);
  if (absl::Status st = service::BuildService(parts); !st.ok()) return service::StartupFailed(st);
  // Server reflection (grpcurl list, describe): linked into this binary alone.
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  if (absl::Status st = service::StartServer(parts); !st.ok()) return service::StartupFailed(st);
  if (absl::Status st = service::StartConnect(parts); !st.ok()) return service::StartupFailed(st);
  service::AnnounceReady(parts);
  service::DrainAndStop(parts, service::WaitForShutdownSignal(signals));
  return 0;
}
