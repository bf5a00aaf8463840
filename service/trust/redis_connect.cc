#include "service/trust/redis_connect.h"

#include <hiredis/hiredis.h>
#include <signal.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace stud::service {
namespace {

using ReplyPtr = std::unique_ptr<redisReply, void (*)(void*)>;

ReplyPtr Command(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> argvlen;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    argvlen.push_back(a.size());
  }
  return ReplyPtr(static_cast<redisReply*>(redisCommandArgv(c, static_cast<int>(argv.size()),
                                                            argv.data(), argvlen.data())),
                  freeReplyObject);
}

absl::string_view Str(const redisReply* r) {
  return r != nullptr && r->str != nullptr ? absl::string_view(r->str, r->len)
                                           : absl::string_view();
}

std::string Where(const RedisAddress& a) { return absl::StrCat(a.host, ":", a.port); }

// "HOST[:PORT]" with `default_port`; false when the port is not 1..65535.
bool ParseAddress(absl::string_view text, int default_port, RedisAddress* out) {
  const size_t colon = text.rfind(':');
  out->host = std::string(colon == absl::string_view::npos ? text : text.substr(0, colon));
  out->port = default_port;
  if (colon != absl::string_view::npos && (!absl::SimpleAtoi(text.substr(colon + 1), &out->port) ||
                                           out->port < 1 || out->port > 65535)) {
    return false;
  }
  return !out->host.empty();
}

// A plain connection with the timeouts; null and `error` when refused.
redisContext* Dial(const RedisAddress& a, const RedisLedgerOptions& o, absl::Duration read_timeout,
                   std::string* error) {
  // hiredis writes with write(2). A write to a connection Redis has closed, or
  // that the watch hub shut down to stop its reader, must fail with EPIPE (the
  // call then answers UNAVAILABLE), not kill the process: every connection to
  // the ledger's Redis is made here, so this is the one place that says so.
  static const bool kSigpipeIgnored = [] { return signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  (void)kSigpipeIgnored;
  redisContext* c =
      redisConnectWithTimeout(a.host.c_str(), a.port, absl::ToTimeval(o.connect_timeout));
  if (c == nullptr || c->err != 0) {
    *error = absl::StrCat(Where(a), ": ", c != nullptr ? c->errstr : "out of memory");
    if (c != nullptr) redisFree(c);
    return nullptr;
  }
  redisSetTimeout(c, absl::ToTimeval(read_timeout));
  redisEnableKeepAlive(c);
  return c;
}

// Connects to `a` (AUTH, and ROLE when `must_be_master`).
RedisConnection ConnectTo(const RedisAddress& a, const RedisLedgerOptions& o,
                          absl::Duration read_timeout, bool must_be_master) {
  RedisConnection out;
  out.address = a;
  std::string error;
  redisContext* c = Dial(a, o, read_timeout, &error);
  if (c == nullptr) {
    out.failure = RedisConnectFailure::kUnreachable;
    out.error = absl::StrCat("cannot connect to redis at ", error);
    return out;
  }
  if (!o.password.empty()) {
    ReplyPtr r = Command(c, {"AUTH", o.password});
    if (r == nullptr || r->type == REDIS_REPLY_ERROR) {
      out.failure = r == nullptr ? RedisConnectFailure::kUnreachable : RedisConnectFailure::kAuth;
      out.error = r == nullptr ? absl::StrCat("redis at ", Where(a), ": AUTH: ", c->errstr)
                               : absl::StrCat("redis at ", Where(a), " refused the password (",
                                              Str(r.get()), ")");
      redisFree(c);
      return out;
    }
  }
  if (must_be_master) {
    ReplyPtr r = Command(c, {"ROLE"});
    const bool master = r != nullptr && r->type == REDIS_REPLY_ARRAY && r->elements > 0 &&
                        Str(r->element[0]) == "master";
    if (!master) {
      const bool noauth =
          r != nullptr && r->type == REDIS_REPLY_ERROR && absl::StartsWith(Str(r.get()), "NOAUTH");
      out.failure = r == nullptr ? RedisConnectFailure::kUnreachable
                    : noauth     ? RedisConnectFailure::kAuth
                                 : RedisConnectFailure::kNotMaster;
      out.error = r == nullptr ? absl::StrCat("redis at ", Where(a), ": ROLE: ", c->errstr)
                  : noauth     ? absl::StrCat("redis at ", Where(a),
                                              " needs a password (--ledger_password_file)")
                  : r->type == REDIS_REPLY_ARRAY && r->elements > 0
                      ? absl::StrCat("redis at ", Where(a), " is a ", Str(r->element[0]),
                                     ", not the master (a failover is under way)")
                      : absl::StrCat("redis at ", Where(a), ": ROLE: ", Str(r.get()));
      redisFree(c);
      return out;
    }
  } else if (o.password.empty()) {
    // Without AUTH a server that needs a password accepts the connection and
    // refuses every command: say so here rather than on each call.
    ReplyPtr r = Command(c, {"PING"});
    if (r != nullptr && r->type == REDIS_REPLY_ERROR && absl::StartsWith(Str(r.get()), "NOAUTH")) {
      out.failure = RedisConnectFailure::kAuth;
      out.error = absl::StrCat("redis at ", Where(a), " needs a password (--ledger_password_file)");
      redisFree(c);
      return out;
    }
  }
  out.context = c;
  return out;
}

}  // namespace

