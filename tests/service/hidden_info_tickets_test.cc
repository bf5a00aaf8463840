// The seat-ticket sweep: in seat-ticket mode (the server requires tickets),
// over thousands of random legal hands played to the end, SERVICE and LIVE
// dealing, with folds, all-ins, showdowns, shows and mucks, irregularities
// the table reports (time-outs, exposed cards, absent players, ...), LIVE
// dealer errors (a down card dealt face up) and burns the dealer saw or
// showed, and forks (a seat acting on a copy of the token, as a player
// without the ledger can), every answer to every seat's ticket and to the
// table's (ApplyAction's and GetView's as the server sends them: the bytes
// the service writes) shows only cards that viewer may know at that moment
// (hidden_info.h): its own cards, cards dealt or turned face up, the common
// card and hands shown at showdown.
// After every call one viewer looks (GetView, LegalActions or its hand
// history); at each hand's end every ticket asks GetView, GetView with
// reveal_deck (refused: PERMISSION_DENIED DECK_REVEAL_NOT_PERMITTED),
// ResolveShowdown and ExportHandHistory (its own view and the public record).
// The server would reveal every card to a trusted caller
// (--allow_history_reveal, --allow_deck_reveal): only the tickets stand in
// the way. The seed is fixed (the SERVICE decks still come from the
// service's own shuffle); the run takes about 8 s of CPU in Release.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest-spi.h"
#include "hidden_info.h"
#include "service/token/wire.h"
#include "service/trust/seat_tickets.h"
#include "service_fixture.h"
#include "tests/testing/sanitized.h"

namespace stud::service::testing {
namespace {

using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

// A call as the server answers a device: the bytes the service writes
// (rpc/update_bytes.cc), parsed into `resp`, so that what the sweep checks is
// what is sent; the message itself where the service leaves the answer to it.
template <typename Resp, typename Call>
absl::Status AsSent(Call call, Resp* resp) {
  wire::Buffer bytes;
  const absl::Status st = call(CallContext{.response_bytes = &bytes}, resp);
  if (st.ok() && !bytes.empty()) {
    EXPECT_TRUE(resp->ParseFromArray(bytes.view().data(), static_cast<int>(bytes.size())));
  }
  return st;
}

class TicketSweep {
 public:
  TicketSweep()
      : sealer_(*Sealer::Create({TestKey(1, 3)})),
        service_(&sealer_, ServiceOptions{.allow_history_reveal = true,
                                          .allow_deck_reveal = true,
                                          .seat_tickets = &required_}) {}

  // Plays one hand to the end (or 400 calls), checking every answer.
  void PlayHand(std::mt19937& rng) {
    const int seats = 2 + static_cast<int>(rng() % 7);
    const bool live = rng() % 3 == 0;
    std::vector<Card> live_deck;
    for (int i = 0; i < kDeckSize; ++i) live_deck.push_back(Card::FromIndex(i));
    std::shuffle(live_deck.begin(), live_deck.end(), rng);
    v1::NewHandRequest req =
        BasicHand(seats, live ? v1::DEALING_MODE_LIVE : v1::DEALING_MODE_SERVICE,
                  static_cast<v1::Variant>(1 + rng() % 3));
    // Short stacks go all-in early, deep ones reach the showdown.
    for (auto& s : *req.mutable_seats()) {
      s.set_stack(rng() % 3 == 0 ? 50 + static_cast<int64_t>(rng() % 3000)
                                 : 20000 + static_cast<int64_t>(rng() % 60000));
    }
    req.set_locale(rng() % 2 ? v1::LOCALE_EN : v1::LOCALE_ES);
    if (rng() % 3 == 0) req.set_profile(v1::PROFILE_TOURNAMENT);
    v1::NewHandResponse start;
    absl::Status st = AsSent(  // the dealer's call: no ticket, no view
        [&](const CallContext& call, v1::NewHandResponse* r) {
          return service_.NewHand(req, r, call);
        },
        &start);
    ASSERT_THAT(st, IsOk());
    checker_.Check("NewHand", kPublicViewer, nullptr, st, start, {});
    hand_ = Hand{.seats = seats, .start = start};
    ++(live ? live_hands_ : service_hands_);
    v1::HandUpdate u = start.update();
    for (int step = 0; step < 400 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      const HandState state = checker_.StateOf(u.token());
      const auto roll = rng() % 24;
      if (roll == 0) {
        Report(rng, u, state);
      } else if (roll == 1 && u.to_act() > 0 && state.phase != Phase::kAwaitingDeal) {
        Fork(rng, u, state);
      } else if (live && u.has_expected_deal() && state.phase == Phase::kAwaitingDeal) {
        v1::Action deal = LiveDeal(u, state, live_deck);
        // Now and then the dealer turns a down card face up: ruled at once
        // (an exposed card, a dead hand, a tournament misdeal), or refused.
        // A burn the dealer saw (its card reported) or showed (face up).
        v1::Action flipped = deal;
        flipped.set_face_up(true);
        const bool burn = u.expected_deal().step() == v1::DEAL_STEP_BURN;
        if (burn) {
          flipped = v1::Action();
          flipped.set_kind(v1::ACTION_KIND_BURN);
          for (Card c : live_deck) {
            if (state.seen.Contains(c)) continue;
            flipped.set_card(c.ToString());
            flipped.set_face_up(rng() % 2 == 0);
            break;
          }
        }
        const bool vary = burn ? rng() % 3 != 0 : !deal.face_up() && rng() % 16 == 0;
        if (vary && Act(kPublicViewer, flipped, &u, state, /*may_fail=*/true)) {
          burns_seen_ += burn;
        } else {
          Act(kPublicViewer, deal, &u, state);
        }
      } else if (u.to_act() > 0) {
        Act(u.to_act(), RandomLegal(rng, u), &u, state);
      } else {
        ADD_FAILURE() << "nobody to act and no deal expected";
        return;
      }
      Look(rng, u);
      if (Stop()) return;
    }
    ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
    ++complete_;
    const HandState end = checker_.StateOf(u.token());
    int live_seats = 0;
    for (int s = 1; s <= seats; ++s) {
      shown_ += end.seats[static_cast<size_t>(s)].shown;
      mucked_ += end.seats[static_cast<size_t>(s)].mucked;
      all_in_ += end.seats[static_cast<size_t>(s)].all_in;
      live_seats += end.seats[static_cast<size_t>(s)].live();
    }
    showdowns_ += live_seats >= 2 && !end.misdeal;
    misdeals_ += end.misdeal;
    for (int viewer = kPublicViewer; viewer <= seats; ++viewer) AtTheEnd(viewer, u.token(), end);
  }

