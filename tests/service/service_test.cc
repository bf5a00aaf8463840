// StudService through a real gRPC stub on 127.0.0.1: every RPC's happy path,
// views and redaction, determinism, the deck commitment, and dealing modes.
// Error classes are in service_errors_test.cc.
#include <sodium.h>

#include <set>
#include <string>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

int64_t StackSum(const v1::PublicView& v) {
  int64_t sum = 0;
  for (const auto& s : v.seats()) sum += s.stack();
  return sum;
}

// Plays the hand to completion with the passive policy; returns the last update.
v1::HandUpdate PlayOut(Server& server, v1::HandUpdate u, bool aggressive_seat_one = false) {
  for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    *req.mutable_action() = ChooseAction(u, aggressive_seat_one && u.to_act() == 1);
    req.set_expected_version(u.version());
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server.stub().ApplyAction(&ctx, req, &resp);
    EXPECT_THAT(st, IsOk()) << st.error_message() << " at step " << step;
    if (!st.ok()) break;
    EXPECT_EQ(resp.update().version(), u.version() + 1);
    u = resp.update();
  }
  return u;
}

TEST(ServiceTest, NewHandShowsOnlyWhatEachViewerMaySee) {
  Server server;
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.add_private_view_seats(2);
  req.set_locale(v1::LOCALE_ES);
  v1::HandUpdate u = StartHand(server, req);

  EXPECT_FALSE(u.token().empty());
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_BETTING);
  EXPECT_EQ(u.public_view().stakes().small_bet(), 1500);
  EXPECT_EQ(u.public_view().options().max_raises_per_round(), 3);
  ASSERT_EQ(u.public_view().seats_size(), 3);
  for (const auto& seat : u.public_view().seats()) {
    ASSERT_EQ(seat.cards_size(), 3);
    EXPECT_EQ(seat.cards(0).card(), "");  // down cards hidden from the table
    EXPECT_EQ(seat.cards(1).card(), "");
    EXPECT_NE(seat.cards(2).card(), "");  // the door card is public
    EXPECT_EQ(seat.committed(), 300);     // the $15-$30 ante
  }
  ASSERT_EQ(u.private_views_size(), 1);
  const v1::PrivateView& pv = u.private_views(0);
  EXPECT_EQ(pv.seat(), 2);
  std::set<std::string> seat_two_cards;
  for (const auto& c : pv.cards()) {
    EXPECT_NE(c.card(), "");
    seat_two_cards.insert(c.card());
  }
  // Seat 2's operations show its own down cards and nobody else's.
  for (const auto& op : pv.operations()) {
    if (op.type() != v1::OPERATION_TYPE_DEAL || op.face_up()) continue;
    EXPECT_EQ(op.card().empty(), op.seat() != 2) << op.ShortDebugString();
  }
  for (const auto& op : u.operations()) {
    if (op.type() == v1::OPERATION_TYPE_DEAL && !op.face_up()) {
      EXPECT_EQ(op.card(), "");
    }
  }
  // The bring-in seat acts, with exact amounts.
  EXPECT_EQ(u.to_act(), u.public_view().bring_in_seat());
  bool bring_in = false, complete = false;
  for (const auto& la : u.legal_actions()) {
    if (la.kind() == v1::ACTION_KIND_BRING_IN)
      bring_in = la.amount_to() == 500 && la.amount_by() == 500;
    if (la.kind() == v1::ACTION_KIND_COMPLETE) complete = la.amount_to() == 1500;
  }
  EXPECT_TRUE(bring_in && complete);
  // Announcements: the low card, in both languages, Spanish as `text`.
  bool announced = false;
  for (const auto& a : u.announcements()) {
    if (a.kind() != "LOW_CARD") continue;
    announced = true;
    EXPECT_EQ(a.seat(), u.to_act());
    EXPECT_NE(a.text_en().find("Low card: seat"), std::string::npos) << a.text_en();
    EXPECT_NE(a.text_es().find("Carta baja: asiento"), std::string::npos) << a.text_es();
    EXPECT_EQ(a.text(), a.text_es());
    EXPECT_FALSE(a.rule_id().empty());
  }
  EXPECT_TRUE(announced);
  // Bringing in is announced with its amount.
  v1::ApplyActionRequest bring;
  bring.set_token(u.token());
  bring.mutable_action()->set_kind(v1::ACTION_KIND_BRING_IN);
  bring.mutable_action()->set_seat(u.to_act());
  bring.mutable_action()->set_amount_to(500);
  v1::ApplyActionResponse after;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(server.stub().ApplyAction(&ctx, bring, &after), IsOk());
  ASSERT_GE(after.update().announcements_size(), 1);
  EXPECT_EQ(after.update().announcements(0).kind(), "BRING_IN");
  EXPECT_NE(after.update().announcements(0).text_en().find("brings in for $5.00"),
            std::string::npos);
  EXPECT_NE(after.update().announcements(0).text_es().find("abre con 5,00 $"), std::string::npos);
  // SERVICE dealing commits to the deck and reveals nothing yet.
  EXPECT_EQ(u.public_view().deck_commitment().commitment().size(), 32u);
  EXPECT_EQ(u.public_view().deck_commitment().revealed_deck_size(), 0);
}

