// The hostile-input matrix (hostile_input.h): NewHand rows.
#include <functional>
#include <string>
#include <vector>

#include "hostile_input.h"

namespace stud::service::testing::hostile {

void AddNewHandRows(std::vector<Row>& rows) {
  auto nh = [&](std::string input, std::function<void(v1::NewHandRequest&)> edit,
                std::string prefix, StatusCode code = StatusCode::INVALID_ARGUMENT,
                std::string reason = "INVALID_ARGUMENT",
                v1::DealingMode mode = v1::DEALING_MODE_SERVICE) {
    rows.push_back({"NewHand", input, Send<v1::NewHandRequest>([edit, mode](Matrix&) {
                      v1::NewHandRequest r = BasicHand(3, mode);
                      edit(r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  // ---- NewHand ----
  nh(
      "variant missing", [](auto& r) { r.clear_variant(); }, "variant: required");
  nh(
      "variant unknown enum value (99)",
      [](auto& r) { r.set_variant(static_cast<v1::Variant>(99)); }, "variant: required");
  nh(
      "stakes missing", [](auto& r) { r.clear_stakes(); }, "stakes: required");
  nh(
      "stakes preset unknown", [](auto& r) { r.mutable_stakes()->set_preset("$1-$1000000"); },
      "stakes.preset:");
  nh(
      "stakes custom, negative ante",
      [](auto& r) {
        auto* c = r.mutable_stakes()->mutable_custom();
        c->set_ante(-5), c->set_bring_in(5), c->set_small_bet(10), c->set_big_bet(20);
      },
      "stakes.custom: stakes.ante: must not be negative");
  nh(
      "stakes custom, big bet INT64_MAX (overflow)",
      [](auto& r) {
        auto* c = r.mutable_stakes()->mutable_custom();
        c->set_ante(1), c->set_bring_in(5), c->set_small_bet(10), c->set_big_bet(kInt64Max);
      },
      "stakes.custom: stakes.big_bet: amounts above 2^40");
  nh(
      "no seats", [](auto& r) { r.clear_seats(); }, "seats: 0 seats given");
  nh(
      "9 seats", [](auto& r) { r = BasicHand(9, v1::DEALING_MODE_SERVICE); },
      "seats: 9 seats given");
  nh(
      "seat 0", [](auto& r) { r.mutable_seats(0)->set_seat(0); },
      "seats[0].seat: 0 is out of range or repeated");
  nh(
      "seat 9 of 3", [](auto& r) { r.mutable_seats(2)->set_seat(9); },
      "seats[2].seat: 9 is out of range");
  nh(
      "seat repeated", [](auto& r) { r.mutable_seats(1)->set_seat(1); },
      "seats[1].seat: 1 is out of range or repeated");
  nh(
      "stack 0", [](auto& r) { r.mutable_seats(0)->set_stack(0); },
      "seats[0].stack: must be positive");
  nh(
      "stack negative", [](auto& r) { r.mutable_seats(1)->set_stack(-100); },
      "seats[1].stack: must be positive");
  nh(
      "stack INT64_MAX (overflow)", [](auto& r) { r.mutable_seats(0)->set_stack(kInt64Max); },
      "seats[0].stack: must be positive and at most 2^40");
  nh(
      "profile unknown enum value", [](auto& r) { r.set_profile(static_cast<v1::Profile>(42)); },
      "profile: unknown profile");
  nh(
      "option override unknown enum value",
      [](auto& r) {
        r.mutable_option_overrides()->set_deck_exhaustion(static_cast<v1::DeckExhaustion>(77));
      },
      "option_overrides.deck_exhaustion: must be set to a named value");
  nh(
      "option override out of range (0 raises)",
      [](auto& r) { r.mutable_option_overrides()->set_max_raises_per_round(0); },
      "option_overrides:");
  nh(
      "dealing mode unknown enum value",
      [](auto& r) { r.set_dealing_mode(static_cast<v1::DealingMode>(9)); },
      "dealing_mode: unknown dealing mode");
  nh(
      "locale unknown enum value", [](auto& r) { r.set_locale(static_cast<v1::Locale>(5)); },
      "locale: must be LOCALE_EN or LOCALE_ES");
  nh(
      "private_view_seats out of range", [](auto& r) { r.add_private_view_seats(4); },
      "private_view_seats[0]: seat 4 is not 1..3");
  nh(
      "private_view_seats repeated",
      [](auto& r) { r.add_private_view_seats(2), r.add_private_view_seats(2); },
      "private_view_seats[1]: seat 2 appears twice");
  nh(
      "preset deck with SERVICE dealing", [](auto& r) { r.add_preset_deck("As"); },
      "preset_deck: only allowed with DEALING_MODE_PRESET");
  nh(
      "PRESET deck empty", [](auto& r) { r.clear_preset_deck(); }, "preset_deck: required",
      kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck of 51 cards", [](auto& r) { r.mutable_preset_deck()->RemoveLast(); },
      "deck: must list all 52 cards in dealing order, got 51", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck of 53 cards", [](auto& r) { r.add_preset_deck("As"); }, "deck: As appears twice",
      kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck with a duplicate card", [](auto& r) { r.set_preset_deck(10, "2c"); },
      "deck: 2c appears twice", kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck with a malformed card", [](auto& r) { r.set_preset_deck(3, "1x"); },
      "preset_deck[3]: \"1x\" is not a card", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck with an empty card", [](auto& r) { r.set_preset_deck(0, ""); },
      "preset_deck[0]: \"\" is not a card", kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET card of 100 KB (echoed back cut to 16 bytes)",
      [](auto& r) { r.set_preset_deck(0, std::string(100000, 'x')); },
      "preset_deck[0]: \"xxxxxxxxxxxxxxxx...(100000 bytes)\" is not a card", kInvalid,
      "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET card with control and non-ASCII characters (echoed as \\xNN)",
      [](auto& r) { r.set_preset_deck(0, "A\xe2\x99\xa0\n"); },
      "preset_deck[0]: \"A\\xe2\\x99\\xa0\\x0a\" is not a card", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "PRESET card that is not UTF-8 (refused by protobuf parsing: not a NewHandRequest)",
      [](auto& r) { r.set_preset_deck(0, std::string(8, '\xff')); },
      "request: the bytes sent to NewHand are not a valid stud.v1.NewHandRequest message", kInvalid,
      "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET deck of 10 000 cards",
      [](auto& r) {
        for (int i = 0; i < 10000; ++i) r.add_preset_deck("Kd");
      },
      "deck: Kd appears twice", kInvalid, "INVALID_ARGUMENT", v1::DEALING_MODE_PRESET);
  nh(
      "PRESET recycle order of 3 cards",
      [](auto& r) {
        r.add_preset_recycle_order("As"), r.add_preset_recycle_order("Ks"),
            r.add_preset_recycle_order("Qs");
      },
      "recycle_order: must list all 52 cards", kInvalid, "INVALID_ARGUMENT",
      v1::DEALING_MODE_PRESET);
  nh(
      "oversized message (2 MiB > --max_message_bytes)",
      [](auto& r) { r.mutable_stakes()->set_preset(std::string(2 << 20, 'x')); }, "",
      StatusCode::RESOURCE_EXHAUSTED, "");
}

}  // namespace stud::service::testing::hostile
