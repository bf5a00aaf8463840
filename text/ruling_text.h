// A ruling in words. The engine rules in data (engine/ruling.h: the rule,
// the decision and RulingParams: seats, cards, amounts, the option that
// decided); this is the one place a ruling's explanation, the option value
// that decided it and a misdeal's redeal instructions are worded, in English
// and Spanish, from the vocabulary of text/vocabulary.h. Whoever
// shows a ruling to a person (the API's Ruling, service/api/ruling.h) calls
// it. The sentences are part of the API's answers: a change here is a change
// clients see (tests/service/ruling_text_test.cc pins every one).
#ifndef STUD_TEXT_RULING_TEXT_H_
#define STUD_TEXT_RULING_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "engine/ruling.h"

namespace stud::text {

struct RulingText {
  std::string en;  // the explanation, as a floor person would say it
  std::string es;
  // "exposed_holecard = MISDEAL (tournament)": where the rule books
  // disagree, the option and value that decided; empty when they agree.
  std::string alternative;
  std::string redeal_en;  // a misdeal: how to deal the hand again
  std::string redeal_es;
};

RulingText RenderRuling(const Ruling& ruling);

// The table closing the seeding phase for the seats that sent no seed
// [STUD-DEAL-6] (service/rpc/seeding_rpc.cc): the service's own ruling.
RulingText SeedingClosedText();

// "exposed_holecard = MISDEAL (tournament)"; "" for RulingOption::kNone.
absl::string_view OptionText(RulingOption option);

namespace ruling_text {
// ---- ruling_text_deal.cc: dealer errors (exposed cards, misdeals, burn
// errors, premature cards, skipped seats) ----
RulingText DealerError(Decision decision, const RulingParams& p);
// "Seat 3 has 6 cards at the showdown; ...": a short hand ruled live.
RulingText ShortHandLive(const RulingParams& p, bool cap);
}  // namespace ruling_text

}  // namespace stud::text

#endif  // STUD_TEXT_RULING_TEXT_H_
