// What the floor types about a LIVE table, shared by hand files (`card` and
// `irregularity` steps) and the play prompt (`irregularity ...`). The words
// are already split on whitespace; `at` is the index of the keyword. Cards are
// passed through as typed: the server checks them.
#ifndef STUD_TOOLS_CLI_FLOOR_REPORTS_H_
#define STUD_TOOLS_CLI_FLOOR_REPORTS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "stud/v1/stud.pb.h"

namespace stud_cli {

namespace v1 = stud::v1;

// "2", "board" or "0" (the common card); false when neither.
bool ParseDealSeat(absl::string_view s, int* seat);

// "card SEAT|board up|down CARD" from w[at] into a DEAL action; false when malformed.
bool ParseCardReport(const std::vector<std::string>& w, size_t at, v1::Action* out);
// "burn" (face down, unseen), "burn CARD" (seen), "burn CARD up" (shown), or
// "reshuffle": the dealer's LIVE steps [STUD-DEAL-3, STUD-DECK-1].
bool ParseDealerStep(const std::vector<std::string>& w, size_t at, v1::Action* out);

// "irregularity KIND field..." from w[at] into a report (the fields are listed
// in the usage text); "" when well formed, else what is wrong.
std::string ParseIrregularity(const std::vector<std::string>& w, size_t at,
                              v1::IrregularityReport* out);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_FLOOR_REPORTS_H_
