// Hidden information never leaks: over many random hands, SERVICE-dealt and
// (a third) LIVE, the table reporting each card, and
// every RPC (NewHand, ApplyAction, LegalActions, GetView, ResolveShowdown,
// RuleIrregularity, ExportHandHistory), legal and illegal requests alike, no
// response a seat receives (public view, its own private view, operations,
// announcements, rulings, legal actions, its hand history) and no error
// (message and google.rpc.Status details) contains another seat's down card,
// a burn or an undealt card.
//
// The forbidden cards come from the hand's true state (the token opened with
// the key), computed here independently of the service's redaction code: a
// card is visible to seat v while the hand is not complete when it is v's own,
// dealt face up, the common card, held by a seat that showed, or exposed or
// set aside face up by a ruling. Once the hand is complete the deck is
// revealed on purpose (deck commitment), so nothing is forbidden then.
//
// Every string field of the response (walked by reflection, repeated and map
// fields and nested messages included) and of the error (message, and the
// google.rpc.Status details with their ErrorInfo and LocalizedMessage
// unpacked) is searched for two-character card codes standing alone (no
// letter or digit before, no letter after). The only bytes fields are the
// token (ciphertext), the commitment digest and the revealed salt: random
// bytes, not text; the walk fails on any other bytes field. A hand history
// writes cards back to back ("d dh p1 ????7c"), so its PHH text is also read
// with the PHH parser and every card it names is checked.
#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/card.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "history/phh.h"
#include "service/api/status_mapping.h"
#include "service/token/codec.h"
#include "service/trust/seat_tickets.h"
#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;

// Letters include every byte of a multi-byte UTF-8 character ("Ahí" is a word).
bool IsLetter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
}
bool IsAlnum(char c) { return IsLetter(c) || (c >= '0' && c <= '9'); }

// Card codes standing alone in `bytes`.
std::set<int> CardsIn(const std::string& bytes) {
  std::set<int> out;
  for (size_t i = 0; i + 1 < bytes.size(); ++i) {
    if (i > 0 && IsAlnum(bytes[i - 1])) continue;
    if (i + 2 < bytes.size() && IsLetter(bytes[i + 2])) continue;
    // The service writes cards in one form only: rank 2..9 T J Q K A, suit c d h s.
    const char* rank = std::strchr("23456789TJQKA", bytes[i]);
    const char* suit = std::strchr("cdhs", bytes[i + 1]);
    if (bytes[i] == '\0' || bytes[i + 1] == '\0' || rank == nullptr || suit == nullptr) continue;
    out.insert(ParseCard(bytes.substr(i, 2))->index());
  }
  return out;
}

// Every card a PHH record names (dealt, shown, board); "??" names none.
std::set<int> CardsInPhh(const std::string& phh) {
  std::set<int> out;
  absl::StatusOr<history::PhhHand> hand = history::ParsePhh(phh);
  EXPECT_TRUE(hand.ok()) << hand.status() << "\n" << phh;
  if (!hand.ok()) return out;
  for (const history::PhhAction& a : hand->actions) {
    for (const std::optional<Card>& c : a.cards) {
      if (c.has_value()) out.insert(c->index());
    }
  }
  return out;
}

// Where `code` occurs in `text`, with a few characters around it.
std::string Context(const std::string& text, const std::string& code) {
  std::string out;
  for (size_t at = text.find(code); at != std::string::npos; at = text.find(code, at + 1)) {
    absl::StrAppend(&out, "[", text.substr(at < 30 ? 0 : at - 30, 62), "] ");
  }
  return out;
}

// All string fields of `m`, one per line.
void Strings(const google::protobuf::Message& m, std::string* out) {
  const google::protobuf::Reflection* r = m.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const google::protobuf::FieldDescriptor* f : fields) {
    const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      if (f->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE) {
        Strings(f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), out);
      } else if (f->type() == google::protobuf::FieldDescriptor::TYPE_STRING) {
        absl::StrAppend(out, f->is_repeated() ? r->GetRepeatedString(m, f, i) : r->GetString(m, f),
                        "\n");
      } else if (f->type() == google::protobuf::FieldDescriptor::TYPE_BYTES) {
        // Tickets (NewHand) are the hand id, a seat and a tag: no cards.
        EXPECT_TRUE(f->name() == "token" || f->name() == "commitment" ||
                    f->name() == "revealed_salt" || f->name() == "ticket" ||
                    f->name() == "table_ticket" ||
                    f->full_name() == "google.protobuf.Any.value")  // unpacked by ErrorText
            << "unexpected bytes field " << f->full_name();
      }
    }
  }
}

// The error as the caller gets it: message, then details with their payloads.
std::string ErrorText(const absl::Status& st) {
  const grpc::Status g = ToGrpcStatus(st);
  std::string out = g.error_message() + "\n";
  google::rpc::Status details;
  EXPECT_TRUE(details.ParseFromString(g.error_details()));
  Strings(details, &out);
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    google::rpc::LocalizedMessage localized;
    if (any.UnpackTo(&info)) Strings(info, &out);
    if (any.UnpackTo(&localized)) Strings(localized, &out);
  }
  return out;
}

