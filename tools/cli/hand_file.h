// Hand files: a scripted hand, one statement a line (the format is in the
// usage text of main.cc and in docs/cli.md). Setup lines describe the table
// and how it is dealt (service, preset cards or LIVE reports); steps are
// actions, LIVE card and irregularity reports, and expectations about the
// state, refusals and rulings. The first step starts the hand.
#ifndef STUD_TOOLS_CLI_HAND_FILE_H_
#define STUD_TOOLS_CLI_HAND_FILE_H_

#include <optional>
#include <string>

#include "stud/v1/stud.pb.h"
#include "tools/cli/client.h"

namespace stud_cli {

namespace v1 = stud::v1;

struct HandFileResult {
  // 0 when every step and expectation held, 1 at the first that did not, 2
  // for a file that cannot be read or a malformed line.
  int exit_code = 0;
  // The hand's latest token; "" when the file never started a hand.
  std::string last_token;
};

// Plays the file at `path` through `client` (already connected), printing
// every step, ruling and board to stdout and stopping at the first failure.
// `locale` overrides the file's `locale` line; std::nullopt: the file decides.
HandFileResult RunHandFile(Client& client, const std::string& path,
                           std::optional<v1::Locale> locale);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_HAND_FILE_H_
