// The scalar kinds of field a sealed-hand message is made of (the others:
// message_fields.h), and the one generic writer and reader that walk a
// message's field table (token/schema.h).
//
// A field kind knows one engine member (by member pointer), its field number
// and name, how the member looks on the wire, and which values are valid. A
// message's table is a std::tuple of fields in field-number order; WriteMessage
// and ReadMessage expand it at compile time, so the code is as direct as a
// hand-written codec while each field is spelled once.
//
// Every value is range-checked on reading: whatever the bytes, the result is
// a value the engine can index without going out of bounds. Values bounded by
// the number of seats are checked against HandConfig.num_seats, which every
// writer puts first (field 1 of HandState); a seat-bounded value read before
// it is refused.
#ifndef STUD_SERVICE_TOKEN_FIELDS_H_
#define STUD_SERVICE_TOKEN_FIELDS_H_

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/hand_state.h"
#include "service/token/wire.h"

namespace stud::service::token {

struct LogAsRead;  // packed_log.h

// What reading one sealed hand carries from field to field.
struct ReadContext {
  uint32_t schema = 0;  // SealedHand.schema, read first
  int num_seats = 0;    // HandConfig.num_seats, once read
  // HandState.packed_log and (schema 2) rule_ids, unpacked once both are read.
  absl::string_view packed_log;
  std::vector<RuleId> rule_ids;
  LogAsRead* log_as_read = nullptr;  // where the log is kept as read; null: nowhere
};
struct WriteContext {
  uint32_t schema = 0;  // the schema being written
  int num_seats = 0;
  const LogAsRead* log_as_read = nullptr;  // the log as read from the last token, if known
  // When set (schema 3 only), receives the log as this call writes it: the
  // next serialization of the same hand, kept between calls, then packs only
  // that call's new operations (packed_log.h). May be the same as log_as_read.
  LogAsRead* log_as_written = nullptr;
};

template <typename T>
struct Schema;  // specialised for each message (token/schema.h)

inline absl::Status OutOfRange(absl::string_view message, absl::string_view field) {
  return absl::InternalError(
      absl::StrCat("sealed state: field ", message, ".", field, " is out of range"));
}

// ---- The generic writer and reader ----

template <typename T>
void WriteMessage(const T& obj, wire::Writer& w, WriteContext& ctx) {
  std::apply([&](const auto&... f) { (f.Write(obj, w, ctx), ...); }, Schema<T>::kFields);
}

// Field number -> the function that reads that field of T (null: unknown
// number, skipped), built at compile time so that reading a field is one
// indexed call whatever the number of fields.
template <typename T>
using ReadFn = absl::Status (*)(T&, const wire::Field&, ReadContext&, uint8_t&);
inline constexpr uint32_t kMaxFieldNumber = 63;

template <typename T, size_t I>
absl::Status ReadField(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) {
  return std::get<I>(Schema<T>::kFields).Read(obj, f, ctx, count);
}
template <typename T, size_t... I>
constexpr std::array<ReadFn<T>, kMaxFieldNumber + 1> MakeReaders(std::index_sequence<I...>) {
  std::array<ReadFn<T>, kMaxFieldNumber + 1> readers{};
  auto add = [&readers](const auto& field, ReadFn<T> fn) {
    for (uint32_t n = 1; n <= kMaxFieldNumber; ++n) {
      if (field.Has(n)) readers[n] = fn;
    }
  };
  (add(std::get<I>(Schema<T>::kFields), &ReadField<T, I>), ...);
  return readers;
}
template <typename T>
inline constexpr std::array<ReadFn<T>, kMaxFieldNumber + 1> kReaders =
    MakeReaders<T>(std::make_index_sequence<std::tuple_size_v<decltype(Schema<T>::kFields)>>());

// Empties what ReadMessage fills by adding (lists, strings, per-seat
// entries) so that an object that held an earlier message reads the next
// one as a new object would, its vectors and strings keeping their capacity.
// The other fields need nothing: ReadMessage writes each of them, read or
// absent (Finish). ParseSealedHandInto (token/codec.h) starts with it.
template <typename T>
void ResetMessage(T& obj) {
  std::apply([&](const auto&... f) { (f.Reset(obj), ...); }, Schema<T>::kFields);
}

// Messages of at most this many fields find a field's reader by asking each
// field in turn (ReadMessage); larger ones through kReaders.
inline constexpr size_t kInlineDispatch = 8;

template <typename T>
absl::Status ReadMessage(absl::string_view bytes, T& obj, ReadContext& ctx) {
  wire::Reader r(bytes);
  wire::Field f;
  std::array<uint8_t, kMaxFieldNumber + 1> counts{};  // elements read, by field number
  absl::Status st;
  while (st.ok() && r.Next(&f)) {
    // The field with this number reads it; an unknown number is skipped.
    if (f.number > kMaxFieldNumber) continue;
    if constexpr (std::tuple_size_v<decltype(Schema<T>::kFields)> <= kInlineDispatch) {
      // A small message (a seat, the stakes): each field asked in turn, its
      // reader inlined, cheaper than the call through the table.
      std::apply(
          [&](const auto&... field) {
            (void)((field.Has(f.number) &&
                    (st = field.Read(obj, f, ctx, counts[f.number]), true)) ||
                   ...);
          },
          Schema<T>::kFields);
    } else if (kReaders<T>[f.number] != nullptr) {
      st = kReaders<T>[f.number](obj, f, ctx, counts[f.number]);
    }
  }
  if (!r.ok())
    return absl::InternalError(
        absl::StrCat("sealed state: ", Schema<T>::kName, " is not valid protobuf wire format"));
  if (!st.ok()) return st;
  std::apply(
      [&](const auto&... field) {
        (void)((st = field.Finish(obj, ctx, counts[field.number]), !st.ok()) || ...);
      },
      Schema<T>::kFields);
  // Checks that involve several fields, where the message has any.
  if constexpr (requires { Schema<T>::Validate(obj, ctx); }) {
    if (st.ok()) st = Schema<T>::Validate(obj, ctx);
  }
  return st;
}

// ---- Field kinds ----

template <auto M>
struct MemberOf;
template <typename C, typename V, V C::*M>
struct MemberOf<M> {
  using Class = C;
  using Value = V;
};

// Common part: number, name, and no final check.
template <typename T>
struct FieldBase {
  uint32_t number;
  absl::string_view name;
  constexpr bool Has(uint32_t n) const { return n == number; }
  absl::Status Bad() const { return OutOfRange(Schema<T>::kName, name); }
  absl::Status Finish(T&, ReadContext&, uint8_t) const { return absl::OkStatus(); }
  void Reset(T&) const {}  // written whole by Read or Finish
};

// How an integer travels: int32, int64, uint32, uint64, bool or sint32.
enum class Enc { kInt32, kInt64, kUint32, kUint64, kBool, kSint32 };
// An integer upper bound of kSeatBound means "at most HandConfig.num_seats".
inline constexpr int64_t kSeatBound = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kMaxChips = int64_t{1} << 44;  // 8 seats x the 2^40 stack limit

inline uint64_t EncodeInt(Enc e, int64_t v) {
  switch (e) {
    case Enc::kSint32:
      return static_cast<uint32_t>((static_cast<uint32_t>(v) << 1) ^
                                   static_cast<uint32_t>(static_cast<int32_t>(v) >> 31));
    case Enc::kUint32:
      return static_cast<uint32_t>(v);
    default:  // int32 and int64 are sign-extended to 64 bits
      return static_cast<uint64_t>(v);
  }
}
inline int64_t DecodeInt(Enc e, uint64_t v) {
  switch (e) {
    case Enc::kInt32:
      return static_cast<int32_t>(static_cast<uint32_t>(v));
    case Enc::kUint32:
      return static_cast<uint32_t>(v);
    case Enc::kBool:
      return v != 0 ? 1 : 0;
    case Enc::kSint32: {
      const auto u = static_cast<uint32_t>(v);
      return static_cast<int32_t>((u >> 1) ^ (~(u & 1) + 1));
    }
    default:
      return static_cast<int64_t>(v);
  }
}

// An integer, bool or enum member, with its valid range [lo, hi].
template <auto M, Enc E>
struct Scalar : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  using V = typename MemberOf<M>::Value;
  int64_t lo, hi;
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    if constexpr (std::is_same_v<V, uint64_t> || std::is_same_v<V, size_t>) {
      w.VarintField(this->number, static_cast<uint64_t>(obj.*M));
    } else {
      w.VarintField(this->number, EncodeInt(E, static_cast<int64_t>(obj.*M)));
    }
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    if (f.type != wire::kVarint) return this->Bad();
    count = 1;
    if constexpr (std::is_same_v<V, uint64_t> || std::is_same_v<V, size_t>) {
      if (f.value > static_cast<uint64_t>(hi)) return this->Bad();
      obj.*M = static_cast<V>(f.value);
    } else {
      const int64_t v = DecodeInt(E, f.value);
      if (v < lo || v > (hi == kSeatBound ? ctx.num_seats : hi)) return this->Bad();
      obj.*M = static_cast<V>(v);
    }
    return absl::OkStatus();
  }
  // An absent field is 0 (proto3), whatever the engine's default, and 0
  // must be in range too (an enum starts at 1).
  absl::Status Finish(T& obj, ReadContext& ctx, uint8_t count) const {
    if (count != 0) return absl::OkStatus();
    if (lo > 0 || (hi == kSeatBound ? ctx.num_seats : hi) < 0) return this->Bad();
    obj.*M = static_cast<V>(0);
    return absl::OkStatus();
  }
};

