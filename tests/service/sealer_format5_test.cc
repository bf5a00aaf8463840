// Token format 5 (service/token/sealer.h): AES-256-GCM-SIV under a subkey of
// the ring key, the tenant named by a keyed tag instead of its id.
#include <sodium.h>

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "service/token/gcm_siv.h"
#include "service/token/sealer.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

using testing::TestKey;

class Format5 : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(InitCrypto(), IsOk()); }
  Sealer sealer_ = [] {
    EXPECT_THAT(InitCrypto(), IsOk());
    return *Sealer::Create({TestKey(9, 3)}, kDerivedTokenFormat);
  }();
  const std::string hand_id_ = std::string("0123456789abcdef");
  const std::string plain_ = std::string(315, 'p');
};

constexpr size_t kHeader = 15, kNonce = 12;

TEST_F(Format5, RoundTripsWithAndWithoutATenantAndIsDeterministic) {
  for (const char* tenant : {"", "acme", "a-tenant-with-a-long-name-0123456789"}) {
    const std::string token = sealer_.Seal(plain_, tenant, hand_id_);
    EXPECT_EQ(token[2], kDerivedTokenFormat);
    // Fixed header whatever the tenant: its length says nothing about the name.
    EXPECT_EQ(token.size(), kHeader + kNonce + plain_.size() + 16) << tenant;
    EXPECT_EQ(token.substr(kHeader, kNonce), hand_id_.substr(0, kNonce));
    EXPECT_EQ(sealer_.Seal(plain_, tenant, hand_id_), token);
    absl::StatusOr<std::string> opened = sealer_.Open(token, tenant);
    ASSERT_THAT(opened, IsOk());
    EXPECT_EQ(*opened, plain_);
  }
}

// The AEAD key is a subkey: the raw ring key (what format 4 uses) does not
// open a format 5 ciphertext, the crypto_kdf subkey documented in sealer.h
// does, and a format 5 token relabelled as format 4 does not open.
TEST_F(Format5, DoesNotOpenUnderTheRawRingKey) {
  const Key raw = TestKey(9, 3);
  const std::string token = sealer_.Seal(plain_, "", hand_id_);
  gcm_siv::Nonce nonce{};
  std::memcpy(nonce.data(), token.data() + kHeader, kNonce);
  const absl::string_view header(token.data(), kHeader);
  const absl::string_view sealed = absl::string_view(token).substr(kHeader + kNonce);
  std::string out(sealed.size() - 16, '\0');
  EXPECT_FALSE(
      gcm_siv::Open(raw.bytes, nonce, header, sealed, reinterpret_cast<uint8_t*>(out.data())));
  gcm_siv::KeyBytes subkey{};
  crypto_kdf_derive_from_key(subkey.data(), subkey.size(), 1, "studsiv5", raw.bytes.data());
  EXPECT_NE(subkey, raw.bytes);
  ASSERT_TRUE(gcm_siv::Open(subkey, nonce, header, sealed, reinterpret_cast<uint8_t*>(out.data())));
  EXPECT_EQ(out, plain_);
  // The same hand sealed in format 4 (raw key) and 5 (subkey) share nothing
  // after the header and nonce.
  Sealer format4 = *Sealer::Create({raw}, kGcmSivTokenFormat);
  const std::string token4 = format4.Seal(plain_, "", hand_id_);
  EXPECT_NE(token4.substr(8 + kNonce), token.substr(kHeader + kNonce));
  // Relabelled as format 4 (tenant length 0 where the tag was), it fails.
  std::string relabelled = token4.substr(0, 8 + kNonce) + token.substr(kHeader + kNonce);
  EXPECT_EQ(TokenErrorReasonOf(format4.Open(relabelled).status()), "TOKEN_AUTHENTICATION_FAILED");
  // And the subkey differs from the seat-ticket subkey of the same ring key.
  std::array<uint8_t, 32> ticket_subkey{};
  crypto_kdf_derive_from_key(ticket_subkey.data(), ticket_subkey.size(), 3, "studtick",
                             raw.bytes.data());
  EXPECT_NE(ticket_subkey, subkey);
}

// Scan every token's bytes for the tenant's id (and any 4 bytes of it): the
// header carries a keyed tag. Format 4, which names the tenant, is caught by
// the same scan.
TEST_F(Format5, TokensDoNotRevealTheTenantName) {
  Sealer format4 = *Sealer::Create({TestKey(9, 3)}, kGcmSivTokenFormat);
  for (const char* tenant : {"acme-poker", "tenant-a", "zz-club-77"}) {
    const std::string name = tenant;
    const std::string token = sealer_.Seal(plain_, name, hand_id_);
    for (size_t i = 0; i + 4 <= name.size(); ++i) {
      EXPECT_EQ(token.find(name.substr(i, 4)), std::string::npos) << name << " at " << i;
    }
    EXPECT_NE(format4.Seal(plain_, name, hand_id_).find(name), std::string::npos);
    // Two tenants' tags differ; one tenant's is the same on every token of a key.
    EXPECT_NE(token.substr(7, 8), sealer_.Seal(plain_, name + "x", hand_id_).substr(7, 8));
    EXPECT_EQ(token.substr(7, 8), sealer_.Seal("other", name, "").substr(7, 8));
  }
}