TEST(ServiceTest, ServiceHandPlaysToTheEndAndTheCommitmentVerifies) {
  Server server({TestKey(1, 7)}, ServiceOptions{.allow_preset = true, .allow_deck_reveal = true});
  v1::HandUpdate u = StartHand(server, BasicHand(4, v1::DEALING_MODE_SERVICE));
  const int64_t chips = StackSum(u.public_view()) + u.public_view().pot_total();
  u = PlayOut(server, u, /*aggressive_seat_one=*/true);
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  EXPECT_EQ(StackSum(u.public_view()), chips);
  // The final update carries the commitment alone; the reveal comes on
  // request (GetView reveal_deck, a trusted call, --allow_deck_reveal).
  EXPECT_EQ(u.public_view().deck_commitment().revealed_deck_size(), 0);
  EXPECT_TRUE(u.public_view().deck_commitment().revealed_salt().empty());
  v1::GetViewRequest reveal;
  reveal.set_token(u.token());
  reveal.set_reveal_deck(true);
  v1::GetViewResponse revealed;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    const grpc::Status st = server.stub().GetView(&ctx, reveal, &revealed);
    ASSERT_THAT(st, IsOk()) << st.error_message();
  }
  const v1::DeckCommitment& dc = revealed.update().public_view().deck_commitment();
  EXPECT_EQ(dc.commitment(), u.public_view().deck_commitment().commitment());
  ASSERT_EQ(dc.revealed_deck_size(), 52);
  ASSERT_EQ(dc.revealed_salt().size(), 32u);
  std::string message;
  for (const auto& c : dc.revealed_deck()) message += c;
  message += "/";
  for (const auto& c : dc.revealed_recycle_order()) message += c;
  message += dc.revealed_salt();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(message.data()),
                     message.size());
  EXPECT_EQ(std::string(reinterpret_cast<char*>(digest), sizeof(digest)), dc.commitment());
  // Every card a seat showed came from the revealed deck.
  std::set<std::string> deck(dc.revealed_deck().begin(), dc.revealed_deck().end());
  EXPECT_EQ(deck.size(), 52u);
  for (const auto& seat : u.public_view().seats()) {
    for (const auto& c : seat.cards()) {
      if (!c.card().empty()) {
        EXPECT_TRUE(deck.count(c.card())) << c.card();
      }
    }
  }

  // Token form of ResolveShowdown on the finished hand.
  v1::ResolveShowdownRequest rs;
  rs.set_token(u.token());
  v1::ResolveShowdownResponse settled;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(server.stub().ResolveShowdown(&ctx, rs, &settled), IsOk());
  ASSERT_GE(settled.pots_size(), 1);
  int64_t won = 0;
  for (const auto& [seat, amount] : settled.won()) won += amount;
  int64_t pots = 0;
  for (const auto& p : settled.pots()) pots += p.amount();
  EXPECT_EQ(won, pots);
}

