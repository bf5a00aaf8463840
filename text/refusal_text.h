// The engine's refusals (engine/refusal.h) in words, English and Spanish.
// The English words are the engine's messages as clients have always read
// them: "STUD-CAP-1: betting is capped after 4 raises; call or fold" for a
// refusal by rule, "seats[2].stack: must be positive ..." for a malformed
// field. Every place that shows an engine status to a person (the service's
// status mapping, the PHH replay report) turns it into words with Worded.
#ifndef STUD_TEXT_REFUSAL_TEXT_H_
#define STUD_TEXT_REFUSAL_TEXT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/refusal.h"

namespace stud::text {

// Why the request is refused, without the rule ID or the field in front.
std::string RefusalWhyEn(const RefusalFacts& facts);
std::string RefusalWhyEs(const RefusalFacts& facts);

// The whole message: "<rule ID>: [<field>: ]<why>" for a refusal by rule,
// "<field>: <why>" (or "<why>" with no field) for a malformed request.
std::string RefusalEn(const RefusalFacts& facts);
// The Spanish sentence a client asking for Spanish reads.
std::string RefusalEs(const RefusalFacts& facts);

// The same status (code and every payload) with the English words as its
// message when it carries a refusal the engine has not worded yet; any other
// status as it is. Idempotent.
absl::Status Worded(absl::Status status);

// `status` worded, with the field path at fault renamed: a path starting with
// `from` starts with `to` instead (`from` "" prefixes every path). The service
// names fields by the request's path ("action.seat" for the engine's "seat").
// A status without a refusal gets the same rewrite of the start of its message.
absl::Status RenameField(absl::Status status, absl::string_view from, absl::string_view to);

}  // namespace stud::text

#endif  // STUD_TEXT_REFUSAL_TEXT_H_
