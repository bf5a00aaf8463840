// Where a hand's cards come from (brief section 4).
//
//   SERVICE  the service shuffles by stud-shuffle-v1 (docs/fairness.md,
//            service/fairness/shuffle.h): a 32-byte server seed from the
//            CSPRNG (randombytes_buf), committed as SHA-256(server seed) at
//            NewHand, with the hand id and the players' seeds (none unless
//            FairnessOptions.player_seeds asked for them) derives the deck,
//            the recycle order and the salts of the deck Merkle tree. The
//            deck is also committed to as before (old clients):
//            SHA-256(D || "/" || R || salt),
//            with D and R the two-character card codes of the deck and recycle
//            order concatenated and a 32-byte random salt. D, R and the salt
//            are revealed only on request, once the hand is complete, to a
//            caller allowed to see everything (GetView reveal_deck: no seat
//            ticket, a hand that requires none, a server started with
//            --allow_deck_reveal), who can then check that the deck never
//            changed. The public view carries the commitment alone: the deck
//            holds every folded, mucked or unshown hand.
//   PRESET   the caller's deck order (and optional recycle order); refused
//            with FAILED_PRECONDITION unless the server runs with --allow_preset.
//   LIVE     DealSource::kReported: each card arrives as an ACTION_KIND_DEAL
//            action and the engine checks seat, street, orientation, duplicates.
// This is the only randomness in the service, and it is used only by NewHand.
#ifndef STUD_SERVICE_RPC_DEALING_H_
#define STUD_SERVICE_RPC_DEALING_H_

#include <array>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/card.h"
#include "engine/hand_state.h"
#include "service/token/codec.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

// Random bytes from one call to the OS generator: a 32-byte seed expanded with
// ChaCha20 (randombytes_buf_deterministic) into a block of `bytes` (at most
// kMaxBlockBytes, held in the source itself), wiped when the source is
// destroyed; past the block, Fill asks the OS generator. A hand dealt by the
// service draws its id and its server seed from one source: one system call.
class RandomSource {
 public:
  static constexpr size_t kMaxBlockBytes = 64;
  explicit RandomSource(size_t bytes);
  ~RandomSource();
  RandomSource(const RandomSource&) = delete;
  RandomSource& operator=(const RandomSource&) = delete;
  void Fill(void* out, size_t n);

 private:
  std::array<unsigned char, kMaxBlockBytes> block_;
  size_t size_;
  size_t next_ = 0;
};

// A uniformly random permutation of the 52 cards: the stud-shuffle-v1 deck of
// a fresh server seed and hand id, no player seeds (as NewHand deals it).
std::vector<Card> ShuffledDeck();
// A new hand's id: 16 random bytes (PublicView.hand_id shows them as 32 hex
// digits). Unpredictable, so no caller can name a hand it was not given.
std::string NewHandId(RandomSource& random);
std::string NewHandId();
// The id as the API shows it: lowercase hex, "" for a token without one.
std::string HandIdText(const ServiceData& service);
// The same into `*out`, replacing what it held and keeping its capacity (an
// answer written as bytes: no allocation once the string has room).
void HandIdTextTo(const ServiceData& service, std::string* out);
// SHA-256(D || "/" || R || salt) as 32 raw bytes.
std::string DeckCommitment(const std::vector<Card>& deck, const std::vector<Card>& recycle_order,
                           const std::string& salt);

// Fills config.deal_source, deck and recycle_order and `service` (dealing mode,
// commitment, salt, a new hand id, the server seed and fairness options) from
// the request. With FairnessOptions.player_seeds the hand is left in its
// seeding phase (service->seeding, no deck yet: DealFromSeeds deals it once
// the seeds are in). INVALID_ARGUMENT names bad preset cards and fairness
// options outside SERVICE dealing; FAILED_PRECONDITION when PRESET is not
// allowed on this server.
absl::Status PrepareDeal(const stud::v1::NewHandRequest& request, bool allow_preset,
                         HandConfig* config, ServiceData* service);

// The players' seeds of a hand in seat order ("" = none), unpacked from
// ServiceData.packed_seeds (all "" when it holds none).
std::vector<std::string> PlayerSeeds(const ServiceData& service);
// Stores seat `seat`'s seed (1..num_seats).
void SetPlayerSeed(ServiceData* service, int num_seats, int seat, const std::string& seed);
// The deck and recycle order of stud-shuffle-v1 from the server seed, the hand
// id and the seeds now in `service`, and the old commitment with its 32-byte
// salt derived from the server seed. Ends the seeding phase. A pure function
// of `service`: the call that completes the seeds answers the same bytes
// when retried.
void DealFromSeeds(HandConfig* config, ServiceData* service);

// The commitment for a view: the digest alone (nothing for a hand the
// service did not shuffle). Never the reveal: every view gets this.
void EncodeCommitment(const ServiceData& service, stud::v1::DeckCommitment* out);
// The reveal (deck, recycle order, salt) of a complete hand the service
// shuffled; nothing for any other hand. Only for a caller GetView's
// reveal_deck checks let through (rpc/hand_rpcs.cc).
void EncodeDeckReveal(const HandState& state, const ServiceData& service,
                      stud::v1::DeckCommitment* out);

// Who asks GetView for the reveal, and where.
struct DeckRevealCaller {
  bool server_allows = false;     // ServiceOptions::allow_deck_reveal (--allow_deck_reveal)
  bool has_ticket = false;        // the call carries a seat ticket (the table's too)
  bool tickets_required = false;  // the hand's sealed policy, or this server's for the tenant
};
// OK when `caller` may have the reveal of `state` now. The deck holds every
// folded, mucked and unshown hand, so only a caller who may see everything
// gets it: PERMISSION_DENIED DECK_REVEAL_NOT_PERMITTED for a ticket, a hand
// that requires tickets or a server without the flag, whatever the phase;
// else FAILED_PRECONDITION DECK_NOT_REVEALABLE_YET while the hand is in progress.
absl::Status CheckDeckReveal(const DeckRevealCaller& caller, const HandState& state);

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_DEALING_H_
