// A real redis-server (Debian's package, tools/install-deps.sh) for tests: on
// a free loopback port, append-only persistence in a temporary directory,
// killed when the object goes (also when the test fails). Stop() kills it
// (SIGKILL, as a crash) and Start() brings it back on the same port and
// directory. A missing redis-server fails the test with a message; it never
// skips.
#ifndef STUD_TESTS_SERVICE_REDIS_FIXTURE_H_
#define STUD_TESTS_SERVICE_REDIS_FIXTURE_H_

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

extern char** environ;

namespace stud::service::testing {

inline std::string FindRedisServer() {
  for (const char* p : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"}) {
    if (access(p, X_OK) == 0) return p;
  }
  return "";
}

inline int FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(fd);
    return 0;
  }
  close(fd);
  return ntohs(a.sin_port);
}

class RedisServer {
 public:
  // `extra`: more redis-server arguments ("--replicaof", "127.0.0.1 PORT";
  // "--requirepass", "pw").
  explicit RedisServer(std::vector<std::string> extra = {})
      : binary_(FindRedisServer()), port_(FreeLoopbackPort()), extra_(std::move(extra)) {
    char tmpl[] = "/tmp/stud-ledger-test-XXXXXX";
    if (mkdtemp(tmpl) != nullptr) dir_ = tmpl;
  }
  ~RedisServer() {
    Stop();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  // True when the server answers PING within 10 s.
  [[nodiscard]] bool Start() {
    if (binary_.empty()) {
      ADD_FAILURE()
          << "redis-server not found (/usr/bin/redis-server): install Debian's redis-server "
             "package (tools/install-deps.sh does)";
      return false;
    }
    if (port_ == 0 || dir_.empty()) {
      ADD_FAILURE() << "no free loopback port or temporary directory for redis-server";
      return false;
    }
    const std::string port = std::to_string(port_);
    std::vector<std::string> args = {
        binary_, "--port",       port,  "--bind",        "127.0.0.1",        "--dir",
        dir_,    "--appendonly", "yes", "--appendfsync", "always",           "--save",
        "",      "--daemonize",  "no",  "--logfile",     dir_ + "/redis.log"};
    args.insert(args.end(), extra_.begin(), extra_.end());
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // Its output to /dev/null (it logs to redis.log): a server left behind by
    // a test that crashed must not hold the test's output open, which keeps
    // ctest waiting for the test until its timeout.
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    const int spawned = posix_spawn(&pid_, binary_.c_str(), &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    if (spawned != 0) {
      ADD_FAILURE() << "cannot start " << binary_;
      pid_ = 0;
      return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      if (Command("PING") == "PONG") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "redis-server on port " << port_
                  << " did not answer PING within 10 s (log: " << dir_ << "/redis.log)";
    return false;
  }

  // SIGKILL: no shutdown, as a crash.
  void Stop() {
    if (pid_ == 0) return;
    kill(pid_, SIGKILL);
    kill(pid_, SIGCONT);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
  }

  // SIGSTOP / SIGCONT: a Redis that stops answering (commands queue up).
  void Pause() const {
    if (pid_ != 0) kill(pid_, SIGSTOP);
  }
  void Resume() const {
    if (pid_ != 0) kill(pid_, SIGCONT);
  }

  // One command ("GET k", "TTL k", "DEL k"; no quoting); the reply as text
  // ("" for nil or no answer, the number for an integer).
  std::string Command(const std::string& text) const {
    timeval tv{1, 0};
    redisContext* c = redisConnectWithTimeout("127.0.0.1", port_, tv);
    std::string out;
    if (c != nullptr && c->err == 0) {
      redisSetTimeout(c, tv);
      if (!password_.empty()) {
        freeReplyObject(redisCommand(c, "AUTH %b", password_.data(), password_.size()));
      }
      if (auto* r = static_cast<redisReply*>(redisCommand(c, text.c_str()))) {
        if (r->type == REDIS_REPLY_INTEGER) out = std::to_string(r->integer);
        if (r->str != nullptr) out.assign(r->str, r->len);
        freeReplyObject(r);
      }
    }
    if (c != nullptr) redisFree(c);
    return out;
  }

  // Command() authenticates with this (a server started with --requirepass).
  void set_password(std::string p) { password_ = std::move(p); }
  const std::string& dir() const { return dir_; }
  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

 private:
  std::string binary_;
  int port_;
  std::string dir_;
  std::vector<std::string> extra_;
  std::string password_;
  pid_t pid_ = 0;
};

}  // namespace stud::service::testing

#endif  // STUD_TESTS_SERVICE_REDIS_FIXTURE_H_
