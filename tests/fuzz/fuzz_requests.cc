// Harness: request decoding plus engine actions. The input is either raw
// protobuf bytes of a request (first byte even: decoding of hostile wire
// data, each RPC in turn) or a script (first byte odd): a NewHand built from
// fuzz bytes, then up to 200 steps of actions (legal or arbitrary),
// LegalActions, GetView, ResolveShowdown and requests parsed from fuzz bytes
// with the live token inserted.
#include "fuzz_common.h"

namespace stud::fuzz {
namespace {

void RawRequests(const uint8_t* data, size_t size) {
  const service::HandService& s = Service();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  v1::NewHandRequest nh;
  if (nh.ParseFromString(bytes)) {  // SERVICE dealing included: ReseedRandomness
    v1::NewHandResponse r;
    const absl::Status st = s.NewHand(nh, &r);
    CheckStatus(st, "NewHand");
    if (st.ok()) CheckUpdate(r.update());
  }
  v1::ResolveShowdownRequest sd;
  if (sd.ParseFromString(bytes)) {
    v1::ResolveShowdownResponse r;
    CheckStatus(s.ResolveShowdown(sd, &r), "ResolveShowdown");
  }
  v1::ApplyActionRequest aa;
  if (aa.ParseFromString(bytes)) {
    v1::ApplyActionResponse r;
    CheckStatus(s.ApplyAction(aa, &r), "ApplyAction");
  }
  v1::RuleIrregularityRequest ri;
  if (ri.ParseFromString(bytes)) {
    v1::RuleIrregularityResponse r;
    CheckStatus(s.RuleIrregularity(ri, &r), "RuleIrregularity");
  }
}

void Script(FuzzedDataProvider& p) {
  const service::HandService& s = Service();
  v1::NewHandResponse start;
  const absl::Status st =
      s.NewHand(FuzzNewHand(p, /*live=*/p.ConsumeProbability<float>() < 0.2f), &start);
  CheckStatus(st, "NewHand");
  if (!st.ok()) return;
  CheckUpdate(start.update());
  v1::HandUpdate u = start.update();
  for (int step = 0; step < 200 && p.remaining_bytes() > 0; ++step) {
    switch (p.ConsumeIntegralInRange<int>(0, 9)) {
      case 0: {
        v1::LegalActionsRequest r;
        r.set_token(u.token());
        r.set_seat(p.ConsumeIntegralInRange<int>(-1, 9));
        v1::LegalActionsResponse resp;
        CheckStatus(s.LegalActions(r, &resp), "LegalActions");
        break;
      }
      case 1: {
        v1::GetViewRequest r;
        r.set_token(u.token());
        if (p.ConsumeBool()) r.add_private_view_seats(p.ConsumeIntegralInRange<int>(-1, 9));
        v1::GetViewResponse resp;
        const absl::Status g = s.GetView(r, &resp);
        CheckStatus(g, "GetView");
        if (g.ok() && resp.update().token() != u.token())
          std::abort();  // GetView never changes the hand
        break;
      }
      case 2: {
        v1::ResolveShowdownRequest r;
        r.set_token(u.token());
        v1::ResolveShowdownResponse resp;
        CheckStatus(s.ResolveShowdown(r, &resp), "ResolveShowdown");
        break;
      }
      case 3: {  // a request decoded from fuzz bytes, on the live token
        v1::ApplyActionRequest r;
        if (!r.ParseFromString(p.ConsumeRandomLengthString(64))) break;
        r.set_token(u.token());
        v1::ApplyActionResponse resp;
        const absl::Status a = s.ApplyAction(r, &resp);
        CheckStatus(a, "ApplyAction");
        if (a.ok()) u = resp.update();
        break;
      }
      default: {
        v1::ApplyActionRequest r;
        r.set_token(u.token());
        *r.mutable_action() = FuzzAction(p, u);
        if (p.ConsumeProbability<float>() < 0.05f)
          r.set_expected_version(p.ConsumeIntegralInRange<uint64_t>(0, 80));
        if (p.ConsumeBool()) r.add_private_view_seats(p.ConsumeIntegralInRange<int>(1, 8));
        v1::ApplyActionResponse resp;
        const absl::Status a = s.ApplyAction(r, &resp);
        CheckStatus(a, "ApplyAction");
        if (a.ok()) {
          CheckUpdate(resp.update());
          if (resp.update().version() <= u.version())
            std::abort();  // every accepted action moves the version
          u = resp.update();
        }
        break;
      }
    }
  }
}

}  // namespace
}  // namespace stud::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  stud::fuzz::Service();  // installs the reproducible randomness first
  stud::fuzz::ReseedRandomness(data, size);
  if (data[0] % 2 == 0) {
    stud::fuzz::RawRequests(data + 1, size - 1);
  } else {
    FuzzedDataProvider p(data + 1, size - 1);
    stud::fuzz::Script(p);
  }
  return 0;
}
