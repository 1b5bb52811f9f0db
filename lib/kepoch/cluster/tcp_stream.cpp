#include "kepoch/cluster/tcp_stream.hpp"

#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/host_resolver.hpp"

namespace kepoch::cluster {
namespace {

struct AddrInfoDeleter {
  void operator()(addrinfo* info) const { freeaddrinfo(info); }
};
using AddrInfoPtr = std::unique_ptr<addrinfo, AddrInfoDeleter>;

// The state a resolver thread shares with the caller, who may stop waiting first.
struct Lookup {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  int status = 0;
  std::string error;  // the static build's resolver says why, in words
  std::vector<AddrInfoPtr> result;
};

addrinfo hints(int flags) {
  addrinfo h{};
  h.ai_family = AF_UNSPEC;
  h.ai_socktype = SOCK_STREAM;
  h.ai_flags = flags;
  return h;
}

// getaddrinfo has no timeout and the resolver's own can be long; the lookup runs on a
// detached thread that owns its share of the state, so giving up at the deadline is safe.
// A numeric address (no lookup, no NSS): null when `host` is a name.
AddrInfoPtr numeric_address(const std::string& host, const std::string& port) {
  addrinfo* numeric = nullptr;
  const auto h = hints(AI_NUMERICHOST | AI_NUMERICSERV);
  if (getaddrinfo(host.c_str(), port.c_str(), &h, &numeric) == 0) return AddrInfoPtr(numeric);
  return nullptr;
}

// The lookup of a name, on the resolver thread. The dynamic build asks NSS (getaddrinfo);
// the static build cannot load NSS modules and asks /etc/hosts and DNS itself
// (host_resolver.hpp), then makes each numeric answer a socket address without NSS.
void look_up(Lookup& lookup, const std::string& host, const std::string& port) {
#ifdef KEPOCH_STATIC_BUILD
  auto found = resolve_host_without_nss(host);
  std::vector<AddrInfoPtr> result;
  for (const auto& address : found.addresses)
    if (auto ai = numeric_address(address, port)) result.push_back(std::move(ai));
  std::lock_guard lock(lookup.mutex);
  lookup.status = result.empty() ? EAI_NONAME : 0;
  lookup.error = std::move(found.error);
  lookup.result = std::move(result);
#else
  addrinfo* found = nullptr;
  const auto h = hints(AI_ADDRCONFIG | AI_NUMERICSERV);
  const int status = getaddrinfo(host.c_str(), port.c_str(), &h, &found);
  std::lock_guard lock(lookup.mutex);
  lookup.status = status;
  lookup.result.emplace_back(found);
#endif
  lookup.done = true;
  lookup.done_cv.notify_all();
}

std::vector<AddrInfoPtr> resolve(const BrokerAddress& address, Deadline deadline,
                                 std::chrono::milliseconds timeout, const CancelSignal* cancel) {
  const auto port = std::to_string(address.port);
  if (auto numeric = numeric_address(address.host, port)) {
    std::vector<AddrInfoPtr> one;
    one.push_back(std::move(numeric));
    return one;
  }

  auto lookup = std::make_shared<Lookup>();
  std::thread([lookup, host = address.host, port] { look_up(*lookup, host, port); }).detach();
  std::unique_lock lock(lookup->mutex);
  // In slices, so a cancelled attempt stops waiting soon.
  while (!lookup->done && Clock::now() < deadline && !(cancel && cancel->cancelled()))
    lookup->done_cv.wait_until(lock,
                               std::min(deadline, Clock::now() + std::chrono::milliseconds(50)),
                               [&] { return lookup->done; });
  if (!lookup->done && cancel && cancel->cancelled())
    throw ClusterError(address.to_string(),
                       fmt::format("resolving {}: given up", address.to_string()));
  if (!lookup->done)
    throw ClusterError(address.to_string(), fmt::format("cannot resolve {}: no answer within {} ms",
                                                        address.to_string(), timeout.count()));
  if (lookup->status != 0)
    throw ClusterError(address.to_string(),
                       fmt::format("cannot resolve {}: {}", address.to_string(),
                                   lookup->error.empty() ? std::string(gai_strerror(lookup->status))
                                                         : lookup->error));
  return std::move(lookup->result);
}

// One address: a non-blocking connect, then poll for writability. Returns the socket, or
// -1 with `error` set to the errno (ETIMEDOUT at the deadline).
// ECANCELED when `cancel` fired first.
int try_connect(const addrinfo& ai, Deadline deadline, const CancelSignal* cancel, int& error) {
  const int fd =
      socket(ai.ai_family, ai.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai.ai_protocol);
  if (fd < 0) {
    error = errno;
    return -1;
  }
  if (connect(fd, ai.ai_addr, ai.ai_addrlen) != 0 && errno != EINPROGRESS) {
    error = errno;
    close(fd);
    return -1;
  }
  pollfd p[2] = {{fd, POLLOUT, 0}, {cancel ? cancel->fd() : -1, POLLIN, 0}};
  int ready = 0;
  do {
    ready = poll(p, 2, poll_timeout_ms(deadline));
  } while (ready < 0 && errno == EINTR);
  socklen_t len = sizeof(error);
  if (cancel && cancel->cancelled()) {
    error = ECANCELED;
  } else if (ready == 0) {
    error = ETIMEDOUT;
  } else if (ready < 0) {
    error = errno;
  } else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) {
    error = errno;
  }
  if (error != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string describe_errno(int error) {
  switch (error) {
    case ECONNREFUSED:
      return "connection refused";
    case ENETUNREACH:
      return "network is unreachable";
    case EHOSTUNREACH:
      return "no route to host";
    default:
      return std::strerror(error);
  }
}

}  // namespace

TcpStream::TcpStream(const BrokerAddress& address, Deadline deadline,
                     std::chrono::milliseconds timeout, std::shared_ptr<const CancelSignal> cancel)
    : peer_(address.to_string()), timeout_(timeout), cancel_(std::move(cancel)) {
  const auto addresses = resolve(address, deadline, timeout, cancel_.get());
  int error = 0;
  for (const auto& list : addresses) {
    for (const addrinfo* ai = list.get(); ai != nullptr; ai = ai->ai_next) {
      fd_ = try_connect(*ai, deadline, cancel_.get(), error);
      if (fd_ >= 0) break;
      if (error == ETIMEDOUT || error == ECANCELED) break;  // no time for the next address
    }
    if (fd_ >= 0 || error == ETIMEDOUT || error == ECANCELED) break;
  }
  if (fd_ < 0) {
    if (error == ECANCELED)
      throw ClusterError(peer_, fmt::format("connecting to {}: given up", peer_));
    if (error == ETIMEDOUT)
      throw ClusterError(
          peer_, fmt::format("connecting to {} timed out after {} ms", peer_, timeout.count()));
    throw ClusterError(peer_,
                       fmt::format("cannot connect to {}: {}", peer_, describe_errno(error)));
  }
  const int one = 1;
  // Requests are small and answered one at a time: do not wait to coalesce them.
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

TcpStream::~TcpStream() {
  if (fd_ >= 0) close(fd_);
}

void TcpStream::wait(short events, Deadline deadline, std::string_view doing) const {
  pollfd p[2] = {{fd_, events, 0}, {cancel_ ? cancel_->fd() : -1, POLLIN, 0}};
  while (true) {
    if (cancel_ && cancel_->cancelled())
      throw ClusterError(peer_, fmt::format("{} {}: given up", doing, peer_));
    const int ready = poll(p, 2, poll_timeout_ms(deadline));
    if (ready > 0 && p[1].revents == 0) return;
    if (ready > 0)
      continue;  // cancelled: said above  // readable, writable, or an error/hang-up the next call
                 // reports
    if (ready == 0)
      throw ClusterError(
          peer_, fmt::format("{} {} timed out after {} ms", doing, peer_, timeout_.count()));
    if (errno != EINTR)
      throw ClusterError(peer_, fmt::format("{} {}: poll: {}", doing, peer_, std::strerror(errno)));
  }
}

void TcpStream::write_all(std::span<const std::uint8_t> bytes, Deadline deadline) {
  while (!bytes.empty()) {
    const auto n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes = bytes.subspan(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      wait(POLLOUT, deadline, "writing to");
    } else if (n < 0 && errno != EINTR) {
      const auto why = errno == EPIPE || errno == ECONNRESET
                           ? std::string("the broker closed the connection")
                           : std::string(std::strerror(errno));
      throw ClusterError(peer_, fmt::format("writing to {}: {}", peer_, why));
    }
  }
}

void TcpStream::read_exact(std::span<std::uint8_t> out, Deadline deadline) {
  while (!out.empty()) {
    const auto n = recv(fd_, out.data(), out.size(), 0);
    if (n > 0) {
      out = out.subspan(static_cast<std::size_t>(n));
    } else if (n == 0) {
      throw ClusterError(peer_, fmt::format("{} closed the connection", peer_));
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      wait(POLLIN, deadline, "reading from");
    } else if (errno != EINTR) {
      const auto why = errno == ECONNRESET ? std::string("connection reset by the broker")
                                           : std::string(std::strerror(errno));
      throw ClusterError(peer_, fmt::format("reading from {}: {}", peer_, why));
    }
  }
}

std::size_t TcpStream::read_some(std::span<std::uint8_t> out, Deadline deadline,
                                 std::string_view doing) {
  while (true) {
    const auto n = recv(fd_, out.data(), out.size(), 0);
    if (n > 0) return static_cast<std::size_t>(n);
    if (n == 0 || errno == ECONNRESET) return 0;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      wait(POLLIN, deadline, doing);
    } else if (errno != EINTR) {
      throw ClusterError(peer_, fmt::format("{} {}: {}", doing, peer_, std::strerror(errno)));
    }
  }
}

void TcpStream::send_nowait(std::span<const std::uint8_t> bytes) noexcept {
  [[maybe_unused]] const auto ignored =
      send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace kepoch::cluster
