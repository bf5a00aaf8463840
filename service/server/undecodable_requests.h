// Requests whose bytes are not the method's message. gRPC's callback API
// answers them UNIMPLEMENTED with no message or details before any handler
// runs, so they were invisible. This server interceptor sees that answer on
// its way out for a stud.v1.StudService method and turns it into
// INVALID_ARGUMENT naming the method's request message (with the usual
// ErrorInfo and LocalizedMessage, api/status_mapping.h), and counts it:
// stud_rpc_undecodable_requests_total{method} and stud_rpc_requests_total
// {method, code="3"}.
#ifndef STUD_SERVICE_SERVER_UNDECODABLE_REQUESTS_H_
#define STUD_SERVICE_SERVER_UNDECODABLE_REQUESTS_H_

#include <memory>

#include "grpcpp/support/server_interceptor.h"
#include "service/observability/metrics.h"

namespace stud::service {

// `metrics` may be null (no counting); it must outlive the server.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
UndecodableRequestInterceptor(Metrics* metrics);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_UNDECODABLE_REQUESTS_H_
