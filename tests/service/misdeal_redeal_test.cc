// A tournament misdeal whose antes stay in the pot (STUD-IRR-EXP-1,
// misdeal_antes = STAY_IN_POT) and its redeal through NewHand.redeal_of,
// through a real gRPC stub: the misdealt hand holds the antes, the redeal
// starts with them in and posts none, the chips of the two hands add up, and
// a token that cannot be redealt is refused with the rule.
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

class MisdealRedealTest : public ::testing::Test {
 protected:
  grpc::Status NewHand(const v1::NewHandRequest& req, v1::HandUpdate* out) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server_.stub().NewHand(&ctx, req, &resp);
    *out = resp.update();
    return st;
  }
  v1::HandUpdate Apply(const v1::HandUpdate& u, const v1::Action& a) {
    return ApplyExpectingOk(server_, u, a);
  }
  // A LIVE tournament hand, seat 3 short of the 300 ante; seat 1's first hole
  // card is reported and then ruled exposed: a misdeal.
  v1::RuleIrregularityResponse Misdeal(v1::MisdealAntes antes) {
    v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_LIVE);
    req.set_profile(v1::PROFILE_TOURNAMENT);
    req.mutable_seats(2)->set_stack(200);
    if (antes != v1::MISDEAL_ANTES_UNSPECIFIED)
      req.mutable_option_overrides()->set_misdeal_antes(antes);
    v1::HandUpdate u;
    EXPECT_THAT(NewHand(req, &u), IsOk());
    v1::Action deal;
    deal.set_kind(v1::ACTION_KIND_DEAL);
    deal.set_seat(1);
    deal.set_card("2d");
    u = Apply(u, deal);
    v1::RuleIrregularityRequest rr;
    rr.set_token(u.token());
    rr.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
    rr.mutable_report()->set_seat(1);
    rr.mutable_report()->add_cards("2d");
    v1::RuleIrregularityResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server_.stub().RuleIrregularity(&ctx, rr, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    EXPECT_EQ(resp.ruling().decision(), "MISDEAL");
    return resp;
  }
  static v1::NewHandRequest Redeal(const std::string& token) {
    v1::NewHandRequest req;
    req.set_redeal_of(token);
    return req;
  }
  static int64_t Stacks(const v1::HandUpdate& u) {
    int64_t total = 0;
    for (const auto& s : u.public_view().seats()) total += s.stack();
    return total;
  }
  Server server_;
};

// STUD-IRR-EXP-1
TEST_F(MisdealRedealTest, STUD_IRR_EXP_1_AntesStayInThePotAndTheRedealPlaysForThem) {
  const v1::RuleIrregularityResponse m = Misdeal(v1::MISDEAL_ANTES_STAY_IN_POT);
  const v1::HandUpdate& void_hand = m.update();
  EXPECT_EQ(void_hand.public_view().options().misdeal_antes(), v1::MISDEAL_ANTES_STAY_IN_POT);
  EXPECT_NE(m.ruling().redeal_en().find("antes stay in the pot"), std::string::npos);
  EXPECT_NE(m.ruling().redeal_es().find("antes se quedan en el bote"), std::string::npos);
  EXPECT_NE(m.ruling().alternative().find("STAY_IN_POT"), std::string::npos);
  EXPECT_EQ(m.ruling().chip_changes_size(), 0) << "no ante goes back";
  EXPECT_EQ(void_hand.public_view().phase(), v1::PHASE_COMPLETE);
  EXPECT_EQ(void_hand.public_view().pot_total(), 800) << "the antes are held for the redeal";
  EXPECT_EQ(void_hand.public_view().seats(0).stack(), 99700);
  EXPECT_EQ(void_hand.public_view().seats(2).stack(), 0);
  EXPECT_EQ(void_hand.public_view().seats(2).committed(), 200);
  for (const auto& op : void_hand.operations())
    EXPECT_NE(op.type(), v1::OPERATION_TYPE_RETURN_ANTE);

  // The redeal, seats and stacks omitted; dealt from a preset deck to play it out.
  v1::NewHandRequest req = Redeal(void_hand.token());
  req.set_dealing_mode(v1::DEALING_MODE_PRESET);
  for (const std::string& c : NaturalDeck()) req.add_preset_deck(c);
  v1::HandUpdate u;
  grpc::Status st = NewHand(req, &u);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  EXPECT_EQ(u.public_view().pot_total(), 800);
  EXPECT_EQ(u.public_view().options().misdeal_antes(), v1::MISDEAL_ANTES_STAY_IN_POT);
  EXPECT_EQ(u.public_view().profile(), v1::PROFILE_TOURNAMENT);
  const int64_t committed[] = {300, 300, 200};
  const int64_t behind[] = {99700, 99700, 0};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(u.public_view().seats(i).stack(), behind[i]);
    EXPECT_EQ(u.public_view().seats(i).committed(), committed[i]);
  }
  EXPECT_TRUE(u.public_view().seats(2).all_in());
  int antes = 0;
  for (const auto& op : u.operations()) {
    if (op.type() != v1::OPERATION_TYPE_ANTE) continue;
    ++antes;
    EXPECT_EQ(op.rule_id(), "STUD-IRR-EXP-1");
    EXPECT_EQ(op.amount(), committed[op.seat() - 1]);
  }
  EXPECT_EQ(antes, 3);
  for (int step = 0; step < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
    u = Apply(u, ChooseAction(u, false));
  }
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  EXPECT_EQ(Stacks(u), 200200) << "chips conserved across the misdeal and the redeal";
}