TEST_F(Format5, TenantMismatchIsPermissionDeniedAndNamesNoTenant) {
  const std::string token = sealer_.Seal(plain_, "acme", hand_id_);
  for (const char* other : {"", "acme2", "ACME"}) {
    const absl::Status st = sealer_.Open(token, other).status();
    EXPECT_THAT(st, StatusIs(absl::StatusCode::kPermissionDenied)) << other;
    EXPECT_EQ(TokenErrorReasonOf(st), "TOKEN_TENANT_MISMATCH");
    EXPECT_EQ(std::string(st.message()).find("acme"), std::string::npos);
  }
  const std::string untenanted = sealer_.Seal(plain_, "", hand_id_);
  EXPECT_EQ(TokenErrorReasonOf(sealer_.Open(untenanted, "acme").status()), "TOKEN_TENANT_MISMATCH");
}

TEST_F(Format5, EveryAlteredOrTruncatedTokenIsRefused) {
  const std::string token = sealer_.Seal(plain_, "acme", hand_id_);
  for (size_t i = 0; i < token.size(); ++i) {
    std::string bad = token;
    bad[i] = static_cast<char>(bad[i] ^ 0x01);
    const absl::Status st = sealer_.Open(bad, "acme").status();
    ASSERT_THAT(st, ::testing::Not(IsOk())) << "byte " << i;
    // The tenant tag is authenticated: flipping it is a forgery, not a mismatch.
    if (i >= 7) {
      EXPECT_EQ(TokenErrorReasonOf(st), "TOKEN_AUTHENTICATION_FAILED") << "byte " << i;
    }
  }
  for (size_t len : {size_t{0}, size_t{3}, kHeader, kHeader + kNonce + 15, token.size() - 1}) {
    EXPECT_THAT(sealer_.Open(token.substr(0, len), "acme"), ::testing::Not(IsOk())) << len;
  }
}

// Key rotation: a format 5 token of the old key opens in a ring that seals
// with the new one, and every other format still opens in a format 5 ring.
TEST_F(Format5, RotationAndOlderFormatsOpen) {
  Sealer rotated = *Sealer::Create({TestKey(9, 3), TestKey(10, 50)}, kDerivedTokenFormat);
  EXPECT_EQ(rotated.sealing_key_id(), 10u);
  const std::string old_token = sealer_.Seal(plain_, "acme", hand_id_);
  ASSERT_THAT(rotated.Open(old_token, "acme"), IsOk());
  EXPECT_NE(rotated.Seal(plain_, "acme", hand_id_).substr(7, 8), old_token.substr(7, 8));
  for (uint8_t format : {kTokenFormat, kSipTokenFormat, kGcmSivTokenFormat}) {
    Sealer older = *Sealer::Create({TestKey(9, 3)}, format);
    for (const char* tenant : {"", "acme"}) {
      absl::StatusOr<std::string> opened =
          rotated.Open(older.Seal(plain_, tenant, hand_id_), tenant);
      ASSERT_THAT(opened, IsOk()) << int{format} << " " << opened.status();
      EXPECT_EQ(*opened, plain_);
    }
  }
  EXPECT_THAT(Sealer::Create({TestKey(1, 1)}, 6), ::testing::Not(IsOk()));
}

// Each thread keeps the last tenant tag it computed: sealers with the same key
// id but other key bytes, made and dropped one after another (so that one may
// reuse another's memory), never see each other's tag.
TEST_F(Format5, TheKeptTenantTagNeverCrossesSealers) {
  for (int round = 0; round < 20; ++round) {
    Sealer a = *Sealer::Create({TestKey(9, static_cast<uint8_t>(round))}, kDerivedTokenFormat);
    const std::string token = a.Seal(plain_, "acme", hand_id_);
    ASSERT_THAT(a.Open(token, "acme"), IsOk()) << round;
    Sealer b =
        *Sealer::Create({TestKey(9, static_cast<uint8_t>(round + 100))}, kDerivedTokenFormat);
    const std::string other = b.Seal(plain_, "acme", hand_id_);
    EXPECT_NE(other.substr(7, 8), token.substr(7, 8)) << round;
    ASSERT_THAT(b.Open(other, "acme"), IsOk()) << round;
    EXPECT_THAT(b.Open(token, "acme"), ::testing::Not(IsOk())) << round;
  }
}

}  // namespace
}  // namespace stud::service