template <auto M>
constexpr auto Int32(uint32_t n, absl::string_view name, int64_t lo, int64_t hi) {
  return Scalar<M, Enc::kInt32>{{n, name}, lo, hi};
}
template <auto M>
constexpr auto Uint32(uint32_t n, absl::string_view name, int64_t lo, int64_t hi) {
  return Scalar<M, Enc::kUint32>{{n, name}, lo, hi};
}
template <auto M>
constexpr auto Int64(uint32_t n, absl::string_view name) {
  return Scalar<M, Enc::kInt64>{{n, name}, INT64_MIN, INT64_MAX};
}
template <auto M>
constexpr auto Sint32(uint32_t n, absl::string_view name) {
  return Scalar<M, Enc::kSint32>{{n, name}, INT32_MIN, INT32_MAX};
}
// A chip amount: int64, 0..kMaxChips (so that no sum over a state can overflow).
template <auto M>
constexpr auto Chips(uint32_t n, absl::string_view name, int64_t lo = 0) {
  return Scalar<M, Enc::kInt64>{{n, name}, lo, kMaxChips};
}
template <auto M>
constexpr auto Uint64(uint32_t n, absl::string_view name, int64_t hi = INT64_MAX) {
  return Scalar<M, Enc::kUint64>{{n, name}, 0, hi};
}
// A seat number, 0 (none) to num_seats.
template <auto M>
constexpr auto SeatNo(uint32_t n, absl::string_view name) {
  return Scalar<M, Enc::kInt32>{{n, name}, 0, kSeatBound};
}
template <auto M>
constexpr auto Bool(uint32_t n, absl::string_view name) {
  return Scalar<M, Enc::kBool>{{n, name}, 0, 1};
}
template <auto M, typename E>
constexpr auto Enum(uint32_t n, absl::string_view name, E lo, E hi) {
  return Scalar<M, Enc::kUint32>{{n, name}, static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

// The number of seats (int32, kMinSeats..kMaxSeats): the bound of every
// seat number and per-seat list read after it.
template <auto M>
struct SeatCount : Scalar<M, Enc::kInt32> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    ctx.num_seats = obj.*M;
    Scalar<M, Enc::kInt32>::Write(obj, w, ctx);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    absl::Status st = Scalar<M, Enc::kInt32>::Read(obj, f, ctx, count);
    if (st.ok()) ctx.num_seats = obj.*M;
    return st;
  }
};
template <auto M>
constexpr auto NumSeats(uint32_t n, absl::string_view name) {
  return SeatCount<M>{{{n, name}, kMinSeats, kMaxSeats}};
}

