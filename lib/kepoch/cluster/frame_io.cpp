#include "kepoch/cluster/frame_io.hpp"

#include <fmt/format.h>

#include <array>

#include "kepoch/cluster/cluster_error.hpp"

namespace kepoch::cluster {
namespace {

// A TLS record starts with its content type (0x15 alert, 0x16 handshake) and version 3.x.
bool is_tls_record_header(const std::array<std::uint8_t, 4>& head) {
  return (head[0] == 0x15 || head[0] == 0x16) && head[1] == 0x03 && head[2] <= 0x04;
}

}  // namespace

void write_frame(ByteStream& stream, std::span<const std::uint8_t> payload, Deadline deadline) {
  if (payload.size() > static_cast<std::size_t>(kMaxFrameBytes))
    throw std::length_error(fmt::format("request of {} bytes is over the {} byte frame limit",
                                        payload.size(), kMaxFrameBytes));
  const auto size = static_cast<std::uint32_t>(payload.size());
  std::vector<std::uint8_t> frame;
  frame.reserve(payload.size() + 4);
  for (int shift = 24; shift >= 0; shift -= 8)
    frame.push_back(static_cast<std::uint8_t>(size >> shift));
  frame.insert(frame.end(), payload.begin(), payload.end());
  stream.write_all(frame, deadline);
}

std::vector<std::uint8_t> read_frame(ByteStream& stream, Deadline deadline,
                                     std::int32_t max_bytes) {
  std::array<std::uint8_t, 4> head{};
  stream.read_exact(head, deadline);
  const auto size =
      static_cast<std::int32_t>(std::uint32_t(head[0]) << 24 | std::uint32_t(head[1]) << 16 |
                                std::uint32_t(head[2]) << 8 | std::uint32_t(head[3]));
  if (size < 0 || size > max_bytes) {
    // A TLS record header or "HTTP" read as a size is always over the limit.
    if (head == std::array<std::uint8_t, 4>{'H', 'T', 'T', 'P'})
      throw ClusterError(stream.peer(), fmt::format("{} answered in HTTP: it is not a Kafka "
                                                    "listener (a web server or proxy?)",
                                                    stream.peer()));
    if (is_tls_record_header(head))
      throw ClusterError(stream.peer(),
                         fmt::format("{} answered with TLS: it is an SSL listener (use "
                                     "security.protocol SSL or SASL_SSL)",
                                     stream.peer()));
    throw ClusterError(stream.peer(), fmt::format("{} sent a frame of {} bytes (limit {}): not a "
                                                  "Kafka response",
                                                  stream.peer(), size, max_bytes));
  }
  std::vector<std::uint8_t> payload(static_cast<std::size_t>(size));
  stream.read_exact(payload, deadline);
  return payload;
}

}  // namespace kepoch::cluster
