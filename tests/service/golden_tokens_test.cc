// Tokens sealed by earlier releases keep opening: tests/data/tokens/ holds
// tokens of fixed hands sealed with a fixed test key, one file per release
// that changed the token bytes (named by plaintext schema: schema2.tokens was
// sealed by the release before schema 3), in every token format it sealed (1,
// 2 bound to a tenant, 3, and 4 from the release that brought it). Each must open with this
// release, decode to exactly the hand the engine plays from the same fixed deck and choices, and
// (for the current release's file) seal again to the very same bytes.
//
// Regenerate the current release's file (only when the token bytes change
// on purpose):
//   STUD_WRITE_GOLDEN_TOKENS=tests/data/tokens/<release>.tokens
//   build/tests/service/golden_tokens_test (both on one line)
//
// The receipts of the complete hands among them are pinned too
// (tests/data/fairness/golden_receipts.txt: the transcript and its signature
// under a fixed key), since clients verify them byte for byte; regenerate it
// only when the receipt format changes on purpose, with STUD_WRITE_GOLDEN_RECEIPTS=<path>.
#include <sodium.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "gtest/gtest.h"
#include "service/fairness/receipt.h"
#include "service/rpc/receipt_view.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;

constexpr char kTestKey[] = "7:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr char kCurrentFile[] = "schema3.tokens";

// Three fixed hands: each variant, 3 to 7 seats, a fixed deck and fixed
// choices, stopped mid-hand or at the end.
std::vector<SealedHand> GoldenHands() {
  std::vector<SealedHand> out;
  std::mt19937 rng(424242);
  for (int h = 0; h < 3; ++h) {
    HandConfig c;
    c.variant = std::array<Variant, 3>{Variant::kStud, Variant::kStudHiLo,
                                       Variant::kRazz}[static_cast<size_t>(h)];
    c.stakes = *FindStakesPreset("$15-$30");
    c.options = ProfileDefaults(h == 1 ? Profile::kTournament : Profile::kCash);
    c.num_seats = 3 + 2 * h;
    for (int i = 1; i <= c.num_seats; ++i) c.starting_stacks[i] = 2000 + 700 * i;
    for (int i = 0; i < kDeckSize; ++i) c.deck.push_back(Card::FromIndex(i));
    for (size_t i = c.deck.size() - 1; i > 0; --i) std::swap(c.deck[i], c.deck[rng() % (i + 1)]);
    c.recycle_order = c.deck;
    HandState state = *NewHand(c);
    const int steps = h == 2 ? 400 : 9 + 7 * h;
    for (int step = 0; step < steps && state.phase != Phase::kComplete; ++step) {
      const int seat = ToAct(state);
      const std::vector<LegalAction> legal = LegalActions(state, seat);
      const LegalAction& pick = legal[rng() % legal.size()];
      if (!Apply(state, Action{pick.kind, seat, pick.amount_to, Card(), false}).ok()) break;
    }
    ServiceData service;
    service.dealing_mode = 1;
    service.locale = static_cast<uint32_t>(1 + h % 2);
    service.commitment = std::string(32, static_cast<char>('a' + h));
    service.salt = std::string(32, static_cast<char>('k' + h));
    service.hand_id = std::string(16, static_cast<char>('x' + h));
    out.push_back(SealedHand{std::move(state), std::move(service)});
  }
  return out;
}

struct GoldenToken {
  int hand = 0;
  int format = 0;
  std::string tenant;  // "-" in the file: none
  std::string token;
};

std::string ToHex(const std::string& bytes) {
  std::string hex(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), reinterpret_cast<const uint8_t*>(bytes.data()),
                 bytes.size());
  hex.pop_back();
  return hex;
}
std::string FromHex(const std::string& hex) {
  std::string bytes(hex.size() / 2, '\0');
  size_t len = 0;
  sodium_hex2bin(reinterpret_cast<uint8_t*>(bytes.data()), bytes.size(), hex.data(), hex.size(),
                 nullptr, &len, nullptr);
  bytes.resize(len);
  return bytes;
}

// Every (hand, format, tenant) this release seals.
std::vector<GoldenToken> SealAll(const std::vector<SealedHand>& hands) {
  std::vector<GoldenToken> out;
  for (int format : {1, 3, 4}) {
    Sealer sealer = *Sealer::Create(*ParseKeys(kTestKey), static_cast<uint8_t>(format));
    for (size_t h = 0; h < hands.size(); ++h) {
      const std::string plain = SerializeSealedHand(hands[h]);
      for (const char* tenant : {"", "tenant-a"}) {
        // Format 1 with a tenant is format 2.
        const int actual = format == 1 && *tenant != '\0' ? 2 : format;
        out.push_back(GoldenToken{static_cast<int>(h), actual, *tenant ? tenant : "-",
                                  sealer.Seal(plain, tenant, hands[h].service.hand_id)});
      }
    }
  }
  return out;
}

