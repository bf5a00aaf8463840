// stud_cli: a command-line client of stud.v1.StudService.
//
//   stud_cli [--server HOST:PORT] play [--variant stud|hilo|razz] [--seats N]
//            [--stakes '$4-$8'] [--stack CHIPS] [--locale en|es]
//   stud_cli [--server HOST:PORT] [--locale en|es] [--token_out TOKENFILE] run FILE
//   stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export TOKENFILE
//   stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export --from-run
//   FILE stud_cli [--server HOST:PORT] [--profile cash] replay FILE.phh
//
// `play` is a hot-seat game on one terminal: the service deals (SERVICE mode),
// and each turn shows the public board, the acting seat's own cards, the dealer
// announcements and the numbered legal actions. `run` replays a hand file (the
// format is in the usage text below and in docs/cli.md) and checks its
// expectations; the exit code says whether everything held. A hand file may
// deal LIVE: it reports every card a person dealt (ApplyAction with a DEAL
// action) and the irregularities the floor saw (RuleIrregularity), and prints
// each ruling.
//
// All amounts are integer chips (cents), as in the API; betting amounts are
// street totals ("raise 800" = raise to 800).
//
// This file holds the flags, the --help text and the subcommand dispatch; the
// subcommands are declared in commands.h. It keeps the binary's name because
// absl's --help lists only the flags defined in <program>.cc.
#include <sodium.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "tools/cli/commands.h"

ABSL_FLAG(std::string, server, "127.0.0.1:50051",
          "Address of stud_server (host:port, plaintext gRPC)");
ABSL_FLAG(int, timeout, 10, "Deadline of each call and of the first connection, in seconds");
ABSL_FLAG(std::string, variant, "stud", "play: stud, hilo or razz");
ABSL_FLAG(int, seats, 3, "play: number of seats (2..8)");
ABSL_FLAG(
    std::string, stakes, "$4-$8",
    "play: a row of the stakes table (\"$15-$30\") or custom ANTE/BRING_IN/SMALL/BIG in cents");
ABSL_FLAG(int64_t, stack, 2000, "play: every seat's starting stack, in chips (cents)");
ABSL_FLAG(std::string, locale, "",
          "language of the dealer announcements and rulings, en or es (play: default en; run: "
          "overrides the "
          "hand file's locale line)");

ABSL_FLAG(std::string, token_out, "",
          "run: write the hand's last token to this file (base64) for `export`");
ABSL_FLAG(int, viewer, 0,
          "export: whose down cards to write (0 = nobody's, the public record; N = seat N's own)");
ABSL_FLAG(
    bool, reveal, false,
    "export: write every seat's down cards (the server must run with --allow_history_reveal)");
ABSL_FLAG(std::string, from_run, "",
          "export: play this hand file first and export its hand (also spelled --from-run)");
ABSL_FLAG(std::string, phh_out, "", "export: write the PHH text to this file instead of stdout");
ABSL_FLAG(std::string, profile, "cash",
          "replay: the rule profile the record is judged by (cash, tournament, online)");
ABSL_FLAG(std::string, newhand, "",
          "verify: the hand's NewHand answer (JSON): its commitments must be the receipt's");
ABSL_FLAG(std::vector<std::string>, update, {},
          "verify: later answers (JSON, comma-separated files), e.g. the one that ended seeding");
ABSL_FLAG(std::vector<std::string>, cards, {},
          "verify: files of card proofs (JSON, comma-separated) to check against the deck root");
ABSL_FLAG(std::string, keys, "", "verify: a GetSigningKeys answer (JSON) that must list the key");
ABSL_FLAG(std::string, my_seed, "", "verify: SEAT:HEX,... the seeds the seats sent");

