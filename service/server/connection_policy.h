// How long the server keeps a client's connection, and what a connection may
// do: the connection-policy flags, defined here once, applied to the gRPC
// server builder as channel arguments (docs/reliability.md, "Connections").
//
//   --max_connection_idle_seconds (300)  a connection with no call in flight
//       for this long is closed (GOAWAY), including one that only ever sent
//       the HTTP/2 preface; 0 = never
//   --handshake_timeout_seconds (10)     a connection that does not complete
//       its handshake (TLS, HTTP/2 preface) in time is dropped
//   --max_connection_age_seconds (1800)  every connection is closed after
//       this long, with --max_connection_age_grace_seconds (30) for the calls
//       it carries, so long-lived clients behind a connection-level balancer
//       spread over new replicas; 0 = never
//   --keepalive_min_ping_interval_seconds (10)  client pings closer together
//       than this (with no call in flight) are a strike; two strikes close
//       the connection (GOAWAY too_many_pings)
//   --keepalive_permit_without_calls (false)  whether pings are accepted on a
//       connection with no call in flight
//   --max_concurrent_streams (100)       calls in flight on one connection
#ifndef STUD_SERVICE_SERVER_CONNECTION_POLICY_H_
#define STUD_SERVICE_SERVER_CONNECTION_POLICY_H_

#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/server_builder.h"

namespace stud::service {

struct ConnectionPolicy {
  int max_connection_idle_seconds = 300;
  int handshake_timeout_seconds = 10;
  int max_connection_age_seconds = 1800;
  int max_connection_age_grace_seconds = 30;
  int keepalive_min_ping_interval_seconds = 10;
  bool keepalive_permit_without_calls = false;
  int max_concurrent_streams = 100;
};

// The policy the flags give; INVALID_ARGUMENT naming the flag for a negative
// value or a zero --max_concurrent_streams.
absl::StatusOr<ConnectionPolicy> ConnectionPolicyFromFlags();
// Sets the channel arguments of `policy` on `builder`.
void ApplyConnectionPolicy(const ConnectionPolicy& policy, grpc::ServerBuilder& builder);
// "idle 300s, handshake 10s, ..." for the start-up log line.
std::string DescribeConnectionPolicy(const ConnectionPolicy& policy);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_CONNECTION_POLICY_H_
