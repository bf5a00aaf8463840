// No input crashes the service or yields UNKNOWN: bounded random requests
// (seeded, so failures reproduce) against HandService directly, covering
// malformed values, wrong seats, random actions on live tokens and random
// stateless showdowns. Every answer must be OK or a documented error code.
#include <random>
#include <set>

#include "gtest/gtest.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
namespace v1 = stud::v1;

bool Documented(const absl::Status& st) {
  switch (st.code()) {
    case absl::StatusCode::kOk:
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kUnauthenticated:
    case absl::StatusCode::kAborted:
      return true;
    default:
      return false;
  }
}

std::string RandomCard(std::mt19937& rng) {
  static const char kRanks[] = "23456789TJQKAX";
  static const char kSuits[] = "cdhsz";
  return std::string{kRanks[rng() % 14], kSuits[rng() % 5]};
}

TEST(RobustnessTest, RandomActionsOnLiveHandsNeverCrash) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 1)});
  HandService service(&sealer, ServiceOptions{true});
  std::mt19937 rng(2024);
  int accepted = 0;
  for (int hand = 0; hand < 40; ++hand) {
    v1::NewHandRequest req =
        BasicHand(2 + static_cast<int>(rng() % 7),
                  hand % 3 == 0 ? v1::DEALING_MODE_LIVE : v1::DEALING_MODE_SERVICE,
                  static_cast<v1::Variant>(1 + rng() % 3));
    for (auto& s : *req.mutable_seats()) s.set_stack(1 + static_cast<int64_t>(rng() % 20000));
    v1::NewHandResponse start;
    ASSERT_THAT(service.NewHand(req, &start), IsOk());
    v1::HandUpdate u = start.update();
    for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      v1::ApplyActionRequest a;
      a.set_token(u.token());
      if (rng() % 3 == 0 && u.legal_actions_size() > 0) {
        // A legal action, so hands move forward.
        const v1::LegalAction& la =
            u.legal_actions(static_cast<int>(rng() % u.legal_actions_size()));
        a.mutable_action()->set_kind(la.kind());
        a.mutable_action()->set_amount_to(la.amount_to());
        a.mutable_action()->set_seat(la.kind() == v1::ACTION_KIND_DEAL ? u.expected_deal().seat()
                                                                       : u.to_act());
        if (la.kind() == v1::ACTION_KIND_DEAL) {
          a.mutable_action()->set_card(RandomCard(rng));
          a.mutable_action()->set_face_up(u.expected_deal().face_up());
        }
      } else {
        a.mutable_action()->set_kind(static_cast<v1::ActionKind>(rng() % 12));
        a.mutable_action()->set_seat(static_cast<int32_t>(rng() % 11) - 1);
        a.mutable_action()->set_amount_to(static_cast<int64_t>(rng() % 5000) - 100);
        if (rng() % 2) a.mutable_action()->set_card(RandomCard(rng));
        a.mutable_action()->set_face_up(rng() % 2);
      }
      if (rng() % 10 == 0) a.set_expected_version(rng() % 50);
      v1::ApplyActionResponse resp;
      absl::Status st = service.ApplyAction(a, &resp);
      ASSERT_TRUE(Documented(st)) << st;
      if (st.ok()) {
        ++accepted;
        u = resp.update();
      }
    }
  }
  EXPECT_GT(accepted, 100);
}

TEST(RobustnessTest, RandomStatelessShowdownsNeverCrash) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 1)});
  HandService service(&sealer, ServiceOptions{});
  std::mt19937 rng(99);
  int settled = 0;
  for (int i = 0; i < 3000; ++i) {
    v1::ResolveShowdownRequest req;
    v1::StatelessShowdown* sd = req.mutable_stateless();
    sd->set_variant(static_cast<v1::Variant>(rng() % 5));
    const int seats = static_cast<int>(rng() % 10);
    std::set<int> used;
    for (int s = 0; s < seats; ++s) {
      v1::ShowdownSeat* seat = sd->add_seats();
      seat->set_seat(static_cast<int32_t>(rng() % 10));
      const int cards = static_cast<int>(rng() % 9);
      for (int c = 0; c < cards; ++c) {
        // Mostly valid, distinct cards so that many requests get through.
        int card = static_cast<int>(rng() % 52);
        while (rng() % 8 != 0 && used.count(card)) card = static_cast<int>(rng() % 52);
        used.insert(card);
        seat->add_cards(rng() % 40 == 0 ? RandomCard(rng) : Card::FromIndex(card).ToString());
      }
      seat->set_contribution(static_cast<int64_t>(rng() % 3000) - (rng() % 50 == 0 ? 5000 : 0));
      seat->set_folded(rng() % 4 == 0);
    }
    if (rng() % 10 == 0) sd->set_common_card(RandomCard(rng));
    v1::ResolveShowdownResponse resp;
    absl::Status st = service.ResolveShowdown(req, &resp);
    ASSERT_TRUE(Documented(st)) << st << "\n" << req.ShortDebugString();
    if (st.ok()) {
      ++settled;
      int64_t won = 0, pots = 0;
      for (const auto& [seat, amount] : resp.won()) won += amount;
      for (const auto& p : resp.pots()) pots += p.amount();
      ASSERT_EQ(won, pots) << req.ShortDebugString();
    }
  }
  EXPECT_GT(settled, 10);  // most random inputs are refused; some must settle
}

TEST(RobustnessTest, GarbageTokensGetTokenErrors) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 1)});
  HandService service(&sealer, ServiceOptions{});
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) {
    std::string token(rng() % 200, '\0');
    for (char& c : token) c = static_cast<char>(rng());
    if (token.size() > 3 && rng() % 2) token.replace(0, 3, "SK\x01");
    v1::GetViewRequest req;
    req.set_token(token);
    v1::GetViewResponse resp;
    absl::Status st = service.GetView(req, &resp);
    ASSERT_TRUE(st.code() == absl::StatusCode::kUnauthenticated ||
                (token.empty() && st.code() == absl::StatusCode::kInvalidArgument))
        << st;
  }
}

}  // namespace
}  // namespace stud::service::testing
