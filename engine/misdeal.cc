// A misdeal and its antes [STUD-IRR-EXP-1]: the hand is void and is dealt
// again. The rule texts do not say what happens to the antes, so the option
// misdeal_antes offers both readings: every ante goes back (the default), or
// the antes stay in the pot and the redeal plays for them. The redeal of a
// hand that kept its antes starts with them already in
// (HandConfig::carried_antes; engine/dealing.cc posts them) and posts none.
#include "absl/strings/str_cat.h"
#include "engine/irregularities_internal.h"

namespace stud::internal {

Outcome Misdeal(HandState& st, int seat, RuleId rule) {
  const bool keep = st.config.options.misdeal_antes == MisdealAntes::kStayInPot;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    ::stud::Seat& s = st.seats[i];
    // Kept: only the antes stay; anything bet on the street goes back.
    const Chips back = keep ? s.street_bet : s.committed;
    s.street_bet = 0;
    if (back > 0) {
      s.committed -= back;
      s.stack += back;
      s.all_in = s.stack == 0;
      Log(st, {.type = OpType::kReturnAnte,
               .seat = static_cast<uint8_t>(i),
               .street = st.street,
               .amount = back,
               .rule_id = rule});
    }
  }
  st.misdeal = true;
  st.phase = Phase::kComplete;
  st.actor = 0;
  st.bring_in_due = false;
  st.pending_deal = {};
  Log(st, {.type = OpType::kMisdeal,
           .seat = static_cast<uint8_t>(seat),
           .street = st.street,
           .rule_id = rule});
  Log(st, {.type = OpType::kHandEnd, .street = st.street});
  Outcome o{.rule_id = rule,
            .decision = Decision::kMisdeal,
            .params = {.seat = seat,
                       .option = keep ? RulingOption::kExposedHolecardMisdealAntesKept
                                      : RulingOption::kExposedHolecardMisdeal}};
  return o;
}

}  // namespace stud::internal
