// A NewHand, ApplyAction, GetView or WatchHand answer written as bytes
// (HandService::WriteUpdate, what the server sends) is byte for byte
// protobuf's serialization of the message FillUpdate fills (what tests and
// tools read), over many hands: every variant, 2 to 8 seats, SERVICE dealing
// (card proofs, players' seeds, the server seed revealed at the end), PRESET
// and LIVE dealing, random private views, seat and table tickets, every
// detail (the compact one too), actions that are refused, and the answers of
// complete hands with their receipts. An answer the writer leaves to the
// message (a ruling, a seeding hand) must then be the message's, with nothing
// written.
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hidden_info.h"
#include "service/rpc/dealing.h"
#include "service/rpc/hand_service.h"
#include "service/token/wire.h"
#include "service_fixture.h"

namespace stud::service {
namespace v1 = stud::v1;

// NewHand's message answer for a hand NewHand dealt: FillUpdate and
// AddSeatTickets, as DealNewHand calls them, for the hand opened from the
// answer's token (the token given, so it is not sealed again).
class HandServiceTestPeer {
 public:
  static v1::NewHandResponse Filled(const HandService& service, const SealedHand& hand,
                                    const v1::NewHandRequest& req, const std::string& token) {
    v1::NewHandResponse resp;
    const std::vector<int> views(req.private_view_seats().begin(), req.private_view_seats().end());
    service.FillUpdate(CallContext{}, hand, 0, views, *HandService::DecodeDetail(req.detail()),
                       token, resp.mutable_update());
    AddSeatTickets(*service.sealer_, "", hand.service, hand.state.config.num_seats, &resp);
    return resp;
  }
};

namespace {
using ::stud::service::testing::BasicHand;
using ::stud::service::testing::ChooseAction;
using ::stud::service::testing::LiveDeal;
using ::stud::service::testing::OpenSealedHand;
using ::stud::service::testing::TestKey;

// Where two byte strings first differ, for a failure message a person can read.
template <typename Resp>
std::string Difference(absl::string_view written, const std::string& expected) {
  size_t i = 0;
  while (i < written.size() && i < expected.size() && written[i] == expected[i]) ++i;
  Resp parsed;
  const bool same_message =
      parsed.ParseFromArray(written.data(), static_cast<int>(written.size())) &&
      parsed.SerializeAsString() == expected;
  return absl::StrCat("written ", written.size(), " bytes, protobuf ", expected.size(),
                      "; first difference at byte ", i,
                      same_message ? " (the same message, fields in another order)" : "");
}

struct Counts {
  int written = 0;  // answers written as bytes
  int filled = 0;   // answers left to the message
  int refused = 0;
};

class Twins {
 public:
  Twins()
      : sealer_(*Sealer::Create({TestKey(1, 9)})),
        service_(&sealer_, ServiceOptions{.allow_preset = true}) {}

  // A new hand dealt as the server deals it (as bytes where it writes them),
  // checked against the message NewHand fills for the same hand.
  v1::NewHandResponse Deal(const v1::NewHandRequest& req, Counts* n) {
    wire::Buffer bytes;
    v1::NewHandResponse beside;
    const absl::Status st = service_.NewHand(req, &beside, CallContext{.response_bytes = &bytes});
    EXPECT_TRUE(st.ok()) << st;
    if (bytes.empty()) {  // left to the message (a seeding hand)
      ++n->filled;
      return beside;
    }
    ++n->written;
    EXPECT_EQ(beside.ByteSizeLong(), 0u) << "a written answer leaves the message empty";
    v1::NewHandResponse written;
    EXPECT_TRUE(written.ParseFromArray(bytes.view().data(), static_cast<int>(bytes.size())));
    const std::string expected =
        HandServiceTestPeer::Filled(service_, Open(written.update().token()), req,
                                    written.update().token())
            .SerializeAsString();
    EXPECT_TRUE(bytes.view() == expected)
        << Difference<v1::NewHandResponse>(bytes.view(), expected);
    return written;
  }

