// LIVE dealing through gRPC: the expected deal names the dealer's burn, the
// reshuffle and the common card; burn and reshuffle reports are checked and
// appear as operations, as in SERVICE dealing [STUD-DEAL-3, STUD-DECK-1, -5].
#include <set>
#include <string>

#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

class LiveDeckServiceTest : public ::testing::Test {
 protected:
  Server server_;
  std::set<std::string> used_;  // cards dealt or burned (known), for NextCard

  v1::HandUpdate Start(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server_.stub().NewHand(&ctx, req, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    return resp.update();
  }
  grpc::Status Apply(v1::HandUpdate& u, const v1::Action& a) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    *req.mutable_action() = a;
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server_.stub().ApplyAction(&ctx, req, &resp);
    if (st.ok()) u = resp.update();
    return st;
  }
  std::string NextCard() const {
    for (const std::string& c : NaturalDeck()) {
      if (!used_.count(c)) return c;
    }
    return "";
  }
  v1::Action Dealer(v1::ActionKind kind, const std::string& card = "") {
    v1::Action a;
    a.set_kind(kind);
    a.set_seat(0);
    a.set_card(card);
    return a;
  }
  grpc::Status Deal(v1::HandUpdate& u, const std::string& card) {
    v1::Action a = Dealer(v1::ACTION_KIND_DEAL, card);
    a.set_seat(u.expected_deal().seat());
    a.set_face_up(u.expected_deal().face_up());
    grpc::Status st = Apply(u, a);
    if (st.ok()) used_.insert(card);
    return st;
  }
  grpc::Status Burn(v1::HandUpdate& u, const std::string& card) {
    grpc::Status st = Apply(u, Dealer(v1::ACTION_KIND_BURN, card));
    if (st.ok()) used_.insert(card);
    return st;
  }
  // Deals (burns reported with their card) until a betting round, then checks
  // or calls it through to the next deal.
  void DealStreetAndBet(v1::HandUpdate& u) {
    while (u.public_view().phase() == v1::PHASE_AWAITING_DEAL &&
           u.expected_deal().step() != v1::DEAL_STEP_RESHUFFLE) {
      const bool burn = u.expected_deal().step() == v1::DEAL_STEP_BURN;
      grpc::Status st = burn ? Burn(u, NextCard()) : Deal(u, NextCard());
      ASSERT_THAT(st, IsOk()) << st.error_message();
    }
    while (u.public_view().phase() == v1::PHASE_BETTING) {
      grpc::Status st = Apply(u, ChooseAction(u, false));
      ASSERT_THAT(st, IsOk()) << st.error_message();
    }
  }
};

bool HasLegal(const v1::HandUpdate& u, v1::ActionKind k) {
  for (const auto& la : u.legal_actions()) {
    if (la.kind() == k) return true;
  }
  return false;
}

const v1::Operation* LastOp(const v1::HandUpdate& u, v1::OperationType t) {
  const v1::Operation* found = nullptr;
  for (const auto& op : u.operations()) {
    if (op.type() == t) found = &op;
  }
  return found;
}

// STUD-DEAL-3, STUD-DEAL-4, STUD-DECK-1, STUD-DECK-5
TEST_F(LiveDeckServiceTest, STUD_DECK_1_BurnsReshuffleAndCommonCardReportedAndChecked) {
  v1::HandUpdate u = Start(BasicHand(8, v1::DEALING_MODE_LIVE));
  EXPECT_EQ(u.expected_deal().step(), v1::DEAL_STEP_CARD);
  ASSERT_NO_FATAL_FAILURE(DealStreetAndBet(u));
  // 4th street: the burn is due; the dealer (seat 0) reports it.
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_AWAITING_DEAL);
  EXPECT_EQ(u.expected_deal().step(), v1::DEAL_STEP_BURN);
  EXPECT_EQ(u.expected_deal().seat(), 1);
  EXPECT_TRUE(HasLegal(u, v1::ACTION_KIND_BURN));
  EXPECT_TRUE(HasLegal(u, v1::ACTION_KIND_DEAL));
  v1::Action wrong_seat = Dealer(v1::ACTION_KIND_BURN, NextCard());
  wrong_seat.set_seat(1);
  grpc::Status st = Apply(u, wrong_seat);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("action.seat", 0), 0u) << st.error_message();
  const std::string burned = NextCard();
  ASSERT_THAT(Burn(u, burned), IsOk());
  const v1::Operation* burn = LastOp(u, v1::OPERATION_TYPE_BURN);
  ASSERT_NE(burn, nullptr);
  EXPECT_EQ(burn->rule_id(), "STUD-DEAL-3");
  EXPECT_TRUE(burn->card().empty()) << "a burn card is not shown";
  EXPECT_EQ(u.expected_deal().step(), v1::DEAL_STEP_CARD);
  // A second burn, and the burned card dealt, are refused with their rules.
  st = Burn(u, NextCard());
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-IRR-BURN-1");
  st = Deal(u, burned);
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-DEAL-4") << st.error_message();
  // Everyone stays to 7th street: the last stub card is reshuffled with the
  // burns, one card is burned and one common card turned up.
  for (int street = 4; street <= 6; ++street) ASSERT_NO_FATAL_FAILURE(DealStreetAndBet(u));
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_AWAITING_DEAL);
  EXPECT_EQ(u.expected_deal().street(), v1::STREET_SEVENTH);
  EXPECT_EQ(u.expected_deal().step(), v1::DEAL_STEP_RESHUFFLE);
  EXPECT_EQ(u.expected_deal().seat(), 0);
  ASSERT_EQ(u.legal_actions_size(), 1);
  EXPECT_EQ(u.legal_actions(0).kind(), v1::ACTION_KIND_RESHUFFLE);
  st = Deal(u, NextCard());
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-DECK-1") << st.error_message();
  ASSERT_THAT(Apply(u, Dealer(v1::ACTION_KIND_RESHUFFLE)), IsOk());
  const v1::Operation* recycle = LastOp(u, v1::OPERATION_TYPE_RECYCLE);
  ASSERT_NE(recycle, nullptr);
  EXPECT_EQ(recycle->amount(), 4);
  EXPECT_EQ(recycle->rule_id(), "STUD-DECK-1");
  st = Apply(u, Dealer(v1::ACTION_KIND_RESHUFFLE));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-DECK-1");
  EXPECT_EQ(u.expected_deal().step(), v1::DEAL_STEP_BURN);
  // Burned face down, unseen: no card.
  ASSERT_THAT(Apply(u, Dealer(v1::ACTION_KIND_BURN)), IsOk());
  EXPECT_EQ(u.expected_deal().step(), v1::DEAL_STEP_COMMON_CARD);
  // The reshuffled burns are back in play: the 4th-street burn turns up.
  ASSERT_THAT(Deal(u, burned), IsOk());
  const v1::Operation* common = LastOp(u, v1::OPERATION_TYPE_COMMON_CARD);
  ASSERT_NE(common, nullptr);
  EXPECT_EQ(common->card(), burned);
  EXPECT_EQ(common->rule_id(), "STUD-DECK-5");
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_BETTING);
}

}  // namespace
}  // namespace stud::service::testing
