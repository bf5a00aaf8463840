// Hand receipts (format "stud-receipt-v1", docs/fairness.md "Receipt
// transcript"): the canonical JSON transcript of a complete hand, signed with
// Ed25519 (libsodium crypto_sign_detached), and the signing keys.
//
// The transcript is UTF-8 JSON with no whitespace, keys in the fixed order of
// ReceiptData's members, integers as JSON numbers, byte strings as lowercase
// hex; optional fields are left out when absent. Pure: the caller fills
// ReceiptData from the hand (service/rpc/fairness_view.cc).
#ifndef STUD_SERVICE_FAIRNESS_RECEIPT_H_
#define STUD_SERVICE_FAIRNESS_RECEIPT_H_

#include <sodium.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace stud::fairness {

inline constexpr absl::string_view kReceiptFormat = "stud-receipt-v1";

struct ReceiptData {
  std::string hand_id;  // 16 raw bytes
  std::string variant;  // "STUD", "STUD_HI_LO", "RAZZ"
  std::string dealing;  // "SERVICE", "PRESET", "LIVE"
  int64_t ante = 0, bring_in = 0, small_bet = 0, big_bet = 0;
  struct Seat {
    int seat = 0;
    int64_t stack = 0;  // starting stack
  };
  std::vector<Seat> seats;
  // SERVICE hands dealt by stud-shuffle-v1 only (all three written together).
  bool service_shuffle = false;
  std::string server_seed_commitment;     // 32 raw bytes
  std::string deck_root;                  // 32 raw bytes
  std::vector<std::string> player_seeds;  // one per seat, "" = none
  std::vector<std::string> log;           // one text per public operation
  struct Shown {
    int seat = 0;
    std::vector<std::string> cards;
  };
  std::vector<Shown> shown;
  struct Ruling {
    std::string rule;
    int seat = 0;
  };
  std::vector<Ruling> rulings;
  struct Pot {
    int64_t amount = 0;
    std::vector<int> winners;
  };
  std::vector<Pot> pots;
  uint64_t version = 0;
  std::string server_seed;  // 32 raw bytes, only under REVEAL_POLICY_AT_END; "" = left out
};

// The transcript bytes.
std::string Transcript(const ReceiptData& data);

// first 8 bytes of SHA-256(public key) as 16 lowercase hex digits.
std::string KeyId(absl::string_view public_key);

struct SigningKey {
  std::string key_id;
  std::string public_key;  // 32 bytes
  std::string secret_key;  // libsodium's 64-byte Ed25519 secret key
};

// The receipt signing keys: the first signs, all verify.
class SigningKeys {
 public:
  // From the text of a --signing_keys_file: one key per line, "name:base64"
  // with the 32-byte Ed25519 seed in standard base64 (the name is a label
  // for people; the published key id is KeyId of the public key). Blank lines
  // and lines starting with '#' are skipped. INVALID_ARGUMENT names the line.
  static absl::StatusOr<SigningKeys> FromText(absl::string_view text);
  // One key from a fresh random seed (no file configured).
  static SigningKeys Ephemeral();
  // One key from a 32-byte seed.
  static SigningKeys FromSeed(absl::string_view seed);

  const std::vector<SigningKey>& keys() const { return keys_; }
  const SigningKey& signer() const { return keys_.front(); }
  // Ed25519 signature (64 bytes) of `message` with the first key.
  std::string Sign(absl::string_view message) const;

 private:
  std::vector<SigningKey> keys_;
};

// True when `signature` is `public_key`'s Ed25519 signature of `message`.
bool VerifySignature(absl::string_view message, absl::string_view signature,
                     absl::string_view public_key);

}  // namespace stud::fairness

#endif  // STUD_SERVICE_FAIRNESS_RECEIPT_H_
