// Token format 3 (service/token/sealer.h): SipHash-derived 128-bit nonce, optional
// tenant in the header. Layout, the documented nonce derivation (recomputed
// here independently), determinism, tamper and truncation refusal, tenant
// binding, and that every format opens whichever format a sealer seals.
#include <sodium.h>

#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "service/token/sealer.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;

using testing::ExpectEveryAlterationRefused;
using testing::TestKey;

class SealerFormat3Test : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(InitCrypto(), IsOk()); }
  const std::string plain_ = "the hand state: seat 1 holds As Kd, seat 2 holds 7c 7h";
};

TEST_F(SealerFormat3Test, LayoutAndRoundTrip) {
  Sealer s = *Sealer::Create({TestKey(0x01020304, 1)}, kSipTokenFormat);
  for (const std::string tenant : {"", "acme"}) {
    const std::string token = s.Seal(plain_, tenant);
    ASSERT_EQ(token.size(),
              8 + tenant.size() + kSipTokenNonceBytes + kTokenTagBytes + plain_.size());
    EXPECT_EQ(token.substr(0, 7), std::string("SK\x03\x01\x02\x03\x04", 7));
    EXPECT_EQ(static_cast<uint8_t>(token[7]), tenant.size());
    EXPECT_EQ(token.substr(8, tenant.size()), tenant);
    EXPECT_EQ(token.find("seat 1 holds"), std::string::npos);
    absl::StatusOr<std::string> back = s.Open(token, tenant);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, plain_);
  }
}

TEST_F(SealerFormat3Test, NonceIsSipHashOfHeaderAndPlaintextUnderTheKdfSubkey) {
  const Key key = TestKey(7, 9);
  Sealer s = *Sealer::Create({key}, kSipTokenFormat);
  const std::string token = s.Seal(plain_, "t1");
  uint8_t subkey[16];
  crypto_kdf_derive_from_key(subkey, sizeof(subkey), 2, "studnonc", key.bytes.data());
  const std::string input = token.substr(0, 10) + plain_;  // header "SK" 3 id(4) L=2 "t1"
  uint8_t nonce[16];
  crypto_shorthash_siphashx24(nonce, reinterpret_cast<const uint8_t*>(input.data()), input.size(),
                              subkey);
  EXPECT_EQ(token.substr(10, 16), std::string(reinterpret_cast<const char*>(nonce), 16));
}

TEST_F(SealerFormat3Test, DeterministicAndDistinct) {
  Sealer s = *Sealer::Create({TestKey(1, 1)}, kSipTokenFormat);
  EXPECT_EQ(s.Seal(plain_), s.Seal(plain_));
  EXPECT_NE(s.Seal(plain_).substr(8, 16), s.Seal(plain_ + ".").substr(8, 16));
  EXPECT_NE(s.Seal(plain_, "a").substr(9, 16), s.Seal(plain_, "b").substr(9, 16));
}

TEST_F(SealerFormat3Test, EveryAlteredByteAndEveryTruncationIsRefused) {
  Sealer s = *Sealer::Create({TestKey(1, 1)}, kSipTokenFormat);
  for (const std::string tenant : {"", "acme"}) {
    ExpectEveryAlterationRefused(s, s.Seal(plain_, tenant), tenant);
  }
}

TEST_F(SealerFormat3Test, BoundToItsTenant) {
  Sealer s = *Sealer::Create({TestKey(1, 1)}, kSipTokenFormat);
  absl::StatusOr<std::string> other = s.Open(s.Seal(plain_, "acme"), "globex");
  ASSERT_THAT(other, ::testing::Not(IsOk()));
  EXPECT_EQ(TokenErrorReasonOf(other.status()), "TOKEN_TENANT_MISMATCH");
  EXPECT_EQ(TokenErrorReasonOf(s.Open(s.Seal(plain_, "acme"), "").status()),
            "TOKEN_TENANT_MISMATCH");
  EXPECT_EQ(TokenErrorReasonOf(s.Open(s.Seal(plain_), "acme").status()), "TOKEN_TENANT_MISMATCH");
}

TEST_F(SealerFormat3Test, EveryFormatOpensWhicheverFormatSeals) {
  Sealer legacy = *Sealer::Create({TestKey(1, 1)}, kTokenFormat);
  Sealer fast = *Sealer::Create({TestKey(1, 1)}, kSipTokenFormat);
  for (const std::string tenant : {"", "acme"}) {
    const std::string old_token = legacy.Seal(plain_, tenant);
    EXPECT_EQ(old_token[2], tenant.empty() ? kTokenFormat : kTenantTokenFormat);
    EXPECT_EQ(*fast.Open(old_token, tenant), plain_);
    EXPECT_EQ(*legacy.Open(fast.Seal(plain_, tenant), tenant), plain_);
  }
}

TEST_F(SealerFormat3Test, FormatTwoIsNeverASealerFormat) {
  // Format 2 is format 1 with a tenant: chosen per call, not per sealer.
  EXPECT_THAT(Sealer::Create({TestKey(1, 1)}, kTenantTokenFormat), ::testing::Not(IsOk()));
}

}  // namespace
}  // namespace stud::service
