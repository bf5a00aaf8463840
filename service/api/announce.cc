#include "service/api/announce.h"

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "text/vocabulary.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

using text::words::CardText;
using text::words::kHighTagEn;
using text::words::kHighTagEs;
using text::words::kLowTagEn;
using text::words::kLowTagEs;
using text::words::MoneyEn;
using text::words::MoneyEs;
using text::words::SeatCapEn;
using text::words::SeatCapEs;
using text::words::SeatEn;
using text::words::SeatEs;

// The seat's up-cards as they stand after `upto` operations are not tracked,
// so boards are described from the current state; announcements are computed
// right after the call, when the two agree.
std::string Board(const HandState& state, int seat) {
  std::string out;
  const Seat& s = state.seats[seat];
  for (int k = 0; k < s.num_cards; ++k) {
    const SeatCard& c = s.cards[static_cast<size_t>(k)];
    if (!c.face_up) continue;
    if (!out.empty()) out += ' ';
    out += CardText(c.card);
  }
  return out;
}

// Adds an announcement worded from pieces. Its strings are assigned, not
// replaced, so a message reused from a thread's earlier answer keeps their
// capacity and a warm thread words it without allocating.
void Add(google::protobuf::RepeatedPtrField<v1::Announcement>* out, v1::Locale locale,
         const char* kind, int seat, RuleId rule, std::initializer_list<absl::string_view> en,
         std::initializer_list<absl::string_view> es) {
  v1::Announcement* a = out->Add();
  a->set_kind(kind);
  a->set_seat(seat);
  const absl::string_view name = RuleIdName(rule);
  a->mutable_rule_id()->assign(name.data(), name.size());
  std::string* text_en = a->mutable_text_en();
  std::string* text_es = a->mutable_text_es();
  text_en->clear();
  text_es->clear();
  for (absl::string_view piece : en) text_en->append(piece.data(), piece.size());
  for (absl::string_view piece : es) text_es->append(piece.data(), piece.size());
  a->set_text(locale == v1::LOCALE_ES ? *text_es : *text_en);
}

// Who opens a street, and why when the usual rule was set aside. The usual
// case cites the announcement rule itself [STUD-BRING-11, STUD-ORDER-5]; a
// passed-on opening cites the rule that passed it on [STUD-BRING-8,
// STUD-IRR-EXP-2, STUD-ORDER-4], so the text always says why this seat acts.
void AnnounceOpener(const HandState& state, const Operation& op, v1::Locale locale,
                    google::protobuf::RepeatedPtrField<v1::Announcement>* out) {
  const bool razz = state.config.variant == Variant::kRazz;
  const int seat = op.seat;
  const RuleId rule = op.rule_id;
  const int low = state.bring_in_seat;
  const std::string door = CardText(op.card);
  if (rule == RuleId::kBring1 || rule == RuleId::kBring8 || rule == RuleId::kIrrExp2) {
    const char* en = razz ? "High card" : "Low card";
    const char* es = razz ? "Carta alta" : "Carta baja";
    if (rule == RuleId::kBring1) {
      Add(out, locale, "LOW_CARD", seat, RuleId::kBring11,
          {en, ": ", SeatEn(seat), " (", door, ") must bring in"},
          {es, ": ", SeatEs(seat), " (", door, "), debe abrir"});
    } else if (rule == RuleId::kBring8) {
      Add(out, locale, "LOW_CARD", seat, rule,
          {en, ": ", SeatEn(low), " (", door, ") is all-in; ", SeatEn(seat),
           " opens and may fold, bring in or complete"},
          {es, ": ", SeatEs(low), " (", door, ") está all-in; abre el ", SeatEs(seat),
           ", que puede tirarse, abrir o completar"});
    } else {
      Add(out, locale, "LOW_CARD", seat, rule,
          {en, ": ", SeatEn(low), " (", door, ") is a dead hand; ", SeatEn(seat), " opens"},
          {es, ": la mano del ", SeatEs(low), " (", door, ") está muerta; abre el ", SeatEs(seat)});
    }
    return;
  }
  if (rule == RuleId::kIrrExp5) {
    Add(out, locale, "ALL_IN_OPTION", seat, rule,
        {SeatCapEn(seat), "'s last card was dealt face up: ", SeatEn(seat),
         " first declares all-in or plays on"},
        {"La última carta del ", SeatEs(seat), " salió boca arriba: el ", SeatEs(seat),
         " decide primero si va all-in o sigue jugando"});
    return;
  }
  const char* hand_en = razz ? "Low hand" : "High hand";
  const char* hand_es = razz ? "Mano baja" : "Mano alta";
  const BoardOrderList order = BoardOrder(state);
  const int high = order.empty() ? seat : order.front().seat;
  if (rule == RuleId::kOrder4 && high != seat) {
    Add(out, locale, "HIGH_HAND", seat, rule,
        {hand_en, " on ", text::words::StreetEn(op.street), ": ", SeatEn(high), " (",
         Board(state, high), ") is all-in; ", SeatEn(seat), " (", Board(state, seat),
         ") acts first"},
        {hand_es, " en ", text::words::StreetEs(op.street), ": el ", SeatEs(high), " (",
         Board(state, high), ") está all-in; habla primero el ", SeatEs(seat), " (",
         Board(state, seat), ")"});
    return;
  }
  Add(out, locale, "HIGH_HAND", seat, rule == RuleId::kOrder6 ? rule : RuleId::kOrder5,
      {hand_en, " on ", text::words::StreetEn(op.street), ": ", SeatEn(seat), " (",
       Board(state, seat), ") acts first"},
      {hand_es, " en ", text::words::StreetEs(op.street), ": ", SeatEs(seat), " (",
       Board(state, seat), ") habla primero"});
}

}  // namespace