  int checks() const { return checker_.checks_; }
  int errors() const { return checker_.errors_; }
  int leaks() const { return checker_.leaks_; }

  int service_hands_ = 0, live_hands_ = 0, complete_ = 0, showdowns_ = 0, shown_ = 0, mucked_ = 0,
      all_in_ = 0, reports_ = 0, deal_rulings_ = 0, forks_ = 0, reveals_refused_ = 0, misdeals_ = 0,
      burns_seen_ = 0, compact_ = 0, actions_ = 0;

 private:
  struct Hand {
    int seats = 0;
    v1::NewHandResponse start;
  };

  static bool Stop() { return ::testing::Test::HasFailure(); }
  bool Leaked() const { return checker_.leaks_ > 0; }

  const std::string& Ticket(int viewer) const {
    return viewer == kPublicViewer ? hand_.start.table_ticket()
                                   : hand_.start.seat_tickets(viewer - 1).ticket();
  }
  template <typename Req>
  void Scope(int viewer, Req* r) const {
    r->set_seat_ticket(Ticket(viewer));
    if (viewer != kPublicViewer) r->add_private_view_seats(viewer);
  }

  // One of the acting seat's legal actions (fold now and then; show or muck
  // at the showdown), or its all-in option.
  static v1::Action RandomLegal(std::mt19937& rng, const v1::HandUpdate& u) {
    v1::Action a;
    a.set_seat(u.to_act());
    std::vector<const v1::LegalAction*> options;
    for (const auto& la : u.legal_actions()) {
      if (la.kind() != v1::ACTION_KIND_FOLD || rng() % 3 == 0) options.push_back(&la);
    }
    if (options.empty() && u.legal_actions_size() > 0) options.push_back(&u.legal_actions(0));
    if (!options.empty()) {
      const v1::LegalAction* pick = options[rng() % options.size()];
      a.set_kind(pick->kind());
      a.set_amount_to(pick->amount_to());
    }
    return a;
  }

