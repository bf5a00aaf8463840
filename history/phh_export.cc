// Writing PHH: any HandState, finished or in progress, as PHH text with the
// down cards the viewer may see (history/phh.h).
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/view.h"
#include "history/phh.h"
#include "history/phh_totals.h"

namespace stud::history {

std::string ExportPhh(const HandState& st, const ExportOptions& options) {
  const int n = st.config.num_seats;
  auto quoted_list = [](const std::vector<std::string>& items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
      absl::StrAppend(&out, i == 0 ? "" : ", ", "'", items[i], "'");
    return out + "]";
  };
  auto int_list = [](const std::vector<Chips>& items) {
    return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
  };

  std::vector<std::string> actions;
  std::vector<std::string> rulings;
  // Deals are buffered and written per player ("d dh p1 AcKd7s") before the
  // next player action, in the order the players were first dealt to.
  std::vector<int> deal_order;
  std::map<int, std::string> pending;
  auto flush = [&] {
    for (int seat : deal_order) {
      if (seat == kBoardSeat) {
        actions.push_back(absl::StrCat("d db ", pending[seat]));
      } else {
        actions.push_back(absl::StrCat("d dh p", seat, " ", pending[seat]));
      }
    }
    deal_order.clear();
    pending.clear();
  };
  auto visible = [&](const Operation& op) {
    return options.reveal_all || CardVisibleTo(st, op, options.viewer);
  };
  for (const Operation& op : st.log) {
    switch (op.type) {
      case OpType::kDeal:
      case OpType::kCommonCard: {
        const int seat = op.type == OpType::kCommonCard ? kBoardSeat : op.seat;
        if (pending.count(seat) == 0) deal_order.push_back(seat);
        absl::StrAppend(&pending[seat], visible(op) ? op.card.ToString() : "??");
        break;
      }
      case OpType::kBringIn:
        flush();
        actions.push_back(absl::StrCat("p", op.seat, " pb"));
        break;
      case OpType::kComplete:
      case OpType::kBet:
      case OpType::kRaise:
        flush();
        actions.push_back(absl::StrCat("p", op.seat, " cbr ", op.amount_to));
        break;
      case OpType::kCall:
      case OpType::kCheck:
        flush();
        actions.push_back(absl::StrCat("p", op.seat, " cc"));
        break;
      case OpType::kFold:
        flush();
        actions.push_back(absl::StrCat("p", op.seat, " f"));
        break;
      case OpType::kShow: {
        flush();
        // Every card of the seat in deal order; shown cards are public.
        std::string cards;
        const Seat& s = st.seats[op.seat];
        for (int k = 0; k < s.num_cards; ++k)
          absl::StrAppend(&cards, s.cards[static_cast<size_t>(k)].card.ToString());
        actions.push_back(absl::StrCat("p", op.seat, " sm ", cards));
        break;
      }
      case OpType::kMuck:
        flush();
        actions.push_back(absl::StrCat("p", op.seat, " sm"));
        break;
      case OpType::kRuling:
      case OpType::kTimeoutAllIn:
      case OpType::kDeclareAllIn:
      case OpType::kDeclineOption:
        if (op.rule_id != RuleId::kNone) rulings.push_back(std::string(RuleIdName(op.rule_id)));
        break;
      default:
        break;  // antes, burns, first-to-act, street ends, awards: implied by the rules
    }
  }
  flush();

  std::vector<Chips> antes(static_cast<size_t>(n), st.config.stakes.ante);
  std::vector<Chips> starting;
  // The redeal of a misdeal that kept its antes [STUD-IRR-EXP-1] posts none:
  // PHH has no carried ante, so the seat starts with its ante and posts it
  // (a short one is an all-in ante), which leaves the same chips in play.
  for (int i = 1; i <= n; ++i)
    starting.push_back(st.config.starting_stacks[static_cast<size_t>(i)] +
                       st.config.carried_antes[static_cast<size_t>(i)]);
  std::string out;
  absl::StrAppend(&out, "variant = '", PhhVariantCode(st.config.variant), "'\n");
  absl::StrAppend(&out, "ante_trimming_status = false\n");
  absl::StrAppend(&out, "antes = ", int_list(antes), "\n");
  absl::StrAppend(&out, "bring_in = ", st.config.stakes.bring_in, "\n");
  absl::StrAppend(&out, "small_bet = ", st.config.stakes.small_bet, "\n");
  absl::StrAppend(&out, "big_bet = ", st.config.stakes.big_bet, "\n");
  absl::StrAppend(&out, "starting_stacks = ", int_list(starting), "\n");
  absl::StrAppend(&out, "actions = ", quoted_list(actions), "\n");
  if (st.phase == Phase::kComplete) {
    absl::StrAppend(&out, "finishing_stacks = ", int_list(StacksBySeat(st)), "\n");
    absl::StrAppend(&out, "winnings = ", int_list(ChipsWonBySeat(st)), "\n");
  }
  if (!rulings.empty()) absl::StrAppend(&out, "_rulings = ", quoted_list(rulings), "\n");
  for (const auto& [key, value] : options.extra_fields)
    absl::StrAppend(&out, key, " = ", value, "\n");
  return out;
}

}  // namespace stud::history
