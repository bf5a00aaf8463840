// Caller authentication and tenant-bound tokens (service/trust/tenants.h,
// sealer.h format 2): through a real gRPC server with two tenants, every RPC
// refuses a caller without valid credentials, and a hand started by one
// tenant cannot be read or played with another's credentials.
#include "service/trust/tenants.h"

#include <functional>

#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

std::string Hex(const TenantKey& k) { return FormatTenantKey(k).substr(k.tenant.size() + 1); }

TEST(TenantKeysTest, ParsesAndRefusesBadEntriesWithoutEchoingKeys) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const std::string a = FormatTenantKey(TestTenantKey("acme", 1)),
                    b = FormatTenantKey(TestTenantKey("bet.co_2-x", 2));
  absl::StatusOr<std::vector<TenantKey>> keys =
      ParseTenantKeys("# tenants\n" + a + "\n" + b + " # second\n");
  ASSERT_THAT(keys, IsOk());
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[1].tenant, "bet.co_2-x");
  EXPECT_THAT(ParseTenantKeys(""), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseTenantKeys("acme:abcd"), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseTenantKeys("bad tenant!:" + Hex(TestTenantKey("x", 1))), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseTenantKeys(std::string(65, 'a') + ":" + Hex(TestTenantKey("x", 1))),
              ::testing::Not(IsOk()));
  const absl::Status bad = ParseTenantKeys("acme:" + std::string(63, 'f') + "g").status();
  EXPECT_EQ(bad.message().find("fff"), std::string::npos)
      << "the key text must not be echoed: " << bad;
  EXPECT_THAT(TenantAuth::Create({TestTenantKey("acme", 1), TestTenantKey("acme", 2)}),
              ::testing::Not(IsOk()));
}

TEST(TenantTokensTest, FormatTwoBindsTheTenant) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 7)});
  const std::string plain = "hand state";
  const std::string v1_token = sealer.Seal(plain);
  EXPECT_EQ(v1_token[2], 1);
  EXPECT_EQ(v1_token, sealer.Seal(plain, ""));  // no tenant: format 1, byte for byte
  const std::string acme = sealer.Seal(plain, "acme");
  EXPECT_EQ(acme[2], 2);
  EXPECT_EQ(acme.substr(7, 5), std::string("\x04"
                                           "acme"));
  EXPECT_EQ(*sealer.Open(acme, "acme"), plain);
  EXPECT_EQ(*sealer.Open(v1_token, ""), plain);

  auto reason = [&](const std::string& token, const std::string& tenant) {
    absl::StatusOr<std::string> r = sealer.Open(token, tenant);
    return r.ok() ? std::string("OK") : TokenErrorReasonOf(r.status());
  };
  EXPECT_EQ(reason(acme, "bet"), "TOKEN_TENANT_MISMATCH");
  EXPECT_EQ(sealer.Open(acme, "bet").status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(reason(acme, ""), "TOKEN_TENANT_MISMATCH");
  EXPECT_EQ(reason(v1_token, "acme"), "TOKEN_TENANT_MISMATCH");
  // Rewriting the tenant in the header breaks authentication: it is associated data.
  std::string forged = acme;
  forged.replace(8, 4, "bett");
  EXPECT_EQ(reason(forged, "bett"), "TOKEN_AUTHENTICATION_FAILED");
  // A format-1 token relabelled as format 2 (and back) does not open.
  std::string relabel = v1_token;
  relabel[2] = 2;
  EXPECT_NE(reason(relabel, ""), "OK");
  std::string truncated = acme.substr(0, 9);
  EXPECT_EQ(reason(truncated, "acme"), "TOKEN_MALFORMED");
  std::string zero_len = acme;
  zero_len[7] = 0;
  EXPECT_EQ(reason(zero_len, "acme"), "TOKEN_MALFORMED");
  std::string long_len = acme;
  long_len[7] = static_cast<char>(200);
  EXPECT_EQ(reason(long_len, "acme"), "TOKEN_MALFORMED");
  // The refusal names neither tenant.
  EXPECT_EQ(std::string(sealer.Open(acme, "bet").status().message()).find("acme"),
            std::string::npos);
}