  // A call answered as a test reads it and as the server sends it: the same
  // status, and the same bytes. `answer(context, response)` makes the call.
  // The message's answer, or the refusal.
  template <typename Resp, typename Answer>
  absl::StatusOr<Resp> Twice(Answer answer, Counts* n) {
    Resp filled;
    const absl::Status st = answer(CallContext{}, &filled);
    wire::Buffer bytes;
    Resp beside;
    const absl::Status written_st = answer(CallContext{.response_bytes = &bytes}, &beside);
    EXPECT_EQ(st, written_st);
    if (!st.ok()) {
      ++n->refused;
      EXPECT_TRUE(bytes.empty());
      return st;
    }
    const std::string expected = filled.SerializeAsString();
    if (bytes.empty()) {
      ++n->filled;
      EXPECT_TRUE(beside.SerializeAsString() == expected) << "a message answer differs";
    } else {
      ++n->written;
      EXPECT_EQ(beside.update().ByteSizeLong(), 0u) << "a written answer leaves the message empty";
      EXPECT_TRUE(bytes.view() == expected) << Difference<Resp>(bytes.view(), expected);
    }
    return filled;
  }
  absl::StatusOr<v1::ApplyActionResponse> Apply(const v1::ApplyActionRequest& req, Counts* n) {
    return Twice<v1::ApplyActionResponse>(
        [&](const CallContext& call, v1::ApplyActionResponse* out) {
          return service_.ApplyAction(req, out, call);
        },
        n);
  }
  absl::StatusOr<v1::GetViewResponse> View(const v1::GetViewRequest& req, Counts* n) {
    return Twice<v1::GetViewResponse>(
        [&](const CallContext& call, v1::GetViewResponse* out) {
          return service_.GetView(req, out, call);
        },
        n);
  }
  // One WatchHand message: version `token`, operations from `first_op` on.
  absl::StatusOr<v1::WatchHandResponse> Watch(const v1::WatchHandRequest& req,
                                              const std::string& token, size_t first_op,
                                              Counts* n) {
    return Twice<v1::WatchHandResponse>(
        [&](const CallContext& call, v1::WatchHandResponse* out) {
          return service_.WatchUpdate(call, req, token, first_op, out->mutable_update());
        },
        n);
  }

  // A player's seed: once only, since the last one deals with a new salt
  // (the deck commitment's), so the same request twice answers differently.
  absl::StatusOr<v1::ApplyActionResponse> Seed(const v1::ApplyActionRequest& req) {
    v1::ApplyActionResponse resp;
    if (absl::Status st = service_.ApplyAction(req, &resp); !st.ok()) return st;
    return resp;
  }

  SealedHand Open(const std::string& token) { return OpenSealedHand(sealer_, token); }

