#pragma once
// Decompression of record-batch payloads (the records section of a v2 batch, or the value of
// a legacy v0/v1 wrapper message), accepting exactly what Kafka's Java reader accepts:
// org.apache.kafka.common.compress.{Gzip,Snappy,Lz4,Zstd}Compression.wrapForInput, i.e.
// java.util.zip.GZIPInputStream, xerial SnappyInputStream, Kafka's own Lz4BlockInputStream
// and zstd-jni's ZstdInputStreamNoFinalizer. The framings are described in compression.cpp.
//
// Every length in the input is untrusted: the output never grows past `max_output`, and any
// corrupt, truncated or oversized input throws FormatError at base_position + the offset in
// `input` where the problem was detected.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch {

// CompressionType.java ids (attributes bits 0-2).
enum class CompressionType { none = 0, gzip = 1, snappy = 2, lz4 = 3, zstd = 4 };

// "none", "gzip", "snappy", "lz4", "zstd" (CompressionType.name).
std::string_view compression_name(CompressionType type);

// 0..4 -> the type; anything else (5..7: "Unknown compression type id") -> nullopt.
std::optional<CompressionType> compression_from_attributes(int codec_bits);

// LZ4 payloads of magic v0 messages: Kafka's old writer computed the frame-descriptor checksum
// over the magic too, so Lz4BlockInputStream skips that byte unchecked for v0 (yes).
enum class LegacyLz4 { no, yes };

std::vector<std::uint8_t> decompress(CompressionType type, std::span<const std::uint8_t> input,
                                     std::uint64_t base_position, std::size_t max_output,
                                     LegacyLz4 legacy = LegacyLz4::no);
// The same into `output`, whose content it replaces (and whose capacity it reuses, so a
// caller decoding batch after batch allocates once); on FormatError `output` is left empty.
void decompress_into(CompressionType type, std::span<const std::uint8_t> input,
                     std::uint64_t base_position, std::size_t max_output,
                     std::vector<std::uint8_t>& output, LegacyLz4 legacy = LegacyLz4::no);

// XXH32 (the LZ4 frame's header and block checksums); exposed for tests.
std::uint32_t xxh32(std::span<const std::uint8_t> data, std::uint32_t seed = 0);

}  // namespace kepoch
