// `export` and `replay`: PHH hand histories through the service
// (ExportHandHistory, ReplayHandHistory).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "tools/cli/client.h"
#include "tools/cli/commands.h"
#include "tools/cli/hand_file.h"
#include "tools/cli/token_file.h"
#include "tools/cli/vocabulary.h"

namespace stud_cli {

int ExportCommand(const ServerOptions& server, const std::string& source, bool from_run,
                  const ExportOptions& options) {
  Client client(server.address, server.timeout_seconds);
  if (!client.Connect()) return 1;
  std::string token;
  if (from_run) {
    // The hand file's output goes to stderr so that stdout is the PHH text alone.
    std::fflush(stdout);
    const int saved = dup(1);
    dup2(2, 1);
    const HandFileResult run = RunHandFile(client, source, std::nullopt);
    const int rc = run.exit_code;
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    if (run.last_token.empty()) {
      std::fprintf(stderr, "stud_cli: %s did not start a hand\n", source.c_str());
      return rc != 0 ? rc : 2;
    }
    if (rc != 0)
      std::fprintf(stderr, "stud_cli: %s stopped early (exit %d); exporting the hand so far\n",
                   source.c_str(), rc);
    token = run.last_token;
  } else {
    std::optional<std::string> t = ReadTokenFile(source);
    if (!t) {
      std::fprintf(stderr, "stud_cli: cannot read %s\n", source.c_str());
      return 2;
    }
    token = *t;
  }
  v1::ExportHandHistoryResponse resp;
  if (auto err = client.ExportHistory(token, options.viewer, options.reveal, &resp)) {
    std::fprintf(stderr, "stud_cli: ExportHandHistory refused: %s\n", DescribeError(*err).c_str());
    return 1;
  }
  const std::string& out_path = options.phh_out;
  if (out_path.empty()) {
    std::fwrite(resp.phh().data(), 1, resp.phh().size(), stdout);
  } else {
    std::ofstream out(out_path, std::ios::binary);
    out << resp.phh();
    if (!out) {
      std::fprintf(stderr, "stud_cli: cannot write %s\n", out_path.c_str());
      return 2;
    }
  }
  std::fprintf(stderr, "Exported version %llu (%s), %d hidden card(s)%s\n",
               static_cast<unsigned long long>(resp.version()),
               resp.complete() ? "complete" : "in progress", resp.hidden_cards(),
               out_path.empty() ? "" : absl::StrCat(" to ", out_path).c_str());
  return 0;
}

int ReplayCommand(const ServerOptions& server, const std::string& profile_name,
                  const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "stud_cli: cannot read %s\n", path.c_str());
    return 2;
  }
  const std::string phh((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<v1::Profile> profile = ParseProfile(profile_name);
  if (!profile) {
    std::fprintf(stderr, "stud_cli: --profile must be cash, tournament or online\n");
    return 2;
  }
  Client client(server.address, server.timeout_seconds);
  if (!client.Connect()) return 1;
  v1::ReplayHandHistoryResponse r;
  if (auto err = client.ReplayHistory(phh, *profile, &r)) {
    std::printf("Replay of %s refused: %s\n", path.c_str(), DescribeError(*err).c_str());
    return 2;
  }
  std::printf("Replay of %s: %s\n", path.c_str(), VariantName(r.variant()));
  std::printf("  %d of %d actions applied; legal: %s; complete: %s; stated result checked: %s\n",
              r.actions_applied(), r.action_count(), r.legal() ? "yes" : "no",
              r.complete() ? "yes" : "no", r.result_checked() ? "yes" : "no");
  for (const v1::ReplaySeat& s : r.seats()) {
    std::printf("  seat %d (p%d): stack %lld, won %lld\n", s.seat(), s.seat(),
                static_cast<long long>(s.stack()), static_cast<long long>(s.won()));
  }
  if (r.has_divergence()) {
    const v1::ReplayDivergence& d = r.divergence();
    if (d.point() == v1::REPLAY_POINT_ACTION) {
      std::printf("DIFFERS at action #%d '%s'\n", d.action_index(), d.action().c_str());
    } else {
      std::printf("DIFFERS in the %s\n",
                  d.point() == v1::REPLAY_POINT_SETUP ? "setup" : "stated result");
    }
    std::printf("  rule %s: %s\n", d.rule_id().empty() ? "(none)" : d.rule_id().c_str(),
                d.message().c_str());
    if (!d.expected().empty()) std::printf("  the rules allow: %s\n", d.expected().c_str());
  }
  std::printf("%s\n", r.summary().c_str());
  return r.matches() ? 0 : 1;
}

}  // namespace stud_cli
