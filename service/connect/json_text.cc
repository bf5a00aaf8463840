#include "service/connect/json_text.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace stud::service {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// One field occurrence on the wire: its value's varint, or its bytes.
struct Entry {
  int index;  // the field's declaration index in its message
  int wire_type;
  uint64_t number;         // varint, fixed32 and fixed64 values
  absl::string_view data;  // length-delimited values
};

class Wire {
 public:
  explicit Wire(absl::string_view bytes) : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  bool done() const { return at_ == end_; }

  bool Varint(uint64_t* value) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && at_ < end_; shift += 7) {
      const auto byte = static_cast<uint8_t>(*at_++);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        *value = v;
        return true;
      }
    }
    return false;
  }
  bool Fixed(int bytes, uint64_t* value) {
    if (end_ - at_ < bytes) return false;
    uint64_t v = 0;
    std::memcpy(&v, at_, bytes);  // little-endian host (x86-64, arm64)
    at_ += bytes;
    *value = v;
    return true;
  }
  bool Bytes(absl::string_view* data) {
    uint64_t size = 0;
    if (!Varint(&size) || size > static_cast<uint64_t>(end_ - at_)) return false;
    *data = absl::string_view(at_, size);
    at_ += size;
    return true;
  }
  // The next entry of a message; false at a malformed or unsupported one.
  bool Next(uint64_t* field_number, int* wire_type, uint64_t* number, absl::string_view* data) {
    uint64_t tag = 0;
    if (!Varint(&tag)) return false;
    *field_number = tag >> 3;
    *wire_type = static_cast<int>(tag & 7);
    switch (*wire_type) {
      case 0:
        return Varint(number);
      case 1:
        return Fixed(8, number);
      case 2:
        return Bytes(data);
      case 5:
        return Fixed(4, number);
      default:
        return false;  // groups
    }
  }

 private:
  const char* at_;
  const char* end_;
};

bool ValidUtf8(absl::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<uint8_t>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int n = 0;
    uint32_t cp = 0;
    if ((c & 0xe0) == 0xc0) {
      n = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      n = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      const auto cc = static_cast<uint8_t>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

// The wire type of one value of `field` (a packed list is checked apart).
int WireTypeOf(const FieldDescriptor& field) {
  switch (field.type()) {
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
    case FieldDescriptor::TYPE_FLOAT:
      return 5;
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
    case FieldDescriptor::TYPE_DOUBLE:
      return 1;
    case FieldDescriptor::TYPE_STRING:
    case FieldDescriptor::TYPE_BYTES:
    case FieldDescriptor::TYPE_MESSAGE:
      return 2;
    default:
      return 0;
  }
}

bool IsDefault(const FieldDescriptor& field, const Entry& e) {
  return field.cpp_type() == FieldDescriptor::CPPTYPE_STRING ? e.data.empty() : e.number == 0;
}

// One value of a non-repeated-list position (a field, a list element, a map value).
bool AppendValue(const FieldDescriptor& field, const Entry& e, std::string* out) {
  const uint64_t v = e.number;
  switch (field.type()) {
    case FieldDescriptor::TYPE_INT32:
    case FieldDescriptor::TYPE_SFIXED32:
      absl::StrAppend(out, static_cast<int32_t>(v));
      return true;
    case FieldDescriptor::TYPE_UINT32:
    case FieldDescriptor::TYPE_FIXED32:
      absl::StrAppend(out, static_cast<uint32_t>(v));
      return true;
    case FieldDescriptor::TYPE_SINT32:
      absl::StrAppend(out, static_cast<int32_t>((v >> 1) ^ (~(v & 1) + 1)));
      return true;
    case FieldDescriptor::TYPE_INT64:
    case FieldDescriptor::TYPE_SFIXED64:
      absl::StrAppend(out, "\"", static_cast<int64_t>(v), "\"");
      return true;
    case FieldDescriptor::TYPE_UINT64:
    case FieldDescriptor::TYPE_FIXED64:
      absl::StrAppend(out, "\"", v, "\"");
      return true;
    case FieldDescriptor::TYPE_SINT64:
      absl::StrAppend(out, "\"", static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1)), "\"");
      return true;
    case FieldDescriptor::TYPE_BOOL:
      out->append(v != 0 ? "true" : "false");
      return true;
    case FieldDescriptor::TYPE_ENUM:
      if (const auto* value = field.enum_type()->FindValueByNumber(static_cast<int32_t>(v))) {
        absl::StrAppend(out, "\"", value->name(), "\"");
      } else {
        absl::StrAppend(out, static_cast<int32_t>(v));
      }
      return true;
    case FieldDescriptor::TYPE_STRING:
      if (!ValidUtf8(e.data)) return false;
      AppendJsonString(e.data, out);
      return true;
    case FieldDescriptor::TYPE_BYTES:
      absl::StrAppend(out, "\"", absl::Base64Escape(e.data), "\"");
      return true;
    case FieldDescriptor::TYPE_MESSAGE:
      return AppendJsonText(*field.message_type(), e.data, out);
    default:
      return false;  // float, double, group
  }
}

// The entries of a packed list, each as its own entry.
bool Unpack(const FieldDescriptor& field, const Entry& packed, std::vector<Entry>* into) {
  Wire wire(packed.data);
  const int width = field.type() == FieldDescriptor::TYPE_FIXED32 ||
                            field.type() == FieldDescriptor::TYPE_SFIXED32
                        ? 4
                    : field.type() == FieldDescriptor::TYPE_FIXED64 ||
                            field.type() == FieldDescriptor::TYPE_SFIXED64
                        ? 8
                        : 0;
  while (!wire.done()) {
    Entry e = packed;
    e.wire_type = width == 4 ? 5 : width == 8 ? 1 : 0;
    if (!(width == 0 ? wire.Varint(&e.number) : wire.Fixed(width, &e.number))) return false;
    into->push_back(e);
  }
  return true;
}

