// HandCache: the hands this replica answered with, kept decoded between
// calls, so that the next call on the token it just returned skips opening
// and decoding it (about two fifths of an ApplyAction: docs/benchmarks.md,
// "Decoded hands kept between calls").
//
// Why a hit is always right. An entry is found only by the exact bytes of the
// token it was sealed as (or opened from) and the exact tenant of the call
// that did so. Opening is a pure function of those two within one process:
// the key ring is fixed at start-up (token/sealer.h) and every format opens
// whatever --token_format says, so the same bytes for the same tenant open
// to the same plaintext, and ParseSealedHand(SerializeSealedHand(h)) == h for
// every hand the engine produces (token/codec.h). A call of another tenant,
// or with any other bytes (a forged tag included), misses and opens the
// token as before, with the same errors. Nothing outside the token is
// trusted more: the caller's seat ticket, the ledger's latest version and
// the hand id checks all run after the hand is found, as after an open.
//
// With the hand, the ledger's name of its token (its "digest" here) when the
// call that kept it had one (trust/ledger.h, TokenName): a function of the
// token's bytes alone, kept and found with exactly those bytes, so the next
// call's ledger need not name the token again.
//
// A hand leaves the cache when a call finds it (Take): the call owns it and
// may change it (ApplyAction applies its action to it). A call keeps its
// hand again (Keep) under the token it answers with: the new token when it
// sealed one, or the one it opened when it only read the hand. Two calls on
// one token at once: the second misses and opens the token, as without the
// cache. Stateless across replicas, as before: a replica that never saw a
// token opens it; behind per-call balancing across n replicas a call finds
// its hand about one time in n.
//
// Bounded: `capacity` hands, first in first out (a hand's tokens are used
// once each in play; the oldest kept is the least likely to come back).
// Hands are passed in and out by pointer, never copied: a call's hand and
// the entry's trade places, so their vectors and strings keep their capacity
// and a steady server allocates nothing here. Sharded, one mutex per shard,
// held for a look-up and a pointer swap.
#ifndef STUD_SERVICE_TOKEN_HAND_CACHE_H_
#define STUD_SERVICE_TOKEN_HAND_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "service/token/codec.h"

namespace stud::service {

class HandCache {
 public:
  // `capacity` hands at most; 0 = off (Take always misses, Keep keeps none).
  explicit HandCache(size_t capacity);
  ~HandCache();
  HandCache(const HandCache&) = delete;
  HandCache& operator=(const HandCache&) = delete;

  // A hit: *hand becomes the hand kept as exactly `token` for exactly
  // `tenant`, which leaves the cache, and the cache takes the hand *hand
  // held, whatever it holds, to reuse its capacity (true). A miss: *hand is
  // unchanged (false). On a hit *digest becomes the digest kept with the hand
  // ("" if none).
  bool Take(absl::string_view token, absl::string_view tenant, std::unique_ptr<SealedHand>* hand,
            std::string* digest);
  // Keeps **hand as the hand `token` holds for `tenant` (the token that was
  // just sealed from it, or opened into it), with `digest` (the ledger's
  // digest of `token`, or ""), replacing an entry of the same token. *hand
  // becomes some other hand the cache held, or null: its capacity is for the
  // next open to reuse.
  void Keep(absl::string_view token, absl::string_view tenant, std::unique_ptr<SealedHand>* hand,
            absl::string_view digest);

  struct Counts {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t evictions = 0;  // kept hands pushed out, unused, by newer ones
  };
  Counts counts() const;
  size_t capacity() const { return capacity_; }

 private:
  struct Shard;
  Shard& ShardOf(uint64_t key) const;
  size_t capacity_;
  size_t shard_count_;
  std::unique_ptr<Shard[]> shards_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TOKEN_HAND_CACHE_H_
