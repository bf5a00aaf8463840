// The field kinds that hold more than one value: nested messages, repeated
// messages (one per seat or a list), packed lists of integers, and the
// schema version and retired fields of the top-level message. The scalar
// kinds and the generic writer and reader are in fields.h.
#ifndef STUD_SERVICE_TOKEN_MESSAGE_FIELDS_H_
#define STUD_SERVICE_TOKEN_MESSAGE_FIELDS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/hand_state.h"
#include "service/token/fields.h"
#include "service/token/wire.h"

namespace stud::service::token {

// A singular message, always written (possibly empty).
template <auto M>
struct Message : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    const size_t at = w.Open(this->number);
    WriteMessage(obj.*M, w, ctx);
    w.Close(at);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    if (f.type != wire::kLen) return this->Bad();
    count = 1;
    return ReadMessage(f.bytes, obj.*M, ctx);
  }
  // An absent message is an empty one, whose fields must be valid too.
  absl::Status Finish(T& obj, ReadContext& ctx, uint8_t count) const {
    return count == 0 ? ReadMessage(absl::string_view(), obj.*M, ctx) : absl::OkStatus();
  }
  void Reset(T& obj) const { ResetMessage(obj.*M); }
};
template <auto M>
constexpr auto Msg(uint32_t n, absl::string_view name) {
  return Message<M>{{n, name}};
}

// The same for a message that is nearly always 128 bytes to 16 KB long (the
// hand state, its configuration): written with two bytes kept for its length
// (wire::Writer::OpenLong), so that the body is not moved forward when it
// closes. The bytes are the same.
template <auto M>
struct LongMessage : Message<M> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    const size_t at = w.OpenLong(this->number);
    WriteMessage(obj.*M, w, ctx);
    w.CloseLong(at);
  }
};
template <auto M>
constexpr auto LongMsg(uint32_t n, absl::string_view name) {
  return LongMessage<M>{{{n, name}}};
}

// A singular message whose value is a function of its bytes alone (it reads
// nothing from the context and leaves nothing in it), decoded once per thread
// for a run of equal bytes: the hand's rule options, the same for every hand
// of a table and nearly every hand of a platform, so most tokens a replica
// opens carry the bytes it decoded last (comparing and copying them saves
// about 1.3k of an opened ApplyAction's instructions).
template <auto M>
struct SameBytesMessage : Message<M> {
  using T = typename MemberOf<M>::Class;
  using V = typename MemberOf<M>::Value;
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    struct Last {
      std::string bytes;
      V value;
      bool valid = false;
    };
    thread_local Last last;
    if (f.type == wire::kLen && last.valid && f.bytes == last.bytes) {
      count = 1;
      obj.*M = last.value;
      return absl::OkStatus();
    }
    absl::Status st = Message<M>::Read(obj, f, ctx, count);
    last.valid = st.ok();
    if (st.ok()) {
      last.bytes.assign(f.bytes.data(), f.bytes.size());
      last.value = obj.*M;
    }
    return st;
  }
};
template <auto M>
constexpr auto SameBytesMsg(uint32_t n, absl::string_view name) {
  return SameBytesMessage<M>{{{n, name}}};
}

// A repeated message from a std::vector of at most `max` elements.
template <auto M>
struct MessageList : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  size_t max;
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    for (const auto& e : obj.*M) {
      const size_t at = w.Open(this->number);
      WriteMessage(e, w, ctx);
      w.Close(at);
    }
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t&) const {
    if (f.type != wire::kLen || (obj.*M).size() >= max) return this->Bad();
    return ReadMessage(f.bytes, (obj.*M).emplace_back(), ctx);
  }
  void Reset(T& obj) const { (obj.*M).clear(); }
};
template <auto M>
constexpr auto Msgs(uint32_t n, absl::string_view name, size_t max) {
  return MessageList<M>{{n, name}, max};
}

// A repeated message, one per seat, from an array indexed by seat (1..num_seats).
template <auto M>
struct SeatMessages : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    for (int i = 1; i <= ctx.num_seats; ++i) {
      const size_t at = w.Open(this->number);
      WriteMessage((obj.*M)[static_cast<size_t>(i)], w, ctx);
      w.Close(at);
    }
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    if (f.type != wire::kLen || count >= ctx.num_seats) return this->Bad();
    ++count;
    return ReadMessage(f.bytes, (obj.*M)[count], ctx);
  }
  absl::Status Finish(T&, ReadContext& ctx, uint8_t count) const {
    return count == ctx.num_seats ? absl::OkStatus() : this->Bad();
  }
  // Every entry as new, those past num_seats included (the next hand may have fewer seats).
  void Reset(T& obj) const { (obj.*M).fill({}); }
};
template <auto M>
constexpr auto PerSeatMsgs(uint32_t n, absl::string_view name) {
  return SeatMessages<M>{{n, name}};
}

