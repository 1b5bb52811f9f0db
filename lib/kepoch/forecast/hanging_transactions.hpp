#pragma once
// Hanging transactions after a truncation: per partition, the transactions the surviving log
// (the leader's: followers truncate to it and replicate it) holds open, whether the
// truncation removed their marker, whether the coordinator still tracks them, where
// read_committed consumers stop, and the command that aborts them.
//
// The rules:
//   - open transactions: the leader's producer state as Kafka rebuilds it
//     (storage/producer_transactions: the producer snapshot, then the log replayed);
//     DescribeProducers answers from it (CurrentTransactionStartOffset);
//   - marker lost: a follower's removed tail (from where the forecast truncates it) holds a
//     COMMIT or ABORT marker of that producer at or after the transaction's first offset;
//     the coordinator wrote it, so it had moved past Ongoing for this partition;
//   - hanging, as TransactionsCommand.FindHangingTransactionsCommand.filterHangingTransactions
//     decides over the coordinator's state (storage/transaction_log_state): no transactional
//     id whose current producer id is the transaction's (ListTransactions) -> hanging; else
//     hanging unless that id's partitions (DescribeTransactions' topicPartitions: Ongoing,
//     or a PrepareCommit/PrepareAbort still owing the marker) include this partition. When
//     the coordinator's log was not given, or the producer id is not among the partitions of
//     __transaction_state read and not all of them were, it is unknown (never "not hanging").
//     find-hanging also skips transactions whose producer wrote within
//     --max-transaction-timeout (15 minutes): a time filter, not a state; the forecast is of
//     the state a later find-hanging sees;
//   - the last stable offset (UnifiedLog.lastStableOffset = the first unstable offset, the
//     oldest open transaction's first offset, capped by the high watermark): read_committed
//     consumers read no further until that transaction ends;
//   - the remedy: `kafka-transactions.sh --bootstrap-server B abort --topic T --partition P
//     --start-offset O` (TransactionsCommand.AbortTransactionCommand: the open transaction
//     starting at O, found by DescribeProducers, aborted with WriteTxnMarkers).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/forecast/election_forecast.hpp"
#include "kepoch/storage/producer_transactions.hpp"
#include "kepoch/storage/transaction_log_state.hpp"

namespace kepoch::forecast {

// The coordinator's state the forecast judges by: its log read from the given replicas of
// __transaction_state, and whether every partition of it was read (`partition_count`: the
// cluster's transaction.state.log.num.partitions, when known).
struct CoordinatorKnowledge {
  TransactionLogState state;
  std::optional<std::int32_t> partition_count;
  bool complete() const;  // every partition 0..partition_count-1 read
};

enum class Tracking { tracked, not_tracked, unknown };

struct TransactionForecast {
  OpenTransaction transaction;
  bool marker_lost = false;  // a follower's removed tail held its marker
  std::optional<std::int64_t> lost_marker_offset;
  Tracking coordinator = Tracking::unknown;
  std::optional<std::string> transactional_id;
  std::optional<std::string> coordinator_state;  // TransactionState.stateName
  std::optional<bool> hanging;                   // nullopt: unknown
  std::string reason;
  std::string abort_command;
};

struct PartitionTransactions {
  std::string topic;
  std::int32_t partition = 0;
  bool known = false;                     // the leader's open transactions could be rebuilt
  std::string source;                     // what was read (or why not)
  std::vector<TransactionForecast> open;  // in first-offset order
  std::optional<std::int64_t> last_stable_offset;  // nullopt: none open (or not known)
  std::size_t hanging = 0;
  std::size_t unknown = 0;  // hanging not known
  // COMMIT/ABORT markers the truncation removes from followers (whether or not the leader's
  // open transactions are known).
  std::size_t lost_markers = 0;
  // A hanging transaction is forecast, or one cannot be ruled out (a transaction whose
  // marker the truncation removes, its coordinator unknown; or markers removed while the
  // leader's open transactions are not known): the exit's predicate.
  bool danger() const;
};

// The placeholder the offline commands print for the bootstrap server.
inline constexpr std::string_view kBootstrapPlaceholder = "BROKER:9092";

// `kafka-transactions.sh --bootstrap-server B abort --topic T --partition P --start-offset O`,
// each word quoted for a POSIX shell where it needs it.
std::string abort_command(std::string_view bootstrap, const std::string& topic,
                          std::int32_t partition, std::int64_t start_offset);

// The decision over facts already read (pure). `open`: the leader's open transactions
// (nullopt: not known); `lost_markers`: (producer id, offset) of each COMMIT/ABORT marker
// the truncation removes from a follower; `coordinator`: nullptr when no __transaction_state
// was given.
PartitionTransactions judge_transactions(
    const std::string& topic, std::int32_t partition,
    const std::optional<std::vector<OpenTransaction>>& open, const std::string& source,
    const std::vector<std::pair<std::int64_t, std::int64_t>>& lost_markers,
    const CoordinatorKnowledge* coordinator, std::string_view bootstrap = kBootstrapPlaceholder);

// The coordinator's state read from replicas of __transaction_state: `leaders`, the
// forecast's leaders of its partitions (the log that survives), and `paths`, log dirs or
// __transaction_state-N replica dirs (for a partition several of them hold: the replica with
// the largest log end offset, unless a leader was given for it). InputError when a path is
// neither, or a replica cannot be read.
CoordinatorKnowledge read_coordinator(const std::vector<const PartitionReplica*>& leaders,
                                      const std::vector<std::filesystem::path>& paths,
                                      std::optional<std::int32_t> partition_count);

// The forecast of one predicted partition: the leader's open transactions read from its
// replica, and each follower's removed markers in the main mode (from where it truncates).
// A replica that cannot be read leaves the partition's transactions unknown (the reason in
// `source`), not the run failed.
PartitionTransactions forecast_transactions(const PartitionPrediction& prediction,
                                            const CoordinatorKnowledge* coordinator,
                                            std::string_view bootstrap = kBootstrapPlaceholder);

}  // namespace kepoch::forecast
