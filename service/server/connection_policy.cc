#include "service/server/connection_policy.h"

#include <climits>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grpc/grpc.h"

ABSL_FLAG(int, max_connection_idle_seconds, 300,
          "Close a connection with no call in flight for this long (also one that only sent the "
          "HTTP/2 preface); 0 = never");
ABSL_FLAG(int, handshake_timeout_seconds, 10,
          "Drop a connection that has not completed its TLS / HTTP/2 handshake in this time");
ABSL_FLAG(int, max_connection_age_seconds, 1800,
          "Close every connection after this long so clients rebalance over replicas; 0 = never");
ABSL_FLAG(int, max_connection_age_grace_seconds, 30,
          "Time the calls of a connection closed for its age get to finish");
ABSL_FLAG(int, keepalive_min_ping_interval_seconds, 10,
          "Client pings closer together than this are strikes; two close the connection");
ABSL_FLAG(bool, keepalive_permit_without_calls, false,
          "Accept client pings on a connection with no call in flight");
ABSL_FLAG(int, max_concurrent_streams, 100, "Calls in flight on one connection");

namespace stud::service {
namespace {

// Seconds as gRPC's millisecond argument; 0 ("never") as INT_MAX.
int Millis(int seconds) { return seconds == 0 ? INT_MAX : seconds * 1000; }

}  // namespace

absl::StatusOr<ConnectionPolicy> ConnectionPolicyFromFlags() {
  ConnectionPolicy p;
  p.max_connection_idle_seconds = absl::GetFlag(FLAGS_max_connection_idle_seconds);
  p.handshake_timeout_seconds = absl::GetFlag(FLAGS_handshake_timeout_seconds);
  p.max_connection_age_seconds = absl::GetFlag(FLAGS_max_connection_age_seconds);
  p.max_connection_age_grace_seconds = absl::GetFlag(FLAGS_max_connection_age_grace_seconds);
  p.keepalive_min_ping_interval_seconds = absl::GetFlag(FLAGS_keepalive_min_ping_interval_seconds);
  p.keepalive_permit_without_calls = absl::GetFlag(FLAGS_keepalive_permit_without_calls);
  p.max_concurrent_streams = absl::GetFlag(FLAGS_max_concurrent_streams);
  const std::pair<const char*, int> seconds[] = {
      {"max_connection_idle_seconds", p.max_connection_idle_seconds},
      {"handshake_timeout_seconds", p.handshake_timeout_seconds},
      {"max_connection_age_seconds", p.max_connection_age_seconds},
      {"max_connection_age_grace_seconds", p.max_connection_age_grace_seconds},
      {"keepalive_min_ping_interval_seconds", p.keepalive_min_ping_interval_seconds}};
  for (const auto& [flag, value] : seconds) {
    if (value < 0 || value > INT_MAX / 1000) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, " must be 0..", INT_MAX / 1000, ", not ", value));
    }
  }
  if (p.handshake_timeout_seconds == 0) {
    return absl::InvalidArgumentError("--handshake_timeout_seconds must be at least 1");
  }
  if (p.max_concurrent_streams < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_concurrent_streams must be at least 1, not ", p.max_concurrent_streams));
  }
  return p;
}

void ApplyConnectionPolicy(const ConnectionPolicy& p, grpc::ServerBuilder& builder) {
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS,
                             Millis(p.max_connection_idle_seconds));
  builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                             p.handshake_timeout_seconds * 1000);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, Millis(p.max_connection_age_seconds));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                             Millis(p.max_connection_age_grace_seconds));
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                             p.keepalive_min_ping_interval_seconds * 1000);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 2);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS,
                             p.keepalive_permit_without_calls ? 1 : 0);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, p.max_concurrent_streams);
}

std::string DescribeConnectionPolicy(const ConnectionPolicy& p) {
  return absl::StrCat("idle ", p.max_connection_idle_seconds, "s, handshake ",
                      p.handshake_timeout_seconds, "s, age ", p.max_connection_age_seconds,
                      "s (grace ", p.max_connection_age_grace_seconds, "s), min ping interval ",
                      p.keepalive_min_ping_interval_seconds, "s",
                      p.keepalive_permit_without_calls ? " (also without calls)" : "",
                      ", streams per connection ", p.max_concurrent_streams);
}

}  // namespace stud::service
