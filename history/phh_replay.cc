// Replaying PHH: a record run through the engine with reported dealing, and
// the first place it departs from the rules or from its stated result
// (history/phh.h).
#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/hand_eval.h"
#include "engine/view.h"
#include "history/phh.h"
#include "history/phh_totals.h"
#include "text/refusal_text.h"

namespace stud::history {
namespace {

std::string CardText(const std::optional<Card>& c) { return c ? c->ToString() : "??"; }

std::string DescribeLegal(const HandState& st) {
  if (st.phase == Phase::kComplete) return "nothing: the hand is over";
  if (st.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal next = NextDeal(st);
    return next.seat == kBoardSeat
               ? absl::StrCat("a common card on ", StreetName(next.street))
               : absl::StrCat("a card for seat ", next.seat, " (p", next.seat, ") on ",
                              StreetName(next.street), next.face_up ? ", face up" : ", face down");
  }
  const int seat = ToAct(st);
  std::string out = absl::StrCat("seat ", seat, " (p", seat, "): ");
  bool first = true;
  for (const LegalAction& a : LegalActions(st, seat)) {
    absl::StrAppend(&out, first ? "" : ", ", ActionKindName(a.kind));
    if (a.amount_to != 0) absl::StrAppend(&out, " ", a.amount_to);
    first = false;
  }
  return out;
}

// The cards of every player (and the board, key 0) in deal order, with
// unknown cards replaced by cards used nowhere in the hand (see ReplayPhh);
// the stand-ins are added to `stand_ins`.
std::map<int, std::vector<Card>> ResolveDeals(const PhhHand& hand, Variant variant,
                                              CardSet& stand_ins) {
  std::map<int, std::vector<std::optional<Card>>> dealt;
  std::map<int, std::vector<std::optional<Card>>> shown;
  CardSet used;
  for (const PhhAction& a : hand.actions) {
    if (a.type == PhhActionType::kDeal || a.type == PhhActionType::kDealBoard) {
      const int who = a.type == PhhActionType::kDealBoard ? kBoardSeat : a.player;
      for (const auto& c : a.cards) dealt[who].push_back(c);
    } else if (a.type == PhhActionType::kShowMuck && !a.cards.empty()) {
      shown[a.player] = a.cards;
    }
    for (const auto& c : a.cards) {
      if (c) used.Add(*c);
    }
  }
  for (auto& [player, cards] : dealt) {
    auto it = shown.find(player);
    if (player == kBoardSeat || it == shown.end()) continue;
    for (size_t i = 0; i < cards.size() && i < it->second.size(); ++i) {
      if (!cards[i] && it->second[i]) cards[i] = it->second[i];
    }
  }
  const bool razz = variant == Variant::kRazz;
  std::vector<Card> pool;  // unused cards, the ones that bring in last first
  for (int i = 0; i < kDeckSize; ++i) {
    if (!used.Contains(Card::FromIndex(i))) pool.push_back(Card::FromIndex(i));
  }
  std::sort(pool.begin(), pool.end(),
            [razz](Card a, Card b) { return BringsInBefore(b, a, razz); });
  size_t next = 0;
  auto take = [&]() -> Card {
    const Card c = next < pool.size() ? pool[next++] : Card::FromIndex(0);
    stand_ins.Add(c);
    return c;
  };
  for (auto& [player, cards] : dealt) {
    if (player != kBoardSeat && cards.size() > 2 && !cards[2]) cards[2] = take();  // door card
  }
  std::map<int, std::vector<Card>> out;
  for (auto& [player, cards] : dealt) {
    for (auto& c : cards) {
      if (!c) c = take();
      out[player].push_back(*c);
    }
  }
  return out;
}

class Replayer {
 public:
  Replayer(const PhhHand& hand, ReplayReport* report) : hand_(hand), r_(*report) {}

