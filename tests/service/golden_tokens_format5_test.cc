// Golden tokens of format 5 (subkeys, tenant tag): tests/data/tokens/format5.tokens
// holds the three golden hands of golden_tokens_test.cc sealed in format 5,
// without and with a tenant, each with plaintext schema 3 and 2 (a format 5
// replica during a rolling upgrade of the plaintext schema). GoldenTokens
// (golden_tokens_test.cc) opens every file of that directory, this one too, and
// checks each decodes to its hand; this test checks that this release seals
// those very bytes again. The hands are read back from the format 4 golden
// tokens of schema3.tokens (GoldenTokens pins them to the engine's hands).
//
// Regenerate (only when the format 5 bytes change on purpose):
//   STUD_WRITE_GOLDEN_TOKENS5=tests/data/tokens/format5.tokens
//   build/tests/service/golden_tokens_format5_test (both on one line)
#include <sodium.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;

constexpr char kTestKey[] = "7:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const std::filesystem::path kDir = std::filesystem::path(STUD_SOURCE_DIR) / "tests/data/tokens";

struct Line {
  int hand = 0;
  int format = 0;
  std::string tenant;  // "-": none
  std::string token;
};

std::vector<Line> ReadLines(const std::filesystem::path& path) {
  std::vector<Line> out;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream fields(text);
    Line l;
    std::string hex;
    fields >> l.hand >> l.format >> l.tenant >> hex;
    l.token.resize(hex.size() / 2);
    size_t len = 0;
    sodium_hex2bin(reinterpret_cast<uint8_t*>(l.token.data()), l.token.size(), hex.data(),
                   hex.size(), nullptr, &len, nullptr);
    l.token.resize(len);
    out.push_back(l);
  }
  return out;
}

std::string Hex(const std::string& bytes) {
  std::string hex(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), reinterpret_cast<const uint8_t*>(bytes.data()),
                 bytes.size());
  hex.pop_back();
  return hex;
}

// Hand number -> the hand, from the format 4 tokens without a tenant.
std::map<int, SealedHand> GoldenHands(const Sealer& opener) {
  std::map<int, SealedHand> hands;
  for (const Line& l : ReadLines(kDir / "schema3.tokens")) {
    if (l.format != kGcmSivTokenFormat || l.tenant != "-") continue;
    absl::StatusOr<std::string> plain = opener.Open(l.token);
    EXPECT_THAT(plain, IsOk());
    absl::StatusOr<SealedHand> hand = ParseSealedHand(plain.ok() ? *plain : "");
    EXPECT_THAT(hand, IsOk());
    if (hand.ok()) hands[l.hand] = *std::move(hand);
  }
  return hands;
}

std::vector<Line> SealAll(const std::map<int, SealedHand>& hands) {
  Sealer sealer = *Sealer::Create(*ParseKeys(kTestKey), kDerivedTokenFormat);
  std::vector<Line> out;
  for (uint32_t schema : {kSealedSchema, kRollingUpgradeSchema}) {
    for (const auto& [h, hand] : hands) {
      for (const char* tenant : {"", "tenant-a"}) {
        out.push_back(
            Line{h, kDerivedTokenFormat, *tenant ? tenant : "-",
                 sealer.Seal(SerializeSealedHand(hand, schema), tenant, hand.service.hand_id)});
      }
    }
  }
  return out;
}

TEST(GoldenTokensFormat5, TheCurrentReleaseSealsTheSameBytes) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer opener = *Sealer::Create(*ParseKeys(kTestKey));
  const std::map<int, SealedHand> hands = GoldenHands(opener);
  ASSERT_EQ(hands.size(), 3u);
  const std::vector<Line> now = SealAll(hands);
  if (const char* path = std::getenv("STUD_WRITE_GOLDEN_TOKENS5")) {
    std::ofstream out(path);
    out << "# hand format tenant token (tests/service/golden_tokens_format5_test.cc)\n";
    for (const Line& l : now)
      out << l.hand << " " << l.format << " " << l.tenant << " " << Hex(l.token) << "\n";
    GTEST_SKIP() << "wrote " << path;
  }
  const std::vector<Line> pinned = ReadLines(kDir / "format5.tokens");
  ASSERT_EQ(pinned.size(), now.size());
  for (size_t i = 0; i < now.size(); ++i) {
    EXPECT_EQ(Hex(pinned[i].token), Hex(now[i].token)) << "token " << i;
    // Each opens to its hand, and only for its tenant.
    const std::string tenant = pinned[i].tenant == "-" ? "" : pinned[i].tenant;
    absl::StatusOr<std::string> plain = opener.Open(pinned[i].token, tenant);
    ASSERT_THAT(plain, IsOk());
    absl::StatusOr<SealedHand> hand = ParseSealedHand(*plain);
    ASSERT_THAT(hand, IsOk());
    EXPECT_TRUE(hand->state == hands.at(pinned[i].hand).state);
    EXPECT_THAT(opener.Open(pinned[i].token, tenant.empty() ? "tenant-a" : ""),
                ::testing::Not(IsOk()));
    // The file names the tenant; the token does not.
    EXPECT_EQ(pinned[i].token.find("tenant-a"), std::string::npos);
  }
}

}  // namespace
}  // namespace stud::service