 private:
  Sealer sealer_;
  HandService service_;
};

v1::Action SeedOf(int seat, std::mt19937& rng) {
  v1::Action a;
  a.set_kind(v1::ACTION_KIND_SEED);
  a.set_seat(seat);
  a.set_seed(std::string(1 + rng() % 32, static_cast<char>('a' + rng() % 26)));
  return a;
}

TEST(UpdateBytesTest, WrittenAnswersAreProtobufsBytesOverManyHands) {
  std::mt19937 rng(20261128);
  Twins twins;
  Counts n;
  Counts views;
  Counts watched;
  Counts dealt_counts;
  int compact_written = 0;   // ApplyAction and WatchHand answers of UPDATE_DETAIL_COMPACT written
  int receipts_written = 0;  // ApplyAction answers that completed a hand, written
  const v1::Variant variants[] = {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ};
  const v1::Profile profiles[] = {v1::PROFILE_CASH, v1::PROFILE_TOURNAMENT, v1::PROFILE_ONLINE};
  const v1::UpdateDetail details[] = {v1::UPDATE_DETAIL_UNSPECIFIED, v1::UPDATE_DETAIL_FULL,
                                      v1::UPDATE_DETAIL_CHANGES, v1::UPDATE_DETAIL_COMPACT};
  std::vector<Card> live_deck;
  for (int i = 0; i < kDeckSize; ++i) live_deck.push_back(Card::FromIndex(i));
  for (int hand = 0; hand < 150; ++hand) {
    const int seats = 2 + hand % 7;
    const int kind = hand % 5;  // SERVICE, SERVICE with seeds, SERVICE revealing, PRESET, LIVE
    const v1::DealingMode mode = kind == 3   ? v1::DEALING_MODE_PRESET
                                 : kind == 4 ? v1::DEALING_MODE_LIVE
                                             : v1::DEALING_MODE_SERVICE;
    v1::NewHandRequest req = BasicHand(seats, mode, variants[hand % 3]);
    if (kind == 1) req.mutable_fairness()->set_player_seeds(true);
    if (kind == 2) req.mutable_fairness()->set_reveal(v1::REVEAL_POLICY_AT_END);
    if (hand % 4 == 0) req.set_locale(v1::LOCALE_ES);
    // More distinct rule options than the writer keeps per thread (update_bytes.cc, OptionsBytes).
    req.set_profile(profiles[hand % 3]);
    if (hand % 2 == 1) req.mutable_option_overrides()->set_max_raises_per_round(3 + hand % 5);
    req.set_detail(details[rng() % 4]);
    for (int s = 1; s <= seats; ++s) {
      if (rng() % 3 == 0) req.add_private_view_seats(s);
    }
    std::shuffle(live_deck.begin(), live_deck.end(), rng);
    const v1::NewHandResponse dealt = twins.Deal(req, &dealt_counts);
    if (::testing::Test::HasFailure()) return;
    const std::string hand_id = HandIdText(twins.Open(dealt.update().token()).service);
    v1::HandUpdate u = dealt.update();
    for (int step = 0; step < 400 && !u.token().empty(); ++step) {
      const SealedHand opened = twins.Open(u.token());
      if (opened.state.phase == Phase::kComplete) break;
      v1::ApplyActionRequest r;
      r.set_token(u.token());
      r.set_detail(details[rng() % 4]);
      for (int s = 1; s <= seats; ++s) {
        if (rng() % 3 == 0) r.add_private_view_seats(s);
      }
      if (kind == 1 && step < seats) {  // seeding, then the deal
        *r.mutable_action() = SeedOf(step + 1, rng);
      } else if (mode == v1::DEALING_MODE_LIVE && u.has_expected_deal()) {
        *r.mutable_action() = LiveDeal(u, opened.state, live_deck);
      } else if (rng() % 10 == 0) {  // refused: a seat that is not to act
        *r.mutable_action() = ChooseAction(u, false);
        r.mutable_action()->set_seat(u.to_act() % seats + 1);
      } else {
        *r.mutable_action() = ChooseAction(u, rng() % 3 == 0);
        if (u.legal_actions_size() > 0 && rng() % 2 == 0) {
          const v1::LegalAction& la = u.legal_actions(
              static_cast<int>(rng() % static_cast<uint32_t>(u.legal_actions_size())));
          r.mutable_action()->set_kind(la.kind());
          r.mutable_action()->set_amount_to(la.amount_to());
        }
      }
      const bool seeding = kind == 1 && step < seats;
      const int written_before = n.written;
      absl::StatusOr<v1::ApplyActionResponse> answer = seeding ? twins.Seed(r) : twins.Apply(r, &n);
      if (r.detail() == v1::UPDATE_DETAIL_COMPACT && n.written > written_before) ++compact_written;
      if (answer.ok() && answer->update().has_receipt() && n.written > written_before) {
        ++receipts_written;
      }
      if (rng() % 4 == 0) {  // a device refreshing: the whole log, its views
        v1::GetViewRequest view;
        view.set_token(answer.ok() ? answer->update().token() : u.token());
        *view.mutable_private_view_seats() = r.private_view_seats();
        ASSERT_TRUE(twins.View(view, &views).ok());
      }
      if (answer.ok() && rng() % 4 == 0) {  // a device watching: a seat's, the table's or none
        v1::WatchHandRequest watch;
        watch.set_hand_id(hand_id);
        const int ticket = static_cast<int>(rng() % static_cast<uint32_t>(seats + 2));
        if (ticket < seats) {
          watch.set_seat_ticket(dealt.seat_tickets(ticket).ticket());
        } else if (ticket == seats) {
          watch.set_seat_ticket(dealt.table_ticket());
        }
        watch.set_detail(details[rng() % 4]);
        const std::string& token = answer->update().token();
        const size_t log = twins.Open(token).state.log.size();
        const size_t first_op = rng() % 2 == 0 ? log : rng() % (log + 1);
        const int watched_before = watched.written;
        ASSERT_TRUE(twins.Watch(watch, token, first_op, &watched).ok());
        if (watch.detail() == v1::UPDATE_DETAIL_COMPACT && watched.written > watched_before) {
          ++compact_written;
        }
      }
      if (::testing::Test::HasFailure()) return;  // the first difference is enough
      if (!answer.ok()) continue;
      // The next request needs the token, the turn and the legal actions,
      // which every detail carries.
      u.set_token(answer->update().token());
      u.set_to_act(answer->update().to_act());
      *u.mutable_legal_actions() = answer->update().legal_actions();
      if (answer->update().has_expected_deal()) {
        *u.mutable_expected_deal() = answer->update().expected_deal();
      } else {
        u.clear_expected_deal();
      }
    }
  }
  // Most answers are written, and each way out of the writer was taken. The
  // service shuffles its own hands, so the counts vary run to run: views and
  // watch messages left to the message came to 21-34 and 28-42 over 25 runs,
  // so their floor is far below that.
  EXPECT_GT(n.written, 2000);
  EXPECT_GT(compact_written, 500);
  EXPECT_GT(receipts_written, 100);
  EXPECT_EQ(n.filled, 0);  // seeds are answered outside the comparison (Seed)
  EXPECT_GT(n.refused, 100);
  EXPECT_GT(views.written, 500);
  EXPECT_GT(views.filled, 5);
  EXPECT_GT(watched.written, 500);
  EXPECT_GT(watched.filled, 5);
  EXPECT_GT(dealt_counts.written, 60);
  EXPECT_GT(dealt_counts.filled, 20);
  std::printf(
      "new hands written %d, filled %d; answers written %d (compact %d with watch messages, "
      "completing a hand %d), filled %d, refused %d; views written %d, filled %d; watch messages "
      "written %d, filled %d\n",
      dealt_counts.written, dealt_counts.filled, n.written, compact_written, receipts_written,
      n.filled, n.refused, views.written, views.filled, watched.written, watched.filled);
}

}  // namespace
}  // namespace stud::service
