#include "tools/cli/hand_file.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "tools/cli/commands.h"
#include "tools/cli/floor_reports.h"
#include "tools/cli/render.h"
#include "tools/cli/table_setup.h"
#include "tools/cli/token_file.h"
#include "tools/cli/vocabulary.h"

namespace stud_cli {
namespace {

// One statement of a hand file: where it is, its text without the comment,
// and its words (split on spaces and tabs).
struct Line {
  int number = 0;
  std::string text;
  std::vector<std::string> words;
};

// One hand file, statement by statement: setup lines fill the table, the
// first step starts the hand (NewHand) and each later step is sent or checked
// against the latest update.
class HandFileRunner {
 public:
  // `locale`: from --locale, overriding the file's `locale` line; nullopt: the file decides.
  HandFileRunner(Client* client, std::optional<v1::Locale> locale)
      : client_(client), forced_locale_(locale) {}

  // The hand's latest state (empty before the hand starts).
  const v1::HandUpdate& update() const { return u_; }

  // Returns the exit code.
  int Run(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
      std::fprintf(stderr, "stud_cli: cannot read %s\n", path.c_str());
      return 2;
    }
    std::vector<Line> lines;
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      std::string body = text.substr(0, text.find('#'));
      std::vector<std::string> words = absl::StrSplit(body, ' ', absl::SkipWhitespace());
      // Tabs count as spaces.
      std::vector<std::string> split;
      for (const std::string& w : words) {
        for (absl::string_view p : absl::StrSplit(w, '\t', absl::SkipEmpty()))
          split.emplace_back(p);
      }
      if (!split.empty())
        lines.push_back({n, std::string(absl::StripAsciiWhitespace(body)), split});
    }
    std::printf("Hand file %s\n", path.c_str());
    for (const Line& l : lines) {
      line_ = &l;
      const int rc =
          started_ ? Step(l) : (TableSetup::IsSetupLine(l.words[0]) ? Setup(l) : StartThen(l));
      if (rc != 0) return rc;
    }
    if (!started_) {
      if (int rc = Start(); rc != 0) return rc;
    }
    return End();
  }

 private:
  int Usage(const std::string& message) {
    std::printf("FILE ERROR line %d: %s\n  > %s\n", line_->number, message.c_str(),
                line_->text.c_str());
    return 2;
  }
  int Fail(const std::string& message) {
    std::printf("FAILED line %d: %s\n  > %s\n", line_->number, message.c_str(),
                line_->text.c_str());
    return 1;
  }

  int Setup(const Line& l) {
    // The line that chose the dealing mode: where a refusal of it points.
    if (TableSetup::ChoosesDealing(l.words[0]) && !dealing_line_) dealing_line_ = l;
    const std::string wrong = setup_.Add(l.words);
    return wrong.empty() ? 0 : Usage(wrong);
  }

  int StartThen(const Line& l) {
    if (int rc = Start(); rc != 0) return rc;
    return Step(l);
  }

  int Start() {
    if (const std::string missing = setup_.Incomplete(); !missing.empty()) return Usage(missing);
    const v1::NewHandRequest req = setup_.Request(forced_locale_);
    locale_ = req.locale();
    std::printf("%s\n", setup_.Summary().c_str());
    if (setup_.preset()) std::printf("Deck: %s\n", absl::StrJoin(req.preset_deck(), " ").c_str());
    if (auto err = client_->NewHand(req, &u_)) {
      const std::string why = DescribeError(*err);
      // A refused dealing mode is the setup's fault, not the line that
      // happened to start the hand.
      if (dealing_line_ && absl::StrContains(why, "dealing_mode")) line_ = &*dealing_line_;
      return Fail(absl::StrCat("NewHand refused: ", why));
    }
    started_ = true;
    published_ = u_.public_view().deck_commitment().commitment();
    const v1::CustomStakes& st = u_.public_view().stakes();
    std::printf("Stakes: ante %lld, bring-in %lld, small bet %lld, big bet %lld\n",
                static_cast<long long>(st.ante()), static_cast<long long>(st.bring_in()),
                static_cast<long long>(st.small_bet()), static_cast<long long>(st.big_bet()));
    PrintEvents(u_);
    PrintBoard(u_, /*omniscient=*/true);
    PrintNext();
    street_ = u_.public_view().street();
    phase_ = u_.public_view().phase();
    return 0;
  }

