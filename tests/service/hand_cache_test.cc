// Hands kept decoded between calls (service/token/hand_cache.h): a service
// with the cache answers every call byte for byte as one without it, over
// many random hands of every variant and dealing mode (SERVICE, some waiting
// for their players' seeds first, PRESET, LIVE), with reads, refused actions and calls of another
// tenant between the actions, and the cache is really used (most actions find their hand). Then the
// cache alone: exact bytes and tenant, bounded size, off at 0.
#include "service/token/hand_cache.h"

#include <memory>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hidden_info.h"
#include "service/rpc/hand_service.h"
#include "service/token/sealer.h"
#include "service_fixture.h"

namespace stud::service {
namespace {
namespace v1 = stud::v1;
using ::stud::service::testing::BasicHand;
using ::stud::service::testing::TestKey;

// Two services over one key ring, one keeping hands: every request goes to
// both, and their answers must be the same bytes.
class KeptAndOpened : public ::testing::Test {
 protected:
  KeptAndOpened()
      : sealer_(*Sealer::Create({TestKey(1, 5)}, kDerivedTokenFormat)),
        cache_(64),
        kept_(&sealer_, ServiceOptions{.allow_preset = true, .hand_cache = &cache_}),
        opened_(&sealer_, ServiceOptions{.allow_preset = true}) {}

  // The status of both calls, which must agree; the answer of both, which
  // must be the same bytes.
  template <typename Req, typename Resp, typename Method>
  absl::Status Both(Method method, const Req& req, Resp* resp, absl::string_view tenant) {
    const CallContext call{.tenant = tenant};
    Resp other;
    const absl::Status st = (kept_.*method)(req, resp, call);
    const absl::Status st_opened = (opened_.*method)(req, &other, call);
    EXPECT_EQ(st, st_opened);
    EXPECT_EQ(resp->SerializeAsString(), other.SerializeAsString());
    return st;
  }

