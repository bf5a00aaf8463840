// A Connect unary call (connectrpc.com/docs/protocol, "Unary-Request") served
// through a gRPC channel to this process's own server: the Connect protocol
// without an HTTP library, so that it is tested on its own and the listener
// (connect_listener.h) only moves bytes.
//
// Why through a channel: the call then takes exactly the path of a gRPC call
// (authentication from the metadata, admission, per-tenant and per-seat
// limits, the ledger, metrics, traces, logs, draining), so a Connect caller
// can get no answer a gRPC caller could not. The channel is the server's
// in-process one (grpc::Server::InProcessChannel): no socket, no HTTP/2.
//
// What it serves: every unary method of stud.v1.StudService at
// POST /stud.v1.StudService/<Method>, with Content-Type application/proto (the
// message's bytes, passed through undecoded) or application/json (proto3 JSON,
// converted once each way along the generated descriptors). Answers are as
// the web gateway's (web/src/unary.ts): the message with the request's
// content type, or a Connect error (JSON: code, message, and each
// google.rpc detail as type, debug (ErrorInfo and LocalizedMessage as JSON)
// and value (base64 without padding)) with the HTTP status of its code.
// Forwarded to the server: traceparent, tracestate, accept-language and every
// x-stud-* header (the tenant, its API key). The deadline is
// connect-timeout-ms, else `default_timeout`.
#ifndef STUD_SERVICE_CONNECT_CONNECT_CALL_H_
#define STUD_SERVICE_CONNECT_CONNECT_CALL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "google/protobuf/util/type_resolver.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"

namespace stud::service {

// One request as the HTTP layer read it. Header names are lower case.
struct ConnectRequest {
  absl::string_view http_method;  // "POST"
  absl::string_view path;         // "/stud.v1.StudService/ApplyAction"
  std::vector<std::pair<std::string, std::string>> headers;
  absl::string_view body;
};

// What to send back. `headers` holds Content-Type and any metadata the
// server answered with; the HTTP layer adds Content-Length.
struct ConnectAnswer {
  int http_status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

class ConnectCalls {
 public:
  // `channel`: to the server whose methods are served; must outlive this.
  ConnectCalls(std::shared_ptr<grpc::Channel> channel, absl::Duration default_timeout);

  // Serves one request to its end (blocks the calling thread until the
  // server answers or the deadline passes). Never fails: every problem is
  // an answer (a Connect error, or 404/405/415 for a request that is not a
  // Connect unary call of this service).
  ConnectAnswer Serve(const ConnectRequest& request) const;

  // The error answer for a gRPC status (Connect's JSON error body).
  ConnectAnswer ErrorAnswer(const grpc::Status& status) const;

 private:
  struct Method {
    std::string input_type_url;
    std::string output_type_url;
    const google::protobuf::Descriptor* output;
  };
  mutable grpc::GenericStub stub_;  // thread-safe: each call has its own context
  absl::Duration default_timeout_;
  std::unique_ptr<google::protobuf::util::TypeResolver> types_;
  absl::flat_hash_map<std::string, Method> methods_;  // by path
};

}  // namespace stud::service

#endif  // STUD_SERVICE_CONNECT_CONNECT_CALL_H_
