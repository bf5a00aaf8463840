#include "service/trust/ledger.h"

#include <sodium.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "service/api/status_mapping.h"
#include "service/token/sealer.h"
#include "service/trust/waited.h"

namespace stud::service {
namespace {

// FAILED_PRECONDITION, reason LEDGER_BEHIND (ledger.h, kBehind).
absl::Status LedgerBehind(absl::string_view hand_id, uint64_t token_version,
                          uint64_t ledger_version) {
  return WithReason(
      absl::StatusCode::kFailedPrecondition, "LEDGER_BEHIND",
      absl::StrCat("token: hand ", hand_id, " is at version ", token_version,
                   " in this token but only at version ", ledger_version,
                   " in the hand ledger: the ledger lost writes (an older backup restored, or a "
                   "failover to a replica that had not received them); the hand needs a "
                   "person's decision before it continues"));
}

}  // namespace

using Result = absl::StatusOr<LedgerResult>;

Result Ledger::Create(const std::string& key, const LedgerCommit& commit) {
  return Waited<Result>([&](LedgerDone done) { StartCreate(key, commit, std::move(done)); });
}
Result Ledger::Advance(const std::string& key, const LedgerEntry& from, const LedgerCommit& to) {
  return Waited<Result>([&](LedgerDone done) { StartAdvance(key, from, to, std::move(done)); });
}
Result Ledger::Check(const std::string& key, const LedgerEntry& entry) {
  return Waited<Result>([&](LedgerDone done) { StartCheck(key, entry, std::move(done)); });
}

void NoLedger::StartCreate(const std::string&, const LedgerCommit&, LedgerDone done) {
  std::move(done)(LedgerResult{LedgerOutcome::kApplied, 0});
}
void NoLedger::StartAdvance(const std::string&, const LedgerEntry&, const LedgerCommit& to,
                            LedgerDone done) {
  std::move(done)(LedgerResult{LedgerOutcome::kApplied, to.entry.version});
}
void NoLedger::StartCheck(const std::string&, const LedgerEntry& entry, LedgerDone done) {
  std::move(done)(LedgerResult{LedgerOutcome::kLatest, entry.version});
}
void NoLedger::StartLatest(const std::string&, LatestDone done) { std::move(done)(LedgerLatest{}); }

std::string TenantKeyTag(absl::string_view tenant) {
  static constexpr unsigned char kPersonal[crypto_generichash_blake2b_PERSONALBYTES] = {
      's', 't', 'u', 'd', 'l', 'e', 'd', 'g', 'e', 'r', 't', 'e', 'n', 'a', 'n', 't'};
  unsigned char out[8];
  crypto_generichash_blake2b_salt_personal(out, sizeof(out),
                                           reinterpret_cast<const unsigned char*>(tenant.data()),
                                           tenant.size(), nullptr, 0, nullptr, kPersonal);
  return absl::StrCat(
      "t", absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(out), 8)));
}

std::string LedgerKey(absl::string_view tenant, absl::string_view hand_id_hex) {
  return absl::StrCat("stud:{", tenant.empty() ? std::string() : TenantKeyTag(tenant), ":",
                      hand_id_hex, "}");
}

std::string WatchStreamKey(absl::string_view tenant, absl::string_view hand_id_hex) {
  return absl::StrCat(LedgerKey(tenant, hand_id_hex), kWatchStreamSuffix);
}

std::string LiveHandsKey(absl::string_view ledger_key) {
  // "stud:{<tenant>:<hand>}": the tenant is between the brace and the last colon.
  const size_t open = ledger_key.find('{');
  const size_t colon = ledger_key.rfind(':');
  if (open == absl::string_view::npos || colon == absl::string_view::npos || colon < open) {
    return absl::StrCat("stud:live:{", ledger_key, "}");
  }
  return absl::StrCat("stud:live:{", ledger_key.substr(open + 1, colon - open - 1), "}");
}

absl::string_view HandIdOfKey(absl::string_view ledger_key) {
  const size_t colon = ledger_key.rfind(':');
  const size_t close = ledger_key.rfind('}');
  if (colon == absl::string_view::npos || close == absl::string_view::npos || close < colon) {
    return ledger_key;
  }
  return ledger_key.substr(colon + 1, close - colon - 1);
}