  // `viewer` (a seat, or the table reporting a LIVE step) acts on `*u`; a
  // refusal fails the test unless `may_fail`. True when the action was taken.
  bool Act(int viewer, const v1::Action& action, v1::HandUpdate* u, const HandState& state,
           bool may_fail = false) {
    v1::ApplyActionRequest r;
    r.set_token(u->token());
    Scope(viewer, &r);
    *r.mutable_action() = action;
    std::set<int> named;
    if (!action.card().empty()) named.insert(ParseCard(action.card())->index());
    v1::ApplyActionResponse resp;
    const absl::Status st =
        AsSent([&](const CallContext& call,
                   v1::ApplyActionResponse* out) { return service_.ApplyAction(r, out, call); },
               &resp);
    if (!may_fail) {
      EXPECT_THAT(st, IsOk()) << r.action().DebugString();
    }
    checker_.Check("ApplyAction", viewer, &state, st, resp, named);
    // Every fourth action again as a device asks for it (UPDATE_DETAIL_COMPACT,
    // SeatSession's detail, written as bytes): the same call answers the same
    // step, trimmed.
    if (st.ok() && ++actions_ % 4 == 0) {
      v1::ApplyActionRequest as_device = r;
      as_device.set_detail(v1::UPDATE_DETAIL_COMPACT);
      v1::ApplyActionResponse trimmed;
      const absl::Status again = AsSent(
          [&](const CallContext& call, v1::ApplyActionResponse* out) {
            return service_.ApplyAction(as_device, out, call);
          },
          &trimmed);
      EXPECT_THAT(again, IsOk()) << as_device.action().DebugString();
      checker_.Check("ApplyAction (compact)", viewer, &state, again, trimmed, named);
      compact_ += again.ok() && !trimmed.update().token().empty();
    }
    if (!st.ok()) return false;
    deal_rulings_ += resp.has_ruling();
    *u = resp.update();
    return true;
  }

  // The floor reports an irregularity with the table's ticket: a time-out or
  // an absent player of the seat to act, or a random report (most are
  // refused); an exposed card names one of the seat's real cards, as the
  // floor saw it. The answer goes to the table.
  void Report(std::mt19937& rng, v1::HandUpdate& u, const HandState& state) {
    v1::RuleIrregularityRequest r;
    r.set_token(u.token());
    Scope(kPublicViewer, &r);
    v1::IrregularityReport* rep = r.mutable_report();
    const int seat = u.to_act() > 0 && rng() % 2 == 0
                         ? u.to_act()
                         : 1 + static_cast<int>(rng() % static_cast<unsigned>(hand_.seats));
    rep->set_seat(seat);
    std::set<int> named;
    const Seat& held = state.seats[static_cast<size_t>(seat)];
    switch (rng() % 4) {
      case 0:
        rep->set_kind(v1::IRREGULARITY_KIND_TIMEOUT);
        rep->set_allowance_remaining(static_cast<int32_t>(rng() % 2));
        rep->set_disconnect(rng() % 2 == 0);
        break;
      case 1:
        rep->set_kind(v1::IRREGULARITY_KIND_ABSENT_PLAYER);
        break;
      case 2:
        rep->set_kind(rng() % 2 ? v1::IRREGULARITY_KIND_HOLECARD_EXPOSED
                                : v1::IRREGULARITY_KIND_CARD_OFF_TABLE);
        if (held.num_cards > 0) {
          const Card c = held.cards[rng() % held.num_cards].card;
          named.insert(c.index());
          rep->add_cards(c.ToString());
        }
        break;
      default:
        rep->set_kind(static_cast<v1::IrregularityKind>(1 + rng() % 16));
        if (rng() % 2 == 0) {
          const int c = static_cast<int>(rng() % kDeckSize);
          named.insert(c);
          rep->add_cards(Card::FromIndex(c).ToString());
        }
        if (rng() % 3 == 0) rep->set_street(static_cast<v1::Street>(3 + rng() % 5));
        if (rep->kind() == v1::IRREGULARITY_KIND_WRONG_OPENER ||
            rep->kind() == v1::IRREGULARITY_KIND_ACTION_OUT_OF_TURN) {
          rep->set_action(v1::ACTION_KIND_CALL);
        }
        break;
    }
    v1::RuleIrregularityResponse resp;
    const absl::Status st = service_.RuleIrregularity(r, &resp);
    checker_.Check("RuleIrregularity", kPublicViewer, &state, st, resp, named);
    if (st.ok()) {
      ++reports_;
      u = resp.update();
    }
  }

  // The seat to act forks the hand: on a copy of the token it acts (folds
  // when it may), then asks everything a ticket may ask on the fork. Without
  // the ledger the service cannot tell; the answers must still be scoped.
  // The hand goes on from the original token.
  void Fork(std::mt19937& rng, const v1::HandUpdate& u, const HandState& state) {
    ++forks_;
    const int seat = u.to_act();
    v1::Action a = RandomLegal(rng, u);
    for (const auto& la : u.legal_actions()) {
      if (la.kind() != v1::ACTION_KIND_FOLD) continue;
      a.set_kind(v1::ACTION_KIND_FOLD);
      a.set_amount_to(0);
    }
    v1::HandUpdate fork = u;
    Act(seat, a, &fork, state);
    if (Stop() || Leaked()) return;
    AtTheEnd(seat, fork.token(), checker_.StateOf(fork.token()));
  }

