#include "history/phh.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/hand_eval.h"
#include "engine/view.h"

namespace stud::history {
namespace {

std::string Trim(absl::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// The text before a '#' that is outside quotes.
std::string StripComment(absl::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      return std::string(line.substr(0, i));
    }
  }
  return std::string(line);
}

absl::StatusOr<int64_t> ParseInt(absl::string_view text) {
  const std::string t = Trim(text);
  if (t.empty()) return absl::InvalidArgumentError("empty integer");
  size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (i == t.size()) return absl::InvalidArgumentError(absl::StrCat("bad integer: ", t));
  int64_t v = 0;
  for (; i < t.size(); ++i) {
    if (t[i] == '_') continue;  // TOML allows 1_000
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) {
      return absl::InvalidArgumentError(absl::StrCat("bad integer: ", t));
    }
    if (v > (INT64_MAX - 9) / 10) return absl::InvalidArgumentError(absl::StrCat("integer too large: ", t));
    v = v * 10 + (t[i] - '0');
  }
  return t[0] == '-' ? -v : v;
}

// Parses a quoted string starting at text[pos]; leaves pos after the closing quote.
absl::StatusOr<std::string> ParseQuoted(const std::string& text, size_t& pos) {
  const char q = text[pos];
  if (q != '\'' && q != '"') return absl::InvalidArgumentError("expected a quoted string");
  const size_t end = text.find(q, pos + 1);
  if (end == std::string::npos) return absl::InvalidArgumentError("unterminated string");
  std::string out = text.substr(pos + 1, end - pos - 1);
  pos = end + 1;
  return out;
}

absl::StatusOr<PhhValue> ParseValue(absl::string_view raw) {
  const std::string t = Trim(raw);
  PhhValue v;
  if (t.empty()) return absl::InvalidArgumentError("empty value");
  if (t == "true" || t == "false") {
    v.type = PhhValue::Type::kBool;
    v.b = t == "true";
    return v;
  }
  if (t[0] == '\'' || t[0] == '"') {
    size_t pos = 0;
    absl::StatusOr<std::string> s = ParseQuoted(t, pos);
    if (!s.ok()) return s.status();
    if (!Trim(t.substr(pos)).empty()) return absl::InvalidArgumentError("text after string");
    v.type = PhhValue::Type::kString;
    v.s = *s;
    return v;
  }
  if (t[0] == '[') {
    if (t.back() != ']') return absl::InvalidArgumentError("array without its closing ']'");
    const std::string body = Trim(t.substr(1, t.size() - 2));
    if (body.empty() || body[0] == '\'' || body[0] == '"') {
      v.type = PhhValue::Type::kStringArray;
      size_t pos = 0;
      while (pos < body.size()) {
        while (pos < body.size() && std::isspace(static_cast<unsigned char>(body[pos]))) ++pos;
        if (pos >= body.size()) break;
        absl::StatusOr<std::string> s = ParseQuoted(body, pos);
        if (!s.ok()) return s.status();
        v.strings.push_back(*s);
        while (pos < body.size() && std::isspace(static_cast<unsigned char>(body[pos]))) ++pos;
        if (pos < body.size()) {
          if (body[pos] != ',') return absl::InvalidArgumentError("expected ',' in array");
          ++pos;
        }
      }
      return v;
    }
    v.type = PhhValue::Type::kIntArray;
    std::stringstream items(body);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (Trim(item).empty()) continue;  // trailing comma
      absl::StatusOr<int64_t> n = ParseInt(item);
      if (!n.ok()) return n.status();
      v.ints.push_back(*n);
    }
    return v;
  }
  absl::StatusOr<int64_t> n = ParseInt(t);
  if (n.ok()) {
    v.type = PhhValue::Type::kInt;
    v.i = *n;
    return v;
  }
  std::istringstream in(t);
  double d = 0;
  if (in >> d && in.eof()) {
    v.type = PhhValue::Type::kFloat;
    v.f = d;
    return v;
  }
  return n.status();
}

// "Ac8d??" -> {Ac, 8d, unknown}.
absl::StatusOr<std::vector<std::optional<Card>>> ParseCardRun(absl::string_view text) {
  std::vector<std::optional<Card>> out;
  if (text.size() % 2 != 0) return absl::InvalidArgumentError(absl::StrCat("cards: ", text));
  for (size_t i = 0; i < text.size(); i += 2) {
    const absl::string_view two = text.substr(i, 2);
    if (two == "??") {
      out.push_back(std::nullopt);
      continue;
    }
    absl::StatusOr<Card> c = ParseCard(two);
    if (!c.ok()) return c.status();
    out.push_back(*c);
  }
  return out;
}

