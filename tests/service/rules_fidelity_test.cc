// Rule fidelity through the API: what the service reports (pots, stakes,
// board order, announcements) agrees with what the engine did, for every
// hand of a random sample and for the rule-book cases that once differed.
#include <map>
#include <random>
#include <set>
#include <string>

#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;

// Any legal action, folds rarely, so that bets, raises and all-ins happen.
v1::Action RandomAction(const v1::HandUpdate& u, std::mt19937_64& rng) {
  std::vector<const v1::LegalAction*> choices;
  for (const v1::LegalAction& a : u.legal_actions()) {
    if (a.kind() != v1::ACTION_KIND_FOLD || rng() % 8 == 0) choices.push_back(&a);
  }
  if (choices.empty()) choices.push_back(&u.legal_actions(0));
  const v1::LegalAction& pick = *choices[rng() % choices.size()];
  v1::Action a;
  a.set_seat(u.to_act());
  a.set_kind(pick.kind());
  a.set_amount_to(pick.amount_to());
  return a;
}

v1::ResolveShowdownResponse ResolveByToken(Server& server, const std::string& token) {
  v1::ResolveShowdownRequest req;
  req.set_token(token);
  v1::ResolveShowdownResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(server.stub().ResolveShowdown(&ctx, req, &resp), ::stud::testing::IsOk());
  return resp;
}

// STUD-ALLIN-1 over random hands (short stacks, raising play, every variant):
// ResolveShowdown(token) reports exactly what the engine did. Its pot shares
// are the AWARD operations, its `returned` the RETURN_UNCALLED ones, and pots
// plus returned chips add up to every chip put in.
TEST(RulesFidelity, STUD_ALLIN_1_TokenShowdownReportsOnlyCalledChips) {
  Server server;
  std::mt19937_64 rng(0xA11);
  int returned_hands = 0;
  const v1::Variant variants[] = {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ};
  for (int hand = 0; hand < 150; ++hand) {
    v1::NewHandRequest req =
        BasicHand(2 + static_cast<int>(rng() % 4), v1::DEALING_MODE_SERVICE, variants[hand % 3]);
    req.mutable_stakes()->set_preset("$4-$8");
    for (auto& s : *req.mutable_seats()) s.set_stack(300 + static_cast<int64_t>(rng() % 3000));
    v1::HandUpdate u = StartHand(server, req);
    std::map<std::pair<int, int>, int64_t> awarded;  // (pot, seat) -> chips
    std::map<int, int64_t> uncalled;
    int64_t put_in = 0;
    auto tally = [&](const v1::HandUpdate& up) {
      for (const v1::Operation& op : up.operations()) {
        switch (op.type()) {
          case v1::OPERATION_TYPE_ANTE:
          case v1::OPERATION_TYPE_BRING_IN:
          case v1::OPERATION_TYPE_COMPLETE:
          case v1::OPERATION_TYPE_BET:
          case v1::OPERATION_TYPE_RAISE:
          case v1::OPERATION_TYPE_CALL:
            put_in += op.amount();
            break;
          case v1::OPERATION_TYPE_RETURN_UNCALLED:
            uncalled[op.seat()] += op.amount();
            break;
          case v1::OPERATION_TYPE_AWARD:
            awarded[{op.pot(), op.seat()}] += op.amount();
            break;
          default:
            break;
        }
      }
    };
    tally(u);
    for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      u = ApplyExpectingOk(server, u, RandomAction(u, rng));
      tally(u);
    }
    ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
    const v1::ResolveShowdownResponse r = ResolveByToken(server, u.token());
    std::map<std::pair<int, int>, int64_t> shares;
    int64_t pots = 0, returned = 0;
    for (const v1::PotResult& pot : r.pots()) {
      pots += pot.amount();
      for (const v1::PotShare& s : pot.shares()) shares[{pot.index(), s.seat()}] += s.amount();
    }
    for (const auto& [seat, amount] : r.returned()) {
      returned += amount;
      EXPECT_EQ(amount, uncalled[seat]) << "hand " << hand << " seat " << seat;
    }
    returned_hands += returned > 0;
    EXPECT_EQ(shares, awarded) << "hand " << hand;
    EXPECT_EQ(pots + returned, put_in) << "hand " << hand;
  }
  EXPECT_GT(returned_hands, 10);  // the sample reaches uncalled bets
}

