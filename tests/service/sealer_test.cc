// The sealer: round trip, determinism, each documented error class, and key
// rotation (old keys open, the newest seals).
#include "service/token/sealer.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "service_fixture.h"
#include "tests/testing/status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

using testing::TestKey;

class SealerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(InitCrypto(), IsOk()); }
  const std::string plain_ = "the hand state: seat 1 holds As Kd";
};

TEST_F(SealerTest, RoundTripsAndHidesThePlaintext) {
  Sealer s = *Sealer::Create({TestKey(1, 1)});
  const std::string token = s.Seal(plain_);
  EXPECT_EQ(token.size(), plain_.size() + kTokenOverhead);
  EXPECT_EQ(token.find("As Kd"), std::string::npos);
  absl::StatusOr<std::string> opened = s.Open(token);
  ASSERT_THAT(opened, IsOk());
  EXPECT_EQ(*opened, plain_);
}

TEST_F(SealerTest, SealingIsDeterministicPerKeyAndPlaintext) {
  Sealer s = *Sealer::Create({TestKey(1, 1)});
  EXPECT_EQ(s.Seal(plain_), s.Seal(plain_));
  EXPECT_NE(s.Seal(plain_), s.Seal(plain_ + "x"));
  Sealer other = *Sealer::Create({TestKey(1, 2)});
  EXPECT_NE(s.Seal(plain_).substr(kTokenHeaderBytes), other.Seal(plain_).substr(kTokenHeaderBytes));
}

TEST_F(SealerTest, EveryFlippedBitOutsideTheHeaderFailsAuthentication) {
  Sealer s = *Sealer::Create({TestKey(1, 1)});
  const std::string token = s.Seal(plain_);
  for (size_t byte = kTokenHeaderBytes; byte < token.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = token;
      bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
      absl::Status st = s.Open(bad).status();
      ASSERT_THAT(st, StatusIs(absl::StatusCode::kUnauthenticated)) << byte << ":" << bit;
      ASSERT_EQ(TokenErrorReasonOf(st), "TOKEN_AUTHENTICATION_FAILED") << byte << ":" << bit;
    }
  }
}

TEST_F(SealerTest, HeaderDamageHasItsOwnErrors) {
  Sealer s = *Sealer::Create({TestKey(1, 1)});
  const std::string token = s.Seal(plain_);
  std::string bad_magic = token;
  bad_magic[0] = 'X';
  EXPECT_EQ(TokenErrorReasonOf(s.Open(bad_magic).status()), "TOKEN_MALFORMED");
  std::string bad_version = token;
  bad_version[2] = 9;
  EXPECT_EQ(TokenErrorReasonOf(s.Open(bad_version).status()), "TOKEN_VERSION_UNSUPPORTED");
  std::string other_key = token;
  other_key[6] = 2;  // key id 2: not in the ring
  absl::Status st = s.Open(other_key).status();
  EXPECT_EQ(TokenErrorReasonOf(st), "TOKEN_UNKNOWN_KEY");
  EXPECT_NE(st.message().find("key id 2"), absl::string_view::npos) << st;
}

TEST_F(SealerTest, TruncationIsMalformedOrUnauthenticated) {
  Sealer s = *Sealer::Create({TestKey(1, 1)});
  const std::string token = s.Seal(plain_);
  for (size_t len = 0; len < token.size(); ++len) {
    absl::Status st = s.Open(token.substr(0, len)).status();
    ASSERT_THAT(st, StatusIs(absl::StatusCode::kUnauthenticated)) << len;
    ASSERT_EQ(TokenErrorReasonOf(st),
              len < kTokenOverhead ? "TOKEN_MALFORMED" : "TOKEN_AUTHENTICATION_FAILED")
        << len;
  }
  // Extra bytes appended are also caught by the tag.
  EXPECT_EQ(TokenErrorReasonOf(s.Open(token + "z").status()), "TOKEN_AUTHENTICATION_FAILED");
}

TEST_F(SealerTest, UnknownKeyIsDistinctFromForgery) {
  Sealer a = *Sealer::Create({TestKey(1, 1)});
  Sealer b = *Sealer::Create({TestKey(5, 1)});
  EXPECT_EQ(TokenErrorReasonOf(b.Open(a.Seal(plain_)).status()), "TOKEN_UNKNOWN_KEY");
  // Same id, different secret: the server cannot tell, so it is an auth failure.
  Sealer c = *Sealer::Create({TestKey(1, 2)});
  EXPECT_EQ(TokenErrorReasonOf(c.Open(a.Seal(plain_)).status()), "TOKEN_AUTHENTICATION_FAILED");
}