absl::StatusOr<int> ParsePlayer(const std::string& word) {
  if (word.size() < 2 || word[0] != 'p') {
    return absl::InvalidArgumentError(absl::StrCat("player: ", word));
  }
  absl::StatusOr<int64_t> n = ParseInt(word.substr(1));
  if (!n.ok() || *n < 1 || *n > 64) return absl::InvalidArgumentError(absl::StrCat("player: ", word));
  return static_cast<int>(*n);
}

std::string CardText(const std::optional<Card>& c) { return c ? c->ToString() : "??"; }

}  // namespace

absl::string_view PhhVariantCode(Variant v) {
  switch (v) {
    case Variant::kStud: return "F7S";
    case Variant::kStudHiLo: return "F7S/8";
    case Variant::kRazz: return "FR";
  }
  return "F7S";
}

std::optional<Variant> VariantFromPhhCode(absl::string_view code) {
  if (code == "F7S") return Variant::kStud;
  if (code == "F7S/8") return Variant::kStudHiLo;
  if (code == "FR") return Variant::kRazz;
  return std::nullopt;
}

absl::StatusOr<PhhAction> ParsePhhAction(absl::string_view raw) {
  const std::string text = Trim(raw.substr(0, std::min(raw.find('#'), raw.size())));
  std::vector<std::string> w;
  std::stringstream ss(text);
  for (std::string word; ss >> word;) w.push_back(word);
  PhhAction a;
  a.text = text;
  auto bad = [&] { return absl::InvalidArgumentError(absl::StrCat("action: '", raw, "'")); };
  if (w.empty()) return bad();
  if (w[0] == "d") {
    if (w.size() == 3 && w[1] == "db") {
      absl::StatusOr<std::vector<std::optional<Card>>> cards = ParseCardRun(w[2]);
      if (!cards.ok()) return cards.status();
      a.type = PhhActionType::kDealBoard;
      a.cards = *cards;
      return a;
    }
    if (w.size() != 4 || w[1] != "dh") return bad();
    absl::StatusOr<int> p = ParsePlayer(w[2]);
    if (!p.ok()) return p.status();
    absl::StatusOr<std::vector<std::optional<Card>>> cards = ParseCardRun(w[3]);
    if (!cards.ok()) return cards.status();
    if (cards->empty()) return bad();
    a.type = PhhActionType::kDeal;
    a.player = *p;
    a.cards = *cards;
    return a;
  }
  absl::StatusOr<int> p = ParsePlayer(w[0]);
  if (!p.ok()) return p.status();
  a.player = *p;
  if (w.size() < 2) return bad();
  const std::string& op = w[1];
  if (op == "pb" && w.size() == 2) {
    a.type = PhhActionType::kBringIn;
  } else if (op == "cbr" && w.size() == 3) {
    absl::StatusOr<int64_t> n = ParseInt(w[2]);
    if (!n.ok()) return n.status();
    a.type = PhhActionType::kCompleteBetRaise;
    a.amount = *n;
  } else if (op == "cc" && w.size() == 2) {
    a.type = PhhActionType::kCheckCall;
  } else if (op == "f" && w.size() == 2) {
    a.type = PhhActionType::kFold;
  } else if (op == "sm" && w.size() <= 3) {
    a.type = PhhActionType::kShowMuck;
    if (w.size() == 3 && w[2] != "-") {
      absl::StatusOr<std::vector<std::optional<Card>>> cards = ParseCardRun(w[2]);
      if (!cards.ok()) return cards.status();
      a.cards = *cards;
    }
  } else {
    return bad();
  }
  return a;
}