// STUD-STAKES-3: the view shows the stakes in use. $2-$4 with the
// HALF_SMALL_BET reading brings in for 100, and the view says so.
TEST(RulesFidelity, STUD_STAKES_3_ViewShowsTheBringInInUse) {
  Server server;
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_PRESET);
  req.mutable_stakes()->set_preset("$2-$4");
  req.mutable_option_overrides()->set_bring_in_source(v1::BRING_IN_SOURCE_HALF_SMALL_BET);
  const v1::HandUpdate u = StartHand(server, req);
  EXPECT_EQ(u.public_view().stakes().bring_in(), 100);
  bool offered = false;
  for (const v1::LegalAction& a : u.legal_actions()) {
    if (a.kind() == v1::ACTION_KIND_BRING_IN) {
      offered = true;
      EXPECT_EQ(a.amount_to(), u.public_view().stakes().bring_in());
    }
  }
  EXPECT_TRUE(offered);
}

// STUD-ORDER-2, STUD-ORDER-3: the public view lists every board in order,
// equal boards sharing a rank and listed by position. The natural preset deck
// (2c 2d 2h 2s 3c ...) gives seats 1..4 the doors 4c 4d 4h 4s and, after the
// burn, 5d 5h 5s 6c on 4th street: seat 4 (6-4) is first, seats 1, 2, 3 tie.
TEST(RulesFidelity, STUD_ORDER_2_PublicViewListsEveryBoardInOrder) {
  Server server;
  v1::HandUpdate u = StartHand(server, BasicHand(4, v1::DEALING_MODE_PRESET));
  // 3rd street: every door card is a board; the order is by the board rules.
  ASSERT_EQ(u.public_view().board_order_size(), 4);
  for (int step = 0; step < 20 && u.public_view().street() == v1::STREET_THIRD; ++step) {
    u = ApplyExpectingOk(server, u, ChooseAction(u, false));
  }
  ASSERT_EQ(u.public_view().street(), v1::STREET_FOURTH);
  const auto& order = u.public_view().board_order();
  ASSERT_EQ(order.size(), 4);
  EXPECT_EQ(order[0].seat(), u.to_act());
  const std::vector<std::pair<int, int>> expected = {{4, 1}, {1, 2}, {2, 2}, {3, 2}};
  for (int i = 0; i < order.size(); ++i) {
    EXPECT_EQ(std::make_pair(order[i].seat(), order[i].rank()), expected[static_cast<size_t>(i)])
        << "place " << i;
  }
}

// A preset deck that gives seat i the cards of hands[i-1] (3rd street in three
// passes, then one card a street after a burn), as docs/rules.md describes.
std::vector<std::string> PresetFor(const std::vector<std::vector<std::string>>& hands) {
  std::vector<std::string> deck;
  std::set<std::string> used;
  auto put = [&](const std::string& c) {
    deck.push_back(c);
    used.insert(c);
  };
  for (size_t pass = 0; pass < 3; ++pass) {
    for (const auto& h : hands) put(h[pass]);
  }
  for (size_t street = 3; street < 7; ++street) {
    deck.push_back("");  // burn, filled below
    for (const auto& h : hands) {
      if (street < h.size()) put(h[street]);
    }
  }
  std::vector<std::string> spare;
  for (const std::string& c : NaturalDeck()) {
    if (!used.count(c)) spare.push_back(c);
  }
  size_t next = 0;
  for (std::string& c : deck) {
    if (c.empty()) c = spare[next++];
  }
  while (next < spare.size()) deck.push_back(spare[next++]);
  return deck;
}

