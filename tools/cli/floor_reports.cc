#include "tools/cli/floor_reports.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "tools/cli/vocabulary.h"

namespace stud_cli {

bool ParseDealSeat(absl::string_view s, int* seat) {
  if (Lower(s) == "board") {
    *seat = 0;
    return true;
  }
  return absl::SimpleAtoi(s, seat) && *seat >= 0;
}

bool ParseCardReport(const std::vector<std::string>& w, size_t at, v1::Action* out) {
  if (w.size() != at + 4 || w[at] != "card") return false;
  int seat = 0;
  const std::string face = Lower(w[at + 2]);
  if (!ParseDealSeat(w[at + 1], &seat) || (face != "up" && face != "down")) return false;
  out->set_kind(v1::ACTION_KIND_DEAL);
  out->set_seat(seat);
  out->set_face_up(face == "up");
  out->set_card(w[at + 3]);
  return true;
}

bool ParseDealerStep(const std::vector<std::string>& w, size_t at, v1::Action* out) {
  if (w.size() <= at) return false;
  out->set_seat(0);
  if (w[at] == "reshuffle") {
    out->set_kind(v1::ACTION_KIND_RESHUFFLE);
    return w.size() == at + 1;
  }
  if (w[at] != "burn" || w.size() > at + 3) return false;
  out->set_kind(v1::ACTION_KIND_BURN);
  if (w.size() >= at + 2) out->set_card(w[at + 1]);
  if (w.size() == at + 3) {
    if (Lower(w[at + 2]) != "up") return false;
    out->set_face_up(true);
  }
  return true;
}

std::string ParseIrregularity(const std::vector<std::string>& w, size_t at,
                              v1::IrregularityReport* out) {
  if (w.size() < at + 2 || w[at] != "irregularity")
    return "expected: irregularity KIND [seat N] [card C] ...";
  std::string name = absl::AsciiStrToUpper(w[at + 1]);
  std::replace(name.begin(), name.end(), '-', '_');
  absl::string_view bare = name;
  absl::ConsumePrefix(&bare, "IRREGULARITY_KIND_");
  v1::IrregularityKind kind;
  if (!v1::IrregularityKind_Parse(absl::StrCat("IRREGULARITY_KIND_", bare), &kind) ||
      kind == v1::IRREGULARITY_KIND_UNSPECIFIED) {
    std::vector<std::string> names;
    for (int i = 1; i < v1::IrregularityKind_ARRAYSIZE; ++i) {
      if (!v1::IrregularityKind_IsValid(i)) continue;
      std::string n = v1::IrregularityKind_Name(static_cast<v1::IrregularityKind>(i));
      names.push_back(n.substr(std::string("IRREGULARITY_KIND_").size()));
    }
    return absl::StrCat("unknown irregularity `", w[at + 1],
                        "`; kinds: ", absl::StrJoin(names, " "));
  }
  out->set_kind(kind);
  static const char* kFields[] = {"seat",       "card",       "cards",        "street",
                                  "action",     "next-acted", "burn-delta",   "move",
                                  "kept-seats", "card-count", "declare-live", "allowance",
                                  "disconnect", "kept-card",  "note"};
  auto is_field = [](const std::string& s) {
    return std::any_of(std::begin(kFields), std::end(kFields),
                       [&](const char* f) { return s == f; });
  };
  auto number = [&](size_t i, int64_t* v) { return i < w.size() && absl::SimpleAtoi(w[i], v); };
  size_t i = at + 2;
  int64_t n = 0, m = 0;
  while (i < w.size()) {
    const std::string& f = w[i];
    if (f == "seat" || f == "street" || f == "card-count" || f == "allowance") {
      if (!number(i + 1, &n)) return absl::StrCat(f, " takes a number");
      if (f == "seat") out->set_seat(static_cast<int32_t>(n));
      if (f == "card-count") out->set_card_count(static_cast<int32_t>(n));
      if (f == "allowance") out->set_allowance_remaining(static_cast<int32_t>(n));
      if (f == "street") {
        if (n < 3 || n > 7) return "street: 3..7";
        out->set_street(static_cast<v1::Street>(n));
      }
      i += 2;
    } else if (f == "card" || f == "kept-card") {
      if (i + 1 >= w.size()) return absl::StrCat(f, " takes a card");
      if (f == "card") out->add_cards(w[i + 1]);
      if (f == "kept-card") out->set_kept_card(w[i + 1]);
      i += 2;
    } else if (f == "cards" || f == "kept-seats") {
      ++i;
      const size_t first = i;
      for (; i < w.size() && !is_field(w[i]); ++i) {
        if (f == "cards") {
          out->add_cards(w[i]);
        } else if (absl::SimpleAtoi(w[i], &n)) {
          out->add_kept_seats(static_cast<int32_t>(n));
        } else {
          return "kept-seats takes seat numbers";
        }
      }
      if (i == first) return absl::StrCat(f, " takes at least one value");
    } else if (f == "action") {
      std::optional<v1::ActionKind> k = i + 1 < w.size() ? ParseKind(w[i + 1]) : std::nullopt;
      if (!k)
        return "action takes an action kind (bring-in, complete, bet, ...) and an optional amount";
      out->set_action(*k);
      i += 2;
      if (number(i, &n)) {
        out->set_amount_to(n);
        ++i;
      }
    } else if (f == "burn-delta") {
      if (!number(i + 1, &n) || (n != 1 && n != -1))
        return "burn-delta: +1 (two cards burned) or -1 (no burn)";
      out->set_burn_delta(static_cast<int32_t>(n));
      i += 2;
    } else if (f == "move") {
      if (!number(i + 1, &m) || i + 2 >= w.size()) return "move takes a seat and a card";
      v1::CardMove* mv = out->add_moves();
      mv->set_seat(static_cast<int32_t>(m));
      mv->set_card(w[i + 2]);
      i += 3;
    } else if (f == "next-acted" || f == "declare-live" || f == "disconnect") {
      if (f == "next-acted") out->set_next_acted(true);
      if (f == "declare-live") out->set_declare_live(true);
      if (f == "disconnect") out->set_disconnect(true);
      ++i;
    } else if (f == "note") {
      out->set_note(absl::StrJoin(w.begin() + static_cast<std::ptrdiff_t>(i + 1), w.end(), " "));
      i = w.size();
    } else {
      return absl::StrCat("unknown field `", f, "`; fields: ", absl::StrJoin(kFields, " "));
    }
  }
  return "";
}

}  // namespace stud_cli
