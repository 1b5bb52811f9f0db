#pragma once
// One batch of a log as the consumer view (consumer_view.hpp) reads it: its offsets, its
// transaction attributes (record_batch.hpp: bit 4 isTransactional, bit 5 isControl), its
// producer id and, for a control batch, the marker its first record's key names. A log dir
// snapshot keeps these for the transactional and control batches of a replica's tail
// (StoredTransactions), so forecasts from a snapshot count lost records as consumers see them.

#include <cstdint>
#include <optional>
#include <vector>

#include "kepoch/format/control_record.hpp"

namespace kepoch {

struct TransactionBatch {
  std::int64_t base_offset = 0;
  std::int64_t last_offset = 0;
  std::int32_t records = 0;
  bool transactional = false;
  bool control = false;
  std::int64_t producer_id = -1;
  // The producer epoch and largest timestamp of the batch header (-1: not kept, as in a log
  // dir snapshot): what ProducerStateManager records as the producer's epoch and
  // lastTimestamp (DescribeProducers' ProducerEpoch and LastTimestamp).
  std::int16_t producer_epoch = -1;
  std::int64_t max_timestamp = -1;
  // The first record's type, for a control batch (nullopt: not read or not readable).
  std::optional<ControlRecordType> marker;
};

// What a snapshot kept of a replica's transactions: every transactional or control batch of
// the loaded log whose last offset is at or above `from` (the first batch of the tail the
// snapshot kept without a gap up to the log end); other batches are plain data.
struct StoredTransactions {
  std::int64_t from = 0;
  std::vector<TransactionBatch> batches;  // in offset order
};

}  // namespace kepoch
