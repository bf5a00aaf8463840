// The hostile-input matrix (hostile_input.h): ApplyAction rows (with LIVE
// deal reports) and LegalActions rows.
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "hostile_input.h"

namespace stud::service::testing::hostile {

void AddApplyActionRows(std::vector<Row>& rows) {
  auto aa = [&](std::string input, std::function<void(Matrix&, v1::ApplyActionRequest&)> edit,
                StatusCode code, std::string prefix, std::string reason) {
    rows.push_back({"ApplyAction", input, Send<v1::ApplyActionRequest>([edit](Matrix& m) {
                      v1::ApplyActionRequest r = m.GoodAction();
                      edit(m, r);
                      return r;
                    }),
                    code, prefix, reason});
  };
  aa(
      "action missing", [](Matrix&, auto& r) { r.clear_action(); }, kInvalid, "action: required",
      "INVALID_ARGUMENT");
  aa(
      "action kind missing", [](Matrix&, auto& r) { r.mutable_action()->clear_kind(); }, kInvalid,
      "action.kind: required", "INVALID_ARGUMENT");
  aa(
      "action kind unknown enum value (99)",
      [](Matrix&, auto& r) { r.mutable_action()->set_kind(static_cast<v1::ActionKind>(99)); },
      kInvalid, "action.kind: required", "INVALID_ARGUMENT");
  aa(
      "action seat -1", [](Matrix&, auto& r) { r.mutable_action()->set_seat(-1); }, kInvalid,
      "action.seat: must be 1..8", "INVALID_ARGUMENT");
  aa(
      "action seat 9", [](Matrix&, auto& r) { r.mutable_action()->set_seat(9); }, kInvalid,
      "action.seat: must be 1..8", "INVALID_ARGUMENT");
  aa(
      "action seat 5 at a 3-seat table", [](Matrix&, auto& r) { r.mutable_action()->set_seat(5); },
      kInvalid, "action.seat: 5 is not at this table (seats 1..3)", "INVALID_ARGUMENT");
  aa(
      "action by a seat not to act",
      [](Matrix& m, auto& r) { r.mutable_action()->set_seat(m.next().to_act() % 3 + 1); },
      StatusCode::FAILED_PRECONDITION, "", "*");
  aa(
      "amount_to negative", [](Matrix&, auto& r) { r.mutable_action()->set_amount_to(-1); },
      kInvalid, "action.amount_to: must not be negative", "INVALID_ARGUMENT");
  aa(
      "raise to INT64_MAX (overflow)",
      [](Matrix&, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_RAISE);
        r.mutable_action()->set_amount_to(kInt64Max);
      },
      StatusCode::FAILED_PRECONDITION, "", "*");
  aa(
      "card on a betting action", [](Matrix&, auto& r) { r.mutable_action()->set_card("As"); },
      kInvalid, "action.card: only ACTION_KIND_DEAL and ACTION_KIND_BURN carry a card",
      "INVALID_ARGUMENT");
  aa(
      "DEAL on a SERVICE-dealt hand",
      [](Matrix&, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_DEAL);
        r.mutable_action()->set_seat(1);
        r.mutable_action()->set_amount_to(0);
        r.mutable_action()->set_card("As");
      },
      StatusCode::FAILED_PRECONDITION, "", "*");
  aa(
      "FOLD with an amount (5000)",
      [](Matrix& m, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_FOLD);
        r.mutable_action()->set_seat(m.next().to_act());
        r.mutable_action()->set_amount_to(5000);
      },
      kInvalid, "action.amount_to: fold puts in no chips", "INVALID_ARGUMENT");
  aa(
      "face_up on a betting action",
      [](Matrix&, auto& r) { r.mutable_action()->set_face_up(true); }, kInvalid,
      "action.face_up: only ACTION_KIND_DEAL and ACTION_KIND_BURN are dealt face up or down",
      "INVALID_ARGUMENT");
  aa(
      "SHOW with an amount",
      [](Matrix&, auto& r) {
        r.mutable_action()->set_kind(v1::ACTION_KIND_SHOW);
        r.mutable_action()->set_amount_to(100);
      },
      kInvalid, "action.amount_to: show takes no amount", "INVALID_ARGUMENT");
  aa(
      "private_view_seats out of range", [](Matrix&, auto& r) { r.add_private_view_seats(0); },
      kInvalid, "private_view_seats[0]: seat 0 is not 1..3", "INVALID_ARGUMENT");
  aa(
      "expected_version stale", [](Matrix&, auto& r) { r.set_expected_version(0); },
      StatusCode::ABORTED, "expected_version: the request expects version 0", "VERSION_MISMATCH");
  aa(
      "expected_version UINT64_MAX",
      [](Matrix&, auto& r) { r.set_expected_version(std::numeric_limits<uint64_t>::max()); },
      StatusCode::ABORTED, "expected_version: the request expects version 18446744073709551615",
      "VERSION_MISMATCH");
  aa(
      "older token of the same hand, with expected_version",
      [](Matrix& m, auto& r) {
        r.set_token(m.stale_token());
        r.set_expected_version(m.next().version());
      },
      StatusCode::ABORTED, "expected_version:", "VERSION_MISMATCH");
  aa(
      "older token of the same hand replayed with its action, no expected_version (accepted: see "
      "the threat model)",
      [](Matrix& m, auto& r) {
        r.set_token(m.stale_token());
        *r.mutable_action() = ChooseAction(m.first(), false);
      },
      StatusCode::OK, "", "");
  aa(
      "token of another hand, expected_version of this one",
      [](Matrix& m, auto& r) {
        r.set_token(m.other_token());
        r.set_expected_version(m.next().version());
      },
      StatusCode::ABORTED, "expected_version:", "VERSION_MISMATCH");
  // LIVE dealing reports.
  auto deal = [&](std::string input, std::string card,
                  std::function<void(Matrix&, v1::Action&)> edit, StatusCode code,
                  std::string prefix, std::string reason) {
    rows.push_back({"ApplyAction", input, Send<v1::ApplyActionRequest>([card, edit](Matrix& m) {
                      v1::ApplyActionRequest r;
                      r.set_token(m.live_token());
                      v1::Action* a = r.mutable_action();
                      a->set_kind(v1::ACTION_KIND_DEAL);
                      a->set_seat(m.live().expected_deal().seat());
                      a->set_face_up(m.live().expected_deal().face_up());
                      a->set_card(card);
                      edit(m, *a);
                      return r;
                    }),
                    code, prefix, reason});
  };
  deal(
      "LIVE deal, malformed card", "Zz", [](Matrix&, v1::Action&) {}, kInvalid,
      "action.card: \"Zz\" is not a card", "INVALID_ARGUMENT");
  deal(
      "LIVE deal, card missing", "", [](Matrix&, v1::Action&) {}, kInvalid,
      "action.card: \"\" is not a card", "INVALID_ARGUMENT");
  deal(
      "LIVE deal, to the wrong seat", "As",
      [](Matrix& m, v1::Action& a) { a.set_seat(m.live().expected_deal().seat() % 3 + 1); },
      StatusCode::FAILED_PRECONDITION, "", "*");
  deal(
      "LIVE deal, seat 9", "As", [](Matrix&, v1::Action& a) { a.set_seat(9); }, kInvalid,
      "action.seat: must be 0..8", "INVALID_ARGUMENT");
}

void AddLegalActionsRows(std::vector<Row>& rows) {
  auto la = [&](std::string input, int seat, StatusCode code, std::string prefix,
                std::string reason) {
    rows.push_back({"LegalActions", input, Send<v1::LegalActionsRequest>([seat](Matrix& m) {
                      v1::LegalActionsRequest r;
                      r.set_token(m.token());
                      r.set_seat(seat);
                      return r;
                    }),
                    code, prefix, reason});
  };
  la("seat -1", -1, kInvalid, "seat: -1 is not 1..3", "INVALID_ARGUMENT");
  la("seat 4 at a 3-seat table", 4, kInvalid, "seat: 4 is not 1..3", "INVALID_ARGUMENT");
  la("seat INT32_MAX", std::numeric_limits<int32_t>::max(), kInvalid,
     "seat: 2147483647 is not 1..3", "INVALID_ARGUMENT");
}

}  // namespace stud::service::testing::hostile
