#include "service/token/packed_log.h"

#include <cstdint>
#include <cstring>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "service/token/codec.h"
#include "service/token/schema.h"

namespace stud::service::token {
namespace {

using wire::GetVarint;
using wire::PutVarint;
using wire::UnZigZag;
using wire::ZigZag;

constexpr uint8_t kHasCard = 1, kHasPot = 2, kHasHalf = 4, kHasAmount = 8, kHasAmountTo = 16,
                  kHasRule = 32;

// Operation types whose card byte is always written, whatever the card: a
// token's length must never depend on a hidden card (index 0 is the 2c, so
// omitting a zero card would reveal where the 2c is) [docs/api.md, "Threat model"].
bool CarriesCard(OpType t) {
  switch (t) {
    case OpType::kDeal:
    case OpType::kBurn:
    case OpType::kCommonCard:
    case OpType::kFirstToAct:
    case OpType::kExpose:
    case OpType::kAside:
    case OpType::kReplaceCard:
      return true;
    default:
      return false;
  }
}

absl::Status Bad(absl::string_view field) { return OutOfRange("HandState", field); }

}  // namespace

size_t LogAsRead::PrefixOf(absl::Span<const Operation> log) const {
  if (ops.empty() || ops.size() > log.size()) return 0;
  // Equal bytes are equal operations; unequal padding alone only re-packs.
  // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison)
  return std::memcmp(ops.data(), log.data(), ops.size() * sizeof(Operation)) == 0 ? ops.size() : 0;
}

uint8_t* PackLogTo(absl::Span<const Operation> log, uint8_t* w, std::vector<RuleId>* rules) {
  if (rules != nullptr) rules->reserve(16);  // a hand names a handful of rules: no regrowth
  // Schema 2: the index of the rule among the distinct rules, in order of first use.
  auto rule_index = [rules](RuleId id) -> size_t {
    for (size_t i = 0; i < rules->size(); ++i) {
      if ((*rules)[i] == id) return i;
    }
    rules->push_back(id);
    return rules->size() - 1;
  };
  for (const Operation& op : log) {
    uint8_t mask = 0;
    if (CarriesCard(op.type) || op.card != Card()) mask |= kHasCard;
    if (op.pot != 0) mask |= kHasPot;
    if (op.half != PotHalf::kWhole) mask |= kHasHalf;
    if (op.amount != 0) mask |= kHasAmount;
    if (op.amount_to != 0) mask |= kHasAmountTo;
    if (op.rule_id != RuleId::kNone) mask |= kHasRule;
    *w++ = static_cast<uint8_t>(static_cast<uint32_t>(op.type) |
                                (static_cast<uint32_t>(op.street) - 3) << 5);
    *w++ = static_cast<uint8_t>(op.seat | (op.face_up ? 0x10u : 0u) | (op.all_in ? 0x20u : 0u) |
                                (op.odd_chip ? 0x40u : 0u) | (mask != 0 ? 0x80u : 0u));
    if (mask == 0) continue;
    *w++ = mask;
    if (mask & kHasCard) *w++ = static_cast<uint8_t>(op.card.index());
    if (mask & kHasPot) *w++ = op.pot;
    if (mask & kHasHalf) *w++ = static_cast<uint8_t>(op.half);
    if (mask & kHasAmount) w = PutVarint(ZigZag(op.amount), w);
    if (mask & kHasAmountTo) w = PutVarint(ZigZag(op.amount_to), w);
    if (mask & kHasRule) {
      w = PutVarint(rules != nullptr ? rule_index(op.rule_id) : static_cast<size_t>(op.rule_id), w);
    }
  }
  return w;
}

absl::Status UnpackLog(absl::string_view packed, const std::vector<RuleId>* rules, int num_seats,
                       std::vector<Operation>* log) {
  const auto last_rule = static_cast<uint64_t>(LastRuleId());
  const auto* p = reinterpret_cast<const uint8_t*>(packed.data());
  const uint8_t* const end = p + packed.size();
  while (p != end) {
    if (end - p < 2) return Bad("packed_log");
    const uint8_t b0 = p[0], b1 = p[1];
    p += 2;
    Operation& op = log->emplace_back();
    const uint32_t type = b0 & 0x1Fu;
    if (type < static_cast<uint32_t>(OpType::kAnte) ||
        type > static_cast<uint32_t>(OpType::kOutOfTurn)) {
      return Bad("packed_log.type");
    }
    op.type = static_cast<OpType>(type);
    // (b0 >> 5) + 3 is at least kThird; at most kSeventh.
    if ((b0 >> 5) + 3u > static_cast<uint32_t>(Street::kSeventh)) return Bad("packed_log.street");
    op.street = static_cast<Street>((b0 >> 5) + 3u);
    if ((b1 & 0x0F) > num_seats) return Bad("packed_log.seat");
    op.seat = static_cast<uint8_t>(b1 & 0x0F);
    op.face_up = (b1 & 0x10) != 0;
    op.all_in = (b1 & 0x20) != 0;
    op.odd_chip = (b1 & 0x40) != 0;
    if ((b1 & 0x80) == 0) continue;
    if (p == end || *p == 0 || *p >= 64) return Bad("packed_log");
    const uint8_t mask = *p++;
    uint64_t v = 0;
    if (mask & kHasCard) {
      if (p == end || *p >= kDeckSize) return Bad("packed_log.card");
      op.card = Card::FromIndex(*p++);
    }
    if (mask & kHasPot) {
      if (p == end) return Bad("packed_log.pot");
      op.pot = *p++;
    }
    if (mask & kHasHalf) {
      if (p == end || *p > 2) return Bad("packed_log.half");
      op.half = static_cast<PotHalf>(*p++);
    }
    if (mask & kHasAmount) {
      if (!GetVarint(p, end, &v)) return Bad("packed_log.amount");
      op.amount = UnZigZag(v);
    }
    if (mask & kHasAmountTo) {
      if (!GetVarint(p, end, &v)) return Bad("packed_log.amount_to");
      op.amount_to = UnZigZag(v);
    }
    if (mask & kHasRule) {
      if (rules != nullptr) {  // schema 2: an index into rule_ids
        if (!GetVarint(p, end, &v) || v >= rules->size()) return Bad("packed_log.rule_id");
        op.rule_id = (*rules)[v];
      } else {
        // Schema 3: the RuleId itself. A larger number is a rule this release
        // does not know: a token sealed by a newer one.
        if (!GetVarint(p, end, &v) || v == 0) return Bad("packed_log.rule_id");
        if (v > last_rule) {
          return absl::InternalError(
              absl::StrCat("sealed state: rule number ", v,
                           " is unknown to this release (a token of a newer one?)"));
        }
        op.rule_id = static_cast<RuleId>(v);
      }
    }
  }
  return absl::OkStatus();
}

void SeatCardsField::Write(const Seat& seat, wire::Writer& w, WriteContext&) const {
  if (seat.num_cards == 0) return;
  w.Room(16 + 2u * seat.num_cards);
  w.Tag(number, wire::kLen);
  w.Varint(2u * seat.num_cards);
  uint8_t* p = w.p();
  for (int k = 0; k < seat.num_cards; ++k) {
    const SeatCard& c = seat.cards[static_cast<size_t>(k)];
    *p++ = static_cast<uint8_t>(c.card.index());
    *p++ = static_cast<uint8_t>((static_cast<uint32_t>(c.street) - 3) | (c.face_up ? 8u : 0u));
  }
  w.set_p(p);
}

absl::Status SeatCardsField::Read(Seat& seat, const wire::Field& f, ReadContext&, uint8_t&) const {
  const absl::string_view bytes = f.bytes;
  if (f.type != wire::kLen || bytes.size() % 2 != 0 || bytes.size() / 2 > seat.cards.size())
    return Bad();
  seat.num_cards = static_cast<uint8_t>(bytes.size() / 2);
  for (size_t k = 0; k < bytes.size() / 2; ++k) {
    SeatCard& sc = seat.cards[k];
    const auto index = static_cast<uint8_t>(bytes[2 * k]);
    const auto meta = static_cast<uint8_t>(bytes[2 * k + 1]);
    // (meta & 7) + 3 is at least kThird; at most kSeventh.
    if (index >= kDeckSize || (meta >> 4) != 0 ||
        (meta & 7u) + 3 > static_cast<uint32_t>(Street::kSeventh)) {
      return Bad();
    }
    sc.card = Card::FromIndex(index);
    sc.street = static_cast<Street>((meta & 7u) + 3);
    sc.face_up = (meta & 8u) != 0;
  }
  return absl::OkStatus();
}

}  // namespace stud::service::token