  absl::Status Run(const ReplayOptions& options) {
    const std::optional<Variant> variant = VariantFromPhhCode(hand_.variant);
    if (!variant) {
      return absl::InvalidArgumentError(
          absl::StrCat("variant: '", hand_.variant, "' is not a stud game (F7S, F7S/8 or FR)"));
    }
    n_ = static_cast<int>(hand_.starting_stacks.size());
    if (n_ < kMinSeats || n_ > kMaxSeats) {
      return absl::InvalidArgumentError(absl::StrCat(
          "starting_stacks: ", n_, " players; a stud hand has ", kMinSeats, "..", kMaxSeats));
    }
    if (hand_.antes.size() != hand_.starting_stacks.size() && !hand_.antes.empty()) {
      return absl::InvalidArgumentError("antes: one per player (or an empty array)");
    }
    HandConfig config;
    config.variant = *variant;
    config.options = options.rules;
    const Chips ante = hand_.antes.empty() ? 0 : hand_.antes[0];
    config.stakes = {.ante = ante,
                     .bring_in = hand_.bring_in,
                     .small_bet = hand_.small_bet,
                     .big_bet = hand_.big_bet};
    config.num_seats = n_;
    for (int i = 0; i < n_; ++i)
      config.starting_stacks[static_cast<size_t>(i) + 1] =
          hand_.starting_stacks[static_cast<size_t>(i)];
    config.deal_source = DealSource::kReported;
    // The engine has one ante for the table [STUD-SETUP-2]; PHH lists it per player.
    for (int64_t a : hand_.antes) {
      if (a != ante) {
        Diverge(-1, "STUD-SETUP-2",
                "every player antes the same amount; the record lists uneven antes");
        return absl::OkStatus();
      }
    }
    absl::StatusOr<HandState> started = NewHand(config);
    if (!started.ok()) {
      return absl::InvalidArgumentError(std::string(text::Worded(started.status()).message()));
    }
    st_ = *std::move(started);
    CardSet stand_ins;
    cards_ = ResolveDeals(hand_, *variant, stand_ins);
    Play();
    for (int i = 0; i < kDeckSize; ++i) {
      const Card c = Card::FromIndex(i);
      r_.unknown_cards += stand_ins.Contains(c) && st_.seen.Contains(c);
    }
    return absl::OkStatus();
  }

  HandState& state() { return st_; }

 private:
  void Diverge(int index, absl::string_view rule, absl::string_view message) {
    ReplayDivergence d;
    d.action_index = index;
    if (index >= 0 && static_cast<size_t>(index) < hand_.actions.size())
      d.action = hand_.actions[static_cast<size_t>(index)].text;
    d.rule_id = std::string(rule);
    d.message = std::string(message);
    d.expected = index >= 0 ? DescribeLegal(st_) : "";
    r_.divergence = d;
  }
  void DivergeOn(int index, const absl::Status& s) {
    const std::string rule = RuleIdOf(s);
    const absl::Status worded = text::Worded(s);
    absl::string_view message = worded.message();
    // Engine messages start with their rule ID; the report carries it apart.
    if (!rule.empty() && absl::StartsWith(message, rule + ": "))
      message.remove_prefix(rule.size() + 2);
    Diverge(index, rule, message);
  }

  // Reports the buffered cards in the order the engine asks for them. Returns
  // false when the engine waits for a card the record has not dealt (yet).
  bool Flush() {
    while (st_.phase == Phase::kAwaitingDeal) {
      const ExpectedDeal next = NextDeal(st_);
      // A record names no burns or reshuffle: the burns are face down (implied
      // by the next card, or reported unseen when a reshuffle follows them)
      // and the reshuffle is reported when due [STUD-DEAL-3, STUD-DECK-1].
      const bool burn_first = next.step == DealStep::kBurn && LegalActions(st_, next.seat).empty();
      if (next.step == DealStep::kReshuffle || burn_first) {
        const Action dealer =
            burn_first ? Action{.kind = ActionKind::kBurn, .seat = kBoardSeat, .unseen = true}
                       : Action{.kind = ActionKind::kReshuffle, .seat = kBoardSeat};
        if (const absl::Status s = Apply(st_, dealer); !s.ok()) {
          DivergeOn(-1, s);
          return false;
        }
        continue;
      }
      std::vector<Card>& queue = pending_[next.seat];
      if (queue.empty()) return false;
      const Card c = queue.front();
      queue.erase(queue.begin());
      const absl::Status s = Apply(
          st_, {.kind = ActionKind::kDeal, .seat = next.seat, .card = c, .face_up = next.face_up});
      if (!s.ok()) {
        DivergeOn(deal_index_[next.seat].empty() ? -1 : deal_index_[next.seat].front(), s);
        return false;
      }
      if (!deal_index_[next.seat].empty())
        deal_index_[next.seat].erase(deal_index_[next.seat].begin());
    }
    return true;
  }

