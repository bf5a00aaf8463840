// The Connect protocol of stud_server's listener (service/connect/): the JSON
// writer (json_text.h) against protobuf's own converter on every answer of
// real hands, the forms it declines, and ConnectCalls (connect_call.h) served
// by a real StudServiceImpl through ServeBytes, the listener's path. The HTTP
// side, and byte-for-byte equality with the web gateway, are Web.ConnectListener's.
#include "service/connect/connect_call.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver_util.h"
#include "gtest/gtest.h"
#include "prometheus/text_serializer.h"
#include "service/api/deterministic_bytes.h"
#include "service/connect/json_text.h"
#include "service/observability/metrics.h"
#include "tests/service/service_fixture.h"

namespace stud::service {
namespace {

namespace v1 = stud::v1;
namespace util = google::protobuf::util;
using testing::Server;

// protobuf's proto3 JSON of `bytes`, a serialized `type`.
std::string ProtobufJson(const google::protobuf::Descriptor& type, const std::string& bytes) {
  static util::TypeResolver* resolver = util::NewTypeResolverForDescriptorPool(
      "type.googleapis.com", google::protobuf::DescriptorPool::generated_pool());
  std::string out;
  EXPECT_TRUE(
      util::BinaryToJsonString(resolver, "type.googleapis.com/" + type.full_name(), bytes, &out)
          .ok());
  return out;
}

// The writer's JSON of `message` equals protobuf's (no answer of the service
// has a string with < > DEL or U+2028, the only characters they escape
// differently).
void ExpectSameJson(const google::protobuf::Message& message) {
  const std::string bytes = DeterministicBytes(message);
  std::string mine;
  ASSERT_TRUE(AppendJsonText(*message.GetDescriptor(), bytes, &mine))
      << message.GetDescriptor()->full_name();
  EXPECT_EQ(mine, ProtobufJson(*message.GetDescriptor(), bytes));
}

TEST(ConnectJsonText, WritesEveryAnswerOfRealHandsAsProtobufDoes) {
  Server server;
  int answers = 0;
  for (int hand = 0; hand < 12; ++hand) {
    v1::NewHandRequest req =
        testing::BasicHand(2 + hand % 7, v1::DEALING_MODE_SERVICE,
                           hand % 3 == 0 ? v1::VARIANT_RAZZ : v1::VARIANT_STUD);
    v1::NewHandResponse started;
    grpc::ClientContext ctx;
    testing::SetDeadline(&ctx);
    ASSERT_TRUE(server.stub().NewHand(&ctx, req, &started).ok());
    ExpectSameJson(started);
    v1::HandUpdate u = started.update();
    for (int step = 0; step < 80 && !u.legal_actions().empty(); ++step) {
      v1::ApplyActionRequest apply;
      apply.set_token(u.token());
      *apply.mutable_action() = testing::ChooseAction(u, step % 4 == 0);
      v1::ApplyActionResponse applied;
      grpc::ClientContext apply_ctx;
      testing::SetDeadline(&apply_ctx);
      ASSERT_TRUE(server.stub().ApplyAction(&apply_ctx, apply, &applied).ok());
      ExpectSameJson(applied);
      ++answers;
      u = applied.update();
    }
    v1::ResolveShowdownRequest showdown;
    showdown.set_token(u.token());
    v1::ResolveShowdownResponse settled;
    grpc::ClientContext showdown_ctx;
    testing::SetDeadline(&showdown_ctx);
    if (server.stub().ResolveShowdown(&showdown_ctx, showdown, &settled).ok()) {
      ExpectSameJson(settled);  // its maps (won, returned) as objects keyed by seat
      ++answers;
    }
  }
  EXPECT_GT(answers, 100);
}

TEST(ConnectJsonText, EscapesStringsAsJsonStringifyDoes) {
  google::rpc::LocalizedMessage m;
  m.set_locale("es");
  m.set_message("<a> & \"b\" \\ /\t\n\x01\x1f\x7f \xc3\xb1 \xe2\x80\xa8 \xf0\x9f\x82\xa1");
  std::string out;
  ASSERT_TRUE(AppendJsonText(*m.GetDescriptor(), m.SerializeAsString(), &out));
  EXPECT_EQ(out,
            "{\"locale\":\"es\",\"message\":\"<a> & \\\"b\\\" \\\\ /\\t\\n\\u0001\\u001f\x7f "
            "\xc3\xb1 \xe2\x80\xa8 \xf0\x9f\x82\xa1\"}");
}

TEST(ConnectJsonText, MapKeysInJavaScriptOrder) {
  // Seats 7, 2, 5 on the wire; JavaScript orders integer keys ascending.
  v1::ResolveShowdownResponse r;
  std::string bytes;
  for (const int seat : {7, 2, 5}) {
    v1::ResolveShowdownResponse one;
    (*one.mutable_won())[seat] = 100 * seat;
    bytes += one.SerializeAsString();
  }
  std::string out;
  ASSERT_TRUE(AppendJsonText(*r.GetDescriptor(), bytes, &out));
  EXPECT_EQ(out, "{\"won\":{\"2\":\"200\",\"5\":\"500\",\"7\":\"700\"}}");
}

TEST(ConnectJsonText, DeclinesWhatItDoesNotWriteTheGatewaysWay) {
  const google::protobuf::Descriptor& update = *v1::HandUpdate::descriptor();
  v1::HandUpdate u;
  u.set_token("abc");
  u.set_version(3);
  const std::string good = u.SerializeAsString();
  std::string out;
  ASSERT_TRUE(AppendJsonText(update, good, &out));
  EXPECT_EQ(out, ProtobufJson(update, good));
  struct Case {
    const char* why;
    std::string bytes;
  };
  const Case cases[] = {
      {"truncated", good.substr(0, good.size() - 1)},
      {"unknown field 999", good + std::string("\xb8\x3e\x01", 3)},
      {"a singular field twice", good + good},
      {"a field without presence at its default", std::string("\x10\x00", 2)},
      {"a group", std::string("\x0b\x0c", 2)},
      {"a bytes field as a varint", std::string("\x0a\x01", 2) + "x" + std::string("\x08\x05", 2)},
  };
  for (const Case& c : cases) {
    std::string declined;
    EXPECT_FALSE(AppendJsonText(update, c.bytes, &declined)) << c.why;
  }
  google::rpc::LocalizedMessage bad_utf8;
  const std::string invalid = std::string("\x12\x02\xc3\x28", 4);  // message: an invalid sequence
  EXPECT_FALSE(AppendJsonText(*bad_utf8.GetDescriptor(), invalid, &out));
  EXPECT_FALSE(AppendJsonText(*google::protobuf::Any::descriptor(), "", &out))
      << "well-known types have their own JSON forms";
}

// ConnectCalls over the service's own unary path.
class ConnectCallsTest : public ::testing::Test {
 protected:
  ConnectCallsTest()
      : calls_(
            [this](absl::string_view path, const ClientMetadata& metadata,
                   absl::string_view request, std::string* response) {
              return server_.service().ServeBytes(path, metadata, request, response);
            },
            absl::Seconds(10), 1 << 20) {}

