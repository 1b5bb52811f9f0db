#pragma once
// Which records of a replica's log a consumer reads as data, as Kafka's transactions decide
// it: a record is a consumer's data unless it belongs to an aborted transaction or is a
// control record (a COMMIT/ABORT marker, which no consumer returns).
//
// Batch attributes (record_batch.hpp): bit 4 isTransactional, bit 5 isControl; a control
// batch's first record key is ControlRecordType (0 ABORT, 1 COMMIT). A producer's
// transactional batches are closed by the next control batch of the same producer id: an
// ABORT marker aborts them (a read_committed consumer skips them: the Fetch answer's
// aborted transactions, from the transaction index, name the producer and its first
// offset, and the consumer drops that producer's batches until the marker), a COMMIT
// marker commits them. A transaction with no marker yet is open: it may still commit, so
// its records count as data, like non-transactional ones.

#include <cstdint>
#include <optional>
#include <vector>

#include "kepoch/format/control_record.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

enum class RecordKind { data, aborted, control };

struct TransactionBatch {
  std::int64_t base_offset = 0;
  std::int64_t last_offset = 0;
  std::int32_t records = 0;
  bool transactional = false;
  bool control = false;
  std::int64_t producer_id = -1;
  // The first record's type, for a control batch (nullopt: not read or not readable).
  std::optional<ControlRecordType> marker;
};

// The kind of each batch of `batches` (a stretch of one log, in offset order). Pure.
std::vector<RecordKind> consumer_kinds(const std::vector<TransactionBatch>& batches);

// The batches of `replica`'s loaded log from the one holding offset `from` to its log end,
// with their transaction attributes and each control batch's marker. nullopt for a replica
// read from a snapshot (it keeps no batch attributes).
std::optional<std::vector<TransactionBatch>> transaction_batches_from(
    const PartitionReplica& replica, std::int64_t from);

}  // namespace kepoch