namespace {

constexpr const char* kUsage = R"(a command-line client of the Seven Card Stud rules service.

Usage:
  stud_cli [--server HOST:PORT] play [--variant stud|hilo|razz] [--seats 3] [--stakes '$4-$8']
                                     [--stack 2000] [--locale en|es]
  stud_cli [--server HOST:PORT] [--locale en|es] [--token_out TOKENFILE] run FILE
  stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export TOKENFILE
  stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export --from-run FILE
  stud_cli [--server HOST:PORT] [--profile cash] replay FILE.phh
  stud_cli [--newhand NEWHAND.json] [--update U.json,...] [--cards CARDS.json,...]
           [--keys KEYS.json] [--my_seed SEAT:HEX,...] verify RECEIPT.json
  (--timeout 10: seconds allowed for connecting and for each call)

play: a hot-seat hand on one terminal; the service shuffles and deals. Each turn shows the
  board, the acting seat's own cards and its legal actions, numbered with exact amounts.
  Answer with a number or a typed action: fold, check, call, bring-in, complete, bet 800,
  raise 800, show, muck (amounts are street totals, "raise 800" = raise to 800; without an
  amount the legal one is used). Also: board (show it again), quit, and
  irregularity KIND ... (as in hand files, e.g. irregularity TIMEOUT seat 2 allowance 2).

run: plays a hand file and checks its expectations. Exit code 0 when every step and
  expectation holds, 1 at the first one that does not, 2 for a usage or file error.
  --locale es prints the rulings' explanations and the announcements in Spanish.

export: the hand as a PHH hand history (docs/api.md, ExportHandHistory), from a token saved
  by `run --token_out` (base64 or raw bytes) or by playing a hand file first (--from-run; its
  output goes to stderr). Other seats' down cards are written ?? unless --reveal (the server must
  run with --allow_history_reveal) or they were shown at showdown.

verify: checks a hand receipt offline (docs/fairness.md): RECEIPT.json is {"transcript",
  "signature", "public_key"} in base64 and "key_id". With --newhand (the NewHand answer as JSON)
  its commitments must be the receipt's; with --cards every card proof must lead to the deck
  root and match the log; --keys (GetSigningKeys) must list the key; --my_seed names seeds the
  receipt must carry; with the server seed revealed the deck is recomputed and the log and the
  shown cards followed through it (docs/dealing.md). Exit 0 only when all holds.

replay: checks a PHH hand history against the rules (ReplayHandHistory) and prints the verdict:
  exit 0 when every action is legal and the stated result matches, 1 at the first difference
  (printed with its rule ID and what the rules allow there), 2 for a usage or file error.

Hand file: one statement a line; '#' starts a comment; amounts in chips (cents).
  Setup (before the first action):
    variant stud|hilo|razz              required
    stakes $15-$30                      a row of the stakes table, or ANTE/BRING_IN/SMALL/BIG
    seats 20000 20000 20000             starting stacks of seats 1..N (2..8 seats)
    deal service                        the service shuffles (default; deck commitment checked)
    deal live                           a person deals: every card is reported by a `card` step
    deal preset                         the file gives the cards (server needs --allow_preset):
    deck As Kd 7c ...                     the whole deck in dealing order, burns included
                                          (several deck lines are joined), or
    cards 2 Ah Kd 7c 9s ...               seat 2's cards in the order it receives them: two
                                          down, the door card, 4th..7th street (a seat that
                                          folds lists only the cards dealt to it); the deck is laid
                                          out with a burn before 4th..7th street and unused
                                          cards in natural order
    profile cash|tournament|online      rule option profile (default cash)
    locale en|es                        language of announcements and rulings (default en)
  Steps (the hand starts at the first one):
    seat 2 bring-in 500                 an action that must be accepted; kinds: fold check
                                        call bring-in complete bet raise show muck; the amount
                                        (street total) may be left out when only one is legal
    expect-error STUD-CAP-1 seat 1 raise 7500
                                        an action that must be refused with that rule ID
                                        (ErrorInfo.reason)
    expect-stack 3 21000                seat 3's stack now
    expect-pot 31500                    chips in the middle now
    expect-to-act 2                     whose turn it is (0: nobody)
    expect-street 4                     the street (3..7)
    expect-phase betting|showdown|complete
    expect-legal fold call 6000         the acting seat's legal actions, exactly
    expect-won 5 46500                  chips seat 5 won (the hand must be complete)
  LIVE dealing steps:
    card 2 down As                      report a card dealt to seat 2 face down (up: face up;
                                        `card board up 7c`: the common card). A report that
                                        reveals a dealer error is ruled at once and the ruling
                                        printed
    burn [CARD [up]]                    report the burn (no card: burned face down unseen; up:
                                        the dealer showed it); optional, a card report implies it
    reshuffle                           report the reshuffle of burns and stub when the deck
                                        runs out (required then; STUD-DECK-1)
    irregularity HOLECARD_EXPOSED seat 2 card As
                                        report an irregularity (RuleIrregularity); the kind is
                                        an IrregularityKind without its prefix, then fields:
                                        seat N, card C (repeatable), cards C C .., street N,
                                        action KIND [AMOUNT], next-acted, burn-delta +1|-1,
                                        move SEAT CARD (repeatable), kept-seats N N ..,
                                        card-count N, declare-live, allowance N, disconnect,
                                        kept-card C, note TEXT (the rest of the line)
    expect-ruling STUD-IRR-EXP-1 THIRD_CARD_DOWN
                                        the previous step was ruled by that rule with that
                                        decision (the decision may be left out); `expect-ruling
                                        none`: it was not ruled
    expect-deal 2 down                  the card the dealer owes next (seat or board, up|down)
    expect-error STUD-DEAL-1 card 3 up Jd
                                        expect-error also takes a card or irregularity step
    seat 2 declare-all-in               after a face-up final card: declare-all-in or
                                        decline-option

