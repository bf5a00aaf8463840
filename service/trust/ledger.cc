#include "service/trust/ledger.h"

#include <sodium.h>

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "service/api/status_mapping.h"

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

absl::StatusOr<LedgerResult> NoLedger::Create(const std::string&, const LedgerCommit&) {
  return LedgerResult{LedgerOutcome::kApplied, 0};
}
absl::StatusOr<LedgerResult> NoLedger::Advance(const std::string&, const LedgerEntry&,
                                               const LedgerCommit& to) {
  return LedgerResult{LedgerOutcome::kApplied, to.entry.version};
}
absl::StatusOr<LedgerResult> NoLedger::Check(const std::string&, const LedgerEntry& entry) {
  return LedgerResult{LedgerOutcome::kLatest, entry.version};
}
absl::StatusOr<LedgerLatest> NoLedger::Latest(const std::string&) { return LedgerLatest{}; }

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

absl::StatusOr<LedgerLatest> LatestOfHand(Ledger* ledger, absl::string_view tenant,
                                          absl::string_view hand_id, absl::string_view field) {
  const bool hex = hand_id.size() == 32 && std::all_of(hand_id.begin(), hand_id.end(), [](char c) {
                     return absl::ascii_isxdigit(static_cast<unsigned char>(c));
                   });
  if (!hex) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": '", absl::CHexEscape(hand_id.substr(0, 64)),
                     "' is not a hand id (32 hex digits, as in PublicView.hand_id)"));
  }
  if (ledger == nullptr) return LedgerNotConfigured(field);
  const std::string id = absl::AsciiStrToLower(hand_id);
  absl::StatusOr<LedgerLatest> latest = ledger->Latest(LedgerKey(tenant, id));
  if (latest.ok() && latest->outcome != LedgerOutcome::kLatest) return HandNotInLedger(id, field);
  return latest;
}

void LedgerScope::NoteOpened(absl::string_view hand_id, uint64_t version, absl::string_view token) {
  if (ledger_ == nullptr || opened_) return;
  opened_ = Noted{absl::BytesToHexString(hand_id), {.entry = {version, TokenDigest(token)}}};
}

void LedgerScope::NoteSealed(absl::string_view hand_id, uint64_t version, uint64_t first_op,
                             bool ended, absl::string_view token) {
  if (ledger_ == nullptr) return;
  sealed_ = Noted{absl::BytesToHexString(hand_id),
                  {{version, TokenDigest(token)}, std::string(token), first_op, ended}};
}

absl::Status LedgerScope::Finish(absl::Status handler_status, absl::string_view tenant) {
  if (ledger_ == nullptr) return handler_status;
  if (opened_ && opened_->hand_id_hex.empty()) return LedgerNeedsHandId();
  if (sealed_ && sealed_->hand_id_hex.empty()) {
    return absl::InternalError("ledger: a sealed hand has no hand id");
  }
  if (!handler_status.ok()) {
    // Nothing was applied. A stale token is reported as such rather than
    // judged; when the ledger cannot say, the call's own error stands.
    if (!opened_) return handler_status;
    absl::StatusOr<LedgerResult> r =
        ledger_->Check(LedgerKey(tenant, opened_->hand_id_hex), opened_->commit.entry);
    if (!r.ok()) return handler_status;
    if (r->outcome == LedgerOutcome::kSuperseded) {
      return TokenSuperseded(opened_->hand_id_hex, opened_->commit.entry.version,
                             r->latest_version);
    }
    if (r->outcome == LedgerOutcome::kMissing) return HandNotInLedger(opened_->hand_id_hex);
    if (r->outcome == LedgerOutcome::kBehind) {
      return LedgerBehind(opened_->hand_id_hex, opened_->commit.entry.version, r->latest_version);
    }
    return handler_status;
  }
  absl::StatusOr<LedgerResult> r;
  const Noted* about = opened_ ? &*opened_ : sealed_ ? &*sealed_ : nullptr;
  if (about == nullptr)
    return handler_status;  // no hand involved (stateless showdown, a replay without a token)
  const std::string key = LedgerKey(tenant, about->hand_id_hex);
  if (sealed_ && !opened_) {
    r = ledger_->Create(key, sealed_->commit);
  } else if (sealed_ && sealed_->hand_id_hex != opened_->hand_id_hex) {
    // A redeal (NewHand with redeal_of): the misdealt hand must be at its
    // latest token, and the redeal is a new hand [STUD-IRR-EXP-1].
    r = ledger_->Check(key, opened_->commit.entry);
    if (r.ok() && (r->outcome == LedgerOutcome::kLatest || r->outcome == LedgerOutcome::kRetry)) {
      r = ledger_->Create(LedgerKey(tenant, sealed_->hand_id_hex), sealed_->commit);
      if (r.ok() && r->outcome == LedgerOutcome::kSuperseded) {
        return absl::InternalError("ledger: a new hand's id is already taken");
      }
    }
  } else if (sealed_) {
    r = ledger_->Advance(key, opened_->commit.entry, sealed_->commit);
  } else {
    r = ledger_->Check(key, opened_->commit.entry);
  }
  if (!r.ok()) return r.status();
  switch (r->outcome) {
    case LedgerOutcome::kApplied:
    case LedgerOutcome::kRetry:
    case LedgerOutcome::kLatest:
      return handler_status;
    case LedgerOutcome::kMissing:
      return HandNotInLedger(about->hand_id_hex);
    case LedgerOutcome::kSuperseded:
      if (!opened_) return absl::InternalError("ledger: a new hand's id is already taken");
      return TokenSuperseded(opened_->hand_id_hex, opened_->commit.entry.version,
                             r->latest_version);
    case LedgerOutcome::kBehind:
      return LedgerBehind(opened_ ? opened_->hand_id_hex : about->hand_id_hex,
                          opened_ ? opened_->commit.entry.version : 0, r->latest_version);
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

}  // namespace stud::service
