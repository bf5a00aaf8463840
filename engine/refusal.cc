#include "engine/refusal.h"

#include <cstring>
#include <type_traits>

#include "absl/strings/cord.h"

namespace stud {
namespace {

constexpr char kRefusalPayloadUrl[] = "type.stud.dev/stud.Refusal";

// The payload: the fixed-size facts, then the two strings, each after its
// length. It only travels within the process (the service words a status
// before it leaves), so the layout is the compiler's.
struct Fixed {
  Refusal what;
  RuleId rule;
  Street street, current;
  ActionKind action;
  Card card;
  bool face_up;
  bool flag;
  int seat, other_seat, count, limit, num_amounts;
  Chips chips, amount;
  std::array<Chips, 8> amounts;
  std::array<ActionKind, 8> actions;
  uint32_t field_size, text_size;
};
static_assert(std::is_trivially_copyable_v<Fixed>);

absl::Cord Encode(const RefusalFacts& f) {
  Fixed x = Fixed();  // zero-initialized, padding included: equal facts, equal bytes
  x.what = f.what;
  x.rule = f.rule;
  x.street = f.street;
  x.current = f.current;
  x.action = f.action;
  x.card = f.card;
  x.face_up = f.face_up;
  x.flag = f.flag;
  x.seat = f.seat;
  x.other_seat = f.other_seat;
  x.count = f.count;
  x.limit = f.limit;
  x.num_amounts = f.num_amounts;
  x.chips = f.chips;
  x.amount = f.amount;
  x.amounts = f.amounts;
  x.actions = f.actions;
  x.field_size = static_cast<uint32_t>(f.field.size());
  x.text_size = static_cast<uint32_t>(f.text.size());
  std::string bytes(sizeof x, '\0');
  std::memcpy(bytes.data(), &x, sizeof x);
  bytes += f.field;
  bytes += f.text;
  return absl::Cord(std::move(bytes));
}

std::optional<RefusalFacts> Decode(const absl::Cord& payload) {
  const std::string bytes(payload);
  Fixed x = Fixed();
  if (bytes.size() < sizeof x) return std::nullopt;
  std::memcpy(&x, bytes.data(), sizeof x);
  if (bytes.size() != sizeof x + x.field_size + x.text_size) return std::nullopt;
  RefusalFacts f;
  f.what = x.what;
  f.rule = x.rule;
  f.street = x.street;
  f.current = x.current;
  f.action = x.action;
  f.card = x.card;
  f.face_up = x.face_up;
  f.flag = x.flag;
  f.seat = x.seat;
  f.other_seat = x.other_seat;
  f.count = x.count;
  f.limit = x.limit;
  f.num_amounts = x.num_amounts;
  f.chips = x.chips;
  f.amount = x.amount;
  f.amounts = x.amounts;
  f.actions = x.actions;
  f.field = bytes.substr(sizeof x, x.field_size);
  f.text = bytes.substr(sizeof x + x.field_size, x.text_size);
  return f;
}

}  // namespace

absl::Status Refuse(RuleId rule, RefusalFacts facts) {
  facts.rule = rule;
  const absl::string_view id = RuleIdName(rule);
  absl::Status out = absl::FailedPreconditionError(id);
  out.SetPayload(kRuleIdPayloadUrl, absl::Cord(id));
  out.SetPayload(kRefusalPayloadUrl, Encode(facts));
  return out;
}

absl::Status Malformed(const RefusalFacts& facts) {
  absl::Status s = absl::InvalidArgumentError(facts.field);
  s.SetPayload(kRefusalPayloadUrl, Encode(facts));
  return s;
}

std::optional<RefusalFacts> RefusalOf(const absl::Status& status) {
  const auto payload = status.GetPayload(kRefusalPayloadUrl);
  if (!payload) return std::nullopt;
  return Decode(*payload);
}

absl::Status WithRefusal(absl::Status status, const RefusalFacts& facts) {
  status.SetPayload(kRefusalPayloadUrl, Encode(facts));
  return status;
}

}  // namespace stud
