// A misdeal and its antes [STUD-IRR-EXP-1]: the hand is void and is dealt
// again. The rule texts do not say what happens to the antes, so the option
// misdeal_antes offers both readings: every ante goes back (the default), or
// the antes stay in the pot and the redeal plays for them. The redeal of a
// hand that kept its antes starts with them already in
// (HandConfig::carried_antes; engine/dealing.cc posts them) and posts none.
#include "engine/irregularities_internal.h"

namespace stud::internal {

Outcome Misdeal(HandState& st, int seat, RuleId rule) {
  const bool keep = st.config.options.misdeal_antes == MisdealAntes::kStayInPot;
  DeclareMisdeal(st, seat, rule, keep);
  Outcome o{.rule_id = rule,
            .decision = Decision::kMisdeal,
            .params = {.seat = seat,
                       .option = keep ? RulingOption::kExposedHolecardMisdealAntesKept
                                      : RulingOption::kExposedHolecardMisdeal}};
  return o;
}

}  // namespace stud::internal