// Packed repeated varints: `Values` reads and writes the member as a list.
// SeatChips: an array of chip amounts indexed by seat, num_seats entries
// (`optional`: absent when every entry is 0). IntList: a std::vector<int>
// (int32) of at most kMaxSeats entries, each 0..num_seats.
template <auto M, bool kPerSeat>
struct PackedInts : FieldBase<typename MemberOf<M>::Class> {
  using T = typename MemberOf<M>::Class;
  bool optional = false;
  void Write(const T& obj, wire::Writer& w, WriteContext& ctx) const {
    const auto& v = obj.*M;
    size_t first = 0, n = v.size();
    if constexpr (kPerSeat) {
      first = 1;
      n = static_cast<size_t>(ctx.num_seats);
      bool any = false;
      for (size_t i = first; i < first + n; ++i) any = any || v[i] != 0;
      if (n == 0 || (optional && !any)) return;
    }
    if (n == 0) return;
    const size_t at = w.Open(this->number);
    w.Room(n * 10);
    for (size_t i = first; i < first + n; ++i) w.Varint(static_cast<uint64_t>(int64_t{v[i]}));
    w.Close(at);
  }
  absl::Status Read(T& obj, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    auto add = [&](uint64_t raw) {
      if (count >= (kPerSeat ? ctx.num_seats : kMaxSeats)) return false;
      if constexpr (kPerSeat) {
        const auto v = static_cast<int64_t>(raw);
        if (v < 0 || v > kMaxChips) return false;
        (obj.*M)[++count] = v;
      } else {
        const int64_t v = DecodeInt(Enc::kInt32, raw);
        if (v < 0 || v > ctx.num_seats) return false;
        (obj.*M).push_back(static_cast<int>(v));
        ++count;
      }
      return true;
    };
    if (f.type == wire::kVarint) return add(f.value) ? absl::OkStatus() : this->Bad();
    if (f.type != wire::kLen) return this->Bad();
    const auto* p = reinterpret_cast<const uint8_t*>(f.bytes.data());
    const uint8_t* const end = p + f.bytes.size();
    uint64_t raw = 0;
    while (p != end) {
      if (!wire::GetVarint(p, end, &raw) || !add(raw)) return this->Bad();
    }
    return absl::OkStatus();
  }
  absl::Status Finish(T&, ReadContext& ctx, uint8_t count) const {
    if constexpr (kPerSeat) {
      if (count != ctx.num_seats && !(optional && count == 0)) return this->Bad();
    }
    return absl::OkStatus();
  }
  void Reset(T& obj) const {
    if constexpr (kPerSeat) {
      (obj.*M).fill(0);
    } else {
      (obj.*M).clear();
    }
  }
};
template <auto M>
constexpr auto SeatChips(uint32_t n, absl::string_view name, bool optional = false) {
  return PackedInts<M, true>{{n, name}, optional};
}
template <auto M>
constexpr auto SeatList(uint32_t n, absl::string_view name) {
  return PackedInts<M, false>{{n, name}};
}

// The schema version of the plaintext, [oldest, newest]: written from and
// read into the context, since other fields depend on it. Required.
template <typename T>
struct SchemaVersion : FieldBase<T> {
  uint32_t oldest, newest;
  void Write(const T&, wire::Writer& w, WriteContext& ctx) const {
    w.VarintField(this->number, ctx.schema);
  }
  absl::Status Read(T&, const wire::Field& f, ReadContext& ctx, uint8_t& count) const {
    if (f.type != wire::kVarint || f.value < oldest || f.value > newest) {
      return absl::InternalError(absl::StrCat("sealed state: schema ", f.value, " unsupported"));
    }
    ctx.schema = static_cast<uint32_t>(f.value);
    count = 1;
    return absl::OkStatus();
  }
  absl::Status Finish(T&, ReadContext&, uint8_t count) const {
    return count == 1 ? absl::OkStatus()
                      : absl::InternalError("sealed state: schema 0 unsupported");
  }
};

// A field of older schemas that this one no longer writes: refused if met,
// so an old-schema plaintext labelled with the new schema cannot lose data.
template <typename T>
struct Retired : FieldBase<T> {
  void Write(const T&, wire::Writer&, WriteContext&) const {}
  absl::Status Read(T&, const wire::Field&, ReadContext&, uint8_t&) const { return this->Bad(); }
};

}  // namespace stud::service::token

#endif  // STUD_SERVICE_TOKEN_MESSAGE_FIELDS_H_
