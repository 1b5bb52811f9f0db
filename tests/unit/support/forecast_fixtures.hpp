// Fixtures of the tests that cost a follower's truncation (storage/replica_forecast) and of
// those built on it (forecast/recovery_plan, the log dir snapshot's transaction counts): a
// partition replica built batch by batch as a log dir snapshot carries it, and a leader that
// holds nothing of the follower's from an offset on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_forecast.hpp"

namespace test {

// One batch: offsets `base` to `last` (one record per offset), its leader epoch and CRC.
struct Batch {
  std::int64_t base;
  std::int64_t last;
  std::int32_t epoch;
  std::uint32_t crc;
};

// A replica holding `batches`, with every batch kept, unless `drop` names ordinals a snapshot
// left out.
inline kepoch::PartitionReplica replica_of(const std::string& name,
                                           const std::vector<Batch>& batches, std::int64_t hw,
                                           std::int64_t log_start = 0,
                                           const std::vector<std::uint64_t>& drop = {}) {
  kepoch::PartitionReplica r;
  r.dir = name;
  r.topic = "t";
  kepoch::StoredBatches s;
  std::uint64_t ordinal = 0;
  for (const auto& b : batches) {
    kepoch::BatchSummary x;
    x.ordinal = ordinal++;
    x.base_offset = b.base;
    x.last_offset = b.last;
    x.records = static_cast<std::int32_t>(b.last - b.base + 1);
    x.size = 100;
    x.crc = b.crc;
    x.epoch = b.epoch;
    x.records_before = s.records;
    x.bytes_before = s.bytes;
    s.records += static_cast<std::uint64_t>(x.records);
    s.bytes += x.size;
    if (std::find(drop.begin(), drop.end(), x.ordinal) == drop.end()) s.batches.push_back(x);
    r.loaded.cache.assign({b.epoch, b.base});
  }
  s.batch_count = ordinal;
  r.stored = s;
  r.log_end_offset = batches.empty() ? log_start : batches.back().last + 1;
  r.loaded.log_end_offset = r.log_end_offset;
  r.loaded.high_watermark = hw;
  r.high_watermark = hw;  // as replication-offset-checkpoint records it
  r.loaded.log_start_offset = log_start;
  r.as_leader = r.loaded;
  return r;
}

// The follower's forecast against a leader whose every epoch ends at `cut`: the follower
// truncates there and loses the rest (the leader holds nothing from it on).
inline kepoch::ReplicaForecast forecast_from(const kepoch::PartitionReplica& follower,
                                             std::int64_t cut) {
  kepoch::LeaderAnswers answers;
  for (const auto& e : follower.loaded.cache.entries())
    answers.end_offsets[e.epoch] = kepoch::EpochEntry{e.epoch, cut};
  answers.log_end_offset = cut;
  const kepoch::LeaderBatchLookup none = [](std::int64_t, std::int64_t) {
    return kepoch::BatchRange{};
  };
  return kepoch::forecast_replica(answers, none, "", follower, kepoch::TruncationMode::fetch);
}

}  // namespace test
