// A small reader for PHH (Poker Hand History) files, header-only.
//
// PHH is TOML-based. This reader handles only what the stud hand histories in
// tests/data/phh use: one `key = value` per line, where a value is an integer,
// a boolean, a quoted string ('...' or "..."), or a one-line array of integers
// or of quoted strings. Other lines (blank, comments, tables) are rejected so a
// file this reader does not understand fails loudly instead of half-parsing.
//
// Stud actions (the `actions` array):
//   "d dh p1 Ac8dAs"   deal to player 1 (3rd street: two down cards then the
//                      door card; later streets one card); "??" is an unknown card
//   "p3 pb"            post the bring-in
//   "p5 cbr 250000"    complete, bet or raise to that street total
//   "p1 cc"            check or call
//   "p2 f"             fold
//   "p1 sm AcAs..."    show these cards; "p1 sm" with no cards mucks
#ifndef STUD_TESTS_TESTING_PHH_H_
#define STUD_TESTS_TESTING_PHH_H_

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "engine/card.h"

namespace stud::testing::phh {

// One parsed TOML value (only the shapes listed in the file comment).
struct Value {
  enum class Type { kInt, kBool, kString, kIntArray, kStringArray };
  Type type = Type::kInt;
  int64_t i = 0;
  bool b = false;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

enum class ActionType { kDeal, kBringIn, kCompleteBetRaise, kCheckCall, kFold, kShowMuck };

struct PhhAction {
  ActionType type = ActionType::kFold;
  int player = 0;  // 1-based ("p1")
  int64_t amount = 0;  // kCompleteBetRaise: the street total
  // kDeal / kShowMuck: the cards in order; nullopt for an unknown card ("??").
  std::vector<std::optional<Card>> cards;
  std::string text;  // the action as written
};

struct PhhHand {
  std::map<std::string, Value> fields;
  std::string variant;  // "F7S", "F7S/8", "FR"
  std::vector<int64_t> antes;
  int64_t bring_in = 0;
  int64_t small_bet = 0;
  int64_t big_bet = 0;
  std::vector<int64_t> starting_stacks;
  std::vector<PhhAction> actions;
};

namespace internal {

inline std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

inline absl::StatusOr<int64_t> ParseInt(const std::string& text) {
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
    v = v * 10 + (t[i] - '0');
  }
  return t[0] == '-' ? -v : v;
}

// Parses a quoted string starting at text[pos]; leaves pos after the closing quote.
inline absl::StatusOr<std::string> ParseQuoted(const std::string& text, size_t& pos) {
  const char q = text[pos];
  if (q != '\'' && q != '"') return absl::InvalidArgumentError("expected a quoted string");
  const size_t end = text.find(q, pos + 1);
  if (end == std::string::npos) return absl::InvalidArgumentError("unterminated string");
  std::string out = text.substr(pos + 1, end - pos - 1);
  pos = end + 1;
  return out;
}

inline absl::StatusOr<Value> ParseValue(const std::string& raw) {
  const std::string t = Trim(raw);
  Value v;
  if (t.empty()) return absl::InvalidArgumentError("empty value");
  if (t == "true" || t == "false") {
    v.type = Value::Type::kBool;
    v.b = t == "true";
    return v;
  }
  if (t[0] == '\'' || t[0] == '"') {
    size_t pos = 0;
    absl::StatusOr<std::string> s = ParseQuoted(t, pos);
    if (!s.ok()) return s.status();
    if (!Trim(t.substr(pos)).empty()) return absl::InvalidArgumentError("text after string");
    v.type = Value::Type::kString;
    v.s = *s;
    return v;
  }
  if (t[0] == '[') {
    if (t.back() != ']') return absl::InvalidArgumentError("array must end on its line");
    const std::string body = Trim(t.substr(1, t.size() - 2));
    if (body.empty() || body[0] == '\'' || body[0] == '"') {
      v.type = Value::Type::kStringArray;
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
    v.type = Value::Type::kIntArray;
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
  if (!n.ok()) return n.status();
  v.type = Value::Type::kInt;
  v.i = *n;
  return v;
}

// "Ac8d??" -> {Ac, 8d, unknown}.
inline absl::StatusOr<std::vector<std::optional<Card>>> ParseCardRun(const std::string& text) {
  std::vector<std::optional<Card>> out;
  if (text.size() % 2 != 0) return absl::InvalidArgumentError(absl::StrCat("cards: ", text));
  for (size_t i = 0; i < text.size(); i += 2) {
    const std::string two = text.substr(i, 2);
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

inline absl::StatusOr<int> ParsePlayer(const std::string& word) {
  if (word.size() < 2 || word[0] != 'p') {
    return absl::InvalidArgumentError(absl::StrCat("player: ", word));
  }
  absl::StatusOr<int64_t> n = ParseInt(word.substr(1));
  if (!n.ok() || *n < 1) return absl::InvalidArgumentError(absl::StrCat("player: ", word));
  return static_cast<int>(*n);
}

}  // namespace internal

inline absl::StatusOr<PhhAction> ParseAction(const std::string& text) {
  std::vector<std::string> w;
  std::stringstream ss(text);
  for (std::string word; ss >> word;) w.push_back(word);
  PhhAction a;
  a.text = text;
  auto bad = [&] { return absl::InvalidArgumentError(absl::StrCat("action: '", text, "'")); };
  if (w.empty()) return bad();
  if (w[0] == "d") {
    // Only hole/stud deals to a player ("dh"); board deals ("db") are not used in stud.
    if (w.size() != 4 || w[1] != "dh") return bad();
    absl::StatusOr<int> p = internal::ParsePlayer(w[2]);
    if (!p.ok()) return p.status();
    absl::StatusOr<std::vector<std::optional<Card>>> cards = internal::ParseCardRun(w[3]);
    if (!cards.ok()) return cards.status();
    a.type = ActionType::kDeal;
    a.player = *p;
    a.cards = *cards;
    return a;
  }
  absl::StatusOr<int> p = internal::ParsePlayer(w[0]);
  if (!p.ok()) return p.status();
  a.player = *p;
  if (w.size() < 2) return bad();
  const std::string& op = w[1];
  if (op == "pb" && w.size() == 2) {
    a.type = ActionType::kBringIn;
  } else if (op == "cbr" && w.size() == 3) {
    absl::StatusOr<int64_t> n = internal::ParseInt(w[2]);
    if (!n.ok()) return n.status();
    a.type = ActionType::kCompleteBetRaise;
    a.amount = *n;
  } else if (op == "cc" && w.size() == 2) {
    a.type = ActionType::kCheckCall;
  } else if (op == "f" && w.size() == 2) {
    a.type = ActionType::kFold;
  } else if (op == "sm" && w.size() <= 3) {
    a.type = ActionType::kShowMuck;
    if (w.size() == 3 && w[2] != "-") {
      absl::StatusOr<std::vector<std::optional<Card>>> cards = internal::ParseCardRun(w[2]);
      if (!cards.ok()) return cards.status();
      a.cards = *cards;
    }
  } else {
    return bad();
  }
  return a;
}

// Parses the text of a PHH file.
inline absl::StatusOr<PhhHand> Parse(const std::string& text) {
  PhhHand hand;
  std::stringstream lines(text);
  int line_no = 0;
  for (std::string line; std::getline(lines, line);) {
    ++line_no;
    const std::string t = internal::Trim(line);
    if (t.empty() || t[0] == '#') continue;
    const size_t eq = t.find('=');
    if (eq == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": expected key = value"));
    }
    const std::string key = internal::Trim(t.substr(0, eq));
    absl::StatusOr<Value> v = internal::ParseValue(t.substr(eq + 1));
    if (!v.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_no, " (", key, "): ", v.status().message()));
    }
    hand.fields[key] = *v;
  }
  auto need = [&](const std::string& key, Value::Type type) -> absl::StatusOr<const Value*> {
    auto it = hand.fields.find(key);
    if (it == hand.fields.end()) return absl::InvalidArgumentError(absl::StrCat("missing ", key));
    // An empty array parses as a string array; accept it for an int array too.
    const bool empty_array = it->second.type == Value::Type::kStringArray &&
                             it->second.strings.empty() && type == Value::Type::kIntArray;
    if (it->second.type != type && !empty_array) {
      return absl::InvalidArgumentError(absl::StrCat(key, ": unexpected type"));
    }
    return &it->second;
  };
  absl::StatusOr<const Value*> v;
  if (v = need("variant", Value::Type::kString); !v.ok()) return v.status();
  hand.variant = (*v)->s;
  if (v = need("antes", Value::Type::kIntArray); !v.ok()) return v.status();
  hand.antes = (*v)->ints;
  if (v = need("bring_in", Value::Type::kInt); !v.ok()) return v.status();
  hand.bring_in = (*v)->i;
  if (v = need("small_bet", Value::Type::kInt); !v.ok()) return v.status();
  hand.small_bet = (*v)->i;
  if (v = need("big_bet", Value::Type::kInt); !v.ok()) return v.status();
  hand.big_bet = (*v)->i;
  if (v = need("starting_stacks", Value::Type::kIntArray); !v.ok()) return v.status();
  hand.starting_stacks = (*v)->ints;
  if (v = need("actions", Value::Type::kStringArray); !v.ok()) return v.status();
  for (const std::string& s : (*v)->strings) {
    absl::StatusOr<PhhAction> a = ParseAction(s);
    if (!a.ok()) return a.status();
    hand.actions.push_back(*a);
  }
  return hand;
}

inline absl::StatusOr<PhhHand> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream buf;
  buf << in.rdbuf();
  return Parse(buf.str());
}

}  // namespace stud::testing::phh

#endif  // STUD_TESTS_TESTING_PHH_H_