Examples: tools/cli/examples/stud_completion_cap.hand, live_exposed_holecard.hand; more in
docs/cli.md.
)";

stud_cli::ServerOptions ServerFromFlags() {
  return {.address = absl::GetFlag(FLAGS_server), .timeout_seconds = absl::GetFlag(FLAGS_timeout)};
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  // `export --from-run FILE` is the documented spelling; absl flags use underscores.
  std::vector<std::string> spelled(argv, argv + argc);
  std::vector<char*> argv_fixed;
  for (std::string& a : spelled) {
    if (a == "--from-run" || a.rfind("--from-run=", 0) == 0) a.replace(0, 10, "--from_run");
    argv_fixed.push_back(a.data());
  }
  std::vector<char*> args = absl::ParseCommandLine(argc, argv_fixed.data());
  if (sodium_init() < 0) {
    std::fprintf(stderr, "stud_cli: libsodium failed to initialise\n");
    return 2;
  }
  const std::string command = args.size() > 1 ? args[1] : "";
  if (command == "play" && args.size() == 2) {
    return stud_cli::PlayCommand(ServerFromFlags(), {.variant = absl::GetFlag(FLAGS_variant),
                                                     .locale = absl::GetFlag(FLAGS_locale),
                                                     .stakes = absl::GetFlag(FLAGS_stakes),
                                                     .seats = absl::GetFlag(FLAGS_seats),
                                                     .stack = absl::GetFlag(FLAGS_stack)});
  }
  if (command == "run" && args.size() == 3) {
    return stud_cli::RunCommand(ServerFromFlags(), absl::GetFlag(FLAGS_locale),
                                absl::GetFlag(FLAGS_token_out), args[2]);
  }
  const stud_cli::ExportOptions export_options = {.viewer = absl::GetFlag(FLAGS_viewer),
                                                  .reveal = absl::GetFlag(FLAGS_reveal),
                                                  .phh_out = absl::GetFlag(FLAGS_phh_out)};
  if (command == "export" && !absl::GetFlag(FLAGS_from_run).empty() && args.size() == 2) {
    return stud_cli::ExportCommand(ServerFromFlags(), absl::GetFlag(FLAGS_from_run),
                                   /*from_run=*/true, export_options);
  }
  if (command == "export" && absl::GetFlag(FLAGS_from_run).empty() && args.size() == 3) {
    return stud_cli::ExportCommand(ServerFromFlags(), args[2], /*from_run=*/false, export_options);
  }
  if (command == "verify" && args.size() == 3) {
    return stud_cli::VerifyCommand({.receipt = args[2],
                                    .newhand = absl::GetFlag(FLAGS_newhand),
                                    .updates = absl::GetFlag(FLAGS_update),
                                    .cards = absl::GetFlag(FLAGS_cards),
                                    .keys = absl::GetFlag(FLAGS_keys),
                                    .my_seeds = absl::GetFlag(FLAGS_my_seed)});
  }
  if (command == "replay" && args.size() == 3) {
    return stud_cli::ReplayCommand(ServerFromFlags(), absl::GetFlag(FLAGS_profile), args[2]);
  }
  std::fprintf(stderr, "stud_cli: %s\nFlags: stud_cli --help\n", kUsage);
  return 2;
}
