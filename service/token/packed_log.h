// The packed operation log of the sealed hand (HandState fields packed_log
// and rule_ids), and the field kinds that put packed data in the schema.
//
// Per operation:
//   byte 0  type (1..19) | (street - 3) << 5
//   byte 1  seat (0..8) | face_up << 4 | all_in << 5 | odd_chip << 6 | more << 7
//   when more: byte 2, a presence mask of the fields that differ from their
//   defaults, each following in this order when present:
//     1 card (1 byte), 2 pot (1 byte), 4 half (1 byte), 8 amount (zigzag
//     varint), 16 amount_to (zigzag varint), 32 rule ID (a varint: schema 3,
//     the RuleId number, engine/rule_id.h; schema 2, an index into
//     rule_ids, which lists each distinct ID's name once, in order of first
//     use).
// Every value is range-checked when decoding; a truncated or overlong entry
// is refused.
//
// Both directions run once per call on the hot path (a mid-hand log is 50 to
// 100 operations), so they work on raw bytes: no per-byte string growth, no
// per-operation string comparison in the common case.
#ifndef STUD_SERVICE_TOKEN_PACKED_LOG_H_
#define STUD_SERVICE_TOKEN_PACKED_LOG_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/hand_state.h"
#include "service/token/fields.h"

namespace stud::service::token {

// The packed log written at `w`, which must have room for
// kMaxPackedLogEntryBytes per operation; returns the end. `rules`: null
// for schema 3 (rule numbers); for schema 2 it receives the distinct rules in
// order of first use (the rule_ids field).
inline constexpr size_t kMaxPackedLogEntryBytes = 6 + 3 * 10;
uint8_t* PackLogTo(absl::Span<const Operation> log, uint8_t* w, std::vector<RuleId>* rules);

// A hand's operation log as it was read from its token, or as its last token
// was written (schema 3), kept beside the hand (SealedHand::log_as_read). The
// engine appends to a log, so the next token's log begins with these same
// operations: writing it copies their packed bytes and packs only the new
// operations. A hand kept between calls (token/hand_cache.h) is written with
// log_as_written set, so a long run of calls on it packs each operation once.
// Each operation packs on its own (schema 3 names rules by number), and a
// token's bytes were written by PackLogTo (tokens are authenticated), so
// they are the bytes it would write again. The copy is taken only when the
// log still begins with `ops` byte for byte (an entry the engine amended
// afterwards packs again; padding included: a difference there only costs the
// packing it would have saved).
struct LogAsRead {
  std::vector<Operation> ops;  // as unpacked
  std::string packed;          // the token's bytes for them
  void clear() {
    ops.clear();
    packed.clear();
  }
  // How many operations at the start of `log` are `ops` (0 or ops.size()).
  size_t PrefixOf(absl::Span<const Operation> log) const;
  // Becomes `log` and its packed `bytes`, reusing the capacity it has. It may
  // hold the first `held_ops` of them and their first `held_bytes` already
  // (the prefix a write copied from it), which it keeps rather than copies.
  void Remember(absl::Span<const Operation> log, absl::string_view bytes, size_t held_ops = 0,
                size_t held_bytes = 0) {
    ops.resize(held_ops);
    ops.insert(ops.end(), log.begin() + static_cast<std::ptrdiff_t>(held_ops), log.end());
    packed.resize(held_bytes);
    packed.append(bytes.data() + held_bytes, bytes.size() - held_bytes);
  }
};

// Appends the operations of `packed` to *log; `rules` as for PackLogTo.
// INTERNAL ("sealed state: field HandState.packed_log... is out of range")
// on any malformed or out-of-range entry.
absl::Status UnpackLog(absl::string_view packed, const std::vector<RuleId>* rules, int num_seats,
                       std::vector<Operation>* log);

// The operation log: HandState.packed_log (number) and rule_ids (number + 1).
template <auto M>
struct PackedLogField : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  constexpr bool Has(uint32_t n) const { return n == this->number || n == this->number + 1; }
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    const std::vector<Operation>& log = obj.*M;
    std::vector<RuleId> rules;
    std::vector<RuleId>* table = ctx.schema == 2 ? &rules : nullptr;
    if (!log.empty()) {  // written in place, two bytes kept for its length (wire.h)
      const size_t at = w.OpenLong(this->number);
      const LogAsRead* read = table == nullptr ? ctx.log_as_read : nullptr;
      const size_t kept = read != nullptr ? read->PrefixOf(log) : 0;
      const absl::string_view kept_bytes = kept != 0 ? absl::string_view(read->packed) : "";
      w.Room(kept_bytes.size() + (log.size() - kept) * kMaxPackedLogEntryBytes);
      uint8_t* const begin = w.p();
      if (!kept_bytes.empty()) std::memcpy(begin, kept_bytes.data(), kept_bytes.size());
      w.set_p(PackLogTo(absl::MakeConstSpan(log).subspan(kept), begin + kept_bytes.size(), table));
      if (table == nullptr && ctx.log_as_written != nullptr) {
        // Written back into the log it was copied from: that prefix stays.
        const bool held = ctx.log_as_written == read && kept != 0;
        ctx.log_as_written->Remember(
            log, {reinterpret_cast<const char*>(begin), static_cast<size_t>(w.p() - begin)},
            held ? kept : 0, held ? kept_bytes.size() : 0);
      }
      w.CloseLong(at);
    }
    // Schema 2, rule_ids: a repeated string, one entry per distinct rule.
    for (RuleId id : rules) w.BytesField(this->number + 1, RuleIdName(id), /*always=*/true);
  }
  absl::Status Read(T&, const wire::Field& f, ReadContext& ctx, uint8_t&) const {
    if (f.type != wire::kLen) return this->Bad();
    if (f.number == this->number) {
      ctx.packed_log = f.bytes;
      return absl::OkStatus();
    }
    // Schema 2 only: a rule's catalogue ID.
    const std::optional<RuleId> rule = RuleIdFromName(f.bytes);
    if (ctx.schema != 2 || !rule.has_value() || ctx.rule_ids.size() >= 255) {
      return OutOfRange(Schema<T>::kName, "rule_ids");
    }
    ctx.rule_ids.push_back(*rule);
    return absl::OkStatus();
  }
  // Both fields are read by now, and num_seats is known.
  absl::Status Finish(T& obj, ReadContext& ctx, uint8_t) const {
    // Room for the operations of the next action, so that Apply does not grow the log.
    constexpr size_t kLogHeadroom = 24;
    (obj.*M).reserve(ctx.packed_log.size() / 2 + kLogHeadroom);
    const bool numbered = ctx.schema != 2;  // schema 2 names rules by a per-token table
    absl::Status st =
        UnpackLog(ctx.packed_log, numbered ? nullptr : &ctx.rule_ids, ctx.num_seats, &(obj.*M));
    if (st.ok() && numbered && ctx.log_as_read != nullptr) {
      ctx.log_as_read->Remember(obj.*M, ctx.packed_log);
    }
    return st;
  }
  void Reset(T& obj) const { (obj.*M).clear(); }
};
template <auto M>
constexpr auto Log(uint32_t n, absl::string_view name) {
  return PackedLogField<M>{{n, name}};
}

// A seat's cards (Seat.packed_cards): two bytes per card, the card index,
// then (street - 3) | face_up << 3. Written from Seat::cards[0..num_cards).
struct SeatCardsField : FieldBase<Seat> {
  void Write(const Seat& seat, wire::Writer& w, WriteContext&) const;
  absl::Status Read(Seat& seat, const wire::Field& f, ReadContext&, uint8_t&) const;
};
constexpr auto PackedSeatCards(uint32_t n, absl::string_view name) {
  return SeatCardsField{{n, name}};
}

}  // namespace stud::service::token

#endif  // STUD_SERVICE_TOKEN_PACKED_LOG_H_
