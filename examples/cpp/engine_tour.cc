// The README's "Using the engine from C++", as a program that runs: the text
// between the readme markers is the README's code block, byte for byte
// (ctest Docs.ReadmeSnippets checks it), and ctest Examples.CppEngineTour
// runs this program, which fails if the engine does not answer as the
// comments say.
#include <cstdio>

#include "engine/engine.h"

int main() {
  std::vector<stud::Card> my_shuffled_52_cards;
  for (int i = 0; i < stud::kDeckSize; ++i)
    my_shuffled_52_cards.push_back(stud::Card::FromIndex(i));
  // [readme]
  stud::HandConfig config;
  config.variant = stud::Variant::kStud;
  config.stakes = *stud::FindStakesPreset("$15-$30");  // ante 300, bring-in 500, 1500/3000
  config.num_seats = 3;
  config.starting_stacks = {0, 20000, 20000, 20000};  // indexed by seat; 0 unused
  config.deck = my_shuffled_52_cards;                 // the engine never shuffles
  absl::StatusOr<stud::HandState> hand = stud::NewHand(config);

  int seat = stud::ToAct(*hand);  // the low card brings in
  for (const stud::LegalAction& a : stud::LegalActions(*hand, seat)) {
    std::printf("%s to %lld\n", std::string(stud::ActionKindName(a.kind)).c_str(),
                static_cast<long long>(a.amount_to));  // bring-in to 500, complete to 1500
  }
  absl::Status s =
      stud::Apply(*hand, {.kind = stud::ActionKind::kRaise, .seat = seat, .amount_to = 3000});
  // s is FAILED_PRECONDITION "STUD-BRING-4: ...": the bring-in seat brings in or completes
  std::printf("%s\n", s.ToString().c_str());
  // [/readme]
  if (!hand.ok() || stud::RuleIdOf(s) != "STUD-BRING-4") return 1;
  const std::vector<stud::LegalAction> legal = stud::LegalActions(*hand, seat);
  if (legal.size() != 2 || legal[0].amount_to != 500 || legal[1].amount_to != 1500) return 1;
  return 0;
}