absl::StatusOr<PhhHand> ParsePhh(absl::string_view text) {
  PhhHand hand;
  std::vector<std::string> lines;
  {
    std::stringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  for (size_t n = 0; n < lines.size(); ++n) {
    const size_t line_no = n + 1;
    std::string t = Trim(StripComment(lines[n]));
    if (t.empty()) continue;
    if (t[0] == '[') {
      return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": tables are not supported"));
    }
    const size_t eq = t.find('=');
    if (eq == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": expected key = value"));
    }
    const std::string key = Trim(t.substr(0, eq));
    std::string value = Trim(t.substr(eq + 1));
    // An array may continue on the following lines until its closing bracket.
    if (!value.empty() && value[0] == '[') {
      while (value.back() != ']') {
        if (++n >= lines.size()) {
          return absl::InvalidArgumentError(absl::StrCat("line ", line_no, " (", key, "): array without its closing ']'"));
        }
        absl::StrAppend(&value, " ", Trim(StripComment(lines[n])));
        value = Trim(value);
      }
    }
    if (key.empty()) return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": empty key"));
    absl::StatusOr<PhhValue> v = ParseValue(value);
    if (!v.ok()) {
      static const std::set<std::string> kKnown = {"variant",         "antes",   "bring_in",
                                                   "small_bet",       "big_bet", "starting_stacks",
                                                   "actions",         "finishing_stacks", "winnings"};
      if (kKnown.count(key) != 0) {
        return absl::InvalidArgumentError(absl::StrCat("line ", line_no, " (", key, "): ", v.status().message()));
      }
      PhhValue raw;
      raw.type = PhhValue::Type::kRaw;
      raw.s = value;
      v = raw;
    }
    hand.fields[key] = *v;
  }
  auto need = [&](const std::string& key, PhhValue::Type type) -> absl::StatusOr<const PhhValue*> {
    auto it = hand.fields.find(key);
    if (it == hand.fields.end()) return absl::InvalidArgumentError(absl::StrCat("missing ", key));
    // An empty array parses as a string array; accept it for an int array too.
    const bool empty_array = it->second.type == PhhValue::Type::kStringArray && it->second.strings.empty() &&
                             type == PhhValue::Type::kIntArray;
    if (it->second.type != type && !empty_array) {
      return absl::InvalidArgumentError(absl::StrCat(key, ": unexpected type"));
    }
    return &it->second;
  };
  absl::StatusOr<const PhhValue*> v;
  if (v = need("variant", PhhValue::Type::kString); !v.ok()) return v.status();
  hand.variant = (*v)->s;
  if (v = need("antes", PhhValue::Type::kIntArray); !v.ok()) return v.status();
  hand.antes = (*v)->ints;
  if (v = need("bring_in", PhhValue::Type::kInt); !v.ok()) return v.status();
  hand.bring_in = (*v)->i;
  if (v = need("small_bet", PhhValue::Type::kInt); !v.ok()) return v.status();
  hand.small_bet = (*v)->i;
  if (v = need("big_bet", PhhValue::Type::kInt); !v.ok()) return v.status();
  hand.big_bet = (*v)->i;
  if (v = need("starting_stacks", PhhValue::Type::kIntArray); !v.ok()) return v.status();
  hand.starting_stacks = (*v)->ints;
  if (v = need("actions", PhhValue::Type::kStringArray); !v.ok()) return v.status();
  for (const std::string& s : (*v)->strings) {
    absl::StatusOr<PhhAction> a = ParsePhhAction(s);
    if (!a.ok()) return a.status();
    hand.actions.push_back(*a);
  }
  for (const char* key : {"finishing_stacks", "winnings"}) {
    if (hand.fields.count(key) == 0) continue;
    if (v = need(key, PhhValue::Type::kIntArray); !v.ok()) return v.status();
    (std::string(key) == "winnings" ? hand.winnings : hand.finishing_stacks) = (*v)->ints;
  }
  return hand;
}

absl::StatusOr<PhhHand> ReadPhhFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream buf;
  buf << in.rdbuf();
  return ParsePhh(buf.str());
}

// ---------------------------------------------------------------------------
// Export.