TEST(ServiceTest, EveryVariantPlaysToCompletionConservingChips) {
  Server server;
  for (v1::Variant variant : {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ}) {
    v1::NewHandRequest req = BasicHand(5, v1::DEALING_MODE_SERVICE, variant);
    req.mutable_seats(2)->set_stack(2000);  // a short stack: side pots
    v1::HandUpdate u = StartHand(server, req);
    const int64_t chips = StackSum(u.public_view()) + u.public_view().pot_total();
    u = PlayOut(server, u, /*aggressive_seat_one=*/true);
    EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE) << variant;
    EXPECT_EQ(StackSum(u.public_view()), chips) << variant;
    EXPECT_EQ(u.public_view().pot_total(), 0) << variant;
  }
}

void ExpectSameAnswers(Server& server) {
  v1::HandUpdate u = StartHand(server, BasicHand(3, v1::DEALING_MODE_SERVICE));
  v1::ApplyActionRequest req;
  req.set_token(u.token());
  *req.mutable_action() = ChooseAction(u, false);
  req.add_private_view_seats(1);
  std::string first;
  for (int i = 0; i < 3; ++i) {
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().ApplyAction(&ctx, req, &resp), IsOk());
    std::string bytes;
    google::protobuf::io::StringOutputStream sos(&bytes);
    {
      google::protobuf::io::CodedOutputStream cos(&sos);
      cos.SetSerializationDeterministic(true);
      resp.SerializeToCodedStream(&cos);
    }
    if (i == 0) first = bytes;
    EXPECT_EQ(bytes, first) << "call " << i;
  }
}

TEST(ServiceTest, SameRequestOnSameTokenGivesTheSameAnswer) {
  Server server;
  ExpectSameAnswers(server);
}

// The same with token format 3 (deprecated, still sealed on request) and 4
// (what stud_server seals by default).
TEST(ServiceTest, SameRequestOnSameTokenGivesTheSameAnswerWithTokenFormat3) {
  Server server({TestKey(1, 7)}, true, nullptr, kSipTokenFormat);
  ExpectSameAnswers(server);
}

TEST(ServiceTest, SameRequestOnSameTokenGivesTheSameAnswerWithTokenFormat4) {
  Server server({TestKey(1, 7)}, true, nullptr, kGcmSivTokenFormat);
  ExpectSameAnswers(server);
}

TEST(ServiceTest, PresetDeckDealsInTheDocumentedOrder) {
  Server server;
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_PRESET);
  req.add_private_view_seats(1);
  v1::HandUpdate u = StartHand(server, req);
  ASSERT_EQ(u.private_views_size(), 1);
  // Three passes from 2c 2d 2h 2s 3c 3d 3h 3s 4c: seat 1 gets 2c, 2s, then 3h up.
  const auto& cards = u.private_views(0).cards();
  ASSERT_EQ(cards.size(), 3);
  EXPECT_EQ(cards[0].card(), "2c");
  EXPECT_EQ(cards[1].card(), "2s");
  EXPECT_EQ(cards[2].card(), "3h");
  EXPECT_TRUE(cards[2].face_up());
  EXPECT_EQ(u.public_view().bring_in_seat(), 1);                  // 3h is the lowest door card
  EXPECT_EQ(u.public_view().deck_commitment().commitment(), "");  // only SERVICE commits
}

