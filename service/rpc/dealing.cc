#include "service/rpc/dealing.h"

#include <sodium.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/strings/escaping.h"
#include "service/api/convert.h"
#include "service/api/status_mapping.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

constexpr size_t kHandIdBytes = 16;
constexpr size_t kSaltBytes = 32;
// Twice the words a shuffle needs, so rejections practically never reach
// past the block.
constexpr size_t kShuffleBytes = 2 * kDeckSize * sizeof(uint32_t);

}  // namespace

RandomSource::RandomSource(size_t bytes) : block_(bytes) {
  std::array<unsigned char, randombytes_SEEDBYTES> seed;
  randombytes_buf(seed.data(), seed.size());
  randombytes_buf_deterministic(block_.data(), block_.size(), seed.data());
  sodium_memzero(seed.data(), seed.size());
}

RandomSource::~RandomSource() { sodium_memzero(block_.data(), block_.size()); }

void RandomSource::Fill(void* out, size_t n) {
  if (n > block_.size() - next_) {
    randombytes_buf(out, n);
    return;
  }
  std::memcpy(out, block_.data() + next_, n);
  next_ += n;
}

std::vector<Card> ShuffledDeck(RandomSource& random) {
  std::vector<Card> deck;
  deck.reserve(kDeckSize);
  for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
  auto uniform = [&](uint32_t n) -> uint32_t {  // unbiased: reject the top partial range
    const uint32_t limit = UINT32_MAX - UINT32_MAX % n;
    for (;;) {
      uint32_t r = 0;
      random.Fill(&r, sizeof(r));
      if (r < limit) return r % n;
    }
  };
  // Fisher-Yates from the top: position i swaps with a uniform j in [0, i].
  for (int i = kDeckSize - 1; i > 0; --i) {
    const auto j = static_cast<size_t>(uniform(static_cast<uint32_t>(i + 1)));
    std::swap(deck[static_cast<size_t>(i)], deck[j]);
  }
  return deck;
}

std::vector<Card> ShuffledDeck() {
  RandomSource random(kShuffleBytes);
  return ShuffledDeck(random);
}

std::string RandomSalt(RandomSource& random) {
  std::string salt(kSaltBytes, '\0');
  random.Fill(salt.data(), salt.size());
  return salt;
}

std::string DeckCommitment(const std::vector<Card>& deck, const std::vector<Card>& recycle_order,
                           const std::string& salt) {
  std::string message;
  message.reserve(2 * (deck.size() + recycle_order.size()) + 1 + salt.size());
  for (Card c : deck) message += c.ToString();
  message += '/';
  for (Card c : recycle_order) message += c.ToString();
  message += salt;
  std::string digest(crypto_hash_sha256_BYTES, '\0');
  crypto_hash_sha256(reinterpret_cast<unsigned char*>(digest.data()),
                     reinterpret_cast<const unsigned char*>(message.data()), message.size());
  return digest;
}

std::string NewHandId(RandomSource& random) {
  std::string id(kHandIdBytes, '\0');
  random.Fill(id.data(), id.size());
  return id;
}

std::string NewHandId() {
  RandomSource random(kHandIdBytes);
  return NewHandId(random);
}

std::string HandIdText(const ServiceData& service) {
  return absl::BytesToHexString(service.hand_id);
}

absl::Status PrepareDeal(const v1::NewHandRequest& request, bool allow_preset, HandConfig* config,
                         ServiceData* service) {
  v1::DealingMode mode = request.dealing_mode();
  if (mode == v1::DEALING_MODE_UNSPECIFIED) mode = v1::DEALING_MODE_SERVICE;
  if (mode != v1::DEALING_MODE_PRESET &&
      (request.preset_deck_size() > 0 || request.preset_recycle_order_size() > 0)) {
    return absl::InvalidArgumentError("preset_deck: only allowed with DEALING_MODE_PRESET");
  }
  service->dealing_mode = static_cast<uint32_t>(mode);
  // One draw from the OS generator for everything this hand needs.
  RandomSource random(mode == v1::DEALING_MODE_SERVICE
                          ? kHandIdBytes + 2 * kShuffleBytes + kSaltBytes
                          : kHandIdBytes);
  service->hand_id = NewHandId(random);
  switch (mode) {
    case v1::DEALING_MODE_SERVICE:
      config->deal_source = DealSource::kDeck;
      config->deck = ShuffledDeck(random);
      config->recycle_order = ShuffledDeck(random);
      service->salt = RandomSalt(random);
      service->commitment = DeckCommitment(config->deck, config->recycle_order, service->salt);
      return absl::OkStatus();
    case v1::DEALING_MODE_PRESET: {
      if (!allow_preset) {
        return absl::FailedPreconditionError(
            "dealing_mode: DEALING_MODE_PRESET is disabled on this server (start it with "
            "--allow_preset for replays, certification and tests)");
      }
      if (request.preset_deck_size() == 0) {
        return absl::InvalidArgumentError("preset_deck: required with DEALING_MODE_PRESET");
      }
      absl::StatusOr<std::vector<Card>> deck = DecodeCards(request.preset_deck(), "preset_deck");
      if (!deck.ok()) return deck.status();
      absl::StatusOr<std::vector<Card>> recycle =
          DecodeCards(request.preset_recycle_order(), "preset_recycle_order");
      if (!recycle.ok()) return recycle.status();
      config->deal_source = DealSource::kDeck;
      config->deck = *std::move(deck);
      config->recycle_order = *std::move(recycle);
      return absl::OkStatus();
    }
    case v1::DEALING_MODE_LIVE:
      config->deal_source = DealSource::kReported;
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError("dealing_mode: unknown dealing mode");
  }
}

void EncodeCommitment(const ServiceData& service, v1::DeckCommitment* out) {
  if (!service.commitment.empty()) out->set_commitment(service.commitment);
}

void EncodeDeckReveal(const HandState& state, const ServiceData& service, v1::DeckCommitment* out) {
  if (service.commitment.empty() || state.phase != Phase::kComplete) return;
  for (Card c : state.config.deck) out->add_revealed_deck(c.ToString());
  for (Card c : state.config.recycle_order) out->add_revealed_recycle_order(c.ToString());
  out->set_revealed_salt(service.salt);
}

absl::Status CheckDeckReveal(const DeckRevealCaller& caller, const HandState& state) {
  if (caller.has_ticket) {
    return DeckRevealNotPermitted(
        "a seat ticket never gets the deck: it holds every other seat's down cards, folded, "
        "mucked and unshown hands included; ask without reveal_deck");
  }
  if (caller.tickets_required) {
    return DeckRevealNotPermitted(
        "this hand requires seat tickets, so its deck is revealed to nobody; the commitment "
        "alone is public");
  }
  if (!caller.server_allows) {
    return DeckRevealNotPermitted(
        "this server does not reveal decks (it runs without --allow_deck_reveal); the public "
        "view carries the commitment alone");
  }
  if (state.phase != Phase::kComplete) return DeckNotRevealableYet();
  return absl::OkStatus();
}

}  // namespace stud::service