std::string ExportPhh(const HandState& st, const ExportOptions& options) {
  const int n = st.config.num_seats;
  auto quoted_list = [](const std::vector<std::string>& items) {
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) absl::StrAppend(&out, i == 0 ? "" : ", ", "'", items[i], "'");
    return out + "]";
  };
  auto int_list = [](const std::vector<Chips>& items) { return absl::StrCat("[", absl::StrJoin(items, ", "), "]"); };

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
  auto visible = [&](const Operation& op) { return options.reveal_all || CardVisibleTo(st, op, options.viewer); };
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
        for (int k = 0; k < s.num_cards; ++k) absl::StrAppend(&cards, s.cards[static_cast<size_t>(k)].card.ToString());
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
        if (!op.rule_id.empty()) rulings.push_back(std::string(op.rule_id));
        break;
      default:
        break;  // antes, burns, first-to-act, street ends, awards: implied by the rules
    }
  }
  flush();

  std::vector<Chips> antes(static_cast<size_t>(n), st.config.stakes.ante);
  std::vector<Chips> starting;
  for (int i = 1; i <= n; ++i) starting.push_back(st.config.starting_stacks[static_cast<size_t>(i)]);
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
    std::vector<Chips> finishing, winnings(static_cast<size_t>(n), 0);
    for (int i = 1; i <= n; ++i) finishing.push_back(st.seats[static_cast<size_t>(i)].stack);
    for (const Operation& op : st.log) {
      if (op.type == OpType::kAward && op.seat >= 1 && op.seat <= n) winnings[op.seat - 1u] += op.amount;
    }
    absl::StrAppend(&out, "finishing_stacks = ", int_list(finishing), "\n");
    absl::StrAppend(&out, "winnings = ", int_list(winnings), "\n");
  }
  if (!rulings.empty()) absl::StrAppend(&out, "_rulings = ", quoted_list(rulings), "\n");
  for (const auto& [key, value] : options.extra_fields) absl::StrAppend(&out, key, " = ", value, "\n");
  return out;
}

// ---------------------------------------------------------------------------
// Replay.

