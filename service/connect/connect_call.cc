#include "service/connect/connect_call.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"
#include "google/rpc/status.pb.h"
#include "service/api/status_mapping.h"
#include "service/connect/json_text.h"
#include "stud/v1/stud.grpc.pb.h"

namespace stud::service {
namespace {

namespace util = google::protobuf::util;
constexpr absl::string_view kTypeUrlPrefix = "type.googleapis.com";

enum class Body { kProto, kJson };

// The protocol named by the content type (web/src/unary-wire.ts kindOf).
std::optional<Body> BodyOf(absl::string_view content_type) {
  const std::string type = absl::AsciiStrToLower(content_type);
  if (type == "application/proto") return Body::kProto;
  if (type == "application/json" || type == "application/json; charset=utf-8" ||
      type == "application/json;charset=utf-8")
    return Body::kJson;
  return std::nullopt;
}

absl::string_view HeaderOf(const ConnectRequest& request, absl::string_view name) {
  for (const auto& [key, value] : request.headers)
    if (key == name) return value;
  return {};
}

bool Forwarded(absl::string_view name) {
  return name == "traceparent" || name == "tracestate" || name == "accept-language" ||
         absl::StartsWith(name, "x-stud-");
}

// Connect's name and HTTP status of each gRPC code (connectrpc.com/docs/protocol#error-codes).
struct CodeInfo {
  absl::string_view name;
  int http_status;
};
CodeInfo InfoOf(grpc::StatusCode code) {
  static constexpr CodeInfo kCodes[] = {
      {"ok", 200},
      {"canceled", 499},
      {"unknown", 500},
      {"invalid_argument", 400},
      {"deadline_exceeded", 504},
      {"not_found", 404},
      {"already_exists", 409},
      {"permission_denied", 403},
      {"resource_exhausted", 429},
      {"failed_precondition", 400},
      {"aborted", 409},
      {"out_of_range", 400},
      {"unimplemented", 501},
      {"internal", 500},
      {"unavailable", 503},
      {"data_loss", 500},
      {"unauthenticated", 401},
  };
  const int i = static_cast<int>(code);
  return i >= 0 && i < static_cast<int>(std::size(kCodes)) ? kCodes[i] : kCodes[2];
}

// The listener's own refusals carry the details every error of the service
// carries (ErrorInfo with the code's reason, LocalizedMessage: api/status_mapping.h).
grpc::Status Refusal(absl::StatusCode code, absl::string_view message) {
  return ToGrpcStatus(absl::Status(code, message));
}

ConnectAnswer Plain(int http_status, absl::string_view text) {
  ConnectAnswer answer{.http_status = http_status, .headers = {}, .body = std::string(text)};
  answer.headers.emplace_back("content-type", "text/plain; charset=utf-8");
  return answer;
}

}  // namespace

ConnectCalls::ConnectCalls(UnaryBytesHandler serve, absl::Duration default_timeout,
                           size_t max_message_bytes, Metrics* metrics)
    : serve_(std::move(serve)),
      default_timeout_(default_timeout),
      max_message_bytes_(max_message_bytes),
      metrics_(metrics),
      types_(util::NewTypeResolverForDescriptorPool(
          std::string(kTypeUrlPrefix), google::protobuf::DescriptorPool::generated_pool())) {
  const google::protobuf::ServiceDescriptor* service =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          stud::v1::StudService::service_full_name());
  for (int i = 0; i < service->method_count(); ++i) {
    const google::protobuf::MethodDescriptor* m = service->method(i);
    if (m->client_streaming() || m->server_streaming()) continue;  // WatchHand: the gateway's
    methods_[absl::StrCat("/", service->full_name(), "/", m->name())] =
        Method{absl::StrCat(kTypeUrlPrefix, "/", m->input_type()->full_name()),
               absl::StrCat(kTypeUrlPrefix, "/", m->output_type()->full_name()), m->output_type()};
  }
}

ConnectAnswer ConnectCalls::Serve(const ConnectRequest& request) const {
  return Counted(Answer(request));
}

ConnectAnswer ConnectCalls::BodyTooLarge(size_t limit) const {
  return Counted(ErrorAnswer(Refusal(absl::StatusCode::kResourceExhausted,
                                     absl::StrCat("request larger than ", limit, " bytes"))));
}

ConnectAnswer ConnectCalls::BuffersFull(size_t limit) const {
  return Counted(
      ErrorAnswer(Refusal(absl::StatusCode::kResourceExhausted,
                          absl::StrCat("the server is receiving ", limit,
                                       " bytes of requests already: retry in a moment"))));
}

ConnectAnswer ConnectCalls::Counted(ConnectAnswer answer) const {
  if (metrics_ != nullptr) metrics_->ConnectAnswered(answer.http_status);
  return answer;
}

