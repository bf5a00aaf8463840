// stud-shuffle-v1 and the deck Merkle tree (service/fairness/) against the
// shared test vectors, tests/data/fairness/vectors.json (written by the
// Python reference, tools/fairness/make_vectors.py): the C++ service, the
// Python verifier and the browser verifier must agree byte for byte.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sodium.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "service/fairness/merkle.h"
#include "service/fairness/shuffle.h"

namespace stud::fairness {
namespace {

using google::protobuf::ListValue;
using google::protobuf::Struct;
using google::protobuf::Value;

Struct LoadVectors() {
  std::ifstream in(STUD_SOURCE_DIR "/tests/data/fairness/vectors.json");
  std::stringstream text;
  text << in.rdbuf();
  Struct out;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(text.str(), &out).ok());
  return out;
}

std::string Hex(absl::string_view bytes) { return absl::BytesToHexString(bytes); }
std::string Hex(const Hash& hash) { return Hex(View(hash)); }
std::string Unhex(const Value& v) { return absl::HexStringToBytes(v.string_value()); }
std::string Text(const uint8_t* p, size_t n) { return {reinterpret_cast<const char*>(p), n}; }

const Value& Field(const Struct& s, const std::string& name) {
  static const Value kNull;
  auto it = s.fields().find(name);
  EXPECT_NE(it, s.fields().end()) << name;
  return it == s.fields().end() ? kNull : it->second;
}

TEST(FairnessVectorsTest, UniformRejectsTheTopPartialRange) {
  ASSERT_EQ(sodium_init() < 0, false);
  const Struct vectors = LoadVectors();
  const ListValue& cases = Field(vectors, "uniform").list_value();
  ASSERT_GT(cases.values_size(), 0);
  for (const Value& c : cases.values()) {
    const Struct& v = c.struct_value();
    const std::string words = Unhex(Field(v, "words"));
    size_t read = 0;
    const uint32_t got = UniformFrom(
        [&] {
          const auto* w = reinterpret_cast<const uint8_t*>(words.data()) + 4 * read++;
          return (uint32_t{w[0]} << 24) | (uint32_t{w[1]} << 16) | (uint32_t{w[2]} << 8) | w[3];
        },
        static_cast<uint32_t>(Field(v, "m").number_value()));
    EXPECT_EQ(got, Field(v, "value").number_value()) << Field(v, "words").string_value();
    EXPECT_EQ(read, Field(v, "words_read").number_value()) << Field(v, "words").string_value();
  }
}

TEST(FairnessVectorsTest, DerivationTreeAndProofsMatchTheReference) {
  ASSERT_EQ(sodium_init() < 0, false);
  const Struct vectors = LoadVectors();
  const ListValue& cases = Field(vectors, "cases").list_value();
  ASSERT_GE(cases.values_size(), 8);
  for (const Value& c : cases.values()) {
    const Struct& v = c.struct_value();
    SCOPED_TRACE(Field(v, "name").string_value());
    const std::string server_seed = Unhex(Field(v, "server_seed"));
    const std::string hand_id = Unhex(Field(v, "hand_id"));
    std::vector<std::string> seeds;
    for (const Value& s : Field(v, "player_seeds").list_value().values()) seeds.push_back(Unhex(s));

    const std::string prk = Prk(server_seed);
    EXPECT_EQ(Hex(prk), Field(v, "prk").string_value());
    const std::string context = Context(hand_id, seeds);
    EXPECT_EQ(Hex(context), Field(v, "context").string_value());
    Stream deck_stream(prk, "deck", context);
    uint8_t first[64];
    deck_stream.Read(first, sizeof(first));
    EXPECT_EQ(Hex(Text(first, sizeof(first))), Field(v, "deck_stream_first_64").string_value());
    EXPECT_EQ(Hex(ServerSeedCommitment(server_seed)),
              Field(v, "server_seed_commitment").string_value());

    const Derived d = Derive(server_seed, hand_id, seeds);
    const auto& deck_idx = Field(v, "deck_indexes").list_value();
    const auto& deck_codes = Field(v, "deck").list_value();
    const auto& recycle = Field(v, "recycle_order").list_value();
    const auto& salts = Field(v, "salts").list_value();
    const auto& leaves = Field(v, "leaves").list_value();
    ASSERT_EQ(deck_idx.values_size(), kCards);
    ASSERT_EQ(recycle.values_size(), kCards);
    ASSERT_EQ(salts.values_size(), kCards);
    ASSERT_EQ(leaves.values_size(), kCards);
    EXPECT_EQ(DeriveDeck(server_seed, hand_id, seeds), d.deck);
    std::vector<Hash> leaf_hashes;
    for (int p = 0; p < kCards; ++p) {
      const auto i = static_cast<size_t>(p);
      EXPECT_EQ(d.deck[i], deck_idx.values(p).number_value()) << "position " << p;
      EXPECT_EQ(CardCode(d.deck[i]), deck_codes.values(p).string_value()) << "position " << p;
      EXPECT_EQ(d.recycle_order[i], recycle.values(p).number_value()) << "position " << p;
      const std::string salt = Text(d.salts[i].data(), d.salts[i].size());
      EXPECT_EQ(Hex(salt), salts.values(p).string_value()) << "position " << p;
      leaf_hashes.push_back(LeafHash(p, CardCode(d.deck[i]), salt));
      EXPECT_EQ(Hex(leaf_hashes.back()), leaves.values(p).string_value()) << "position " << p;
    }
    const DeckTree tree(d);
    EXPECT_EQ(Hex(tree.root()), Field(v, "deck_root").string_value());
    EXPECT_EQ(View(MerkleRoot(leaf_hashes)), tree.root());

    const ListValue& paths = Field(v, "audit_paths").list_value();
    ASSERT_GT(paths.values_size(), 0);
    for (const Value& pv : paths.values()) {
      const Struct& want = pv.struct_value();
      const int position = static_cast<int>(Field(want, "position").number_value());
      const CardProof proof = tree.ProofOfCard(d.deck[static_cast<size_t>(position)]);
      EXPECT_EQ(proof.position, position);
      EXPECT_EQ(proof.card, Field(want, "card").string_value());
      EXPECT_EQ(Hex(proof.salt), Field(want, "salt").string_value());
      const auto& want_path = Field(want, "path").list_value();
      ASSERT_EQ(static_cast<int>(proof.path.size()), want_path.values_size()) << position;
      for (int k = 0; k < want_path.values_size(); ++k) {
        EXPECT_EQ(Hex(proof.path[static_cast<size_t>(k)]), want_path.values(k).string_value());
      }
      std::vector<std::string> reference;
      for (const Hash& h : AuditPath(static_cast<size_t>(position), leaf_hashes)) {
        reference.emplace_back(View(h));
      }
      EXPECT_EQ(proof.path, reference);
      EXPECT_TRUE(VerifyCardProof(proof, tree.root())) << position;
    }
  }
}

// Every position's proof verifies, and a proof fails for another card, a
// changed salt, a moved position or one flipped path byte.
TEST(FairnessVectorsTest, EveryProofVerifiesAndNoAlteredOneDoes) {
  ASSERT_EQ(sodium_init() < 0, false);
  const std::string seed(32, '\x07'), hand_id(16, '\x01');
  const Derived d = Derive(seed, hand_id, {"alice", "", "bob"});
  const DeckTree tree(d);
  for (int card = 0; card < kCards; ++card) {
    const CardProof proof = tree.ProofOfCard(card);
    ASSERT_TRUE(VerifyCardProof(proof, tree.root())) << card;
    CardProof other = proof;
    other.card = CardCode((card + 1) % kCards);
    EXPECT_FALSE(VerifyCardProof(other, tree.root())) << card;
    CardProof salted = proof;
    salted.salt[0] = static_cast<char>(salted.salt[0] ^ 1);
    EXPECT_FALSE(VerifyCardProof(salted, tree.root())) << card;
    CardProof moved = proof;
    moved.position = (proof.position + 1) % kCards;
    EXPECT_FALSE(VerifyCardProof(moved, tree.root())) << card;
    CardProof flipped = proof;
    flipped.path[0][5] = static_cast<char>(flipped.path[0][5] ^ 0x80);
    EXPECT_FALSE(VerifyCardProof(flipped, tree.root())) << card;
  }
}

// The players' seeds change the deck: one byte of one seed, or a seed moved
// to another seat, gives another deck (and root).
TEST(FairnessVectorsTest, EachSeedByteAndSeatOrderChangesTheDeck) {
  ASSERT_EQ(sodium_init() < 0, false);
  const std::string seed(32, '\x42'), hand_id(16, '\x09');
  const Order base = DeriveDeck(seed, hand_id, {"abc", ""});
  EXPECT_NE(DeriveDeck(seed, hand_id, {"abd", ""}), base);
  EXPECT_NE(DeriveDeck(seed, hand_id, {"", "abc"}), base);
  EXPECT_NE(DeriveDeck(seed, hand_id, {"abc", "", ""}), base);
  EXPECT_EQ(DeriveDeck(seed, hand_id, {"abc", ""}), base);
}

}  // namespace
}  // namespace stud::fairness