namespace {

std::string DescribeLegal(const HandState& st) {
  if (st.phase == Phase::kComplete) return "nothing: the hand is over";
  if (st.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal next = NextDeal(st);
    return next.seat == kBoardSeat ? absl::StrCat("a common card on ", StreetName(next.street))
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
// unknown cards replaced by cards used nowhere in the hand (see ReplayPhh).
std::map<int, std::vector<Card>> ResolveDeals(const PhhHand& hand, Variant variant) {
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
  std::sort(pool.begin(), pool.end(), [razz](Card a, Card b) { return BringsInBefore(b, a, razz); });
  size_t next = 0;
  auto take = [&]() -> Card { return next < pool.size() ? pool[next++] : Card::FromIndex(0); };
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
      return absl::InvalidArgumentError(
          absl::StrCat("starting_stacks: ", n_, " players; a stud hand has ", kMinSeats, "..", kMaxSeats));
    }
    if (hand_.antes.size() != hand_.starting_stacks.size() && !hand_.antes.empty()) {
      return absl::InvalidArgumentError("antes: one per player (or an empty array)");
    }
    HandConfig config;
    config.variant = *variant;
    config.options = options.rules;
    const Chips ante = hand_.antes.empty() ? 0 : hand_.antes[0];
    config.stakes = {.ante = ante, .bring_in = hand_.bring_in, .small_bet = hand_.small_bet,
                     .big_bet = hand_.big_bet};
    config.num_seats = n_;
    for (int i = 0; i < n_; ++i) config.starting_stacks[static_cast<size_t>(i + 1)] = hand_.starting_stacks[static_cast<size_t>(i)];
    config.deal_source = DealSource::kReported;
    // The engine has one ante for the table [STUD-SETUP-2]; PHH lists it per player.
    for (int64_t a : hand_.antes) {
      if (a != ante) {
        Diverge(-1, "STUD-SETUP-2", "every player antes the same amount; the record lists uneven antes");
        return absl::OkStatus();
      }
    }
    absl::StatusOr<HandState> started = NewHand(config);
    if (!started.ok()) return absl::InvalidArgumentError(std::string(started.status().message()));
    st_ = *std::move(started);
    cards_ = ResolveDeals(hand_, *variant);
    Play();
    return absl::OkStatus();
  }

  HandState& state() { return st_; }

 private:
  void Diverge(int index, absl::string_view rule, absl::string_view message) {
    ReplayDivergence d;
    d.action_index = index;
    if (index >= 0 && static_cast<size_t>(index) < hand_.actions.size()) d.action = hand_.actions[static_cast<size_t>(index)].text;
    d.rule_id = std::string(rule);
    d.message = std::string(message);
    d.expected = index >= 0 ? DescribeLegal(st_) : "";
    r_.divergence = d;
  }
  void DivergeOn(int index, const absl::Status& s) {
    const std::string rule = RuleIdOf(s);
    absl::string_view message = s.message();
    // Engine messages start with their rule ID; the report carries it apart.
    if (!rule.empty() && absl::StartsWith(message, rule + ": ")) message.remove_prefix(rule.size() + 2);
    Diverge(index, rule, message);
  }

  // Reports the buffered cards in the order the engine asks for them. Returns
  // false when the engine waits for a card the record has not dealt (yet).
  bool Flush() {
    while (st_.phase == Phase::kAwaitingDeal) {
      const ExpectedDeal next = NextDeal(st_);
      std::vector<Card>& queue = pending_[next.seat];
      if (queue.empty()) return false;
      const Card c = queue.front();
      queue.erase(queue.begin());
      const absl::Status s =
          Apply(st_, {.kind = ActionKind::kDeal, .seat = next.seat, .card = c, .face_up = next.face_up});
      if (!s.ok()) {
        DivergeOn(deal_index_[next.seat].empty() ? -1 : deal_index_[next.seat].front(), s);
        return false;
      }
      if (!deal_index_[next.seat].empty()) deal_index_[next.seat].erase(deal_index_[next.seat].begin());
    }
    return true;
  }

  // The engine action for a PHH betting action: the legal one when there is
  // one, otherwise the closest reading so that Apply names the rule broken.
  Action MapAction(const PhhAction& a) const {
    Action out;
    out.seat = a.player;
    const std::vector<LegalAction> legal = LegalActions(st_, a.player);
    auto find = [&](std::initializer_list<ActionKind> kinds, std::optional<Chips> amount) -> std::optional<LegalAction> {
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
          std::optional<LegalAction> kind = find({ActionKind::kComplete, ActionKind::kBet, ActionKind::kRaise}, std::nullopt);
          out.kind = kind ? kind->kind
                          : st_.bet_to == 0 ? ActionKind::kBet
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
    std::map<int, std::pair<int, std::vector<std::optional<Card>>>> last_show;  // player -> (index, cards)
    std::map<int, size_t> dealt_so_far;
    for (size_t idx = 0; idx < hand_.actions.size(); ++idx) {
      const PhhAction& a = hand_.actions[idx];
      const int index = static_cast<int>(idx);
      if (a.type != PhhActionType::kDealBoard && (a.player < 1 || a.player > n_)) {
        Diverge(index, "", absl::StrCat("player p", a.player, " is not at this table (p1..p", n_, ")"));
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
                absl::StrCat(who == kBoardSeat ? std::string("the board") : absl::StrCat("p", who), " was dealt ",
                             queue.size(), " card(s) the rules never call for"));
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
                               k < s.num_cards ? absl::StrCat(" but was dealt ", s.cards[k].card.ToString())
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
  std::map<int, std::vector<Card>> pending_;   // read from the record, not yet reported
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
  report.final_stacks.assign(static_cast<size_t>(n), 0);
  report.won.assign(static_cast<size_t>(n), 0);
  for (int i = 1; i <= n; ++i) report.final_stacks[static_cast<size_t>(i - 1)] = st.seats[static_cast<size_t>(i)].stack;
  std::string award_rule;
  for (const Operation& op : st.log) {
    if (op.type != OpType::kAward || op.seat < 1 || op.seat > n) continue;
    report.won[op.seat - 1u] += op.amount;
    if (award_rule.empty()) award_rule = std::string(op.rule_id);
  }
  if (!report.legal || report.divergence) return report;

  // The stated result, when there is one.
  const int end = static_cast<int>(hand.actions.size());
  auto check = [&](const std::optional<std::vector<int64_t>>& stated, const std::vector<Chips>& actual,
                   absl::string_view what) -> bool {
    if (!stated) return true;
    if (stated->size() != actual.size()) {
      report.divergence = ReplayDivergence{end, "", "", absl::StrCat(what, ": ", stated->size(), " values for ", n, " players"), ""};
      return false;
    }
    for (size_t i = 0; i < actual.size(); ++i) {
      if ((*stated)[i] == actual[i]) continue;
      std::string rule = award_rule;
      for (const Operation& op : st.log) {
        if (op.type == OpType::kAward && op.seat == i + 1) {
          rule = std::string(op.rule_id);
          break;
        }
      }
      if (!report.complete) rule = "";
      report.divergence = ReplayDivergence{
          end, "", rule,
          absl::StrCat(what, ": the record says p", i + 1, " ", (*stated)[i], ", the rules give ", actual[i],
                       report.complete ? "" : " (the hand is not over)"),
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
    absl::StrAppend(&out, "OK: ", r.actions_applied, " of ", hand.actions.size(), " actions replayed, every one legal");
    absl::StrAppend(&out, r.complete ? "; the hand is complete" : "; the record stops before the hand is over");
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
  return out;
}

}  // namespace stud::history
