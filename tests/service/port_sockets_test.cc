// The end of a drain closes the server's own sockets (port_sockets.h): its
// listener refuses new connections, its connections end, other ports are
// untouched, and a gRPC client then sees UNAVAILABLE, never CANCELLED. gRPC's
// own log lines become JSON (grpc_log.h), the accept error the closed
// listener causes at debug level.
#include "service/server/port_sockets.h"

#include <grpc/support/log.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "service/observability/grpc_log.h"
#include "service/observability/logging.h"
#include "service_fixture.h"

namespace stud::service {
namespace {

using ::stud::testing::IsOk;
using testing::BasicHand;
using testing::Server;

// A TCP socket on 127.0.0.1; `listen` makes it a listener on an ephemeral port.
int LoopbackListener() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  EXPECT_EQ(listen(fd, 8), 0);
  return fd;
}

int PortOf(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return ntohs(address.sin_port);
}

// Connects to 127.0.0.1:`port`; the connected descriptor, or -1 when refused.
int Connect(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

bool IsListening(int fd) {
  int listening = 0;
  socklen_t length = sizeof(listening);
  getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length);
  return listening != 0;
}

TEST(PortSockets, ListenerStopsAndConnectionsEndOnThatPortOnly) {
  const int served = LoopbackListener();
  const int other = LoopbackListener();
  const int port = PortOf(served);
  const int client = Connect(port);
  ASSERT_GE(client, 0);
  const int accepted = accept(served, nullptr, nullptr);
  ASSERT_GE(accepted, 0);
  const int other_client = Connect(PortOf(other));
  const int other_accepted = accept(other, nullptr, nullptr);
  ASSERT_GE(other_accepted, 0);

  const ClosedSockets closed = CloseSocketsOnPort(port);
  EXPECT_EQ(closed.listeners, 1);
  EXPECT_EQ(closed.connections, 1);

  char byte = 0;
  EXPECT_EQ(recv(client, &byte, 1, 0), 0) << "the client reads the end of the stream";
  EXPECT_EQ(Connect(port), -1) << "new connections are refused";
  EXPECT_FALSE(IsListening(served));
  EXPECT_TRUE(IsListening(other)) << "another port keeps listening";
  EXPECT_EQ(send(other_client, "x", 1, 0), 1);
  EXPECT_EQ(recv(other_accepted, &byte, 1, 0), 1) << "another port's connection still carries data";
  for (const int fd : {served, other, client, accepted, other_client, other_accepted}) close(fd);
}

TEST(PortSockets, NothingOnAPortNobodyUses) {
  const int fd = LoopbackListener();
  const int unused = PortOf(fd);
  close(fd);
  const ClosedSockets closed = CloseSocketsOnPort(unused);
  EXPECT_EQ(closed.listeners, 0);
  EXPECT_EQ(closed.connections, 0);
}

// What the drain relies on: after the sockets close, a call on an open
// channel fails UNAVAILABLE (retryable), and Shutdown has nothing to cancel.
TEST(PortSockets, GrpcClientSeesUnavailableAfterTheClose) {
  std::vector<std::string> lines;
  SetLogSink([&](const std::string& line) { lines.push_back(line); });
  SetLogLevel(LogLevel::kDebug);
  RouteGrpcLogToJson();
  {
    Server server;
    const stud::v1::NewHandRequest request = BasicHand(4, stud::v1::DEALING_MODE_SERVICE);
    grpc::ClientContext first;
    stud::v1::NewHandResponse response;
    ASSERT_THAT(server.stub().NewHand(&first, request, &response), IsOk());

    ExpectListenerClosed();
    const ClosedSockets closed = CloseSocketsOnPort(server.port());
    EXPECT_EQ(closed.listeners, 1);
    EXPECT_EQ(closed.connections, 1);
    for (int i = 0; i < 5; ++i) {
      grpc::ClientContext context;
      const grpc::Status status = server.stub().NewHand(&context, request, &response);
      EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << status.error_message();
    }
  }
  gpr_log(__FILE__, __LINE__, GPR_LOG_SEVERITY_ERROR, "%s", "a gRPC diagnostic");
  SetLogSink(nullptr);
  SetLogLevel(LogLevel::kInfo);
  bool found = false;
  for (const std::string& line : lines) {
    EXPECT_TRUE(absl::StartsWith(line, "{\"ts\":")) << line;
    if (absl::StrContains(line, "Failed accept4")) {
      EXPECT_TRUE(absl::StrContains(line, "\"level\":\"debug\"")) << line;
    }
    if (absl::StrContains(line, "a gRPC diagnostic")) {
      found = true;
      EXPECT_TRUE(absl::StrContains(line, "\"level\":\"error\",\"event\":\"grpc\"")) << line;
      EXPECT_TRUE(absl::StrContains(line, "\"file\":\"port_sockets_test.cc\"")) << line;
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace stud::service