  // After a call: one viewer looks at the hand.
  void Look(std::mt19937& rng, const v1::HandUpdate& u) {
    const int viewer = static_cast<int>(rng() % static_cast<unsigned>(hand_.seats + 1));
    const HandState state = checker_.StateOf(u.token());
    switch (rng() % 4) {
      case 0: {
        v1::LegalActionsRequest r;
        r.set_token(u.token());
        r.set_seat_ticket(Ticket(viewer));
        r.set_seat(viewer);
        v1::LegalActionsResponse resp;
        checker_.Check("LegalActions", viewer, &state, service_.LegalActions(r, &resp), resp, {});
        break;
      }
      case 1:
        Export(viewer, rng() % 2 ? viewer : kPublicViewer, u.token(), state);
        break;
      default:
        View(viewer, u.token(), state, /*reveal_deck=*/rng() % 16 == 0);
        break;
    }
  }

  void View(int viewer, const std::string& token, const HandState& state, bool reveal_deck) {
    v1::GetViewRequest r;
    r.set_token(token);
    Scope(viewer, &r);
    r.set_reveal_deck(reveal_deck);
    v1::GetViewResponse resp;
    const absl::Status st =
        AsSent([&](const CallContext& call,
                   v1::GetViewResponse* out) { return service_.GetView(r, out, call); },
               &resp);
    checker_.Check(reveal_deck ? "GetView(reveal_deck)" : "GetView", viewer, &state, st, resp, {});
    if (!reveal_deck) {
      EXPECT_THAT(st, IsOk());
      return;
    }
    EXPECT_THAT(st, StatusIs(absl::StatusCode::kPermissionDenied));
    EXPECT_EQ(ErrorReason(st), "DECK_REVEAL_NOT_PERMITTED") << st;
    reveals_refused_ += ErrorReason(st) == "DECK_REVEAL_NOT_PERMITTED";
  }

  void Export(int viewer, int record, const std::string& token, const HandState& state) {
    v1::ExportHandHistoryRequest r;
    r.set_token(token);
    r.set_seat_ticket(Ticket(viewer));
    r.set_viewer_seat(record);
    v1::ExportHandHistoryResponse resp;
    const absl::Status st = service_.ExportHandHistory(r, &resp);
    EXPECT_THAT(st, IsOk());
    checker_.Check("ExportHandHistory", viewer, &state, st, resp, {});
  }

  // Everything `viewer`'s ticket may ask of a hand at its end (or a fork).
  void AtTheEnd(int viewer, const std::string& token, const HandState& state) {
    View(viewer, token, state, /*reveal_deck=*/false);
    View(viewer, token, state, /*reveal_deck=*/true);
    v1::ResolveShowdownRequest r;
    r.set_token(token);
    r.set_seat_ticket(Ticket(viewer));
    v1::ResolveShowdownResponse resp;
    const absl::Status st = service_.ResolveShowdown(r, &resp);
    EXPECT_EQ(st.ok(), state.phase == Phase::kComplete) << st;
    checker_.Check("ResolveShowdown", viewer, &state, st, resp, {});
    Export(viewer, viewer, token, state);
    if (viewer != kPublicViewer) Export(viewer, kPublicViewer, token, state);
  }

