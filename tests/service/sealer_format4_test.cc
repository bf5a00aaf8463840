// Token format 4 (service/token/sealer.h): AES-256-GCM-SIV with the hand id
// as nonce. The AEAD against RFC 8452's published vectors, the layout,
// determinism, tamper and truncation refusal, tenant binding, and that every
// format opens whichever format a sealer seals (rolling upgrades).
#include <cstring>
#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "service/token/gcm_siv.h"
#include "service/token/sealer.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;

using testing::ExpectEveryAlterationRefused;
using testing::TestKey;

class SealerFormat4Test : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(InitCrypto(), IsOk()); }
  const std::string plain_ = "the hand state: seat 1 holds As Kd, seat 2 holds 7c 7h";
  const std::string hand_id_ = "0123456789abcdef";  // 16 bytes, as NewHand makes them
};

// RFC 8452, appendix C.2 (AEAD_AES_256_GCM_SIV): key 01 00.., nonce 03 00..,
// no associated data; an empty message, then the 8-byte message 01 00...
TEST_F(SealerFormat4Test, TheAeadIsRfc8452AesGcmSiv) {
  gcm_siv::KeyBytes key{};
  key[0] = 1;
  gcm_siv::Nonce nonce{};
  nonce[0] = 3;
  std::string out(16, '\0');
  gcm_siv::Seal(key, nonce, "", "", reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(absl::BytesToHexString(out), "07f5f4169bbf55a8400cd47ea6fd400f");
  const std::string message("\x01\0\0\0\0\0\0\0", 8);
  out.assign(8 + 16, '\0');
  gcm_siv::Seal(key, nonce, "", message, reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(absl::BytesToHexString(out), "c2ef328e5c71c83b843122130f7364b761e0b97427e3df28");
  std::string back(8, '\0');
  ASSERT_TRUE(gcm_siv::Open(key, nonce, "", out, reinterpret_cast<uint8_t*>(back.data())));
  EXPECT_EQ(back, message);
}

TEST_F(SealerFormat4Test, LayoutAndRoundTrip) {
  Sealer s = *Sealer::Create({TestKey(0x01020304, 1)}, kGcmSivTokenFormat);
  for (const std::string tenant : {"", "acme"}) {
    const std::string token = s.Seal(plain_, tenant, hand_id_);
    ASSERT_EQ(token.size(), 8 + tenant.size() + gcm_siv::kNonceBytes + plain_.size() + 16);
    EXPECT_EQ(token.substr(0, 7), std::string("SK\x04\x01\x02\x03\x04", 7));
    EXPECT_EQ(static_cast<uint8_t>(token[7]), tenant.size());
    EXPECT_EQ(token.substr(8, tenant.size()), tenant);
    // The nonce is the hand id's first 12 bytes.
    EXPECT_EQ(token.substr(8 + tenant.size(), 12), hand_id_.substr(0, 12));
    EXPECT_EQ(token.find("seat 1 holds"), std::string::npos);
    absl::StatusOr<std::string> back = s.Open(token, tenant);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, plain_);
  }
  // 11 bytes shorter than format 1 (12 than format 2).
  Sealer v1 = *Sealer::Create({TestKey(0x01020304, 1)}, kTokenFormat);
  EXPECT_EQ(v1.Seal(plain_).size() - s.Seal(plain_, "", hand_id_).size(), 11u);
}

TEST_F(SealerFormat4Test, WithoutAHandIdTheNonceIsZero) {
  Sealer s = *Sealer::Create({TestKey(1, 1)}, kGcmSivTokenFormat);
  const std::string token = s.Seal(plain_);
  EXPECT_EQ(token.substr(8, 12), std::string(12, '\0'));
  EXPECT_EQ(*s.Open(token), plain_);
}

TEST_F(SealerFormat4Test, DeterministicAndDistinct) {
  Sealer s = *Sealer::Create({TestKey(1, 1)}, kGcmSivTokenFormat);
  EXPECT_EQ(s.Seal(plain_, "", hand_id_), s.Seal(plain_, "", hand_id_));
  // Under one nonce, a one-byte change of the state changes the tag and with
  // it the whole keystream: no ciphertext byte is shared by position.
  const std::string a = s.Seal(plain_, "", hand_id_);
  std::string changed = plain_;
  changed[0] = 'T';
  const std::string b = s.Seal(changed, "", hand_id_);
  ASSERT_EQ(a.size(), b.size());
  int same = 0;
  for (size_t i = 20; i < a.size(); ++i) same += a[i] == b[i] ? 1 : 0;
  EXPECT_LT(same, 8) << "of " << a.size() - 20 << " bytes";
  EXPECT_NE(s.Seal(plain_, "", hand_id_).substr(20),
            s.Seal(plain_, "", "another hand id").substr(20));
  EXPECT_NE(s.Seal(plain_, "a", hand_id_).substr(21), s.Seal(plain_, "b", hand_id_).substr(21));
}

TEST_F(SealerFormat4Test, EveryAlteredByteAndEveryTruncationIsRefused) {
  Sealer s = *Sealer::Create({TestKey(1, 1)}, kGcmSivTokenFormat);
  for (const std::string tenant : {"", "acme"}) {
    const std::string token = s.Seal(plain_, tenant, hand_id_);
    ExpectEveryAlterationRefused(s, token, tenant);
    // Past the header (nonce, ciphertext, tag), every bit is authenticated.
    for (size_t byte = 8 + tenant.size(); byte < token.size(); ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        std::string bad = token;
        bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
        ASSERT_EQ(TokenErrorReasonOf(s.Open(bad, tenant).status()), "TOKEN_AUTHENTICATION_FAILED")
            << byte << ":" << bit;
      }
    }
  }
  // The nonce is authenticated: a token moved to another hand id fails.
  std::string moved = s.Seal(plain_, "", hand_id_);
  moved.replace(8, 12, "another hand");
  EXPECT_EQ(TokenErrorReasonOf(s.Open(moved).status()), "TOKEN_AUTHENTICATION_FAILED");
}