const v1::Announcement* FindAnnouncement(const v1::HandUpdate& u, const std::string& kind) {
  for (const v1::Announcement& a : u.announcements()) {
    if (a.kind() == kind) return &a;
  }
  return nullptr;
}

// STUD-BRING-11, STUD-ORDER-5, STUD-ORDER-4: announcements cite the
// announcement rule, and when the high hand is all-in they say so: seat 2
// (aces showing) is all-in, seat 3 acts first, in English and Spanish.
TEST(RulesFidelity, STUD_ORDER_4_AnnouncementSaysTheHighHandIsAllIn) {
  Server server;
  v1::NewHandRequest req = BasicHand(4, v1::DEALING_MODE_PRESET);
  req.mutable_stakes()->set_preset("$1-$2");
  const int64_t stacks[] = {5000, 50, 5000, 5000};
  for (int i = 0; i < 4; ++i) req.mutable_seats(i)->set_stack(stacks[i]);
  req.clear_preset_deck();
  for (const std::string& c : PresetFor({{"5c", "6c", "2c", "7d"},
                                         {"8h", "9h", "Ah", "As"},
                                         {"Tc", "Jc", "3d", "4d"},
                                         {"Qc", "Qd", "Kh", "Ks"}})) {
    req.add_preset_deck(c);
  }
  v1::HandUpdate u = StartHand(server, req);
  const v1::Announcement* low = FindAnnouncement(u, "LOW_CARD");
  ASSERT_NE(low, nullptr);
  EXPECT_EQ(low->seat(), 1);
  EXPECT_EQ(low->rule_id(), "STUD-BRING-11");
  for (int step = 0; step < 4 && u.public_view().street() == v1::STREET_THIRD; ++step) {
    u = ApplyExpectingOk(server, u, ChooseAction(u, false));
  }
  ASSERT_EQ(u.public_view().street(), v1::STREET_FOURTH);
  ASSERT_EQ(u.to_act(), 3);
  const v1::Announcement* high = FindAnnouncement(u, "HIGH_HAND");
  ASSERT_NE(high, nullptr);
  EXPECT_EQ(high->seat(), 3);
  EXPECT_EQ(high->rule_id(), "STUD-ORDER-4");
  EXPECT_NE(high->text_en().find("seat 2 (Ah As) is all-in; seat 3"), std::string::npos)
      << high->text_en();
  EXPECT_NE(high->text_es().find("asiento 2 (Ah As) está all-in"), std::string::npos)
      << high->text_es();
}

// Fields an action kind does not take are refused with their field path.
TEST(RulesFidelity, ActionFieldsAThisKindDoesNotTakeAreRefused) {
  Server server;
  v1::HandUpdate u = StartHand(server, BasicHand(3, v1::DEALING_MODE_PRESET));
  u = ApplyExpectingOk(server, u, ChooseAction(u, false));  // the bring-in: the next seat may fold
  struct Case {
    v1::ActionKind kind;
    int64_t amount_to;
    bool face_up;
    const char* prefix;
  };
  const Case cases[] = {
      {v1::ACTION_KIND_FOLD, 5000, false, "action.amount_to: fold puts in no chips"},
      {v1::ACTION_KIND_BRING_IN, 0, true,
       "action.face_up: only ACTION_KIND_DEAL and ACTION_KIND_BURN"},
      {v1::ACTION_KIND_MUCK, 10, false, "action.amount_to: muck takes no amount"},
  };
  for (const Case& c : cases) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    req.mutable_action()->set_seat(u.to_act());
    req.mutable_action()->set_kind(c.kind);
    req.mutable_action()->set_amount_to(c.amount_to);
    req.mutable_action()->set_face_up(c.face_up);
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    const grpc::Status st = server.stub().ApplyAction(&ctx, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.prefix;
    EXPECT_EQ(st.error_message().rfind(c.prefix, 0), 0u) << st.error_message();
  }
}

}  // namespace
}  // namespace stud::service::testing
