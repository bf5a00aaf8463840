#include "service/fairness/merkle.h"

#include <map>
#include <utility>

#include "service/fairness/sha256.h"

namespace stud::fairness {
namespace {

std::string Sha256Of(absl::string_view a, absl::string_view b, absl::string_view c,
                     absl::string_view d) {
  const Sha256Digest out = fairness::Sha256({a, b, c, d});
  return {reinterpret_cast<const char*>(out.data()), out.size()};
}

// The largest power of two below n (n > 1).
size_t Split(size_t n) {
  size_t k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

// MTH(leaves[begin:end]); with `memo`, each subtree is hashed once and kept
// (a tree's proofs then cost no hashing).
std::string Mth(const std::vector<std::string>& leaves, size_t begin, size_t end,
                std::map<std::pair<size_t, size_t>, std::string>* memo) {
  if (end - begin == 1) return leaves[begin];
  if (memo != nullptr) {
    if (auto it = memo->find({begin, end}); it != memo->end()) return it->second;
  }
  const size_t k = Split(end - begin);
  std::string h = NodeHash(Mth(leaves, begin, begin + k, memo), Mth(leaves, begin + k, end, memo));
  if (memo != nullptr) memo->emplace(std::make_pair(begin, end), h);
  return h;
}

void Path(size_t m, const std::vector<std::string>& leaves, size_t begin, size_t end,
          std::map<std::pair<size_t, size_t>, std::string>* memo, std::vector<std::string>* out) {
  if (end - begin <= 1) return;
  const size_t k = Split(end - begin);
  if (m < begin + k) {
    Path(m, leaves, begin, begin + k, memo, out);
    out->push_back(Mth(leaves, begin + k, end, memo));
  } else {
    Path(m, leaves, begin + k, end, memo, out);
    out->push_back(Mth(leaves, begin, begin + k, memo));
  }
}

}  // namespace

std::string LeafHash(int position, absl::string_view code, absl::string_view salt) {
  const char head[2] = {'\0', static_cast<char>(static_cast<uint8_t>(position))};
  return Sha256Of(absl::string_view(head, 2), code, salt, "");
}

std::string NodeHash(absl::string_view left, absl::string_view right) {
  return Sha256Of("\x01", left, right, "");
}

std::string MerkleRoot(const std::vector<std::string>& leaves) {
  return Mth(leaves, 0, leaves.size(), nullptr);
}

std::vector<std::string> AuditPath(size_t index, const std::vector<std::string>& leaves) {
  std::vector<std::string> out;
  Path(index, leaves, 0, leaves.size(), nullptr, &out);
  return out;
}

bool VerifyAuditPath(size_t index, size_t size, absl::string_view leaf,
                     const std::vector<std::string>& path, absl::string_view root) {
  if (index >= size) return false;
  size_t fn = index, sn = size - 1;
  std::string r(leaf);
  for (const std::string& p : path) {
    if (sn == 0) return false;
    if ((fn & 1) == 1 || fn == sn) {
      r = NodeHash(p, r);
      if ((fn & 1) == 0) {
        while ((fn & 1) == 0 && fn != 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn == 0 && r == root;
}

DeckTree::DeckTree(const Derived& derived) : derived_(derived) {
  leaves_.reserve(kCards);
  for (int p = 0; p < kCards; ++p) {
    const int card = derived.deck[static_cast<size_t>(p)];
    position_[static_cast<size_t>(card)] = p;
    const auto& salt = derived.salts[static_cast<size_t>(p)];
    leaves_.push_back(
        LeafHash(p, CardCode(card),
                 absl::string_view(reinterpret_cast<const char*>(salt.data()), salt.size())));
  }
  root_ = Mth(leaves_, 0, leaves_.size(), &memo_);
}

CardProof DeckTree::ProofOfCard(int card_index) const {
  CardProof proof;
  proof.position = position_[static_cast<size_t>(card_index)];
  proof.card = CardCode(card_index);
  const auto& salt = derived_.salts[static_cast<size_t>(proof.position)];
  proof.salt.assign(reinterpret_cast<const char*>(salt.data()), salt.size());
  Path(static_cast<size_t>(proof.position), leaves_, 0, leaves_.size(), &memo_, &proof.path);
  return proof;
}

bool VerifyCardProof(const CardProof& proof, absl::string_view root) {
  if (proof.position < 0 || proof.position >= kCards || CardIndex(proof.card) < 0 ||
      proof.salt.size() != kSaltBytes) {
    return false;
  }
  return VerifyAuditPath(static_cast<size_t>(proof.position), kCards,
                         LeafHash(proof.position, proof.card, proof.salt), proof.path, root);
}

}  // namespace stud::fairness
