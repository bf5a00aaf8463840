// The deck reveal comes only on request (GetView reveal_deck), only for a
// complete hand, and only to a caller allowed to see everything: no seat
// ticket, a hand that requires none, a server started with
// --allow_deck_reveal. No answer carries it otherwise: the final update, a
// plain GetView and every ticket's GetView carry the commitment alone. And the
// settlement of a hand nobody showed (a misdeal) shows no hand.
#include <string>
#include <tuple>
#include <vector>

#include "engine/card.h"
#include "service/api/status_mapping.h"
#include "service/rpc/dealing.h"
#include "service/rpc/hand_service.h"
#include "service/token/codec.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

class DeckReveal {
 public:
  explicit DeckReveal(ServiceOptions options)
      : sealer_(*Sealer::Create({TestKey(1, 5)})), service_(&sealer_, options) {}

  v1::NewHandResponse Deal(v1::DealingMode mode = v1::DEALING_MODE_SERVICE) {
    v1::NewHandResponse start;
    const absl::Status st = service_.NewHand(BasicHand(3, mode), &start);
    EXPECT_THAT(st, IsOk());
    return start;
  }

  // Plays `u` to the end with the passive policy.
  v1::HandUpdate PlayOut(v1::HandUpdate u) {
    for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      v1::ApplyActionRequest req;
      req.set_token(u.token());
      *req.mutable_action() = ChooseAction(u, false);
      v1::ApplyActionResponse resp;
      const absl::Status st = service_.ApplyAction(req, &resp);
      EXPECT_THAT(st, IsOk());
      if (!st.ok()) break;
      u = resp.update();
    }
    EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
    return u;
  }

  absl::Status View(const std::string& token, bool reveal, const std::string& ticket,
                    v1::GetViewResponse* resp) {
    v1::GetViewRequest req;
    req.set_token(token);
    req.set_reveal_deck(reveal);
    req.set_seat_ticket(ticket);
    return service_.GetView(req, resp);
  }

  // `token` resealed with its hand's policy requiring seat tickets.
  std::string RequiringTickets(const std::string& token) const {
    SealedHand hand = *ParseSealedHand(*sealer_.Open(token));
    hand.service.requires_seat_tickets = true;
    return sealer_.Seal(SerializeSealedHand(hand), "", hand.service.hand_id);
  }

  HandService& service() { return service_; }

 private:
  Sealer sealer_;
  HandService service_;
};

void ExpectNoReveal(const v1::DeckCommitment& dc) {
  EXPECT_EQ(dc.revealed_deck_size(), 0);
  EXPECT_EQ(dc.revealed_recycle_order_size(), 0);
  EXPECT_TRUE(dc.revealed_salt().empty());
}

void ExpectRefused(const absl::Status& st, absl::StatusCode code, const std::string& reason,
                   const std::string& says) {
  EXPECT_EQ(st.code(), code) << st;
  EXPECT_EQ(ErrorReason(st), reason) << st;
  EXPECT_NE(st.message().find(says), std::string::npos) << st;
}

TEST(DeckRevealTest, OnlyOnRequestToATrustedCallerOnceTheHandIsComplete) {
  ASSERT_THAT(InitCrypto(), IsOk());
  DeckReveal t(ServiceOptions{.allow_deck_reveal = true});
  const v1::NewHandResponse start = t.Deal();
  ExpectNoReveal(start.update().public_view().deck_commitment());
  ASSERT_EQ(start.update().public_view().deck_commitment().commitment().size(), 32u);
  v1::GetViewResponse resp;
  // In progress: not yet, even for the trusted caller; never for a ticket.
  ExpectRefused(t.View(start.update().token(), true, "", &resp),
                absl::StatusCode::kFailedPrecondition, "DECK_NOT_REVEALABLE_YET", "in progress");
  ExpectRefused(t.View(start.update().token(), true, start.seat_tickets(0).ticket(), &resp),
                absl::StatusCode::kPermissionDenied, "DECK_REVEAL_NOT_PERMITTED", "seat ticket");

  const v1::HandUpdate end = t.PlayOut(start.update());
  ExpectNoReveal(end.public_view().deck_commitment());  // the final update: commitment alone
  ASSERT_THAT(t.View(end.token(), false, "", &resp), IsOk());
  ExpectNoReveal(resp.update().public_view().deck_commitment());
  // Every seat's ticket and the table's: refused, the hand complete or not.
  std::vector<std::string> tickets = {start.table_ticket()};
  for (const auto& s : start.seat_tickets()) tickets.push_back(s.ticket());
  for (const std::string& ticket : tickets) {
    ExpectRefused(t.View(end.token(), true, ticket, &resp), absl::StatusCode::kPermissionDenied,
                  "DECK_REVEAL_NOT_PERMITTED", "seat ticket");
    ASSERT_THAT(t.View(end.token(), false, ticket, &resp), IsOk());
    ExpectNoReveal(resp.update().public_view().deck_commitment());
  }
  // The trusted caller, asking: the deck, recycle order and salt that hash
  // to the commitment published at the deal.
  const absl::Status st = t.View(end.token(), true, "", &resp);
  ASSERT_THAT(st, IsOk());
  const v1::DeckCommitment& dc = resp.update().public_view().deck_commitment();
  ASSERT_EQ(dc.revealed_deck_size(), 52);
  ASSERT_EQ(dc.revealed_recycle_order_size(), 52);
  std::vector<Card> deck, recycle;
  for (const std::string& c : dc.revealed_deck()) deck.push_back(*ParseCard(c));
  for (const std::string& c : dc.revealed_recycle_order()) recycle.push_back(*ParseCard(c));
  EXPECT_EQ(DeckCommitment(deck, recycle, dc.revealed_salt()),
            start.update().public_view().deck_commitment().commitment());
}

