#include "service/rpc/dealing.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "service/api/convert.h"
#include "service/api/status_mapping.h"
#include "service/fairness/sha256.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/fairness_view.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

constexpr size_t kHandIdBytes = 16;
constexpr size_t kSaltBytes = 32;

}  // namespace

RandomSource::RandomSource(size_t bytes) : size_(std::min(bytes, kMaxBlockBytes)) {
  std::array<unsigned char, randombytes_SEEDBYTES> seed;
  randombytes_buf(seed.data(), seed.size());
  randombytes_buf_deterministic(block_.data(), size_, seed.data());
  sodium_memzero(seed.data(), seed.size());
}

RandomSource::~RandomSource() { sodium_memzero(block_.data(), size_); }

void RandomSource::Fill(void* out, size_t n) {
  if (n > size_ - next_) {
    randombytes_buf(out, n);
    return;
  }
  std::memcpy(out, block_.data() + next_, n);
  next_ += n;
}

namespace {

std::vector<Card> ToCards(const fairness::Order& order) {
  std::vector<Card> cards;
  cards.reserve(order.size());
  for (uint8_t i : order) cards.push_back(Card::FromIndex(i));
  return cards;
}

}  // namespace

std::vector<Card> ShuffledDeck() {
  std::array<char, fairness::kServerSeedBytes + kHandIdBytes> random;
  randombytes_buf(random.data(), random.size());
  const absl::string_view all(random.data(), random.size());
  std::vector<Card> deck = ToCards(fairness::DeriveDeck(
      all.substr(0, fairness::kServerSeedBytes), all.substr(fairness::kServerSeedBytes), {}));
  sodium_memzero(random.data(), random.size());
  return deck;
}

std::vector<std::string> PlayerSeeds(const ServiceData& service) {
  std::vector<std::string> seeds;
  const std::string& packed = service.packed_seeds;
  for (size_t i = 0; i < packed.size();) {
    const size_t n = static_cast<uint8_t>(packed[i]);
    seeds.push_back(packed.substr(i + 1, n));
    i += 1 + n;
  }
  return seeds;
}

void SetPlayerSeed(ServiceData* service, int num_seats, int seat, const std::string& seed) {
  std::vector<std::string> seeds = PlayerSeeds(*service);
  seeds.resize(static_cast<size_t>(num_seats));
  seeds[static_cast<size_t>(seat - 1)] = seed;
  service->packed_seeds.clear();
  for (const std::string& s : seeds) {
    service->packed_seeds.push_back(static_cast<char>(static_cast<uint8_t>(s.size())));
    service->packed_seeds += s;
  }
}

void DealFromSeeds(HandConfig* config, ServiceData* service) {
  std::vector<std::string> seeds = PlayerSeeds(*service);
  seeds.resize(static_cast<size_t>(config->num_seats));
  const fairness::Derived derived = fairness::Derive(service->server_seed, service->hand_id, seeds);
  config->deal_source = DealSource::kDeck;
  config->deck = ToCards(derived.deck);
  config->recycle_order = ToCards(derived.recycle_order);
  // The old commitment's salt, derived, not drawn: this runs in the call that
  // completes the players' seeds, and a retried call must answer the same
  // bytes. Keyed BLAKE2b under the server seed, which stays secret until the
  // hand reveals it, so the salt is as unknown to the players as a drawn one.
  static constexpr std::string_view kSaltLabel = "stud deck commitment salt";
  service->salt.assign(kSaltBytes, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(service->salt.data()), kSaltBytes,
                     reinterpret_cast<const unsigned char*>(kSaltLabel.data()), kSaltLabel.size(),
                     reinterpret_cast<const unsigned char*>(service->server_seed.data()),
                     service->server_seed.size());
  service->commitment = DeckCommitment(config->deck, config->recycle_order, service->salt);
  service->seeding = false;
  RememberDeckTree(*service, derived);  // its views need the tree: derived once
}

