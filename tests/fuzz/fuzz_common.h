// Shared parts of the libFuzzer harnesses (tests/fuzz/README.md): one
// HandService with a fixed key, presets allowed, and the one property every
// harness checks besides the sanitizers: each answer is OK or a documented
// error (never UNKNOWN, INTERNAL or another code), and an OK answer is
// well formed.
#ifndef STUD_TESTS_FUZZ_FUZZ_COMMON_H_
#define STUD_TESTS_FUZZ_FUZZ_COMMON_H_

#include <fuzzer/FuzzedDataProvider.h>
#include <sodium.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "service/server/stud_service.h"
#include "service/token/sealer.h"
#include "stud/v1/stud.pb.h"

namespace stud::fuzz {
namespace v1 = stud::v1;

// SERVICE dealing (the shuffle, the salt, the hand id) draws from libsodium's
// randombytes. The harnesses replace it with a deterministic generator
// (splitmix64) reseeded from each input, so SERVICE hands are fuzzed too and a
// finding replays exactly.
namespace reproducible {
inline uint64_t state = 0;
inline uint64_t Next() {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline const char* Name() { return "stud-fuzz-reproducible"; }
inline uint32_t Random() { return static_cast<uint32_t>(Next()); }
inline void Buf(void* const buf, const size_t size) {
  auto* out = static_cast<unsigned char*>(buf);
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(Next());
}
inline randombytes_implementation implementation = {Name, Random, nullptr, nullptr, Buf, nullptr};
}  // namespace reproducible

// Call at the start of every input: the same input deals the same cards.
inline void ReseedRandomness(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  reproducible::state = h;
}

inline const service::Sealer& FuzzSealer() {
  static const service::Sealer* sealer = [] {
    // Before sodium_init: libsodium takes the implementation only then.
    if (randombytes_set_implementation(&reproducible::implementation) != 0) std::abort();
    if (!service::InitCrypto().ok()) std::abort();
    service::Key k;
    k.id = 1;
    k.bytes.fill(7);
    return new service::Sealer(*service::Sealer::Create({k}, service::kGcmSivTokenFormat));
  }();
  return *sealer;
}

inline const service::HandService& Service() {
  static const service::HandService* s = [] {
    service::ServiceOptions options;
    options.allow_preset = true;
    return new service::HandService(&FuzzSealer(), options);
  }();
  return *s;
}

// Aborts (a libFuzzer finding) on an undocumented status.
inline void CheckStatus(const absl::Status& st, const char* rpc) {
  switch (st.code()) {
    case absl::StatusCode::kOk:
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kUnauthenticated:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kAborted:
      return;
    default:
      std::fprintf(stderr, "%s: undocumented status %s\n", rpc, st.ToString().c_str());
      std::abort();
  }
}

inline void CheckUpdate(const v1::HandUpdate& u) {
  if (u.token().empty() || u.public_view().seats_size() < 2 || u.public_view().seats_size() > 8) {
    std::fprintf(stderr, "malformed update: %s\n", u.ShortDebugString().c_str());
    std::abort();
  }
}

inline std::string CardText(int index) {
  static const char kRanks[] = "23456789TJQKA";
  static const char kSuits[] = "cdhs";
  return std::string{kRanks[index / 4], kSuits[index % 4]};
}

// A card as a fuzzer might write it: mostly valid, sometimes not.
inline std::string FuzzCard(FuzzedDataProvider& p) {
  const uint8_t b = p.ConsumeIntegral<uint8_t>();
  if (b < 208) return CardText(b % 52);
  return p.ConsumeRandomLengthString(4);
}

// A NewHandRequest from fuzz bytes: variant, seats, stacks, stakes, options,
// and LIVE dealing, or PRESET dealing with a fuzz-chosen permutation, or
// SERVICE dealing (reproducible: ReseedRandomness).
inline v1::NewHandRequest FuzzNewHand(FuzzedDataProvider& p, bool live) {
  v1::NewHandRequest req;
  req.set_variant(static_cast<v1::Variant>(p.ConsumeIntegralInRange<int>(0, 4)));
  if (p.ConsumeBool()) {
    static const char* kPresets[] = {"$15-$30", "$1-$2", "$4-$8", "$100-$200", "$2-$4", "bogus"};
    req.mutable_stakes()->set_preset(kPresets[p.ConsumeIntegralInRange<int>(0, 5)]);
  } else {
    auto* c = req.mutable_stakes()->mutable_custom();
    c->set_ante(p.ConsumeIntegralInRange<int64_t>(-2, 200));
    c->set_bring_in(p.ConsumeIntegralInRange<int64_t>(-1, 300));
    c->set_small_bet(p.ConsumeIntegralInRange<int64_t>(0, 600));
    c->set_big_bet(p.ConsumeIntegralInRange<int64_t>(0, 1300));
  }
  const int seats = p.ConsumeIntegralInRange<int>(1, 9);
  for (int i = 1; i <= seats; ++i) {
    v1::SeatConfig* s = req.add_seats();
    s->set_seat(p.ConsumeProbability<float>() < 0.97f ? i : p.ConsumeIntegralInRange<int>(-1, 10));
    s->set_stack(p.ConsumeBool() ? p.ConsumeIntegralInRange<int64_t>(1, 5000)
                                 : p.ConsumeIntegralInRange<int64_t>(-10, int64_t{1} << 42));
  }
  req.set_profile(static_cast<v1::Profile>(p.ConsumeIntegralInRange<int>(0, 4)));
  auto* o = req.mutable_option_overrides();
  if (p.ConsumeBool())
    o->set_bring_in_source(static_cast<v1::BringInSource>(p.ConsumeIntegralInRange<int>(0, 3)));
  if (p.ConsumeBool())
    o->set_deck_exhaustion(static_cast<v1::DeckExhaustion>(p.ConsumeIntegralInRange<int>(0, 4)));
  if (p.ConsumeBool())
    o->set_short_all_in_rule(static_cast<v1::ShortAllInRule>(p.ConsumeIntegralInRange<int>(0, 3)));
  if (p.ConsumeBool()) o->set_max_raises_per_round(p.ConsumeIntegralInRange<int>(-1, 6));
  if (p.ConsumeBool()) o->set_burn_before_third(p.ConsumeBool());
  if (p.ConsumeBool()) o->set_uncapped_heads_up(p.ConsumeBool());
  if (p.ConsumeBool())
    o->set_faceup_final_option(
        static_cast<v1::FaceupFinalOption>(p.ConsumeIntegralInRange<int>(0, 3)));
  if (p.ConsumeBool())
    o->set_exposed_holecard(static_cast<v1::ExposedHolecard>(p.ConsumeIntegralInRange<int>(0, 3)));
  if (p.ConsumeBool()) o->set_odd_chip_unit(p.ConsumeIntegralInRange<int64_t>(-1, 100));
  req.set_locale(static_cast<v1::Locale>(p.ConsumeIntegralInRange<int>(0, 3)));
  if (live) {
    req.set_dealing_mode(v1::DEALING_MODE_LIVE);
  } else if (p.ConsumeBool()) {
    req.set_dealing_mode(v1::DEALING_MODE_SERVICE);
  } else {
    req.set_dealing_mode(v1::DEALING_MODE_PRESET);
    std::vector<int> deck(52);
    for (int i = 0; i < 52; ++i) deck[static_cast<size_t>(i)] = i;
    for (int i = 51; i > 0; --i)
      std::swap(deck[static_cast<size_t>(i)],
                deck[p.ConsumeIntegralInRange<size_t>(0, static_cast<size_t>(i))]);
    for (int c : deck) req.add_preset_deck(CardText(c));
    if (p.ConsumeProbability<float>() < 0.05f)
      req.set_preset_deck(p.ConsumeIntegralInRange<int>(0, 51), FuzzCard(p));
    if (p.ConsumeProbability<float>() < 0.05f) req.mutable_preset_deck()->RemoveLast();
  }
  const int views = p.ConsumeIntegralInRange<int>(0, 2);
  for (int i = 0; i < views; ++i) req.add_private_view_seats(p.ConsumeIntegralInRange<int>(0, 9));
  return req;
}

// One random irregularity report on `token`.
inline v1::RuleIrregularityRequest FuzzReport(FuzzedDataProvider& p, const std::string& token) {
  v1::RuleIrregularityRequest r;
  r.set_token(token);
  v1::IrregularityReport* rep = r.mutable_report();
  rep->set_kind(static_cast<v1::IrregularityKind>(p.ConsumeIntegralInRange<int>(0, 17)));
  rep->set_seat(p.ConsumeIntegralInRange<int>(-1, 9));
  const int cards = p.ConsumeIntegralInRange<int>(0, 3);
  for (int i = 0; i < cards; ++i) rep->add_cards(FuzzCard(p));
  rep->set_street(
      static_cast<v1::Street>(p.ConsumeBool() ? 0 : p.ConsumeIntegralInRange<int>(2, 8)));
  if (p.ConsumeBool())
    rep->set_action(static_cast<v1::ActionKind>(p.ConsumeIntegralInRange<int>(0, 15)));
  rep->set_amount_to(p.ConsumeIntegralInRange<int64_t>(-5, 5000));
  rep->set_next_acted(p.ConsumeBool());
  rep->set_burn_delta(p.ConsumeIntegralInRange<int>(-3, 3));
  const int moves = p.ConsumeIntegralInRange<int>(0, 3);
  for (int i = 0; i < moves; ++i) {
    auto* m = rep->add_moves();
    m->set_seat(p.ConsumeIntegralInRange<int>(-1, 9));
    m->set_card(FuzzCard(p));
  }
  const int kept = p.ConsumeIntegralInRange<int>(0, 3);
  for (int i = 0; i < kept; ++i) rep->add_kept_seats(p.ConsumeIntegralInRange<int>(-1, 9));
  rep->set_card_count(p.ConsumeIntegralInRange<int>(-1, 9));
  rep->set_declare_live(p.ConsumeBool());
  rep->set_allowance_remaining(p.ConsumeIntegralInRange<int>(-1, 3));
  rep->set_disconnect(p.ConsumeBool());
  if (p.ConsumeProbability<float>() < 0.1f) rep->set_kept_card(FuzzCard(p));
  if (p.ConsumeBool()) r.set_expected_version(p.ConsumeIntegralInRange<uint64_t>(0, 60));
  if (p.ConsumeBool()) r.add_private_view_seats(p.ConsumeIntegralInRange<int>(1, 8));
  return r;
}

// A betting action: one of the legal ones (so hands progress) or anything.
inline v1::Action FuzzAction(FuzzedDataProvider& p, const v1::HandUpdate& u) {
  v1::Action a;
  if (u.legal_actions_size() > 0 && p.ConsumeProbability<float>() < 0.8f) {
    const v1::LegalAction& la =
        u.legal_actions(p.ConsumeIntegralInRange<int>(0, u.legal_actions_size() - 1));
    a.set_kind(la.kind());
    a.set_amount_to(la.amount_to());
    a.set_seat(u.to_act());
    if (la.kind() == v1::ACTION_KIND_DEAL) {
      a.set_seat(u.expected_deal().seat());
      a.set_face_up(u.expected_deal().face_up());
      a.set_card(FuzzCard(p));
    }
    // Sometimes a legal kind with another amount.
    if (p.ConsumeProbability<float>() < 0.1f)
      a.set_amount_to(p.ConsumeIntegralInRange<int64_t>(-1, 100000));
    return a;
  }
  a.set_kind(static_cast<v1::ActionKind>(p.ConsumeIntegralInRange<int>(0, 15)));
  a.set_seat(p.ConsumeIntegralInRange<int>(-1, 9));
  a.set_amount_to(p.ConsumeIntegral<int64_t>());
  if (p.ConsumeBool()) a.set_card(FuzzCard(p));
  a.set_face_up(p.ConsumeBool());
  return a;
}

}  // namespace stud::fuzz

#endif  // STUD_TESTS_FUZZ_FUZZ_COMMON_H_