// Cards seat `viewer` (kPublicViewer: nobody's own) may know in `state`.
std::set<int> Visible(const HandState& state, int viewer) {
  std::set<int> out;
  if (state.phase == Phase::kComplete) {
    for (int i = 0; i < kDeckSize; ++i) out.insert(i);
    return out;
  }
  if (state.has_common) out.insert(state.common_card.index());
  for (int s = 1; s <= state.config.num_seats; ++s) {
    const Seat& seat = state.seats[static_cast<size_t>(s)];
    for (int k = 0; k < seat.num_cards; ++k) {
      const SeatCard& c = seat.cards[static_cast<size_t>(k)];
      if (s == viewer || c.face_up || seat.shown) out.insert(c.card.index());
    }
  }
  for (const Operation& op : state.log) {
    if (op.type == OpType::kExpose || (op.type == OpType::kAside && op.amount == 0) ||
        (op.type == OpType::kDeal && op.face_up) || op.type == OpType::kCommonCard) {
      out.insert(op.card.index());
    }
    if (op.type == OpType::kDeal && op.seat == viewer) out.insert(op.card.index());
  }
  return out;
}

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

  HandState StateOf(const std::string& token) const {
    absl::StatusOr<std::string> plain = sealer_.Open(token);
    EXPECT_TRUE(plain.ok());
    absl::StatusOr<SealedHand> hand = ParseSealedHand(*plain);
    EXPECT_TRUE(hand.ok());
    return hand->state;
  }

  // Checks one answer given to `viewer`: `before` is the state the request
  // was made on (null for NewHand), `after_token` the token returned (empty
  // on errors), `named` the cards the request itself named.
  template <typename Resp>
  void Check(const char* rpc, int viewer, const HandState* before, const absl::Status& st,
             Resp resp, const std::set<int>& named) {
    ++checks_;
    std::set<int> visible;
    if (before != nullptr) visible = Visible(*before, viewer);
    std::string text;
    if (st.ok()) {
      std::string token;
      if constexpr (requires { resp.mutable_update(); }) {
        token = resp.update().token();
        resp.mutable_update()->clear_token();
        resp.mutable_update()->mutable_public_view()->mutable_deck_commitment()->clear_commitment();
        resp.mutable_update()
            ->mutable_public_view()
            ->mutable_deck_commitment()
            ->clear_revealed_salt();
        resp.mutable_update()->mutable_public_view()->clear_hand_id();  // hex, not text
      }
      if constexpr (requires { resp.clear_hand_id(); }) resp.clear_hand_id();
      if (!token.empty()) {
        const std::set<int> after = Visible(StateOf(token), viewer);
        visible.insert(after.begin(), after.end());
      }
      if constexpr (requires { resp.mutable_phh(); }) {
        // The deck commitment is a digest in hex ("4d07..."), like the
        // commitment bytes above: not text.
        std::string& phh = *resp.mutable_phh();
        const size_t at = phh.find("_deck_commitment = '");
        if (at != std::string::npos) phh.erase(at, phh.find('\'', at + 20) + 1 - at);
      }
      Strings(resp, &text);
      if constexpr (requires { resp.phh(); }) {
        for (int card : CardsInPhh(resp.phh()))
          absl::StrAppend(&text, " ", Card::FromIndex(card).ToString());
      }
    } else {
      ++errors_;
      text = ErrorText(st);
    }
    for (int card : CardsIn(text)) {
      if (visible.count(card) == 0 && named.count(card) == 0) {
        ADD_FAILURE() << rpc << " to seat " << viewer << " leaks "
                      << Card::FromIndex(card).ToString() << (st.ok() ? "" : " in an error: ")
                      << (st.ok() ? "" : st.ToString()) << "\n"
                      << "in: " << Context(text, Card::FromIndex(card).ToString());
        ++leaks_;
        return;
      }
    }
  }

  // The table's report of the card the dealer owes next in LIVE dealing (the
  // first card of `deck` not yet in play), its burn or the reshuffle.
  static v1::Action LiveDeal(const v1::HandUpdate& u, const HandState& state,
                             const std::vector<Card>& deck) {
    v1::Action a;
    const v1::ExpectedDeal& next = u.expected_deal();
    bool may_deal = false;
    for (const auto& la : u.legal_actions()) may_deal |= la.kind() == v1::ACTION_KIND_DEAL;
    if (next.step() == v1::DEAL_STEP_RESHUFFLE || !may_deal) {
      a.set_kind(next.step() == v1::DEAL_STEP_RESHUFFLE ? v1::ACTION_KIND_RESHUFFLE
                                                        : v1::ACTION_KIND_BURN);
      return a;  // seat 0, the dealer; a burn not seen
    }
    a.set_kind(v1::ACTION_KIND_DEAL);
    a.set_seat(next.seat());
    a.set_face_up(next.face_up());
    for (Card c : deck) {
      if (!state.seen.Contains(c)) {
        a.set_card(c.ToString());
        break;
      }
    }
    return a;
  }

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
    ASSERT_TRUE(st.ok()) << st;
    Check("NewHand", viewer0, nullptr, st, start, {});
    v1::HandUpdate u = start.update();
    for (int step = 0; step < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      const HandState state = StateOf(u.token());
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
      const std::set<int> vis = Visible(state, viewer);
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
          Check("GetView", viewer, &state, st, resp, {});
          break;
        }
        case 1: {
          v1::LegalActionsRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          r.set_seat(static_cast<int32_t>(rng() % (seats + 2)) - 1);
          v1::LegalActionsResponse resp;
          st = service_.LegalActions(r, &resp);
          Check("LegalActions", viewer, &state, st, resp, {});
          break;
        }
        case 2: {
          v1::ResolveShowdownRequest r;
          r.set_token(u.token());
          r.set_seat_ticket(ticket);
          v1::ResolveShowdownResponse resp;
          st = service_.ResolveShowdown(r, &resp);
          Check("ResolveShowdown", viewer, &state, st, resp, {});
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
          Check("RuleIrregularity", viewer, &state, st, resp, named);
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
          Check("ExportHandHistory", tickets_ ? viewer : reader, &state, st, resp, {});
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
          Check("ApplyAction", viewer, &state, st, resp, named);
          if (st.ok()) u = resp.update();
          if (st.ok() && report) ++live_reports_;
          break;
        }
      }
      if (HasFatalFailure() || leaks_ > 0) return;
    }
  }

  int checks_ = 0, errors_ = 0, leaks_ = 0, exports_ = 0, live_hands_ = 0, live_reports_ = 0;

 private:
  static bool HasFatalFailure() { return ::testing::Test::HasFatalFailure(); }
  const SeatTicketPolicy required_{.required = true};
  Sealer sealer_;
  HandService service_;
  bool tickets_ = false;
};

