#include "engine/rule_id.h"

#include <array>

#include "absl/container/flat_hash_map.h"

namespace stud {
namespace {

constexpr RuleInfo kRules[] = {
#define STUD_RULE_ID_INFO(constant, id, section) {RuleId::constant, id, section},
    STUD_RULE_IDS(STUD_RULE_ID_INFO)
#undef STUD_RULE_ID_INFO
};

}  // namespace

std::span<const RuleInfo> AllRules() { return kRules; }

RuleId LastRuleId() { return kRules[std::size(kRules) - 1].rule; }

absl::string_view RuleIdName(RuleId rule) {
  const auto i = static_cast<size_t>(rule);
  if (i == 0 || i > std::size(kRules)) return {};
  return kRules[i - 1].id;
}

std::optional<RuleId> RuleIdFromName(absl::string_view id) {
  static const auto* const by_name = [] {
    auto* m = new absl::flat_hash_map<absl::string_view, RuleId>();
    for (const RuleInfo& r : kRules) m->emplace(r.id, r.rule);
    return m;
  }();
  auto it = by_name->find(id);
  if (it == by_name->end()) return std::nullopt;
  return it->second;
}

}  // namespace stud
