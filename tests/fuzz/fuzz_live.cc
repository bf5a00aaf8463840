// Harness: LIVE dealing and irregularity reports. A LIVE hand from fuzz
// bytes; then up to 300 steps of card reports (the expected seat and
// orientation or any other, any card: duplicates, malformed, the board),
// betting actions and RuleIrregularity reports of every kind with fuzz-chosen
// seats, cards, streets, moves and flags. Every answer is OK or documented;
// an accepted report or ruling always returns a well-formed hand.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stud::fuzz;
  const stud::service::HandService& s = Service();
  ReseedRandomness(data, size);
  FuzzedDataProvider p(data, size);
  v1::NewHandResponse start;
  const absl::Status st = s.NewHand(FuzzNewHand(p, /*live=*/true), &start);
  CheckStatus(st, "NewHand");
  if (!st.ok()) return 0;
  v1::HandUpdate u = start.update();
  for (int step = 0; step < 300 && p.remaining_bytes() > 0; ++step) {
    const int what = p.ConsumeIntegralInRange<int>(0, 9);
    if (what <= 5) {  // a card report
      v1::ApplyActionRequest r;
      r.set_token(u.token());
      v1::Action* a = r.mutable_action();
      a->set_kind(v1::ACTION_KIND_DEAL);
      const bool as_expected = p.ConsumeProbability<float>() < 0.85f;
      a->set_seat(as_expected ? u.expected_deal().seat() : p.ConsumeIntegralInRange<int>(-1, 9));
      a->set_face_up(as_expected && p.ConsumeProbability<float>() < 0.9f
                         ? u.expected_deal().face_up()
                         : p.ConsumeBool());
      a->set_card(FuzzCard(p));
      v1::ApplyActionResponse resp;
      const absl::Status d = s.ApplyAction(r, &resp);
      CheckStatus(d, "ApplyAction(DEAL)");
      if (d.ok()) {
        CheckUpdate(resp.update());
        u = resp.update();
      }
    } else if (what <= 7) {  // betting
      v1::ApplyActionRequest r;
      r.set_token(u.token());
      *r.mutable_action() = FuzzAction(p, u);
      v1::ApplyActionResponse resp;
      const absl::Status a = s.ApplyAction(r, &resp);
      CheckStatus(a, "ApplyAction");
      if (a.ok()) {
        CheckUpdate(resp.update());
        u = resp.update();
      }
    } else {  // an irregularity report
      v1::RuleIrregularityResponse resp;
      const absl::Status r = s.RuleIrregularity(FuzzReport(p, u.token()), &resp);
      CheckStatus(r, "RuleIrregularity");
      if (r.ok()) {
        CheckUpdate(resp.update());
        if (resp.ruling().rule_id().empty()) std::abort();  // a ruling always names its rule
        u = resp.update();
      }
    }
  }
  return 0;
}
