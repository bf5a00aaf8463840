// stud_server's Connect listener (--connect_listen): Connect unary calls over
// HTTP/1.1, served inside the server (connect_call.h) by GNU libmicrohttpd.
//
// Why in the server: a browser's or a phone's call through the Node gateway
// (web/) costs the gateway 200-350 us of CPU, more than the call itself
// (docs/benchmarks.md, "Through the web gateway"); here it costs one HTTP/1.1
// parse, the JSON conversion and an in-process call. The gateway still
// serves what this listener does not: HTTP/2, gRPC-Web, Connect GET,
// compressed bodies, WatchHand streams, CORS and the playground page.
//
// Threads: `threads` libmicrohttpd threads, each polling its share of the
// connections (epoll) and serving a request to its end before reading the
// next: a call blocks its thread until the server answers, so the threads
// are the calls in flight on this listener.
// Limits: request bodies up to `max_request_bytes` (larger: Connect
// resource_exhausted; the rest of the body is read and dropped, not kept);
// bodies being received, all connections together, up to
// `max_buffered_bytes` (a body that would pass it: resource_exhausted, so
// that slow senders cannot hold max_connections x max_request_bytes of
// memory); headers up to the per-connection memory (32 KiB; larger: 431);
// `max_connections` open at once (more are accepted and closed); an idle
// connection closed after `idle_timeout`.
#ifndef STUD_SERVICE_CONNECT_CONNECT_LISTENER_H_
#define STUD_SERVICE_CONNECT_CONNECT_LISTENER_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "service/connect/connect_call.h"

struct MHD_Daemon;

namespace stud::service {

struct ConnectListenerOptions {
  std::string address;  // host:port (numeric host; port 0 = any free port)
  int threads = 2;
  size_t max_request_bytes = 4 << 20;
  size_t max_buffered_bytes = 64 << 20;
  int max_connections = 4096;
  absl::Duration idle_timeout = absl::Seconds(60);
  absl::Duration default_timeout = absl::Seconds(10);  // a call without connect-timeout-ms
  // PEM; both set: the listener serves HTTPS only.
  std::string tls_cert_pem;
  std::string tls_key_pem;
};

class ConnectListener {
 public:
  // Listens and serves at once. `calls` must outlive the listener.
  static absl::StatusOr<std::unique_ptr<ConnectListener>> Start(
      const ConnectCalls* calls, const ConnectListenerOptions& options);
  ConnectListener(const ConnectListener&) = delete;
  ConnectListener& operator=(const ConnectListener&) = delete;
  // Stops listening, closes every connection and waits for the threads
  // (a call in flight finishes first).
  ~ConnectListener();

  int port() const { return port_; }

 private:
  ConnectListener(const ConnectCalls* calls, const ConnectListenerOptions& options)
      : calls_(calls),
        max_request_bytes_(options.max_request_bytes),
        max_buffered_bytes_(options.max_buffered_bytes) {}

  const ConnectCalls* calls_;
  size_t max_request_bytes_;
  size_t max_buffered_bytes_;
  std::atomic<size_t> buffered_bytes_{0};  // bodies being received, every connection
  std::string tls_cert_pem_;
  std::string tls_key_pem_;
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;

  friend struct ConnectListenerAccess;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_CONNECT_CONNECT_LISTENER_H_
