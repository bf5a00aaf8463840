// The deck Merkle tree (docs/fairness.md; RFC 6962 section 2.1 shape):
//   leaf(p)    = SHA-256(0x00 || u8(p) || code(deck[p]) || salt[p])
//   node(l, r) = SHA-256(0x01 || l || r)
//   MTH of n > 1 leaves = node(MTH(first k), MTH(rest)), k the largest power
//   of two below n.
// The root over the 52 positions is published before the first card; the
// proof of a card is its position, code, salt and audit path (RFC 6962
// PATH(p, D[0:52]): sibling hashes from the leaf up), which shows that card
// at that position and nothing about any other. Pure; hashes are 32 raw
// bytes, held as fixed-size arrays (no allocation per hash).
//
// The tree is built level by level: level 0 holds the leaves, level l + 1
// pairs the nodes of level l, and an odd last node is carried up as it is.
// That is MTH's shape: the left subtree of any MTH split is a complete
// power of two, so only the rightmost node of a level can lack a sibling.
#ifndef STUD_SERVICE_FAIRNESS_MERKLE_H_
#define STUD_SERVICE_FAIRNESS_MERKLE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "service/fairness/sha256.h"
#include "service/fairness/shuffle.h"

namespace stud::fairness {

using Hash = Sha256Digest;

Hash LeafHash(int position, absl::string_view code, absl::string_view salt);
Hash NodeHash(const Hash& left, const Hash& right);

// RFC 6962 MTH over already-hashed leaves (at least one).
Hash MerkleRoot(const std::vector<Hash>& leaves);
// PATH(index, leaves): the audit path from the leaf up.
std::vector<Hash> AuditPath(size_t index, const std::vector<Hash>& leaves);
// Recomputes the root from leaf `index` of `size` and `path` (RFC 9162
// section 2.1.3.2); true when it equals `root`. A path element that is not
// 32 bytes fails.
bool VerifyAuditPath(size_t index, size_t size, const Hash& leaf,
                     const std::vector<std::string>& path, absl::string_view root);

// A proof as a client receives it (the stud.v1.CardProof fields): what
// VerifyCardProof checks, and what tests and tools compare.
struct CardProof {
  int position = 0;
  std::string card;  // "As"
  std::string salt;  // 16 bytes
  std::vector<std::string> path;
};

// The longest audit path of a 52-leaf tree (ceil(log2 52)).
inline constexpr size_t kMaxAuditPath = 6;

// A hand's tree: the 52 leaves of its deck and salts, every node above them,
// and the root; about 4 KB, built once (103 SHA-256 calls) and then read.
class DeckTree {
 public:
  explicit DeckTree(const Derived& derived);

  // The root, 32 raw bytes (a view into the tree).
  absl::string_view root() const { return View(nodes_.back()); }
  int PositionOf(int card_index) const { return position_[static_cast<size_t>(card_index)]; }
  // The salt of deck position `position` (16 raw bytes).
  absl::string_view SaltAt(int position) const {
    const auto& s = salts_[static_cast<size_t>(position)];
    return {reinterpret_cast<const char*>(s.data()), s.size()};
  }
  // PATH(position, deck): pointers into the tree, from the leaf up.
  struct Path {
    std::array<const Hash*, kMaxAuditPath> hash{};
    size_t size = 0;
  };
  Path PathOf(int position) const;

  // The proof of the card with this index (found at its deck position), in
  // a client's form; the service writes the same fields straight into its
  // answer from PositionOf, SaltAt and PathOf.
  CardProof ProofOfCard(int card_index) const;

 private:
  // 52 + 26 + 13 + 7 + 4 + 2 + 1: the levels from the leaves to the root.
  static constexpr size_t kNodes = 105;
  std::array<Hash, kNodes> nodes_{};
  std::array<std::array<uint8_t, kSaltBytes>, kCards> salts_{};
  std::array<uint8_t, kCards> position_{};
};

// True when `proof` shows its card at its position under `root`.
bool VerifyCardProof(const CardProof& proof, absl::string_view root);

}  // namespace stud::fairness

#endif  // STUD_SERVICE_FAIRNESS_MERKLE_H_
