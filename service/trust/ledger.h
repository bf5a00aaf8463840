// The hand ledger: one line per hand, no forks.
//
// A token is a self-contained, authenticated hand state, so on its own the
// service cannot tell an old token from the latest one: a caller could send an
// older token with another action and fork the hand. With a ledger
// (stud_server --ledger redis://HOST:PORT) every call that changes a hand
// commits (tenant, hand id) -> (version, name of the new token) with one
// atomic compare-and-set before the answer leaves, and every call on a token
// that is not the hand's latest is refused (ABORTED, TOKEN_SUPERSEDED). The
// exact retry of the call that produced the latest token still gets the
// identical answer: sealing is deterministic, so the retry computes the same
// new token, whose name is already the entry.
//
// The handlers themselves do not talk to the ledger. The gRPC adapter opens a
// LedgerScope around each call and hands it to the handler in the call's
// context (rpc/call_context.h, CallContext::ledger); HandService::Unseal notes
// the token it opened and every place that seals a new token notes it;
// LedgerScope::Finish then makes the one ledger call the notes ask for, and
// the call is answered from the ledger's reply, on the ledger's thread (no
// handler thread waits on Redis):
//   sealed, nothing opened (NewHand, ReplayHandHistory)  Create (Lua SET NX)
//   opened and sealed (ApplyAction, RuleIrregularity)      Advance (Lua CAS)
//   opened only (LegalActions, GetView, ResolveShowdown,   Check (GET)
//     ExportHandHistory; also any refused call, so a stale token is reported
//     as superseded rather than judged)
// A ledger that cannot be reached makes the call UNAVAILABLE (fail closed):
// the answer, and with it the new token, never leaves.
//
// The entry also keeps the latest token's bytes (Latest: GetView by hand id),
// and every Create/Advance that writes publishes the change, atomically with
// its compare-and-set, on the hand's watch stream (kWatchStreamSuffix below),
// which WatchHand reads.
#ifndef STUD_SERVICE_TRUST_LEDGER_H_
#define STUD_SERVICE_TRUST_LEDGER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace stud::service {

// How entries name a token (--ledger_token_names). Either name is a function
// of the token's bytes alone, so every replica names a token the same way,
// and the exact retry of a call names its new token as the first try did.
//   kDigest  BLAKE2b-128 of the bytes, 32 hex digits (TokenDigest). Every
//            release names tokens so.
//   kTag     a token of format 4 or 5 by its AES-256-GCM-SIV tag, which sealing
//            and opening make anyway (token/sealer.h, SivTagOf): "g" and 32
//            hex digits, no hashing; other formats keep their digest.
// Replicas that name tokens differently share one ledger: a call whose
// entry names the token the other way names it so too and asks once more
// (docs/ledger.md, "Token names"), so a fleet switches one replica at a time.
enum class TokenNaming { kDigest, kTag };
// `token`'s name in `naming`.
std::string TokenName(absl::string_view token, TokenNaming naming);
// The naming `name` is in.
TokenNaming NamingOf(absl::string_view name);

// A hand's ledger entry: its latest version and the name of its latest token.
struct LedgerEntry {
  uint64_t version = 0;
  std::string name;  // the token's TokenName
  friend bool operator==(const LedgerEntry&, const LedgerEntry&) = default;
};

enum class LedgerOutcome {
  kApplied,     // Create/Advance wrote the new entry
  kRetry,       // the entry already was the new one: the exact retry of the last call
  kLatest,      // Check: the token is the latest
  kSuperseded,  // the entry is another (later) token
  kMissing,     // no entry: never registered, or expired
  // The entry is an OLDER version than the token: the ledger lost writes
  // (an older snapshot restored, or a failover to a replica that had not
  // received them). FAILED_PRECONDITION LEDGER_BEHIND: neither the token nor
  // the entry is accepted as the hand's line without a person deciding.
  kBehind,
  // Create refused: the tenant has max_hands_per_tenant live hands
  // (RESOURCE_EXHAUSTED TENANT_HANDS_EXHAUSTED; redis_ledger.h).
  kHandsExhausted,
};

struct LedgerResult {
  LedgerOutcome outcome = LedgerOutcome::kMissing;
  uint64_t latest_version = 0;  // the entry's version when there is one
  uint64_t live_hands = 0;      // kHandsExhausted: the tenant's live hands
  // kSuperseded and kBehind: the name of the entry's token (the store may leave it "").
  std::string latest_name;
  // kSuperseded only: the entry is at a version the call named, but names
  // that token the other way (TokenNaming): the same token, perhaps, named by
  // a replica of the other setting (LedgerScope then names it so and asks again).
  bool named_otherwise = false;
};

// What Create and Advance write: the new entry, its token (kept as the hand's
// latest and published on the watch stream) and what the change was.
struct LedgerCommit {
  LedgerEntry entry;
  std::string token;      // the new token's bytes; entry.name is its TokenName
  uint64_t first_op = 0;  // index of the first operation this version appended (0: a new hand)
  bool ended = false;     // the hand ended with this version (also picks the expiry)
};

