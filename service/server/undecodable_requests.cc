#include "service/server/undecodable_requests.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "service/api/status_mapping.h"

namespace stud::service {
namespace {

using grpc::experimental::InterceptionHookPoints;

constexpr absl::string_view kServicePrefix = "/stud.v1.StudService/";

// The StudService method of a call path, if it is one.
std::optional<RpcMethod> MethodOf(absl::string_view path) {
  if (!absl::StartsWith(path, kServicePrefix)) return std::nullopt;
  path.remove_prefix(kServicePrefix.size());
  for (int m = 0; m < kRpcMethodCount; ++m) {
    if (RpcMethodName(static_cast<RpcMethod>(m)) == path) return static_cast<RpcMethod>(m);
  }
  return std::nullopt;
}

class Interceptor : public grpc::experimental::Interceptor {
 public:
  Interceptor(std::optional<RpcMethod> method, Metrics* metrics)
      : method_(method), metrics_(metrics) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* batch) override {
    if (method_.has_value() &&
        batch->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status sent = batch->GetSendStatus();
      // Our handlers never answer UNIMPLEMENTED: this is gRPC's answer to a
      // request it could not deserialize.
      if (sent.error_code() == grpc::StatusCode::UNIMPLEMENTED && sent.error_message().empty()) {
        const std::string method(RpcMethodName(*method_));
        batch->ModifySendStatus(ToGrpcStatus(absl::InvalidArgumentError(
            absl::StrCat("request: the bytes sent to ", method, " are not a valid stud.v1.", method,
                         "Request message (protobuf wire format; strings in UTF-8)"))));
        if (metrics_ != nullptr) metrics_->UndecodableRequest(*method_);
      }
    }
    batch->Proceed();
  }

 private:
  const std::optional<RpcMethod> method_;
  Metrics* const metrics_;
};

class Factory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit Factory(Metrics* metrics) : metrics_(metrics) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new Interceptor(MethodOf(info->method()), metrics_);
  }

 private:
  Metrics* const metrics_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
UndecodableRequestInterceptor(Metrics* metrics) {
  return std::make_unique<Factory>(metrics);
}

}  // namespace stud::service
