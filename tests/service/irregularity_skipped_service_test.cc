// SKIPPED_SEAT through a real gRPC stub: a LIVE seat passed over on a street
// plays on short a card (STUD-IRR-CARDS-1); found before anyone acts, the
// missed card is given (STUD-IRR-BURN-1); a short hand that misses more than
// its 7th card cannot win at the showdown. The report rides in the token.
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

class SkippedSeatServiceTest : public ::testing::Test {
 protected:
  v1::HandUpdate Start() {
    v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_LIVE);
    req.set_profile(v1::PROFILE_CASH);
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    EXPECT_THAT(server_.stub().NewHand(&ctx, req, &resp), IsOk());
    return resp.update();
  }
  // Reports the next fresh card to the seat the hand expects.
  v1::HandUpdate Deal(const v1::HandUpdate& u) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    req.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
    req.mutable_action()->set_seat(u.expected_deal().seat());
    req.mutable_action()->set_card(deck_[next_++]);
    req.mutable_action()->set_face_up(u.expected_deal().face_up());
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server_.stub().ApplyAction(&ctx, req, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    return resp.update();
  }
  v1::HandUpdate Step(const v1::HandUpdate& u) {
    if (u.public_view().phase() == v1::PHASE_AWAITING_DEAL) return Deal(u);
    return ApplyExpectingOk(server_, u, ChooseAction(u, false));
  }
  grpc::Status Rule(const v1::HandUpdate& u, const v1::IrregularityReport& r,
                    v1::RuleIrregularityResponse* resp) {
    return RuleReport(server_, u, r, resp);
  }
  static v1::IrregularityReport Skipped(int seat) {
    v1::IrregularityReport r;
    r.set_kind(v1::IRREGULARITY_KIND_SKIPPED_SEAT);
    r.set_seat(seat);
    r.set_street(v1::STREET_FOURTH);
    return r;
  }
  // Plays 3rd street and reports seat 1 skipped on 4th street.
  v1::HandUpdate SkipSeatOne() {
    v1::HandUpdate u = Start();
    for (int i = 0; i < 40 && u.public_view().street() != v1::STREET_FOURTH; ++i) u = Step(u);
    EXPECT_EQ(u.expected_deal().seat(), 1);
    v1::RuleIrregularityResponse resp;
    grpc::Status st = Rule(u, Skipped(1), &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    EXPECT_EQ(resp.ruling().rule_id(), "STUD-IRR-CARDS-1");
    EXPECT_EQ(resp.ruling().decision(), "PLAYS_SHORT");
    EXPECT_FALSE(resp.ruling().explanation_en().empty());
    EXPECT_FALSE(resp.ruling().explanation_es().empty());
    u = resp.update();
    EXPECT_EQ(u.expected_deal().seat(), 2) << "the deal goes on to seat 2";
    for (int i = 0; i < 8 && u.public_view().phase() == v1::PHASE_AWAITING_DEAL; ++i) u = Deal(u);
    return u;
  }
  Server server_;
  std::vector<std::string> deck_ = NaturalDeck();
  size_t next_ = 0;
};

// STUD-IRR-BURN-1
TEST_F(SkippedSeatServiceTest, STUD_IRR_BURN_1_SkippedSeatGetsTheMissedCardBeforeBetting) {
  v1::HandUpdate u = SkipSeatOne();
  ASSERT_FALSE(HasFailure());
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_BETTING);
  EXPECT_EQ(u.public_view().seats(0).cards_size(), 3);
  v1::IrregularityReport found = Skipped(1);
  const std::string card = deck_[next_++];
  found.add_cards(card);
  v1::RuleIrregularityResponse resp;
  grpc::Status st = Rule(u, found, &resp);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  EXPECT_EQ(resp.ruling().rule_id(), "STUD-IRR-BURN-1");
  EXPECT_EQ(resp.ruling().decision(), "CARDS_CORRECTED");
  ASSERT_EQ(resp.ruling().given_cards_size(), 1);
  EXPECT_EQ(resp.ruling().given_cards(0).seat(), 1);
  EXPECT_EQ(resp.ruling().given_cards(0).card(), card) << "a 4th-street card is an upcard";
  const v1::SeatView& seat1 = resp.update().public_view().seats(0);
  ASSERT_EQ(seat1.cards_size(), 4);
  EXPECT_EQ(seat1.cards(3).card(), card);
}

// STUD-IRR-CARDS-1
TEST_F(SkippedSeatServiceTest, STUD_IRR_CARDS_1_ShortHandCannotWinAtTheShowdown) {
  v1::HandUpdate u = SkipSeatOne();
  ASSERT_FALSE(HasFailure());
  int64_t total = 0;
  for (const auto& s : u.public_view().seats()) total += s.stack();
  total += u.public_view().pot_total();
  for (int i = 0; i < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i) u = Step(u);
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  EXPECT_EQ(u.public_view().seats(0).cards_size(), 6);
  EXPECT_TRUE(u.public_view().seats(0).folded()) << "dead: short a 4th-street card";
  int64_t after = 0;
  for (const auto& s : u.public_view().seats()) after += s.stack();
  EXPECT_EQ(after, total);
  EXPECT_EQ(u.public_view().pot_total(), 0);
}

// Malformed and misplaced reports are refused with the field or the rule.
TEST_F(SkippedSeatServiceTest, STUD_IRR_CARDS_1_ReportsAreValidated) {
  v1::HandUpdate u = Start();
  for (int i = 0; i < 40 && u.public_view().street() != v1::STREET_FOURTH; ++i) u = Step(u);
  v1::RuleIrregularityResponse resp;
  v1::IrregularityReport r = Skipped(1);
  r.clear_street();
  grpc::Status st = Rule(u, r, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("report.street", 0), 0u) << st.error_message();
  r = Skipped(1);
  r.add_cards(deck_[40]);
  r.add_cards(deck_[41]);
  st = Rule(u, r, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("report.cards", 0), 0u) << st.error_message();
  st = Rule(u, Skipped(2), &resp);  // the deal is at seat 1
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(st.error_message().rfind("STUD-IRR-CARDS-1", 0), 0u) << st.error_message();
  r = Skipped(1);
  r.set_card_count(6);
  st = Rule(u, r, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind("report.card_count", 0), 0u) << st.error_message();
}

}  // namespace
}  // namespace stud::service::testing
