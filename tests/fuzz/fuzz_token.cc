// Harness: token opening. Arbitrary bytes go (1) to Sealer::Open as a token
// (every refusal must be a token error), (2) to ParseSealedHand as a
// plaintext (the decoder behind the authenticated envelope: defence in depth
// against a key holder or a decoder bug) and (3) sealed with the real key
// into a token that every RPC then takes: whatever state the bytes decode
// to, the service answers or refuses, never crashes.
//
// STUD_FUZZ_WRITE_SEEDS=<dir>: write real plaintexts and tokens of hands at
// several stages as seeds, then exit (tests/fuzz/corpus/fuzz_token).
#include <fstream>

#include "fuzz_common.h"
#include "service/token/codec.h"

namespace stud::fuzz {
namespace {

void WriteSeeds(const char* dir) {
  const service::HandService& s = Service();
  int n = 0;
  auto write = [&](const std::string& bytes) {
    std::ofstream(std::string(dir) + "/seed-" + std::to_string(n++), std::ios::binary) << bytes;
  };
  for (int variant = 1; variant <= 3; ++variant) {
    for (const bool live : {false, true}) {
      v1::NewHandRequest req;
      req.set_variant(static_cast<v1::Variant>(variant));
      req.mutable_stakes()->set_preset("$15-$30");
      for (int i = 1; i <= 2 + variant * 2; ++i) {
        auto* seat = req.add_seats();
        seat->set_seat(i);
        seat->set_stack(2000);
      }
      req.set_dealing_mode(live ? v1::DEALING_MODE_LIVE : v1::DEALING_MODE_PRESET);
      if (!live) {
        for (int c = 0; c < 52; ++c) req.add_preset_deck(CardText((c * 7) % 52));
      }
      v1::NewHandResponse start;
      if (!s.NewHand(req, &start).ok()) std::abort();
      v1::HandUpdate u = start.update();
      int next_card = 0;
      for (int step = 0; step < 120 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
        if (step % 15 == 0) {
          write(*FuzzSealer().Open(u.token()));
          write(u.token());
        }
        v1::ApplyActionRequest a;
        a.set_token(u.token());
        const v1::LegalAction& la = u.legal_actions(step % u.legal_actions_size());
        a.mutable_action()->set_kind(la.kind());
        a.mutable_action()->set_amount_to(la.amount_to());
        a.mutable_action()->set_seat(u.to_act());
        if (la.kind() == v1::ACTION_KIND_DEAL) {
          a.mutable_action()->set_seat(u.expected_deal().seat());
          a.mutable_action()->set_face_up(u.expected_deal().face_up());
          a.mutable_action()->set_card(CardText((next_card++ * 11) % 52));
        }
        v1::ApplyActionResponse r;
        if (!s.ApplyAction(a, &r).ok()) break;
        u = r.update();
      }
      write(*FuzzSealer().Open(u.token()));
    }
  }
  std::printf("wrote %d seeds to %s\n", n, dir);
}

void RunAll(const std::string& token, const std::string& tail) {
  const service::HandService& s = Service();
  v1::GetViewRequest g;
  g.set_token(token);
  g.add_private_view_seats(1);
  v1::GetViewResponse gr;
  CheckStatus(s.GetView(g, &gr), "GetView");
  for (int seat = 0; seat <= 2; ++seat) {
    v1::LegalActionsRequest l;
    l.set_token(token);
    l.set_seat(seat);
    v1::LegalActionsResponse lr;
    CheckStatus(s.LegalActions(l, &lr), "LegalActions");
  }
  v1::ResolveShowdownRequest sd;
  sd.set_token(token);
  v1::ResolveShowdownResponse sr;
  CheckStatus(s.ResolveShowdown(sd, &sr), "ResolveShowdown");
  v1::ExportHandHistoryRequest ex;
  ex.set_token(token);
  v1::ExportHandHistoryResponse er;
  CheckStatus(s.ExportHandHistory(ex, &er), "ExportHandHistory");
  // A few actions: each legal one offered, then whatever the tail says.
  if (gr.update().legal_actions_size() > 0) {
    for (const v1::LegalAction& la : gr.update().legal_actions()) {
      v1::ApplyActionRequest a;
      a.set_token(token);
      a.mutable_action()->set_kind(la.kind());
      a.mutable_action()->set_amount_to(la.amount_to());
      a.mutable_action()->set_seat(la.kind() == v1::ACTION_KIND_DEAL
                                       ? gr.update().expected_deal().seat()
                                       : gr.update().to_act());
      if (la.kind() == v1::ACTION_KIND_DEAL) a.mutable_action()->set_card("Ah");
      v1::ApplyActionResponse ar;
      CheckStatus(s.ApplyAction(a, &ar), "ApplyAction");
    }
  }
  FuzzedDataProvider p(reinterpret_cast<const uint8_t*>(tail.data()), tail.size());
  v1::RuleIrregularityResponse rr;
  CheckStatus(s.RuleIrregularity(FuzzReport(p, token), &rr), "RuleIrregularity");
}

}  // namespace
}  // namespace stud::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("STUD_FUZZ_WRITE_SEEDS")) {
    stud::fuzz::WriteSeeds(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stud;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // (1) as a token.
  absl::StatusOr<std::string> opened = fuzz::FuzzSealer().Open(bytes);
  if (!opened.ok() && (opened.status().code() != absl::StatusCode::kUnauthenticated &&
                       opened.status().code() != absl::StatusCode::kPermissionDenied)) {
    std::abort();
  }
  // (2) as a plaintext, and (3) sealed and played.
  absl::StatusOr<service::SealedHand> hand =
      service::ParseSealedHand(opened.ok() ? *opened : bytes);
  if (!hand.ok()) {
    if (hand.status().code() == absl::StatusCode::kUnknown) std::abort();
    return 0;
  }
  const std::string token = fuzz::FuzzSealer().Seal(opened.ok() ? *opened : bytes);
  fuzz::RunAll(token, bytes.substr(bytes.size() / 2));
  return 0;
}
