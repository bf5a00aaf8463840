// ExportHandHistory and ReplayHandHistory through a real gRPC server on
// 127.0.0.1 (port 0): export redaction and the reveal permission, export ->
// replay round trips, the 30 real WSOP hands of tests/data/phh replayed
// exactly, and corrupted records reported at their first differing action with
// the rule that decides.
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "service/server/stud_service.h"
#include "service/token/sealer.h"
#include "service_fixture.h"
#include "stud/v1/stud.grpc.pb.h"
#include "tests/testing/grpc_status_matchers.h"

#ifndef STUD_SOURCE_DIR
#error "STUD_SOURCE_DIR must point at the source tree"
#endif

namespace stud::service {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

namespace v1 = stud::v1;
using testing::ChooseAction;
using testing::ErrorInfoOf;
using testing::SetDeadline;

// A server whose history-reveal permission the test chooses.
class HistoryServer : public testing::Server {
 public:
  explicit HistoryServer(bool allow_reveal)
      : Server({testing::TestKey(1, 9)},
               ServiceOptions{.allow_preset = true, .allow_history_reveal = allow_reveal}) {}
};

std::string ReadData(const std::string& name) {
  std::ifstream in(absl::StrCat(STUD_SOURCE_DIR, "/tests/data/phh/", name));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Plays a PRESET hand with the fixture's policy; stops after `steps` actions
// (all when negative). Returns the last update.
v1::HandUpdate PlayHand(v1::StudService::Stub& stub, v1::Variant variant, int seats, int steps,
                        bool aggressive) {
  v1::NewHandRequest req = testing::BasicHand(seats, v1::DEALING_MODE_SERVICE, variant);
  v1::NewHandResponse started;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(stub.NewHand(&ctx, req, &started), IsOk());
  v1::HandUpdate u = started.update();
  for (int i = 0; i != steps && u.public_view().phase() != v1::PHASE_COMPLETE; ++i) {
    v1::ApplyActionRequest a;
    a.set_token(u.token());
    *a.mutable_action() = ChooseAction(u, aggressive && i % 3 == 0);
    v1::ApplyActionResponse resp;
    grpc::ClientContext c;
    SetDeadline(&c);
    const grpc::Status st = stub.ApplyAction(&c, a, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message();
    if (!st.ok()) break;
    u = resp.update();
  }
  return u;
}

grpc::Status Export(v1::StudService::Stub& stub, const std::string& token, int viewer, bool reveal,
                    v1::ExportHandHistoryResponse* out) {
  v1::ExportHandHistoryRequest req;
  req.set_token(token);
  req.set_viewer_seat(viewer);
  req.set_reveal_hidden_cards(reveal);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.ExportHandHistory(&ctx, req, out);
}

v1::ReplayHandHistoryResponse Replay(v1::StudService::Stub& stub, const std::string& phh) {
  v1::ReplayHandHistoryRequest req;
  req.set_phh(phh);
  v1::ReplayHandHistoryResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  const grpc::Status st = stub.ReplayHandHistory(&ctx, req, &resp);
  EXPECT_THAT(st, IsOk()) << st.error_message();
  return resp;
}

TEST(ExportHandHistory, PublicRecordHidesDownCardsAndRevealNeedsPermission) {
  HistoryServer server(/*allow_reveal=*/false);
  const v1::HandUpdate u = PlayHand(server.stub(), v1::VARIANT_STUD, 3, 4, false);
  v1::ExportHandHistoryResponse pub;
  ASSERT_THAT(Export(server.stub(), u.token(), 0, false, &pub), IsOk());
  EXPECT_FALSE(pub.complete());
  EXPECT_EQ(pub.version(), u.version());
  EXPECT_EQ(pub.hidden_cards(), 6);  // two down cards for each of three seats
  EXPECT_NE(pub.phh().find("variant = 'F7S'"), std::string::npos) << pub.phh();
  EXPECT_NE(pub.phh().find("'d dh p1 ????"), std::string::npos) << pub.phh();
  EXPECT_NE(pub.phh().find("_dealing_mode = 'SERVICE'"), std::string::npos) << pub.phh();
  EXPECT_NE(pub.phh().find("_deck_commitment = '"), std::string::npos) << pub.phh();

  // Seat 2 sees its own down cards only.
  v1::ExportHandHistoryResponse seat2;
  ASSERT_THAT(Export(server.stub(), u.token(), 2, false, &seat2), IsOk());
  EXPECT_EQ(seat2.hidden_cards(), 4);
  EXPECT_EQ(seat2.phh().find("'d dh p2 ??"), std::string::npos) << seat2.phh();

  v1::ExportHandHistoryResponse refused;
  const grpc::Status st = Export(server.stub(), u.token(), 0, true, &refused);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::PERMISSION_DENIED));
  EXPECT_EQ(ErrorInfoOf(st).reason(), "PERMISSION_DENIED");
  EXPECT_EQ(Export(server.stub(), u.token(), 4, false, &refused).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Export(server.stub(), "garbage", 0, false, &refused).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);

  HistoryServer archive(/*allow_reveal=*/true);
  const v1::HandUpdate done = PlayHand(archive.stub(), v1::VARIANT_RAZZ, 4, -1, true);
  v1::ExportHandHistoryResponse all;
  ASSERT_THAT(Export(archive.stub(), done.token(), 0, true, &all), IsOk());
  EXPECT_TRUE(all.complete());
  EXPECT_EQ(all.hidden_cards(), 0) << all.phh();
  EXPECT_NE(all.phh().find("finishing_stacks = ["), std::string::npos) << all.phh();
}

// A record whose every card is known comes back as a LIVE token GetView can
// open, stopped where the record stops.
TEST(ReplayHandHistory, FullyKnownRecordComesBackAsAPlayableToken) {
  HistoryServer server(/*allow_reveal=*/true);
  const v1::HandUpdate done = PlayHand(server.stub(), v1::VARIANT_STUD, 3, -1, false);
  v1::ExportHandHistoryResponse e;
  ASSERT_THAT(Export(server.stub(), done.token(), 0, /*reveal=*/true, &e), IsOk());
  ASSERT_EQ(e.hidden_cards(), 0);
  const v1::ReplayHandHistoryResponse r = Replay(server.stub(), e.phh());
  EXPECT_EQ(r.unknown_cards(), 0);
  ASSERT_FALSE(r.token().empty()) << r.summary();
  v1::GetViewRequest view;
  view.set_token(r.token());
  v1::GetViewResponse got;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(server.stub().GetView(&ctx, view, &got), IsOk());
  EXPECT_EQ(got.update().public_view().dealing_mode(), v1::DEALING_MODE_LIVE);
  EXPECT_EQ(got.update().public_view().phase(), v1::PHASE_COMPLETE);
}

// Export -> Replay over the API: every hand replays legally, with the result.
TEST(ReplayHandHistory, ExportedHandsReplayExactly) {
  HistoryServer server(/*allow_reveal=*/true);
  int hands = 0;
  for (v1::Variant variant : {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ}) {
    for (int seats = 2; seats <= 8; seats += 3) {
      for (bool aggressive : {false, true}) {
        const v1::HandUpdate done = PlayHand(server.stub(), variant, seats, -1, aggressive);
        ASSERT_EQ(done.public_view().phase(), v1::PHASE_COMPLETE);
        for (bool reveal : {false, true}) {
          v1::ExportHandHistoryResponse e;
          ASSERT_THAT(Export(server.stub(), done.token(), 0, reveal, &e), IsOk());
          const v1::ReplayHandHistoryResponse r = Replay(server.stub(), e.phh());
          EXPECT_TRUE(r.matches()) << r.summary() << "\n" << e.phh();
          EXPECT_TRUE(r.legal() && r.complete() && r.result_checked()) << r.summary();
          EXPECT_EQ(r.actions_applied(), r.action_count());
          EXPECT_EQ(r.variant(), variant);
          ASSERT_EQ(r.seats_size(), seats);
          for (const v1::ReplaySeat& s : r.seats()) {
            EXPECT_EQ(s.stack(), done.public_view().seats(s.seat() - 1).stack())
                << "seat " << s.seat();
          }
          // Never invent: a record with hidden cards gives no playable token.
          EXPECT_EQ(r.unknown_cards() > 0, e.hidden_cards() > 0) << r.summary();
          EXPECT_EQ(r.token().empty(), e.hidden_cards() > 0) << r.summary();
          ++hands;
        }
      }
    }
  }
  EXPECT_EQ(hands, 36);
}

TEST(ReplayHandHistory, TheThirtyRealHandsReplayExactly) {
  HistoryServer server(/*allow_reveal=*/false);
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(absl::StrCat(STUD_SOURCE_DIR, "/tests/data/phh"))) {
    if (entry.path().extension() != ".phh") continue;
    const v1::ReplayHandHistoryResponse r =
        Replay(server.stub(), ReadData(entry.path().filename().string()));
    EXPECT_TRUE(r.matches()) << entry.path() << ": " << r.summary();
    EXPECT_TRUE(r.legal()) << entry.path();
    EXPECT_TRUE(r.complete()) << entry.path();
    EXPECT_EQ(r.actions_applied(), r.action_count()) << entry.path();
    EXPECT_FALSE(r.has_divergence()) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 30);
}

