#include "service/fairness/shuffle.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace stud::fairness {
namespace {

constexpr absl::string_view kRanks = "23456789TJQKA";
constexpr absl::string_view kSuits = "cdhs";

void AppendU32(std::string* out, uint32_t v) {
  out->push_back(static_cast<char>(v >> 24));
  out->push_back(static_cast<char>(v >> 16));
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v));
}

void AppendLp(std::string* out, absl::string_view s) {
  AppendU32(out, static_cast<uint32_t>(s.size()));
  out->append(s.data(), s.size());
}

// HKDF-Extract's HMAC, keyed by the constant salt "stud-shuffle-v1" once.
const HmacSha256& Extract() {
  static const HmacSha256* const extract = new HmacSha256(kShuffleName);
  return *extract;
}

}  // namespace

std::string CardCode(int index) {
  if (index < 0 || index >= kCards) return "";
  return {kRanks[static_cast<size_t>(index / 4)], kSuits[static_cast<size_t>(index % 4)]};
}

int CardIndex(absl::string_view code) {
  // code byte -> rank * 4 or suit, kNone for any other byte (one look-up
  // each: the service asks this of every card it proves).
  static constexpr uint8_t kNone = 0xff;
  static constexpr auto kRank = [] {
    std::array<uint8_t, 256> t{};
    t.fill(kNone);
    for (size_t i = 0; i < kRanks.size(); ++i) {
      t[static_cast<uint8_t>(kRanks[i])] = static_cast<uint8_t>(i * 4);
    }
    return t;
  }();
  static constexpr auto kSuit = [] {
    std::array<uint8_t, 256> t{};
    t.fill(kNone);
    for (size_t i = 0; i < kSuits.size(); ++i) {
      t[static_cast<uint8_t>(kSuits[i])] = static_cast<uint8_t>(i);
    }
    return t;
  }();
  if (code.size() != 2) return -1;
  const uint8_t r = kRank[static_cast<uint8_t>(code[0])];
  const uint8_t s = kSuit[static_cast<uint8_t>(code[1])];
  return r == kNone || s == kNone ? -1 : r + s;
}

std::string Prk(absl::string_view server_seed) {
  return std::string(View(Extract().Mac(server_seed)));
}

std::string Context(absl::string_view hand_id, const std::vector<std::string>& seeds) {
  std::string out;
  out.reserve(4 + hand_id.size() + 1 + seeds.size() * (4 + kMaxPlayerSeedBytes));
  AppendLp(&out, hand_id);
  out.push_back(static_cast<char>(static_cast<uint8_t>(seeds.size())));
  for (const std::string& s : seeds) AppendLp(&out, s);
  return out;
}

Stream::Stream(absl::string_view prk, absl::string_view label, absl::string_view context)
    : Stream(HmacSha256(prk), label, context) {}

Stream::Stream(const HmacSha256& keyed_prk, absl::string_view label, absl::string_view context)
    : keyed_(keyed_prk), high_(keyed_prk) {
  const auto n = static_cast<uint32_t>(label.size());
  const char length[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                          static_cast<char>(n >> 8), static_cast<char>(n)};
  keyed_.Update(absl::string_view(length, sizeof(length)));  // LP(label)
  keyed_.Update(label);
  keyed_.Update(context);
}

Stream::~Stream() { sodium_memzero(block_.data(), block_.size()); }

void Stream::Refill() {
  // The shared prefix is hashed once, in keyed_.
  const char k[4] = {static_cast<char>(counter_ >> 24), static_cast<char>(counter_ >> 16),
                     static_cast<char>(counter_ >> 8), static_cast<char>(counter_)};
  if ((counter_ & 0xff) == 0) {  // T(label, k) = HMAC(PRK, prefix || k[0..3) || k[3])
    high_ = keyed_;
    high_.Update(absl::string_view(k, 3));
  }
  block_ = high_.Mac(absl::string_view(k + 3, 1));
  ++counter_;
  used_ = 0;
}

void Stream::Read(uint8_t* out, size_t n) {
  while (n > 0) {
    if (used_ == block_.size()) Refill();
    const size_t take = std::min(n, block_.size() - used_);
    std::memcpy(out, block_.data() + used_, take);
    used_ += take;
    out += take;
    n -= take;
  }
}

uint32_t Stream::Uniform(uint32_t m) {
  return UniformFrom(
      [this] {
        std::array<uint8_t, 4> w;
        Read(w.data(), w.size());
        return (uint32_t{w[0]} << 24) | (uint32_t{w[1]} << 16) | (uint32_t{w[2]} << 8) |
               uint32_t{w[3]};
      },
      m);
}

namespace {

Order Shuffled(Stream& stream) {
  Order a;
  for (int i = 0; i < kCards; ++i) a[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
  for (int i = kCards - 1; i > 0; --i) {
    const uint32_t j = stream.Uniform(static_cast<uint32_t>(i + 1));
    std::swap(a[static_cast<size_t>(i)], a[j]);
  }
  return a;
}

// HMAC keyed by PRK = HKDF-Extract(server_seed), the PRK itself cleared.
HmacSha256 KeyedByPrk(absl::string_view server_seed) {
  Sha256Digest prk = Extract().Mac(server_seed);
  HmacSha256 keyed(View(prk));
  sodium_memzero(prk.data(), prk.size());
  return keyed;
}

}  // namespace

Order Permutation(absl::string_view prk, absl::string_view label, absl::string_view context) {
  Stream stream(prk, label, context);
  return Shuffled(stream);
}

Derived Derive(absl::string_view server_seed, absl::string_view hand_id,
               const std::vector<std::string>& seeds) {
  const HmacSha256 keyed = KeyedByPrk(server_seed);
  const std::string context = Context(hand_id, seeds);
  Derived d;
  {
    Stream deck(keyed, "deck", context);
    d.deck = Shuffled(deck);
  }
  {
    Stream recycle(keyed, "recycle", context);
    d.recycle_order = Shuffled(recycle);
  }
  Stream salt(keyed, "salt", context);
  for (auto& s : d.salts) salt.Read(s.data(), s.size());
  return d;
}

Order DeriveDeck(absl::string_view server_seed, absl::string_view hand_id,
                 const std::vector<std::string>& seeds) {
  Stream deck(KeyedByPrk(server_seed), "deck", Context(hand_id, seeds));
  return Shuffled(deck);
}

std::string ServerSeedCommitment(absl::string_view server_seed) {
  return std::string(View(Sha256({server_seed})));
}

}  // namespace stud::fairness
