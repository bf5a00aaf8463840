// Protocol Buffers wire format, the part the sealed hand uses: varints,
// fixed64 and length-delimited fields, written through a raw pointer and read
// from a byte range. The schema (token/schema.h) says which fields exist; this
// file only knows how bytes look.
//
// The writer produces what protobuf's deterministic serializer produces for
// the same values: proto3 scalars equal to zero are omitted, negative int32
// and int64 values are sign-extended to ten bytes, length prefixes are
// minimal. The reader accepts anything protobuf would accept for the field
// types used (non-minimal varints, packed or unpacked repeated scalars,
// unknown fields, which it skips).
#ifndef STUD_SERVICE_TOKEN_WIRE_H_
#define STUD_SERVICE_TOKEN_WIRE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace stud::service::wire {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

inline uint8_t* PutVarint(uint64_t v, uint8_t* p) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}
inline uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// At most ten bytes; bits past the 64th are dropped, as protobuf does.
inline bool GetVarint(const uint8_t*& p, const uint8_t* end, uint64_t* out) {
  // One byte first: nearly every tag, length, flag and card index is one, and
  // the loop below costs four times as much for it.
  if (p != end && *p < 0x80) {
    *out = *p++;
    return true;
  }
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (p == end) return false;
    const uint8_t b = *p++;
    if (shift < 64) v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

// Bytes written once and then handed on whole (a call's answer): unlike
// std::string, growing one does not zero-fill what is about to be written
// (C++20 has no resize_and_overwrite), and its storage can be released to
// its consumer (the server gives it to gRPC without a copy, UnaryCall).
class Buffer {
 public:
  absl::string_view view() const { return {reinterpret_cast<const char*>(data_.get()), size_}; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The storage (new[]'d, of at least size() bytes) to whoever frees it
  // with delete[]; the buffer is then empty, with no storage.
  uint8_t* Release() {
    size_ = capacity_ = 0;
    return data_.release();
  }

 private:
  friend class Writer;
  // At least `n` bytes of storage; the first size() are kept.
  void Reserve(size_t n) {
    if (n <= capacity_) return;
    std::unique_ptr<uint8_t[]> grown = std::make_unique_for_overwrite<uint8_t[]>(n);
    if (size_ != 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = n;
  }
  std::unique_ptr<uint8_t[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// Writes from the start of a std::string or a Buffer through a raw pointer
// (what was there is replaced); every write first makes room for its largest
// possible size, so the storage grows rarely. Finish() sets the final size.
class Writer {
 public:
  // `estimate`: the expected size; Room() grows past it when needed.
  Writer(std::string* out, size_t estimate) : string_(out) {
    out->resize(estimate);
    Point(reinterpret_cast<uint8_t*>(out->data()), out->size(), 0);
  }
  Writer(Buffer* out, size_t estimate) : buffer_(out) {
    out->size_ = 0;
    out->Reserve(estimate);
    Point(out->data_.get(), out->capacity_, 0);
  }
  void Finish() {
    if (string_ != nullptr) string_->resize(Pos());
    if (buffer_ != nullptr) buffer_->size_ = Pos();
  }

  void Room(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) Grow(n);
  }
  void Varint(uint64_t v) { p_ = PutVarint(v, p_); }
  void Tag(uint32_t field, WireType type) { Varint((field << 3) | type); }

  // A varint field, omitted when zero (proto3).
  void VarintField(uint32_t field, uint64_t v) {
    if (v == 0) return;
    Room(16);
    Tag(field, kVarint);
    Varint(v);
  }
  void Fixed64Field(uint32_t field, uint64_t v) {
    if (v == 0) return;
    Room(16);
    Tag(field, kFixed64);
    for (int i = 0; i < 8; ++i) *p_++ = static_cast<uint8_t>(v >> (8 * i));
  }
  // A string field of exactly two bytes (a card's code, "Ah": `two` must be
  // two bytes long), copied without a call.
  void TwoByteField(uint32_t field, absl::string_view two) {
    Room(16);
    Tag(field, kLen);
    *p_++ = 2;
    *p_++ = static_cast<uint8_t>(two[0]);
    *p_++ = static_cast<uint8_t>(two[1]);
  }
  // A bytes or string field; `always`: written even when empty (a repeated
  // string element).
  void BytesField(uint32_t field, absl::string_view bytes, bool always = false) {
    if (bytes.empty() && !always) return;
    Room(bytes.size() + 16);
    Tag(field, kLen);
    Varint(bytes.size());
    if (!bytes.empty()) std::memcpy(p_, bytes.data(), bytes.size());
    p_ += bytes.size();
  }

  // A length-delimited field whose length is known only at its end (a
  // message, or bytes written in place): one byte is kept for the length,
  // enough for a body under 128 bytes (most of them: an operation, a card, a
  // legal action); a longer body is moved forward to make room for its
  // longer length.
  size_t Open(uint32_t field) { return OpenKeeping(field, 1); }
  void Close(size_t at) {
    const size_t len = Pos() - at - 1;
    if (len < 0x80) {
      begin_[at] = static_cast<uint8_t>(len);
      return;
    }
    CloseKept(at, 1);
  }
  // The same for a body that is usually 128 bytes to 16 KB long (a whole
  // answer, its public view, the view's card proofs; a token's hand state,
  // configuration and packed log): two bytes are kept for
  // the length, so the body is moved only when it is shorter or longer than
  // that (back one byte, or forward). The bytes are Open's: each length is
  // the shortest varint.
  size_t OpenLong(uint32_t field) { return OpenKeeping(field, 2); }
  void CloseLong(size_t at) { CloseKept(at, 2); }

  uint8_t* p() { return p_; }
  void set_p(uint8_t* p) { p_ = p; }

 private:
  size_t Pos() const { return static_cast<size_t>(p_ - begin_); }
  size_t OpenKeeping(uint32_t field, size_t kept) {
    Room(16);
    Tag(field, kLen);
    const size_t at = Pos();
    p_ += kept;
    return at;
  }
  // Writes the length of the body after the `kept` bytes at `at`, moving the
  // body when the length's varint is not `kept` bytes long.
  void CloseKept(size_t at, size_t kept) {
    const size_t len = Pos() - at - kept;
    uint8_t prefix[10];
    const size_t k = static_cast<size_t>(PutVarint(len, prefix) - prefix);
    if (k > kept) Room(k - kept);
    uint8_t* base = begin_ + at;
    if (k != kept) {
      std::memmove(base + k, base + kept, len);
      p_ = base + k + len;
    }
    std::memcpy(base, prefix, k);
  }
  void Point(uint8_t* begin, size_t capacity, size_t pos) {
    begin_ = begin;
    end_ = begin + capacity;
    p_ = begin + pos;
  }
  // At least `n` more bytes after the current position: twice the storage,
  // or more when that is not enough.
  void Grow(size_t n) {
    const size_t pos = Pos();
    const size_t size = std::max(2 * static_cast<size_t>(end_ - begin_), pos + n);
    if (string_ != nullptr) {
      string_->resize(size);
      Point(reinterpret_cast<uint8_t*>(string_->data()), size, pos);
    } else {
      buffer_->size_ = pos;
      buffer_->Reserve(size);
      Point(buffer_->data_.get(), buffer_->capacity_, pos);
    }
  }
  std::string* string_ = nullptr;  // one of the two
  Buffer* buffer_ = nullptr;
  uint8_t* begin_ = nullptr;
  uint8_t* end_ = nullptr;
  uint8_t* p_ = nullptr;
};

// One field as read off the wire: its number, wire type and value (the
// varint or fixed64 in `number_value`, the bytes of a kLen field in `bytes`).
struct Field {
  uint32_t number = 0;
  WireType type = kVarint;
  uint64_t value = 0;
  absl::string_view bytes;
};

// Reads the fields of one message in order. Next() returns false at the end
// or on malformed input (then ok() is false).
class Reader {
 public:
  explicit Reader(absl::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()) {}

  bool Next(Field* f) {
    if (p_ == end_) return false;
    uint64_t tag = 0;
    if (!GetVarint(p_, end_, &tag) || (tag >> 3) == 0 || (tag >> 3) > (1u << 29) - 1) return Fail();
    f->number = static_cast<uint32_t>(tag >> 3);
    f->type = static_cast<WireType>(tag & 7);
    switch (f->type) {
      case kVarint:
        return GetVarint(p_, end_, &f->value) || Fail();
      case kFixed64:
      case kFixed32: {
        const size_t n = f->type == kFixed64 ? 8 : 4;
        if (static_cast<size_t>(end_ - p_) < n) return Fail();
        f->value = 0;
        for (size_t i = 0; i < n; ++i) f->value |= static_cast<uint64_t>(p_[i]) << (8 * i);
        p_ += n;
        return true;
      }
      case kLen: {
        uint64_t n = 0;
        if (!GetVarint(p_, end_, &n) || n > static_cast<uint64_t>(end_ - p_)) return Fail();
        f->bytes = absl::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
        p_ += n;
        return true;
      }
      default:  // groups (3, 4) and reserved types: never in this schema
        return Fail();
    }
  }
  bool ok() const { return ok_; }

 private:
  bool Fail() {
    ok_ = false;
    return false;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace stud::service::wire

#endif  // STUD_SERVICE_TOKEN_WIRE_H_