std::string WatchStreamId(uint64_t version) { return absl::StrCat(version, "-1"); }

std::string TokenDigest(absl::string_view token) {
  unsigned char out[16];
  crypto_generichash(out, sizeof(out), reinterpret_cast<const unsigned char*>(token.data()),
                     token.size(), nullptr, 0);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(out), sizeof(out)));
}

namespace {
constexpr char kTagNamePrefix = 'g';
}  // namespace

std::string TokenName(absl::string_view token, TokenNaming naming) {
  const absl::string_view tag = naming == TokenNaming::kTag ? SivTagOf(token) : "";
  if (tag.empty()) return TokenDigest(token);
  return absl::StrCat(absl::string_view(&kTagNamePrefix, 1), absl::BytesToHexString(tag));
}

TokenNaming NamingOf(absl::string_view name) {
  return name.size() == 33 && name[0] == kTagNamePrefix ? TokenNaming::kTag : TokenNaming::kDigest;
}

absl::StatusOr<std::string> HandIdFromCaller(absl::string_view hand_id, absl::string_view field) {
  const bool hex = hand_id.size() == 32 && std::all_of(hand_id.begin(), hand_id.end(), [](char c) {
                     return absl::ascii_isxdigit(static_cast<unsigned char>(c));
                   });
  if (hex) return absl::AsciiStrToLower(hand_id);
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": '", absl::CHexEscape(hand_id.substr(0, 64)),
                   "' is not a hand id (32 hex digits, as in PublicView.hand_id)"));
}

void StartLatestOfHand(Ledger* ledger, absl::string_view tenant, absl::string_view hand_id,
                       absl::string_view field, LatestDone done) {
  absl::StatusOr<std::string> checked = HandIdFromCaller(hand_id, field);
  if (!checked.ok()) return std::move(done)(std::move(checked).status());
  if (ledger == nullptr) return std::move(done)(LedgerNotConfigured(field));
  std::string id = *std::move(checked);
  const std::string key = LedgerKey(tenant, id);
  ledger->StartLatest(key, [id = std::move(id), field = std::string(field),
                            done = std::move(done)](absl::StatusOr<LedgerLatest> latest) mutable {
    if (latest.ok() && latest->outcome != LedgerOutcome::kLatest) {
      return std::move(done)(HandNotInLedger(id, field));
    }
    std::move(done)(std::move(latest));
  });
}

absl::StatusOr<LedgerLatest> LatestOfHand(Ledger* ledger, absl::string_view tenant,
                                          absl::string_view hand_id, absl::string_view field) {
  return Waited<absl::StatusOr<LedgerLatest>>(
      [&](LatestDone done) { StartLatestOfHand(ledger, tenant, hand_id, field, std::move(done)); });
}

absl::StatusOr<LedgerLatest> Ledger::Latest(const std::string& key) {
  return Waited<absl::StatusOr<LedgerLatest>>(
      [&](LatestDone done) { StartLatest(key, std::move(done)); });
}

void LedgerScope::NoteOpened(absl::string_view hand_id, uint64_t version, absl::string_view token,
                             absl::string_view digest) {
  if (ledger_ == nullptr || opened_) return;
  opened_ = Noted{absl::BytesToHexString(hand_id),
                  {.entry = {version, digest.empty() ? TokenName(token, ledger_->naming())
                                                     : std::string(digest)}}};
  opened_token_.assign(token.data(), token.size());
}

absl::string_view LedgerScope::NoteSealed(absl::string_view hand_id, uint64_t version,
                                          uint64_t first_op, bool ended, absl::string_view token) {
  if (ledger_ == nullptr) return "";
  sealed_ =
      Noted{absl::BytesToHexString(hand_id),
            {{version, TokenName(token, ledger_->naming())}, std::string(token), first_op, ended}};
  return sealed_->commit.entry.name;
}

