// The stud_cli subcommands, one entry point each. main.cc turns the flags into
// these options; each command returns the process exit code: 0 when it did
// what was asked, 1 when the service or the hand said no (a refused call, a
// failed expectation, a record that differs from the rules), 2 for a usage
// or file error.
#ifndef STUD_TOOLS_CLI_COMMANDS_H_
#define STUD_TOOLS_CLI_COMMANDS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace stud_cli {

// Where stud_server is: host:port (plaintext gRPC), and the seconds allowed
// for connecting and for each call.
struct ServerOptions {
  std::string address;
  int timeout_seconds = 10;
};

struct PlayOptions {
  std::string variant;  // stud, hilo or razz
  std::string locale;   // en or es; "" for en
  std::string stakes;   // a preset ("$4-$8") or ANTE/BRING_IN/SMALL/BIG
  int seats = 3;
  int64_t stack = 2000;  // every seat's starting stack, in cents
};

// `play`: a hot-seat hand on this terminal (play.cc).
int PlayCommand(const ServerOptions& server, const PlayOptions& options);

// `run FILE`: plays a hand file and checks its expectations; `locale` ("" when
// the file decides) overrides the file's locale line; the hand's last token is
// written to `token_out` unless it is "" (hand_file.cc).
int RunCommand(const ServerOptions& server, const std::string& locale, const std::string& token_out,
               const std::string& path);

struct ExportOptions {
  int viewer = 0;       // whose down cards to write (0: nobody's)
  bool reveal = false;  // every seat's down cards
  std::string phh_out;  // "" for stdout
};

// `export`: the PHH text of the hand in a token file, or of the hand a hand
// file plays when `from_run` (its output then goes to stderr) (history.cc).
int ExportCommand(const ServerOptions& server, const std::string& source, bool from_run,
                  const ExportOptions& options);

// `replay FILE.phh`: the rules' verdict on a PHH record under `profile_name`
// (cash, tournament or online) (history.cc).
int ReplayCommand(const ServerOptions& server, const std::string& profile_name,
                  const std::string& path);

struct VerifyOptions {
  std::string receipt;               // {"transcript", "signature", "public_key", "key_id"}
  std::string newhand;               // the NewHand answer (proto JSON), "" for none
  std::vector<std::string> updates;  // later answers (the one that ended seeding)
  std::vector<std::string> cards;    // files holding card proofs
  std::string keys;                  // a GetSigningKeys answer, "" for none
  std::string my_seeds;              // "SEAT:HEX,...": seeds the seats sent
};

// `verify RECEIPT.json`: checks a hand receipt offline, as
// tools/fairness/verify.py does (docs/fairness.md): the signature and key id,
// the commitments published before the first card, every card proof against
// the root and the public log, and with the server seed revealed the whole
// deck, the logged and the shown cards (verify.cc). 0 when every check holds,
// 1 when one does not, 2 for a file error.
int VerifyCommand(const VerifyOptions& options);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_COMMANDS_H_