  Sealer sealer_;
  HandCache cache_;
  HandService kept_;
  HandService opened_;
};

// The next action of a hand: a card reported for a LIVE deal (the first the
// hand has not seen, in deck order), else a random legal action.
v1::Action NextAction(const v1::HandUpdate& u, const Sealer& sealer, absl::string_view tenant,
                      std::mt19937_64& rng) {
  for (const v1::LegalAction& la : u.legal_actions()) {
    if (la.kind() == v1::ACTION_KIND_DEAL || la.kind() == v1::ACTION_KIND_BURN ||
        la.kind() == v1::ACTION_KIND_RESHUFFLE) {
      std::vector<Card> deck;
      for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
      absl::StatusOr<std::string> plain = sealer.Open(u.token(), tenant);
      EXPECT_TRUE(plain.ok());
      return testing::LiveDeal(u, ParseSealedHand(plain.value_or(""))->state, deck);
    }
  }
  const v1::LegalAction& legal =
      u.legal_actions(static_cast<int>(rng() % static_cast<uint64_t>(u.legal_actions_size())));
  v1::Action a;
  a.set_kind(legal.kind());
  a.set_seat(u.to_act());
  a.set_amount_to(legal.amount_to());
  return a;
}

TEST_F(KeptAndOpened, EveryAnswerIsTheSameBytesAsWithoutKeptHands) {
  ASSERT_TRUE(InitCrypto().ok());
  std::mt19937_64 rng(31);
  const v1::Variant variants[] = {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ};
  const v1::DealingMode modes[] = {v1::DEALING_MODE_SERVICE, v1::DEALING_MODE_SERVICE,
                                   v1::DEALING_MODE_PRESET, v1::DEALING_MODE_LIVE};
  int actions = 0;
  for (int h = 0; h < 120; ++h) {
    v1::NewHandRequest nh =
        BasicHand(2 + static_cast<int>(rng() % 7), modes[h % 4], variants[h % 3]);
    const std::string tenant = absl::StrCat("tenant-", h % 2);
    // Some SERVICE hands wait for their players' seeds first [STUD-DEAL-6]:
    // the hand NewHand answers with is then one in its seeding phase.
    const bool seeded = h % 8 == 1;
    nh.mutable_fairness()->set_player_seeds(seeded);
    v1::NewHandResponse dealt;  // dealt once (the deck is random): the kept service's hand
    ASSERT_TRUE(kept_.NewHand(nh, &dealt, CallContext{.tenant = tenant}).ok());
    v1::HandUpdate u = dealt.update();
    for (int seat = 1; seeded && seat <= nh.seats_size(); ++seat) {
      v1::ApplyActionRequest req;
      req.set_token(u.token());
      req.mutable_action()->set_kind(v1::ACTION_KIND_SEED);
      req.mutable_action()->set_seat(seat);
      req.mutable_action()->set_seed(absl::StrCat("seed of seat ", seat));
      v1::ApplyActionResponse resp;
      ASSERT_TRUE(Both(&HandService::ApplyAction, req, &resp, tenant).ok()) << "seat " << seat;
      u = resp.update();
    }
    ASSERT_GT(u.legal_actions_size(), 0) << "hand " << h << " did not start";
    while (u.legal_actions_size() > 0) {  // until the hand is complete
      SCOPED_TRACE(absl::StrCat("hand ", h, " version ", u.version()));
      const v1::Action action = NextAction(u, sealer_, tenant, rng);
      const uint64_t roll = rng() % 10;
      if (roll == 0) {  // a read between actions (kept again under the same token)
        v1::LegalActionsRequest la;
        la.set_token(u.token());
        la.set_seat(u.to_act());
        v1::LegalActionsResponse resp;
        ASSERT_TRUE(Both(&HandService::LegalActions, la, &resp, tenant).ok());
      } else if (roll == 1) {
        v1::GetViewRequest gv;
        gv.set_token(u.token());
        if (u.to_act() != 0) gv.add_private_view_seats(u.to_act());
        v1::GetViewResponse resp;
        ASSERT_TRUE(Both(&HandService::GetView, gv, &resp, tenant).ok());
      } else if (roll == 2) {  // another tenant's call on this token: refused alike
        v1::ApplyActionRequest other;
        other.set_token(u.token());
        *other.mutable_action() = action;
        v1::ApplyActionResponse resp;
        EXPECT_EQ(Both(&HandService::ApplyAction, other, &resp, "someone-else").code(),
                  absl::StatusCode::kPermissionDenied);
      } else if (roll == 3) {  // an action out of turn: refused alike
        v1::ApplyActionRequest wrong;
        wrong.set_token(u.token());
        wrong.mutable_action()->set_kind(v1::ACTION_KIND_CALL);
        wrong.mutable_action()->set_seat(u.to_act() % nh.seats_size() + 1);
        v1::ApplyActionResponse resp;
        EXPECT_FALSE(Both(&HandService::ApplyAction, wrong, &resp, tenant).ok());
      }
      v1::ApplyActionRequest req;
      req.set_token(u.token());
      *req.mutable_action() = action;
      if (rng() % 4 == 0) req.set_detail(v1::UPDATE_DETAIL_CHANGES);
      v1::ApplyActionResponse resp;
      ASSERT_TRUE(Both(&HandService::ApplyAction, req, &resp, tenant).ok());
      ++actions;
      u = resp.update();
    }
  }
  // The cache was used: every action whose token was not read or refused
  // just before found its hand (the refusals above take it out), so most
  // did; a cache that never kept or never found would fail here.
  const HandCache::Counts counts = cache_.counts();
  EXPECT_GT(counts.hits, static_cast<uint64_t>(actions) * 7 / 10) << actions << " actions";
  EXPECT_GT(counts.misses, 0U);
}

TEST_F(KeptAndOpened, AnotherTenantsCallLeavesTheHandKeptForItsOwn) {
  ASSERT_TRUE(InitCrypto().ok());
  v1::NewHandResponse dealt;
  ASSERT_TRUE(
      kept_.NewHand(BasicHand(3, v1::DEALING_MODE_SERVICE), &dealt, CallContext{.tenant = "acme"})
          .ok());
  v1::ApplyActionRequest req;
  req.set_token(dealt.update().token());
  req.mutable_action()->set_kind(dealt.update().legal_actions(0).kind());
  req.mutable_action()->set_seat(dealt.update().to_act());
  req.mutable_action()->set_amount_to(dealt.update().legal_actions(0).amount_to());
  v1::ApplyActionResponse resp;
  const absl::Status other = kept_.ApplyAction(req, &resp, CallContext{.tenant = "globex"});
  EXPECT_EQ(other.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(TokenErrorReasonOf(other), "TOKEN_TENANT_MISMATCH");
  const uint64_t hits = cache_.counts().hits;
  EXPECT_TRUE(kept_.ApplyAction(req, &resp, CallContext{.tenant = "acme"}).ok());
  EXPECT_EQ(cache_.counts().hits, hits + 1);
}

TEST_F(KeptAndOpened, AnAlteredTokenIsRefusedAsWithoutTheCache) {
  ASSERT_TRUE(InitCrypto().ok());
  v1::NewHandResponse dealt;
  ASSERT_TRUE(kept_.NewHand(BasicHand(3, v1::DEALING_MODE_SERVICE), &dealt).ok());
  const std::string token = dealt.update().token();
  // A byte inside, and one of the tail that indexes the cache.
  for (size_t at : {token.size() / 2, token.size() - 1}) {
    std::string altered = token;
    altered[at] = static_cast<char>(altered[at] ^ 0x01);
    v1::LegalActionsRequest req;
    req.set_token(altered);
    v1::LegalActionsResponse resp;
    const absl::Status st = Both(&HandService::LegalActions, req, &resp, "");
    EXPECT_EQ(st.code(), absl::StatusCode::kUnauthenticated) << at;
    EXPECT_EQ(TokenErrorReasonOf(st), "TOKEN_AUTHENTICATION_FAILED") << at;
  }
  EXPECT_EQ(cache_.counts().hits, 0U);
}

// The cache alone, with hands told apart by their version.
std::unique_ptr<SealedHand> HandOfVersion(uint64_t version) {
  auto hand = std::make_unique<SealedHand>();
  hand->state.version = version;
  return hand;
}

// At least a tag's length, and a tail (the cache's index) of its own.
std::string TokenOf(int i) {
  return absl::StrCat("the token of hand ",
                      absl::Hex(static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15U, absl::kZeroPad16));
}

TEST(HandCache, FindsExactlyTheBytesAndTenantItKept) {
  HandCache cache(8);
  std::string digest;
  auto hand = HandOfVersion(7);
  cache.Keep(TokenOf(1), "acme", &hand, "");
  std::unique_ptr<SealedHand> found = HandOfVersion(0);
  EXPECT_FALSE(cache.Take(TokenOf(1), "globex", &found, &digest));  // another tenant
  std::string near = TokenOf(1);
  near[3] = 'X';  // the same tail (the index), other bytes
  EXPECT_FALSE(cache.Take(near, "acme", &found, &digest));
  EXPECT_EQ(found->state.version, 0U);
  ASSERT_TRUE(cache.Take(TokenOf(1), "acme", &found, &digest));
  EXPECT_EQ(found->state.version, 7U);
  EXPECT_FALSE(cache.Take(TokenOf(1), "acme", &found, &digest));  // taken: it left the cache
  EXPECT_FALSE(cache.Take("short", "acme", &found, &digest));     // shorter than a tag
  const HandCache::Counts counts = cache.counts();
  EXPECT_EQ(counts.hits, 1U);
  EXPECT_EQ(counts.misses, 3U);  // the short token is not looked up
}

TEST(HandCache, HoldsAtMostItsCapacity) {
  HandCache cache(8);
  std::string digest;
  for (int i = 0; i < 100; ++i) {
    auto hand = HandOfVersion(static_cast<uint64_t>(i));
    cache.Keep(TokenOf(i), "", &hand, "");
  }
  int found = 0;
  for (int i = 0; i < 100; ++i) {
    auto hand = HandOfVersion(1000);
    if (cache.Take(TokenOf(i), "", &hand, &digest)) {
      ++found;
      EXPECT_EQ(hand->state.version, static_cast<uint64_t>(i));
    }
  }
  EXPECT_LE(found, 8);
  EXPECT_GT(found, 0);
  EXPECT_EQ(cache.counts().evictions, static_cast<uint64_t>(100 - found));
}

TEST(HandCache, KeptAgainReplacesTheEntry) {
  HandCache cache(4);
  std::string digest;
  auto first = HandOfVersion(1);
  cache.Keep(TokenOf(1), "", &first, "");
  auto second = HandOfVersion(2);
  cache.Keep(TokenOf(1), "", &second, "");
  auto found = HandOfVersion(0);
  ASSERT_TRUE(cache.Take(TokenOf(1), "", &found, &digest));
  EXPECT_EQ(found->state.version, 2U);
  EXPECT_FALSE(cache.Take(TokenOf(1), "", &found, &digest));
}

// The ledger's digest of a token travels with the hand kept as that token:
// found with it, replaced with it, and "" for a hand kept without one.
TEST(HandCache, KeepsTheLedgerDigestWithTheHand) {
  HandCache cache(4);
  auto hand = HandOfVersion(1);
  cache.Keep(TokenOf(1), "", &hand, "digest of token 1");
  hand = HandOfVersion(2);
  cache.Keep(TokenOf(2), "", &hand, "");
  std::string digest = "left from the last call";
  auto found = HandOfVersion(0);
  ASSERT_TRUE(cache.Take(TokenOf(1), "", &found, &digest));
  EXPECT_EQ(found->state.version, 1U);
  EXPECT_EQ(digest, "digest of token 1");
  ASSERT_TRUE(cache.Take(TokenOf(2), "", &found, &digest));
  EXPECT_EQ(digest, "");
  // Kept again under the same token: the new digest replaces the old.
  hand = HandOfVersion(3);
  cache.Keep(TokenOf(3), "", &hand, "first");
  hand = HandOfVersion(4);
  cache.Keep(TokenOf(3), "", &hand, "second");
  ASSERT_TRUE(cache.Take(TokenOf(3), "", &found, &digest));
  EXPECT_EQ(found->state.version, 4U);
  EXPECT_EQ(digest, "second");
  // A miss leaves it alone.
  EXPECT_FALSE(cache.Take(TokenOf(9), "", &found, &digest));
  EXPECT_EQ(digest, "second");
}

TEST(HandCache, OffAtZero) {
  HandCache cache(0);
  std::string digest;
  auto hand = HandOfVersion(1);
  cache.Keep(TokenOf(1), "", &hand, "");
  ASSERT_NE(hand, nullptr);  // not taken
  EXPECT_FALSE(cache.Take(TokenOf(1), "", &hand, &digest));
  EXPECT_EQ(cache.counts().hits + cache.counts().misses, 0U);
}

}  // namespace
}  // namespace stud::service
