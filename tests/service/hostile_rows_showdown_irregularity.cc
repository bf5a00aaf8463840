// The hostile-input matrix (hostile_input.h): ResolveShowdown and
// RuleIrregularity rows.
#include <functional>
#include <string>
#include <vector>

#include "hostile_input.h"

namespace stud::service::testing::hostile {

void AddResolveShowdownRows(std::vector<Row>& rows) {
  auto rs = [&](std::string input, std::function<void(Matrix&, v1::ResolveShowdownRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"ResolveShowdown", input, Send<v1::ResolveShowdownRequest>([edit](Matrix& m) {
                      v1::ResolveShowdownRequest r = m.GoodStateless();
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  rs(
      "neither token nor stateless", [](Matrix&, auto& r) { r.clear_stateless(); }, kInvalid,
      "hand: required", "INVALID_ARGUMENT");
  rs(
      "token of a hand still being played", [](Matrix& m, auto& r) { r.set_token(m.token()); },
      StatusCode::FAILED_PRECONDITION, "STUD-SHOW-1", "STUD-SHOW-1");
  rs(
      "locale unknown enum value",
      [](Matrix&, auto& r) { r.set_locale(static_cast<v1::Locale>(3)); }, kInvalid,
      "locale:", "INVALID_ARGUMENT");
  rs(
      "variant missing", [](Matrix&, auto& r) { r.mutable_stateless()->clear_variant(); }, kInvalid,
      "stateless.variant: required", "INVALID_ARGUMENT");
  rs(
      "one seat", [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats()->RemoveLast(); },
      kInvalid, "stateless.seats: 2..8 seats required", "INVALID_ARGUMENT");
  rs(
      "seat 0", [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(0)->set_seat(0); },
      kInvalid, "stateless.seats[0].seat: must be 1..8", "INVALID_ARGUMENT");
  rs(
      "seat repeated",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->set_seat(1); }, kInvalid,
      "stateless.seats[1].seat: seat 1 appears twice", "INVALID_ARGUMENT");
  rs(
      "contribution negative",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(0)->set_contribution(-1); },
      kInvalid, "stateless.seats[0].contribution: must not be negative", "INVALID_ARGUMENT");
  rs(
      "contributions INT64_MAX on two seats (overflow)",
      [](Matrix&, auto& r) {
        r.mutable_stateless()->mutable_seats(0)->set_contribution(kInt64Max);
        r.mutable_stateless()->mutable_seats(1)->set_contribution(kInt64Max);
      },
      kInvalid, "stateless.seats[0].contribution: at most 2^40", "INVALID_ARGUMENT");
  rs(
      "duplicate card across seats",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->set_cards(0, "As"); },
      kInvalid, "stateless.seats[1].cards: As appears twice", "INVALID_ARGUMENT");
  rs(
      "malformed card",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->set_cards(3, "Q"); },
      kInvalid, "stateless.seats[1].cards[3]: \"Q\" is not a card", "INVALID_ARGUMENT");
  rs(
      "eight cards in a hand",
      [](Matrix&, auto& r) { r.mutable_stateless()->mutable_seats(1)->add_cards("9c"); }, kInvalid,
      "stateless.seats[1].cards: a live hand needs 5 to 7 cards, has 8", "INVALID_ARGUMENT");
  rs(
      "common card duplicates a hand card",
      [](Matrix&, auto& r) { r.mutable_stateless()->set_common_card("As"); }, kInvalid,
      "stateless.seats[0].cards: As appears twice", "INVALID_ARGUMENT");
  rs(
      "10 000 seats",
      [](Matrix&, auto& r) {
        for (int i = 0; i < 10000; ++i) r.mutable_stateless()->add_seats()->set_seat(3);
      },
      kInvalid, "stateless.seats: 2..8 seats required", "INVALID_ARGUMENT");
}

void AddRuleIrregularityRows(std::vector<Row>& rows) {
  auto ri = [&](std::string input, std::function<void(Matrix&, v1::RuleIrregularityRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"RuleIrregularity", input, Send<v1::RuleIrregularityRequest>([edit](Matrix& m) {
                      v1::RuleIrregularityRequest r = m.GoodReport();
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  ri(
      "report missing", [](Matrix&, auto& r) { r.clear_report(); }, kInvalid, "report: required",
      "INVALID_ARGUMENT");
  ri(
      "kind missing", [](Matrix&, auto& r) { r.mutable_report()->clear_kind(); }, kInvalid,
      "report.kind: required", "INVALID_ARGUMENT");
  ri(
      "kind unknown enum value (99)",
      [](Matrix&, auto& r) { r.mutable_report()->set_kind(static_cast<v1::IrregularityKind>(99)); },
      kInvalid, "report.kind: required", "INVALID_ARGUMENT");
  ri(
      "seat 0", [](Matrix&, auto& r) { r.mutable_report()->set_seat(0); }, kInvalid,
      "report.seat: required for this kind; must be 1..3", "INVALID_ARGUMENT");
  ri(
      "seat 4 at a 3-seat table", [](Matrix&, auto& r) { r.mutable_report()->set_seat(4); },
      kInvalid, "report.seat: required for this kind; must be 1..3", "INVALID_ARGUMENT");
  ri(
      "exposed holecard without the card",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
      },
      kInvalid, "report.cards: this kind names exactly 1 card(s), got 0", "INVALID_ARGUMENT");
  ri(
      "exposed holecard, malformed card",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
        r.mutable_report()->add_cards("A");
      },
      kInvalid, "report.cards[0]: \"A\" is not a card", "INVALID_ARGUMENT");
  ri(
      "exposed holecard, a card the seat does not hold",
      [](Matrix& m, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_HOLECARD_EXPOSED);
        // The door card of another seat: public, so naming it leaks nothing.
        const int other = m.next().to_act() % 3 + 1;
        r.mutable_report()->add_cards(m.next().public_view().seats(other - 1).cards(2).card());
      },
      StatusCode::FAILED_PRECONDITION, "", "*");
  ri(
      "burn error without a street",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BURN_ERROR);
        r.mutable_report()->set_seat(0);
      },
      kInvalid, "report.street: required for this kind", "INVALID_ARGUMENT");
  ri(
      "burn error, street unknown enum value (12)",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BURN_ERROR);
        r.mutable_report()->set_seat(0);
        r.mutable_report()->set_street(static_cast<v1::Street>(12));
      },
      kInvalid, "report.street: required for this kind", "INVALID_ARGUMENT");
  ri(
      "note over 500 bytes",
      [](Matrix&, auto& r) { r.mutable_report()->set_note(std::string(501, 'n')); }, kInvalid,
      "report.note: at most 500 bytes", "INVALID_ARGUMENT");
  ri(
      "amount_to negative", [](Matrix&, auto& r) { r.mutable_report()->set_amount_to(-7); },
      kInvalid, "report.amount_to: must not be negative", "INVALID_ARGUMENT");
  ri(
      "nine moves",
      [](Matrix&, auto& r) {
        for (int i = 0; i < 9; ++i) {
          auto* mv = r.mutable_report()->add_moves();
          mv->set_seat(1);
          mv->set_card("As");
        }
      },
      kInvalid, "report.moves: at most one per seat", "INVALID_ARGUMENT");
  ri(
      "nine kept_seats",
      [](Matrix&, auto& r) {
        for (int i = 0; i < 9; ++i) r.mutable_report()->add_kept_seats(1);
      },
      kInvalid, "report.kept_seats: at most one per seat", "INVALID_ARGUMENT");
  ri(
      "BOTH_HOLECARDS_EXPOSED with 250 000 cards",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BOTH_HOLECARDS_EXPOSED);
        for (int i = 0; i < 250000; ++i) r.mutable_report()->add_cards("As");
      },
      kInvalid, "report.cards: none, or both hole cards of the seat", "INVALID_ARGUMENT");
  ri(
      "BOTH_HOLECARDS_EXPOSED in a SERVICE-dealt hand (LIVE reports are checked card by card: "
      "irregularities_validate_test)",
      [](Matrix&, auto& r) {
        r.mutable_report()->set_kind(v1::IRREGULARITY_KIND_BOTH_HOLECARDS_EXPOSED);
        r.mutable_report()->add_cards("2c");
        r.mutable_report()->add_cards("2d");
      },
      StatusCode::FAILED_PRECONDITION, "STUD-IRR-EXP-2: the engine deals this hand",
      "STUD-IRR-EXP-2");
  ri(
      "move with a malformed card",
      [](Matrix&, auto& r) { r.mutable_report()->add_moves()->set_card("??"); }, kInvalid,
      "report.moves[0].card: \"??\" is not a card", "INVALID_ARGUMENT");
  ri(
      "action on a kind without one",
      [](Matrix&, auto& r) { r.mutable_report()->set_action(v1::ACTION_KIND_RAISE); }, kInvalid,
      "report.action: a betting action, for WRONG_OPENER and ACTION_OUT_OF_TURN only",
      "INVALID_ARGUMENT");
  ri(
      "expected_version stale", [](Matrix&, auto& r) { r.set_expected_version(0); },
      StatusCode::ABORTED, "expected_version:", "VERSION_MISMATCH");
  ri(
      "private_view_seats repeated",
      [](Matrix&, auto& r) { r.add_private_view_seats(1), r.add_private_view_seats(1); }, kInvalid,
      "private_view_seats[1]: seat 1 appears twice", "INVALID_ARGUMENT");
}

}  // namespace stud::service::testing::hostile