class TenantServer {
 public:
  TenantServer()
      : auth_(*TenantAuth::Create({TestTenantKey("acme", 1), TestTenantKey("bet", 2)})),
        server_({TestKey(1, 7)}, ServiceOptions{.allow_preset = true, .tenants = &auth_}) {}

  // A context with `tenant`'s credentials ("" = none; key_fill 0 = its own key).
  std::unique_ptr<grpc::ClientContext> As(const std::string& tenant, uint8_t key_fill = 0) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    SetDeadline(ctx.get());
    if (!tenant.empty()) {
      const uint8_t fill = key_fill != 0      ? key_fill
                           : tenant == "acme" ? 1
                           : tenant == "bet"  ? 2
                                              : 9;
      ctx->AddMetadata(kTenantHeader, tenant);
      ctx->AddMetadata(kApiKeyHeader, Hex(TestTenantKey(tenant, fill)));
    }
    return ctx;
  }
  v1::StudService::Stub& stub() { return server_.stub(); }
  const Sealer& sealer() const { return server_.sealer(); }

 private:
  TenantAuth auth_;  // before server_: the service holds a pointer to it
  testing::Server server_;
};

// Every RPC with a token, called as `tenant` on `token`.
std::vector<std::pair<std::string, std::function<grpc::Status(TenantServer&, grpc::ClientContext*,
                                                              const std::string&)>>>
TokenCalls(const v1::HandUpdate& hand) {
  const v1::Action action = ChooseAction(hand, false);
  return {
      {"ApplyAction",
       [action](TenantServer& s, grpc::ClientContext* ctx, const std::string& token) {
         v1::ApplyActionRequest r;
         r.set_token(token);
         *r.mutable_action() = action;
         v1::ApplyActionResponse resp;
         return s.stub().ApplyAction(ctx, r, &resp);
       }},
      {"LegalActions",
       [](TenantServer& s, grpc::ClientContext* ctx, const std::string& token) {
         v1::LegalActionsRequest r;
         r.set_token(token);
         r.set_seat(1);
         v1::LegalActionsResponse resp;
         return s.stub().LegalActions(ctx, r, &resp);
       }},
      {"GetView",
       [](TenantServer& s, grpc::ClientContext* ctx, const std::string& token) {
         v1::GetViewRequest r;
         r.set_token(token);
         r.add_private_view_seats(1);
         v1::GetViewResponse resp;
         return s.stub().GetView(ctx, r, &resp);
       }},
      {"RuleIrregularity",
       [seat = hand.to_act()](TenantServer& s, grpc::ClientContext* ctx, const std::string& token) {
         v1::RuleIrregularityRequest r;
         r.set_token(token);
         r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_ABSENT_PLAYER);
         r.mutable_report()->set_seat(seat);
         v1::RuleIrregularityResponse resp;
         return s.stub().RuleIrregularity(ctx, r, &resp);
       }},
      {"ResolveShowdown",
       [](TenantServer& s, grpc::ClientContext* ctx, const std::string& token) {
         v1::ResolveShowdownRequest r;
         r.set_token(token);
         v1::ResolveShowdownResponse resp;
         return s.stub().ResolveShowdown(ctx, r, &resp);
       }},
      {"ExportHandHistory",
       [](TenantServer& s, grpc::ClientContext* ctx, const std::string& token) {
         v1::ExportHandHistoryRequest r;
         r.set_token(token);
         v1::ExportHandHistoryResponse resp;
         return s.stub().ExportHandHistory(ctx, r, &resp);
       }},
  };
}