// Latest: the hand's latest version and token. outcome kLatest, or kMissing
// (no entry: never registered, expired, or written before entries kept tokens).
struct LedgerLatest {
  LedgerOutcome outcome = LedgerOutcome::kMissing;
  uint64_t version = 0;
  std::string token;
};

// The watch stream, a contract shared with WatchHand. Every Create/Advance
// that writes a new entry appends, in the same atomic step, one entry to the
// Redis Stream LedgerKey(tenant, hand) + kWatchStreamSuffix (same hash tag,
// same slot) with
//   ID     "<version>-1" (WatchStreamId): strictly increasing with the
//          version, so a reader resuming after version v reads from ID
//          "<v>-1" exclusive, with no gap and no duplicate;
//   fields kWatchFieldToken = the new token's bytes,
//          kWatchFieldFirstOp = LedgerCommit::first_op in decimal,
//          kWatchFieldEnded = "1" when the hand ended with this version, else "0".
// The stream is trimmed to about kWatchStreamMaxLen entries (MAXLEN ~; a hand
// has far fewer versions) and gets the same expiry as the hand's entry each
// time. An exact retry (kRetry) appends nothing.
inline constexpr char kWatchStreamSuffix[] = ":watch";
inline constexpr char kWatchFieldToken[] = "t";
inline constexpr char kWatchFieldFirstOp[] = "o";
inline constexpr char kWatchFieldEnded[] = "e";
inline constexpr int kWatchStreamMaxLen = 1024;

// A ledger call's completion: runs once, with the result, on the ledger's own
// thread (or inline, when the answer needs no store). It must not wait on the
// ledger (the synchronous forms below): that thread is the one that answers.
using LedgerDone = absl::AnyInvocable<void(absl::StatusOr<LedgerResult>) &&>;
// The same for Latest.
using LatestDone = absl::AnyInvocable<void(absl::StatusOr<LedgerLatest>) &&>;

// The store behind the ledger. Implementations are thread-safe. Every call
// ends with UNAVAILABLE (nothing written) when the store cannot be reached in
// time; none takes longer than its configured timeouts.
//
// The service uses the Start forms: they return at once and complete `done`
// when the store has answered, so no handler thread waits on the store. They
// read what they are given before `done` can run (it may run before they
// return). Create, Advance and Check are the same calls waiting for their
// result.
class Ledger {
 public:
  virtual ~Ledger() = default;
  // How this replica names the tokens it notes (--ledger_token_names).
  virtual TokenNaming naming() const { return TokenNaming::kDigest; }
  // `key` is LedgerKey(tenant, hand id); `commit.ended` picks the expiry
  // (ended hands are kept for a shorter time than hands in play). A write
  // (kApplied) also publishes the change on the watch stream.
  virtual void StartCreate(const std::string& key, const LedgerCommit& commit, LedgerDone done) = 0;
  virtual void StartAdvance(const std::string& key, const LedgerEntry& from, const LedgerCommit& to,
                            LedgerDone done) = 0;
  virtual void StartCheck(const std::string& key, const LedgerEntry& entry, LedgerDone done) = 0;
  // The hand's latest token (GetView by hand id, WatchHand).
  virtual void StartLatest(const std::string& key, LatestDone done) = 0;
  // The same, waited for (StartLatest unless the store has its own form).
  virtual absl::StatusOr<LedgerLatest> Latest(const std::string& key);

  absl::StatusOr<LedgerResult> Create(const std::string& key, const LedgerCommit& commit);
  absl::StatusOr<LedgerResult> Advance(const std::string& key, const LedgerEntry& from,
                                       const LedgerCommit& to);
  absl::StatusOr<LedgerResult> Check(const std::string& key, const LedgerEntry& entry);
};

// Ledger off (trusted mode, the default): every call passes, inline, and
// nothing is stored.
class NoLedger final : public Ledger {
 public:
  void StartCreate(const std::string&, const LedgerCommit&, LedgerDone done) override;
  void StartAdvance(const std::string&, const LedgerEntry&, const LedgerCommit& to,
                    LedgerDone done) override;
  void StartCheck(const std::string&, const LedgerEntry& entry, LedgerDone done) override;
  // Nothing is stored: always kMissing.
  void StartLatest(const std::string&, LatestDone done) override;
};

