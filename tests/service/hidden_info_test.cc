// Hidden information never leaks: over many random hands, SERVICE-dealt and
// (a third) LIVE, the table reporting each card, and
// every RPC (NewHand, ApplyAction, LegalActions, GetView, ResolveShowdown,
// RuleIrregularity, ExportHandHistory), legal and illegal requests alike, no
// response a seat receives (public view, its own private view, operations,
// announcements, rulings, legal actions, its hand history) and no error
// (message and google.rpc.Status details) contains a card that seat may not
// know (hidden_info.h: another seat's down card, a burn or an undealt card,
// after the hand is complete too). The seat-ticket sweep over whole hands,
// with showdowns, forks and the table's reports: hidden_info_tickets_test.cc.
#include "hidden_info.h"

#include <algorithm>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "service/trust/seat_tickets.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
namespace v1 = stud::v1;

class HiddenInfo {
 public:
  // `tickets`: seat tickets required, and the server would otherwise reveal
  // everything (--allow_history_reveal): each answer goes to the holder of
  // one seat's (or the table's) ticket, who asks for anything, other seats'
  // views and actions included; only the ticket stands in the way.
  explicit HiddenInfo(bool tickets = false)
      : sealer_(*Sealer::Create({TestKey(1, 3)})),
        service_(&sealer_, ServiceOptions{.allow_history_reveal = tickets,
                                          .seat_tickets = tickets ? &required_ : nullptr}),
        tickets_(tickets) {}