  void PrintNext() {
    if (u_.to_act() != 0) std::printf("   next: seat %d: %s\n", u_.to_act(), LegalList(u_).c_str());
    if (u_.public_view().phase() == v1::PHASE_AWAITING_DEAL && u_.has_expected_deal()) {
      std::printf("   next card: %s\n", DescribeExpectedDeal(u_.expected_deal()).c_str());
    }
  }

  // One state-changing step from w[at]: `seat N KIND [AMOUNT]`, `card ...` or
  // `irregularity ...`. Returns a usage message when malformed, else "" with
  // the outcome of the call in *err / *next / *ruling.
  std::string SendStep(const std::vector<std::string>& w, size_t at, std::optional<CallError>* err,
                       v1::HandUpdate* next, std::optional<v1::Ruling>* ruling) {
    ruling->reset();
    const std::string& key = w.size() > at ? w[at] : "";
    if (key == "card") {
      v1::Action action;
      if (!ParseCardReport(w, at, &action)) return "expected: card SEAT|board up|down CARD";
      *err = client_->Deal(u_, action, next, ruling);
      return "";
    }
    if (key == "burn" || key == "reshuffle") {
      v1::Action action;
      if (!ParseDealerStep(w, at, &action)) return "expected: burn [CARD [up]] | reshuffle";
      *err = client_->Deal(u_, action, next, ruling);
      return "";
    }
    if (key == "irregularity") {
      v1::IrregularityReport report;
      if (std::string bad = ParseIrregularity(w, at, &report); !bad.empty()) return bad;
      *err = client_->Rule(u_, report, next, ruling);
      return "";
    }
    int seat = 0;
    v1::ActionKind kind;
    int64_t amount = 0;
    if (!ParseAction(w, at, &seat, &kind, &amount)) {
      return "expected: seat N KIND [AMOUNT] (fold check call bring-in complete bet raise show "
             "muck "
             "declare-all-in decline-option)";
    }
    if (amount < 0) amount = DefaultAmount(seat, kind);
    *err = client_->Apply(u_, kind, seat, amount, next);
    return "";
  }

  // Parses "seat N KIND [AMOUNT]" from w[at]; amount -1 when left out.
  bool ParseAction(const std::vector<std::string>& w, size_t at, int* seat, v1::ActionKind* kind,
                   int64_t* amount) {
    if (w.size() < at + 3 || w.size() > at + 4 || w[at] != "seat" ||
        !absl::SimpleAtoi(w[at + 1], seat))
      return false;
    std::optional<v1::ActionKind> k = ParseKind(w[at + 2]);
    if (!k) return false;
    *kind = *k;
    *amount = -1;
    return w.size() == at + 3 || absl::SimpleAtoi(w[at + 3], amount);
  }

  int64_t DefaultAmount(int seat, v1::ActionKind kind) const {
    return seat == u_.to_act() ? LegalAmountOf(u_, kind) : 0;
  }

  std::optional<int64_t> StackOf(int seat) const {
    for (const v1::SeatView& s : u_.public_view().seats()) {
      if (s.seat() == seat) return s.stack();
    }
    return std::nullopt;
  }

