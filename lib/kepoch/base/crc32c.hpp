#pragma once
// CRC-32C (Castagnoli), the checksum of v2 record batches and producer snapshots
// (java.util.zip.CRC32C in Kafka's Crc32C). Hardware SSE4.2 crc32 instructions where the
// CPU has them, else a portable slicing-by-8 table; the choice is made once at run time.

#include <cstdint>
#include <span>

namespace kepoch {

std::uint32_t crc32c(std::span<const std::uint8_t> data);
// Continues a running CRC (pass the previous result).
std::uint32_t crc32c_extend(std::uint32_t crc, std::span<const std::uint8_t> data);

// For tests and benchmarks: the portable implementation, and whether hardware is used.
std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::uint8_t> data);
bool crc32c_uses_hardware();

}  // namespace kepoch