  void PlayHand(std::mt19937& rng) {
    const int seats = 2 + static_cast<int>(rng() % 7);
    // A third of the hands are dealt by a person and reported card by card.
    const bool live = rng() % 3 == 0;
    std::vector<Card> live_deck;
    for (int i = 0; i < kDeckSize; ++i) live_deck.push_back(Card::FromIndex(i));
    std::shuffle(live_deck.begin(), live_deck.end(), rng);
    v1::NewHandRequest req =
        BasicHand(seats, live ? v1::DEALING_MODE_LIVE : v1::DEALING_MODE_SERVICE,
                  static_cast<v1::Variant>(1 + rng() % 3));
    if (live) ++live_hands_;
    for (auto& s : *req.mutable_seats()) s.set_stack(50 + static_cast<int64_t>(rng() % 3000));
    req.set_locale(rng() % 2 ? v1::LOCALE_EN : v1::LOCALE_ES);
    if (rng() % 3 == 0) req.set_profile(v1::PROFILE_TOURNAMENT);
    const int viewer0 = 1 + static_cast<int>(rng() % seats);
    req.add_private_view_seats(viewer0);
    v1::NewHandResponse start;
    absl::Status st = service_.NewHand(req, &start);
    ASSERT_THAT(st, IsOk());
    checker_.Check("NewHand", viewer0, nullptr, st, start, {});
    v1::HandUpdate u = start.update();
    for (int step = 0; step < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      const HandState state = checker_.StateOf(u.token());
      int viewer = 1 + static_cast<int>(rng() % seats);
      if (tickets_ && u.to_act() > 0 && rng() % 2 == 0)
        viewer = u.to_act();                                   // so the hand moves on
      if (tickets_ && rng() % 8 == 0) viewer = kPublicViewer;  // the table's ticket
      // Ticket mode: the viewer's ticket (now and then none), and views asked
      // for freely: mostly its own, sometimes another seat's.
      const std::string ticket = !tickets_ || rng() % 20 == 0 ? std::string()
                                 : viewer == kPublicViewer
                                     ? start.table_ticket()
                                     : start.seat_tickets(viewer - 1).ticket();
      auto add_views = [&](google::protobuf::RepeatedField<int32_t>* views) {
        if (!tickets_) {
          views->Add(viewer);
        } else if (rng() % 4 == 0) {
          views->Add(1 + static_cast<int>(rng() % seats));
        } else if (viewer != kPublicViewer) {
          views->Add(viewer);
        }
      };
      // A random card the viewer names: one it may see, or (an illegal guess)
      // any card; a guessed card is then allowed to appear in the answer.
      const std::set<int> vis = KnownTo(state, viewer);
      std::vector<int> own(vis.begin(), vis.end());
      auto pick_card = [&](std::set<int>* named) {
        int c = (rng() % 4 == 0 || own.empty()) ? static_cast<int>(rng() % kDeckSize)
                                                : own[rng() % own.size()];
        named->insert(c);
        return Card::FromIndex(c).ToString();
      };
      switch (rng() % 7) {
        case 0: {
          v1::GetViewRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          add_views(r.mutable_private_view_seats());
          v1::GetViewResponse resp;
          st = service_.GetView(r, &resp);
          checker_.Check("GetView", viewer, &state, st, resp, {});
          break;
        }
        case 1: {
          v1::LegalActionsRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          r.set_seat(static_cast<int32_t>(rng() % (seats + 2)) - 1);
          v1::LegalActionsResponse resp;
          st = service_.LegalActions(r, &resp);
          checker_.Check("LegalActions", viewer, &state, st, resp, {});
          break;
        }
        case 2: {
          v1::ResolveShowdownRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          v1::ResolveShowdownResponse resp;
          st = service_.ResolveShowdown(r, &resp);
          checker_.Check("ResolveShowdown", viewer, &state, st, resp, {});
          break;
        }
        case 3: {
          v1::RuleIrregularityRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          add_views(r.mutable_private_view_seats());
          v1::IrregularityReport* rep = r.mutable_report();
          rep->set_kind(static_cast<v1::IrregularityKind>(1 + rng() % 14));
          rep->set_seat(rng() % 5 == 0 ? static_cast<int32_t>(rng() % (seats + 1)) : viewer);
          std::set<int> named;
          const int ncards = static_cast<int>(rng() % 3);
          for (int i = 0; i < ncards; ++i) rep->add_cards(pick_card(&named));
          if (rng() % 3 == 0) rep->set_street(static_cast<v1::Street>(3 + rng() % 5));
          if (rep->kind() == v1::IRREGULARITY_KIND_WRONG_OPENER)
            rep->set_action(v1::ACTION_KIND_CALL);
          if (rep->kind() == v1::IRREGULARITY_KIND_TIMEOUT) rep->set_allowance_remaining(1);
          v1::RuleIrregularityResponse resp;
          st = service_.RuleIrregularity(r, &resp);
          checker_.Check("RuleIrregularity", viewer, &state, st, resp, named);
          if (st.ok()) u = resp.update();
          break;
        }
        case 5: {  // the hand history as the viewer (or the public) may read it
          v1::ExportHandHistoryRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          const int reader = rng() % 4 == 0 ? kPublicViewer : viewer;
          // Ticket mode: now and then another seat's view, refused.
          r.set_viewer_seat(tickets_ && rng() % 4 == 0 ? 1 + static_cast<int>(rng() % seats)
                                                       : reader);
          // Refused: without --allow_history_reveal, or (ticket mode) by the ticket.
          if (rng() % 8 == 0) r.set_reveal_hidden_cards(true);
          v1::ExportHandHistoryResponse resp;
          st = service_.ExportHandHistory(r, &resp);
          checker_.Check("ExportHandHistory", tickets_ ? viewer : reader, &state, st, resp, {});
          ++exports_;
          break;
        }
        default: {
          v1::ApplyActionRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          add_views(r.mutable_private_view_seats());
          std::set<int> named;
          const bool dealing = live && u.has_expected_deal();
          const bool report = dealing && rng() % 8 != 0;
          if (report) {
            *r.mutable_action() = LiveDeal(u, state, live_deck);  // the dealer's report
          } else if (!dealing && rng() % 4 != 0) {
            *r.mutable_action() = ChooseAction(u, rng() % 3 == 0);
            if (rng() % 5 == 0 && u.legal_actions_size() > 0) {
              const v1::LegalAction& la =
                  u.legal_actions(static_cast<int>(rng() % u.legal_actions_size()));
              r.mutable_action()->set_kind(la.kind());
              r.mutable_action()->set_amount_to(la.amount_to());
            }
          } else {  // anything: wrong seats, amounts, kinds, cards
            v1::Action* a = r.mutable_action();
            a->set_kind(static_cast<v1::ActionKind>(1 + rng() % 12));
            a->set_seat(static_cast<int32_t>(rng() % (seats + 1)));
            a->set_amount_to(static_cast<int64_t>(rng() % 2000));
            if (a->kind() == v1::ACTION_KIND_DEAL) a->set_card(pick_card(&named));
          }
          v1::ApplyActionResponse resp;
          st = service_.ApplyAction(r, &resp);
          checker_.Check("ApplyAction", viewer, &state, st, resp, named);
          if (st.ok()) u = resp.update();
          if (st.ok() && report) ++live_reports_;
          break;
        }
      }
      if (HasFatalFailure() || checker_.leaks_ > 0) return;
    }
    if (u.public_view().phase() != v1::PHASE_COMPLETE || tickets_) return;
    // The end of the hand, asked by a trusted caller (no ticket): the
    // settlement and the public view are public; the private view is viewer0's.
    ++ends_;
    const HandState end = checker_.StateOf(u.token());
    v1::ResolveShowdownRequest rs;
    rs.set_token(u.token());
    v1::ResolveShowdownResponse settled;
    st = service_.ResolveShowdown(rs, &settled);
    EXPECT_THAT(st, IsOk());
    checker_.Check("ResolveShowdown", kPublicViewer, &end, st, settled, {});
    v1::GetViewRequest gv;
    gv.set_token(u.token());
    gv.add_private_view_seats(viewer0);
    v1::GetViewResponse view;
    st = service_.GetView(gv, &view);
    EXPECT_THAT(st, IsOk());
    checker_.Check("GetView", viewer0, &end, st, view, {});
  }