TEST(HiddenInfoTest, NoAnswerOrErrorShowsAnotherSeatsDownCardOrTheDeck) {
  ASSERT_TRUE(InitCrypto().ok());
  HiddenInfo h;
  std::mt19937 rng(77);
  for (int hand = 0; hand < 400 && h.leaks_ == 0; ++hand) {
    h.PlayHand(rng);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  }
  std::printf(
      "hidden-info: %d answers checked (%d errors, %d hand histories, %d LIVE hands with %d "
      "cards, burns and reshuffles reported), %d leaks\n",
      h.checks_, h.errors_, h.exports_, h.live_hands_, h.live_reports_, h.leaks_);
  EXPECT_EQ(h.leaks_, 0);
  EXPECT_GT(h.live_hands_, 100);
  EXPECT_GT(h.live_reports_, 2000);
  EXPECT_GT(h.exports_, 1000);
  EXPECT_GT(h.checks_, 10000);
  EXPECT_GT(h.errors_, 1000);
}

// The same sweep with seat tickets required on a server that would reveal
// every card to a trusted caller: answers to seat S's ticket (or the table's)
// show no other seat's down card and no deck card, whatever the call asks.
TEST(HiddenInfoTest, SeatTicketModeShowsEachTicketOnlyItsOwnSeat) {
  ASSERT_TRUE(InitCrypto().ok());
  HiddenInfo h(/*tickets=*/true);
  std::mt19937 rng(78);
  for (int hand = 0; hand < 300 && h.leaks_ == 0; ++hand) {
    h.PlayHand(rng);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  }
  std::printf(
      "hidden-info (seat tickets): %d answers checked (%d errors, %d hand histories), %d leaks\n",
      h.checks_, h.errors_, h.exports_, h.leaks_);
  EXPECT_EQ(h.leaks_, 0);
  EXPECT_GT(h.exports_, 500);
  EXPECT_GT(h.checks_, 5000);
  EXPECT_GT(h.errors_, 1000);
}

// The detector itself: a response carrying another seat's down card is caught.
TEST(HiddenInfoTest, TheCheckCatchesALeak) {
  ASSERT_TRUE(InitCrypto().ok());
  Sealer sealer = *Sealer::Create({TestKey(1, 3)});
  HandService service(&sealer, ServiceOptions{});
  v1::NewHandResponse start;
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_SERVICE);
  req.add_private_view_seats(1);
  ASSERT_TRUE(service.NewHand(req, &start).ok());
  const HandState state = ParseSealedHand(*sealer.Open(start.update().token()))->state;
  const std::set<int> visible = Visible(state, 1);
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
  ASSERT_TRUE(service.ExportHandHistory(er, &exported).ok());
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
