// The setup lines of a hand file (variant, stakes, seats, deal, deck, cards,
// profile, locale; docs/cli.md): what the table is and how it is dealt,
// gathered line by line, checked as a whole and turned into the NewHand
// request when the file's first step starts the hand (hand_file.cc).
#ifndef STUD_TOOLS_CLI_TABLE_SETUP_H_
#define STUD_TOOLS_CLI_TABLE_SETUP_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "stud/v1/stud.pb.h"

namespace stud_cli {

namespace v1 = stud::v1;

class TableSetup {
 public:
  // True when a line starting with `word` is a setup line.
  static bool IsSetupLine(const std::string& word);
  // True for the lines that choose how the hand is dealt (deal, deck, cards).
  static bool ChoosesDealing(const std::string& word);

  // Takes one setup line's words. "" when taken, else what is wrong with it.
  std::string Add(const std::vector<std::string>& words);
  // "" when the table can be dealt, else what is missing or contradictory.
  std::string Incomplete() const;
  // The NewHand request (Incomplete() must be ""): in `locale` when given,
  // else in the file's (English by default); every seat's private view asked.
  v1::NewHandRequest Request(std::optional<v1::Locale> locale) const;
  // "Stud, PRESET dealing, cash profile, 3 seats: 1000 1000 1000".
  std::string Summary() const;
  bool preset() const { return preset_; }

 private:
  std::optional<v1::Variant> variant_;
  std::optional<v1::Stakes> stakes_;
  std::vector<int64_t> stacks_;
  bool preset_ = false;
  bool live_ = false;
  bool explicit_service_ = false;
  std::vector<std::string> deck_;
  std::map<int, std::vector<std::string>> seat_cards_;
  v1::Profile profile_ = v1::PROFILE_CASH;
  v1::Locale locale_ = v1::LOCALE_EN;
};

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_TABLE_SETUP_H_