TEST_F(SealerTest, RotationOldKeysOpenNewestSeals) {
  Sealer old_ring = *Sealer::Create({TestKey(1, 1)});
  Sealer rotated =
      *Sealer::Create({TestKey(2, 2), TestKey(1, 1)});  // any order; newest = largest id
  EXPECT_EQ(rotated.sealing_key_id(), 2u);
  const std::string old_token = old_ring.Seal(plain_);
  ASSERT_THAT(rotated.Open(old_token), IsOk());
  const std::string new_token = rotated.Seal(plain_);
  EXPECT_EQ(static_cast<uint8_t>(new_token[6]), 2);
  EXPECT_EQ(TokenErrorReasonOf(old_ring.Open(new_token).status()), "TOKEN_UNKNOWN_KEY");
  Sealer retired = *Sealer::Create({TestKey(2, 2)});
  EXPECT_EQ(TokenErrorReasonOf(retired.Open(old_token).status()), "TOKEN_UNKNOWN_KEY");
}

// Three-step rotation: while the new key is open-only, a replica that already
// holds it opens its tokens but keeps sealing with the old key; after the
// promotion every replica (promoted or not yet) opens what any other seals.
TEST_F(SealerTest, OpenOnlyKeyOpensButNeverSeals) {
  Key incoming = TestKey(2, 2);
  incoming.seals = false;
  Sealer before = *Sealer::Create({TestKey(1, 1)});
  Sealer added = *Sealer::Create({TestKey(1, 1), incoming});
  Sealer promoted = *Sealer::Create({TestKey(1, 1), TestKey(2, 2)});
  EXPECT_EQ(added.sealing_key_id(), 1u);
  EXPECT_EQ(added.Seal(plain_), before.Seal(plain_)) << "an open-only key changes nothing sealed";
  const std::string new_token = promoted.Seal(plain_);
  EXPECT_EQ(static_cast<uint8_t>(new_token[6]), 2);
  absl::StatusOr<std::string> opened = added.Open(new_token);
  ASSERT_THAT(opened, IsOk());
  EXPECT_EQ(*opened, plain_);
  ASSERT_THAT(promoted.Open(added.Seal(plain_)), IsOk());
  EXPECT_THAT(Sealer::Create({incoming}), ::testing::Not(IsOk()))
      << "a ring must hold a key that seals";
}

TEST_F(SealerTest, KeyRingRejectsDuplicatesAndEmpty) {
  EXPECT_THAT(Sealer::Create({}), ::testing::Not(IsOk()));
  EXPECT_THAT(Sealer::Create({TestKey(3, 1), TestKey(3, 2)}), ::testing::Not(IsOk()));
}

TEST_F(SealerTest, ParsesKeyTextAndNamesBadEntries) {
  const std::string text =
      "# ring\n" + FormatKey(TestKey(1, 0xab)) + "\n" + FormatKey(TestKey(7, 0x01)) + ", # next\n";
  absl::StatusOr<std::vector<Key>> keys = ParseKeys(text);
  ASSERT_THAT(keys, IsOk());
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[1].id, 7u);
  EXPECT_EQ((*keys)[0].bytes[31], 0xab);
  EXPECT_THAT(ParseKeys(""), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseKeys("1:abcd"), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseKeys("0:" + std::string(64, 'a')), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseKeys("x:" + std::string(64, 'a')), ::testing::Not(IsOk()));
  EXPECT_THAT(ParseKeys("1:" + std::string(64, 'g')), ::testing::Not(IsOk()));
  absl::StatusOr<std::vector<Key>> marked = ParseKeys("3:" + std::string(64, 'a') + ":open");
  ASSERT_THAT(marked, IsOk());
  EXPECT_FALSE((*marked)[0].seals);
  EXPECT_EQ(FormatKey((*marked)[0]), "3:" + std::string(64, 'a') + ":open");
  EXPECT_TRUE((*ParseKeys(FormatKey(TestKey(4, 4))))[0].seals);
  EXPECT_EQ(ParseKeys("3:" + std::string(64, 'a') + ":seal").status().message(),
            "keys: key 3 has an unknown mark (only \":open\", a key that opens but never seals)");
}

TEST_F(SealerTest, LoadsKeysFromFileThenEnvironment) {
  const std::string path = ::testing::TempDir() + "/stud_keys_test.txt";
  {
    std::ofstream f(path);
    f << FormatKey(TestKey(4, 4)) << "\n";
  }
  absl::StatusOr<std::vector<Key>> from_file = LoadKeys(path);
  ASSERT_THAT(from_file, IsOk());
  EXPECT_EQ(from_file->at(0).id, 4u);
  EXPECT_EQ(LoadKeys(path + ".missing").status().code(), absl::StatusCode::kNotFound);

  ::setenv("STUD_KEYS", FormatKey(TestKey(9, 9)).c_str(), 1);
  absl::StatusOr<std::vector<Key>> from_env = LoadKeys("");
  ::unsetenv("STUD_KEYS");
  ASSERT_THAT(from_env, IsOk());
  EXPECT_EQ(from_env->at(0).id, 9u);
  EXPECT_TRUE(LoadKeys("")->empty());
}

TEST_F(SealerTest, EphemeralKeysDiffer) {
  Key a = Sealer::EphemeralKey();
  Key b = Sealer::EphemeralKey();
  EXPECT_NE(a.id, 0u);
  EXPECT_NE(a.bytes, b.bytes);
}

}  // namespace
}  // namespace stud::service
