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
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/transaction_batch.hpp"

namespace kepoch {

enum class RecordKind { data, aborted, control };

// The kind of each batch of `batches` (a stretch of one log, in offset order). Pure.
std::vector<RecordKind> consumer_kinds(const std::vector<TransactionBatch>& batches);

// A control batch's marker: the ControlRecordType of its first record's key, from the
// loaded entry `e` (nullopt when not loaded, compressed, or unreadable).
std::optional<ControlRecordType> control_marker_of(const LogSegmentReader::Entry& e);

// Where a walk of `segment` (one of `replica`'s) for the batches ending at or after `from`
// starts: the offset index's entry for `from` (segment_seek.hpp), unless the segment starts
// at or above `from` or recovery cut a wholly loaded log (then read as the loader did, from
// the segment's start: 0).
std::uint64_t tail_start_position(const PartitionReplica& replica, const SegmentSummary& segment,
                                  std::int64_t from);

// The batches of `replica`'s loaded log from the one holding offset `from` to its log end,
// with their transaction attributes and each control batch's marker. For a replica read from
// a snapshot: its stored transactional and control batches from that batch on (the others
// are plain data, which consumer_kinds takes them for), or nullopt when the snapshot did not
// keep them from `from` (written by an older kepoch, or the tail it kept starts above).
std::optional<std::vector<TransactionBatch>> transaction_batches_from(
    const PartitionReplica& replica, std::int64_t from);

}  // namespace kepoch
