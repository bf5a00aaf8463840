#include "service/fairness/receipt.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "service/fairness/sha256.h"

namespace stud::fairness {
namespace {

const unsigned char* U(absl::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// The bytes a JSON string escapes: quotes, backslashes, control characters.
constexpr std::array<bool, 256> kEscaped = [] {
  std::array<bool, 256> e{};
  for (int c = 0; c < 0x20; ++c) e[static_cast<size_t>(c)] = true;
  e['"'] = true;
  e['\\'] = true;
  return e;
}();

// Whether any of the eight bytes of `w` is one kEscaped lists. The tests for a
// byte below n ("hasless", exact as to whether one exists for n <= 128), here
// below 0x20, and for a zero byte in `w` xor a repeated '"' or '\\'.
constexpr bool AnyEscaped(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101;
  constexpr uint64_t kHighs = 0x8080808080808080;
  const auto below = [](uint64_t v, uint64_t n) { return (v - kOnes * n) & ~v & kHighs; };
  return (below(w, 0x20) | below(w ^ (kOnes * '"'), 1) | below(w ^ (kOnes * '\\'), 1)) != 0;
}

// A JSON string: quotes, backslashes and control characters escaped; other
// bytes (UTF-8) as they are. A transcript is some 4 to 12 KB of such strings,
// nearly all of them with nothing to escape: they are scanned eight bytes at
// a time, and the runs between escapes are appended whole.
void AppendString(std::string* out, absl::string_view s) {
  out->push_back('"');
  size_t run = 0;  // start of the bytes not yet appended
  size_t i = 0;
  while (i < s.size()) {
    if (s.size() - i >= 8) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (!AnyEscaped(w)) {
        i += 8;
        continue;
      }
    }
    const char c = s[i++];
    const auto u = static_cast<unsigned char>(c);
    if (!kEscaped[u]) continue;
    out->append(s.data() + run, i - 1 - run);
    run = i;
    if (u < 0x20) {
      absl::StrAppend(out, "\\u00", absl::Hex(u, absl::kZeroPad2));
    } else {
      out->push_back('\\');
      out->push_back(c);
    }
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

void AppendHex(std::string* out, absl::string_view bytes) {
  absl::StrAppend(out, "\"", absl::BytesToHexString(bytes), "\"");
}

}  // namespace

std::string Transcript(const ReceiptData& d) {
  std::string o;
  size_t log_bytes = 0;  // the log is most of a transcript: room for it from the start
  for (const std::string& entry : d.log) log_bytes += entry.size() + 3;
  o.reserve(2048 + log_bytes);
  absl::StrAppend(&o, "{\"format\":\"", kReceiptFormat, "\",\"hand_id\":");
  AppendHex(&o, d.hand_id);
  o += ",\"variant\":";
  AppendString(&o, d.variant);
  o += ",\"dealing\":";
  AppendString(&o, d.dealing);
  absl::StrAppend(&o, ",\"stakes\":{\"ante\":", d.ante, ",\"bring_in\":", d.bring_in,
                  ",\"small_bet\":", d.small_bet, ",\"big_bet\":", d.big_bet, "},\"seats\":[");
  for (size_t i = 0; i < d.seats.size(); ++i) {
    absl::StrAppend(&o, i ? "," : "", "{\"seat\":", d.seats[i].seat,
                    ",\"stack\":", d.seats[i].stack, "}");
  }
  o += "]";
  if (d.service_shuffle) {
    o += ",\"server_seed_commitment\":";
    AppendHex(&o, d.server_seed_commitment);
    o += ",\"deck_root\":";
    AppendHex(&o, d.deck_root);
    o += ",\"player_seeds\":[";
    for (size_t i = 0; i < d.player_seeds.size(); ++i) {
      if (i) o += ",";
      AppendHex(&o, d.player_seeds[i]);
    }
    o += "]";
  }
  o += ",\"log\":[";
  for (size_t i = 0; i < d.log.size(); ++i) {
    if (i) o += ",";
    AppendString(&o, d.log[i]);
  }
  o += "],\"shown\":[";
  for (size_t i = 0; i < d.shown.size(); ++i) {
    absl::StrAppend(&o, i ? "," : "", "{\"seat\":", d.shown[i].seat, ",\"cards\":[");
    for (size_t k = 0; k < d.shown[i].cards.size(); ++k) {
      if (k) o += ",";
      AppendString(&o, d.shown[i].cards[k]);
    }
    o += "]}";
  }
  o += "],\"rulings\":[";
  for (size_t i = 0; i < d.rulings.size(); ++i) {
    absl::StrAppend(&o, i ? "," : "", "{\"rule\":");
    AppendString(&o, d.rulings[i].rule);
    absl::StrAppend(&o, ",\"seat\":", d.rulings[i].seat, "}");
  }
  o += "],\"pots\":[";
  for (size_t i = 0; i < d.pots.size(); ++i) {
    absl::StrAppend(&o, i ? "," : "", "{\"amount\":", d.pots[i].amount, ",\"winners\":[");
    for (size_t k = 0; k < d.pots[i].winners.size(); ++k) {
      absl::StrAppend(&o, k ? "," : "", d.pots[i].winners[k]);
    }
    o += "]}";
  }
  absl::StrAppend(&o, "],\"version\":", d.version);
  if (!d.server_seed.empty()) {
    o += ",\"server_seed\":";
    AppendHex(&o, d.server_seed);
  }
  o += "}";
  return o;
}

std::string KeyId(absl::string_view public_key) {
  const Sha256Digest digest = Sha256({public_key});
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest.data()), 8));
}