TEST(ServiceTest, LiveDealingTakesReportedCardsInOrder) {
  Server server;
  v1::HandUpdate u = StartHand(server, BasicHand(2, v1::DEALING_MODE_LIVE));
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_AWAITING_DEAL);
  const char* cards[] = {"Ah", "Kd", "Qs", "Jc", "9h", "8d"};
  for (const char* card : cards) {
    ASSERT_EQ(u.public_view().phase(), v1::PHASE_AWAITING_DEAL);
    const v1::ExpectedDeal next = u.expected_deal();
    ASSERT_EQ(u.legal_actions_size(), 1);
    EXPECT_EQ(u.legal_actions(0).kind(), v1::ACTION_KIND_DEAL);
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    req.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
    req.mutable_action()->set_seat(next.seat());
    req.mutable_action()->set_card(card);
    req.mutable_action()->set_face_up(next.face_up());
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st = server.stub().ApplyAction(&ctx, req, &resp);
    ASSERT_THAT(st, IsOk()) << card << ": " << st.error_message();
    u = resp.update();
  }
  // 3rd street is out: door cards 9h (seat 1) and 8d (seat 2); 8d brings in.
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_BETTING);
  EXPECT_EQ(u.public_view().bring_in_seat(), 2);
  EXPECT_EQ(u.to_act(), 2);
}

TEST(ServiceTest, LegalActionsAndGetViewReadWithoutChanging) {
  Server server;
  v1::HandUpdate u = StartHand(server, BasicHand(3, v1::DEALING_MODE_SERVICE));
  for (int seat = 1; seat <= 3; ++seat) {
    v1::LegalActionsRequest req;
    req.set_token(u.token());
    req.set_seat(seat);
    v1::LegalActionsResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().LegalActions(&ctx, req, &resp), IsOk());
    EXPECT_EQ(resp.to_act(), u.to_act());
    EXPECT_EQ(resp.version(), u.version());
    if (seat == u.to_act()) {
      EXPECT_EQ(resp.legal_actions_size(), u.legal_actions_size());
    } else {
      EXPECT_EQ(resp.legal_actions_size(), 0);
    }
  }
  v1::GetViewRequest gv;
  gv.set_token(u.token());
  gv.add_private_view_seats(3);
  v1::GetViewResponse view;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_THAT(server.stub().GetView(&ctx, gv, &view), IsOk());
  EXPECT_EQ(view.update().token(), u.token());
  EXPECT_EQ(view.update().version(), u.version());
  EXPECT_EQ(view.update().operations_size(), u.operations_size());  // whole log == NewHand's ops
  ASSERT_EQ(view.update().private_views_size(), 1);
  EXPECT_EQ(view.update().private_views(0).seat(), 3);
  for (const auto& op : view.update().private_views(0).operations()) {
    if (op.type() == v1::OPERATION_TYPE_DEAL && !op.face_up() && op.seat() != 3) {
      EXPECT_EQ(op.card(), "");
    }
    if (op.type() == v1::OPERATION_TYPE_BURN) {
      EXPECT_EQ(op.card(), "");
    }
  }
}

TEST(ServiceTest, StatelessShowdownSplitsAndGivesTheOddChipByRule) {
  Server server;
  v1::ResolveShowdownRequest req;
  v1::StatelessShowdown* sd = req.mutable_stateless();
  sd->set_variant(v1::VARIANT_STUD);
  auto add = [&](int seat, const std::vector<std::string>& cards, int64_t contribution,
                 bool folded) {
    v1::ShowdownSeat* s = sd->add_seats();
    s->set_seat(seat);
    for (const auto& c : cards) s->add_cards(c);
    s->set_contribution(contribution);
    s->set_folded(folded);
  };
  add(1, {"As", "Ks", "Qs", "Jd", "9c", "4h", "2d"}, 1000, false);
  add(2, {"Ah", "Kh", "Qh", "Jc", "9d", "4s", "2c"}, 1000, false);
  add(3, {"7c", "7d", "8h"}, 101, true);
  v1::ResolveShowdownResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status st = server.stub().ResolveShowdown(&ctx, req, &resp);
  ASSERT_THAT(st, IsOk()) << st.error_message();
  ASSERT_EQ(resp.pots_size(), 1);
  EXPECT_EQ(resp.pots(0).amount(), 2101);
  EXPECT_EQ(resp.won().at(1), 1051);  // As is the highest card by suit
  EXPECT_EQ(resp.won().at(2), 1050);
  bool odd = false;
  for (const auto& share : resp.pots(0).shares()) {
    if (share.odd_chip()) {
      odd = true;
      EXPECT_EQ(share.seat(), 1);
      EXPECT_EQ(share.odd_chip_rule_id(), "STUD-ODD-1");
    }
  }
  EXPECT_TRUE(odd);
  ASSERT_EQ(resp.hands_size(), 2);
  EXPECT_EQ(resp.hands(0).best_five_high_size(), 5);
  EXPECT_FALSE(resp.hands(0).high_name().empty());
}

