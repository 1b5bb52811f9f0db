#pragma once
// The transactions a partition replica's producer state holds open, as Kafka rebuilds that
// state when it loads or truncates a log (UnifiedLog.rebuildProducerState,
// ProducerStateManager.truncateAndReload / loadFromSnapshot, ProducerAppendInfo):
//
//   - the seed is the latest producer snapshot `<offset>.snapshot` (format/producer_snapshot)
//     with log start < offset <= log end (truncateAndReload deletes the others); one Kafka
//     refuses (CorruptSnapshotException) is skipped for the next older one. Its entries with
//     currentTxnFirstOffset >= 0 are open transactions (loadProducerEntry: ongoingTxns);
//   - without a snapshot: after a clean shutdown Kafka assumes no producer state (the
//     upgrade shortcut of rebuildProducerState: empty snapshots, no scan); otherwise it
//     replays from the log start;
//   - the replay, batch by batch from the snapshot's offset (or the log start) to the log
//     end, as ProducerAppendInfo applies a batch of AppendOrigin.REPLICATION/LOG (no epoch or
//     sequence checks): a transactional data batch opens its producer's transaction at the
//     batch's first offset unless one is open (updateCurrentTxnFirstOffset); a control batch
//     (COMMIT or ABORT) closes it (appendEndTxnMarker); each batch sets the producer's epoch
//     and last timestamp. Non-transactional batches touch no transaction.
// The first offset of the oldest open transaction is the log's first unstable offset, where
// read_committed consumers stop (UnifiedLog.lastStableOffset: it, capped by the high
// watermark).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/format/producer_snapshot.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/transaction_batch.hpp"

namespace kepoch {

// One producer's open transaction (DescribeProducers' CurrentTransactionStartOffset).
struct OpenTransaction {
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;  // of its latest batch (-1: not known)
  std::int64_t first_offset = 0;     // currentTxnFirstOffset
  std::int64_t last_timestamp = -1;  // its latest batch's largest timestamp (-1: not known)
};

// The open transactions after replaying `batches` (one log's, in offset order, from the
// seed's offset on) over the snapshot entries `seed`, in first-offset order. Pure.
std::vector<OpenTransaction> replay_open_transactions(
    const std::vector<ProducerSnapshotEntry>& seed, const std::vector<TransactionBatch>& batches);

// A replica's open transactions as Kafka rebuilds them (see the header), or nullopt with
// `why` when they cannot be known (a replica read from a log dir snapshot keeps no producer
// snapshot). `source` says what was read. Throws InputError when a segment cannot be read.
struct ReplicaOpenTransactions {
  std::optional<std::vector<OpenTransaction>> open;
  std::string source;  // "producer snapshot <file> + replay from N", "replay from log start N"
  std::string why;     // when open is nullopt
};
ReplicaOpenTransactions replica_open_transactions(const PartitionReplica& replica);

}  // namespace kepoch
