// `play`: the interactive hot-seat game. The service shuffles and deals
// (SERVICE mode); each turn shows the public board, the acting seat's own
// cards and its numbered legal actions, and reads one line: a number, a typed
// action, `board`, `quit` or an `irregularity` report for the floor.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tools/cli/client.h"
#include "tools/cli/commands.h"
#include "tools/cli/floor_reports.h"
#include "tools/cli/render.h"
#include "tools/cli/vocabulary.h"

namespace stud_cli {
namespace {

void PrintTurn(const v1::HandUpdate& u) {
  const int seat = u.to_act();
  if (const v1::PrivateView* own = PrivateOf(u, seat)) {
    std::vector<std::string> down, up;
    for (const v1::SeatCard& c : own->cards()) (c.face_up() ? up : down).push_back(c.card());
    std::printf(
        "Seat %d to act. Your cards (pass the keyboard to seat %d; others look away): down %s | up "
        "%s\n",
        seat, seat, absl::StrJoin(down, " ").c_str(), absl::StrJoin(up, " ").c_str());
  } else {
    std::printf("Seat %d to act.\n", seat);
  }
  std::string line;
  int n = 0;
  for (const v1::LegalAction& a : u.legal_actions()) {
    ++n;
    absl::StrAppend(&line, n > 1 ? "  " : "", n, ") ", DescribeLegal(a));
  }
  std::printf("Legal: %s\n", line.c_str());
}

}  // namespace

// Exit code of a hand the player quit (docs/cli.md).
constexpr int kExitAbandoned = 3;

int PlayCommand(const ServerOptions& server, const PlayOptions& options) {
  const std::optional<v1::Variant> variant = ParseVariant(options.variant);
  const std::optional<v1::Locale> locale =
      ParseLocale(options.locale.empty() ? "en" : options.locale);
  const std::optional<v1::Stakes> stakes = ParseStakes(options.stakes);
  const int seats = options.seats;
  if (!variant) return std::fprintf(stderr, "stud_cli: --variant must be stud, hilo or razz\n"), 2;
  if (!locale) return std::fprintf(stderr, "stud_cli: --locale must be en or es\n"), 2;
  if (!stakes)
    return std::fprintf(stderr, "stud_cli: --stakes: a preset such as '$4-$8' or A/B/S/L\n"), 2;
  if (seats < 2 || seats > 8) return std::fprintf(stderr, "stud_cli: --seats must be 2..8\n"), 2;

  Client client(server.address, server.timeout_seconds);
  if (!client.Connect()) return 1;
  v1::NewHandRequest req;
  req.set_variant(*variant);
  *req.mutable_stakes() = *stakes;
  req.set_dealing_mode(v1::DEALING_MODE_SERVICE);
  req.set_locale(*locale);
  for (int i = 1; i <= seats; ++i) {
    v1::SeatConfig* s = req.add_seats();
    s->set_seat(i);
    s->set_stack(options.stack);
    req.add_private_view_seats(i);
  }
  v1::HandUpdate u;
  if (auto err = client.NewHand(req, &u)) {
    std::printf("NewHand refused: %s\n", DescribeError(*err).c_str());
    return 1;
  }
  // Kept from NewHand: the end compares the revealed deck with this, never
  // with a later update's commitment.
  const std::string published = u.public_view().deck_commitment().commitment();
  const v1::CustomStakes& st = u.public_view().stakes();
  std::printf(
      "%s, %d seats of %lld chips: ante %lld, bring-in %lld, small bet %lld, big bet %lld "
      "(cents)\n",
      VariantName(*variant), seats, static_cast<long long>(options.stack),
      static_cast<long long>(st.ante()), static_cast<long long>(st.bring_in()),
      static_cast<long long>(st.small_bet()), static_cast<long long>(st.big_bet()));
  std::printf("Deck commitment (verified at the end): %s\n",
              Hex(u.public_view().deck_commitment().commitment()).c_str());
  const bool echo = isatty(0) == 0;
  PrintEvents(u);
  bool show_board = true;
  while (u.public_view().phase() != v1::PHASE_COMPLETE) {
    if (u.to_act() == 0 || u.legal_actions().empty()) {
      std::printf("Nobody can act (phase %s): this client handles SERVICE dealing only\n",
                  PhaseName(u.public_view().phase()));
      return 1;
    }
    if (show_board) {
      std::printf("\n");
      PrintBoard(u, /*omniscient=*/false);
      PrintTurn(u);
    }
    show_board = false;
    std::printf("seat %d> ", u.to_act());
    std::fflush(stdout);
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::printf("\nstud_cli: input ended before the hand was complete\n");
      return 1;
    }
    if (echo) std::printf("%s\n", line.c_str());
    std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (words.empty()) continue;
    const std::string w = Lower(words[0]);
    if (w == "quit" || w == "q" || w == "exit") {
      // Not 0: the hand neither completed nor had its commitment verified.
      std::printf("Hand abandoned.\n");
      return kExitAbandoned;
    }
    if (w == "board" || w == "?" || w == "help") {
      show_board = true;
      continue;
    }
    if (w == "irregularity") {  // the floor reports an error; the ruling changes the hand
      v1::IrregularityReport report;
      if (std::string bad = ParseIrregularity(words, 0, &report); !bad.empty()) {
        std::printf("Not understood: %s\n", bad.c_str());
        continue;
      }
      v1::HandUpdate next;
      std::optional<v1::Ruling> ruling;
      if (auto err = client.Rule(u, report, &next, &ruling)) {
        std::printf("Refused: %s\n", DescribeError(*err).c_str());
        continue;
      }
      u = std::move(next);
      PrintEvents(u);
      PrintRuling(*ruling, *locale);
      show_board = true;
      continue;
    }
    v1::ActionKind kind;
    int64_t amount = 0;
    int pick = 0;
    if (absl::SimpleAtoi(w, &pick)) {
      if (pick < 1 || pick > u.legal_actions_size() || words.size() > 1) {
        std::printf("Pick 1..%d, or type an action (call, raise 800, ...)\n",
                    u.legal_actions_size());
        continue;
      }
      kind = u.legal_actions(pick - 1).kind();
      amount = u.legal_actions(pick - 1).amount_to();
    } else {
      std::optional<v1::ActionKind> k = ParseKind(w);
      size_t next = 1;
      if (k && *k == v1::ACTION_KIND_RAISE && words.size() > 2 && Lower(words[1]) == "to") next = 2;
      if (!k || words.size() > next + 1 ||
          (words.size() == next + 1 && !absl::SimpleAtoi(words[next], &amount))) {
        std::printf(
            "Not understood: \"%s\". Pick 1..%d or type fold, check, call, bring-in, complete, "
            "bet N, raise N, show, muck (board, quit)\n",
            line.c_str(), u.legal_actions_size());
        continue;
      }
      kind = *k;
      if (words.size() == next) amount = LegalAmountOf(u, kind);  // no amount: the legal one
    }
    v1::HandUpdate next;
    if (auto err = client.Apply(u, kind, u.to_act(), amount, &next)) {
      std::printf("Refused: %s\n", DescribeError(*err).c_str());
      continue;
    }
    u = std::move(next);
    PrintEvents(u);
    show_board = true;
  }
  std::printf("\n");
  PrintBoard(u, /*omniscient=*/false);
  v1::ResolveShowdownResponse settlement;
  return FinishHand(client, u, published, *locale, &settlement) ? 0 : 1;
}

}  // namespace stud_cli
