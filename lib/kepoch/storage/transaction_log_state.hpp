#pragma once
// What the transaction coordinator knows of each transactional id, from its log
// __transaction_state (format/coordinator_record: TransactionLogKey / TransactionLogValue),
// as TransactionStateManager.loadTransactionsForTxnTopicPartition rebuilds it: records in
// offset order, the latest value of a transactional id replacing the one before, a tombstone
// (no value) removing it. The coordinator reads the partition's log to its end.
//
// What find-hanging asks of it (TransactionsCommand.FindHangingTransactionsCommand):
//   - ListTransactions filtered by producer id (TransactionStateManager.listTransactionStates:
//     the transactional ids whose *current* producer id is one of them);
//   - DescribeTransactions: that id's state and topicPartitions (the partitions of an Ongoing
//     transaction, and those a PrepareCommit/PrepareAbort still owes a marker; empty once
//     complete: TransactionMetadata.prepareComplete clears them).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch {

struct TransactionalIdState {
  std::string transactional_id;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::string state;  // TransactionState.stateName: Ongoing, CompleteCommit, ...
  std::vector<std::pair<std::string, std::int32_t>> partitions;  // topic, partition
  std::int64_t offset = -1;                                      // of the record it was read from
  std::string source;                                            // the replica it was read from
};

class TransactionLogState {
 public:
  // One record of __transaction_state at `offset` (records in offset order). Records of
  // other types are ignored.
  void apply(const CoordinatorRecord& record, std::int64_t offset, const std::string& source);
  // Every record of a __transaction_state replica's loaded log, to its log end offset.
  // Throws InputError when a segment cannot be read or a record does not decode (naming the
  // file and byte).
  void read_replica(const PartitionReplica& replica);

  // The transactional id whose current producer id is `producer_id` (ListTransactions'
  // filter), or nullptr.
  const TransactionalIdState* by_producer(std::int64_t producer_id) const;
  const std::map<std::string, TransactionalIdState>& ids() const { return ids_; }
  // The __transaction_state partitions read, and from which replica.
  const std::map<std::int32_t, std::string>& partitions_read() const { return read_; }

 private:
  std::map<std::string, TransactionalIdState> ids_;
  std::map<std::int32_t, std::string> read_;
};

}  // namespace kepoch
