#include "service/token/gcm_siv.h"

#include <gcrypt.h>

#include <cstdlib>
#include <cstring>

namespace stud::service::gcm_siv {
namespace {

// A thread's cipher handles, one per recently used key. Keying a handle (the
// AES key schedule) costs about a sixth of a seal, so the handles of the last
// few keys are kept: the sealing key and the keys of tokens being opened
// (during a key rotation, the previous one).
class HandleCache {
 public:
  // A program that never called InitCrypto still starts libgcrypt properly.
  HandleCache() { (void)Init(); }
  ~HandleCache() {
    for (Slot& s : slots_) {
      if (s.handle != nullptr) gcry_cipher_close(s.handle);
    }
  }

  // A handle keyed with `key` and reset, ready for a new message.
  gcry_cipher_hd_t For(const KeyBytes& key) {
    for (Slot& s : slots_) {
      if (s.handle != nullptr && s.key == key) {
        gcry_cipher_reset(s.handle);
        return s.handle;
      }
    }
    Slot& s = slots_[next_++ % slots_.size()];
    if (s.handle == nullptr &&
        gcry_cipher_open(&s.handle, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM_SIV, 0) != 0) {
      std::abort();  // Init() checked that this mode exists
    }
    gcry_cipher_setkey(s.handle, key.data(), key.size());
    s.key = key;
    return s.handle;
  }

 private:
  struct Slot {
    gcry_cipher_hd_t handle = nullptr;
    KeyBytes key{};
  };
  std::array<Slot, 4> slots_{};
  size_t next_ = 0;
};

HandleCache& ThreadCache() {
  thread_local HandleCache cache;
  return cache;
}

}  // namespace

absl::Status Init() {
  static const bool ok = [] {
    if (gcry_check_version(GCRYPT_VERSION) == nullptr) return false;
    // Keys live in ordinary memory, as libsodium's do here; libgcrypt's secure
    // memory would only warn when it cannot lock pages (as in a container).
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    gcry_cipher_hd_t probe = nullptr;
    if (gcry_cipher_open(&probe, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM_SIV, 0) != 0) {
      return false;
    }
    gcry_cipher_close(probe);
    return true;
  }();
  if (!ok) return absl::InternalError("libgcrypt failed to start or has no AES-256-GCM-SIV");
  return absl::OkStatus();
}

void Seal(const KeyBytes& key, const Nonce& nonce, absl::string_view associated_data,
          absl::string_view plaintext, uint8_t* out) {
  gcry_cipher_hd_t h = ThreadCache().For(key);
  gcry_cipher_setiv(h, nonce.data(), nonce.size());
  gcry_cipher_authenticate(h, associated_data.data(), associated_data.size());
  gcry_cipher_final(h);  // the whole message comes in the next call
  gcry_cipher_encrypt(h, out, plaintext.size(), plaintext.data(), plaintext.size());
  gcry_cipher_gettag(h, out + plaintext.size(), kTagBytes);
}

bool Open(const KeyBytes& key, const Nonce& nonce, absl::string_view associated_data,
          absl::string_view sealed, uint8_t* out) {
  if (sealed.size() < kTagBytes) return false;
  const size_t length = sealed.size() - kTagBytes;
  gcry_cipher_hd_t h = ThreadCache().For(key);
  gcry_cipher_setiv(h, nonce.data(), nonce.size());
  gcry_cipher_authenticate(h, associated_data.data(), associated_data.size());
  gcry_cipher_set_decryption_tag(h, sealed.data() + length, kTagBytes);
  gcry_cipher_final(h);
  if (gcry_cipher_decrypt(h, out, length, sealed.data(), length) != 0) {
    std::memset(out, 0, length);
    return false;
  }
  return true;
}

}  // namespace stud::service::gcm_siv