  const SeatTicketPolicy required_{.required = true};
  Sealer sealer_;
  HandService service_;
  AnswerChecker checker_{&sealer_};
  Hand hand_;
};

// 2,000 whole hands; a fifth under the sanitizers (ASan made it 185 s), where
// the instrumentation, not the count, is what finds memory errors.
constexpr int kTicketSweepHands = stud::testing::kSanitized ? 200 : 2000;
// The least a count may be after the sweep, from its mean over 2,000 hands
// (three runs of 2,000), scaled to the hands played. SERVICE hands are
// shuffled by the service, so the counts differ run to run. Large counts
// vary more than a Poisson count (a hand shows several cards, answers per
// hand vary widely): for them the floor is 60 % of the mean. A rare event
// varies as a Poisson count, whose spread is wide next to a small mean: there
// the floor is six standard deviations below the mean, and a count whose floor
// falls to zero (misdeals in 200 hands: a mean of 11) is not asserted.
int AtLeast(double mean_at_2000_hands) {
  const double mean = mean_at_2000_hands * kTicketSweepHands / 2000;
  return std::max(0, static_cast<int>(std::min(0.6 * mean, mean - 6 * std::sqrt(mean))));
}

TEST(HiddenInfoTicketsTest, EveryAnswerToEveryTicketShowsOnlyWhatItsViewerMayKnow) {
  ASSERT_THAT(InitCrypto(), IsOk());
  TicketSweep sweep;
  std::mt19937 rng(2026);
  for (int hand = 0; hand < kTicketSweepHands && sweep.leaks() == 0; ++hand) {
    sweep.PlayHand(rng);
    ASSERT_FALSE(::testing::Test::HasFailure());
  }
  std::printf(
      "hidden-info (seat tickets, whole hands): %d SERVICE + %d LIVE hands, %d complete (%d "
      "showdowns, %d hands shown, %d mucked, %d all-in seats, %d misdeals), %d irregularities "
      "ruled, %d dealer errors ruled, %d burns seen or shown, %d forks; %d answers checked (%d "
      "errors, %d deck reveals refused, %d compact), %d leaks\n",
      sweep.service_hands_, sweep.live_hands_, sweep.complete_, sweep.showdowns_, sweep.shown_,
      sweep.mucked_, sweep.all_in_, sweep.misdeals_, sweep.reports_, sweep.deal_rulings_,
      sweep.burns_seen_, sweep.forks_, sweep.checks(), sweep.errors(), sweep.reveals_refused_,
      sweep.compact_, sweep.leaks());
  EXPECT_EQ(sweep.leaks(), 0);
  // The sweep reached what it is meant to cover.
  EXPECT_EQ(sweep.complete_, sweep.service_hands_ + sweep.live_hands_);
  EXPECT_GE(sweep.live_hands_, AtLeast(667));
  EXPECT_GE(sweep.showdowns_, AtLeast(1361));
  EXPECT_GE(sweep.shown_, AtLeast(3902));
  EXPECT_GE(sweep.mucked_, AtLeast(856));
  EXPECT_GE(sweep.all_in_, AtLeast(2776));
  EXPECT_GE(sweep.misdeals_, AtLeast(108));
  EXPECT_GE(sweep.reports_, AtLeast(677));
  EXPECT_GE(sweep.deal_rulings_, AtLeast(436));
  EXPECT_GE(sweep.burns_seen_, AtLeast(1319));
  EXPECT_GE(sweep.forks_, AtLeast(1527));
  EXPECT_GE(sweep.reveals_refused_, AtLeast(15225));
  EXPECT_GE(sweep.errors(), AtLeast(18100));
  EXPECT_GE(sweep.checks(), AtLeast(192100));
  EXPECT_GE(sweep.compact_, AtLeast(13333));
}

// The check itself fails on the leak this sweep was written for: the deck
// revealed in a complete hand's public view (as the final update and every
// GetView carried it), shown to a seat that folded.
TEST(HiddenInfoTicketsTest, TheCheckCatchesARevealedDeck) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 3)});
  HandService service(&sealer, ServiceOptions{});
  v1::NewHandResponse start;
  ASSERT_THAT(service.NewHand(BasicHand(2, v1::DEALING_MODE_SERVICE), &start), IsOk());
  v1::ApplyActionRequest bring_in;  // the bring-in seat may not fold
  bring_in.set_token(start.update().token());
  *bring_in.mutable_action() = ChooseAction(start.update(), false);
  v1::ApplyActionResponse opened;
  ASSERT_THAT(service.ApplyAction(bring_in, &opened), IsOk());
  v1::ApplyActionRequest fold;
  fold.set_token(opened.update().token());
  fold.mutable_action()->set_kind(v1::ACTION_KIND_FOLD);
  fold.mutable_action()->set_seat(opened.update().to_act());
  v1::ApplyActionResponse end;
  ASSERT_THAT(service.ApplyAction(fold, &end), IsOk());
  ASSERT_EQ(end.update().public_view().phase(), v1::PHASE_COMPLETE);
  AnswerChecker checker(&sealer);
  const HandState state = checker.StateOf(end.update().token());
  const int folded = fold.action().seat();
  EXPECT_TRUE(checker.Check("ApplyAction", folded, &state, absl::OkStatus(), end, {}));
  v1::ApplyActionResponse leaky = end;
  v1::DeckCommitment* dc = leaky.mutable_update()->mutable_public_view()->mutable_deck_commitment();
  for (Card c : state.config.deck) dc->add_revealed_deck(c.ToString());
  bool caught = true;
  EXPECT_NONFATAL_FAILURE(
      caught = !checker.Check("ApplyAction", folded, &state, absl::OkStatus(), leaky, {}), "leaks");
  EXPECT_TRUE(caught);
  EXPECT_EQ(checker.leaks_, 1);
}

}  // namespace
}  // namespace stud::service::testing
