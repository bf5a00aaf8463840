// How stud_cli shows a hand: the board, the operation log and dealer
// announcements, legal actions, rulings, and the end of a hand (showdown,
// pots, winners and the deck commitment check). Everything prints to stdout.
#ifndef STUD_TOOLS_CLI_RENDER_H_
#define STUD_TOOLS_CLI_RENDER_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "stud/v1/stud.pb.h"
#include "tools/cli/client.h"

namespace stud_cli {

namespace v1 = stud::v1;

// --- Reading a HandUpdate --------------------------------------------------

// The private view of `seat` in the update, or nullptr when it has none.
const v1::PrivateView* PrivateOf(const v1::HandUpdate& u, int seat);

// The street total of the acting seat's first legal action of `kind`; 0 when
// it has none (an action typed without its amount takes this one).
int64_t LegalAmountOf(const v1::HandUpdate& u, v1::ActionKind kind);

// --- Words -----------------------------------------------------------------

// "call 400", "raise to 800", "complete to 400", "fold", with " (all-in)".
std::string DescribeLegal(const v1::LegalAction& a);

// The compact form used by `expect-legal`: "fold call 6000 raise 7500".
std::string LegalList(const v1::HandUpdate& u);

// "the board" for seat 0, else "seat N".
std::string SeatOrBoard(int seat);

// "seat 2 face down (3rd street)": the card a LIVE dealer owes next.
std::string DescribeExpectedDeal(const v1::ExpectedDeal& d);

// "seat 1 2000, seat 2 1800": every seat's stack now.
std::string StacksList(const v1::HandUpdate& u);

// Lower-case hex of raw bytes (commitments, salts).
std::string Hex(const std::string& bytes);

// --- Printing --------------------------------------------------------------

// The table. `omniscient`: every seat's down cards from its private view
// (hand files); otherwise down cards are hidden unless shown at showdown.
void PrintBoard(const v1::HandUpdate& u, bool omniscient);

// The update's new operations in words (those the board does not show) and
// the dealer's announcements.
void PrintEvents(const v1::HandUpdate& u);

// A ruling: rule, decision, the floor's words in `locale`, and the exact
// change it made.
void PrintRuling(const v1::Ruling& r, v1::Locale locale);

// The end of a complete hand: fetches the settlement (ResolveShowdown) into
// *out and prints the showdown, pots, winners, final stacks and the deck
// commitment check, from the reveal asked of GetView (reveal_deck), against
// `published`: the commitment of the NewHand answer (never the final
// update's, which an operator who re-sealed the deck could have rewritten).
// False when the settlement cannot be fetched or the revealed deck does not
// verify; a server that does not reveal decks (no --allow_deck_reveal) is
// said so, and is no failure.
bool FinishHand(Client& client, const v1::HandUpdate& u, absl::string_view published,
                v1::Locale locale, v1::ResolveShowdownResponse* out);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_RENDER_H_
