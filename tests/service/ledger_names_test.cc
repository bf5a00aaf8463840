// How the hand ledger names tokens (--ledger_token_names; trust/ledger.h,
// TokenNaming): a token of format 4 or 5 by its AES-GCM-SIV tag, or any token
// by its BLAKE2b digest. Replicas of either naming share one redis-server
// while a fleet switches: each continues the other's hands, the exact retry
// of a call on the other replica gets the identical answer, and stale tokens
// and forks are refused whatever names the entry holds.
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "ledger_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;

TEST(TokenNames, ATagNameIsTheGcmSivTagAndOtherFormatsKeepTheirDigest) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const absl::StatusOr<Sealer> siv = Sealer::Create({TestKey(1, 7)}, kDerivedTokenFormat);
  const absl::StatusOr<Sealer> xchacha = Sealer::Create({TestKey(1, 7)}, kTokenFormat);
  ASSERT_THAT(siv, IsOk());
  ASSERT_THAT(xchacha, IsOk());
  const std::string hand_id(16, '\x5a');
  const std::string a = siv->Seal("state a", "", hand_id);
  const std::string b = siv->Seal("state b", "", hand_id);

  const std::string tag = TokenName(a, TokenNaming::kTag);
  EXPECT_EQ(tag, "g" + absl::BytesToHexString(a.substr(a.size() - 16)));
  EXPECT_EQ(NamingOf(tag), TokenNaming::kTag);
  EXPECT_NE(TokenName(b, TokenNaming::kTag), tag);
  EXPECT_EQ(TokenName(siv->Seal("state a", "", hand_id), TokenNaming::kTag), tag)
      << "sealing is deterministic, and so is the name";

  EXPECT_EQ(TokenName(a, TokenNaming::kDigest), TokenDigest(a));
  EXPECT_EQ(NamingOf(TokenDigest(a)), TokenNaming::kDigest);
  // Format 1 has no GCM-SIV tag: its digest in either naming.
  const std::string old = xchacha->Seal("state a");
  EXPECT_EQ(TokenName(old, TokenNaming::kTag), TokenDigest(old));
  EXPECT_EQ(TokenName("not a token", TokenNaming::kTag), TokenDigest("not a token"));
}

// A replica with format-5 tokens (the default) naming them as asked.
struct NamingReplica : Replica {
  NamingReplica(const RedisServer& redis, bool tag_names)
      : Replica(Named(redis, tag_names), ServiceOptions{.allow_preset = true},
                kDerivedTokenFormat) {}
  static RedisLedgerOptions Named(const RedisServer& redis, bool tag_names) {
    RedisLedgerOptions o = *ParseLedgerUrl(redis.url());
    o.tag_names = tag_names;
    return o;
  }
};

// The name in the entry of `u`'s hand ("<version>:<name>:<token>").
std::string EntryName(const RedisServer& redis, const v1::HandUpdate& u) {
  const std::string value = redis.Command("GET " + LedgerKey("", u.public_view().hand_id()));
  const size_t first = value.find(':');
  return value.substr(first + 1, value.find(':', first + 1) - first - 1);
}

TEST(TokenNames, ReplicasNamingTokensEitherWayContinueEachOthersHands) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  NamingReplica tags(redis, true), digests(redis, false);

  const v1::HandUpdate start = Start(tags.stub());
  EXPECT_EQ(EntryName(redis, start), TokenName(start.token(), TokenNaming::kTag)) << "a new hand";
  const std::vector<v1::HandUpdate> seen = PlayInTurn(tags, digests, start);  // alternate namings
  const v1::HandUpdate& u = seen.back();
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  ASSERT_GE(seen.size(), 6u);
  // Each write names the new token as the replica that made it does.
  EXPECT_EQ(
      EntryName(redis, u),
      TokenName(u.token(), (seen.size() - 1) % 2 == 1 ? TokenNaming::kDigest : TokenNaming::kTag));
  // Each call found the entry named the other way once, and nothing was refused.
  auto advances = [&](const char* result) {
    const std::string labels = absl::StrCat("op=advance,result=", result);
    return tags.Metric("stud_ledger_calls_total", labels) +
           digests.Metric("stud_ledger_calls_total", labels);
  };
  EXPECT_EQ(advances("named_otherwise"), static_cast<double>(seen.size() - 1));
  EXPECT_EQ(advances("applied"), static_cast<double>(seen.size() - 1));
  EXPECT_EQ(advances("superseded"), 0);
  // A token either replica superseded is refused by both.
  ExpectStaleOnEach({&tags, &digests}, seen[seen.size() - 3]);
}

TEST(TokenNames, TheExactRetryOnAReplicaNamingOtherwiseGetsTheSameAnswerAndForksAreRefused) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  NamingReplica tags(redis, true), digests(redis, false);
  for (bool tags_first : {true, false}) {
    Replica& first = tags_first ? static_cast<Replica&>(tags) : digests;
    Replica& other = tags_first ? static_cast<Replica&>(digests) : tags;
    const v1::HandUpdate u1 = Next(first.stub(), Start(first.stub()));
    const v1::Action a1 = ChooseAction(u1, false);
    v1::ApplyActionResponse once, again;
    ASSERT_THAT(Apply(first.stub(), u1.token(), a1, &once), IsOk());
    ASSERT_THAT(Apply(other.stub(), u1.token(), a1, &again), IsOk()) << "the exact retry";
    EXPECT_EQ(again.SerializeAsString(), once.SerializeAsString());
    EXPECT_EQ(
        EntryName(redis, once.update()),
        TokenName(once.update().token(), tags_first ? TokenNaming::kTag : TokenNaming::kDigest))
        << "the retry leaves the entry as it was";

    // Another action on the same token is a fork: refused on both replicas.
    for (const v1::LegalAction& la : u1.legal_actions()) {
      v1::Action fork;
      fork.set_seat(u1.to_act());
      fork.set_kind(la.kind());
      fork.set_amount_to(la.amount_to());
      if (fork.SerializeAsString() == a1.SerializeAsString()) continue;
      for (Replica* r : {&first, &other}) {
        v1::ApplyActionResponse resp;
        ExpectSuperseded(Apply(r->stub(), u1.token(), fork, &resp), "fork");
      }
    }
    // The latest token reads on both.
    for (Replica* r : {&first, &other}) {
      v1::GetViewRequest gr;
      gr.set_token(once.update().token());
      v1::GetViewResponse gresp;
      EXPECT_THAT(Call(r->stub(), &v1::StudService::Stub::GetView, gr, &gresp), IsOk());
    }
  }
}

}  // namespace
}  // namespace stud::service::testing