  int exports_ = 0, live_hands_ = 0, live_reports_ = 0, ends_ = 0;

 private:
  static bool HasFatalFailure() { return ::testing::Test::HasFatalFailure(); }
  const SeatTicketPolicy required_{.required = true};
  Sealer sealer_;
  HandService service_;
  bool tickets_ = false;

 public:
  AnswerChecker checker_{&sealer_};
};

TEST(HiddenInfoTest, NoAnswerOrErrorShowsAnotherSeatsDownCardOrTheDeck) {
  ASSERT_THAT(InitCrypto(), IsOk());
  HiddenInfo h;
  std::mt19937 rng(77);
  for (int hand = 0; hand < 400 && h.checker_.leaks_ == 0; ++hand) {
    h.PlayHand(rng);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  }
  std::printf(
      "hidden-info: %d answers checked (%d errors, %d hand histories, %d LIVE hands with %d "
      "cards, burns and reshuffles reported), %d leaks\n",
      h.checker_.checks_, h.checker_.errors_, h.exports_, h.live_hands_, h.live_reports_,
      h.checker_.leaks_);
  EXPECT_EQ(h.checker_.leaks_, 0);
  // The sweep reached LIVE dealing. A third of the hands are LIVE (a mean of
  // 133 in 400, 3,100-4,000 reports in six runs), and the service's own
  // shuffle moves the counts from run to run: the floors are well below.
  EXPECT_GT(h.live_hands_, 80);
  EXPECT_GT(h.live_reports_, 1500);
  EXPECT_GT(h.exports_, 1000);
  EXPECT_GT(h.checker_.checks_, 10000);
  EXPECT_GT(h.checker_.errors_, 1000);
  EXPECT_GT(h.ends_, 100);
}

// The same sweep with seat tickets required on a server that would reveal
// every card to a trusted caller: answers to seat S's ticket (or the table's)
// show no other seat's down card and no deck card, whatever the call asks.
TEST(HiddenInfoTest, SeatTicketModeShowsEachTicketOnlyItsOwnSeat) {
  ASSERT_THAT(InitCrypto(), IsOk());
  HiddenInfo h(/*tickets=*/true);
  std::mt19937 rng(78);
  for (int hand = 0; hand < 300 && h.checker_.leaks_ == 0; ++hand) {
    h.PlayHand(rng);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  }
  std::printf(
      "hidden-info (seat tickets): %d answers checked (%d errors, %d hand histories), %d leaks\n",
      h.checker_.checks_, h.checker_.errors_, h.exports_, h.checker_.leaks_);
  EXPECT_EQ(h.checker_.leaks_, 0);
  EXPECT_GT(h.exports_, 500);
  EXPECT_GT(h.checker_.checks_, 5000);
  EXPECT_GT(h.checker_.errors_, 1000);
}

