// Schema 1 of the token plaintext (before seat cards and the log were
// packed): Seat.cards and HandState.log as repeated messages. Tokens sealed
// then still open: their plaintext is rewritten as schema 2 through the
// protobuf classes of proto/stud/internal/v1/state.proto, and then read by
// the one schema-2 reader. Nothing here needs to change when a field is
// added.
#ifndef STUD_SERVICE_TOKEN_LEGACY_SCHEMA_H_
#define STUD_SERVICE_TOKEN_LEGACY_SCHEMA_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace stud::service::token {

// The plaintext starts with `schema: 1` (every writer puts it first).
bool IsSchema1(absl::string_view plaintext);
// The same hand as a schema-2 plaintext; INTERNAL when it does not parse or
// an old field is out of range.
absl::StatusOr<std::string> UpgradeSchema1(absl::string_view plaintext);

}  // namespace stud::service::token

#endif  // STUD_SERVICE_TOKEN_LEGACY_SCHEMA_H_
