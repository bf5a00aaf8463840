#include "service/fairness/merkle.h"

#include <algorithm>
#include <cstring>

namespace stud::fairness {
namespace {

// All the levels of an n-leaf tree, leaves included.
constexpr size_t LevelNodes(size_t n) {
  size_t total = n;
  for (; n > 1; n = (n + 1) / 2) total += (n + 1) / 2;
  return total;
}

// The levels above the leaves (the longest audit path).
constexpr size_t Depth(size_t n) {
  size_t depth = 0;
  for (; n > 1; n = (n + 1) / 2) ++depth;
  return depth;
}

static_assert(Depth(kCards) == kMaxAuditPath);

// nodes[0, n) hold the leaves; fills every level above them (LevelNodes(n)
// in all), the root last.
void BuildLevels(Hash* nodes, size_t n) {
  size_t in = 0;  // where the level being paired starts
  for (size_t out = n; n > 1; n = (n + 1) / 2) {
    for (size_t i = 0; i + 1 < n; i += 2) {
      nodes[out + i / 2] = NodeHash(nodes[in + i], nodes[in + i + 1]);
    }
    if (n % 2 == 1) nodes[out + n / 2] = nodes[in + n - 1];  // carried up
    in = out;
    out += (n + 1) / 2;
  }
}

// Calls emit(hash) for each sibling on the way from leaf `index` to the
// root of BuildLevels' `nodes`: RFC 6962 PATH(index, D[0:n]).
template <typename Emit>
void ForEachSibling(const Hash* nodes, size_t n, size_t index, Emit&& emit) {
  for (size_t level = 0; n > 1; n = (n + 1) / 2) {
    const size_t sibling = index ^ 1;
    if (sibling < n) emit(nodes[level + sibling]);  // a carried node has none
    level += n;
    index >>= 1;
  }
}

std::vector<Hash> Levels(const std::vector<Hash>& leaves) {
  std::vector<Hash> nodes(LevelNodes(leaves.size()));
  std::copy(leaves.begin(), leaves.end(), nodes.begin());
  BuildLevels(nodes.data(), leaves.size());
  return nodes;
}

}  // namespace

// The messages are put together first: one SHA256_Update instead of three
// (a deck tree hashes 103 of them).
Hash LeafHash(int position, absl::string_view code, absl::string_view salt) {
  std::array<char, 2 + 2 + kSaltBytes> m;  // a card's leaf; anything longer: three updates
  Sha256Hasher h;
  const char head[2] = {'\0', static_cast<char>(static_cast<uint8_t>(position))};
  if (code.size() + salt.size() <= m.size() - 2) {
    std::memcpy(m.data(), head, 2);
    std::memcpy(m.data() + 2, code.data(), code.size());
    std::memcpy(m.data() + 2 + code.size(), salt.data(), salt.size());
    h.Update(m.data(), 2 + code.size() + salt.size());
  } else {
    h.Update(head, sizeof(head));
    h.Update(code);
    h.Update(salt);
  }
  return h.Final();
}

Hash NodeHash(const Hash& left, const Hash& right) {
  std::array<uint8_t, 1 + 2 * kSha256Bytes> m;
  m[0] = 0x01;
  std::memcpy(m.data() + 1, left.data(), left.size());
  std::memcpy(m.data() + 1 + left.size(), right.data(), right.size());
  Sha256Hasher h;
  h.Update(m.data(), m.size());
  return h.Final();
}

Hash MerkleRoot(const std::vector<Hash>& leaves) { return Levels(leaves).back(); }

std::vector<Hash> AuditPath(size_t index, const std::vector<Hash>& leaves) {
  const std::vector<Hash> nodes = Levels(leaves);
  std::vector<Hash> out;
  ForEachSibling(nodes.data(), leaves.size(), index, [&](const Hash& h) { out.push_back(h); });
  return out;
}

bool VerifyAuditPath(size_t index, size_t size, const Hash& leaf,
                     const std::vector<std::string>& path, absl::string_view root) {
  if (index >= size) return false;
  size_t fn = index, sn = size - 1;
  Hash r = leaf;
  for (const std::string& element : path) {
    if (sn == 0 || element.size() != kSha256Bytes) return false;
    Hash p;
    std::memcpy(p.data(), element.data(), p.size());
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
  return sn == 0 && View(r) == root;
}

DeckTree::DeckTree(const Derived& derived) : salts_(derived.salts) {
  static_assert(LevelNodes(kCards) == kNodes);
  for (int p = 0; p < kCards; ++p) {
    const auto i = static_cast<size_t>(p);
    const int card = derived.deck[i];
    position_[static_cast<size_t>(card)] = static_cast<uint8_t>(p);
    nodes_[i] = LeafHash(p, CardCode(card), SaltAt(p));
  }
  BuildLevels(nodes_.data(), kCards);
}

DeckTree::Path DeckTree::PathOf(int position) const {
  Path path;
  ForEachSibling(nodes_.data(), kCards, static_cast<size_t>(position),
                 [&](const Hash& h) { path.hash[path.size++] = &h; });
  return path;
}

CardProof DeckTree::ProofOfCard(int card_index) const {
  CardProof proof;
  proof.position = PositionOf(card_index);
  proof.card = CardCode(card_index);
  proof.salt = std::string(SaltAt(proof.position));
  const Path path = PathOf(proof.position);
  for (size_t k = 0; k < path.size; ++k) proof.path.emplace_back(View(*path.hash[k]));
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
