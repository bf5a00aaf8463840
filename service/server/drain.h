// The graceful drain that follows SIGTERM or SIGINT (docs/reliability.md,
// "Drain"): nothing accepted is cancelled, nothing late is lost.
//
//   1. health turns NOT_SERVING (balancers stop sending);
//   2. every new call is answered UNAVAILABLE, reason SERVER_DRAINING
//      (retryable, nothing applied: another replica answers), and so is every
//      open WatchHand stream ended (its client resumes on another replica);
//   3. the calls already accepted finish; the drain waits until the clients
//      go quiet (no call in flight and none refused for 250 ms), at most 2 s
//      and never later than 1 s before the grace period ends;
//   4. when no call is in flight, the server's own sockets close
//      (port_sockets.h): a call still on the wire gets UNAVAILABLE;
//   5. grpc::Server::Shutdown, with what is left of the grace period for
//      calls still running.
#ifndef STUD_SERVICE_SERVER_DRAIN_H_
#define STUD_SERVICE_SERVER_DRAIN_H_

#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "service/server/stud_service.h"

namespace stud::service {

// Runs steps 1 to 5 on `server`, which serves `service` on TCP port `port`,
// and returns once it has shut down (within `grace`). Logs "shutdown".
void Drain(grpc::Server& server, StudServiceImpl& service, int port, absl::Duration grace);

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_DRAIN_H_