std::vector<GoldenToken> ReadFile(const std::filesystem::path& path) {
  std::vector<GoldenToken> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    GoldenToken t;
    std::string hex;
    fields >> t.hand >> t.format >> t.tenant >> hex;
    t.token = FromHex(hex);
    out.push_back(t);
  }
  return out;
}

const std::filesystem::path kDir = std::filesystem::path(STUD_SOURCE_DIR) / "tests/data/tokens";

TEST(GoldenTokens, EveryReleasesTokensOpenToTheSameHand) {
  ASSERT_THAT(InitCrypto(), IsOk());
  if (const char* path = std::getenv("STUD_WRITE_GOLDEN_TOKENS")) {
    std::ofstream out(path);
    out << "# hand format tenant token (tests/service/golden_tokens_test.cc)\n";
    for (const GoldenToken& t : SealAll(GoldenHands())) {
      out << t.hand << " " << t.format << " " << t.tenant << " " << ToHex(t.token) << "\n";
    }
    GTEST_SKIP() << "wrote " << path;
  }
  const std::vector<SealedHand> hands = GoldenHands();
  Sealer opener = *Sealer::Create(*ParseKeys(kTestKey));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    ++files;
    const std::vector<GoldenToken> tokens = ReadFile(entry.path());
    // Three hands, two tenants, each format the release sealed (1/2 and 3;
    // format 4 since it came in).
    ASSERT_GE(tokens.size(), 12u) << entry.path();
    for (const GoldenToken& t : tokens) {
      SCOPED_TRACE(::testing::Message() << entry.path().filename() << " hand " << t.hand
                                        << " format " << t.format << " tenant " << t.tenant);
      ASSERT_EQ(static_cast<uint8_t>(t.token[2]), t.format);
      absl::StatusOr<std::string> plain =
          opener.Open(t.token, t.tenant == "-" ? std::string() : t.tenant);
      ASSERT_THAT(plain, IsOk());
      absl::StatusOr<SealedHand> hand = ParseSealedHand(*plain);
      ASSERT_THAT(hand, IsOk());
      EXPECT_TRUE(hand->state == hands[static_cast<size_t>(t.hand)].state);
      EXPECT_TRUE(hand->service == hands[static_cast<size_t>(t.hand)].service);
    }
  }
  EXPECT_GE(files, 2);
}

TEST(GoldenTokens, TheCurrentReleaseSealsTheSameBytes) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const std::vector<GoldenToken> pinned = ReadFile(kDir / kCurrentFile);
  const std::vector<GoldenToken> now = SealAll(GoldenHands());
  ASSERT_EQ(pinned.size(), now.size());
  for (size_t i = 0; i < now.size(); ++i) {
    EXPECT_EQ(ToHex(pinned[i].token), ToHex(now[i].token)) << "token " << i;
  }
}

// The receipt of each complete golden hand: "<hand> <signature hex> <transcript>" per line.
std::string GoldenReceipts() {
  const fairness::SigningKeys keys = fairness::SigningKeys::FromSeed(std::string(32, 'r'));
  std::string out = "# hand signature transcript (tests/service/golden_tokens_test.cc)\n";
  const std::vector<SealedHand> hands = GoldenHands();
  for (size_t h = 0; h < hands.size(); ++h) {
    if (hands[h].state.phase != Phase::kComplete) continue;
    stud::v1::HandReceipt receipt;
    FillReceipt(hands[h], keys, &receipt);
    out += std::to_string(h) + " " + ToHex(receipt.signature()) + " " + receipt.transcript() + "\n";
  }
  return out;
}

TEST(GoldenReceipts, TheCompleteHandsReceiptsAreTheirPinnedBytes) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const std::string now = GoldenReceipts();
  if (const char* path = std::getenv("STUD_WRITE_GOLDEN_RECEIPTS")) {
    std::ofstream(path) << now;
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(std::filesystem::path(STUD_SOURCE_DIR) /
                   "tests/data/fairness/golden_receipts.txt");
  std::stringstream pinned;
  pinned << in.rdbuf();
  ASSERT_GT(now.size(), 2000u) << "no complete hand among the golden ones";
  EXPECT_EQ(pinned.str(), now);
}

}  // namespace
}  // namespace stud::service
