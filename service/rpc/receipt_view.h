// The signed receipt of a complete hand (docs/fairness.md, "Receipt
// transcript"; the format is service/fairness/receipt.h) as the API gives it.
//
// Signing is the costliest step of a hand's last answer: Ed25519 hashes the
// whole transcript (some 4 to 12 KB) twice with SHA-512, about 1.7 million
// instructions with the transcript's building. Every update of a complete
// hand carries its receipt, and a hand's last version is read by each of its
// watching devices and by GetView, so the receipts of recently completed
// hands are kept per process and each is signed once (FillReceiptOf).
#ifndef STUD_SERVICE_RPC_RECEIPT_VIEW_H_
#define STUD_SERVICE_RPC_RECEIPT_VIEW_H_

#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "service/fairness/receipt.h"
#include "service/token/codec.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

// The receipt of a complete hand: its transcript, signed by `keys`' first key.
void FillReceipt(const SealedHand& hand, const fairness::SigningKeys& keys,
                 stud::v1::HandReceipt* out);
// The same for the hand `token` holds for `tenant` (the token of the answer
// being made), found among the receipts this process made lately: a token and
// tenant open to exactly one hand within one process (token/hand_cache.h), and
// Ed25519 signatures are deterministic, so a receipt found is the bytes
// FillReceipt would make. Keyed by the signing key too.
void FillReceiptOf(const SealedHand& hand, const fairness::SigningKeys& keys,
                   absl::string_view tenant, absl::string_view token, stud::v1::HandReceipt* out);
// The receipt FillReceiptOf copies, as kept (never null), for an answer
// written as bytes (rpc/update_bytes.cc).
std::shared_ptr<const stud::v1::HandReceipt> ReceiptOf(const SealedHand& hand,
                                                       const fairness::SigningKeys& keys,
                                                       absl::string_view tenant,
                                                       absl::string_view token);
// The transcript alone.
std::string ReceiptTranscript(const SealedHand& hand);
// One public operation as the transcript's "log" writes it.
std::string OperationText(const stud::v1::Operation& op);

// The keys a server without --signing_keys_file signs with: one random key
// per process, made on first use.
const fairness::SigningKeys& EphemeralSigningKeys();

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_RECEIPT_VIEW_H_
