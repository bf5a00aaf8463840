// A Connect unary call (connectrpc.com/docs/protocol, "Unary-Request") served
// by the server's own unary path from its bytes (StudServiceImpl::ServeBytes):
// the Connect protocol without an HTTP library, so that it is tested on its
// own and the listener (connect_listener.h) only moves bytes.
//
// Why that path: the call is then served exactly as a gRPC call is
// (authentication from the metadata, admission, per-tenant and per-seat
// limits, the ledger, metrics, traces, logs, draining), so a Connect caller
// can get no answer a gRPC caller could not; and it runs on the listener's
// thread, with no gRPC call around it. (Through the server's in-process gRPC
// channel, the first version, each call crossed to a gRPC thread and back:
// ~40 % of the CPU went to those switches.)
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
// connect-timeout-ms, else `default_timeout`: the call is not interrupted (no
// handler is; the ledger's calls have their own timeouts), but an answer
// that comes after it is deadline_exceeded, as a gRPC client would see.
#ifndef STUD_SERVICE_CONNECT_CONNECT_CALL_H_
#define STUD_SERVICE_CONNECT_CONNECT_CALL_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "google/protobuf/util/type_resolver.h"
#include "grpcpp/grpcpp.h"
#include "service/observability/client_metadata.h"
#include "service/observability/metrics.h"

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

// Serves one gRPC unary call of `path` from its request's bytes; the
// response's bytes in *response when OK (StudServiceImpl::ServeBytes).
using UnaryBytesHandler =
    std::function<grpc::Status(absl::string_view path, const ClientMetadata& metadata,
                               absl::string_view request, std::string* response)>;

class ConnectCalls {
 public:
  // `serve`: the server's unary calls; what it refers to must outlive this.
  // `max_message_bytes`: the largest request message, as the gRPC server's
  // --max_message_bytes (larger: resource_exhausted).
  // `metrics` (may be null): every answer is counted by its HTTP status
  // (stud_connect_responses_total).
  ConnectCalls(UnaryBytesHandler serve, absl::Duration default_timeout, size_t max_message_bytes,
               Metrics* metrics = nullptr);

  // Serves one request to its end (blocks the calling thread until the
  // server answers or the deadline passes). Never fails: every problem is
  // an answer (a Connect error, or 404/405/415 for a request that is not a
  // Connect unary call of this service).
  ConnectAnswer Serve(const ConnectRequest& request) const;

  // The answer to a body over the listener's `limit` (resource_exhausted).
  ConnectAnswer BodyTooLarge(size_t limit) const;
  // The answer to a body that would take the bodies being received past
  // the listener's `limit` (resource_exhausted, to be retried).
  ConnectAnswer BuffersFull(size_t limit) const;

 private:
  ConnectAnswer Answer(const ConnectRequest& request) const;
  // The error answer for a gRPC status (Connect's JSON error body).
  ConnectAnswer ErrorAnswer(const grpc::Status& status) const;
  ConnectAnswer Counted(ConnectAnswer answer) const;

  struct Method {
    std::string input_type_url;
    std::string output_type_url;
    const google::protobuf::Descriptor* output;
  };
  UnaryBytesHandler serve_;
  absl::Duration default_timeout_;
  size_t max_message_bytes_;
  Metrics* metrics_;
  std::unique_ptr<google::protobuf::util::TypeResolver> types_;
  absl::flat_hash_map<std::string, Method> methods_;  // by path
};

}  // namespace stud::service

#endif  // STUD_SERVICE_CONNECT_CONNECT_CALL_H_
