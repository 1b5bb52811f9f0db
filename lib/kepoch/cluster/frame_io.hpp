#pragma once
// Kafka's framing: every request and response is an int32 (big-endian) size followed by
// that many bytes. The size is checked against a maximum before anything is allocated, so
// a hostile or confused peer (a TLS alert read as a size, say) cannot make us allocate
// gigabytes.

#include <cstdint>
#include <span>
#include <vector>

#include "kepoch/cluster/byte_stream.hpp"

namespace kepoch::cluster {

// Kafka's own socket.request.max.bytes default.
inline constexpr std::int32_t kMaxFrameBytes = 100 * 1024 * 1024;

void write_frame(ByteStream& stream, std::span<const std::uint8_t> payload, Deadline deadline);

// Throws ClusterError for a negative or too large size, naming the likely cause when the
// four bytes are a TLS record header (a plaintext client at a TLS port) or "HTTP".
std::vector<std::uint8_t> read_frame(ByteStream& stream, Deadline deadline,
                                     std::int32_t max_bytes = kMaxFrameBytes);

}  // namespace kepoch::cluster