SigningKeys SigningKeys::FromSeed(absl::string_view seed) {
  SigningKey key;
  key.public_key.assign(crypto_sign_PUBLICKEYBYTES, '\0');
  key.secret_key.assign(crypto_sign_SECRETKEYBYTES, '\0');
  crypto_sign_seed_keypair(reinterpret_cast<unsigned char*>(key.public_key.data()),
                           reinterpret_cast<unsigned char*>(key.secret_key.data()), U(seed));
  key.key_id = KeyId(key.public_key);
  SigningKeys keys;
  keys.keys_.push_back(std::move(key));
  return keys;
}

SigningKeys SigningKeys::Ephemeral() {
  unsigned char seed[crypto_sign_SEEDBYTES];
  randombytes_buf(seed, sizeof(seed));
  SigningKeys keys = FromSeed(absl::string_view(reinterpret_cast<const char*>(seed), sizeof(seed)));
  sodium_memzero(seed, sizeof(seed));
  return keys;
}

absl::StatusOr<SigningKeys> SigningKeys::FromText(absl::string_view text) {
  SigningKeys all;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(':');
    std::string seed;
    if (colon == absl::string_view::npos || colon == 0 ||
        !absl::Base64Unescape(line.substr(colon + 1), &seed) ||
        seed.size() != crypto_sign_SEEDBYTES) {
      return absl::InvalidArgumentError(
          absl::StrCat("signing keys, line ", number,
                       ": expected name:base64 of a 32-byte Ed25519 seed (e.g. make one with "
                       "`head -c 32 /dev/urandom | base64`)"));
    }
    SigningKeys one = FromSeed(seed);
    sodium_memzero(seed.data(), seed.size());
    for (const SigningKey& k : all.keys_) {
      if (k.key_id == one.keys_.front().key_id) {
        return absl::InvalidArgumentError(
            absl::StrCat("signing keys, line ", number, ": the same key is listed twice"));
      }
    }
    all.keys_.push_back(std::move(one.keys_.front()));
  }
  if (all.keys_.empty()) {
    return absl::InvalidArgumentError("signing keys: the file lists no key");
  }
  return all;
}

std::string SigningKeys::Sign(absl::string_view message) const {
  std::string sig(crypto_sign_BYTES, '\0');
  crypto_sign_detached(reinterpret_cast<unsigned char*>(sig.data()), nullptr, U(message),
                       message.size(), U(signer().secret_key));
  return sig;
}

bool VerifySignature(absl::string_view message, absl::string_view signature,
                     absl::string_view public_key) {
  if (signature.size() != crypto_sign_BYTES || public_key.size() != crypto_sign_PUBLICKEYBYTES) {
    return false;
  }
  return crypto_sign_verify_detached(U(signature), U(message), message.size(), U(public_key)) == 0;
}

}  // namespace stud::fairness