  int Step(const Line& l) {
    const std::vector<std::string>& w = l.words;
    const std::string& key = w[0];
    if (TableSetup::IsSetupLine(key))
      return Usage(absl::StrCat("`", key, "` must come before the first step"));
    std::printf("[%d] %s\n", l.number, l.text.c_str());
    if (key == "seat" || key == "card" || key == "burn" || key == "reshuffle" ||
        key == "irregularity" || key == "expect-error") {
      const bool expect_error = key == "expect-error";
      if (expect_error && w.size() < 3) {
        return Usage(
            "expected: expect-error RULE-ID seat N KIND [AMOUNT] | card ... | irregularity ...");
      }
      std::optional<CallError> err;
      v1::HandUpdate next;
      std::optional<v1::Ruling> ruling;
      if (std::string bad = SendStep(w, expect_error ? 2 : 0, &err, &next, &ruling); !bad.empty()) {
        return Usage(expect_error ? absl::StrCat("expect-error RULE-ID then a step: ", bad) : bad);
      }
      if (expect_error) {
        if (!err)
          return Fail(absl::StrCat("expected refusal ", w[1], " but the step was accepted"));
        if (err->reason != w[1]) {
          return Fail(absl::StrCat("expected refusal ", w[1], " but got ", DescribeError(*err)));
        }
        std::printf("   refused as expected: %s\n", DescribeError(*err).c_str());
        return 0;
      }
      if (err) return Fail(absl::StrCat("refused: ", DescribeError(*err)));
      u_ = std::move(next);
      last_ruling_ = std::move(ruling);
      for (const v1::Operation& op : u_.operations())
        misdeal_ |= op.type() == v1::OPERATION_TYPE_MISDEAL;
      PrintEvents(u_);
      if (last_ruling_) PrintRuling(*last_ruling_, locale_);
      // The board again when a street is dealt, a ruling changed it or the showdown
      // begins (End prints the last one).
      if (u_.public_view().phase() != v1::PHASE_COMPLETE &&
          (u_.public_view().street() != street_ || u_.public_view().phase() != phase_ ||
           last_ruling_)) {
        PrintBoard(u_, /*omniscient=*/true);
      }
      street_ = u_.public_view().street();
      phase_ = u_.public_view().phase();
      PrintNext();
      return 0;
    }
    auto number = [&](size_t i, int64_t* v) { return w.size() > i && absl::SimpleAtoi(w[i], v); };
    int64_t a = 0, b = 0;
    if (key == "expect-stack") {
      if (w.size() != 3 || !number(1, &a) || !number(2, &b))
        return Usage("expected: expect-stack SEAT CHIPS");
      std::optional<int64_t> stack = StackOf(static_cast<int>(a));
      if (!stack) return Usage(absl::StrCat("no seat ", a));
      if (*stack != b) return Fail(absl::StrCat("seat ", a, " has ", *stack, ", expected ", b));
    } else if (key == "expect-pot") {
      if (w.size() != 2 || !number(1, &a)) return Usage("expected: expect-pot CHIPS");
      if (u_.public_view().pot_total() != a) {
        return Fail(absl::StrCat("the pot is ", u_.public_view().pot_total(), ", expected ", a));
      }
    } else if (key == "expect-to-act") {
      if (w.size() != 2 || !number(1, &a)) return Usage("expected: expect-to-act SEAT");
      if (u_.to_act() != a)
        return Fail(absl::StrCat("seat ", u_.to_act(), " is to act, expected ", a));
    } else if (key == "expect-street") {
      if (w.size() != 2 || !number(1, &a) || a < 3 || a > 7)
        return Usage("expected: expect-street 3..7");
      if (u_.public_view().street() != a) {
        return Fail(absl::StrCat("the hand is on ", StreetName(u_.public_view().street()),
                                 ", expected ", StreetName(static_cast<v1::Street>(a))));
      }
    } else if (key == "expect-phase") {
      if (w.size() != 2)
        return Usage("expected: expect-phase betting|awaiting-deal|showdown|complete");
      if (w[1] != PhaseKey(u_.public_view().phase())) {
        return Fail(
            absl::StrCat("the phase is ", PhaseKey(u_.public_view().phase()), ", expected ", w[1]));
      }
    } else if (key == "expect-ruling") {
      if (w.size() < 2 || w.size() > 3 || (w[1] == "none" && w.size() != 2)) {
        return Usage("expected: expect-ruling RULE-ID [DECISION], or expect-ruling none");
      }
      const std::string got =
          last_ruling_ ? absl::StrCat(last_ruling_->rule_id(), " ", last_ruling_->decision())
                       : "no ruling";
      if (w[1] == "none") {
        if (last_ruling_) return Fail(absl::StrCat("the previous step was ruled: ", got));
      } else if (!last_ruling_ || last_ruling_->rule_id() != w[1] ||
                 (w.size() == 3 && last_ruling_->decision() != w[2])) {
        return Fail(absl::StrCat("the previous step got ", got, ", expected ",
                                 absl::StrJoin(w.begin() + 1, w.end(), " ")));
      }
    } else if (key == "expect-deal") {
      int seat = 0;
      if (w.size() != 3 || !ParseDealSeat(w[1], &seat) || (w[2] != "up" && w[2] != "down")) {
        return Usage("expected: expect-deal SEAT|board up|down");
      }
      if (u_.public_view().phase() != v1::PHASE_AWAITING_DEAL) {
        return Fail(
            absl::StrCat("no card is due: the phase is ", PhaseKey(u_.public_view().phase())));
      }
      const v1::ExpectedDeal& d = u_.expected_deal();
      if (d.seat() != seat || d.face_up() != (w[2] == "up")) {
        return Fail(absl::StrCat("the next card goes to ", DescribeExpectedDeal(d), ", expected ",
                                 SeatOrBoard(seat), w[2] == "up" ? " face up" : " face down"));
      }
    } else if (key == "expect-legal") {
      const std::string want = absl::StrJoin(w.begin() + 1, w.end(), " ");
      if (LegalList(u_) != want) {
        return Fail(
            absl::StrCat("seat ", u_.to_act(), " may: ", LegalList(u_), "; expected: ", want));
      }
    } else if (key == "expect-won") {
      if (w.size() != 3 || !number(1, &a) || !number(2, &b))
        return Usage("expected: expect-won SEAT CHIPS");
      if (u_.public_view().phase() != v1::PHASE_COMPLETE)
        return Fail("the hand is not complete yet");
      if (!settled_) {
        if (auto err = client_->Resolve(u_, locale_, &settlement_)) {
          return Fail(absl::StrCat("ResolveShowdown failed: ", DescribeError(*err)));
        }
        settled_ = true;
      }
      auto it = settlement_.won().find(static_cast<int32_t>(a));
      const int64_t won = it == settlement_.won().end() ? 0 : it->second;
      if (won != b) return Fail(absl::StrCat("seat ", a, " won ", won, ", expected ", b));
    } else {
      return Usage(absl::StrCat("unknown statement `", key, "`"));
    }
    std::printf("   ok\n");
    return 0;
  }

