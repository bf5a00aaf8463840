#include "service/trust/tenants.h"

#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "service/api/status_mapping.h"

namespace stud::service {
namespace {
constexpr absl::string_view kCallerReason = "CALLER_UNAUTHENTICATED";

absl::string_view Header(const std::multimap<grpc::string_ref, grpc::string_ref>& md,
                         absl::string_view name) {
  auto it = md.find(grpc::string_ref(name.data(), name.size()));
  if (it == md.end()) return {};
  return absl::string_view(it->second.data(), it->second.size());
}
}  // namespace

bool ValidTenantId(absl::string_view tenant) {
  if (tenant.empty() || tenant.size() > kMaxTenantBytes) return false;
  return std::all_of(tenant.begin(), tenant.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

absl::StatusOr<std::vector<TenantKey>> ParseTenantKeys(absl::string_view text) {
  std::vector<TenantKey> keys;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = line.substr(0, std::min(line.size(), line.find('#')));
    for (absl::string_view entry :
         absl::StrSplit(line, absl::ByAnyChar(" \t\r,;"), absl::SkipEmpty())) {
      TenantKey key;
      key.seat_tickets = absl::ConsumeSuffix(&entry, ":tickets");
      const size_t colon = entry.rfind(':');
      if (colon == absl::string_view::npos || !ValidTenantId(entry.substr(0, colon))) {
        return absl::InvalidArgumentError(absl::StrCat(
            "tenant keys: entry ", keys.size() + 1,
            " must be <tenant>:<64 hex chars>[:tickets], tenant 1..64 of [A-Za-z0-9._-]"));
      }
      key.tenant = std::string(entry.substr(0, colon));
      const absl::string_view hex = entry.substr(colon + 1);
      size_t bin_len = 0;
      if (hex.size() != 2 * key.key.size() ||
          sodium_hex2bin(key.key.data(), key.key.size(), hex.data(), hex.size(), nullptr, &bin_len,
                         nullptr) != 0 ||
          bin_len != key.key.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "tenant keys: the key of tenant ", key.tenant, " must be exactly 64 hex characters"));
      }
      keys.push_back(std::move(key));
    }
  }
  if (keys.empty()) return absl::InvalidArgumentError("tenant keys: no key found");
  return keys;
}

absl::StatusOr<std::vector<TenantKey>> LoadTenantKeys(const std::string& file) {
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) return absl::NotFoundError(absl::StrCat("--tenant_keys_file: cannot read ", file));
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<std::vector<TenantKey>> keys = ParseTenantKeys(text.str());
    if (!keys.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tenant_keys_file ", file, ": ", keys.status().message()));
    }
    return keys;
  }
  if (const char* env = std::getenv("STUD_TENANT_KEYS"); env != nullptr && *env != '\0') {
    absl::StatusOr<std::vector<TenantKey>> keys = ParseTenantKeys(env);
    if (!keys.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("STUD_TENANT_KEYS: ", keys.status().message()));
    return keys;
  }
  return std::vector<TenantKey>();
}

std::string FormatTenantKey(const TenantKey& key) {
  char hex[2 * 32 + 1];
  sodium_bin2hex(hex, sizeof(hex), key.key.data(), key.key.size());
  return absl::StrCat(key.tenant, ":", hex, key.seat_tickets ? ":tickets" : "");
}

absl::Status CallerUnauthenticated(absl::string_view message) {
  return WithReason(absl::StatusCode::kUnauthenticated, kCallerReason, message);
}

absl::StatusOr<TenantAuth> TenantAuth::Create(std::vector<TenantKey> keys) {
  std::map<std::string, std::array<uint8_t, 32>> map;
  for (TenantKey& k : keys) {
    if (!map.emplace(k.tenant, k.key).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("tenant keys: tenant ", k.tenant, " appears twice"));
    }
    sodium_memzero(k.key.data(), k.key.size());
  }
  return TenantAuth(std::move(map));
}

absl::StatusOr<std::string> TenantAuth::Authenticate(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) const {
  const absl::string_view tenant = Header(metadata, kTenantHeader);
  const absl::string_view hex = Header(metadata, kApiKeyHeader);
  if (tenant.empty() || hex.empty()) {
    return CallerUnauthenticated(
        absl::StrCat("caller: this server authenticates callers; send the metadata ", kTenantHeader,
                     " and ", kApiKeyHeader));
  }
  std::array<uint8_t, 32> given{};
  size_t bin_len = 0;
  const bool parsed = hex.size() == 2 * given.size() &&
                      sodium_hex2bin(given.data(), given.size(), hex.data(), hex.size(), nullptr,
                                     &bin_len, nullptr) == 0 &&
                      bin_len == given.size();
  // Compare against a dummy key for unknown tenants so that timing does not
  // tell which tenants exist.
  static const std::array<uint8_t, 32> kNoKey{};
  auto it = ValidTenantId(tenant) ? keys_.find(std::string(tenant)) : keys_.end();
  const std::array<uint8_t, 32>& expected = it != keys_.end() ? it->second : kNoKey;
  const bool match = crypto_verify_32(given.data(), expected.data()) == 0;
  sodium_memzero(given.data(), given.size());
  if (!parsed || !match || it == keys_.end()) {
    return CallerUnauthenticated("caller: unknown tenant or wrong API key");
  }
  return it->first;
}

std::vector<std::string> TenantAuth::tenants() const {
  std::vector<std::string> out;
  out.reserve(keys_.size());
  for (const auto& [tenant, key] : keys_) out.push_back(tenant);
  return out;
}

}  // namespace stud::service
