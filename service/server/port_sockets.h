// Closing a gRPC server's sockets from outside gRPC, for the end of a drain.
//
// Why: gRPC C++ 1.51's Server::Shutdown marks the server shut down a few
// milliseconds before its GOAWAY frames leave, and a call that arrives in
// between is cancelled (CANCELLED, which a client does not retry). Its API
// offers no GOAWAY without the mark. Closing the transport instead gives every
// call still on the wire UNAVAILABLE ("socket closed"), which clients retry,
// and leaves Shutdown nothing to race with. The drain only does this once no
// call is in flight and new calls are refused, so nothing accepted is lost.
//
// Linux only: the sockets are found through /proc/self/fd.
#ifndef STUD_SERVICE_SERVER_PORT_SOCKETS_H_
#define STUD_SERVICE_SERVER_PORT_SOCKETS_H_

namespace stud::service {

struct ClosedSockets {
  int listeners = 0;    // listening sockets stopped (new connections refused)
  int connections = 0;  // accepted connections shut down both ways
};

// Stops every TCP socket of this process listening on `port` (shutdown for
// reading: the kernel refuses further connections), then shuts down every
// connection accepted on `port`. File descriptors stay open: gRPC still owns
// them and closes them when it sees the end of the stream.
ClosedSockets CloseSocketsOnPort(int port);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_PORT_SOCKETS_H_
