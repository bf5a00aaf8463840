// The deck Merkle tree (docs/fairness.md; RFC 6962 section 2.1 shape):
//   leaf(p)    = SHA-256(0x00 || u8(p) || code(deck[p]) || salt[p])
//   node(l, r) = SHA-256(0x01 || l || r)
//   MTH of n > 1 leaves = node(MTH(first k), MTH(rest)), k the largest power
//   of two below n.
// The root over the 52 positions is published before the first card; the
// proof of a card is its position, code, salt and audit path (RFC 6962
// PATH(p, D[0:52]): sibling hashes from the leaf up), which shows that card
// at that position and nothing about any other. Pure; hashes are 32 raw bytes.
#ifndef STUD_SERVICE_FAIRNESS_MERKLE_H_
#define STUD_SERVICE_FAIRNESS_MERKLE_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "service/fairness/shuffle.h"

namespace stud::fairness {

std::string LeafHash(int position, absl::string_view code, absl::string_view salt);
std::string NodeHash(absl::string_view left, absl::string_view right);

// RFC 6962 MTH over already-hashed leaves (at least one).
std::string MerkleRoot(const std::vector<std::string>& leaves);
// PATH(index, leaves): the audit path from the leaf up.
std::vector<std::string> AuditPath(size_t index, const std::vector<std::string>& leaves);
// Recomputes the root from leaf `index` of `size` and `path` (RFC 9162
// section 2.1.3.2); true when it equals `root`.
bool VerifyAuditPath(size_t index, size_t size, absl::string_view leaf,
                     const std::vector<std::string>& path, absl::string_view root);

struct CardProof {
  int position = 0;
  std::string card;  // "As"
  std::string salt;  // 16 bytes
  std::vector<std::string> path;
};

// A hand's tree: the 52 leaves of its deck and salts, and the root.
class DeckTree {
 public:
  explicit DeckTree(const Derived& derived);
  const std::string& root() const { return root_; }
  // The proof of the card with this index (found at its deck position).
  CardProof ProofOfCard(int card_index) const;
  int PositionOf(int card_index) const { return position_[static_cast<size_t>(card_index)]; }

 private:
  Derived derived_;
  std::array<int, kCards> position_{};
  std::vector<std::string> leaves_;
  std::string root_;
  // Every subtree's hash, filled with the root (so proofs hash nothing).
  mutable std::map<std::pair<size_t, size_t>, std::string> memo_;
};

// True when `proof` shows its card at its position under `root`.
bool VerifyCardProof(const CardProof& proof, absl::string_view root);

}  // namespace stud::fairness

#endif  // STUD_SERVICE_FAIRNESS_MERKLE_H_
