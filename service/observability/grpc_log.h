// gRPC's own diagnostics as the service's JSON log lines (logging.h), so that
// every line on stderr parses: event "grpc", with gRPC's file, line and text.
#ifndef STUD_SERVICE_OBSERVABILITY_GRPC_LOG_H_
#define STUD_SERVICE_OBSERVABILITY_GRPC_LOG_H_

namespace stud::service {

// Installs the hook (gpr_set_log_function). Call once, before the server starts.
void RouteGrpcLogToJson();

// From now on, gRPC's complaint that accepting a connection failed is logged
// at debug level: the drain closes the listener on purpose (port_sockets.h).
void ExpectListenerClosed();

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_GRPC_LOG_H_