// A real hand with one action altered: the report names that action and the rule.
TEST(ReplayHandHistory, CorruptedRecordReportsTheFirstDifferenceAndItsRule) {
  HistoryServer server(/*allow_reveal=*/false);
  const std::string original = ReadData("wsop2023_43_5_48_02_09_20_F7S8.phh");
  ASSERT_NE(original.find("'p5 cbr 250000', 'p1 cbr 500000'"), std::string::npos);

  // Action #7: p5 completes the 75000 bring-in to the small bet, 250000. Written as 300000:
  // a completion is to the small bet exactly [STUD-BRING-5].
  const v1::ReplayHandHistoryResponse wrong_amount =
      Replay(server.stub(), absl::StrReplaceAll(original, {{"'p5 cbr 250000', 'p1 cbr 500000'",
                                                            "'p5 cbr 300000', 'p1 cbr 500000'"}}));
  EXPECT_FALSE(wrong_amount.matches());
  EXPECT_FALSE(wrong_amount.legal());
  EXPECT_EQ(wrong_amount.divergence().point(), v1::REPLAY_POINT_ACTION);
  EXPECT_EQ(wrong_amount.divergence().action_index(), 7);
  EXPECT_EQ(wrong_amount.divergence().action(), "p5 cbr 300000");
  EXPECT_EQ(wrong_amount.divergence().rule_id(), "STUD-BRING-5")
      << wrong_amount.divergence().message();
  EXPECT_NE(wrong_amount.divergence().expected().find("complete 250000"), std::string::npos)
      << wrong_amount.divergence().expected();
  EXPECT_EQ(wrong_amount.actions_applied(), 7);

  // Action #5: the bring-in posted by p4 instead of p3, whose door card is lowest [STUD-BRING-1].
  const v1::ReplayHandHistoryResponse wrong_seat = Replay(
      server.stub(), absl::StrReplaceAll(original, {{"'p3 pb', 'p4 f'", "'p4 pb', 'p4 f'"}}));
  EXPECT_EQ(wrong_seat.divergence().point(), v1::REPLAY_POINT_ACTION);
  EXPECT_EQ(wrong_seat.divergence().action_index(), 5);
  EXPECT_EQ(wrong_seat.divergence().rule_id(), "STUD-BRING-1") << wrong_seat.divergence().message();

  // A stated result that the rules do not give.
  const v1::ReplayHandHistoryResponse wrong_result =
      Replay(server.stub(), absl::StrCat(original, "\nfinishing_stacks = [1, 2, 3, 4, 5]\n"));
  EXPECT_TRUE(wrong_result.legal());
  EXPECT_FALSE(wrong_result.matches());
  EXPECT_EQ(wrong_result.divergence().point(), v1::REPLAY_POINT_RESULT);
  EXPECT_FALSE(wrong_result.divergence().rule_id().empty());

  // The replayed hand comes back as a token GetView can open.
  v1::GetViewRequest view;
  view.set_token(wrong_amount.token());
  v1::GetViewResponse got;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(server.stub().GetView(&ctx, view, &got), IsOk());
  EXPECT_EQ(got.update().public_view().dealing_mode(), v1::DEALING_MODE_LIVE);
  EXPECT_EQ(got.update().to_act(), 5);

  // The same record with the folded p4's hole cards hidden: the replay judges
  // it with stand-ins, never treats them as real, returns no token and says why.
  const v1::ReplayHandHistoryResponse hidden = Replay(
      server.stub(), absl::StrReplaceAll(original, {{"'d dh p4 KdJsJd'", "'d dh p4 ????Jd'"}}));
  EXPECT_TRUE(hidden.matches()) << hidden.summary();
  EXPECT_EQ(hidden.unknown_cards(), 2);
  EXPECT_TRUE(hidden.token().empty());
  EXPECT_NE(hidden.summary().find("hidden in the record (\?\?)"), std::string::npos)
      << hidden.summary();

  // Text that is not a PHH hand is INVALID_ARGUMENT.
  v1::ReplayHandHistoryRequest bad;
  bad.set_phh("variant = 'F7S'\n[table]\n");
  v1::ReplayHandHistoryResponse none;
  grpc::ClientContext c2;
  SetDeadline(&c2);
  EXPECT_EQ(server.stub().ReplayHandHistory(&c2, bad, &none).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace stud::service
