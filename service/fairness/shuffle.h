// stud-shuffle-v1 (docs/fairness.md): the deck, the recycle order and the
// per-position salts of a SERVICE hand, derived from the server seed, the
// hand id and the players' seeds.
//
//   PRK     = HMAC-SHA256(key = "stud-shuffle-v1", msg = server_seed)   (HKDF-Extract)
//   context = LP(hand_id) || u8(n) || LP(seeds[0]) || ... || LP(seeds[n-1])
//   T(label, k) = HMAC-SHA256(PRK, LP(label) || context || u32be(k))   (SP 800-108 counter)
//   Stream(label) = T(label, 0) || T(label, 1) || ...
//
// Permutation(label) is Fisher-Yates from position 51 down to 1 over the
// canonical order (card index = rank * 4 + suit), each j drawn by rejection
// sampling from Stream(label) (no modulo bias). deck = Permutation("deck"),
// recycle order = Permutation("recycle"), salt[p] = bytes [16p, 16p + 16) of
// Stream("salt").
//
// Pure: no randomness, no I/O; the caller draws the server seed
// (libsodium's CSPRNG); SHA-256 and HMAC come from sha256.h. Byte strings are
// std::string of raw bytes.
#ifndef STUD_SERVICE_FAIRNESS_SHUFFLE_H_
#define STUD_SERVICE_FAIRNESS_SHUFFLE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "service/fairness/sha256.h"

namespace stud::fairness {

inline constexpr int kCards = 52;
inline constexpr size_t kServerSeedBytes = 32;
inline constexpr size_t kSaltBytes = 16;
inline constexpr size_t kMaxPlayerSeedBytes = 64;
inline constexpr absl::string_view kShuffleName = "stud-shuffle-v1";

// Card indexes by position: order[p] is the card at position p (0 = first taken).
using Order = std::array<uint8_t, kCards>;

// "As" from 51; the index from "As" (-1 for anything that is not a card code).
std::string CardCode(int index);
int CardIndex(absl::string_view code);

// HKDF-Extract of the server seed (32 bytes).
std::string Prk(absl::string_view server_seed);
// LP(hand_id) || u8(n) || LP(seeds[i])...; seeds in seat order, "" = none.
std::string Context(absl::string_view hand_id, const std::vector<std::string>& seeds);

// Stream(label): the HMAC blocks T(label, 0), T(label, 1), ... read in order.
class Stream {
 public:
  Stream(absl::string_view prk, absl::string_view label, absl::string_view context);
  // The same from an HMAC already keyed by PRK (copied: one keying serves
  // every label of a derivation).
  Stream(const HmacSha256& keyed_prk, absl::string_view label, absl::string_view context);
  ~Stream();  // clears the unread block
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  void Read(uint8_t* out, size_t n);
  // Uniform integer in [0, m), 1 <= m <= 52: the next u32be `u` with
  // u < 2^32 - (2^32 mod m), reduced mod m; larger words are discarded.
  uint32_t Uniform(uint32_t m);

 private:
  void Refill();
  HmacSha256 keyed_;  // keyed by PRK, fed LP(label) || context
  // keyed_ fed the counter's top three bytes too, shared by 256 blocks: when
  // the prefix ends just short of a SHA-256 block, that block is hashed once
  // there instead of once per block of the stream.
  HmacSha256 high_;
  std::array<uint8_t, 32> block_{};
  size_t used_ = 32;
  uint32_t counter_ = 0;
};

// The rejection sampling of Stream::Uniform over any source of big-endian
// 32-bit words (`next_word()`), for the vectors.
template <typename NextWord>
uint32_t UniformFrom(NextWord&& next_word, uint32_t m) {
  const uint64_t limit = (uint64_t{1} << 32) - ((uint64_t{1} << 32) % m);
  for (;;) {
    const uint32_t u = next_word();
    if (u < limit) return u % m;
  }
}

Order Permutation(absl::string_view prk, absl::string_view label, absl::string_view context);

// Everything a hand derives.
struct Derived {
  Order deck{};
  Order recycle_order{};
  std::array<std::array<uint8_t, kSaltBytes>, kCards> salts{};
};
Derived Derive(absl::string_view server_seed, absl::string_view hand_id,
               const std::vector<std::string>& seeds);
// The deck alone (the chi-square test and NewHand's deck).
Order DeriveDeck(absl::string_view server_seed, absl::string_view hand_id,
                 const std::vector<std::string>& seeds);

// SHA-256(server_seed), 32 raw bytes: published at NewHand.
std::string ServerSeedCommitment(absl::string_view server_seed);

}  // namespace stud::fairness

#endif  // STUD_SERVICE_FAIRNESS_SHUFFLE_H_