// UPDATE_DETAIL_CHANGES: the same step as the full answer (same token,
// operations, private views, who acts and how), without the public view and the
// announcements; the answer is smaller. An unknown detail value is refused.
TEST(ServiceTest, ChangesOnlyAnswerCarriesTheSameStepWithoutTheBoard) {
  Server server;
  v1::NewHandRequest hand = BasicHand(4, v1::DEALING_MODE_SERVICE);
  v1::HandUpdate u = StartHand(server, hand);
  for (int step = 0; step < 6 && u.to_act() != 0; ++step) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    req.mutable_action()->set_kind(u.legal_actions(0).kind());
    req.mutable_action()->set_seat(u.to_act());
    req.mutable_action()->set_amount_to(u.legal_actions(0).amount_to());
    req.add_private_view_seats(u.to_act());
    v1::ApplyActionResponse full;
    v1::ApplyActionResponse changes;
    grpc::ClientContext full_ctx;
    SetDeadline(&full_ctx);
    ASSERT_THAT(server.stub().ApplyAction(&full_ctx, req, &full), IsOk());
    req.set_detail(v1::UPDATE_DETAIL_CHANGES);
    grpc::ClientContext changes_ctx;
    SetDeadline(&changes_ctx);
    ASSERT_THAT(server.stub().ApplyAction(&changes_ctx, req, &changes), IsOk());

    EXPECT_FALSE(changes.update().has_public_view());
    EXPECT_EQ(changes.update().announcements_size(), 0);
    ASSERT_TRUE(full.update().has_public_view());
    v1::HandUpdate expected = full.update();
    expected.clear_public_view();
    expected.clear_announcements();
    EXPECT_EQ(changes.update().SerializeAsString(), expected.SerializeAsString())
        << "step " << step;
    EXPECT_LT(changes.ByteSizeLong(), full.ByteSizeLong());
    u = full.update();
  }

  // NewHand answers the same way: the first update without the board.
  v1::NewHandRequest changes_hand = hand;
  changes_hand.set_detail(v1::UPDATE_DETAIL_CHANGES);
  changes_hand.add_private_view_seats(2);
  const v1::HandUpdate first = StartHand(server, changes_hand);
  EXPECT_FALSE(first.has_public_view());
  EXPECT_EQ(first.announcements_size(), 0);
  EXPECT_FALSE(first.token().empty());
  EXPECT_GT(first.operations_size(), 0);
  EXPECT_GT(first.legal_actions_size(), 0);
  ASSERT_EQ(first.private_views_size(), 1);
  EXPECT_EQ(first.private_views(0).cards_size(), 3);

  const v1::HandUpdate fresh = StartHand(server, hand);
  v1::ApplyActionRequest bad;
  bad.set_token(fresh.token());
  bad.mutable_action()->set_kind(fresh.legal_actions(0).kind());
  bad.mutable_action()->set_seat(fresh.to_act());
  bad.mutable_action()->set_amount_to(fresh.legal_actions(0).amount_to());
  bad.set_detail(static_cast<v1::UpdateDetail>(9));
  v1::ApplyActionResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  const grpc::Status st = server.stub().ApplyAction(&ctx, bad, &resp);
  EXPECT_THAT(st, StatusIs(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_NE(st.error_message().find("detail: 9"), std::string::npos) << st.error_message();
}

}  // namespace
}  // namespace stud::service::testing