// What a call's Finish carries to the ledger's answer: the scope's notes
// (the scope itself belongs to the handler's stack frame), the opened token's
// bytes, the tenant, the handler's status and the completion.
struct LedgerScope::Pending {
  Ledger* ledger;
  std::optional<Noted> opened;
  std::optional<Noted> sealed;
  std::string opened_token;  // for Rename: the entry may name it the other way
  std::string tenant;
  absl::Status handler_status;
  absl::AnyInvocable<void(absl::Status) &&> done;
  bool renamed = false;

  const Noted& about() const { return opened ? *opened : *sealed; }
  static void Complete(std::unique_ptr<Pending> p, absl::Status status) {
    std::move(p->done)(std::move(status));
  }
  // A call that succeeded, completed once the ledger has answered.
  static void Judge(std::unique_ptr<Pending> p, const absl::StatusOr<LedgerResult>& r) {
    absl::Status status = p->Judged(r);
    Complete(std::move(p), std::move(status));
  }

  // The ledger call the notes ask for (see the top of ledger.h); its answer
  // decides the call's status.
  static void Ask(std::unique_ptr<Pending> p) {
    Ledger* const ledger = p->ledger;
    const std::string key = LedgerKey(p->tenant, p->about().hand_id_hex);
    if (!p->handler_status.ok()) {
      const LedgerEntry& entry = p->opened->commit.entry;
      ledger->StartCheck(key, entry, Then(std::move(p), [](std::unique_ptr<Pending> q, auto& r) {
                           absl::Status status = q->Refusal(r);
                           Complete(std::move(q), std::move(status));
                         }));
    } else if (p->sealed && !p->opened) {
      const LedgerCommit& commit = p->sealed->commit;
      ledger->StartCreate(key, commit, Then(std::move(p), &Judge));
    } else if (p->sealed && p->sealed->hand_id_hex != p->opened->hand_id_hex) {
      // A redeal (NewHand with redeal_of): the misdealt hand must be at its
      // latest token, and the redeal is a new hand [STUD-IRR-EXP-1].
      const LedgerEntry& entry = p->opened->commit.entry;
      ledger->StartCheck(key, entry, Then(std::move(p), &CreateRedeal));
    } else if (p->sealed) {
      const LedgerEntry& from = p->opened->commit.entry;
      const LedgerCommit& to = p->sealed->commit;
      ledger->StartAdvance(key, from, to, Then(std::move(p), &Judge));
    } else {
      const LedgerEntry& entry = p->opened->commit.entry;
      ledger->StartCheck(key, entry, Then(std::move(p), &Judge));
    }
  }
  // The redeal's new hand, once the misdealt one is known to be at its latest.
  static void CreateRedeal(std::unique_ptr<Pending> p, const absl::StatusOr<LedgerResult>& r) {
    if (!r.ok() || (r->outcome != LedgerOutcome::kLatest && r->outcome != LedgerOutcome::kRetry)) {
      return Judge(std::move(p), r);
    }
    Ledger* const store = p->ledger;
    const std::string redeal = LedgerKey(p->tenant, p->sealed->hand_id_hex);
    const LedgerCommit& commit = p->sealed->commit;
    store->StartCreate(
        redeal, commit, Then(std::move(p), [](std::unique_ptr<Pending> q, auto& created) {
          if (created.ok() && created->outcome == LedgerOutcome::kSuperseded) {
            return Complete(std::move(q), absl::InternalError("ledger: a new hand's id is already "
                                                              "taken"));
          }
          Judge(std::move(q), created);
        }));
  }
  // The completion of a ledger call: `next(p, answer)`, unless the answer
  // asks the call to name its tokens the other way (Rename): then the call is
  // asked again.
  template <typename Next>
  static LedgerDone Then(std::unique_ptr<Pending> p, Next next) {
    return [p = std::move(p), next](const absl::StatusOr<LedgerResult>& r) mutable {
      if (p->Rename(r)) return Ask(std::move(p));
      next(std::move(p), r);
    };
  }
  // True, once per call, when the entry is at a version this call names but
  // names its token the other way (replicas of one ledger with different
  // --ledger_token_names, ledger.h TokenNaming): the call's token of that
  // version is then named as the entry names its own, so that the entry's
  // own token compares equal.
  bool Rename(const absl::StatusOr<LedgerResult>& r) {
    if (renamed || !r.ok() || !r->named_otherwise) return false;
    renamed = true;
    const TokenNaming naming = NamingOf(r->latest_name);
    auto at_entry = [&](const std::optional<Noted>& n) {
      return n && n->commit.entry.version == r->latest_version;
    };
    // The entry at the opened token's version: the new entry, if any, is
    // written in this replica's naming. At the sealed one's: the exact retry.
    if (at_entry(opened)) opened->commit.entry.name = TokenName(opened_token, naming);
    if (at_entry(sealed)) sealed->commit.entry.name = TokenName(sealed->commit.token, naming);
    return true;
  }