absl::StatusOr<RedisLedgerOptions> ParseLedgerUrl(absl::string_view url) {
  constexpr absl::string_view kScheme = "redis://";
  constexpr absl::string_view kSentinelScheme = "redis-sentinel://";
  const bool sentinel = absl::StartsWith(url, kSentinelScheme);
  if (!sentinel && !absl::StartsWith(url, kScheme)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--ledger: expected redis://HOST:PORT or redis-sentinel://HOST:PORT,.../MASTER, got '", url,
        "'"));
  }
  absl::string_view rest = url.substr(sentinel ? kSentinelScheme.size() : kScheme.size());
  RedisLedgerOptions out;
  if (size_t at = rest.rfind('@'); at != absl::string_view::npos) {
    absl::string_view user = rest.substr(0, at);
    const size_t colon = user.find(':');
    out.password = std::string(colon == absl::string_view::npos ? user : user.substr(colon + 1));
    rest = rest.substr(at + 1);
  }
  if (sentinel) {
    const size_t slash = rest.find('/');
    if (slash == absl::string_view::npos || slash + 1 >= rest.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--ledger: redis-sentinel:// needs the master's name after the addresses (",
                       "redis-sentinel://HOST:PORT,HOST:PORT/MASTER), got '", url, "'"));
    }
    absl::string_view name = rest.substr(slash + 1);
    while (!name.empty() && name.back() == '/') name.remove_suffix(1);
    out.master_name = std::string(name);
    for (absl::string_view a : absl::StrSplit(rest.substr(0, slash), ',')) {
      RedisAddress s;
      if (!ParseAddress(a, 26379, &s)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--ledger: bad Sentinel address '", a, "' in '", url, "'"));
      }
      out.sentinels.push_back(std::move(s));
    }
    return out;
  }
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find('/') != absl::string_view::npos) {
    return absl::InvalidArgumentError(
        "--ledger: a database number is not supported (keys live in database 0)");
  }
  RedisAddress a;
  if (!ParseAddress(rest, 6379, &a)) {
    return absl::InvalidArgumentError(absl::StrCat("--ledger: bad host or port in '", url, "'"));
  }
  out.host = a.host;
  out.port = a.port;
  return out;
}

std::string DescribeLedgerAddress(const RedisLedgerOptions& o) {
  if (o.sentinels.empty()) return absl::StrCat(o.host, ":", o.port);
  return absl::StrCat("sentinel master ", o.master_name, " via ",
                      absl::StrJoin(o.sentinels, ",", [](std::string* s, const RedisAddress& a) {
                        absl::StrAppend(s, Where(a));
                      }));
}