void Announce(const HandState& state, size_t first_op, v1::Locale locale,
              google::protobuf::RepeatedPtrField<v1::Announcement>* out) {
  // Up cards seen so far per seat, rebuilt from the log so a pair is
  // announced on the deal that makes it. Only a new up card can make one:
  // without any, the operations before `first_op` announce nothing and are
  // not read (most calls are bets, and their answers skip the whole log).
  const auto up_card = [](const Operation& op) {
    return op.type == OpType::kDeal && op.face_up && op.seat != kBoardSeat;
  };
  const size_t fresh_from = std::min(first_op, state.log.size());
  const bool pairs_possible = std::any_of(
      state.log.begin() + static_cast<std::ptrdiff_t>(fresh_from), state.log.end(), up_card);
  std::array<uint32_t, kMaxSeats + 1> up_ranks{};  // bit per rank
  for (size_t i = pairs_possible ? 0 : fresh_from; i < state.log.size(); ++i) {
    const Operation& op = state.log[i];
    const int seat = op.seat;
    const bool fresh = i >= first_op;
    switch (op.type) {
      case OpType::kDeal: {
        if (!up_card(op)) break;
        const uint32_t bit = 1u << op.card.rank_value();
        if (fresh && (up_ranks[static_cast<size_t>(seat)] & bit) != 0) {
          Add(out, locale, "PAIR", seat, RuleId::kIrrAnn1,
              {"Pair of ", text::words::RankPluralEn(op.card.rank_value()), " showing, ",
               SeatEn(seat)},
              {"Pareja de ", text::words::RankPluralEs(op.card.rank_value()), " a la vista, ",
               SeatEs(seat)});
        }
        up_ranks[static_cast<size_t>(seat)] |= bit;
        break;
      }
      case OpType::kBringIn:
        if (!fresh) break;
        Add(out, locale, "BRING_IN", seat, op.rule_id,
            {SeatCapEn(seat), " brings in for ", MoneyEn(op.amount_to)},
            {SeatCapEs(seat), " abre con ", MoneyEs(op.amount_to)});
        break;
      case OpType::kFirstToAct:
        if (fresh) AnnounceOpener(state, op, locale, out);
        break;
      case OpType::kComplete:
        if (!fresh) break;
        Add(out, locale, "COMPLETE", seat, op.rule_id,
            {SeatCapEn(seat), " completes to ", MoneyEn(op.amount_to)},
            {SeatCapEs(seat), " completa a ", MoneyEs(op.amount_to)});
        break;
      case OpType::kRaise:
        if (!fresh) break;
        Add(out, locale, "RAISE", seat, op.rule_id,
            {"Raise: ", SeatEn(seat), " raises to ", MoneyEn(op.amount_to)},
            {"Resubida: ", SeatEs(seat), " sube a ", MoneyEs(op.amount_to)});
        break;
      case OpType::kAward:
        if (!fresh) break;
        Add(out, locale, "WIN", seat, op.rule_id,
            {SeatCapEn(seat), " wins ", MoneyEn(op.amount),
             op.pot == 0 ? " from the main pot" : absl::StrCat(" from side pot ", int{op.pot}),
             op.half == PotHalf::kHigh  ? kHighTagEn
             : op.half == PotHalf::kLow ? kLowTagEn
                                        : absl::string_view()},
            {SeatCapEs(seat), " gana ", MoneyEs(op.amount),
             op.pot == 0 ? " del bote principal" : absl::StrCat(" del bote lateral ", int{op.pot}),
             op.half == PotHalf::kHigh  ? kHighTagEs
             : op.half == PotHalf::kLow ? kLowTagEs
                                        : absl::string_view()});
        break;
      default:
        break;
    }
  }
}

}  // namespace stud::service
