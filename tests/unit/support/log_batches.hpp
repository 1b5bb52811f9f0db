#pragma once
// The v2 batch headers of a whole .log held in memory, read with kepoch's own header reader
// (format/record_batch.hpp, held to Kafka's DumpLogSegments by the oracle tests). Shared by
// the tests that check index and snapshot entries against the batches they name.

#include <cstdint>
#include <span>
#include <vector>

#include "kepoch/format/record_batch.hpp"

namespace test {

inline std::vector<kepoch::BatchHeader> log_batch_headers(const std::vector<std::uint8_t>& log) {
  std::vector<kepoch::BatchHeader> out;
  std::size_t pos = 0;
  while (pos + kepoch::kBatchHeaderSize <= log.size()) {
    out.push_back(kepoch::read_batch_header(std::span<const std::uint8_t>(log).subspan(pos), pos));
    pos += static_cast<std::size_t>(out.back().size_in_bytes());
  }
  return out;
}

}  // namespace test