TEST_F(SealerFormat4Test, KeysAndTenantsAreChecked) {
  Sealer a = *Sealer::Create({TestKey(1, 1)}, kGcmSivTokenFormat);
  Sealer other_id = *Sealer::Create({TestKey(2, 1)}, kGcmSivTokenFormat);
  Sealer other_key = *Sealer::Create({TestKey(1, 2)}, kGcmSivTokenFormat);
  const std::string token = a.Seal(plain_, "acme", hand_id_);
  EXPECT_EQ(TokenErrorReasonOf(other_id.Open(token, "acme").status()), "TOKEN_UNKNOWN_KEY");
  EXPECT_EQ(TokenErrorReasonOf(other_key.Open(token, "acme").status()),
            "TOKEN_AUTHENTICATION_FAILED");
  EXPECT_EQ(TokenErrorReasonOf(a.Open(token, "globex").status()), "TOKEN_TENANT_MISMATCH");
  EXPECT_EQ(TokenErrorReasonOf(a.Open(token, "").status()), "TOKEN_TENANT_MISMATCH");
  EXPECT_EQ(TokenErrorReasonOf(a.Open(a.Seal(plain_), "acme").status()), "TOKEN_TENANT_MISMATCH");
}

// A key rotation while hands are in play: the thread's cipher handles are
// per key, so interleaved keys never open with the wrong one.
TEST_F(SealerFormat4Test, ManyKeysInterleavedOnOneThread) {
  std::vector<Sealer> sealers;
  for (uint32_t id = 1; id <= 7; ++id) {
    sealers.push_back(*Sealer::Create({TestKey(id, static_cast<uint8_t>(id))}, kGcmSivTokenFormat));
  }
  std::vector<std::string> tokens;
  for (const Sealer& s : sealers) tokens.push_back(s.Seal(plain_, "", hand_id_));
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < sealers.size(); ++i) {
      for (size_t j = 0; j < tokens.size(); ++j) {
        EXPECT_EQ(sealers[i].Open(tokens[j]).ok(), i == j) << i << " " << j;
      }
    }
  }
}

TEST_F(SealerFormat4Test, EveryFormatOpensWhicheverFormatSeals) {
  for (uint8_t older : {kTokenFormat, kSipTokenFormat}) {
    Sealer legacy = *Sealer::Create({TestKey(1, 1)}, older);
    Sealer current = *Sealer::Create({TestKey(1, 1)}, kGcmSivTokenFormat);
    for (const std::string tenant : {"", "acme"}) {
      EXPECT_EQ(*current.Open(legacy.Seal(plain_, tenant, hand_id_), tenant), plain_);
      EXPECT_EQ(*legacy.Open(current.Seal(plain_, tenant, hand_id_), tenant), plain_);
    }
  }
}

TEST_F(SealerFormat4Test, OnlyFormatsOneThreeFourAndFiveSeal) {
  EXPECT_THAT(Sealer::Create({TestKey(1, 1)}, kTenantTokenFormat), ::testing::Not(IsOk()));
  EXPECT_THAT(Sealer::Create({TestKey(1, 1)}, 6), ::testing::Not(IsOk()));
  EXPECT_THAT(Sealer::Create({TestKey(1, 1)}, kGcmSivTokenFormat), IsOk());
  EXPECT_THAT(Sealer::Create({TestKey(1, 1)}, kDerivedTokenFormat), IsOk());
}

}  // namespace
}  // namespace stud::service
