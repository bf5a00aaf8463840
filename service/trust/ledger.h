// The hand ledger: one line per hand, no forks.
//
// A token is a self-contained, authenticated hand state, so on its own the
// service cannot tell an old token from the latest one: a caller could send an
// older token with another action and fork the hand. With a ledger
// (stud_server --ledger redis://HOST:PORT) every call that changes a hand
// commits (tenant, hand id) -> (version, digest of the new token) with one
// atomic compare-and-set before the answer leaves, and every call on a token
// that is not the hand's latest is refused (ABORTED, TOKEN_SUPERSEDED). The
// exact retry of the call that produced the latest token still gets the
// identical answer: sealing is deterministic, so the retry computes the same
// new token, whose digest is already the entry.
//
// The handlers themselves do not talk to the ledger. The gRPC adapter opens a
// LedgerScope around each call; HandService::Unseal notes the token it opened
// and every place that seals a new token notes it; LedgerScope::Finish then
// makes the one ledger call the notes ask for:
//   sealed, nothing opened (NewHand, ReplayHandHistory)  Create (SET NX)
//   opened and sealed (ApplyAction, RuleIrregularity)      Advance (Lua CAS)
//   opened only (LegalActions, GetView, ResolveShowdown,   Check (GET)
//     ExportHandHistory; also any refused call, so a stale token is reported
//     as superseded rather than judged)
// A ledger that cannot be reached makes the call UNAVAILABLE (fail closed):
// the answer, and with it the new token, never leaves.
#ifndef STUD_SERVICE_LEDGER_H_
#define STUD_SERVICE_LEDGER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace stud::service {

// A hand's ledger entry: its latest version and the digest of its latest token.
struct LedgerEntry {
  uint64_t version = 0;
  std::string digest;  // BLAKE2b-128 of the token bytes (TokenDigest)
  friend bool operator==(const LedgerEntry&, const LedgerEntry&) = default;
};

enum class LedgerOutcome {
  kApplied,     // Create/Advance wrote the new entry
  kRetry,       // the entry already was the new one: the exact retry of the last call
  kLatest,      // Check: the token is the latest
  kSuperseded,  // the entry is another (later) token
  kMissing,     // no entry: never registered, or expired
};

struct LedgerResult {
  LedgerOutcome outcome = LedgerOutcome::kMissing;
  uint64_t latest_version = 0;  // the entry's version when there is one
};

// The store behind the ledger. Implementations are thread-safe. Every method
// returns UNAVAILABLE (nothing written) when the store cannot be reached in
// time; no method blocks longer than its configured timeouts.
class Ledger {
 public:
  virtual ~Ledger() = default;
  // `key` is LedgerKey(tenant, hand id); `ended` picks the expiry (ended hands
  // are kept for a shorter time than hands in play).
  virtual absl::StatusOr<LedgerResult> Create(const std::string& key, const LedgerEntry& entry,
                                              bool ended) = 0;
  virtual absl::StatusOr<LedgerResult> Advance(const std::string& key, const LedgerEntry& from,
                                               const LedgerEntry& to, bool ended) = 0;
  virtual absl::StatusOr<LedgerResult> Check(const std::string& key, const LedgerEntry& entry) = 0;
};

// Ledger off (trusted mode, the default): every call passes, nothing is stored.
class NoLedger final : public Ledger {
 public:
  absl::StatusOr<LedgerResult> Create(const std::string&, const LedgerEntry&, bool) override;
  absl::StatusOr<LedgerResult> Advance(const std::string&, const LedgerEntry&, const LedgerEntry&,
                                       bool) override;
  absl::StatusOr<LedgerResult> Check(const std::string&, const LedgerEntry&) override;
};

// "stud:{<tenant>:<hand id hex>}": the braces are a Redis Cluster hash tag, so
// each hand's key has one slot. The tenant is hex-escaped when it holds a
// brace, a colon or a byte outside printable ASCII.
std::string LedgerKey(absl::string_view tenant, absl::string_view hand_id_hex);
// BLAKE2b-128 of the token, as 32 hex characters.
std::string TokenDigest(absl::string_view token);

// The ledger bookkeeping of one call on this thread (see the top of the file).
// A scope with a null ledger records nothing and passes every call.
class LedgerScope {
 public:
  explicit LedgerScope(Ledger* ledger);
  ~LedgerScope();
  LedgerScope(const LedgerScope&) = delete;
  LedgerScope& operator=(const LedgerScope&) = delete;

  // Called where a token is opened and where a new token is sealed, with the
  // hand id's raw bytes (ServiceData::hand_id); no-ops when no scope with a
  // ledger is active on this thread (the id is hex-encoded only then).
  static void NoteOpened(absl::string_view hand_id, uint64_t version, absl::string_view token);
  static void NoteSealed(absl::string_view hand_id, uint64_t version, bool ended,
                         absl::string_view token);

  // The call's final status: `handler_status` when the ledger agrees (after
  // committing what the call changed), else the ledger's refusal.
  absl::Status Finish(absl::Status handler_status, absl::string_view tenant);

 private:
  struct Noted {
    std::string hand_id_hex;
    LedgerEntry entry;
    bool ended = false;
  };
  Ledger* ledger_;
  LedgerScope* previous_;
  std::optional<Noted> opened_;
  std::optional<Noted> sealed_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_LEDGER_H_