std::string DeckCommitment(const std::vector<Card>& deck, const std::vector<Card>& recycle_order,
                           const std::string& salt) {
  // fairness::Sha256Hasher (libcrypto: the CPU's SHA extensions where present)
  // rather than libsodium's plain-C SHA-256; the same digest.
  fairness::Sha256Hasher hash;
  // Each list's card texts through one buffer on the stack, not a string.
  auto cards = [&hash](const std::vector<Card>& list) {
    std::array<char, 256> text;
    size_t n = 0;
    for (Card c : list) {
      const absl::string_view t = c.Code();  // two characters
      if (n + t.size() > text.size()) {
        hash.Update(text.data(), n);
        n = 0;
      }
      std::memcpy(text.data() + n, t.data(), t.size());
      n += t.size();
    }
    hash.Update(text.data(), n);
  };
  cards(deck);
  hash.Update("/");
  cards(recycle_order);
  hash.Update(salt);
  return std::string(fairness::View(hash.Final()));
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
  std::string text;
  HandIdTextTo(service, &text);
  return text;
}

void HandIdTextTo(const ServiceData& service, std::string* out) {
  // Each byte's two digits from one table: every call formats the id twice.
  static constexpr std::array<char, 512> kPairs = [] {
    constexpr char kDigits[] = "0123456789abcdef";
    std::array<char, 512> pairs{};
    for (size_t b = 0; b < 256; ++b) {
      pairs[2 * b] = kDigits[b >> 4];
      pairs[2 * b + 1] = kDigits[b & 0xf];
    }
    return pairs;
  }();
  out->resize(2 * service.hand_id.size());  // within the kept capacity: no allocation
  char* p = out->data();
  for (const char c : service.hand_id) {
    std::memcpy(p, &kPairs[2 * size_t{static_cast<uint8_t>(c)}], 2);
    p += 2;
  }
}

absl::Status PrepareDeal(const v1::NewHandRequest& request, bool allow_preset, HandConfig* config,
                         ServiceData* service) {
  v1::DealingMode mode = request.dealing_mode();
  if (mode == v1::DEALING_MODE_UNSPECIFIED) mode = v1::DEALING_MODE_SERVICE;
  if (mode != v1::DEALING_MODE_PRESET &&
      (request.preset_deck_size() > 0 || request.preset_recycle_order_size() > 0)) {
    return absl::InvalidArgumentError("preset_deck: only allowed with DEALING_MODE_PRESET");
  }
  const v1::FairnessOptions& fairness = request.fairness();
  if (mode != v1::DEALING_MODE_SERVICE &&
      (fairness.player_seeds() || fairness.reveal() != v1::REVEAL_POLICY_UNSPECIFIED)) {
    return absl::InvalidArgumentError(
        "fairness: only with DEALING_MODE_SERVICE (the service deals from its seed and the "
        "players'; a PRESET or LIVE deck is not the service's to prove)");
  }
  if (!v1::RevealPolicy_IsValid(fairness.reveal())) {
    return absl::InvalidArgumentError(
        absl::StrCat("fairness.reveal: ", static_cast<int>(fairness.reveal()),
                     " is not a RevealPolicy (REVEAL_POLICY_SEALED or REVEAL_POLICY_AT_END)"));
  }
  service->dealing_mode = static_cast<uint32_t>(mode);
  // One draw from the OS generator for everything this hand needs.
  RandomSource random(mode == v1::DEALING_MODE_SERVICE ? kHandIdBytes + fairness::kServerSeedBytes
                                                       : kHandIdBytes);
  service->hand_id = NewHandId(random);
  switch (mode) {
    case v1::DEALING_MODE_SERVICE:
      service->server_seed.assign(fairness::kServerSeedBytes, '\0');
      random.Fill(service->server_seed.data(), service->server_seed.size());
      service->reveal_policy = static_cast<uint32_t>(fairness.reveal());
      service->player_seeds = fairness.player_seeds();
      if (service->player_seeds) {  // dealt by DealFromSeeds once every seat has seeded
        service->seeding = true;
        SetPlayerSeed(service, config->num_seats, 1, "");
        config->deal_source = DealSource::kDeck;
        return absl::OkStatus();
      }
      DealFromSeeds(config, service);
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