  // The engine action for a PHH betting action: the legal one when there is
  // one, otherwise the closest reading so that Apply names the rule broken.
  Action MapAction(const PhhAction& a) const {
    Action out;
    out.seat = a.player;
    const std::vector<LegalAction> legal = LegalActions(st_, a.player);
    auto find = [&](std::initializer_list<ActionKind> kinds,
                    std::optional<Chips> amount) -> std::optional<LegalAction> {
      for (const LegalAction& l : legal) {
        if (std::find(kinds.begin(), kinds.end(), l.kind) == kinds.end()) continue;
        if (amount && l.amount_to != *amount) continue;
        return l;
      }
      return std::nullopt;
    };
    const Seat& s = st_.seats[static_cast<size_t>(a.player)];
    std::optional<LegalAction> chosen;
    switch (a.type) {
      case PhhActionType::kBringIn:
        chosen = find({ActionKind::kBringIn}, std::nullopt);
        out.kind = ActionKind::kBringIn;
        out.amount_to = hand_.bring_in;
        break;
      case PhhActionType::kCompleteBetRaise:
        chosen = find({ActionKind::kComplete, ActionKind::kBet, ActionKind::kRaise}, a.amount);
        if (!chosen) {
          // Right kind, wrong amount: the engine explains the fixed-limit rule.
          std::optional<LegalAction> kind =
              find({ActionKind::kComplete, ActionKind::kBet, ActionKind::kRaise}, std::nullopt);
          out.kind = kind                                                    ? kind->kind
                     : st_.bet_to == 0                                       ? ActionKind::kBet
                     : (st_.street == Street::kThird && st_.full_level == 0) ? ActionKind::kComplete
                                                                             : ActionKind::kRaise;
        }
        out.amount_to = a.amount;
        break;
      case PhhActionType::kCheckCall:
        chosen = find({ActionKind::kCheck, ActionKind::kCall}, std::nullopt);
        out.kind = st_.bet_to > s.street_bet ? ActionKind::kCall : ActionKind::kCheck;
        out.amount_to = out.kind == ActionKind::kCall ? st_.bet_to : 0;
        break;
      case PhhActionType::kFold:
        chosen = find({ActionKind::kFold}, std::nullopt);
        out.kind = ActionKind::kFold;
        break;
      default:
        break;
    }
    if (chosen) {
      out.kind = chosen->kind;
      out.amount_to = chosen->amount_to;
    }
    return out;
  }

  void Play() {
    std::map<int, std::pair<int, std::vector<std::optional<Card>>>>
        last_show;  // player -> (index, cards)
    std::map<int, size_t> dealt_so_far;
    for (size_t idx = 0; idx < hand_.actions.size(); ++idx) {
      const PhhAction& a = hand_.actions[idx];
      const int index = static_cast<int>(idx);
      if (a.type != PhhActionType::kDealBoard && (a.player < 1 || a.player > n_)) {
        Diverge(index, "",
                absl::StrCat("player p", a.player, " is not at this table (p1..p", n_, ")"));
        return;
      }
      if (a.type == PhhActionType::kDeal || a.type == PhhActionType::kDealBoard) {
        const int who = a.type == PhhActionType::kDealBoard ? kBoardSeat : a.player;
        const std::vector<Card>& all = cards_.at(who);
        for (size_t k = 0; k < a.cards.size(); ++k) {
          pending_[who].push_back(all.at(dealt_so_far[who]++));
          deal_index_[who].push_back(index);
        }
        ++r_.actions_applied;
        continue;
      }
      if (a.type == PhhActionType::kShowMuck) {
        last_show[a.player] = {index, a.cards};
        ++r_.actions_applied;
        continue;
      }
      if (!Flush()) {
        if (r_.divergence) return;
        Diverge(index, "STUD-DEAL-1",
                absl::StrCat("the record acts while the dealer still owes ", DescribeLegal(st_)));
        return;
      }
      const Action action = MapAction(a);
      const absl::Status s = Apply(st_, action);
      if (!s.ok()) {
        DivergeOn(index, s);
        return;
      }
      ++r_.actions_applied;
    }
    // Cards dealt after the last bet (all-in run-outs), then the showdown.
    if (!Flush()) {
      if (r_.divergence) return;
    }
    for (const auto& [who, queue] : pending_) {
      if (!queue.empty()) {
        Diverge(deal_index_[who].front(), "STUD-DEAL-1",
                absl::StrCat(who == kBoardSeat ? std::string("the board") : absl::StrCat("p", who),
                             " was dealt ", queue.size(), " card(s) the rules never call for"));
        return;
      }
    }
    while (st_.phase == Phase::kShowdown) {
      const int seat = ToAct(st_);
      auto it = last_show.find(seat);
      if (it == last_show.end()) break;  // the record stops here
      const ActionKind kind = it->second.second.empty() ? ActionKind::kMuck : ActionKind::kShow;
      const absl::Status s = Apply(st_, {.kind = kind, .seat = seat});
      if (!s.ok()) {
        DivergeOn(it->second.first, s);
        return;
      }
    }
    // What was shown is what was dealt.
    for (const auto& [player, show] : last_show) {
      const Seat& s = st_.seats[static_cast<size_t>(player)];
      for (size_t k = 0; k < show.second.size(); ++k) {
        if (!show.second[k]) continue;
        const bool match = k < s.num_cards ? s.cards[k].card == *show.second[k] : false;
        if (!match) {
          Diverge(show.first, "STUD-SHOW-1",
                  absl::StrCat("p", player, " shows ", CardText(show.second[k]), " as card ", k + 1,
                               k < s.num_cards
                                   ? absl::StrCat(" but was dealt ", s.cards[k].card.ToString())
                                   : std::string(" but was dealt fewer cards")));
          return;
        }
      }
    }
    r_.legal = true;
  }

