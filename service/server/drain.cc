#include "service/server/drain.h"

#include <algorithm>

#include "absl/time/clock.h"
#include "service/observability/grpc_log.h"
#include "service/observability/logging.h"
#include "service/server/port_sockets.h"

namespace stud::service {

void Drain(grpc::Server& server, StudServiceImpl& service, int port, absl::Duration grace) {
  const absl::Time deadline = absl::Now() + grace;
  server.GetHealthCheckService()->SetServingStatus(false);
  service.StartDraining();
  // Open WatchHand streams end UNAVAILABLE SERVER_DRAINING: they resume elsewhere.
  service.EndWatches();
  // A proxy that does not watch health keeps sending: hence the 2 s cap.
  const absl::Time quiet_by = std::min(deadline - absl::Seconds(1), absl::Now() + absl::Seconds(2));
  const auto quiet = [&] {
    return service.in_flight() == 0 &&
           absl::Now() - absl::FromUnixNanos(service.last_arrival_nanos()) >
               absl::Milliseconds(250);
  };
  while (!quiet() && absl::Now() < quiet_by) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  // gRPC's Shutdown would cancel (CANCELLED, not retried) a call arriving
  // between its shutdown mark and its GOAWAY; closed sockets give such a call
  // UNAVAILABLE instead. Calls still in flight keep their connection: the
  // sockets are closed only when none is.
  ClosedSockets closed;
  if (service.in_flight() == 0) {
    ExpectListenerClosed();
    closed = CloseSocketsOnPort(port);
  }
  LogLine(LogLevel::kInfo, "shutdown")
      .Bool("quiet", quiet())
      .Int("in_flight", service.in_flight())
      .Int("listeners_closed", closed.listeners)
      .Int("connections_closed", closed.connections);
  server.Shutdown(absl::ToChronoTime(deadline));
  server.Wait();
}

}  // namespace stud::service
