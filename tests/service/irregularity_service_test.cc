// RuleIrregularity and LIVE deal reports that reveal a dealer error, through a
// real gRPC stub: the ruling (rule, decision, both explanations, the option
// that decided it, the exact change) and the corrected hand in the new token.
#include <algorithm>

#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

class IrregularityServiceTest : public ::testing::Test {
 protected:
  v1::HandUpdate Start(v1::NewHandRequest req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    EXPECT_THAT(server_.stub().NewHand(&ctx, req, &resp), IsOk());
    return resp.update();
  }
  // Reports `card` as dealt to the seat the hand expects, face up or down.
  v1::ApplyActionResponse Deal(const v1::HandUpdate& u, const std::string& card, bool face_up) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    req.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
    req.mutable_action()->set_seat(u.expected_deal().seat());
    req.mutable_action()->set_card(card);
    req.mutable_action()->set_face_up(face_up);
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server_.stub().ApplyAction(&ctx, req, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    return resp;
  }
  v1::HandUpdate Act(const v1::HandUpdate& u, v1::ActionKind kind, int64_t amount_to = 0) {
    v1::Action a;
    a.set_kind(kind);
    a.set_seat(u.to_act());
    a.set_amount_to(amount_to);
    return ApplyExpectingOk(server_, u, a);
  }
  grpc::Status Rule(const v1::HandUpdate& u, const v1::IrregularityReport& r,
                    v1::RuleIrregularityResponse* resp) {
    return RuleReport(server_, u, r, resp);
  }
  static v1::NewHandRequest Live(v1::Profile profile) {
    v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_LIVE);
    req.set_profile(profile);
    return req;
  }
  Server server_;
};

// STUD-IRR-EXP-1
TEST_F(IrregularityServiceTest, STUD_IRR_EXP_1_FaceUpHoleCardReportIsRuledThirdCardDown) {
  v1::HandUpdate u = Start(Live(v1::PROFILE_CASH));
  v1::ApplyActionResponse r = Deal(u, "2d", true);  // seat 1's first hole card face up
  EXPECT_EQ(r.ruling().rule_id(), "STUD-IRR-EXP-1");
  EXPECT_EQ(r.ruling().decision(), "THIRD_CARD_DOWN");
  EXPECT_FALSE(r.ruling().explanation_en().empty());
  EXPECT_FALSE(r.ruling().explanation_es().empty());
  ASSERT_EQ(r.ruling().exposed_cards_size(), 1);
  EXPECT_EQ(r.ruling().exposed_cards(0).card(), "2d");
  u = r.update();
  EXPECT_EQ(u.public_view().seats(0).cards(0).card(), "2d");
  EXPECT_TRUE(u.public_view().seats(0).cards(0).face_up());
  const char* rest[] = {"4c", "3d", "Ah", "5d", "3h"};
  for (const char* c : rest) u = Deal(u, c, false).update();
  // Door pass: seat 1's third card is due face down.
  EXPECT_EQ(u.expected_deal().seat(), 1);
  EXPECT_FALSE(u.expected_deal().face_up());
  u = Deal(u, "7c", false).update();
  u = Deal(u, "3c", true).update();
  u = Deal(u, "Kh", true).update();
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_BETTING);
  EXPECT_EQ(u.to_act(), 1) << "the exposed 2d is the low card";
  EXPECT_EQ(u.public_view().seats(0).cards(2).card(), "") << "the third card stays hidden";
}

