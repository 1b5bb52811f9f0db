#pragma once
// TCP to a broker: the name is resolved (getaddrinfo, on a helper thread so a slow resolver
// is bounded by the deadline too), each address is tried with a non-blocking connect and
// poll, and every read and write waits with poll until the deadline. Writes use
// MSG_NOSIGNAL: a broker that closed the socket is an error, not a SIGPIPE. A CancelSignal,
// when given, ends every one of those waits at once (ClusterError "... given up").

#include <memory>
#include <string>

#include "kepoch/cluster/byte_stream.hpp"
#include "kepoch/cluster/connection_settings.hpp"

namespace kepoch::cluster {

class TcpStream : public ByteStream {
 public:
  // Connects by `deadline`; `timeout` is the budget messages quote ("timed out after
  // 2000 ms"). Throws ClusterError: "cannot connect to host:port: Connection refused",
  // "connecting to host:port timed out after 2000 ms", "cannot resolve host:port: ...".
  TcpStream(const BrokerAddress& address, Deadline deadline, std::chrono::milliseconds timeout,
            std::shared_ptr<const CancelSignal> cancel = nullptr);
  ~TcpStream() override;
  TcpStream(const TcpStream&) = delete;
  TcpStream& operator=(const TcpStream&) = delete;

  void write_all(std::span<const std::uint8_t> bytes, Deadline deadline) override;
  void read_exact(std::span<std::uint8_t> out, Deadline deadline) override;
  const std::string& peer() const override { return peer_; }

  // For TLS, which reads what has arrived rather than an exact count: waits until some
  // bytes are there and returns how many it read, or 0 when the broker closed or reset the
  // connection. ClusterError on timeout; `doing` names the step in that message ("the TLS
  // handshake with").
  std::size_t read_some(std::span<std::uint8_t> out, Deadline deadline, std::string_view doing);
  // One non-blocking attempt to send, errors ignored (a TLS close_notify on the way out).
  void send_nowait(std::span<const std::uint8_t> bytes) noexcept;

 private:
  // Waits until the socket is readable (POLLIN) or writable (POLLOUT); ClusterError on
  // timeout naming `doing`.
  void wait(short events, Deadline deadline, std::string_view doing) const;

  int fd_ = -1;
  std::string peer_;
  std::chrono::milliseconds timeout_{0};
  std::shared_ptr<const CancelSignal> cancel_;
};

}  // namespace kepoch::cluster