// STUD-IRR-EXP-1
TEST_F(MisdealRedealTest, STUD_IRR_EXP_1_RedealSeatsMayBeRepeatedButMustAgree) {
  const v1::RuleIrregularityResponse m = Misdeal(v1::MISDEAL_ANTES_STAY_IN_POT);
  v1::NewHandRequest req = Redeal(m.update().token());
  req.set_variant(v1::VARIANT_STUD);
  req.mutable_stakes()->set_preset("$15-$30");
  req.set_profile(v1::PROFILE_TOURNAMENT);
  req.mutable_option_overrides()->set_misdeal_antes(v1::MISDEAL_ANTES_STAY_IN_POT);
  const int64_t behind[] = {99700, 99700, 0};
  for (int i = 1; i <= 3; ++i) {
    auto* s = req.add_seats();
    s->set_seat(i);
    s->set_stack(behind[i - 1]);
  }
  v1::HandUpdate u;
  grpc::Status st = NewHand(req, &u);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  EXPECT_EQ(u.public_view().dealing_mode(), v1::DEALING_MODE_LIVE) << "the misdealt hand's mode";
  EXPECT_EQ(u.public_view().pot_total(), 800);

  v1::NewHandRequest bad = req;
  bad.mutable_seats(0)->set_stack(100000);  // the ante counted twice
  st = NewHand(bad, &u);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("seats[0].stack:", 0), 0u) << st.error_message();
  bad = req;
  bad.mutable_stakes()->set_preset("$4-$8");
  st = NewHand(bad, &u);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("stakes:", 0), 0u) << st.error_message();
  bad = req;
  bad.mutable_option_overrides()->set_misdeal_antes(v1::MISDEAL_ANTES_RETURNED);
  st = NewHand(bad, &u);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  bad = req;
  bad.mutable_seats()->RemoveLast();
  st = NewHand(bad, &u);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("seats:", 0), 0u) << st.error_message();
}

// STUD-IRR-EXP-1: the default is unchanged, and such a misdeal is not redealt.
TEST_F(MisdealRedealTest, STUD_IRR_EXP_1_RedealOfAMisdealThatReturnedTheAntesIsRefused) {
  const v1::RuleIrregularityResponse m = Misdeal(v1::MISDEAL_ANTES_UNSPECIFIED);
  EXPECT_EQ(m.update().public_view().options().misdeal_antes(), v1::MISDEAL_ANTES_RETURNED);
  EXPECT_EQ(m.update().public_view().pot_total(), 0);
  EXPECT_EQ(Stacks(m.update()), 200200);
  v1::HandUpdate u;
  grpc::Status st = NewHand(Redeal(m.update().token()), &u);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-IRR-EXP-1");
}

// STUD-IRR-EXP-1
TEST_F(MisdealRedealTest, STUD_IRR_EXP_1_RedealOfAHandNotMisdealtIsRefused) {
  v1::HandUpdate live;
  ASSERT_THAT(NewHand(BasicHand(3, v1::DEALING_MODE_SERVICE), &live), IsOk());
  v1::HandUpdate u;
  grpc::Status st = NewHand(Redeal(live.token()), &u);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-IRR-EXP-1");
  EXPECT_NE(st.error_message().find("not misdealt"), std::string::npos);
  st = NewHand(Redeal("not a token"), &u);
  EXPECT_THAT(st, ::testing::Not(IsOk()));
  EXPECT_NE(st.error_code(), grpc::StatusCode::INTERNAL);
}

}  // namespace
}  // namespace stud::service::testing