  ConnectAnswer Post(absl::string_view method, absl::string_view type, absl::string_view body,
                     std::vector<std::pair<std::string, std::string>> headers = {}) {
    headers.emplace_back("content-type", std::string(type));
    const std::string path = absl::StrCat("/stud.v1.StudService/", method);
    return calls_.Serve({.http_method = "POST", .path = path, .headers = headers, .body = body});
  }
  static std::string Header(const ConnectAnswer& a, absl::string_view name) {
    for (const auto& [key, value] : a.headers)
      if (key == name) return value;
    return "";
  }

  Server server_;
  ConnectCalls calls_;
};

TEST_F(ConnectCallsTest, JsonAndBinaryGiveTheSameAnswer) {
  const v1::NewHandRequest req = testing::BasicHand(3, v1::DEALING_MODE_PRESET);
  const ConnectAnswer binary = Post("NewHand", "application/proto", req.SerializeAsString());
  ASSERT_EQ(binary.http_status, 200) << binary.body;
  EXPECT_EQ(Header(binary, "content-type"), "application/proto");
  v1::NewHandResponse from_binary;
  ASSERT_TRUE(from_binary.ParseFromString(binary.body));

  std::string json;
  ASSERT_TRUE(util::MessageToJsonString(req, &json).ok());
  const ConnectAnswer text = Post("NewHand", "application/json; charset=utf-8", json);
  ASSERT_EQ(text.http_status, 200) << text.body;
  EXPECT_EQ(Header(text, "content-type"), "application/json");
  v1::NewHandResponse from_json;
  ASSERT_TRUE(util::JsonStringToMessage(text.body, &from_json).ok());
  // A preset deck: the same hand but for its random id, salt and token.
  EXPECT_EQ(from_json.update().public_view().seats_size(),
            from_binary.update().public_view().seats_size());
  EXPECT_EQ(from_json.update().to_act(), from_binary.update().to_act());
  EXPECT_EQ(from_json.update().legal_actions_size(), from_binary.update().legal_actions_size());
}

TEST_F(ConnectCallsTest, AnEngineRefusalIsAConnectErrorWithItsDetails) {
  const ConnectAnswer a = Post("NewHand", "application/json", R"({"variant":"VARIANT_STUD",
    "stakes":{"preset":"$15-$30"},"seats":[{"seat":1,"stack":"100"}]})",
                               {{"accept-language", "es"}});
  EXPECT_EQ(a.http_status, 400);
  EXPECT_EQ(Header(a, "content-type"), "application/json");
  EXPECT_NE(a.body.find("\"code\":\"invalid_argument\""), std::string::npos) << a.body;
  EXPECT_NE(a.body.find("\"type\":\"google.rpc.ErrorInfo\",\"debug\":{\"reason\":"),
            std::string::npos)
      << a.body;
  EXPECT_NE(a.body.find("\"locale\":\"es\""), std::string::npos) << a.body;
}

