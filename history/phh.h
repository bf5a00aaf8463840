// Hand histories in PHH (the Poker Hand History file format, a TOML-based
// open standard; variant codes F7S, F7S/8 and FR for the stud games).
//
// Three things, all outside the pure engine (they only call its public API):
//   * ParsePhh: read a PHH file (the subset below) into a PhhHand.
//   * ExportPhh: write any HandState, finished or in progress, as PHH text.
//     Another seat's down card is written "??" unless the caller may see it
//     (its own seat, a hand shown at showdown) or asked to reveal everything.
//   * ReplayPhh: run a PhhHand through the engine with reported dealing and
//     say whether every action was legal and the result matches, or where the
//     record first differs from the rules and which rule decides.
//
// Reader subset. One `key = value` per line, where a value is an integer, a
// float, a boolean, a quoted string ('...' or "...") or an array of integers
// or of quoted strings; an array may span several lines. `#` starts a comment
// outside quotes, also inside an action ("p1 sm Ac2d # Ivey"). Tables
// (`[name]`) are rejected so that a file this reader does not understand fails
// loudly instead of half-parsing. Unknown fields are kept (raw text when they
// are not one of the shapes above) and ignored.
//
// Stud actions (the `actions` array):
//   "d dh p1 Ac8dAs"   deal to player 1 (3rd street: two down cards then the
//                      door card; later streets one card); "??" is an unknown card
//   "d db 7h"          a common card (the deck ran out) [STUD-DECK-5]
//   "p3 pb"            post the bring-in
//   "p5 cbr 250000"    complete, bet or raise to that street total
//   "p1 cc"            check or call
//   "p2 f"             fold
//   "p1 sm AcAs..."    show these cards (all the seat's cards, in deal order);
//                      "p1 sm" with no cards mucks
// Players p1..pN are seats 1..N.
#ifndef STUD_HISTORY_PHH_H_
#define STUD_HISTORY_PHH_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/card.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/options.h"
#include "engine/view.h"

namespace stud::history {

// One parsed TOML value (only the shapes listed in the file comment).
struct PhhValue {
  enum class Type { kInt, kFloat, kBool, kString, kIntArray, kStringArray, kRaw };
  Type type = Type::kInt;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;  // kString; kRaw: the text as written
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

enum class PhhActionType {
  kDeal,
  kDealBoard,
  kBringIn,
  kCompleteBetRaise,
  kCheckCall,
  kFold,
  kShowMuck
};

struct PhhAction {
  PhhActionType type = PhhActionType::kFold;
  int player = 0;      // 1-based ("p1"); 0 for kDealBoard
  int64_t amount = 0;  // kCompleteBetRaise: the street total
  // kDeal, kDealBoard, kShowMuck: the cards in order; nullopt for "??".
  std::vector<std::optional<Card>> cards;
  std::string text;  // the action as written (commentary removed)
};

struct PhhHand {
  std::map<std::string, PhhValue> fields;  // every field, known or not
  std::string variant;                     // "F7S", "F7S/8", "FR"
  std::vector<int64_t> antes;
  int64_t bring_in = 0;
  int64_t small_bet = 0;
  int64_t big_bet = 0;
  std::vector<int64_t> starting_stacks;
  std::vector<PhhAction> actions;
  // Optional result fields: stacks after the last action, chips collected.
  std::optional<std::vector<int64_t>> finishing_stacks;
  std::optional<std::vector<int64_t>> winnings;
};

// "F7S" <-> Variant::kStud, "F7S/8" <-> kStudHiLo, "FR" <-> kRazz.
absl::string_view PhhVariantCode(Variant v);
std::optional<Variant> VariantFromPhhCode(absl::string_view code);

// One action string. INVALID_ARGUMENT quotes it on failure.
absl::StatusOr<PhhAction> ParsePhhAction(absl::string_view text);
// The text of a PHH file. INVALID_ARGUMENT names the line or field.
absl::StatusOr<PhhHand> ParsePhh(absl::string_view text);
// Reads and parses a file (NOT_FOUND when it cannot be opened).
absl::StatusOr<PhhHand> ReadPhhFile(const std::string& path);

struct ExportOptions {
  // Whose down cards are written: kPublicViewer (0) for nobody's, or a seat
  // 1..N for that seat's own. Hands shown at showdown are always written.
  int viewer = kPublicViewer;
  // Write every dealt card, hidden or not (the caller must have permission).
  bool reveal_all = false;
  // More `key = value` lines after the standard ones, values already in TOML
  // ("_hand_version = 12", "_dealing_mode = 'SERVICE'"). Keys should start with
  // an underscore (PHH user-defined fields).
  std::vector<std::pair<std::string, std::string>> extra_fields;
};

// The hand as PHH text: variant, antes, bring-in, bets, starting stacks and
// every action so far; finishing_stacks and winnings once the hand is
// complete. Steps PHH cannot express (irregularity rulings, time-outs, the
// all-in option) are left out and their rule IDs listed in `_rulings`.
std::string ExportPhh(const HandState& state, const ExportOptions& options = {});

struct ReplayOptions {
  // The rules the record is judged by (PHH carries no rule options; the
  // catalogue defaults unless the caller knows better).
  Options rules = Options();
};

// Where the record first departs from the rules or from its stated result.
struct ReplayDivergence {
  // Index in `actions` (0-based); -1 for the setup fields; actions.size()
  // when the actions are all fine but the stated result is not.
  int action_index = -1;
  std::string action;    // the action as written ("" for setup or result)
  std::string rule_id;   // the rule that decides ("STUD-BRING-5"), "" when none applies
  std::string message;   // what the engine says
  std::string expected;  // what the rules allow at that point ("seat 5: fold, call 75000, ...")
};

struct ReplayReport {
  // Every action of the record was accepted in order.
  bool legal = false;
  // The hand reached the end (every pot awarded) with the record.
  bool complete = false;
  // The record states a result (finishing_stacks or winnings) and it matches.
  bool result_checked = false;
  // Actions of the record that were applied (deals and shows included).
  int actions_applied = 0;
  std::optional<ReplayDivergence> divergence;
  // The engine's hand after the replay (up to the divergence when there is one).
  HandState state;
  // Per seat 1..N: the stack now, and what the seat collected from the pots.
  std::vector<Chips> final_stacks;
  std::vector<Chips> won;
  // Cards the record hides ("??") that the replay dealt as stand-ins. When
  // non-zero, `state` holds invented cards: fit for judging the record, never
  // to be played on as if they were real.
  int unknown_cards = 0;

  bool ok() const { return !divergence.has_value(); }
};

// Replays the hand in reported dealing (DealSource::kReported): cards are
// reported in the order the engine asks for them (3rd street in three passes,
// then one card a street), unknown cards ("??") are filled with cards used
// nowhere in the record (a card shown later fills its slot; an unknown door
// card gets one that brings in last so it cannot change the opener
// [STUD-BRING-2, STUD-BRING-3]), each betting action must be among the acting
// seat's legal actions with the exact amount, and shows are applied in the
// order the engine asks [STUD-SHOW-1] (each player's last `sm` counts).
// A record that stops early is not a divergence (`complete` says so).
// INVALID_ARGUMENT when the setup cannot be a stud hand (unknown variant,
// stacks, antes or stakes the engine refuses).
absl::StatusOr<ReplayReport> ReplayPhh(const PhhHand& hand, const ReplayOptions& options = {});

// A one-paragraph human summary of a report ("OK: 32 actions replayed ...").
std::string DescribeReport(const PhhHand& hand, const ReplayReport& report);

}  // namespace stud::history

#endif  // STUD_HISTORY_PHH_H_