  int End() {
    std::printf("\n");
    if (misdeal_) {
      PrintBoard(u_, /*omniscient=*/true);
      std::printf("Misdeal: the hand is void, no showdown. Stacks: %s\n", StacksList(u_).c_str());
      std::printf("PASS: every step and expectation held\n");
      return 0;
    }
    if (u_.public_view().phase() != v1::PHASE_COMPLETE) {
      std::printf("End of file; the hand is not complete (%s, %s).\n",
                  StreetName(u_.public_view().street()), PhaseName(u_.public_view().phase()));
      PrintBoard(u_, /*omniscient=*/true);
      std::printf("PASS: every step and expectation held\n");
      return 0;
    }
    PrintBoard(u_, /*omniscient=*/true);
    v1::ResolveShowdownResponse settlement;
    if (!FinishHand(*client_, u_, published_, locale_, &settlement)) {
      std::printf("FAILED: the settlement could not be checked\n");
      return 1;
    }
    std::printf("PASS: every step and expectation held\n");
    return 0;
  }

  Client* client_;
  const Line* line_ = nullptr;
  std::optional<Line> dealing_line_;  // the first deal, deck or cards line
  bool started_ = false;
  TableSetup setup_;
  std::optional<v1::Locale> forced_locale_;
  v1::Locale locale_ = v1::LOCALE_EN;  // the hand's, once started
  bool misdeal_ = false;
  std::optional<v1::Ruling> last_ruling_;
  v1::HandUpdate u_;
  // NewHand's deck commitment: what the revealed deck is checked against.
  std::string published_;
  v1::Street street_ = v1::STREET_UNSPECIFIED;
  v1::Phase phase_ = v1::PHASE_UNSPECIFIED;
  bool settled_ = false;
  v1::ResolveShowdownResponse settlement_;
};

}  // namespace

HandFileResult RunHandFile(Client& client, const std::string& path,
                           std::optional<v1::Locale> locale) {
  HandFileRunner runner(&client, locale);
  HandFileResult result;
  result.exit_code = runner.Run(path);
  result.last_token = runner.update().token();
  return result;
}

int RunCommand(const ServerOptions& server, const std::string& locale, const std::string& token_out,
               const std::string& path) {
  Client client(server.address, server.timeout_seconds);
  if (!client.Connect()) return 1;
  std::optional<v1::Locale> forced_locale;
  if (!locale.empty()) {
    forced_locale = ParseLocale(locale);
    if (!forced_locale) return std::fprintf(stderr, "stud_cli: --locale must be en or es\n"), 2;
  }
  const HandFileResult result = RunHandFile(client, path, forced_locale);
  if (!token_out.empty() && !result.last_token.empty() &&
      !WriteTokenFile(token_out, result.last_token)) {
    return 2;
  }
  return result.exit_code;
}

}  // namespace stud_cli
