#pragma once
// A one-connection TCP server on 127.0.0.1 for the transport tests: it accepts a single
// client on a thread and hands the socket to the test's handler. Every wait is bounded,
// so a broken client cannot hang the suite.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <thread>

namespace test {

class LoopbackServer {
 public:
  // handler(fd) runs on the server thread with the accepted socket (closed afterwards).
  explicit LoopbackServer(std::function<void(int)> handler) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        listen(listen_fd_, 1) != 0 ||
        getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("loopback server: cannot listen");
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, handler = std::move(handler)] {
      pollfd p{listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 10000) != 1) return;
      const int fd = accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      timeval tv{10, 0};  // a handler's blocking read gives up eventually
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
      handler(fd);
      close(fd);
    });
  }
  ~LoopbackServer() {
    thread_.join();
    close(listen_fd_);
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  std::uint16_t port() const { return port_; }

 private:
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

// A port on 127.0.0.1 that nothing listens on (bound, then released).
inline std::uint16_t closed_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), len);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

inline void read_n(int fd, std::size_t n) {
  char buffer[4096];
  while (n > 0) {
    const auto got = recv(fd, buffer, std::min(n, sizeof(buffer)), 0);
    if (got <= 0) return;
    n -= static_cast<std::size_t>(got);
  }
}

}  // namespace test