// A card index, 0..51. `always`: written even for index 0 (the 2c), so that
// the field is 2 bytes whatever the card: a field that may name a hidden card
// must not change the token's length with it. Every reader takes an explicit
// 0 (protobuf's too, which would leave it out when serializing again).
// Without it, index 0 is left out as proto3 does.
template <auto M>
struct CardIndex : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  bool always = false;
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    const auto index = static_cast<uint32_t>((obj.*M).index());
    if (!always) return w.VarintField(this->number, index);
    w.Room(16);
    w.Tag(this->number, wire::kVarint);
    w.Varint(index);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext&, uint8_t& count) const {
    if (f.type != wire::kVarint || f.value >= kDeckSize) return this->Bad();
    obj.*M = Card::FromIndex(static_cast<int>(f.value));
    count = 1;
    return absl::OkStatus();
  }
  absl::Status Finish(T& obj, ReadContext&, uint8_t count) const {
    if (count == 0) obj.*M = Card::FromIndex(0);  // absent: index 0
    return absl::OkStatus();
  }
};
template <auto M>
constexpr auto CardNo(uint32_t n, absl::string_view name, bool always = false) {
  return CardIndex<M>{{n, name}, always};
}

// A list of cards as bytes, one card index per byte.
template <auto M>
struct CardBytes : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    const std::vector<Card>& cards = obj.*M;
    if (cards.empty()) return;
    w.Room(cards.size() + 16);
    w.Tag(this->number, wire::kLen);
    w.Varint(cards.size());
    uint8_t* p = w.p();
    for (Card c : cards) *p++ = static_cast<uint8_t>(c.index());
    w.set_p(p);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext&, uint8_t&) const {
    if (f.type != wire::kLen || f.bytes.size() > 2 * kDeckSize) return this->Bad();
    std::vector<Card>& cards = obj.*M;
    // Sized once (a hand read into a reused one keeps its capacity), then
    // each card set in place: no capacity check per card.
    cards.resize(f.bytes.size());
    const auto* p = reinterpret_cast<const uint8_t*>(f.bytes.data());
    for (size_t k = 0; k < cards.size(); ++k) {
      if (p[k] >= kDeckSize) return this->Bad();
      cards[k] = Card::FromIndex(p[k]);
    }
    return absl::OkStatus();
  }
  void Reset(T& obj) const { (obj.*M).clear(); }  // absent: no card
};
template <auto M>
constexpr auto Cards(uint32_t n, absl::string_view name) {
  return CardBytes<M>{{n, name}};
}