// STUD-IRR-EXP-1
TEST_F(IrregularityServiceTest, STUD_IRR_EXP_1_TournamentMisdealVoidsTheHand) {
  v1::HandUpdate u = Start(Live(v1::PROFILE_TOURNAMENT));
  u = Deal(u, "2d", false).update();
  v1::IrregularityReport rep;
  rep.set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
  rep.set_seat(1);
  rep.add_cards("2d");
  v1::RuleIrregularityResponse resp;
  grpc::Status st = Rule(u, rep, &resp);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  EXPECT_EQ(resp.ruling().decision(), "MISDEAL");
  EXPECT_NE(resp.ruling().alternative().find("MISDEAL"), std::string::npos);
  EXPECT_FALSE(resp.ruling().redeal_en().empty());
  EXPECT_FALSE(resp.ruling().redeal_es().empty());
  EXPECT_EQ(resp.ruling().chip_changes_size(), 3);
  EXPECT_EQ(resp.update().public_view().phase(), v1::PHASE_COMPLETE);
  for (const auto& s : resp.update().public_view().seats()) EXPECT_EQ(s.stack(), 100000);
  EXPECT_EQ(resp.update().public_view().pot_total(), 0);
  bool misdeal_op = false;
  for (const auto& op : resp.update().operations())
    misdeal_op |= op.type() == v1::OPERATION_TYPE_MISDEAL;
  EXPECT_TRUE(misdeal_op);
}

