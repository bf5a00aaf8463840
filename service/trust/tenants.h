// Optional caller authentication: per-tenant API keys in call metadata.
//
// Tenant key text (file --tenant_keys_file, else env STUD_TENANT_KEYS):
// entries "<tenant>:<64 hex chars>" separated by newlines, spaces or commas;
// '#' starts a comment. A tenant id is 1..64 characters of [A-Za-z0-9._-].
// An entry "<tenant>:<64 hex chars>:tickets" also requires seat tickets on
// that tenant's calls (seat_tickets.h); files without the mark read as before.
// Without either source, caller authentication is off.
//
// With it on, every call must carry the metadata
//   x-stud-tenant:  <tenant id>
//   x-stud-api-key: <the tenant's key, 64 hex chars>
// and is otherwise refused with UNAUTHENTICATED, ErrorInfo.reason
// CALLER_UNAUTHENTICATED (one message for a missing, unknown or wrong key, so
// the answer does not tell which tenants exist). Keys are compared in
// constant time. The tenant of the call is then bound into every token the
// call seals (sealer.h, token format 2) and must match the tenant of every
// token it opens: a token sealed for another tenant is PERMISSION_DENIED,
// TOKEN_TENANT_MISMATCH.
#ifndef STUD_SERVICE_TRUST_TENANTS_H_
#define STUD_SERVICE_TRUST_TENANTS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"

namespace stud::service {

inline constexpr char kTenantHeader[] = "x-stud-tenant";
inline constexpr char kApiKeyHeader[] = "x-stud-api-key";
inline constexpr size_t kMaxTenantBytes = 64;

struct TenantKey {
  std::string tenant;
  std::array<uint8_t, 32> key{};
  bool seat_tickets = false;  // ":tickets": this tenant's calls need seat tickets (seat_tickets.h)
};

// True for 1..64 characters of [A-Za-z0-9._-].
bool ValidTenantId(absl::string_view tenant);
// The text format above; INVALID_ARGUMENT naming the entry (never its key).
absl::StatusOr<std::vector<TenantKey>> ParseTenantKeys(absl::string_view text);
// The file when `file` is non-empty, else env STUD_TENANT_KEYS when set, else
// an empty vector (authentication off).
absl::StatusOr<std::vector<TenantKey>> LoadTenantKeys(const std::string& file);
// "<tenant>:<hex>" (for tests and key generation).
std::string FormatTenantKey(const TenantKey& key);

// UNAUTHENTICATED with reason CALLER_UNAUTHENTICATED (api/status_mapping.h's WithReason).
absl::Status CallerUnauthenticated(absl::string_view message);

class TenantAuth {
 public:
  // Requires distinct tenant ids.
  static absl::StatusOr<TenantAuth> Create(std::vector<TenantKey> keys);
  // The authenticated tenant of a call, from its metadata.
  absl::StatusOr<std::string> Authenticate(
      const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) const;
  std::vector<std::string> tenants() const;

 private:
  explicit TenantAuth(std::map<std::string, std::array<uint8_t, 32>> keys)
      : keys_(std::move(keys)) {}
  std::map<std::string, std::array<uint8_t, 32>> keys_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_TENANTS_H_