// "stud:{<tenant tag>:<hand id hex>}": the braces are a Redis Cluster hash
// tag, so each hand's key has one slot. The tag is "" without a tenant, else
// TenantKeyTag(tenant): the tenant's name is never in a key (a key listing,
// MONITOR, the slow log or a backup copied elsewhere would show it).
std::string LedgerKey(absl::string_view tenant, absl::string_view hand_id_hex);
// "t" and 16 hex digits: BLAKE2b-64 of the tenant's name, personalised
// "studledgertenant". Unkeyed on purpose: a hand outlives a rotation of the
// token ring, whose key keys format 5's tenant tag, and the key of a hand must
// not change under it. It hides the name from whoever reads the keys, not from
// someone who guesses names and hashes them (docs/ledger.md, "Key names").
std::string TenantKeyTag(absl::string_view tenant);
// The hand's watch stream: LedgerKey(tenant, hand id) + kWatchStreamSuffix.
std::string WatchStreamKey(absl::string_view tenant, absl::string_view hand_id_hex);
// The set of a tenant's live hands, from its LedgerKey: "stud:live:{<tenant
// tag>}".
std::string LiveHandsKey(absl::string_view ledger_key);
// The hand id part of a LedgerKey.
absl::string_view HandIdOfKey(absl::string_view ledger_key);
// The watch stream entry ID of `version`: "<version>-1".
std::string WatchStreamId(uint64_t version);
// BLAKE2b-128 of the token, as 32 hex characters (TokenNaming::kDigest).
std::string TokenDigest(absl::string_view token);

// The latest token of the hand whose id is `hand_id` (PublicView.hand_id: 32
// hex digits, either case) for `tenant` (GetView by hand id). `field` names
// the request field in messages. INVALID_ARGUMENT when `hand_id` is not 32 hex
// digits; FAILED_PRECONDITION LEDGER_NOT_CONFIGURED when `ledger` is null,
// HAND_NOT_IN_LEDGER when the ledger holds no token of the hand; UNAVAILABLE
// LEDGER_UNAVAILABLE when it cannot be reached.
absl::StatusOr<LedgerLatest> LatestOfHand(Ledger* ledger, absl::string_view tenant,
                                          absl::string_view hand_id, absl::string_view field);
// The same, completing `done` once the ledger has answered (at once for a
// refused `hand_id` or without a ledger).
void StartLatestOfHand(Ledger* ledger, absl::string_view tenant, absl::string_view hand_id,
                       absl::string_view field, LatestDone done);
// A hand id as a caller sends it (GetViewRequest.hand_id,
// WatchHandRequest.hand_id) in the form the ledger keys it: 32 hex digits in
// either case, returned lowercase. Anything else is INVALID_ARGUMENT naming
// `field` and showing what was sent (escaped, at most 64 bytes).
absl::StatusOr<std::string> HandIdFromCaller(absl::string_view hand_id, absl::string_view field);

// The ledger bookkeeping of one call (see the top of the file), passed to the
// call's handler as a parameter. A scope with a null ledger records nothing
// and passes every call.
class LedgerScope {
 public:
  explicit LedgerScope(Ledger* ledger) : ledger_(ledger) {}
  LedgerScope(const LedgerScope&) = delete;
  LedgerScope& operator=(const LedgerScope&) = delete;

  // Called where a token is opened and where a new token is sealed, with the
  // hand id's raw bytes (ServiceData::hand_id); no-ops without a ledger (the
  // id is hex-encoded only with one). The first token opened is the call's.
  // `digest`: the token's TokenName in the ledger's naming when the caller has
  // it (a hand kept as exactly this token, token/hand_cache.h), else "" and
  // it is made.
  void NoteOpened(absl::string_view hand_id, uint64_t version, absl::string_view token,
                  absl::string_view digest = "");
  // `first_op`: the index of the first operation the sealed version appended
  // (0 for a new hand), published on the watch stream. Returns the token's
  // TokenName ("" without a ledger), valid until the next NoteSealed: kept
  // with the hand, so that the next call on that token need not hash it again.
  absl::string_view NoteSealed(absl::string_view hand_id, uint64_t version, uint64_t first_op,
                               bool ended, absl::string_view token);
  // The TokenName of `token` if it is the token noted opened, else "" (none
  // was, another was, or no ledger).
  absl::string_view OpenedNameOf(absl::string_view token) const {
    return opened_ && token == opened_token_ ? absl::string_view(opened_->commit.entry.name) : "";
  }

  // Completes `done` with the call's final status: `handler_status` when the
  // ledger agrees (after committing what the call changed), else the
  // ledger's refusal. Inline when the call needs no ledger; otherwise on the
  // ledger's thread, after the scope itself may be gone (what it noted moves
  // into the completion).
  void Finish(absl::Status handler_status, absl::string_view tenant,
              absl::AnyInvocable<void(absl::Status) &&> done);

 private:
  struct Noted {
    std::string hand_id_hex;
    LedgerCommit commit;  // the token is kept for a sealed one only
  };
  struct Pending;
  Ledger* ledger_;
  std::optional<Noted> opened_;
  // The bytes opened_ is of, owned: the token a call opens may be a local of
  // its handler (GetView by hand id opens the ledger's latest), and a call
  // whose entry names tokens the other way names it again after the handler.
  std::string opened_token_;
  std::optional<Noted> sealed_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_LEDGER_H_