const char* RedisConnectFailureName(RedisConnectFailure f) {
  switch (f) {
    case RedisConnectFailure::kNone:
      return "none";
    case RedisConnectFailure::kUnreachable:
      return "unreachable";
    case RedisConnectFailure::kNoMaster:
      return "no_master";
    case RedisConnectFailure::kNotMaster:
      return "not_master";
    case RedisConnectFailure::kAuth:
      return "auth";
    case RedisConnectFailure::kSentinelAuth:
      return "sentinel_auth";
  }
  return "unknown";
}

RedisConnection ConnectLedgerRedis(const RedisLedgerOptions& o, absl::Duration read_timeout) {
  if (o.sentinels.empty()) return ConnectTo({o.host, o.port}, o, read_timeout, false);
  RedisConnection last;
  last.failure = RedisConnectFailure::kNoMaster;
  std::vector<std::string> asked;  // what each Sentinel said, for the error
  std::vector<RedisAddress> tried;
  int refused = 0;  // Sentinels that refused their password or needed one
  for (const RedisAddress& s : o.sentinels) {
    std::string error;
    redisContext* c = Dial(s, o, o.io_timeout, &error);
    if (c == nullptr) {
      asked.push_back(absl::StrCat("cannot reach sentinel ", error));
      continue;
    }
    if (!o.sentinel_password.empty()) {
      ReplyPtr auth = Command(c, {"AUTH", o.sentinel_password});
      // "AUTH <password> called without any password configured": this
      // Sentinel does not ask for one yet; ask it anyway.
      if (auth == nullptr ||
          (auth->type == REDIS_REPLY_ERROR &&
           !absl::StrContains(Str(auth.get()), "without any password configured"))) {
        if (auth != nullptr) ++refused;
        asked.push_back(auth == nullptr
                            ? absl::StrCat("sentinel ", Where(s), ": AUTH: ", c->errstr)
                            : absl::StrCat("sentinel ", Where(s), " refused the password (",
                                           Str(auth.get()), "; --ledger_sentinel_password_file)"));
        redisFree(c);
        continue;
      }
    }
    ReplyPtr r = Command(c, {"SENTINEL", "get-master-addr-by-name", o.master_name});
    if (r != nullptr && r->type == REDIS_REPLY_ERROR && absl::StartsWith(Str(r.get()), "NOAUTH")) {
      ++refused;
      asked.push_back(absl::StrCat("sentinel ", Where(s),
                                   " needs a password (--ledger_sentinel_password_file)"));
      redisFree(c);
      continue;
    }
    RedisAddress master;
    const bool named = r != nullptr && r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
                       r->element[0]->type == REDIS_REPLY_STRING &&
                       absl::SimpleAtoi(Str(r->element[1]), &master.port);
    if (named) master.host = std::string(Str(r->element[0]));
    asked.push_back(
        named          ? absl::StrCat("sentinel ", Where(s), " names ", Where(master))
        : r == nullptr ? absl::StrCat("sentinel ", Where(s), ": ", c->errstr)
        : r->type == REDIS_REPLY_ERROR
            ? absl::StrCat("sentinel ", Where(s), ": ", Str(r.get()))
            : absl::StrCat("sentinel ", Where(s), " knows no master named '", o.master_name, "'"));
    redisFree(c);
    if (!named || std::find(tried.begin(), tried.end(), master) != tried.end()) continue;
    tried.push_back(master);
    RedisConnection got = ConnectTo(master, o, read_timeout, true);
    if (got.context != nullptr) return got;
    asked.back() += absl::StrCat(" (", got.error, ")");
    last = std::move(got);
  }
  if (tried.empty() && refused > 0) last.failure = RedisConnectFailure::kSentinelAuth;
  last.error =
      absl::StrCat("no master for '", o.master_name, "' (", absl::StrJoin(asked, "; "), ")");
  return last;
}

}  // namespace stud::service
