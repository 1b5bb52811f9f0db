#pragma once
// A connected, ordered byte stream to one broker: plain TCP or TLS over TCP. Both calls
// block until done or the deadline passes, and throw ClusterError naming the broker on
// timeout, EOF or any socket or TLS failure.

#include <cstdint>
#include <span>
#include <string>

#include "kepoch/cluster/deadline.hpp"

namespace kepoch::cluster {

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  virtual void write_all(std::span<const std::uint8_t> bytes, Deadline deadline) = 0;
  virtual void read_exact(std::span<std::uint8_t> out, Deadline deadline) = 0;
  // host:port, for messages.
  virtual const std::string& peer() const = 0;
};

}  // namespace kepoch::cluster