TEST(DeckRevealTest, RefusedWithoutTheFlagAndForAHandThatRequiresTickets) {
  ASSERT_THAT(InitCrypto(), IsOk());
  DeckReveal plain(ServiceOptions{});
  const v1::HandUpdate end = plain.PlayOut(plain.Deal().update());
  v1::GetViewResponse resp;
  ExpectRefused(plain.View(end.token(), true, "", &resp), absl::StatusCode::kPermissionDenied,
                "DECK_REVEAL_NOT_PERMITTED", "--allow_deck_reveal");
  // Permission comes first: a hand in progress is refused the same way.
  ExpectRefused(plain.View(plain.Deal().update().token(), true, "", &resp),
                absl::StatusCode::kPermissionDenied, "DECK_REVEAL_NOT_PERMITTED",
                "--allow_deck_reveal");

  DeckReveal flagged(ServiceOptions{.allow_deck_reveal = true});
  const std::string sealed =
      flagged.RequiringTickets(flagged.PlayOut(flagged.Deal().update()).token());
  const absl::Status st = flagged.View(sealed, true, "", &resp);
  EXPECT_THAT(st, StatusIs(absl::StatusCode::kPermissionDenied)) << st;
  // Refused by the hand's policy: before the deck check (no ticket at all)
  // or by it.
  EXPECT_TRUE(ErrorReason(st) == "DECK_REVEAL_NOT_PERMITTED" ||
              ErrorReason(st) == "SEAT_TICKET_REQUIRED")
      << st;

  const SeatTicketPolicy required{.required = true};
  DeckReveal tickets(ServiceOptions{.allow_deck_reveal = true, .seat_tickets = &required});
  const v1::NewHandResponse start = tickets.Deal();
  ExpectRefused(tickets.View(start.update().token(), true, "", &resp),
                absl::StatusCode::kPermissionDenied, "SEAT_TICKET_REQUIRED", "seat_ticket");
}

TEST(DeckRevealTest, AHandTheServiceDidNotShuffleHasNothingToReveal) {
  ASSERT_THAT(InitCrypto(), IsOk());
  DeckReveal t(ServiceOptions{.allow_preset = true, .allow_deck_reveal = true});
  const v1::HandUpdate end = t.PlayOut(t.Deal(v1::DEALING_MODE_PRESET).update());
  v1::GetViewResponse resp;
  const absl::Status st = t.View(end.token(), true, "", &resp);
  ASSERT_THAT(st, IsOk());
  EXPECT_TRUE(resp.update().public_view().deck_commitment().commitment().empty());
  ExpectNoReveal(resp.update().public_view().deck_commitment());
}

// A tournament misdeal (a hole card dealt face up, STUD-IRR-EXP-1) ends the
// hand with nobody shown: its settlement awards nothing and shows no hand
// (it was INVALID_ARGUMENT, the short hands settled as if at a showdown).
TEST(DeckRevealTest, TheSettlementOfAMisdealShowsNoHand) {
  ASSERT_THAT(InitCrypto(), IsOk());
  DeckReveal t(ServiceOptions{});
  v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_LIVE);
  req.set_profile(v1::PROFILE_TOURNAMENT);
  v1::NewHandResponse start;
  ASSERT_THAT(t.service().NewHand(req, &start), IsOk());
  v1::HandUpdate u = start.update();
  for (auto [seat, card, up] : {std::tuple{1, "Ah", false}, std::tuple{2, "2c", true}}) {
    v1::ApplyActionRequest deal;
    deal.set_token(u.token());
    deal.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
    deal.mutable_action()->set_seat(seat);
    deal.mutable_action()->set_card(card);
    deal.mutable_action()->set_face_up(up);
    v1::ApplyActionResponse resp;
    const absl::Status st = t.service().ApplyAction(deal, &resp);
    ASSERT_THAT(st, IsOk());
    u = resp.update();
  }
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  v1::ResolveShowdownRequest rs;
  rs.set_token(u.token());
  v1::ResolveShowdownResponse settled;
  const absl::Status st = t.service().ResolveShowdown(rs, &settled);
  ASSERT_THAT(st, IsOk());
  EXPECT_EQ(settled.hands_size(), 0);
  EXPECT_EQ(settled.pots_size(), 0);
  EXPECT_TRUE(settled.won().empty());
}

}  // namespace
}  // namespace stud::service::testing
