// Reading PHH: the TOML subset, stud action strings and variant codes
// (history/phh.h describes what is accepted).
#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "history/phh.h"
#include "text/refusal_text.h"

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
    if (v > (INT64_MAX - 9) / 10)
      return absl::InvalidArgumentError(absl::StrCat("integer too large: ", t));
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
  if (!n.ok() || *n < 1 || *n > 64)
    return absl::InvalidArgumentError(absl::StrCat("player: ", word));
  return static_cast<int>(*n);
}

}  // namespace

absl::string_view PhhVariantCode(Variant v) {
  switch (v) {
    case Variant::kStud:
      return "F7S";
    case Variant::kStudHiLo:
      return "F7S/8";
    case Variant::kRazz:
      return "FR";
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
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_no, ": tables are not supported"));
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
          return absl::InvalidArgumentError(
              absl::StrCat("line ", line_no, " (", key, "): array without its closing ']'"));
        }
        absl::StrAppend(&value, " ", Trim(StripComment(lines[n])));
        value = Trim(value);
      }
    }
    if (key.empty())
      return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": empty key"));
    absl::StatusOr<PhhValue> v = ParseValue(value);
    if (!v.ok()) {
      static const std::set<std::string> kKnown = {
          "variant",         "antes",   "bring_in",         "small_bet", "big_bet",
          "starting_stacks", "actions", "finishing_stacks", "winnings"};
      if (kKnown.count(key) != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", line_no, " (", key, "): ", text::Worded(v.status()).message()));
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
    const bool empty_array = it->second.type == PhhValue::Type::kStringArray &&
                             it->second.strings.empty() && type == PhhValue::Type::kIntArray;
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

}  // namespace stud::history
