// Checks that two reads of one replica answer alike (a snapshot against the log dir, the
// tail against the whole log): their replica logs, and the batches they give for a range.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>

#include "kepoch/storage/partition_replica.hpp"

namespace test {

inline void same_log(const kepoch::ReplicaLog& a, const kepoch::ReplicaLog& b) {
  CHECK(a.cache.entries() == b.cache.entries());
  CHECK(a.log_end_offset == b.log_end_offset);
  CHECK(a.high_watermark == b.high_watermark);
  CHECK(a.log_start_offset == b.log_start_offset);
}

inline void same_range(const kepoch::BatchRange& a, const kepoch::BatchRange& b) {
  CHECK(a.records == b.records);
  CHECK(a.bytes == b.bytes);
  REQUIRE(a.batches.size() == b.batches.size());
  for (std::size_t i = 0; i < a.batches.size(); ++i) {
    CHECK(a.batches[i].base_offset == b.batches[i].base_offset);
    CHECK(a.batches[i].last_offset == b.batches[i].last_offset);
    CHECK(a.batches[i].records == b.batches[i].records);
    CHECK(a.batches[i].crc == b.batches[i].crc);
  }
}

}  // namespace test