  const PhhHand& hand_;
  ReplayReport& r_;
  int n_ = 0;
  HandState st_;
  std::map<int, std::vector<Card>> cards_;
  std::map<int, std::vector<Card>> pending_;    // read from the record, not yet reported
  std::map<int, std::vector<int>> deal_index_;  // the record index of each pending card
};

}  // namespace

absl::StatusOr<ReplayReport> ReplayPhh(const PhhHand& hand, const ReplayOptions& options) {
  ReplayReport report;
  Replayer replayer(hand, &report);
  if (absl::Status s = replayer.Run(options); !s.ok()) return s;
  report.state = std::move(replayer.state());
  const HandState& st = report.state;
  const int n = st.config.num_seats;
  report.complete = st.phase == Phase::kComplete && n > 0;
  report.final_stacks = StacksBySeat(st);
  report.won = ChipsWonBySeat(st);
  // The rule of the first award that names one: what decides a result that differs.
  std::string award_rule;
  for (const Operation& op : st.log) {
    if (op.type == OpType::kAward && op.seat >= 1 && op.seat <= n && op.rule_id != RuleId::kNone) {
      award_rule = std::string(RuleIdName(op.rule_id));
      break;
    }
  }
  if (!report.legal || report.divergence) return report;

  // The stated result, when there is one.
  const int end = static_cast<int>(hand.actions.size());
  auto check = [&](const std::optional<std::vector<int64_t>>& stated,
                   const std::vector<Chips>& actual, absl::string_view what) -> bool {
    if (!stated) return true;
    if (stated->size() != actual.size()) {
      report.divergence = ReplayDivergence{
          end, "", "", absl::StrCat(what, ": ", stated->size(), " values for ", n, " players"), ""};
      return false;
    }
    for (size_t i = 0; i < actual.size(); ++i) {
      if ((*stated)[i] == actual[i]) continue;
      std::string rule = award_rule;
      for (const Operation& op : st.log) {
        if (op.type == OpType::kAward && op.seat == i + 1) {
          rule = std::string(RuleIdName(op.rule_id));
          break;
        }
      }
      if (!report.complete) rule = "";
      report.divergence = ReplayDivergence{
          end, "", rule,
          absl::StrCat(what, ": the record says p", i + 1, " ", (*stated)[i], ", the rules give ",
                       actual[i], report.complete ? "" : " (the hand is not over)"),
          ""};
      return false;
    }
    return true;
  };
  if (!check(hand.finishing_stacks, report.final_stacks, "finishing_stacks")) return report;
  if (!check(hand.winnings, report.won, "winnings")) return report;
  report.result_checked = hand.finishing_stacks.has_value() || hand.winnings.has_value();
  return report;
}

std::string DescribeReport(const PhhHand& hand, const ReplayReport& r) {
  std::string out;
  if (r.ok()) {
    absl::StrAppend(&out, "OK: ", r.actions_applied, " of ", hand.actions.size(),
                    " actions replayed, every one legal");
    absl::StrAppend(
        &out, r.complete ? "; the hand is complete" : "; the record stops before the hand is over");
    absl::StrAppend(&out, r.result_checked ? "; the stated result matches" : "; no result stated");
  } else {
    const ReplayDivergence& d = *r.divergence;
    absl::StrAppend(&out, "DIFFERS");
    if (d.action_index < 0) {
      absl::StrAppend(&out, " in the setup");
    } else if (static_cast<size_t>(d.action_index) >= hand.actions.size()) {
      absl::StrAppend(&out, " in the result");
    } else {
      absl::StrAppend(&out, " at action #", d.action_index, " '", d.action, "'");
    }
    if (!d.rule_id.empty()) absl::StrAppend(&out, " [", d.rule_id, "]");
    absl::StrAppend(&out, ": ", d.message);
    if (!d.expected.empty()) absl::StrAppend(&out, "; the rules expect ", d.expected);
  }
  if (r.unknown_cards > 0) {
    absl::StrAppend(&out, "; ", r.unknown_cards, " card", r.unknown_cards == 1 ? "" : "s",
                    " hidden in the record (\?\?) were judged with stand-ins, so the replayed hand "
                    "cannot be played on");
  }
  return out;
}

}  // namespace stud::history
