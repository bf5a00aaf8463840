// The request side of service/api/convert.h: the caller's messages decoded
// into engine values, each refusal naming the field and quoting what was sent.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "service/api/convert.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// Caller text quoted in an error message: at most 16 bytes, printable ASCII,
// anything else as \xNN. A hostile value of any size or encoding then gives a
// short message that is valid UTF-8 (google.rpc.Status.message is a proto3
// string) and safe to log.
std::string Quoted(absl::string_view text) {
  constexpr size_t kMaxQuoted = 16;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kMaxQuoted; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  if (text.size() > kMaxQuoted) absl::StrAppend(&out, "...(", text.size(), " bytes)");
  out += "\"";
  return out;
}

// Maps a proto enum override onto the engine enum; the proto value is the
// engine value (both start at 1), 0 means "not set" and is rejected when the
// field is present.
template <typename E, typename P>
absl::Status Override(bool has, P value, int max, E* out, absl::string_view field,
                      const char* name) {
  if (!has) return absl::OkStatus();
  const int v = static_cast<int>(value);
  if (v < 1 || v > max)
    return Invalid(absl::StrCat(field, ".", name), "must be set to a named value");
  *out = static_cast<E>(v - 1);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Card> DecodeCard(absl::string_view text, absl::string_view field) {
  absl::StatusOr<Card> card = ParseCard(text);
  if (!card.ok())
    return Invalid(field, absl::StrCat(Quoted(text), " is not a card like \"As\" or \"Td\""));
  return card;
}

absl::StatusOr<std::vector<Card>> DecodeCards(
    const google::protobuf::RepeatedPtrField<std::string>& cards, absl::string_view field) {
  std::vector<Card> out;
  out.reserve(static_cast<size_t>(cards.size()));
  for (int i = 0; i < cards.size(); ++i) {
    absl::StatusOr<Card> c = DecodeCard(cards.Get(i), absl::StrCat(field, "[", i, "]"));
    if (!c.ok()) return c.status();
    out.push_back(*c);
  }
  return out;
}

absl::StatusOr<v1::Locale> DecodeLocale(v1::Locale locale) {
  if (locale == v1::LOCALE_UNSPECIFIED) return v1::LOCALE_EN;
  if (locale == v1::LOCALE_EN || locale == v1::LOCALE_ES) return locale;
  return absl::InvalidArgumentError("locale: must be LOCALE_EN or LOCALE_ES");
}

absl::StatusOr<Variant> DecodeVariant(v1::Variant v, absl::string_view field) {
  switch (v) {
    case v1::VARIANT_STUD:
      return Variant::kStud;
    case v1::VARIANT_STUD_HI_LO:
      return Variant::kStudHiLo;
    case v1::VARIANT_RAZZ:
      return Variant::kRazz;
    default:
      return Invalid(field, "required: VARIANT_STUD, VARIANT_STUD_HI_LO or VARIANT_RAZZ");
  }
}

absl::StatusOr<Stakes> DecodeStakes(const v1::Stakes& stakes, absl::string_view field) {
  switch (stakes.kind_case()) {
    case v1::Stakes::kPreset: {
      std::optional<Stakes> found = FindStakesPreset(stakes.preset());
      if (!found) {
        return Invalid(absl::StrCat(field, ".preset"),
                       absl::StrCat(Quoted(stakes.preset()),
                                    " is not in the stakes table (e.g. \"$15-$30\")"));
      }
      return *found;
    }
    case v1::Stakes::kCustom: {
      const v1::CustomStakes& c = stakes.custom();
      Stakes s{c.ante(), c.bring_in(), c.small_bet(), c.big_bet()};
      if (absl::Status st = ValidateStakes(s); !st.ok()) {
        return Invalid(absl::StrCat(field, ".custom"), text::Worded(st).message());
      }
      return s;
    }
    default:
      return Invalid(field, "required: a preset name or custom amounts");
  }
}

absl::StatusOr<Options> DecodeOptions(v1::Profile profile, const v1::RuleOptions& o,
                                      absl::string_view field) {
  Profile p = Profile::kCash;
  switch (profile) {
    case v1::PROFILE_UNSPECIFIED:
    case v1::PROFILE_CASH:
      p = Profile::kCash;
      break;
    case v1::PROFILE_TOURNAMENT:
      p = Profile::kTournament;
      break;
    case v1::PROFILE_ONLINE:
      p = Profile::kOnline;
      break;
    default:
      return Invalid("profile", "unknown profile");
  }
  Options out = ProfileDefaults(p);
  absl::Status st;
#define STUD_OVR(has, get, max, dst) \
  if (st = Override(o.has(), o.get(), max, &out.dst, field, #get); !st.ok()) return st
  STUD_OVR(has_bring_in_source, bring_in_source, 2, bring_in_source);
  STUD_OVR(has_third_street_opener, third_street_opener, 2, third_street_opener);
  STUD_OVR(has_short_all_in_rule, short_all_in_rule, 2, short_allin_rule);
  STUD_OVR(has_open_pair_scope, open_pair_scope, 2, open_pair_scope);
  STUD_OVR(has_deck_exhaustion, deck_exhaustion, 3, deck_exhaustion);
  STUD_OVR(has_odd_chip_cards, odd_chip_cards, 2, odd_chip_cards);
  STUD_OVR(has_short_hand, short_hand, 2, short_hand);
  STUD_OVR(has_exposed_holecard, exposed_holecard, 2, exposed_holecard);
  STUD_OVR(has_dead_hand_low_opener, dead_hand_low_opener, 2, dead_hand_low_opener);
  STUD_OVR(has_absent_kill, absent_kill, 2, absent_kill);
  STUD_OVR(has_fold_when_check, fold_when_check, 3, fold_when_check);
  STUD_OVR(has_final_burn_error, final_burn_error, 2, final_burn_error);
  STUD_OVR(has_premature_seventh, premature_seventh, 2, premature_seventh);
  STUD_OVR(has_faceup_final_option, faceup_final_option, 2, faceup_final_option);
  STUD_OVR(has_exhausted_timeout_action, exhausted_timeout_action, 2, exhausted_timeout_action);
  STUD_OVR(has_misdeal_antes, misdeal_antes, 2, misdeal_antes);
#undef STUD_OVR
  if (o.has_burn_before_third()) out.burn_before_third = o.burn_before_third();
  if (o.has_bring_in_option()) out.bring_in_option = o.bring_in_option();
  if (o.has_max_raises_per_round()) out.max_raises_per_round = o.max_raises_per_round();
  if (o.has_uncapped_heads_up()) out.uncapped_heads_up = o.uncapped_heads_up();
  if (o.has_hilo_open_pair_double()) out.hilo_open_pair_double = o.hilo_open_pair_double();
  if (o.has_odd_chip_low_ace_low()) out.odd_chip_low_ace_low = o.odd_chip_low_ace_low();
  if (o.has_odd_chip_unit()) out.odd_chip_unit = o.odd_chip_unit();
  if (o.has_allow_fold_when_check()) out.allow_fold_when_check = o.allow_fold_when_check();
  if (o.has_disconnect_all_ins_per_period()) {
    out.disconnect_allins_per_period = o.disconnect_all_ins_per_period();
  }
  if (o.has_announce_draws()) out.announce_draws = o.announce_draws();
  if (o.has_out_of_turn_binding()) out.out_of_turn_binding = o.out_of_turn_binding();
  if (absl::Status v = ValidateOptions(out); !v.ok()) {
    return Invalid(field, text::Worded(v).message());
  }
  return out;
}

absl::StatusOr<Action> DecodeAction(const v1::Action& a, absl::string_view field) {
  Action out;
  const int kind = static_cast<int>(a.kind());
  if (kind < static_cast<int>(ActionKind::kFold) ||
      kind > static_cast<int>(ActionKind::kReshuffle)) {
    return Invalid(absl::StrCat(field, ".kind"), "required: one of the ACTION_KIND_ values");
  }
  out.kind = static_cast<ActionKind>(kind);  // proto numbers equal engine numbers
  const bool dealer = out.kind == ActionKind::kBurn || out.kind == ActionKind::kReshuffle;
  const int min_seat = out.kind == ActionKind::kDeal || dealer ? kBoardSeat : 1;
  if (dealer && a.seat() != kBoardSeat) {
    return Invalid(absl::StrCat(field, ".seat"), "must be 0: the dealer burns and reshuffles");
  }
  if (a.seat() < min_seat || a.seat() > kMaxSeats) {
    return Invalid(absl::StrCat(field, ".seat"),
                   absl::StrCat("must be ", min_seat, "..", kMaxSeats));
  }
  out.seat = a.seat();
  if (a.amount_to() < 0) return Invalid(absl::StrCat(field, ".amount_to"), "must not be negative");
  // Kinds that never move chips take no amount. (FOLD and CHECK may repeat the
  // street total LegalActions lists; the engine checks that against the hand.)
  const bool no_amount = out.kind == ActionKind::kShow || out.kind == ActionKind::kMuck ||
                         out.kind == ActionKind::kDeal || out.kind == ActionKind::kBurn ||
                         out.kind == ActionKind::kReshuffle;
  if (no_amount && a.amount_to() != 0) {
    return Invalid(absl::StrCat(field, ".amount_to"),
                   absl::StrCat(ActionKindName(out.kind), " takes no amount; send 0"));
  }
  if (out.kind != ActionKind::kDeal && out.kind != ActionKind::kBurn && a.face_up()) {
    return Invalid(absl::StrCat(field, ".face_up"),
                   "only ACTION_KIND_DEAL and ACTION_KIND_BURN are dealt face up or down");
  }
  out.amount_to = a.amount_to();
  if (out.kind == ActionKind::kDeal) {
    absl::StatusOr<Card> c = DecodeCard(a.card(), absl::StrCat(field, ".card"));
    if (!c.ok()) return c.status();
    out.card = *c;
    out.face_up = a.face_up();
  } else if (out.kind == ActionKind::kBurn) {
    // [STUD-DEAL-3] a burn card is normally unseen: no card.
    out.unseen = a.card().empty();
    if (!out.unseen) {
      absl::StatusOr<Card> c = DecodeCard(a.card(), absl::StrCat(field, ".card"));
      if (!c.ok()) return c.status();
      out.card = *c;
    } else if (a.face_up()) {
      return Invalid(absl::StrCat(field, ".face_up"), "a burn shown face up names its card");
    }
    out.face_up = a.face_up();
  } else if (!a.card().empty()) {
    return Invalid(absl::StrCat(field, ".card"),
                   "only ACTION_KIND_DEAL and ACTION_KIND_BURN carry a card");
  }
  return out;
}

absl::StatusOr<std::vector<int>> DecodeViewSeats(
    const google::protobuf::RepeatedField<int32_t>& seats, int num_seats, absl::string_view field) {
  std::vector<int> out;
  for (int i = 0; i < seats.size(); ++i) {
    const int s = seats.Get(i);
    if (s < 1 || s > num_seats) {
      return Invalid(absl::StrCat(field, "[", i, "]"),
                     absl::StrCat("seat ", s, " is not 1..", num_seats));
    }
    if (std::find(out.begin(), out.end(), s) != out.end()) {
      return Invalid(absl::StrCat(field, "[", i, "]"), absl::StrCat("seat ", s, " appears twice"));
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace stud::service
