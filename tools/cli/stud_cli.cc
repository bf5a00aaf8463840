// stud_cli: a command-line client of stud.v1.StudService.
//
//   stud_cli [--server HOST:PORT] play [--variant stud|hilo|razz] [--seats N]
//            [--stakes '$4-$8'] [--stack CHIPS] [--locale en|es]
//   stud_cli [--server HOST:PORT] [--locale en|es] [--token_out TOKENFILE] run FILE
//   stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export TOKENFILE
//   stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export --from-run FILE
//   stud_cli [--server HOST:PORT] [--profile cash] replay FILE.phh
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
#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/strings/string_view.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "stud/v1/stud.grpc.pb.h"
#include "stud/v1/stud.pb.h"

ABSL_FLAG(std::string, server, "127.0.0.1:50051", "Address of stud_server (host:port, plaintext gRPC)");
ABSL_FLAG(int, timeout, 10, "Deadline of each call and of the first connection, in seconds");
ABSL_FLAG(std::string, variant, "stud", "play: stud, hilo or razz");
ABSL_FLAG(int, seats, 3, "play: number of seats (2..8)");
ABSL_FLAG(std::string, stakes, "$4-$8",
          "play: a row of the stakes table (\"$15-$30\") or custom ANTE/BRING_IN/SMALL/BIG in cents");
ABSL_FLAG(int64_t, stack, 2000, "play: every seat's starting stack, in chips (cents)");
ABSL_FLAG(std::string, locale, "",
          "language of the dealer announcements and rulings, en or es (play: default en; run: overrides the "
          "hand file's locale line)");

ABSL_FLAG(std::string, token_out, "",
          "run: write the hand's last token to this file (base64) for `export`");
ABSL_FLAG(int, viewer, 0, "export: whose down cards to write (0 = nobody's, the public record; N = seat N's own)");
ABSL_FLAG(bool, reveal, false,
          "export: write every seat's down cards (the server must run with --allow_history_reveal)");
ABSL_FLAG(std::string, from_run, "",
          "export: play this hand file first and export its hand (also spelled --from-run)");
ABSL_FLAG(std::string, phh_out, "", "export: write the PHH text to this file instead of stdout");
ABSL_FLAG(std::string, profile, "cash", "replay: the rule profile the record is judged by (cash, tournament, online)");