// The receipt's random hex is left out exactly as this regular expression
// leaves it out (WithoutRandomHex in hidden_info.h), on crafted transcripts:
// every key, hex of any length, values that are not lowercase hex (kept),
// unterminated values and arrays (kept), keys that only begin alike (kept).
TEST(HiddenInfoTest, ReceiptTranscriptsLoseTheirRandomHexAsTheRegexSays) {
  const std::regex random_hex(
      "\"(hand_id|server_seed_commitment|deck_root|server_seed)\":\"[0-9a-f]*\"|"
      "\"player_seeds\":\\[[^\\]]*\\]");
  const std::vector<std::string> transcripts = {
      R"({"v":1,"hand_id":"00ff","server_seed_commitment":"ab12","deck_root":"","log":"d 7c"})",
      R"({"server_seed":"0123456789abcdef","player_seeds":[{"seat":1,"seed":"aa"}],"x":"Ah"})",
      R"({"hand_id":"00FF","deck_root":"12g4","server_seed_x":"ab","server_seed_commitment":"a)",
      R"({"player_seeds":[1,2,"hand_id":"ab"],"player_seeds":[)",
      R"("hand_id":"ab""hand_id":"cd"deck_root":"ef"","server_seed":"9)",
      ""};
  for (const std::string& t : transcripts) {
    EXPECT_EQ(WithoutRandomHex(t), std::regex_replace(t, random_hex, "")) << t;
  }
  EXPECT_EQ(WithoutRandomHex(transcripts[0]), R"({"v":1,,,,"log":"d 7c"})");
}

// The detector itself: a response carrying another seat's down card is caught.
TEST(HiddenInfoTest, TheCheckCatchesALeak) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 3)});
  HandService service(&sealer, ServiceOptions{});
  v1::NewHandResponse start;
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.add_private_view_seats(1);
  ASSERT_THAT(service.NewHand(req, &start), IsOk());
  const HandState state = ParseSealedHand(*sealer.Open(start.update().token()))->state;
  const std::set<int> visible = KnownTo(state, 1);
  const Card hidden = state.seats[2].cards[0].card;  // seat 2's first down card
  EXPECT_EQ(visible.count(hidden.index()), 0u);
  EXPECT_EQ(visible.count(state.seats[1].cards[0].card.index()), 1u);
  v1::NewHandResponse leaky = start;
  std::string text;
  Strings(leaky, &text);
  EXPECT_EQ(CardsIn(text).count(hidden.index()), 0u);
  leaky.mutable_update()->mutable_public_view()->set_common_card(hidden.ToString());
  text.clear();
  Strings(leaky, &text);
  EXPECT_EQ(CardsIn(text).count(hidden.index()), 1u);
  // In an error's details too.
  absl::Status error = absl::FailedPreconditionError("no");
  EXPECT_EQ(CardsIn(ErrorText(error)).count(hidden.index()), 0u);
  error = absl::FailedPreconditionError("seat 2 holds " + hidden.ToString());
  EXPECT_EQ(CardsIn(ErrorText(error)).count(hidden.index()), 1u);
  EXPECT_EQ(CardsIn("The Ts; (As)").count(ParseCard("Th")->index()), 0u);  // words are not cards
  EXPECT_EQ(CardsIn("The Ts; (As)").size(), 2u);
  EXPECT_EQ(CardsIn("such as; 2 as; aS").size(), 0u);
  EXPECT_EQ(CardsIn("Ah\xc3\xad est\xc3\xa1").size(), 0u);  // Spanish "Ahí está"
  // Hand histories: the public record hides seat 2's down card; a record
  // with it written back to back is caught by the PHH reading.
  v1::ExportHandHistoryRequest er;
  er.set_token(start.update().token());
  v1::ExportHandHistoryResponse exported;
  ASSERT_THAT(service.ExportHandHistory(er, &exported), IsOk());
  EXPECT_EQ(CardsInPhh(exported.phh()).count(hidden.index()), 0u);
  const std::string other = hidden.ToString() == "2c" ? "3c" : "2c";
  const std::string planted =
      "variant = 'F7S'\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
      "starting_stacks = [100, 100]\nactions = ['d dh p1 ?\??\??\?', 'd dh p2 " +
      other + hidden.ToString() + "?\?']\n";
  EXPECT_EQ(CardsIn(planted).count(hidden.index()), 0u) << "back to back, the plain scan misses it";
  EXPECT_EQ(CardsInPhh(planted).count(hidden.index()), 1u);
}

}  // namespace
}  // namespace stud::service::testing