  // A refused call (nothing applied): a stale token is reported as such
  // rather than judged; when the ledger cannot say, the call's own error stands.
  absl::Status Refusal(const absl::StatusOr<LedgerResult>& r) const {
    if (!r.ok()) return handler_status;
    switch (r->outcome) {
      case LedgerOutcome::kSuperseded:
        return TokenSuperseded(opened->hand_id_hex, opened->commit.entry.version,
                               r->latest_version);
      case LedgerOutcome::kMissing:
        return HandNotInLedger(opened->hand_id_hex);
      case LedgerOutcome::kBehind:
        return LedgerBehind(opened->hand_id_hex, opened->commit.entry.version, r->latest_version);
      default:
        return handler_status;
    }
  }

  // A call that succeeded: its status once the ledger has answered.
  absl::Status Judged(const absl::StatusOr<LedgerResult>& r) const {
    if (!r.ok()) return r.status();
    switch (r->outcome) {
      case LedgerOutcome::kApplied:
      case LedgerOutcome::kRetry:
      case LedgerOutcome::kLatest:
        return handler_status;
      case LedgerOutcome::kMissing:
        return HandNotInLedger(about().hand_id_hex);
      case LedgerOutcome::kSuperseded:
        if (!opened) return absl::InternalError("ledger: a new hand's id is already taken");
        return TokenSuperseded(opened->hand_id_hex, opened->commit.entry.version,
                               r->latest_version);
      case LedgerOutcome::kBehind:
        return LedgerBehind(about().hand_id_hex, opened ? opened->commit.entry.version : 0,
                            r->latest_version);
      case LedgerOutcome::kHandsExhausted:
        return WithReason(
            absl::StatusCode::kResourceExhausted, "TENANT_HANDS_EXHAUSTED",
            absl::StrCat("tenant '", tenant, "' has ", r->live_hands,
                         " hands in play in the hand ledger (--ledger_max_hands_per_tenant); "
                         "finish or abandon hands (an abandoned hand counts until it expires) "
                         "and retry later"));
    }
    return absl::InternalError("ledger: unknown outcome");
  }
};

void LedgerScope::Finish(absl::Status handler_status, absl::string_view tenant,
                         absl::AnyInvocable<void(absl::Status) &&> done) {
  if (ledger_ == nullptr) return std::move(done)(std::move(handler_status));
  if (opened_ && opened_->hand_id_hex.empty()) return std::move(done)(LedgerNeedsHandId());
  if (sealed_ && sealed_->hand_id_hex.empty()) {
    return std::move(done)(absl::InternalError("ledger: a sealed hand has no hand id"));
  }
  // No hand involved (stateless showdown, a replay without a token), or a
  // refused call that opened none: nothing to ask.
  if (!opened_ && (!sealed_ || !handler_status.ok())) {
    return std::move(done)(std::move(handler_status));
  }
  auto p = std::unique_ptr<Pending>(new Pending{.ledger = ledger_,
                                                .opened = std::move(opened_),
                                                .sealed = std::move(sealed_),
                                                .opened_token = std::move(opened_token_),
                                                .tenant = std::string(tenant),
                                                .handler_status = std::move(handler_status),
                                                .done = std::move(done)});
  Pending::Ask(std::move(p));
}

}  // namespace stud::service