ConnectAnswer ConnectCalls::Answer(const ConnectRequest& request) const {
  const auto method = methods_.find(request.path);
  if (method == methods_.end()) return Plain(404, "no such Connect unary method\n");
  if (request.http_method != "POST") {
    ConnectAnswer answer = Plain(405, "Connect unary calls are POST requests\n");
    answer.headers.emplace_back("allow", "POST");
    return answer;
  }
  const std::optional<Body> body_kind = BodyOf(HeaderOf(request, "content-type"));
  if (!body_kind) {
    ConnectAnswer answer = Plain(415, "content-type: application/json or application/proto\n");
    answer.headers.emplace_back("accept-post", "application/json, application/proto");
    return answer;
  }
  const absl::string_view encoding = HeaderOf(request, "content-encoding");
  if (!encoding.empty() && encoding != "identity") {
    ConnectAnswer answer =
        ErrorAnswer(Refusal(absl::StatusCode::kUnimplemented,
                            absl::StrCat("content-encoding ", encoding,
                                         " is not served here: send the body uncompressed")));
    answer.headers.emplace_back("accept-encoding", "identity");
    return answer;
  }
  absl::Duration timeout = default_timeout_;
  if (const absl::string_view ms = HeaderOf(request, "connect-timeout-ms"); !ms.empty()) {
    int64_t value = 0;
    const bool digits = std::all_of(ms.begin(), ms.end(), absl::ascii_isdigit);
    if (ms.size() > 10 || !digits || !absl::SimpleAtoi(ms, &value))
      return ErrorAnswer(
          Refusal(absl::StatusCode::kInvalidArgument,
                  "connect-timeout-ms: a whole number of milliseconds, at most 10 digits"));
    timeout = absl::Milliseconds(value);
  }

  std::string binary;
  absl::string_view message = request.body;
  if (*body_kind == Body::kJson) {
    const auto parsed = util::JsonToBinaryString(
        types_.get(), method->second.input_type_url,
        google::protobuf::StringPiece(request.body.data(), request.body.size()), &binary);
    if (!parsed.ok())
      return ErrorAnswer(Refusal(absl::StatusCode::kInvalidArgument,
                                 absl::StrCat("the body is not JSON of this method's "
                                              "request: ",
                                              parsed.message().ToString())));
    message = binary;
  }

  if (message.size() > max_message_bytes_)
    return ErrorAnswer(
        Refusal(absl::StatusCode::kResourceExhausted,
                absl::StrCat("request message larger than ", max_message_bytes_, " bytes")));
  ClientMetadata metadata;
  for (const auto& [name, value] : request.headers)
    if (Forwarded(name)) metadata.emplace(name, value);
  const absl::Time deadline = absl::Now() + timeout;
  std::string payload;
  const grpc::Status status = serve_(request.path, metadata, message, &payload);
  if (absl::Now() > deadline)
    return ErrorAnswer(Refusal(absl::StatusCode::kDeadlineExceeded, "the deadline passed"));
  if (!status.ok()) return ErrorAnswer(status);

  ConnectAnswer answer;
  if (*body_kind == Body::kJson) {
    answer.headers.emplace_back("content-type", "application/json");
    // Written straight from the wire as the gateway writes it (json_text.h);
    // protobuf's converter for what that declines.
    if (!AppendJsonText(*method->second.output, payload, &answer.body)) {
      answer.body.clear();
      const auto st = util::BinaryToJsonString(types_.get(), method->second.output_type_url,
                                               payload, &answer.body);
      if (!st.ok())
        return ErrorAnswer(Refusal(absl::StatusCode::kInternal,
                                   absl::StrCat("stud_server's answer does not convert to JSON: ",
                                                st.message().ToString())));
    }
  } else {
    answer.headers.emplace_back("content-type", "application/proto");
    answer.body = std::move(payload);
  }
  return answer;
}

ConnectAnswer ConnectCalls::ErrorAnswer(const grpc::Status& status) const {
  const CodeInfo info = InfoOf(status.error_code());
  ConnectAnswer answer{.http_status = info.http_status, .headers = {}, .body = {}};
  answer.headers.emplace_back("content-type", "application/json");
  std::string& out = answer.body;
  out = absl::StrCat("{\"code\":\"", info.name, "\"");
  if (!status.error_message().empty()) {
    out.append(",\"message\":");
    AppendJsonString(status.error_message(), &out);
  }
  google::rpc::Status details;
  if (!status.error_details().empty() && details.ParseFromString(status.error_details()) &&
      details.details_size() > 0) {
    out.append(",\"details\":[");
    for (int i = 0; i < details.details_size(); ++i) {
      const google::protobuf::Any& any = details.details(i);
      const absl::string_view type_url = any.type_url();
      const absl::string_view type = type_url.substr(type_url.rfind('/') + 1);
      if (i > 0) out.push_back(',');
      out.append("{\"type\":");
      AppendJsonString(type, &out);
      // The gateway's readable copy (web/src/forward.ts KNOWN_DETAILS).
      if (type == "google.rpc.ErrorInfo" || type == "google.rpc.LocalizedMessage") {
        const google::protobuf::Descriptor* known =
            google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(
                std::string(type));
        std::string debug;
        if (known != nullptr && AppendJsonText(*known, any.value(), &debug))
          absl::StrAppend(&out, ",\"debug\":", debug);
      }
      std::string value = absl::Base64Escape(any.value());
      while (!value.empty() && value.back() == '=') value.pop_back();
      absl::StrAppend(&out, ",\"value\":\"", value, "\"}");
    }
    out.push_back(']');
  }
  out.push_back('}');
  return answer;
}

}  // namespace stud::service
