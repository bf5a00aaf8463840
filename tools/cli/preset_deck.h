// How a hand file's `cards SEAT C C ...` lines become the preset deck the
// service deals from (DEALING_MODE_PRESET), so that a file can say which
// cards each seat gets without laying out burns and unused cards itself.
#ifndef STUD_TOOLS_CLI_PRESET_DECK_H_
#define STUD_TOOLS_CLI_PRESET_DECK_H_

#include <map>
#include <string>
#include <vector>

namespace stud_cli {

// The deck in dealing order from per-seat card lists (seat -> its cards in
// the order it receives them: two down, the door card, 4th..7th street):
// 3rd street in three passes over seats 1..num_seats, a burn before 4th..7th
// street, then every card used nowhere, in natural order (2c 2d .. As), which
// also supplies the burns.
std::vector<std::string> PresetDeckFromSeatCards(
    const std::map<int, std::vector<std::string>>& seat_cards, int num_seats);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_PRESET_DECK_H_
