#include "tools/cli/preset_deck.h"

#include <algorithm>
#include <cstddef>

namespace stud_cli {

std::vector<std::string> PresetDeckFromSeatCards(
    const std::map<int, std::vector<std::string>>& seat_cards, int num_seats) {
  std::vector<std::string> used;
  for (const auto& [seat, cards] : seat_cards) used.insert(used.end(), cards.begin(), cards.end());
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
    auto it = seat_cards.find(seat);
    return it != seat_cards.end() && it->second.size() > k ? &it->second[k] : nullptr;
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

}  // namespace stud_cli