// STUD-IRR-WRONG-1 read for an action out of turn, under out_of_turn_binding:
// seat 1 completes before seat 3 has acted. The chips go into the pot and show
// in the ruling; seat 3 only calls, so the completion stands as seat 1's action.
TEST_F(IrregularityServiceTest, STUD_IRR_WRONG_1_ActionOutOfTurnHeldThenStands) {
  v1::NewHandRequest req = Live(v1::PROFILE_CASH);
  req.mutable_option_overrides()->set_out_of_turn_binding(true);
  v1::HandUpdate u = Start(req);
  for (const char* c : {"2d", "4c", "3d", "Ah", "5d", "3h"}) u = Deal(u, c, false).update();
  for (const char* c : {"7c", "3c", "Kh"}) u = Deal(u, c, true).update();
  ASSERT_EQ(u.to_act(), 2);  // 3c brings in
  u = Act(u, v1::ACTION_KIND_BRING_IN);
  ASSERT_EQ(u.to_act(), 3);
  const int64_t stack1 = u.public_view().seats(0).stack();
  v1::IrregularityReport rep;
  rep.set_kind(v1::IRREGULARITY_KIND_ACTION_OUT_OF_TURN);
  rep.set_seat(1);
  rep.set_action(v1::ACTION_KIND_COMPLETE);
  rep.set_amount_to(1500);
  v1::RuleIrregularityResponse resp;
  grpc::Status st = Rule(u, rep, &resp);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  EXPECT_EQ(resp.ruling().rule_id(), "STUD-IRR-WRONG-1");
  EXPECT_EQ(resp.ruling().decision(), "ACTION_BINDING");
  EXPECT_EQ(resp.ruling().alternative(), "out_of_turn_binding = true");
  ASSERT_EQ(resp.ruling().chip_changes_size(), 1);
  EXPECT_EQ(resp.ruling().chip_changes(0).seat(), 1);
  EXPECT_EQ(resp.ruling().chip_changes(0).stack_delta(), -1500);
  EXPECT_EQ(resp.ruling().chip_changes(0).committed_delta(), 1500);
  EXPECT_EQ(resp.ruling().to_act(), 3);
  u = resp.update();
  EXPECT_EQ(u.public_view().seats(0).stack(), stack1 - 1500);
  bool held = false;
  for (const auto& op : u.operations()) {
    held |= op.type() == v1::OPERATION_TYPE_OUT_OF_TURN && op.seat() == 1 && op.amount() == 1500;
  }
  EXPECT_TRUE(held);
  u = Act(u, v1::ACTION_KIND_CALL, 500);
  // Seat 1's turn: nobody bet or raised since, the completion stands.
  EXPECT_EQ(u.public_view().seats(0).street_bet(), 1500);
  EXPECT_EQ(u.public_view().seats(0).stack(), stack1 - 1500);
  EXPECT_EQ(u.to_act(), 2);
  bool stands = false;
  for (const auto& op : u.operations()) {
    stands |= op.type() == v1::OPERATION_TYPE_COMPLETE && op.seat() == 1 &&
              op.rule_id() == "STUD-IRR-WRONG-1";
  }
  EXPECT_TRUE(stands);
  // A refused report (the seat to act) changes nothing.
  rep.set_seat(2);
  st = Rule(u, rep, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_NE(st.error_message().find("STUD-IRR-WRONG-1"), std::string::npos);
}

// STUD-ALLIN-4, STUD-ALLIN-5
TEST_F(IrregularityServiceTest, STUD_ALLIN_4_TimeoutAllInThenExhaustedFolds) {
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.set_profile(v1::PROFILE_ONLINE);
  v1::HandUpdate u = Start(req);
  const int first = u.to_act();
  v1::IrregularityReport rep;
  rep.set_kind(v1::IRREGULARITY_KIND_TIMEOUT);
  rep.set_seat(first);
  rep.set_allowance_remaining(2);
  rep.set_disconnect(true);
  v1::RuleIrregularityResponse resp;
  ASSERT_THAT(Rule(u, rep, &resp), IsOk());
  EXPECT_EQ(resp.ruling().rule_id(), "STUD-ALLIN-4");
  EXPECT_EQ(resp.ruling().decision(), "TIMEOUT_ALL_IN");
  ASSERT_TRUE(resp.ruling().has_allowance_remaining());
  EXPECT_EQ(resp.ruling().allowance_remaining(), 1);
  EXPECT_TRUE(resp.update().public_view().seats(first - 1).all_in());
  EXPECT_NE(resp.update().to_act(), first);
  EXPECT_EQ(resp.ruling().to_act(), resp.update().to_act());
  // STUD-ALLIN-5: with nothing left, the next time-out folds.
  u = resp.update();
  const int next = u.to_act();
  rep.set_seat(next);
  rep.set_allowance_remaining(0);
  v1::RuleIrregularityResponse fold;
  ASSERT_THAT(Rule(u, rep, &fold), IsOk());
  EXPECT_EQ(fold.ruling().rule_id(), "STUD-ALLIN-5");
  EXPECT_EQ(fold.ruling().decision(), "TIMEOUT_FOLD");
  EXPECT_TRUE(fold.update().public_view().seats(next - 1).folded());
  // The new token keeps working.
  v1::HandUpdate after = Act(fold.update(), fold.update().legal_actions(0).kind(),
                             fold.update().legal_actions(0).amount_to());
  EXPECT_GT(after.version(), fold.update().version());
}

// STUD-IRR-ABS-1
TEST_F(IrregularityServiceTest, STUD_IRR_ABS_1_RefusedOnlineWithThePointerToTimeout) {
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.set_profile(v1::PROFILE_ONLINE);
  v1::HandUpdate u = Start(req);
  v1::IrregularityReport rep;
  rep.set_kind(v1::IRREGULARITY_KIND_ABSENT_PLAYER);
  rep.set_seat(u.to_act());
  v1::RuleIrregularityResponse resp;
  grpc::Status st = Rule(u, rep, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-IRR-ABS-1");
  EXPECT_NE(st.error_message().find("TIMEOUT"), std::string::npos);
}

// STUD-IRR-EXP-5
TEST_F(IrregularityServiceTest, STUD_IRR_EXP_5_FaceUpFinalCardOffersDeclareAllIn) {
  v1::NewHandRequest req = Live(v1::PROFILE_CASH);
  v1::HandUpdate u = Start(req);
  // Natural order of fresh cards, each to the seat the hand expects.
  std::vector<std::string> deck = NaturalDeck();
  size_t next = 0;
  while (u.public_view().street() != v1::STREET_SEVENTH ||
         u.public_view().phase() != v1::PHASE_AWAITING_DEAL) {
    if (u.public_view().phase() == v1::PHASE_AWAITING_DEAL) {
      u = Deal(u, deck[next++], u.expected_deal().face_up()).update();
    } else {
      u = Act(u, ChooseAction(u, false).kind(), ChooseAction(u, false).amount_to());
    }
  }
  const int seat = u.expected_deal().seat();
  v1::ApplyActionResponse r = Deal(u, deck[next++], true);
  EXPECT_EQ(r.ruling().rule_id(), "STUD-IRR-EXP-5");
  EXPECT_EQ(r.ruling().decision(), "ALL_IN_OPTION");
  u = r.update();
  while (u.public_view().phase() == v1::PHASE_AWAITING_DEAL) {
    u = Deal(u, deck[next++], u.expected_deal().face_up()).update();
  }
  EXPECT_EQ(u.to_act(), seat);
  ASSERT_EQ(u.legal_actions_size(), 2);
  EXPECT_EQ(u.legal_actions(0).kind(), v1::ACTION_KIND_DECLARE_ALL_IN);
  EXPECT_EQ(u.legal_actions(1).kind(), v1::ACTION_KIND_DECLINE_OPTION);
  u = Act(u, v1::ACTION_KIND_DECLARE_ALL_IN);
  EXPECT_TRUE(u.public_view().seats(seat - 1).all_in());
}

// STUD-IRR-ANN-1
TEST_F(IrregularityServiceTest, STUD_IRR_ANN_1_LowCardPairHighHandAndRaiseAreAnnounced) {
  v1::HandUpdate u = Start(Live(v1::PROFILE_CASH));
  auto kinds = [](const v1::HandUpdate& h) {
    std::vector<std::string> out;
    for (const auto& a : h.announcements()) out.push_back(a.kind());
    return out;
  };
  // Hole cards, then door cards 7c, 3c, Kh: seat 2 (3c) is the low card.
  for (const char* c : {"2d", "4c", "3d", "Ah", "5d", "3h"}) u = Deal(u, c, false).update();
  u = Deal(u, "7c", true).update();
  u = Deal(u, "3c", true).update();
  u = Deal(u, "Kh", true).update();
  ASSERT_EQ(kinds(u), std::vector<std::string>{"LOW_CARD"});
  EXPECT_EQ(u.announcements(0).seat(), 2);
  EXPECT_FALSE(u.announcements(0).text_es().empty());
  u = Act(u, v1::ACTION_KIND_BRING_IN, u.legal_actions(0).amount_to());
  u = Act(u, v1::ACTION_KIND_COMPLETE, 1500);
  EXPECT_EQ(kinds(u), std::vector<std::string>{"COMPLETE"});
  u = Act(u, v1::ACTION_KIND_RAISE, 3000);
  EXPECT_EQ(kinds(u), std::vector<std::string>{"RAISE"});
  u = Act(u, v1::ACTION_KIND_CALL, 3000);
  u = Act(u, v1::ACTION_KIND_CALL, 3000);
  // 4th street: seat 3 pairs its king; it is high and acts first.
  u = Deal(u, "9s", true).update();
  u = Deal(u, "Jh", true).update();
  u = Deal(u, "Ks", true).update();
  const std::vector<std::string> k = kinds(u);
  EXPECT_NE(std::find(k.begin(), k.end(), "PAIR"), k.end());
  EXPECT_NE(std::find(k.begin(), k.end(), "HIGH_HAND"), k.end());
  for (const auto& a : u.announcements()) {
    if (a.kind() == "PAIR") {
      EXPECT_EQ(a.rule_id(), "STUD-IRR-ANN-1");
      // Rank names are the engine's, as in hand descriptions.
      EXPECT_EQ(a.text_en(), "Pair of kings showing, seat 3");
      EXPECT_EQ(a.text_es().rfind("Pareja de reyes", 0), 0u) << a.text_es();
    }
  }
}

}  // namespace
}  // namespace stud::service::testing
