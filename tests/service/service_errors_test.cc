// Every error class of StudService through a real gRPC stub: the gRPC code,
// the field or rule named, and the structured details (ErrorInfo in
// grpc-status-details-bin).
#include <string>

#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

class ErrorsTest : public ::testing::Test {
 protected:
  v1::HandUpdate Start(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    EXPECT_THAT(server_.stub().NewHand(&ctx, req, &resp), IsOk());
    return resp.update();
  }
  grpc::Status NewHand(const v1::NewHandRequest& req) {
    v1::NewHandResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return server_.stub().NewHand(&ctx, req, &resp);
  }
  grpc::Status Apply(const v1::ApplyActionRequest& req) {
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return server_.stub().ApplyAction(&ctx, req, &resp);
  }
  grpc::Status Showdown(const v1::ResolveShowdownRequest& req) {
    v1::ResolveShowdownResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return server_.stub().ResolveShowdown(&ctx, req, &resp);
  }
  grpc::Status Irregularity(const v1::RuleIrregularityRequest& req) {
    v1::RuleIrregularityResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return server_.stub().RuleIrregularity(&ctx, req, &resp);
  }
  grpc::Status View(const std::string& token) {
    v1::GetViewRequest req;
    req.set_token(token);
    v1::GetViewResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return server_.stub().GetView(&ctx, req, &resp);
  }

  Server server_;
};

void ExpectInvalid(const grpc::Status& st, const std::string& field) {
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_EQ(st.error_message().rfind(field, 0), 0u)
      << "message should start with " << field << ": " << st.error_message();
  const google::rpc::ErrorInfo info = ErrorInfoOf(st);
  EXPECT_EQ(info.reason(), "INVALID_ARGUMENT");
  EXPECT_EQ(info.domain(), "stud.v1");
}

