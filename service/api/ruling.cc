#include "service/api/ruling.h"

#include "service/api/convert.h"
#include "text/ruling_text.h"

namespace stud::service {
namespace v1 = stud::v1;

void EncodeRuling(const HandState& state, const Ruling& r, v1::Ruling* out) {
  out->set_rule_id(std::string(RuleIdName(r.rule_id)));
  out->set_decision(std::string(DecisionName(r.decision)));
  text::RulingText worded = text::RenderRuling(r);
  out->set_explanation_en(std::move(worded.en));
  out->set_explanation_es(std::move(worded.es));
  out->set_alternative(std::move(worded.alternative));
  out->set_redeal_en(std::move(worded.redeal_en));
  out->set_redeal_es(std::move(worded.redeal_es));
  for (const SeatCardRef& c : r.exposed) {
    v1::RulingCard* rc = out->add_exposed_cards();
    rc->set_seat(c.seat);
    rc->set_card(c.card.ToString());
  }
  // Removed and given cards in the public redaction of their operations.
  for (size_t i = r.first_op; i < r.end_op; ++i) {
    const Operation& op = state.log[i];
    const bool removed = op.type == OpType::kAside;
    const bool given = op.type == OpType::kDeal || op.type == OpType::kReplaceCard;
    if (!removed && !given) continue;
    v1::RulingCard* rc = removed ? out->add_removed_cards() : out->add_given_cards();
    rc->set_seat(op.seat);
    if ((!removed || op.amount == 0) && CardVisibleTo(state, op, kPublicViewer)) {
      rc->set_card(op.card.ToString());
    }
  }
  for (int seat : r.killed) out->add_killed_seats(seat);
  for (const StackChange& c : r.chips) {
    v1::ChipChange* cc = out->add_chip_changes();
    cc->set_seat(c.seat);
    cc->set_stack_delta(c.stack_delta);
    cc->set_committed_delta(c.committed_delta);
  }
  out->set_to_act(r.to_act);
  for (const LegalAction& a : r.options) EncodeLegalAction(a, out->add_options());
  if (r.allowance_remaining >= 0) out->set_allowance_remaining(r.allowance_remaining);
}

}  // namespace stud::service