namespace {

namespace v1 = stud::v1;

constexpr const char* kUsage = R"(a command-line client of the Seven Card Stud rules service.

Usage:
  stud_cli [--server HOST:PORT] play [--variant stud|hilo|razz] [--seats 3] [--stakes '$4-$8']
                                     [--stack 2000] [--locale en|es]
  stud_cli [--server HOST:PORT] [--locale en|es] [--token_out TOKENFILE] run FILE
  stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export TOKENFILE
  stud_cli [--server HOST:PORT] [--viewer N] [--reveal] [--phh_out OUT.phh] export --from-run FILE
  stud_cli [--server HOST:PORT] [--profile cash] replay FILE.phh
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

// ---------------------------------------------------------------------------
// Names and formatting.

std::string Lower(absl::string_view s) { return absl::AsciiStrToLower(s); }

const char* VariantName(v1::Variant v) {
  switch (v) {
    case v1::VARIANT_STUD: return "Seven Card Stud";
    case v1::VARIANT_STUD_HI_LO: return "Seven Card Stud Hi-Lo (eight or better)";
    case v1::VARIANT_RAZZ: return "Razz";
    default: return "?";
  }
}

std::optional<v1::Variant> ParseVariant(absl::string_view s) {
  const std::string l = Lower(s);
  if (l == "stud") return v1::VARIANT_STUD;
  if (l == "hilo" || l == "hi-lo" || l == "stud8") return v1::VARIANT_STUD_HI_LO;
  if (l == "razz") return v1::VARIANT_RAZZ;
  return std::nullopt;
}

std::optional<v1::Locale> ParseLocale(absl::string_view s) {
  const std::string l = Lower(s);
  if (l == "en") return v1::LOCALE_EN;
  if (l == "es") return v1::LOCALE_ES;
  return std::nullopt;
}

std::optional<v1::Profile> ParseProfile(absl::string_view s) {
  const std::string l = Lower(s);
  if (l == "cash") return v1::PROFILE_CASH;
  if (l == "tournament") return v1::PROFILE_TOURNAMENT;
  if (l == "online") return v1::PROFILE_ONLINE;
  return std::nullopt;
}

// "$15-$30" (a preset; the server validates the name) or "300/500/1500/3000".
std::optional<v1::Stakes> ParseStakes(absl::string_view s) {
  v1::Stakes out;
  if (s.empty()) return std::nullopt;
  if (s.find('/') == absl::string_view::npos) {
    out.set_preset(std::string(s));
    return out;
  }
  std::vector<std::string> parts = absl::StrSplit(s, '/');
  int64_t v[4];
  if (parts.size() != 4) return std::nullopt;
  for (size_t i = 0; i < 4; ++i) {
    if (!absl::SimpleAtoi(parts[i], &v[i])) return std::nullopt;
  }
  v1::CustomStakes* c = out.mutable_custom();
  c->set_ante(v[0]);
  c->set_bring_in(v[1]);
  c->set_small_bet(v[2]);
  c->set_big_bet(v[3]);
  return out;
}

struct KindName {
  v1::ActionKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {v1::ACTION_KIND_FOLD, "fold"},       {v1::ACTION_KIND_CHECK, "check"},
    {v1::ACTION_KIND_CALL, "call"},       {v1::ACTION_KIND_BRING_IN, "bring-in"},
    {v1::ACTION_KIND_COMPLETE, "complete"}, {v1::ACTION_KIND_BET, "bet"},
    {v1::ACTION_KIND_RAISE, "raise"},     {v1::ACTION_KIND_SHOW, "show"},
    {v1::ACTION_KIND_MUCK, "muck"},       {v1::ACTION_KIND_DECLARE_ALL_IN, "declare-all-in"},
    {v1::ACTION_KIND_DECLINE_OPTION, "decline-option"},
};

std::optional<v1::ActionKind> ParseKind(absl::string_view s) {
  std::string l = Lower(s);
  if (l == "bringin" || l == "bring_in") l = "bring-in";
  for (const KindName& k : kKinds) {
    if (l == k.name) return k.kind;
  }
  return std::nullopt;
}

const char* KindNameOf(v1::ActionKind kind) {
  for (const KindName& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

bool KindHasAmount(v1::ActionKind k) {
  return k == v1::ACTION_KIND_CALL || k == v1::ACTION_KIND_BRING_IN || k == v1::ACTION_KIND_COMPLETE ||
         k == v1::ACTION_KIND_BET || k == v1::ACTION_KIND_RAISE;
}

// "call 400", "raise to 800", "complete to 400", "fold".
std::string DescribeLegal(const v1::LegalAction& a) {
  std::string out;
  switch (a.kind()) {
    case v1::ACTION_KIND_RAISE: out = absl::StrCat("raise to ", a.amount_to()); break;
    case v1::ACTION_KIND_COMPLETE: out = absl::StrCat("complete to ", a.amount_to()); break;
    default:
      out = KindNameOf(a.kind());
      if (KindHasAmount(a.kind())) absl::StrAppend(&out, " ", a.amount_to());
  }
  if (a.all_in()) out += " (all-in)";
  return out;
}

// The compact form used by `expect-legal`: "fold call 6000 raise 7500".
std::string LegalList(const v1::HandUpdate& u) {
  std::vector<std::string> parts;
  for (const v1::LegalAction& a : u.legal_actions()) {
    parts.push_back(KindHasAmount(a.kind()) ? absl::StrCat(KindNameOf(a.kind()), " ", a.amount_to())
                                            : std::string(KindNameOf(a.kind())));
  }
  return absl::StrJoin(parts, " ");
}

const char* ProfileName(v1::Profile p) {
  switch (p) {
    case v1::PROFILE_TOURNAMENT: return "tournament";
    case v1::PROFILE_ONLINE: return "online";
    default: return "cash";
  }
}

const char* StreetName(v1::Street s) {
  switch (s) {
    case v1::STREET_THIRD: return "3rd street";
    case v1::STREET_FOURTH: return "4th street";
    case v1::STREET_FIFTH: return "5th street";
    case v1::STREET_SIXTH: return "6th street";
    case v1::STREET_SEVENTH: return "7th street";
    default: return "-";
  }
}

const char* PhaseName(v1::Phase p) {
  switch (p) {
    case v1::PHASE_BETTING: return "betting";
    case v1::PHASE_AWAITING_DEAL: return "awaiting deal";
    case v1::PHASE_SHOWDOWN: return "showdown";
    case v1::PHASE_COMPLETE: return "complete";
    default: return "-";
  }
}

const char* HalfName(v1::PotHalf h) {
  switch (h) {
    case v1::POT_HALF_HIGH: return "high half";
    case v1::POT_HALF_LOW: return "low half";
    default: return "whole pot";
  }
}

// What `expect-phase` names a phase: "awaiting-deal" for PHASE_AWAITING_DEAL.
std::string PhaseKey(v1::Phase p) {
  std::string s = PhaseName(p);
  std::replace(s.begin(), s.end(), ' ', '-');
  return s;
}

std::string PotName(int index) { return index == 0 ? "main pot" : absl::StrCat("side pot ", index); }

std::string Hex(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) absl::StrAppendFormat(&out, "%02x", c);
  return out;
}

// One operation of the log, in words; "" for those the board already shows
// (deals, burns).
std::string DescribeOperation(const v1::Operation& op) {
  const std::string seat = absl::StrCat("seat ", op.seat());
  const std::string rule = op.rule_id().empty() ? "" : absl::StrCat(" [", op.rule_id(), "]");
  const std::string all_in = op.all_in() ? " (all-in)" : "";
  switch (op.type()) {
    case v1::OPERATION_TYPE_ANTE: return absl::StrCat(seat, " antes ", op.amount(), all_in);
    case v1::OPERATION_TYPE_RECYCLE: return absl::StrCat("the deck ran out: cards recycled", rule);
    case v1::OPERATION_TYPE_COMMON_CARD: return absl::StrCat("common card ", op.card(), rule);
    case v1::OPERATION_TYPE_BRING_IN:
      return absl::StrCat(seat, " brings in ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_COMPLETE:
      return absl::StrCat(seat, " completes to ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_BET: return absl::StrCat(seat, " bets ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_RAISE: return absl::StrCat(seat, " raises to ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_CALL: return absl::StrCat(seat, " calls ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_CHECK: return absl::StrCat(seat, " checks", rule);
    case v1::OPERATION_TYPE_FOLD: return absl::StrCat(seat, " folds", rule);
    case v1::OPERATION_TYPE_FIRST_TO_ACT:
      return absl::StrCat(seat, " opens ", StreetName(op.street()), op.card().empty() ? "" : " (door ",
                          op.card(), op.card().empty() ? "" : ")", rule);
    case v1::OPERATION_TYPE_STREET_END: return absl::StrCat(StreetName(op.street()), " betting closed");
    case v1::OPERATION_TYPE_RETURN_UNCALLED:
      return absl::StrCat(seat, " takes back ", op.amount(), " uncalled", rule);
    case v1::OPERATION_TYPE_SHOW: return absl::StrCat(seat, " shows", rule);
    case v1::OPERATION_TYPE_MUCK: return absl::StrCat(seat, " mucks", rule);
    case v1::OPERATION_TYPE_AWARD:
      return absl::StrCat(seat, " is awarded ", op.amount(), " from the ", PotName(op.pot()), " (",
                          HalfName(op.half()), op.odd_chip() ? ", odd chip" : "", ")", rule);
    case v1::OPERATION_TYPE_HAND_END: return "the hand is over";
    case v1::OPERATION_TYPE_EXPOSE:
      return absl::StrCat(seat, "'s ", op.card().empty() ? "card" : op.card(), " is exposed to everyone", rule);
    case v1::OPERATION_TYPE_KILL: return absl::StrCat(seat, "'s hand is dead", rule);
    case v1::OPERATION_TYPE_RETURN_ANTE: return absl::StrCat(seat, " gets back ", op.amount(), rule);
    case v1::OPERATION_TYPE_MISDEAL: return absl::StrCat("misdeal: the hand is void", rule);
    case v1::OPERATION_TYPE_ASIDE:
      return absl::StrCat(op.card().empty() ? "a card" : op.card(), " is taken out of play", rule);
    case v1::OPERATION_TYPE_REPLACE_CARD:
      return absl::StrCat(seat, "'s card of ", StreetName(op.street()), " is now ",
                          op.card().empty() ? "another card" : op.card(), rule);
    case v1::OPERATION_TYPE_DECLARE_ALL_IN: return absl::StrCat(seat, " declares all-in", rule);
    case v1::OPERATION_TYPE_DECLINE_OPTION: return absl::StrCat(seat, " declines the all-in option", rule);
    case v1::OPERATION_TYPE_TIMEOUT_ALL_IN:
      return absl::StrCat(seat, " timed out: all-in for what is in (", op.amount(), " left this period)", rule);
    default: return "";  // DEAL and BURN: the board shows the cards; RULING: the ruling is printed
  }
}

// A seat's cards: down cards in brackets; "xx" where this viewer may not look.
std::string SeatCards(const google::protobuf::RepeatedPtrField<v1::SeatCard>& cards) {
  std::vector<std::string> parts;
  for (const v1::SeatCard& c : cards) {
    const std::string card = c.card().empty() ? "xx" : c.card();
    parts.push_back(c.face_up() ? card : absl::StrCat("[", card, "]"));
  }
  return absl::StrJoin(parts, " ");
}

const v1::PrivateView* PrivateOf(const v1::HandUpdate& u, int seat) {
  for (const v1::PrivateView& pv : u.private_views()) {
    if (pv.seat() == seat) return &pv;
  }
  return nullptr;
}

// The table. `omniscient`: every seat's down cards from its private view
// (replays); otherwise down cards are hidden unless shown at showdown.
void PrintBoard(const v1::HandUpdate& u, bool omniscient) {
  const v1::PublicView& pv = u.public_view();
  std::printf("-- %s | %s | pot %lld | to call %lld | raises %d | version %llu\n", StreetName(pv.street()),
              PhaseName(pv.phase()), static_cast<long long>(pv.pot_total()),
              static_cast<long long>(pv.bet_to()), pv.raises(),
              static_cast<unsigned long long>(pv.version()));
  for (const v1::SeatView& s : pv.seats()) {
    std::string cards = SeatCards(s.cards());
    if (omniscient) {
      if (const v1::PrivateView* own = PrivateOf(u, s.seat())) cards = SeatCards(own->cards());
    }
    std::string status;
    if (s.folded()) status += " folded";
    if (s.all_in()) status += " all-in";
    if (s.mucked()) status += " mucked";
    if (s.shown()) status += " shown";
    std::printf("   seat %d%s stack %6lld  in pot %6lld  this street %5lld  %-28s%s\n", s.seat(),
                s.seat() == pv.to_act() ? "*" : " ", static_cast<long long>(s.stack()),
                static_cast<long long>(s.committed()), static_cast<long long>(s.street_bet()), cards.c_str(),
                status.c_str());
  }
  if (!pv.common_card().empty()) std::printf("   common card %s\n", pv.common_card().c_str());
}

void PrintEvents(const v1::HandUpdate& u) {
  for (const v1::Operation& op : u.operations()) {
    const std::string text = DescribeOperation(op);
    if (!text.empty()) std::printf("   . %s\n", text.c_str());
  }
  for (const v1::Announcement& a : u.announcements()) {
    std::printf("   Dealer: %s%s\n", a.text().c_str(),
                a.rule_id().empty() ? "" : absl::StrCat(" [", a.rule_id(), "]").c_str());
  }
}

std::string SeatOrBoard(int seat) { return seat == 0 ? "the board" : absl::StrCat("seat ", seat); }

// "seat 2 face down (3rd street)": the card a LIVE dealer owes next.
std::string DescribeExpectedDeal(const v1::ExpectedDeal& d) {
  return absl::StrCat(SeatOrBoard(d.seat()), d.seat() == 0 ? " (common card)" : "",
                      d.face_up() ? " face up" : " face down", " (", StreetName(d.street()), ")");
}

std::string RulingCards(const google::protobuf::RepeatedPtrField<v1::RulingCard>& cards) {
  std::vector<std::string> parts;
  for (const v1::RulingCard& c : cards) {
    parts.push_back(absl::StrCat(c.seat() == 0 ? "out of play" : absl::StrCat("seat ", c.seat()), " ",
                                 c.card().empty() ? "(hidden)" : c.card()));
  }
  return absl::StrJoin(parts, ", ");
}

// A ruling: rule, decision, the floor's words in the hand's language, and the
// exact change it made.
void PrintRuling(const v1::Ruling& r, v1::Locale locale) {
  const bool es = locale == v1::LOCALE_ES;
  std::printf("   RULING %s %s%s\n", r.rule_id().c_str(), r.decision().c_str(),
              r.alternative().empty() ? "" : absl::StrCat(" (", r.alternative(), ")").c_str());
  std::printf("     floor: %s\n", (es ? r.explanation_es() : r.explanation_en()).c_str());
  const std::string& redeal = es ? r.redeal_es() : r.redeal_en();
  if (!redeal.empty()) std::printf("     redeal: %s\n", redeal.c_str());
  if (!r.exposed_cards().empty()) std::printf("     exposed: %s\n", RulingCards(r.exposed_cards()).c_str());
  if (!r.removed_cards().empty()) std::printf("     removed: %s\n", RulingCards(r.removed_cards()).c_str());
  if (!r.given_cards().empty()) std::printf("     given: %s\n", RulingCards(r.given_cards()).c_str());
  if (!r.killed_seats().empty()) {
    std::printf("     dead hands: seat %s\n", absl::StrJoin(r.killed_seats(), ", seat ").c_str());
  }
  if (!r.chip_changes().empty()) {
    std::vector<std::string> parts;
    for (const v1::ChipChange& c : r.chip_changes()) {
      parts.push_back(absl::StrFormat("seat %d stack %+lld, in pot %+lld", c.seat(),
                                      static_cast<long long>(c.stack_delta()),
                                      static_cast<long long>(c.committed_delta())));
    }
    std::printf("     chips: %s\n", absl::StrJoin(parts, "; ").c_str());
  }
  if (r.to_act() != 0) {
    std::vector<std::string> options;
    for (const v1::LegalAction& a : r.options()) options.push_back(DescribeLegal(a));
    std::printf("     to act: seat %d%s%s\n", r.to_act(), options.empty() ? "" : ": ",
                absl::StrJoin(options, ", ").c_str());
  }
  if (r.has_allowance_remaining()) std::printf("     time-out all-ins left: %d\n", r.allowance_remaining());
}

// "2", "board" or "0" (the common card).
bool ParseDealSeat(absl::string_view s, int* seat) {
  if (Lower(s) == "board") {
    *seat = 0;
    return true;
  }
  return absl::SimpleAtoi(s, seat) && *seat >= 0;
}

// "card SEAT|board up|down CARD" from w[at]; false when malformed.
bool ParseCardReport(const std::vector<std::string>& w, size_t at, v1::Action* out) {
  if (w.size() != at + 4 || w[at] != "card") return false;
  int seat = 0;
  const std::string face = Lower(w[at + 2]);
  if (!ParseDealSeat(w[at + 1], &seat) || (face != "up" && face != "down")) return false;
  out->set_kind(v1::ACTION_KIND_DEAL);
  out->set_seat(seat);
  out->set_face_up(face == "up");
  out->set_card(w[at + 3]);
  return true;
}

// "irregularity KIND field..." from w[at] into a report; "" when well formed,
// else what is wrong. Cards are checked by the server.
std::string ParseIrregularity(const std::vector<std::string>& w, size_t at, v1::IrregularityReport* out) {
  if (w.size() < at + 2 || w[at] != "irregularity") return "expected: irregularity KIND [seat N] [card C] ...";
  std::string name = absl::AsciiStrToUpper(w[at + 1]);
  std::replace(name.begin(), name.end(), '-', '_');
  absl::string_view bare = name;
  absl::ConsumePrefix(&bare, "IRREGULARITY_KIND_");
  v1::IrregularityKind kind;
  if (!v1::IrregularityKind_Parse(absl::StrCat("IRREGULARITY_KIND_", bare), &kind) ||
      kind == v1::IRREGULARITY_KIND_UNSPECIFIED) {
    std::vector<std::string> names;
    for (int i = 1; i < v1::IrregularityKind_ARRAYSIZE; ++i) {
      if (!v1::IrregularityKind_IsValid(i)) continue;
      std::string n = v1::IrregularityKind_Name(static_cast<v1::IrregularityKind>(i));
      names.push_back(n.substr(std::string("IRREGULARITY_KIND_").size()));
    }
    return absl::StrCat("unknown irregularity `", w[at + 1], "`; kinds: ", absl::StrJoin(names, " "));
  }
  out->set_kind(kind);
  static const char* kFields[] = {"seat",       "card",       "cards",      "street",       "action",
                                  "next-acted", "burn-delta", "move",       "kept-seats",   "card-count",
                                  "declare-live", "allowance", "disconnect", "kept-card",   "note"};
  auto is_field = [](const std::string& s) {
    return std::any_of(std::begin(kFields), std::end(kFields), [&](const char* f) { return s == f; });
  };
  auto number = [&](size_t i, int64_t* v) { return i < w.size() && absl::SimpleAtoi(w[i], v); };
  size_t i = at + 2;
  int64_t n = 0, m = 0;
  while (i < w.size()) {
    const std::string& f = w[i];
    if (f == "seat" || f == "street" || f == "card-count" || f == "allowance") {
      if (!number(i + 1, &n)) return absl::StrCat(f, " takes a number");
      if (f == "seat") out->set_seat(static_cast<int32_t>(n));
      if (f == "card-count") out->set_card_count(static_cast<int32_t>(n));
      if (f == "allowance") out->set_allowance_remaining(static_cast<int32_t>(n));
      if (f == "street") {
        if (n < 3 || n > 7) return "street: 3..7";
        out->set_street(static_cast<v1::Street>(n));
      }
      i += 2;
    } else if (f == "card" || f == "kept-card") {
      if (i + 1 >= w.size()) return absl::StrCat(f, " takes a card");
      if (f == "card") out->add_cards(w[i + 1]);
      if (f == "kept-card") out->set_kept_card(w[i + 1]);
      i += 2;
    } else if (f == "cards" || f == "kept-seats") {
      ++i;
      const size_t first = i;
      for (; i < w.size() && !is_field(w[i]); ++i) {
        if (f == "cards") {
          out->add_cards(w[i]);
        } else if (absl::SimpleAtoi(w[i], &n)) {
          out->add_kept_seats(static_cast<int32_t>(n));
        } else {
          return "kept-seats takes seat numbers";
        }
      }
      if (i == first) return absl::StrCat(f, " takes at least one value");
    } else if (f == "action") {
      std::optional<v1::ActionKind> k = i + 1 < w.size() ? ParseKind(w[i + 1]) : std::nullopt;
      if (!k) return "action takes an action kind (bring-in, complete, bet, ...) and an optional amount";
      out->set_action(*k);
      i += 2;
      if (number(i, &n)) {
        out->set_amount_to(n);
        ++i;
      }
    } else if (f == "burn-delta") {
      if (!number(i + 1, &n) || (n != 1 && n != -1)) return "burn-delta: +1 (two cards burned) or -1 (no burn)";
      out->set_burn_delta(static_cast<int32_t>(n));
      i += 2;
    } else if (f == "move") {
      if (!number(i + 1, &m) || i + 2 >= w.size()) return "move takes a seat and a card";
      v1::CardMove* mv = out->add_moves();
      mv->set_seat(static_cast<int32_t>(m));
      mv->set_card(w[i + 2]);
      i += 3;
    } else if (f == "next-acted" || f == "declare-live" || f == "disconnect") {
      if (f == "next-acted") out->set_next_acted(true);
      if (f == "declare-live") out->set_declare_live(true);
      if (f == "disconnect") out->set_disconnect(true);
      ++i;
    } else if (f == "note") {
      out->set_note(absl::StrJoin(w.begin() + static_cast<std::ptrdiff_t>(i + 1), w.end(), " "));
      i = w.size();
    } else {
      return absl::StrCat("unknown field `", f, "`; fields: ", absl::StrJoin(kFields, " "));
    }
  }
  return "";
}

// ---------------------------------------------------------------------------
// Calls and errors.

struct CallError {
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string reason;   // ErrorInfo.reason: the rule ID for rule errors
  std::string message;  // LocalizedMessage, else the status message
};

const char* CodeName(grpc::StatusCode c) {
  switch (c) {
    case grpc::StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case grpc::StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case grpc::StatusCode::UNAUTHENTICATED: return "UNAUTHENTICATED";
    case grpc::StatusCode::ABORTED: return "ABORTED";
    case grpc::StatusCode::UNAVAILABLE: return "UNAVAILABLE";
    case grpc::StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::INTERNAL: return "INTERNAL";
    default: return "ERROR";
  }
}

CallError ErrorOf(const grpc::Status& status) {
  CallError e;
  e.code = status.error_code();
  e.message = status.error_message();
  google::rpc::Status details;
  if (!status.error_details().empty() && details.ParseFromString(status.error_details())) {
    for (const google::protobuf::Any& any : details.details()) {
      google::rpc::ErrorInfo info;
      google::rpc::LocalizedMessage localized;
      if (any.UnpackTo(&info)) e.reason = info.reason();
      if (any.UnpackTo(&localized) && !localized.message().empty()) e.message = localized.message();
    }
  }
  return e;
}

std::string DescribeError(const CallError& e) {
  if (e.code == grpc::StatusCode::FAILED_PRECONDITION && !e.reason.empty()) {
    absl::string_view message = e.message;
    absl::ConsumePrefix(&message, absl::StrCat(e.reason, ": "));  // the message may cite it too
    return absl::StrCat("rule ", e.reason, ": ", message);
  }
  return absl::StrCat(CodeName(e.code), e.reason.empty() ? "" : absl::StrCat(" (", e.reason, ")"), ": ",
                      e.message);
}

class Client {
 public:
  std::optional<CallError> ExportHistory(const std::string& token, int viewer, bool reveal,
                                         v1::ExportHandHistoryResponse* out) {
    v1::ExportHandHistoryRequest req;
    req.set_token(token);
    req.set_viewer_seat(viewer);
    req.set_reveal_hidden_cards(reveal);
    return Call(&v1::StudService::Stub::ExportHandHistory, req, out);
  }

  std::optional<CallError> ReplayHistory(const std::string& phh, v1::Profile profile,
                                         v1::ReplayHandHistoryResponse* out) {
    v1::ReplayHandHistoryRequest req;
    req.set_phh(phh);
    req.set_profile(profile);
    return Call(&v1::StudService::Stub::ReplayHandHistory, req, out);
  }

  Client(const std::string& address, int timeout_seconds)
      : channel_(grpc::CreateChannel(address, grpc::InsecureChannelCredentials())),
        stub_(v1::StudService::NewStub(channel_)),
        timeout_(timeout_seconds),
        address_(address) {}

  bool Connect() {
    if (channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(timeout_))) {
      return true;
    }
    std::fprintf(stderr, "stud_cli: cannot reach stud_server at %s within %d s\n", address_.c_str(), timeout_);
    return false;
  }

  template <typename Req, typename Resp, typename Method>
  std::optional<CallError> Call(Method method, const Req& req, Resp* resp) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(timeout_));
    grpc::Status st = ((*stub_).*method)(&ctx, req, resp);
    if (st.ok()) return std::nullopt;
    return ErrorOf(st);
  }

  std::optional<CallError> NewHand(const v1::NewHandRequest& req, v1::HandUpdate* out) {
    v1::NewHandResponse resp;
    auto err = Call(&v1::StudService::Stub::NewHand, req, &resp);
    if (!err) *out = resp.update();
    return err;
  }

  std::optional<CallError> Apply(const v1::HandUpdate& current, v1::ActionKind kind, int seat, int64_t amount_to,
                                 v1::HandUpdate* out) {
    v1::ApplyActionRequest req;
    req.set_token(current.token());
    req.set_expected_version(current.version());
    v1::Action* a = req.mutable_action();
    a->set_kind(kind);
    a->set_seat(seat);
    a->set_amount_to(amount_to);
    for (const v1::SeatView& s : current.public_view().seats()) req.add_private_view_seats(s.seat());
    v1::ApplyActionResponse resp;
    auto err = Call(&v1::StudService::Stub::ApplyAction, req, &resp);
    if (!err) *out = resp.update();
    return err;
  }

  // A LIVE deal report; `ruling` is set when the report was ruled.
  std::optional<CallError> Deal(const v1::HandUpdate& current, const v1::Action& action, v1::HandUpdate* out,
                                std::optional<v1::Ruling>* ruling) {
    v1::ApplyActionRequest req;
    req.set_token(current.token());
    req.set_expected_version(current.version());
    *req.mutable_action() = action;
    for (const v1::SeatView& s : current.public_view().seats()) req.add_private_view_seats(s.seat());
    v1::ApplyActionResponse resp;
    auto err = Call(&v1::StudService::Stub::ApplyAction, req, &resp);
    if (err) return err;
    *out = resp.update();
    ruling->reset();
    if (resp.has_ruling()) *ruling = resp.ruling();
    return std::nullopt;
  }

  std::optional<CallError> Rule(const v1::HandUpdate& current, const v1::IrregularityReport& report,
                                v1::HandUpdate* out, std::optional<v1::Ruling>* ruling) {
    v1::RuleIrregularityRequest req;
    req.set_token(current.token());
    req.set_expected_version(current.version());
    *req.mutable_report() = report;
    for (const v1::SeatView& s : current.public_view().seats()) req.add_private_view_seats(s.seat());
    v1::RuleIrregularityResponse resp;
    auto err = Call(&v1::StudService::Stub::RuleIrregularity, req, &resp);
    if (err) return err;
    *out = resp.update();
    *ruling = resp.ruling();
    return std::nullopt;
  }

  std::optional<CallError> Resolve(const v1::HandUpdate& current, v1::Locale locale,
                                   v1::ResolveShowdownResponse* out) {
    v1::ResolveShowdownRequest req;
    req.set_token(current.token());
    req.set_locale(locale);
    return Call(&v1::StudService::Stub::ResolveShowdown, req, out);
  }

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::StudService::Stub> stub_;
  int timeout_;
  std::string address_;
};

// ---------------------------------------------------------------------------
// The end of a hand: showdown, pots, winners, deck commitment.

// SHA-256(D || "/" || R || salt) against the published commitment.
bool VerifyCommitment(const v1::DeckCommitment& dc) {
  if (dc.commitment().empty()) {
    std::printf("Deck commitment: none (the deck was not shuffled by the service)\n");
    return true;
  }
  std::string message = absl::StrJoin(dc.revealed_deck(), "");
  message += "/";
  message += absl::StrJoin(dc.revealed_recycle_order(), "");
  message += dc.revealed_salt();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(message.data()), message.size());
  const std::string computed(reinterpret_cast<const char*>(digest), sizeof digest);
  std::printf("Deck commitment: %s\n", Hex(dc.commitment()).c_str());
  std::printf("  revealed deck: %s\n", absl::StrJoin(dc.revealed_deck(), " ").c_str());
  std::printf("  salt: %s\n", Hex(dc.revealed_salt()).c_str());
  if (dc.revealed_deck_size() == 0 || computed != dc.commitment()) {
    std::printf("  NOT VERIFIED: SHA-256(deck \"/\" recycle order salt) = %s\n", Hex(computed).c_str());
    return false;
  }
  std::printf("  verified: SHA-256(deck \"/\" recycle order salt) matches the commitment published at the deal\n");
  return true;
}

void PrintSettlement(const v1::ResolveShowdownResponse& r, v1::Variant variant) {
  const bool razz = variant == v1::VARIANT_RAZZ;
  if (!r.hands().empty()) std::printf("Showdown:\n");
  for (const v1::ShownHand& h : r.hands()) {
    if (razz) {  // only the low counts
      std::printf("  seat %d: %s (%s)\n", h.seat(), h.low_name().c_str(), absl::StrJoin(h.best_five_low(), " ").c_str());
      continue;
    }
    std::printf("  seat %d: %s (%s)", h.seat(), h.high_name().c_str(), absl::StrJoin(h.best_five_high(), " ").c_str());
    if (h.has_low()) std::printf("; low %s (%s)", h.low_name().c_str(), absl::StrJoin(h.best_five_low(), " ").c_str());
    if (variant == v1::VARIANT_STUD_HI_LO && !h.has_low()) std::printf("; no eight-or-better low");
    std::printf("\n");
  }
  std::printf("Pots:\n");
  for (const v1::PotResult& p : r.pots()) {
    std::printf("  %s %lld, seats %s: %s %s", PotName(p.index()).c_str(), static_cast<long long>(p.amount()),
                absl::StrJoin(p.eligible_seats(), " ").c_str(), razz ? "won by" : "high",
                absl::StrJoin(p.high_winners(), " ").c_str());
    if (!p.low_winners().empty()) std::printf(", low %s", absl::StrJoin(p.low_winners(), " ").c_str());
    if (variant == v1::VARIANT_STUD_HI_LO && p.low_winners().empty() && p.high_winners_size() > 0 &&
        r.hands_size() > 0) {
      std::printf(", no qualifying low");
    }
    if (!p.rule_id().empty()) std::printf(" [%s]", p.rule_id().c_str());
    std::printf("\n");
    for (const v1::PotShare& s : p.shares()) {
      std::printf("    seat %d gets %lld (%s)%s\n", s.seat(), static_cast<long long>(s.amount()), HalfName(s.half()),
                  s.odd_chip() ? absl::StrCat(" incl. odd chip [", s.odd_chip_rule_id(), "]").c_str() : "");
    }
  }
  std::map<int32_t, int64_t> won(r.won().begin(), r.won().end());
  std::vector<std::string> winners;
  for (const auto& [seat, amount] : won) winners.push_back(absl::StrCat("seat ", seat, " +", amount));
  std::printf("Winners: %s\n", absl::StrJoin(winners, ", ").c_str());
}

// Prints the end of a complete hand; false when the settlement cannot be
// fetched or the commitment does not verify.
bool Finish(Client& client, const v1::HandUpdate& u, v1::Locale locale, v1::ResolveShowdownResponse* out) {
  if (auto err = client.Resolve(u, locale, out)) {
    std::printf("ResolveShowdown failed: %s\n", DescribeError(*err).c_str());
    return false;
  }
  PrintSettlement(*out, u.public_view().variant());
  std::vector<std::string> stacks;
  for (const v1::SeatView& s : u.public_view().seats()) stacks.push_back(absl::StrCat("seat ", s.seat(), " ", s.stack()));
  std::printf("Final stacks: %s\n", absl::StrJoin(stacks, ", ").c_str());
  return VerifyCommitment(u.public_view().deck_commitment());
}

// ---------------------------------------------------------------------------
// play: the interactive hot-seat game.

void PrintTurn(const v1::HandUpdate& u) {
  const int seat = u.to_act();
  if (const v1::PrivateView* own = PrivateOf(u, seat)) {
    std::vector<std::string> down, up;
    for (const v1::SeatCard& c : own->cards()) (c.face_up() ? up : down).push_back(c.card());
    std::printf("Seat %d to act. Your cards (pass the keyboard to seat %d; others look away): down %s | up %s\n",
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

int Play() {
  const std::optional<v1::Variant> variant = ParseVariant(absl::GetFlag(FLAGS_variant));
  const std::string locale_flag = absl::GetFlag(FLAGS_locale);
  const std::optional<v1::Locale> locale = ParseLocale(locale_flag.empty() ? "en" : locale_flag);
  const std::optional<v1::Stakes> stakes = ParseStakes(absl::GetFlag(FLAGS_stakes));
  const int seats = absl::GetFlag(FLAGS_seats);
  if (!variant) return std::fprintf(stderr, "stud_cli: --variant must be stud, hilo or razz\n"), 2;
  if (!locale) return std::fprintf(stderr, "stud_cli: --locale must be en or es\n"), 2;
  if (!stakes) return std::fprintf(stderr, "stud_cli: --stakes: a preset such as '$4-$8' or A/B/S/L\n"), 2;
  if (seats < 2 || seats > 8) return std::fprintf(stderr, "stud_cli: --seats must be 2..8\n"), 2;

  Client client(absl::GetFlag(FLAGS_server), absl::GetFlag(FLAGS_timeout));
  if (!client.Connect()) return 1;
  v1::NewHandRequest req;
  req.set_variant(*variant);
  *req.mutable_stakes() = *stakes;
  req.set_dealing_mode(v1::DEALING_MODE_SERVICE);
  req.set_locale(*locale);
  for (int i = 1; i <= seats; ++i) {
    v1::SeatConfig* s = req.add_seats();
    s->set_seat(i);
    s->set_stack(absl::GetFlag(FLAGS_stack));
    req.add_private_view_seats(i);
  }
  v1::HandUpdate u;
  if (auto err = client.NewHand(req, &u)) {
    std::printf("NewHand refused: %s\n", DescribeError(*err).c_str());
    return 1;
  }
  const v1::CustomStakes& st = u.public_view().stakes();
  std::printf("%s, %d seats of %lld chips: ante %lld, bring-in %lld, small bet %lld, big bet %lld (cents)\n",
              VariantName(*variant), seats, static_cast<long long>(absl::GetFlag(FLAGS_stack)),
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
      std::printf("Hand abandoned.\n");
      return 0;
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
        std::printf("Pick 1..%d, or type an action (call, raise 800, ...)\n", u.legal_actions_size());
        continue;
      }
      kind = u.legal_actions(pick - 1).kind();
      amount = u.legal_actions(pick - 1).amount_to();
    } else {
      std::optional<v1::ActionKind> k = ParseKind(w);
      size_t next = 1;
      if (k && *k == v1::ACTION_KIND_RAISE && words.size() > 2 && Lower(words[1]) == "to") next = 2;
      if (!k || words.size() > next + 1 || (words.size() == next + 1 && !absl::SimpleAtoi(words[next], &amount))) {
        std::printf("Not understood: \"%s\". Pick 1..%d or type fold, check, call, bring-in, complete, "
                    "bet N, raise N, show, muck (board, quit)\n",
                    line.c_str(), u.legal_actions_size());
        continue;
      }
      kind = *k;
      if (words.size() == next) {  // no amount: the legal one
        for (const v1::LegalAction& a : u.legal_actions()) {
          if (a.kind() == kind) {
            amount = a.amount_to();
            break;
          }
        }
      }
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
  return Finish(client, u, *locale, &settlement) ? 0 : 1;
}

// ---------------------------------------------------------------------------
// run: hand files.

struct Line {
  int number = 0;
  std::string text;
  std::vector<std::string> words;
};

class Runner {
 public:
  // `locale`: from --locale, overriding the file's `locale` line; nullopt: the file decides.
  Runner(Client* client, std::optional<v1::Locale> locale) : client_(client), forced_locale_(locale) {}

  // The hand's latest state (empty before the hand starts).
  const v1::HandUpdate& update() const { return u_; }

  // Returns the exit code.
  int Run(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "stud_cli: cannot read %s\n", path.c_str());
      return 2;
    }
    std::vector<Line> lines;
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      std::string body = text.substr(0, text.find('#'));
      std::vector<std::string> words = absl::StrSplit(body, ' ', absl::SkipWhitespace());
      // Tabs count as spaces.
      std::vector<std::string> split;
      for (const std::string& w : words) {
        for (absl::string_view p : absl::StrSplit(w, '\t', absl::SkipEmpty())) split.emplace_back(p);
      }
      if (!split.empty()) lines.push_back({n, std::string(absl::StripAsciiWhitespace(body)), split});
    }
    std::printf("Hand file %s\n", path.c_str());
    for (const Line& l : lines) {
      line_ = &l;
      const int rc = started_ ? Step(l) : (IsSetup(l.words[0]) ? Setup(l) : StartThen(l));
      if (rc != 0) return rc;
    }
    if (!started_) {
      if (int rc = Start(); rc != 0) return rc;
    }
    return End();
  }

 private:
  static bool IsSetup(const std::string& w) {
    static const char* kSetup[] = {"variant", "stakes", "seats", "deal", "deck", "cards", "profile", "locale"};
    return std::any_of(std::begin(kSetup), std::end(kSetup), [&](const char* s) { return w == s; });
  }

  int Usage(const std::string& message) {
    std::printf("FILE ERROR line %d: %s\n  > %s\n", line_->number, message.c_str(), line_->text.c_str());
    return 2;
  }
  int Fail(const std::string& message) {
    std::printf("FAILED line %d: %s\n  > %s\n", line_->number, message.c_str(), line_->text.c_str());
    return 1;
  }

  int Setup(const Line& l) {
    const std::vector<std::string>& w = l.words;
    const std::string& key = w[0];
    if (key == "deck") {
      for (size_t i = 1; i < w.size(); ++i) deck_.push_back(w[i]);
      preset_ = true;
      return 0;
    }
    if (key == "cards") {
      int seat = 0;
      if (w.size() < 3 || !absl::SimpleAtoi(w[1], &seat) || seat < 1 || seat > 8) {
        return Usage("expected: cards SEAT CARD CARD ...");
      }
      seat_cards_[seat].assign(w.begin() + 2, w.end());
      preset_ = true;
      return 0;
    }
    if (key == "seats") {
      stacks_.clear();
      for (size_t i = 1; i < w.size(); ++i) {
        int64_t v = 0;
        if (!absl::SimpleAtoi(w[i], &v)) return Usage("seats: stacks are whole chips (cents)");
        stacks_.push_back(v);
      }
      return 0;
    }
    if (w.size() != 2) return Usage(absl::StrCat(key, " takes one value"));
    if (key == "variant") {
      variant_ = ParseVariant(w[1]);
      if (!variant_) return Usage("variant: stud, hilo or razz");
    } else if (key == "stakes") {
      stakes_ = ParseStakes(w[1]);
      if (!stakes_) return Usage("stakes: a preset such as $15-$30, or ANTE/BRING_IN/SMALL/BIG");
    } else if (key == "deal") {
      if (w[1] == "service") {
        preset_ = false;
        live_ = false;
        explicit_service_ = true;
      } else if (w[1] == "preset") {
        preset_ = true;
        live_ = false;
      } else if (w[1] == "live") {
        live_ = true;
      } else {
        return Usage("deal: service, preset or live");
      }
    } else if (key == "profile") {
      std::optional<v1::Profile> p = ParseProfile(w[1]);
      if (!p) return Usage("profile: cash, tournament or online");
      profile_ = *p;
    } else if (key == "locale") {
      std::optional<v1::Locale> loc = ParseLocale(w[1]);
      if (!loc) return Usage("locale: en or es");
      locale_ = *loc;
    }
    return 0;
  }

  // The deck in dealing order from per-seat card lists: 3rd street in three
  // passes, a burn before 4th..7th street, unused cards filling burns and the rest.
  std::vector<std::string> DeckFromSeatCards(int num_seats) const {
    std::vector<std::string> used;
    for (const auto& [seat, cards] : seat_cards_) used.insert(used.end(), cards.begin(), cards.end());
    std::vector<std::string> spare;
    for (const char rank : std::string("23456789TJQKA")) {
      for (const char suit : std::string("cdhs")) {
        const std::string card{rank, suit};
        if (std::find(used.begin(), used.end(), card) == used.end()) spare.push_back(card);
      }
    }
    size_t next_spare = 0;
    std::vector<std::string> deck;
    auto seat_card = [&](int seat, size_t k) -> const std::string* {
      auto it = seat_cards_.find(seat);
      return it != seat_cards_.end() && it->second.size() > k ? &it->second[k] : nullptr;
    };
    for (size_t pass = 0; pass < 7; ++pass) {
      bool any = false;
      for (int s = 1; s <= num_seats; ++s) any = any || seat_card(s, pass) != nullptr;
      if (!any) break;
      if (pass >= 3 && next_spare < spare.size()) deck.push_back(spare[next_spare++]);  // burn
      for (int s = 1; s <= num_seats; ++s) {
        if (const std::string* c = seat_card(s, pass)) deck.push_back(*c);
      }
    }
    while (next_spare < spare.size()) deck.push_back(spare[next_spare++]);
    return deck;
  }

  int StartThen(const Line& l) {
    if (int rc = Start(); rc != 0) return rc;
    return Step(l);
  }

  int Start() {
    if (!variant_) return Usage("the hand needs a `variant` line before the first step");
    if (!stakes_) return Usage("the hand needs a `stakes` line before the first step");
    if (stacks_.size() < 2) return Usage("the hand needs a `seats` line with 2..8 stacks before the first step");
    if (preset_ && explicit_service_) return Usage("`deal service` cannot be used with deck or cards lines");
    if (live_ && preset_) return Usage("`deal live` cannot be used with deck or cards lines: report each card");
    if (!deck_.empty() && !seat_cards_.empty()) return Usage("use either deck lines or cards lines, not both");
    if (preset_ && deck_.empty() && seat_cards_.empty()) return Usage("`deal preset` needs deck or cards lines");
    const int n = static_cast<int>(stacks_.size());
    for (const auto& [seat, cards] : seat_cards_) {
      if (seat > n) return Usage(absl::StrCat("cards for seat ", seat, " but only ", n, " seats"));
    }
    v1::NewHandRequest req;
    req.set_variant(*variant_);
    *req.mutable_stakes() = *stakes_;
    if (forced_locale_) locale_ = *forced_locale_;
    req.set_profile(profile_);
    req.set_locale(locale_);
    for (int i = 1; i <= n; ++i) {
      v1::SeatConfig* s = req.add_seats();
      s->set_seat(i);
      s->set_stack(stacks_[static_cast<size_t>(i - 1)]);
      req.add_private_view_seats(i);
    }
    if (live_) {
      req.set_dealing_mode(v1::DEALING_MODE_LIVE);
    } else if (preset_) {
      req.set_dealing_mode(v1::DEALING_MODE_PRESET);
      const std::vector<std::string> deck = deck_.empty() ? DeckFromSeatCards(n) : deck_;
      for (const std::string& c : deck) req.add_preset_deck(c);
    } else {
      req.set_dealing_mode(v1::DEALING_MODE_SERVICE);
    }
    std::printf("%s, %s dealing, %s profile, %d seats: %s\n", VariantName(*variant_),
                live_ ? "LIVE" : (preset_ ? "PRESET" : "SERVICE"), ProfileName(profile_), n,
                absl::StrJoin(stacks_, " ").c_str());
    if (preset_) std::printf("Deck: %s\n", absl::StrJoin(req.preset_deck(), " ").c_str());
    if (auto err = client_->NewHand(req, &u_)) {
      return Fail(absl::StrCat("NewHand refused: ", DescribeError(*err)));
    }
    started_ = true;
    const v1::CustomStakes& st = u_.public_view().stakes();
    std::printf("Stakes: ante %lld, bring-in %lld, small bet %lld, big bet %lld\n", static_cast<long long>(st.ante()),
                static_cast<long long>(st.bring_in()), static_cast<long long>(st.small_bet()),
                static_cast<long long>(st.big_bet()));
    PrintEvents(u_);
    PrintBoard(u_, /*omniscient=*/true);
    PrintNext();
    street_ = u_.public_view().street();
    phase_ = u_.public_view().phase();
    return 0;
  }

  void PrintNext() {
    if (u_.to_act() != 0) std::printf("   next: seat %d: %s\n", u_.to_act(), LegalList(u_).c_str());
    if (u_.public_view().phase() == v1::PHASE_AWAITING_DEAL && u_.has_expected_deal()) {
      std::printf("   next card: %s\n", DescribeExpectedDeal(u_.expected_deal()).c_str());
    }
  }

  // One state-changing step from w[at]: `seat N KIND [AMOUNT]`, `card ...` or
  // `irregularity ...`. Returns a usage message when malformed, else "" with
  // the outcome of the call in *err / *next / *ruling.
  std::string Call(const std::vector<std::string>& w, size_t at, std::optional<CallError>* err, v1::HandUpdate* next,
                   std::optional<v1::Ruling>* ruling) {
    ruling->reset();
    const std::string& key = w.size() > at ? w[at] : "";
    if (key == "card") {
      v1::Action action;
      if (!ParseCardReport(w, at, &action)) return "expected: card SEAT|board up|down CARD";
      *err = client_->Deal(u_, action, next, ruling);
      return "";
    }
    if (key == "irregularity") {
      v1::IrregularityReport report;
      if (std::string bad = ParseIrregularity(w, at, &report); !bad.empty()) return bad;
      *err = client_->Rule(u_, report, next, ruling);
      return "";
    }
    int seat = 0;
    v1::ActionKind kind;
    int64_t amount = 0;
    if (!ParseAction(w, at, &seat, &kind, &amount)) {
      return "expected: seat N KIND [AMOUNT] (fold check call bring-in complete bet raise show muck "
             "declare-all-in decline-option)";
    }
    if (amount < 0) amount = DefaultAmount(seat, kind);
    *err = client_->Apply(u_, kind, seat, amount, next);
    return "";
  }

  // Parses "seat N KIND [AMOUNT]" from w[at]; amount -1 when left out.
  bool ParseAction(const std::vector<std::string>& w, size_t at, int* seat, v1::ActionKind* kind, int64_t* amount) {
    if (w.size() < at + 3 || w.size() > at + 4 || w[at] != "seat" || !absl::SimpleAtoi(w[at + 1], seat)) return false;
    std::optional<v1::ActionKind> k = ParseKind(w[at + 2]);
    if (!k) return false;
    *kind = *k;
    *amount = -1;
    return w.size() == at + 3 || absl::SimpleAtoi(w[at + 3], amount);
  }

  int64_t DefaultAmount(int seat, v1::ActionKind kind) const {
    if (seat != u_.to_act()) return 0;
    for (const v1::LegalAction& a : u_.legal_actions()) {
      if (a.kind() == kind) return a.amount_to();
    }
    return 0;
  }

  std::optional<int64_t> StackOf(int seat) const {
    for (const v1::SeatView& s : u_.public_view().seats()) {
      if (s.seat() == seat) return s.stack();
    }
    return std::nullopt;
  }

  int Step(const Line& l) {
    const std::vector<std::string>& w = l.words;
    const std::string& key = w[0];
    if (IsSetup(key)) return Usage(absl::StrCat("`", key, "` must come before the first step"));
    std::printf("[%d] %s\n", l.number, l.text.c_str());
    if (key == "seat" || key == "card" || key == "irregularity" || key == "expect-error") {
      const bool expect_error = key == "expect-error";
      if (expect_error && w.size() < 3) {
        return Usage("expected: expect-error RULE-ID seat N KIND [AMOUNT] | card ... | irregularity ...");
      }
      std::optional<CallError> err;
      v1::HandUpdate next;
      std::optional<v1::Ruling> ruling;
      if (std::string bad = Call(w, expect_error ? 2 : 0, &err, &next, &ruling); !bad.empty()) {
        return Usage(expect_error ? absl::StrCat("expect-error RULE-ID then a step: ", bad) : bad);
      }
      if (expect_error) {
        if (!err) return Fail(absl::StrCat("expected refusal ", w[1], " but the step was accepted"));
        if (err->reason != w[1]) {
          return Fail(absl::StrCat("expected refusal ", w[1], " but got ", DescribeError(*err)));
        }
        std::printf("   refused as expected: %s\n", DescribeError(*err).c_str());
        return 0;
      }
      if (err) return Fail(absl::StrCat("refused: ", DescribeError(*err)));
      u_ = std::move(next);
      last_ruling_ = std::move(ruling);
      for (const v1::Operation& op : u_.operations()) misdeal_ |= op.type() == v1::OPERATION_TYPE_MISDEAL;
      PrintEvents(u_);
      if (last_ruling_) PrintRuling(*last_ruling_, locale_);
      // The board again when a street is dealt, a ruling changed it or the showdown
      // begins (End prints the last one).
      if (u_.public_view().phase() != v1::PHASE_COMPLETE &&
          (u_.public_view().street() != street_ || u_.public_view().phase() != phase_ || last_ruling_)) {
        PrintBoard(u_, /*omniscient=*/true);
      }
      street_ = u_.public_view().street();
      phase_ = u_.public_view().phase();
      PrintNext();
      return 0;
    }
    auto number = [&](size_t i, int64_t* v) { return w.size() > i && absl::SimpleAtoi(w[i], v); };
    int64_t a = 0, b = 0;
    if (key == "expect-stack") {
      if (w.size() != 3 || !number(1, &a) || !number(2, &b)) return Usage("expected: expect-stack SEAT CHIPS");
      std::optional<int64_t> stack = StackOf(static_cast<int>(a));
      if (!stack) return Usage(absl::StrCat("no seat ", a));
      if (*stack != b) return Fail(absl::StrCat("seat ", a, " has ", *stack, ", expected ", b));
    } else if (key == "expect-pot") {
      if (w.size() != 2 || !number(1, &a)) return Usage("expected: expect-pot CHIPS");
      if (u_.public_view().pot_total() != a) {
        return Fail(absl::StrCat("the pot is ", u_.public_view().pot_total(), ", expected ", a));
      }
    } else if (key == "expect-to-act") {
      if (w.size() != 2 || !number(1, &a)) return Usage("expected: expect-to-act SEAT");
      if (u_.to_act() != a) return Fail(absl::StrCat("seat ", u_.to_act(), " is to act, expected ", a));
    } else if (key == "expect-street") {
      if (w.size() != 2 || !number(1, &a) || a < 3 || a > 7) return Usage("expected: expect-street 3..7");
      if (u_.public_view().street() != a) {
        return Fail(absl::StrCat("the hand is on ", StreetName(u_.public_view().street()), ", expected ",
                                 StreetName(static_cast<v1::Street>(a))));
      }
    } else if (key == "expect-phase") {
      if (w.size() != 2) return Usage("expected: expect-phase betting|awaiting-deal|showdown|complete");
      if (w[1] != PhaseKey(u_.public_view().phase())) {
        return Fail(absl::StrCat("the phase is ", PhaseKey(u_.public_view().phase()), ", expected ", w[1]));
      }
    } else if (key == "expect-ruling") {
      if (w.size() < 2 || w.size() > 3 || (w[1] == "none" && w.size() != 2)) {
        return Usage("expected: expect-ruling RULE-ID [DECISION], or expect-ruling none");
      }
      const std::string got =
          last_ruling_ ? absl::StrCat(last_ruling_->rule_id(), " ", last_ruling_->decision()) : "no ruling";
      if (w[1] == "none") {
        if (last_ruling_) return Fail(absl::StrCat("the previous step was ruled: ", got));
      } else if (!last_ruling_ || last_ruling_->rule_id() != w[1] ||
                 (w.size() == 3 && last_ruling_->decision() != w[2])) {
        return Fail(absl::StrCat("the previous step got ", got, ", expected ", absl::StrJoin(w.begin() + 1, w.end(), " ")));
      }
    } else if (key == "expect-deal") {
      int seat = 0;
      if (w.size() != 3 || !ParseDealSeat(w[1], &seat) || (w[2] != "up" && w[2] != "down")) {
        return Usage("expected: expect-deal SEAT|board up|down");
      }
      if (u_.public_view().phase() != v1::PHASE_AWAITING_DEAL) {
        return Fail(absl::StrCat("no card is due: the phase is ", PhaseKey(u_.public_view().phase())));
      }
      const v1::ExpectedDeal& d = u_.expected_deal();
      if (d.seat() != seat || d.face_up() != (w[2] == "up")) {
        return Fail(absl::StrCat("the next card goes to ", DescribeExpectedDeal(d), ", expected ",
                                 SeatOrBoard(seat), w[2] == "up" ? " face up" : " face down"));
      }
    } else if (key == "expect-legal") {
      const std::string want = absl::StrJoin(w.begin() + 1, w.end(), " ");
      if (LegalList(u_) != want) {
        return Fail(absl::StrCat("seat ", u_.to_act(), " may: ", LegalList(u_), "; expected: ", want));
      }
    } else if (key == "expect-won") {
      if (w.size() != 3 || !number(1, &a) || !number(2, &b)) return Usage("expected: expect-won SEAT CHIPS");
      if (u_.public_view().phase() != v1::PHASE_COMPLETE) return Fail("the hand is not complete yet");
      if (!settled_) {
        if (auto err = client_->Resolve(u_, locale_, &settlement_)) {
          return Fail(absl::StrCat("ResolveShowdown failed: ", DescribeError(*err)));
        }
        settled_ = true;
      }
      auto it = settlement_.won().find(static_cast<int32_t>(a));
      const int64_t won = it == settlement_.won().end() ? 0 : it->second;
      if (won != b) return Fail(absl::StrCat("seat ", a, " won ", won, ", expected ", b));
    } else {
      return Usage(absl::StrCat("unknown statement `", key, "`"));
    }
    std::printf("   ok\n");
    return 0;
  }

  int End() {
    std::printf("\n");
    if (misdeal_) {
      PrintBoard(u_, /*omniscient=*/true);
      std::vector<std::string> stacks;
      for (const v1::SeatView& s : u_.public_view().seats()) {
        stacks.push_back(absl::StrCat("seat ", s.seat(), " ", s.stack()));
      }
      std::printf("Misdeal: the hand is void, no showdown. Stacks: %s\n", absl::StrJoin(stacks, ", ").c_str());
      std::printf("PASS: every step and expectation held\n");
      return 0;
    }
    if (u_.public_view().phase() != v1::PHASE_COMPLETE) {
      std::printf("End of file; the hand is not complete (%s, %s).\n", StreetName(u_.public_view().street()),
                  PhaseName(u_.public_view().phase()));
      PrintBoard(u_, /*omniscient=*/true);
      std::printf("PASS: every step and expectation held\n");
      return 0;
    }
    PrintBoard(u_, /*omniscient=*/true);
    v1::ResolveShowdownResponse settlement;
    if (!Finish(*client_, u_, locale_, &settlement)) {
      std::printf("FAILED: the settlement could not be checked\n");
      return 1;
    }
    std::printf("PASS: every step and expectation held\n");
    return 0;
  }

  Client* client_;
  const Line* line_ = nullptr;
  bool started_ = false;
  std::optional<v1::Variant> variant_;
  std::optional<v1::Stakes> stakes_;
  std::vector<int64_t> stacks_;
  std::optional<v1::Locale> forced_locale_;
  bool preset_ = false;
  bool live_ = false;
  bool explicit_service_ = false;
  bool misdeal_ = false;
  std::optional<v1::Ruling> last_ruling_;
  std::vector<std::string> deck_;
  std::map<int, std::vector<std::string>> seat_cards_;
  v1::Profile profile_ = v1::PROFILE_CASH;
  v1::Locale locale_ = v1::LOCALE_EN;
  v1::HandUpdate u_;
  v1::Street street_ = v1::STREET_UNSPECIFIED;
  v1::Phase phase_ = v1::PHASE_UNSPECIFIED;
  bool settled_ = false;
  v1::ResolveShowdownResponse settlement_;
};

// ---------------------------------------------------------------------------
// export and replay: PHH hand histories.

bool WriteTokenFile(const std::string& path, const std::string& token) {
  std::string b64(sodium_base64_ENCODED_LEN(token.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), reinterpret_cast<const unsigned char*>(token.data()), token.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  b64.resize(std::strlen(b64.c_str()));
  std::ofstream out(path, std::ios::binary);
  out << b64 << "\n";
  if (!out) std::fprintf(stderr, "stud_cli: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

// A token file: base64 text (as --token_out writes it) or the raw token bytes.
std::optional<std::string> ReadTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string text(absl::StripAsciiWhitespace(bytes));
  std::string bin(text.size(), '\0');
  size_t len = 0;
  if (!text.empty() &&
      sodium_base642bin(reinterpret_cast<unsigned char*>(bin.data()), bin.size(), text.data(), text.size(), nullptr,
                        &len, nullptr, sodium_base64_VARIANT_ORIGINAL) == 0) {
    bin.resize(len);
    return bin;
  }
  return bytes;
}

int Export(const std::string& source, bool from_run) {
  Client client(absl::GetFlag(FLAGS_server), absl::GetFlag(FLAGS_timeout));
  if (!client.Connect()) return 1;
  std::string token;
  if (from_run) {
    // The hand file's output goes to stderr so that stdout is the PHH text alone.
    std::fflush(stdout);
    const int saved = dup(1);
    dup2(2, 1);
    Runner runner(&client, std::nullopt);
    const int rc = runner.Run(source);
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    if (runner.update().token().empty()) {
      std::fprintf(stderr, "stud_cli: %s did not start a hand\n", source.c_str());
      return rc != 0 ? rc : 2;
    }
    if (rc != 0) std::fprintf(stderr, "stud_cli: %s stopped early (exit %d); exporting the hand so far\n", source.c_str(), rc);
    token = runner.update().token();
  } else {
    std::optional<std::string> t = ReadTokenFile(source);
    if (!t) {
      std::fprintf(stderr, "stud_cli: cannot read %s\n", source.c_str());
      return 2;
    }
    token = *t;
  }
  v1::ExportHandHistoryResponse resp;
  if (auto err = client.ExportHistory(token, absl::GetFlag(FLAGS_viewer), absl::GetFlag(FLAGS_reveal), &resp)) {
    std::fprintf(stderr, "stud_cli: ExportHandHistory refused: %s\n", DescribeError(*err).c_str());
    return 1;
  }
  const std::string out_path = absl::GetFlag(FLAGS_phh_out);
  if (out_path.empty()) {
    std::fwrite(resp.phh().data(), 1, resp.phh().size(), stdout);
  } else {
    std::ofstream out(out_path, std::ios::binary);
    out << resp.phh();
    if (!out) {
      std::fprintf(stderr, "stud_cli: cannot write %s\n", out_path.c_str());
      return 2;
    }
  }
  std::fprintf(stderr, "Exported version %llu (%s), %d hidden card(s)%s\n",
               static_cast<unsigned long long>(resp.version()), resp.complete() ? "complete" : "in progress",
               resp.hidden_cards(), out_path.empty() ? "" : absl::StrCat(" to ", out_path).c_str());
  return 0;
}

int ReplayFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "stud_cli: cannot read %s\n", path.c_str());
    return 2;
  }
  const std::string phh((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<v1::Profile> profile = ParseProfile(absl::GetFlag(FLAGS_profile));
  if (!profile) {
    std::fprintf(stderr, "stud_cli: --profile must be cash, tournament or online\n");
    return 2;
  }
  Client client(absl::GetFlag(FLAGS_server), absl::GetFlag(FLAGS_timeout));
  if (!client.Connect()) return 1;
  v1::ReplayHandHistoryResponse r;
  if (auto err = client.ReplayHistory(phh, *profile, &r)) {
    std::printf("Replay of %s refused: %s\n", path.c_str(), DescribeError(*err).c_str());
    return 2;
  }
  std::printf("Replay of %s: %s\n", path.c_str(), VariantName(r.variant()));
  std::printf("  %d of %d actions applied; legal: %s; complete: %s; stated result checked: %s\n",
              r.actions_applied(), r.action_count(), r.legal() ? "yes" : "no", r.complete() ? "yes" : "no",
              r.result_checked() ? "yes" : "no");
  for (const v1::ReplaySeat& s : r.seats()) {
    std::printf("  seat %d (p%d): stack %lld, won %lld\n", s.seat(), s.seat(), static_cast<long long>(s.stack()),
                static_cast<long long>(s.won()));
  }
  if (r.has_divergence()) {
    const v1::ReplayDivergence& d = r.divergence();
    if (d.point() == v1::REPLAY_POINT_ACTION) {
      std::printf("DIFFERS at action #%d '%s'\n", d.action_index(), d.action().c_str());
    } else {
      std::printf("DIFFERS in the %s\n", d.point() == v1::REPLAY_POINT_SETUP ? "setup" : "stated result");
    }
    std::printf("  rule %s: %s\n", d.rule_id().empty() ? "(none)" : d.rule_id().c_str(), d.message().c_str());
    if (!d.expected().empty()) std::printf("  the rules allow: %s\n", d.expected().c_str());
  }
  std::printf("%s\n", r.summary().c_str());
  return r.matches() ? 0 : 1;
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
  if (command == "play" && args.size() == 2) return Play();
  if (command == "run" && args.size() == 3) {
    Client client(absl::GetFlag(FLAGS_server), absl::GetFlag(FLAGS_timeout));
    if (!client.Connect()) return 1;
    std::optional<v1::Locale> locale;
    if (!absl::GetFlag(FLAGS_locale).empty()) {
      locale = ParseLocale(absl::GetFlag(FLAGS_locale));
      if (!locale) return std::fprintf(stderr, "stud_cli: --locale must be en or es\n"), 2;
    }
    Runner runner(&client, locale);
    const int rc = runner.Run(args[2]);
    if (!absl::GetFlag(FLAGS_token_out).empty() && !runner.update().token().empty() &&
        !WriteTokenFile(absl::GetFlag(FLAGS_token_out), runner.update().token())) {
      return 2;
    }
    return rc;
  }
  if (command == "export" && !absl::GetFlag(FLAGS_from_run).empty() && args.size() == 2) {
    return Export(absl::GetFlag(FLAGS_from_run), /*from_run=*/true);
  }
  if (command == "export" && absl::GetFlag(FLAGS_from_run).empty() && args.size() == 3) {
    return Export(args[2], /*from_run=*/false);
  }
  if (command == "replay" && args.size() == 3) return ReplayFile(args[2]);
  std::fprintf(stderr, "stud_cli: %s\nFlags: stud_cli --help\n", kUsage);
  return 2;
}
