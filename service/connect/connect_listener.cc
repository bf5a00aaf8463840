#include "service/connect/connect_listener.h"

#include <microhttpd.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace stud::service {

// What one connection may hold of a request's headers (larger: 431).
constexpr size_t kConnectionMemory = 32 * 1024;

// One request while its body arrives (libmicrohttpd's per-request pointer).
// Its bytes count against the listener's buffered total until it is done.
struct PendingRequest {
  explicit PendingRequest(std::atomic<size_t>* total) : buffered_total(total) {}
  PendingRequest(const PendingRequest&) = delete;
  PendingRequest& operator=(const PendingRequest&) = delete;
  ~PendingRequest() { Release(); }
  void Release() {
    buffered_total->fetch_sub(body.size(), std::memory_order_relaxed);
    body.clear();
    body.shrink_to_fit();
  }

  std::atomic<size_t>* buffered_total;
  std::string body;
  bool too_large = false;  // over the request limit: answered resource_exhausted
  bool too_many = false;   // over the listener's buffered total: the same
};

struct ConnectListenerAccess {
  static MHD_Result CollectHeader(void* cls, MHD_ValueKind /*kind*/, const char* key,
                                  const char* value) {
    auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(cls);
    headers->emplace_back(absl::AsciiStrToLower(key), value == nullptr ? "" : value);
    return MHD_YES;
  }

  static MHD_Result Send(MHD_Connection* connection, ConnectAnswer answer) {
    auto* body = new std::string(std::move(answer.body));
    MHD_Response* response = MHD_create_response_from_buffer_with_free_callback_cls(
        body->size(), body->data(), [](void* owned) { delete static_cast<std::string*>(owned); },
        body);
    if (response == nullptr) {
      delete body;
      return MHD_NO;
    }
    for (const auto& [name, value] : answer.headers)
      MHD_add_response_header(response, name.c_str(), value.c_str());
    const MHD_Result queued =
        MHD_queue_response(connection, static_cast<unsigned int>(answer.http_status), response);
    MHD_destroy_response(response);
    return queued;
  }

  // libmicrohttpd calls it once with the headers, once per piece of the
  // body, and once more when the body is complete: the call runs then.
  static MHD_Result OnRequest(void* cls, MHD_Connection* connection, const char* url,
                              const char* method, const char* /*version*/, const char* upload,
                              size_t* upload_size, void** request_state) {
    auto* self = static_cast<ConnectListener*>(cls);
    auto* pending = static_cast<PendingRequest*>(*request_state);
    if (pending == nullptr) {
      *request_state = new PendingRequest(&self->buffered_bytes_);
      return MHD_YES;
    }
    if (*upload_size > 0) {
      const size_t piece = *upload_size;
      *upload_size = 0;
      if (pending->too_large || pending->too_many) return MHD_YES;  // read and dropped
      if (pending->body.size() + piece > self->max_request_bytes_) {
        pending->too_large = true;
        pending->Release();
      } else if (self->buffered_bytes_.fetch_add(piece, std::memory_order_relaxed) + piece >
                 self->max_buffered_bytes_) {
        self->buffered_bytes_.fetch_sub(piece, std::memory_order_relaxed);
        pending->too_many = true;
        pending->Release();
      } else {
        pending->body.append(upload, piece);
      }
      return MHD_YES;
    }
    if (pending->too_large)
      return Send(connection, self->calls_->BodyTooLarge(self->max_request_bytes_));
    if (pending->too_many)
      return Send(connection, self->calls_->BuffersFull(self->max_buffered_bytes_));
    ConnectRequest request{
        .http_method = method, .path = url, .headers = {}, .body = pending->body};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, &CollectHeader, &request.headers);
    ConnectAnswer answer = self->calls_->Serve(request);
    // The body is no longer needed: its bytes stop counting before the answer
    // leaves, so a caller holding its answer finds them free (OnCompleted runs
    // only once libmicrohttpd has sent it).
    pending->Release();
    return Send(connection, std::move(answer));
  }

  static void OnCompleted(void* /*cls*/, MHD_Connection* /*connection*/, void** request_state,
                          MHD_RequestTerminationCode /*why*/) {
    delete static_cast<PendingRequest*>(*request_state);
    *request_state = nullptr;
  }
};

absl::StatusOr<std::unique_ptr<ConnectListener>> ConnectListener::Start(
    const ConnectCalls* calls, const ConnectListenerOptions& options) {
  const size_t colon = options.address.rfind(':');
  if (colon == std::string::npos)
    return absl::InvalidArgumentError(
        absl::StrCat("--connect_listen=", options.address, ": expected host:port"));
  std::string host = options.address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  const std::string port = options.address.substr(colon + 1);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found) != 0 ||
      found == nullptr)
    return absl::InvalidArgumentError(
        absl::StrCat("--connect_listen=", options.address, ": not an address"));
  sockaddr_storage address{};
  std::memcpy(&address, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);

  std::unique_ptr<ConnectListener> listener(new ConnectListener(calls, options));
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
  // (No MHD_USE_ERROR_LOG: stderr is the server's JSON lines.)
  if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
  auto number = [](auto n) { return static_cast<intptr_t>(n); };
  std::vector<MHD_OptionItem> items = {
      {MHD_OPTION_SOCK_ADDR, 0, &address},
      {MHD_OPTION_THREAD_POOL_SIZE, number(options.threads), nullptr},
      {MHD_OPTION_CONNECTION_LIMIT, number(options.max_connections), nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, number(absl::ToInt64Seconds(options.idle_timeout)), nullptr},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, number(kConnectionMemory), nullptr},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&ConnectListenerAccess::OnCompleted),
       nullptr},
  };
  if (!options.tls_cert_pem.empty()) {
    flags |= MHD_USE_TLS;
    listener->tls_cert_pem_ = options.tls_cert_pem;  // kept while the daemon runs
    listener->tls_key_pem_ = options.tls_key_pem;
    items.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0, listener->tls_cert_pem_.data()});
    items.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, listener->tls_key_pem_.data()});
  }
  items.push_back({MHD_OPTION_END, 0, nullptr});
  listener->daemon_ =
      MHD_start_daemon(flags, 0, nullptr, nullptr, &ConnectListenerAccess::OnRequest,
                       listener.get(), MHD_OPTION_ARRAY, items.data(), MHD_OPTION_END);
  if (listener->daemon_ == nullptr)
    return absl::UnavailableError(
        absl::StrCat("--connect_listen=", options.address, ": cannot listen there"));
  const MHD_DaemonInfo* info = MHD_get_daemon_info(listener->daemon_, MHD_DAEMON_INFO_BIND_PORT);
  listener->port_ = info == nullptr ? 0 : info->port;
  return listener;
}

ConnectListener::~ConnectListener() {
  if (daemon_ != nullptr) MHD_stop_daemon(daemon_);
}

}  // namespace stud::service