// JavaScript's own key order, which JSON.stringify follows: keys that are
// array indices (0..2^32-2 in canonical form) ascending, then the others in
// insertion order; a repeated key keeps its first place and its last value.
bool AppendMap(const FieldDescriptor& field, const Entry* begin, const Entry* end,
               std::string* out) {
  const FieldDescriptor* key_field = field.message_type()->map_key();
  const FieldDescriptor* value_field = field.message_type()->map_value();
  std::vector<std::pair<std::string, std::string>> items;  // key text, value JSON
  for (const Entry* e = begin; e != end; ++e) {
    Entry key{0, 0, 0, {}};
    Entry value{1, 0, 0, {}};
    bool has_value = false;
    Wire wire(e->data);
    while (!wire.done()) {
      uint64_t number = 0;
      Entry got{0, 0, 0, {}};
      if (!wire.Next(&number, &got.wire_type, &got.number, &got.data)) return false;
      if (number == 1) key = got;
      if (number == 2) value = got, has_value = true;
    }
    std::string key_text;
    if (key_field->type() == FieldDescriptor::TYPE_STRING) {
      if (!ValidUtf8(key.data)) return false;
      key_text = std::string(key.data);
    } else if (key_field->type() == FieldDescriptor::TYPE_BOOL) {
      key_text = key.number != 0 ? "true" : "false";
    } else {
      if (!AppendValue(*key_field, key, &key_text)) return false;
      if (absl::StartsWith(key_text, "\"")) key_text = key_text.substr(1, key_text.size() - 2);
    }
    std::string value_json;
    if (!has_value && value_field->type() == FieldDescriptor::TYPE_MESSAGE) {
      value_json = "{}";
    } else if (!AppendValue(*value_field, value, &value_json)) {
      return false;
    }
    auto same = std::find_if(items.begin(), items.end(),
                             [&](const auto& item) { return item.first == key_text; });
    if (same != items.end()) {
      same->second = std::move(value_json);
    } else {
      items.emplace_back(std::move(key_text), std::move(value_json));
    }
  }
  auto index_of = [](const std::string& key, uint32_t* index) {
    return !key.empty() && (key == "0" || key[0] != '0') && key.size() <= 10 &&
           absl::SimpleAtoi(key, index) && *index != UINT32_MAX;
  };
  std::stable_partition(items.begin(), items.end(), [&](const auto& item) {
    uint32_t i = 0;
    return index_of(item.first, &i);
  });
  const auto first_name = std::find_if(items.begin(), items.end(), [&](const auto& item) {
    uint32_t i = 0;
    return !index_of(item.first, &i);
  });
  std::stable_sort(items.begin(), first_name, [&](const auto& a, const auto& b) {
    uint32_t x = 0;
    uint32_t y = 0;
    index_of(a.first, &x), index_of(b.first, &y);
    return x < y;
  });
  out->push_back('{');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendJsonString(items[i].first, out);
    absl::StrAppend(out, ":", items[i].second);
  }
  out->push_back('}');
  return true;
}

}  // namespace

void AppendJsonString(absl::string_view text, std::string* out) {
  out->push_back('"');
  for (const char c : text) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppend(out, "\\u00", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

bool AppendJsonText(const Descriptor& type, absl::string_view wire_bytes, std::string* out) {
  if (absl::StartsWith(type.full_name(), "google.protobuf.")) return false;
  std::vector<Entry> entries;
  Wire wire(wire_bytes);
  while (!wire.done()) {
    uint64_t number = 0;
    Entry e{0, 0, 0, {}};
    if (!wire.Next(&number, &e.wire_type, &e.number, &e.data) || number > INT32_MAX) return false;
    const FieldDescriptor* field = type.FindFieldByNumber(static_cast<int>(number));
    if (field == nullptr) return false;
    e.index = field->index();
    if (field->is_packable() && e.wire_type == 2) {
      if (!Unpack(*field, e, &entries)) return false;
    } else if (e.wire_type == WireTypeOf(*field)) {
      entries.push_back(e);
    } else {
      return false;  // protobuf would keep it as an unknown field
    }
  }
  // protobuf-es writes the fields in declaration order; the wire's order
  // within one field is kept.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.index < b.index; });
  out->push_back('{');
  bool first = true;
  for (size_t i = 0; i < entries.size();) {
    const FieldDescriptor& field = *type.field(entries[i].index);
    size_t j = i + 1;
    while (j < entries.size() && entries[j].index == entries[i].index) ++j;
    if (!field.is_repeated() &&
        (j - i > 1 || (!field.has_presence() && IsDefault(field, entries[i]))))
      return false;
    if (!first) out->push_back(',');
    first = false;
    absl::StrAppend(out, "\"", field.json_name(), "\":");
    if (field.is_map()) {
      if (!AppendMap(field, &entries[i], &entries[i] + (j - i), out)) return false;
    } else if (field.is_repeated()) {
      out->push_back('[');
      for (size_t k = i; k < j; ++k) {
        if (k > i) out->push_back(',');
        if (!AppendValue(field, entries[k], out)) return false;
      }
      out->push_back(']');
    } else if (!AppendValue(field, entries[i], out)) {
      return false;
    }
    i = j;
  }
  out->push_back('}');
  return true;
}

}  // namespace stud::service