TEST_F(ConnectCallsTest, RequestsThatAreNotConnectUnaryCalls) {
  EXPECT_EQ(Post("NoSuchMethod", "application/json", "{}").http_status, 404);
  EXPECT_EQ(Post("WatchHand", "application/json", "{}").http_status, 404);
  EXPECT_EQ(Post("NewHand", "text/plain", "{}").http_status, 415);
  const ConnectAnswer get = calls_.Serve(
      {.http_method = "GET", .path = "/stud.v1.StudService/NewHand", .headers = {}, .body = ""});
  EXPECT_EQ(get.http_status, 405);
  EXPECT_EQ(Header(get, "allow"), "POST");
  const ConnectAnswer gzip =
      Post("NewHand", "application/json", "{}", {{"content-encoding", "gzip"}});
  EXPECT_EQ(gzip.http_status, 501);
  EXPECT_EQ(Header(gzip, "accept-encoding"), "identity");
  for (const char* bad : {"abc", "-1", "+5", " 5", "12345678901"}) {
    const ConnectAnswer t =
        Post("GetSigningKeys", "application/json", "{}", {{"connect-timeout-ms", bad}});
    EXPECT_EQ(t.http_status, 400) << bad;
    // The listener's own refusals carry the service's details too.
    EXPECT_TRUE(absl::StrContains(t.body, R"("debug":{"reason":"INVALID_ARGUMENT")")) << t.body;
  }
  const ConnectAnswer late =
      Post("GetSigningKeys", "application/json", "{}", {{"connect-timeout-ms", "0"}});
  EXPECT_EQ(late.http_status, 504) << late.body;
  EXPECT_EQ(Post("GetSigningKeys", "application/json", "{\"nope\":1}").http_status, 400);
  EXPECT_EQ(Post("ApplyAction", "application/proto", "\xff\xff").http_status, 400);
  const ConnectAnswer huge =
      Post("ApplyAction", "application/proto", std::string((1 << 20) + 1, '\0'));
  EXPECT_EQ(huge.http_status, 429) << huge.body;
}

TEST(ConnectCallsMetrics, EveryAnswerCountedByItsHttpStatus) {
  Server server;
  Metrics metrics(BuildInfo{"t", "t"});
  const ConnectCalls calls(
      [&server](absl::string_view path, const ClientMetadata& metadata, absl::string_view request,
                std::string* response) {
        return server.service().ServeBytes(path, metadata, request, response);
      },
      absl::Seconds(10), 1 << 20, &metrics);
  const std::vector<std::pair<std::string, std::string>> json = {
      {"content-type", "application/json"}};
  for (int i = 0; i < 3; ++i)
    calls.Serve({.http_method = "POST",
                 .path = "/stud.v1.StudService/GetSigningKeys",
                 .headers = json,
                 .body = "{}"});
  calls.Serve({.http_method = "POST", .path = "/nowhere", .headers = json, .body = "{}"});
  calls.BodyTooLarge(4 << 20);
  prometheus::TextSerializer serializer;
  const std::string text = serializer.Serialize(metrics.registry()->Collect());
  EXPECT_TRUE(absl::StrContains(text, "stud_connect_responses_total{status=\"200\"} 3")) << text;
  EXPECT_TRUE(absl::StrContains(text, "stud_connect_responses_total{status=\"404\"} 1")) << text;
  EXPECT_TRUE(absl::StrContains(text, "stud_connect_responses_total{status=\"429\"} 1")) << text;
  EXPECT_TRUE(absl::StrContains(text, "stud_connect_responses_total{status=\"other\"} 0")) << text;
}

}  // namespace
}  // namespace stud::service
