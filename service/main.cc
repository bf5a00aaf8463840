// stud_server: the stud.v1.StudService gRPC server.
//
// With no flags it serves on 127.0.0.1:50051 with an ephemeral sealing key.
// When ready it prints exactly one line on stdout:
//   stud_server listening on <host>:<port>
// (with the bound port when --listen asks for port 0). Diagnostics go to
// stderr. SIGTERM or SIGINT starts a graceful drain: no new calls, in-flight
// calls get up to --drain_seconds to finish, then the process exits 0.
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "service/sealer.h"
#include "service/service_impl.h"

ABSL_FLAG(std::string, listen, "127.0.0.1:50051", "gRPC listen address (host:port; port 0 = any free port)");
ABSL_FLAG(std::string, metrics_listen, "",
          "Prometheus metrics address (reserved: metrics arrive in a later version)");
ABSL_FLAG(std::string, key_file, "",
          "Sealing key ring file (\"<id>:<64 hex>\" entries; the largest id seals). "
          "Without it, env STUD_KEYS is read; without both, an ephemeral key is made.");
ABSL_FLAG(bool, allow_preset, false, "Accept DEALING_MODE_PRESET (caller-chosen deck order)");
ABSL_FLAG(std::string, tls_cert, "", "PEM certificate chain; with --tls_key enables TLS");
ABSL_FLAG(std::string, tls_key, "", "PEM private key; with --tls_cert enables TLS");
ABSL_FLAG(int, max_message_bytes, 1 << 20, "Largest request or response message, in bytes");
ABSL_FLAG(int, drain_seconds, 10, "Grace period for in-flight calls on SIGTERM/SIGINT");

namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "stud_server: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("Seven Card Stud rules service (gRPC, stud.v1.StudService)");
  absl::ParseCommandLine(argc, argv);

  // Block the shutdown signals in every thread (gRPC's threads inherit this
  // mask) so that only sigwait below receives them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  if (absl::Status st = stud::service::InitSodium(); !st.ok()) return Fail(std::string(st.message()));
  absl::StatusOr<std::vector<stud::service::Key>> keys =
      stud::service::LoadKeys(absl::GetFlag(FLAGS_key_file));
  if (!keys.ok()) return Fail(std::string(keys.status().message()));
  if (keys->empty()) {
    keys->push_back(stud::service::Sealer::EphemeralKey());
    std::fprintf(stderr,
                 "stud_server: WARNING: no --key_file and no STUD_KEYS: sealing with an EPHEMERAL key "
                 "(id %u). Tokens will NOT survive a restart and other replicas cannot open them.\n",
                 keys->back().id);
  }
  absl::StatusOr<stud::service::Sealer> sealer = stud::service::Sealer::Create(*std::move(keys));
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
    creds = grpc::SslServerCredentials(ssl);
  }

  stud::service::ServiceOptions options;
  options.allow_preset = absl::GetFlag(FLAGS_allow_preset);
  stud::service::StudServiceImpl service(&*sealer, options);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  const std::string listen = absl::GetFlag(FLAGS_listen);
  int bound_port = 0;
  builder.AddListeningPort(listen, creds, &bound_port);
  builder.SetMaxReceiveMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  builder.SetMaxSendMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || bound_port == 0) return Fail("cannot listen on " + listen);
  server->GetHealthCheckService()->SetServingStatus("stud.v1.StudService", true);
  server->GetHealthCheckService()->SetServingStatus("", true);

  const size_t colon = listen.rfind(':');
  const std::string host = colon == std::string::npos ? listen : listen.substr(0, colon);
  std::printf("stud_server listening on %s:%d\n", host.c_str(), bound_port);
  std::fflush(stdout);
  if (options.allow_preset) std::fprintf(stderr, "stud_server: PRESET dealing is allowed (--allow_preset)\n");
  if (!absl::GetFlag(FLAGS_metrics_listen).empty()) {
    std::fprintf(stderr, "stud_server: --metrics_listen is reserved; metrics are not served yet\n");
  }

  int sig = 0;
  sigwait(&signals, &sig);
  std::fprintf(stderr, "stud_server: signal %d: draining (up to %d s)\n", sig, absl::GetFlag(FLAGS_drain_seconds));
  server->GetHealthCheckService()->SetServingStatus(false);
  server->Shutdown(absl::ToChronoTime(absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_drain_seconds))));
  server->Wait();
  std::fprintf(stderr, "stud_server: stopped\n");
  return 0;
}
