#include "service/server/port_sockets.h"

#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <vector>

namespace stud::service {
namespace {

// The local TCP port of `fd`, or -1 when it is not an IPv4/IPv6 socket.
int LocalPort(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
  if (address.ss_family == AF_INET) {
    return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  }
  if (address.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  }
  return -1;
}

bool IsListening(int fd) {
  int listening = 0;
  socklen_t length = sizeof(listening);
  return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0 && listening != 0;
}

// The open descriptors that are sockets bound to `port`.
std::vector<int> SocketsOnPort(int port) {
  std::vector<int> found;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return found;
  const int own = dirfd(dir);
  while (const dirent* entry = readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || fd == own) continue;
    struct stat info {};
    if (fstat(static_cast<int>(fd), &info) != 0 || !S_ISSOCK(info.st_mode)) continue;
    if (LocalPort(static_cast<int>(fd)) == port) found.push_back(static_cast<int>(fd));
  }
  closedir(dir);
  return found;
}

}  // namespace

ClosedSockets CloseSocketsOnPort(int port) {
  ClosedSockets closed;
  std::vector<int> listeners;
  std::vector<int> connections;
  for (const int fd : SocketsOnPort(port))
    (IsListening(fd) ? listeners : connections).push_back(fd);
  // Listeners first, so a client whose connection closes next cannot open a
  // new one here and send a call into the shutdown.
  for (const int fd : listeners) {
    if (shutdown(fd, SHUT_RD) == 0) ++closed.listeners;
  }
  for (const int fd : connections) {
    if (shutdown(fd, SHUT_RDWR) == 0) ++closed.connections;
  }
  return closed;
}

}  // namespace stud::service
