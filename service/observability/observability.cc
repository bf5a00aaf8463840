#include "service/observability/observability.h"

#include <algorithm>
#include <array>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "service/observability/hand_facts.h"
#include "service/observability/logging.h"
#include "service/token/sealer.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

std::string EnumLabel(const google::protobuf::EnumDescriptor* d, int value,
                      absl::string_view prefix) {
  if (value == 0) return "";
  const google::protobuf::EnumValueDescriptor* v = d->FindValueByNumber(value);
  if (v == nullptr) return "";
  absl::string_view name = v->name();
  if (absl::StartsWith(name, prefix)) name.remove_prefix(prefix.size());
  return std::string(name);
}

void AddRule(const std::string& rule, RpcFacts* f) {
  if (rule.empty()) return;
  if (std::find(f->rule_ids.begin(), f->rule_ids.end(), rule) == f->rule_ids.end())
    f->rule_ids.push_back(rule);
}

// From an update: game, street, rules named by this call's operations. Not
// `detailed`: the game only when a metric or log will use it (a hand started
// or finished, or `need_game`), and neither street nor rules.
void FromUpdate(const v1::HandUpdate& u, bool changed, bool detailed, bool need_game,
                const HandFacts* noted, RpcFacts* f) {
  const v1::PublicView& pv = u.public_view();
  // The handler's own note when there is one: the answer may lack the
  // public view or its fixed facts, or be bytes (hand_facts.h).
  const HandFacts from_answer{pv.variant(), pv.dealing_mode(), pv.phase()};
  const HandFacts& hand = noted != nullptr ? *noted : from_answer;
  f->hand_finished = changed && hand.phase == v1::PHASE_COMPLETE;
  if (detailed || need_game || f->hand_finished) {
    f->variant = EnumLabel(v1::Variant_descriptor(), hand.variant, "VARIANT_");
    f->dealing_mode = EnumLabel(v1::DealingMode_descriptor(), hand.dealing_mode, "DEALING_MODE_");
  }
  if (!detailed) return;
  if (hand.answer.has_value()) {
    f->street = EnumLabel(v1::Street_descriptor(), hand.answer->street, "STREET_");
    for (const std::string& rule : hand.answer->rule_ids) AddRule(rule, f);
    return;
  }
  f->street = EnumLabel(v1::Street_descriptor(), pv.street(), "STREET_");
  for (const v1::Operation& op : u.operations()) AddRule(op.rule_id(), f);
}

std::optional<SpanContext> ParentFromMetadata(const ClientMetadata& md) {
  auto it = md.find("traceparent");
  if (it == md.end()) return std::nullopt;
  std::optional<SpanContext> parent =
      ParseTraceparent(absl::string_view(it->second.data(), it->second.size()));
  if (!parent.has_value()) return std::nullopt;
  auto ts = md.find("tracestate");
  if (ts != md.end()) parent->trace_state.assign(ts->second.data(), ts->second.size());
  return parent;
}

// "stud.v1.StudService/<Method>", built once per method.
absl::string_view SpanName(RpcMethod m) {
  constexpr int kMethods = static_cast<int>(RpcMethod::kReplayHandHistory) + 1;
  static const auto* names = [] {
    auto* out = new std::array<std::string, kMethods>();
    for (int i = 0; i < kMethods; ++i) {
      (*out)[static_cast<size_t>(i)] =
          absl::StrCat("stud.v1.StudService/", RpcMethodName(static_cast<RpcMethod>(i)));
    }
    return out;
  }();
  return (*names)[static_cast<size_t>(m)];
}

}  // namespace

RpcFacts Describe(const v1::NewHandRequest& req, const v1::NewHandResponse& resp, bool ok,
                  bool detailed, const HandFacts* noted) {
  RpcFacts f;
  if (ok) {
    FromUpdate(resp.update(), /*changed=*/true, detailed, /*need_game=*/true, noted, &f);
    f.hand_started = true;
  } else {
    f.variant = EnumLabel(v1::Variant_descriptor(), req.variant(), "VARIANT_");
    f.dealing_mode =
        EnumLabel(v1::DealingMode_descriptor(),
                  req.dealing_mode() == 0 ? int{v1::DEALING_MODE_SERVICE} : req.dealing_mode(),
                  "DEALING_MODE_");
  }
  return f;
}

RpcFacts Describe(const v1::ApplyActionRequest&, const v1::ApplyActionResponse& resp, bool ok,
                  bool detailed, const HandFacts* noted) {
  RpcFacts f;
  if (ok) FromUpdate(resp.update(), /*changed=*/true, detailed, /*need_game=*/false, noted, &f);
  return f;
}

RpcFacts Describe(const v1::LegalActionsRequest&, const v1::LegalActionsResponse&, bool, bool,
                  const HandFacts*) {
  return {};
}

RpcFacts Describe(const v1::ResolveShowdownRequest& req, const v1::ResolveShowdownResponse& resp,
                  bool ok, bool detailed, const HandFacts*) {
  RpcFacts f;
  if (req.hand_case() == v1::ResolveShowdownRequest::kStateless) {
    f.variant = EnumLabel(v1::Variant_descriptor(), req.stateless().variant(), "VARIANT_");
  }
  if (ok && detailed) {
    for (const v1::PotResult& p : resp.pots()) AddRule(p.rule_id(), &f);
  }
  return f;
}

