// Redis Sentinel for tests: real sentinels (redis-server --sentinel, the
// program Debian's redis-sentinel package links as redis-sentinel, so only
// redis-server needs to be installed) on free loopback ports, each
// with its own config file in a temporary directory (Sentinel rewrites it),
// killed when the object goes. A missing binary fails the test; it never skips.
#ifndef STUD_TESTS_SERVICE_SENTINEL_FIXTURE_H_
#define STUD_TESTS_SERVICE_SENTINEL_FIXTURE_H_

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "redis_fixture.h"

namespace stud::service::testing {

class RedisSentinel {
 public:
  RedisSentinel() : port_(FreeLoopbackPort()) {
    char tmpl[] = "/tmp/stud-sentinel-test-XXXXXX";
    if (mkdtemp(tmpl) != nullptr) dir_ = tmpl;
  }
  ~RedisSentinel() {
    Stop();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  RedisSentinel(const RedisSentinel&) = delete;
  RedisSentinel& operator=(const RedisSentinel&) = delete;

  // Monitors `name` at 127.0.0.1:`master_port` (quorum 2, down after
  // `down_after_ms`). True when the sentinel answers PING within 10 s.
  [[nodiscard]] bool Start(const std::string& name, int master_port, int down_after_ms = 1000) {
    const std::string binary = FindRedisServer();
    if (binary.empty() || port_ == 0 || dir_.empty()) {
      ADD_FAILURE() << "redis-server (for --sentinel) not found or no free port: install "
                       "Debian's redis-server and redis-sentinel (tools/install-deps.sh)";
      return false;
    }
    const std::string conf = dir_ + "/sentinel.conf";
    {
      std::ofstream f(conf);
      f << "port " << port_ << "\nbind 127.0.0.1\ndaemonize no\ndir " << dir_ << "\nlogfile "
        << dir_ << "/sentinel.log\n"
        << "sentinel monitor " << name << " 127.0.0.1 " << master_port << " 2\n"
        << "sentinel down-after-milliseconds " << name << " " << down_after_ms << "\n"
        << "sentinel failover-timeout " << name << " 10000\n"
        << "sentinel parallel-syncs " << name << " 1\n";
      // A password of its own (also what it sends to the other Sentinels)
      // and the master's (and its replicas').
      if (!password_.empty()) f << "requirepass " << password_ << "\n";
      if (!master_password_.empty())
        f << "sentinel auth-pass " << name << " " << master_password_ << "\n";
    }
    std::vector<std::string> args = {binary, conf, "--sentinel"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, binary.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      ADD_FAILURE() << "cannot start " << binary << " --sentinel";
      pid_ = 0;
      return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (Reply({"PING"}).text == "PONG") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "sentinel on port " << port_ << " did not answer PING (log: " << dir_
                  << "/sentinel.log)";
    return false;
  }

  void Stop() {
    if (pid_ == 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
  }

  struct Answer {
    std::string text;                // a string or status reply, or an integer as text
    std::vector<std::string> items;  // an array's string elements
    size_t elements = 0;             // an array's length
  };
  Answer Reply(const std::vector<std::string>& args) const {
    Answer out;
    timeval tv{1, 0};
    redisContext* c = redisConnectWithTimeout("127.0.0.1", port_, tv);
    if (c != nullptr && c->err == 0) {
      redisSetTimeout(c, tv);
      if (!password_.empty()) {
        freeReplyObject(redisCommand(c, "AUTH %b", password_.data(), password_.size()));
      }
      std::vector<const char*> argv;
      std::vector<size_t> len;
      for (const std::string& a : args) {
        argv.push_back(a.data());
        len.push_back(a.size());
      }
      if (auto* r = static_cast<redisReply*>(
              redisCommandArgv(c, static_cast<int>(argv.size()), argv.data(), len.data()))) {
        if (r->type == REDIS_REPLY_INTEGER) out.text = std::to_string(r->integer);
        if (r->str != nullptr) out.text.assign(r->str, r->len);
        if (r->type == REDIS_REPLY_ARRAY) {
          out.elements = r->elements;
          for (size_t i = 0; i < r->elements; ++i) {
            if (r->element[i]->str != nullptr)
              out.items.emplace_back(r->element[i]->str, r->element[i]->len);
          }
        }
        freeReplyObject(r);
      }
    }
    if (c != nullptr) redisFree(c);
    return out;
  }
  // The port this sentinel names for `name` (0: none).
  int MasterPort(const std::string& name) const {
    const Answer a = Reply({"SENTINEL", "get-master-addr-by-name", name});
    return a.items.size() == 2 ? std::atoi(a.items[1].c_str()) : 0;
  }

  int port() const { return port_; }
  const std::string& dir() const { return dir_; }
  // Before Start(): requirepass on this Sentinel (Reply() authenticates with
  // it), and the password of the master it monitors (sentinel auth-pass).
  void set_password(std::string p) { password_ = std::move(p); }
  void set_master_password(std::string p) { master_password_ = std::move(p); }

 private:
  int port_;
  std::string dir_;
  std::string password_;
  std::string master_password_;
  pid_t pid_ = 0;
};

// A master, one replica of it (two with `replicas` 2) and three sentinels,
// all on loopback, ready when every sentinel knows the replicas and the two
// other sentinels.
// With `passwords` the Redis servers run with requirepass/masterauth
// `passwords->redis` and the Sentinels with requirepass `passwords->sentinel`.
struct SentinelPasswords {
  std::string redis;
  std::string sentinel;
};

struct SentinelSet {
  static constexpr char kName[] = "ledger";
  SentinelSet() = default;
  explicit SentinelSet(const SentinelPasswords& p) : passwords(p), master(AuthArgs(p.redis, {})) {
    master.set_password(p.redis);
    for (RedisSentinel& s : sentinels) {
      s.set_password(p.sentinel);
      s.set_master_password(p.redis);
    }
  }
  static std::vector<std::string> AuthArgs(const std::string& password,
                                           std::vector<std::string> args) {
    if (!password.empty())
      args.insert(args.end(), {"--requirepass", password, "--masterauth", password});
    return args;
  }
  SentinelPasswords passwords;
  RedisServer master;
  std::unique_ptr<RedisServer> replica;
  std::unique_ptr<RedisServer> spare;  // the second replica (replicas 2)
  RedisSentinel sentinels[3];

  [[nodiscard]] bool Start(int down_after_ms = 1000, int replicas = 1) {
    if (!master.Start()) return false;
    const std::vector<std::string> of =
        AuthArgs(passwords.redis, {"--replicaof", "127.0.0.1", std::to_string(master.port())});
    replica = std::make_unique<RedisServer>(of);
    replica->set_password(passwords.redis);
    if (!replica->Start()) return false;
    if (replicas == 2) {
      spare = std::make_unique<RedisServer>(of);
      spare->set_password(passwords.redis);
      if (!spare->Start()) return false;
    }
    for (RedisSentinel& s : sentinels) {
      if (!s.Start(kName, master.port(), down_after_ms)) return false;
    }
    // Sentinels find each other and the replica through the master (hello
    // messages every 2 s, INFO every 10 s): wait for both, at most 60 s.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      bool ready = true;
      for (const RedisSentinel& s : sentinels) {
        ready =
            ready &&
            s.Reply({"SENTINEL", "replicas", kName}).elements == static_cast<size_t>(replicas) &&
            s.Reply({"SENTINEL", "sentinels", kName}).elements == 2;
      }
      if (ready) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "the sentinels did not find each other and the replica within 60 s (logs: "
                  << sentinels[0].dir() << ")";
    return false;
  }
  // "redis-sentinel://127.0.0.1:A,127.0.0.1:B,127.0.0.1:C/ledger"
  std::string url() const {
    std::string out = "redis-sentinel://";
    for (int i = 0; i < 3; ++i) {
      out += (i > 0 ? "," : "") + std::string("127.0.0.1:") + std::to_string(sentinels[i].port());
    }
    return out + "/" + kName;
  }
};

}  // namespace stud::service::testing

#endif  // STUD_TESTS_SERVICE_SENTINEL_FIXTURE_H_