TEST(TenantServiceTest, CallersMustAuthenticateAndTokensStayWithTheirTenant) {
  TenantServer s;
  // NewHand as acme: the token is bound to acme.
  v1::NewHandResponse started;
  ASSERT_THAT(
      s.stub().NewHand(s.As("acme").get(), BasicHand(3, v1::DEALING_MODE_SERVICE), &started),
      IsOk());
  const v1::HandUpdate hand = started.update();
  EXPECT_EQ(hand.token()[2], 2);
  EXPECT_EQ(hand.token().substr(8, 4), "acme");

  // Callers without valid credentials never reach the service.
  struct Caller {
    std::string what, tenant;
    uint8_t fill;
  };
  for (const Caller& c :
       {Caller{"no metadata", "", 0}, Caller{"unknown tenant", "mallory", 0},
        Caller{"acme with bet's key", "acme", 2}, Caller{"acme with a wrong key", "acme", 5}}) {
    SCOPED_TRACE(c.what);
    v1::NewHandResponse resp;
    const grpc::Status st = s.stub().NewHand(s.As(c.tenant, c.fill).get(),
                                             BasicHand(3, v1::DEALING_MODE_SERVICE), &resp);
    EXPECT_THAT(st, StatusIs(grpc::StatusCode::UNAUTHENTICATED));
    EXPECT_EQ(ErrorInfoOf(st).reason(), "CALLER_UNAUTHENTICATED");
    EXPECT_EQ(st.error_message().rfind("caller:", 0), 0u) << st.error_message();
    for (const auto& [rpc, call] : TokenCalls(hand)) {
      const grpc::Status t = call(s, s.As(c.tenant, c.fill).get(), hand.token());
      EXPECT_THAT(t, StatusIs(grpc::StatusCode::UNAUTHENTICATED)) << rpc;
      EXPECT_EQ(ErrorInfoOf(t).reason(), "CALLER_UNAUTHENTICATED") << rpc;
    }
  }
  // Both wrong-credential messages are the same: they do not tell which tenants exist.
  v1::NewHandResponse r1, r2;
  const grpc::Status unknown =
      s.stub().NewHand(s.As("mallory").get(), BasicHand(3, v1::DEALING_MODE_SERVICE), &r1);
  const grpc::Status wrong =
      s.stub().NewHand(s.As("acme", 5).get(), BasicHand(3, v1::DEALING_MODE_SERVICE), &r2);
  EXPECT_EQ(unknown.error_message(), wrong.error_message());

  // acme's hand with bet's (valid) credentials: PERMISSION_DENIED on every RPC;
  // with acme's: accepted.
  for (const auto& [rpc, call] : TokenCalls(hand)) {
    SCOPED_TRACE(rpc);
    const grpc::Status other = call(s, s.As("bet").get(), hand.token());
    EXPECT_THAT(other, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
    EXPECT_EQ(ErrorInfoOf(other).reason(), "TOKEN_TENANT_MISMATCH");
    EXPECT_EQ(other.error_message().find("acme"), std::string::npos);
    const grpc::Status own = call(s, s.As("acme").get(), hand.token());
    EXPECT_NE(own.error_code(), grpc::StatusCode::PERMISSION_DENIED) << own.error_message();
    EXPECT_NE(own.error_code(), grpc::StatusCode::UNAUTHENTICATED) << own.error_message();
  }
  // Tokens returned to acme stay acme's.
  v1::ApplyActionRequest a;
  a.set_token(hand.token());
  *a.mutable_action() = ChooseAction(hand, false);
  v1::ApplyActionResponse next;
  ASSERT_THAT(s.stub().ApplyAction(s.As("acme").get(), a, &next), IsOk());
  EXPECT_EQ(next.update().token().substr(8, 4), "acme");
  // A token sealed with no tenant (e.g. before authentication was turned on) is nobody's.
  const std::string untenanted = s.sealer().Seal(*s.sealer().Open(hand.token(), "acme"));
  v1::GetViewRequest g;
  g.set_token(untenanted);
  v1::GetViewResponse gr;
  const grpc::Status none = s.stub().GetView(s.As("acme").get(), g, &gr);
  EXPECT_THAT(none, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
  // The stateless showdown needs no token but still an authenticated caller.
  v1::ResolveShowdownRequest sd;
  sd.mutable_stateless()->set_variant(v1::VARIANT_STUD);
  v1::ResolveShowdownResponse sdr;
  EXPECT_EQ(s.stub().ResolveShowdown(s.As("").get(), sd, &sdr).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

}  // namespace
}  // namespace stud::service::testing