RpcFacts Describe(const v1::RuleIrregularityRequest&, const v1::RuleIrregularityResponse& resp,
                  bool ok, bool detailed, const HandFacts* noted) {
  RpcFacts f;
  if (ok) {
    FromUpdate(resp.update(), /*changed=*/resp.update().operations_size() > 0, detailed,
               /*need_game=*/true, noted, &f);
    f.ruling_rule_id = resp.ruling().rule_id();
    f.ruling_decision = resp.ruling().decision();
    AddRule(f.ruling_rule_id, &f);
  }
  return f;
}

RpcFacts Describe(const v1::GetViewRequest&, const v1::GetViewResponse& resp, bool ok,
                  bool detailed, const HandFacts* noted) {
  RpcFacts f;
  if (ok) FromUpdate(resp.update(), /*changed=*/false, detailed, /*need_game=*/false, noted, &f);
  f.rule_ids.clear();  // GetView returns the whole log: its rules are history, not this call's
  return f;
}

RpcFacts Describe(const v1::ExportHandHistoryRequest&, const v1::ExportHandHistoryResponse&, bool,
                  bool, const HandFacts*) {
  return {};
}

RpcFacts Describe(const v1::ReplayHandHistoryRequest&, const v1::ReplayHandHistoryResponse& resp,
                  bool ok, bool /*detailed*/, const HandFacts*) {
  RpcFacts f;
  if (ok) {
    f.variant = EnumLabel(v1::Variant_descriptor(), resp.variant(), "VARIANT_");
    AddRule(resp.divergence().rule_id(), &f);  // the rule a replayed record broke
  }
  return f;
}

RpcObservation::RpcObservation(const Observability* obs, const ClientMetadata& metadata,
                               RpcMethod method)
    : obs_(obs), method_(method) {
  if (obs_ == nullptr) return;
  start_ = std::chrono::steady_clock::now();
  if (obs_->metrics != nullptr) obs_->metrics->RpcStarted(method_);
  if (obs_->tracer != nullptr) {
    span_.emplace(obs_->tracer,
                  obs_->tracer->StartServerSpan(SpanName(method_), ParentFromMetadata(metadata)));
  }
}

void RpcObservation::Finish(const absl::Status& status, int grpc_code, const RpcFacts& facts) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string token_reason = TokenErrorReasonOf(status);
  const std::string error_rule = status.ok() ? "" : RuleIdOf(status);
  Metrics* m = obs_->metrics;
  if (m != nullptr) {
    m->RpcFinished(method_, grpc_code, seconds);
    if (facts.hand_started) m->HandStarted(facts.variant, facts.dealing_mode);
    if (facts.hand_finished) m->HandFinished(facts.variant, facts.dealing_mode);
    if (!facts.ruling_rule_id.empty()) m->IrregularityRuling(facts.ruling_rule_id);
    if (!token_reason.empty()) m->TokenRejected(token_reason);
    if (method_ == RpcMethod::kApplyAction &&
        status.code() == absl::StatusCode::kFailedPrecondition && !error_rule.empty()) {
      m->ActionRejected(error_rule);
    }
  }
  if (span_.has_value() && span_->sampled()) {
    SpanData& span = span_->span();
    span.attributes.push_back({"rpc.system", std::string("grpc")});
    span.attributes.push_back({"rpc.service", std::string("stud.v1.StudService")});
    span.attributes.push_back({"rpc.method", std::string(RpcMethodName(method_))});
    span.attributes.push_back({"rpc.grpc.status_code", int64_t{grpc_code}});
    if (!facts.variant.empty()) span.attributes.push_back({"stud.variant", facts.variant});
    if (!facts.dealing_mode.empty())
      span.attributes.push_back({"stud.dealing_mode", facts.dealing_mode});
    if (!facts.street.empty()) span.attributes.push_back({"stud.street", facts.street});
    if (absl::string_view hand_id = hand_facts_.hand_id(); !hand_id.empty())
      span.attributes.push_back({"stud.hand_id", std::string(hand_id)});
    std::vector<std::string> rules = facts.rule_ids;
    if (!error_rule.empty() && std::find(rules.begin(), rules.end(), error_rule) == rules.end()) {
      rules.push_back(error_rule);
    }
    if (!rules.empty()) span.attributes.push_back({"stud.rule_ids", rules});
    if (!status.ok()) {
      span.attributes.push_back({"stud.error_reason", ErrorReason(status)});
      span.error = true;
      span.status_message = std::string(status.message());
    }
  }
  if (!token_reason.empty()) {
    LogLine(trace(), LogLevel::kWarn, "token_rejected")
        .Str("method", RpcMethodName(method_))
        .Str("reason", token_reason);
  }
  if (!facts.ruling_rule_id.empty()) {
    LogLine(trace(), LogLevel::kInfo, "irregularity_ruling")
        .Str("method", RpcMethodName(method_))
        .Str("rule_id", facts.ruling_rule_id)
        .Str("decision", facts.ruling_decision)
        .Str("variant", facts.variant);
  }
  if (grpc_code == static_cast<int>(grpc::StatusCode::INTERNAL)) {
    LogLine(trace(), LogLevel::kError, "rpc_error")
        .Str("method", RpcMethodName(method_))
        .Str("code", "INTERNAL")
        .Str("message", status.message());
  } else if (!status.ok() && token_reason.empty() && LogEnabled(LogLevel::kDebug)) {
    LogLine(trace(), LogLevel::kDebug, "rpc_refused")
        .Str("method", RpcMethodName(method_))
        .Int("code", grpc_code)
        .Str("reason", ErrorReason(status))
        .Str("message", status.message());
  }
  if (span_.has_value()) span_->End();
}

}  // namespace stud::service