TEST_F(ErrorsTest, MalformedNewHandNamesTheField) {
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.set_variant(v1::VARIANT_UNSPECIFIED);
  ExpectInvalid(NewHand(req), "variant:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.mutable_stakes()->set_preset("$7-$14");
  ExpectInvalid(NewHand(req), "stakes.preset:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.mutable_stakes()->mutable_custom()->set_small_bet(100);
  req.mutable_stakes()->mutable_custom()->set_big_bet(50);
  req.mutable_stakes()->mutable_custom()->set_bring_in(25);
  ExpectInvalid(NewHand(req), "stakes.custom:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.mutable_seats(1)->set_seat(1);
  ExpectInvalid(NewHand(req), "seats[1].seat:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.mutable_seats(2)->set_stack(0);
  ExpectInvalid(NewHand(req), "seats[2].stack:");

  ExpectInvalid(NewHand(BasicHand(1, v1::DEALING_MODE_SERVICE)), "seats:");
  ExpectInvalid(NewHand(BasicHand(9, v1::DEALING_MODE_SERVICE)), "seats:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.mutable_option_overrides()->set_max_raises_per_round(0);
  ExpectInvalid(NewHand(req), "option_overrides:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.mutable_option_overrides()->set_deck_exhaustion(v1::DECK_EXHAUSTION_UNSPECIFIED);
  ExpectInvalid(NewHand(req), "option_overrides.deck_exhaustion:");

  req = BasicHand(3, v1::DEALING_MODE_PRESET);
  req.set_preset_deck(3, "1x");
  ExpectInvalid(NewHand(req), "preset_deck[3]:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.add_preset_deck("As");
  ExpectInvalid(NewHand(req), "preset_deck:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.add_private_view_seats(4);
  ExpectInvalid(NewHand(req), "private_view_seats[0]:");

  req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.set_locale(static_cast<v1::Locale>(7));
  ExpectInvalid(NewHand(req), "locale:");
}

TEST_F(ErrorsTest, PresetIsRefusedUnlessTheServerAllowsIt) {
  Server strict({TestKey(1, 7)}, /*allow_preset=*/false);
  v1::NewHandResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status st = strict.stub().NewHand(&ctx, BasicHand(3, v1::DEALING_MODE_PRESET), &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_NE(st.error_message().find("--allow_preset"), std::string::npos) << st.error_message();
  EXPECT_EQ(ErrorInfoOf(st).reason(), "FAILED_PRECONDITION");
}

TEST_F(ErrorsTest, IllegalActionCarriesTheRuleId) {
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  ASSERT_EQ(u.to_act(), 1);
  // Seat 1 must bring in or complete: a raise to an arbitrary amount is illegal.
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  req.mutable_action()->set_kind(v1::ACTION_KIND_BET);
  req.mutable_action()->set_seat(1);
  req.mutable_action()->set_amount_to(777);
  grpc::Status st = Apply(req);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  const google::rpc::ErrorInfo info = ErrorInfoOf(st);
  EXPECT_EQ(info.reason().rfind("STUD-", 0), 0u) << info.reason();
  EXPECT_EQ(info.domain(), "stud.v1");
  EXPECT_NE(st.error_message().find(info.reason()), std::string::npos);

  // Out of turn: seat 2 may not act yet.
  req.mutable_action()->set_kind(v1::ACTION_KIND_FOLD);
  req.mutable_action()->set_seat(2);
  req.mutable_action()->set_amount_to(0);
  st = Apply(req);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason().rfind("STUD-", 0), 0u) << ErrorInfoOf(st).reason();
}

TEST_F(ErrorsTest, MalformedActionsNameTheField) {
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  ExpectInvalid(Apply(req), "action:");
  req.mutable_action()->set_seat(1);
  ExpectInvalid(Apply(req), "action.kind:");
  req.mutable_action()->set_kind(v1::ACTION_KIND_CALL);
  req.mutable_action()->set_seat(12);
  ExpectInvalid(Apply(req), "action.seat:");
  req.mutable_action()->set_seat(1);
  req.mutable_action()->set_amount_to(-5);
  ExpectInvalid(Apply(req), "action.amount_to:");
  req.mutable_action()->set_amount_to(0);
  req.mutable_action()->set_card("As");
  ExpectInvalid(Apply(req), "action.card:");
}

TEST_F(ErrorsTest, StaleExpectedVersionIsAborted) {
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  *req.mutable_action() = ChooseAction(u, false);
  req.set_expected_version(u.version() + 1);
  grpc::Status st = Apply(req);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::ABORTED));
  const google::rpc::ErrorInfo info = ErrorInfoOf(st);
  EXPECT_EQ(info.reason(), "VERSION_MISMATCH");
  EXPECT_EQ(info.metadata().at("actual_version"), std::to_string(u.version()));
  req.set_expected_version(u.version());
  EXPECT_THAT(Apply(req), IsOk());
}

TEST_F(ErrorsTest, EachTokenProblemHasItsOwnReason) {
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  const std::string token = u.token();
  ExpectInvalid(View(""), "token:");

  auto expect = [&](const std::string& bad, const std::string& reason) {
    grpc::Status st = View(bad);
    EXPECT_THAT(st, StatusIs(grpc::StatusCode::UNAUTHENTICATED)) << reason;
    EXPECT_EQ(ErrorInfoOf(st).reason(), reason) << st.error_message();
  };
  std::string flipped = token;
  flipped[token.size() / 2] = static_cast<char>(flipped[token.size() / 2] ^ 0x10);
  expect(flipped, "TOKEN_AUTHENTICATION_FAILED");
  expect(token.substr(0, 20), "TOKEN_MALFORMED");
  expect(token.substr(0, token.size() - 1), "TOKEN_AUTHENTICATION_FAILED");
  expect("definitely not a token at all, but long enough to pass the size check",
         "TOKEN_MALFORMED");
  std::string version = token;
  version[2] = 6;  // formats 1 to 5 are what this server reads
  expect(version, "TOKEN_VERSION_UNSUPPORTED");

  Server other({TestKey(99, 3)});
  v1::NewHandResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(other.stub().NewHand(&ctx, BasicHand(2, v1::DEALING_MODE_PRESET), &resp), IsOk());
  expect(resp.update().token(), "TOKEN_UNKNOWN_KEY");
}

TEST_F(ErrorsTest, ServersSharingAKeyRingContinueEachOthersHands) {
  Server twin;  // same TestKey(1, 7) as server_
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  EXPECT_THAT(View(u.token()), IsOk());
  v1::GetViewRequest req;
  req.set_token(u.token());
  v1::GetViewResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(twin.stub().GetView(&ctx, req, &resp), IsOk());
}

TEST_F(ErrorsTest, LegalActionsSeatOutOfRange) {
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  v1::LegalActionsRequest req;
  req.set_token(u.token());
  req.set_seat(4);
  v1::LegalActionsResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ExpectInvalid(server_.stub().LegalActions(&ctx, req, &resp), "seat:");
}

TEST_F(ErrorsTest, LiveDealingRejectsWrongReports) {
  v1::HandUpdate u = Start(BasicHand(2, v1::DEALING_MODE_LIVE));
  ASSERT_EQ(u.expected_deal().seat(), 1);
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  req.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
  req.mutable_action()->set_seat(2);  // seat 1 is due first
  req.mutable_action()->set_card("As");
  grpc::Status st = Apply(req);
  EXPECT_TRUE(st.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
              st.error_code() == grpc::StatusCode::INVALID_ARGUMENT)
      << st.error_message();
  EXPECT_FALSE(st.error_message().empty());

  req.mutable_action()->set_seat(1);
  req.mutable_action()->set_face_up(true);  // the first card goes down: a dealer error,
  st = Apply(req);                          // ruled at once (STUD-IRR-EXP-1)
  EXPECT_THAT(st, IsOk()) << st.error_message();

  req.mutable_action()->set_face_up(false);
  v1::ApplyActionResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(server_.stub().ApplyAction(&ctx, req, &resp), IsOk());
  req.set_token(resp.update().token());
  req.mutable_action()->set_seat(2);  // the same card again
  st = Apply(req);
  EXPECT_THAT(st, ::testing::Not(IsOk()));
  EXPECT_NE(st.error_message().find("As"), std::string::npos) << st.error_message();

  req.mutable_action()->set_card("Zz");
  ExpectInvalid(Apply(req), "action.card:");
}

TEST_F(ErrorsTest, ShowdownRequestsAreValidated) {
  v1::ResolveShowdownRequest req;
  ExpectInvalid(Showdown(req), "hand:");
  req.mutable_stateless()->add_seats()->set_seat(1);
  ExpectInvalid(Showdown(req), "stateless.variant:");
  req.mutable_stateless()->set_variant(v1::VARIANT_STUD);
  ExpectInvalid(Showdown(req), "stateless.seats:");
  v1::ShowdownSeat* s = req.mutable_stateless()->add_seats();
  s->set_seat(2);
  s->add_cards("As");
  s->add_cards("Qq");
  ExpectInvalid(Showdown(req), "stateless.seats[1].cards[1]:");
  s->set_cards(1, "Qs");
  s->set_contribution(-1);
  ExpectInvalid(Showdown(req), "stateless.seats[1].contribution:");

  // Token form before the hand is over.
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  v1::ResolveShowdownRequest early;
  early.set_token(u.token());
  grpc::Status st = Showdown(early);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-SHOW-1");
}

TEST_F(ErrorsTest, IrregularityReportsAreValidatedThenAnsweredWithTheirRule) {
  v1::HandUpdate u = Start(BasicHand(3, v1::DEALING_MODE_PRESET));
  v1::RuleIrregularityRequest req;
  req.set_token(u.token());
  ExpectInvalid(Irregularity(req), "report:");
  v1::IrregularityReport* r = req.mutable_report();
  r->set_seat(2);
  ExpectInvalid(Irregularity(req), "report.kind:");
  r->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
  ExpectInvalid(Irregularity(req), "report.cards:");
  r->add_cards("Xx");
  ExpectInvalid(Irregularity(req), "report.cards[0]:");
  r->set_cards(0, "2d");
  r->set_seat(5);
  ExpectInvalid(Irregularity(req), "report.seat:");
  r->set_seat(2);
  r->set_street(v1::STREET_FOURTH);
  ExpectInvalid(Irregularity(req), "report.street:");
  r->set_street(v1::STREET_UNSPECIFIED);
  r->set_note(std::string(501, 'n'));
  ExpectInvalid(Irregularity(req), "report.note:");
  r->set_note("dealer flashed the card");
  grpc::Status st = Irregularity(req);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "STUD-IRR-EXP-1");

  v1::RuleIrregularityRequest burn;
  burn.set_token(u.token());
  burn.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BURN_ERROR);
  ExpectInvalid(Irregularity(burn), "report.street:");
  burn.mutable_report()->set_street(v1::STREET_FIFTH);
  EXPECT_EQ(ErrorInfoOf(Irregularity(burn)).reason(), "STUD-IRR-BURN-1");
}

}  // namespace
}  // namespace stud::service::testing
