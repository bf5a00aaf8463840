// Hand identity: every hand has a random 128-bit id, shown in every answer,
// and every call that takes a token may name the hand it means. A token of
// another hand is refused ABORTED (HAND_ID_MISMATCH) even when the versions
// happen to match.
#include <functional>
#include <set>
#include <string>

#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;

v1::HandUpdate Start(Server& server) {
  return StartHand(server, BasicHand(3, v1::DEALING_MODE_SERVICE));
}

bool IsHex32(const std::string& s) {
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

TEST(HandIdentity, EveryHandHasARandomIdShownInEveryAnswer) {
  Server server;
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    const v1::HandUpdate u = Start(server);
    EXPECT_TRUE(IsHex32(u.public_view().hand_id())) << u.public_view().hand_id();
    ids.insert(u.public_view().hand_id());
  }
  EXPECT_EQ(ids.size(), 50u);

  const v1::HandUpdate u = Start(server);
  const std::string id = u.public_view().hand_id();
  v1::ApplyActionRequest apply;
  apply.set_token(u.token());
  *apply.mutable_action() = ChooseAction(u, false);
  apply.set_expected_hand_id(id);
  v1::ApplyActionResponse applied;
  grpc::ClientContext c1;
  SetDeadline(&c1);
  ASSERT_THAT(server.stub().ApplyAction(&c1, apply, &applied), IsOk());
  EXPECT_EQ(applied.update().public_view().hand_id(), id);  // the id never changes

  v1::LegalActionsRequest legal;
  legal.set_token(applied.update().token());
  legal.set_seat(1);
  legal.set_expected_hand_id(id);
  v1::LegalActionsResponse legal_resp;
  grpc::ClientContext c2;
  SetDeadline(&c2);
  ASSERT_THAT(server.stub().LegalActions(&c2, legal, &legal_resp), IsOk());
  EXPECT_EQ(legal_resp.hand_id(), id);

  v1::ExportHandHistoryRequest exp;
  exp.set_token(applied.update().token());
  v1::ExportHandHistoryResponse exp_resp;
  grpc::ClientContext c3;
  SetDeadline(&c3);
  ASSERT_THAT(server.stub().ExportHandHistory(&c3, exp, &exp_resp), IsOk());
  EXPECT_EQ(exp_resp.hand_id(), id);
}

// Hand A's token with hand B's id is refused on every RPC that takes a token,
// even at the same version, and changes nothing.
TEST(HandIdentity, AnotherHandsTokenIsRefusedOnEveryRpc) {
  Server server;
  const v1::HandUpdate a = Start(server);
  const v1::HandUpdate b = Start(server);
  ASSERT_EQ(a.version(), b.version());
  ASSERT_NE(a.public_view().hand_id(), b.public_view().hand_id());
  const std::string want = b.public_view().hand_id();
  using Call = std::function<grpc::Status(grpc::ClientContext*)>;
  const std::vector<std::pair<std::string, Call>> calls = {
      {"ApplyAction",
       [&](grpc::ClientContext* ctx) {
         v1::ApplyActionRequest r;
         r.set_token(a.token());
         *r.mutable_action() = ChooseAction(a, false);
         r.set_expected_version(b.version());
         r.set_expected_hand_id(want);
         v1::ApplyActionResponse resp;
         return server.stub().ApplyAction(ctx, r, &resp);
       }},
      {"LegalActions",
       [&](grpc::ClientContext* ctx) {
         v1::LegalActionsRequest r;
         r.set_token(a.token());
         r.set_seat(1);
         r.set_expected_hand_id(want);
         v1::LegalActionsResponse resp;
         return server.stub().LegalActions(ctx, r, &resp);
       }},
      {"ResolveShowdown",
       [&](grpc::ClientContext* ctx) {
         v1::ResolveShowdownRequest r;
         r.set_token(a.token());
         r.set_expected_hand_id(want);
         v1::ResolveShowdownResponse resp;
         return server.stub().ResolveShowdown(ctx, r, &resp);
       }},
      {"RuleIrregularity",
       [&](grpc::ClientContext* ctx) {
         v1::RuleIrregularityRequest r;
         r.set_token(a.token());
         r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_ABSENT_PLAYER);
         r.mutable_report()->set_seat(a.to_act());
         r.set_expected_hand_id(want);
         v1::RuleIrregularityResponse resp;
         return server.stub().RuleIrregularity(ctx, r, &resp);
       }},
      {"GetView",
       [&](grpc::ClientContext* ctx) {
         v1::GetViewRequest r;
         r.set_token(a.token());
         r.set_expected_hand_id(want);
         v1::GetViewResponse resp;
         return server.stub().GetView(ctx, r, &resp);
       }},
      {"ExportHandHistory",
       [&](grpc::ClientContext* ctx) {
         v1::ExportHandHistoryRequest r;
         r.set_token(a.token());
         r.set_expected_hand_id(want);
         v1::ExportHandHistoryResponse resp;
         return server.stub().ExportHandHistory(ctx, r, &resp);
       }},
  };
  for (const auto& [rpc, call] : calls) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    const grpc::Status st = call(&ctx);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::ABORTED) << rpc << ": " << st.error_message();
    EXPECT_EQ(ErrorInfoOf(st).reason(), "HAND_ID_MISMATCH") << rpc;
    EXPECT_EQ(st.error_message().rfind("expected_hand_id: the request expects hand " + want, 0), 0u)
        << rpc << ": " << st.error_message();
    EXPECT_NE(st.error_message().find(a.public_view().hand_id()), std::string::npos) << rpc;
  }
}

}  // namespace
}  // namespace stud::service::testing