// A string member as a bytes field of at most `max` bytes.
template <auto M>
struct BytesField : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  size_t max;
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    w.BytesField(this->number, obj.*M);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext&, uint8_t&) const {
    if (f.type != wire::kLen || f.bytes.size() > max) return this->Bad();
    (obj.*M).assign(f.bytes.data(), f.bytes.size());
    return absl::OkStatus();
  }
  void Reset(T& obj) const { (obj.*M).clear(); }  // absent: empty
};
template <auto M>
constexpr auto Bytes(uint32_t n, absl::string_view name, size_t max) {
  return BytesField<M>{{n, name}, max};
}

// Several bool members as the bits of one uint32, in the order given.
template <typename T, bool T::*... Bits>
struct BitFlags : FieldBase<T> {
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    uint32_t v = 0, bit = 1;
    ((v |= (obj.*Bits ? bit : 0u), bit <<= 1), ...);
    w.VarintField(this->number, v);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext&, uint8_t& count) const {
    if (f.type != wire::kVarint || (f.value >> sizeof...(Bits)) != 0) return this->Bad();
    uint32_t bit = 1;
    ((obj.*Bits = (f.value & bit) != 0, bit <<= 1), ...);
    count = 1;
    return absl::OkStatus();
  }
  absl::Status Finish(T& obj, ReadContext&, uint8_t count) const {
    if (count == 0) ((obj.*Bits = false), ...);  // absent: every bit clear
    return absl::OkStatus();
  }
};
template <typename T, bool T::*... Bits>
constexpr auto Flags(uint32_t n, absl::string_view name) {
  return BitFlags<T, Bits...>{{n, name}};
}

// A std::array<bool, kMaxSeats + 1> indexed by seat as a bit mask (bit i: seat i).
template <auto M>
struct SeatMask : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    uint32_t mask = 0;
    for (int i = 0; i <= kMaxSeats; ++i) mask |= (obj.*M)[i] ? (1u << i) : 0u;
    w.VarintField(this->number, mask);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext&, uint8_t& count) const {
    if (f.type != wire::kVarint || (f.value >> (kMaxSeats + 1)) != 0) return this->Bad();
    for (int i = 0; i <= kMaxSeats; ++i) (obj.*M)[i] = ((f.value >> i) & 1u) != 0;
    count = 1;
    return absl::OkStatus();
  }
  absl::Status Finish(T& obj, ReadContext&, uint8_t count) const {
    if (count == 0) (obj.*M).fill(false);
    return absl::OkStatus();
  }
};
template <auto M>
constexpr auto Mask(uint32_t n, absl::string_view name) {
  return SeatMask<M>{{n, name}};
}

// A CardSet as fixed64.
template <auto M>
struct CardSetField : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext&) const {
    w.Fixed64Field(this->number, (obj.*M).mask());
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext&, uint8_t& count) const {
    if (f.type != wire::kFixed64) return this->Bad();
    obj.*M = CardSet(f.value);
    count = 1;
    return absl::OkStatus();
  }
  absl::Status Finish(T& obj, ReadContext&, uint8_t count) const {
    if (count == 0) obj.*M = CardSet();
    return absl::OkStatus();
  }
};
template <auto M>
constexpr auto Set(uint32_t n, absl::string_view name) {
  return CardSetField<M>{{n, name}};
}

}  // namespace stud::service::token

#endif  // STUD_SERVICE_TOKEN_FIELDS_H_
