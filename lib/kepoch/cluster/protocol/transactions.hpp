#pragma once
// The transaction APIs of KIP-664, typed, as Kafka's Admin client uses them for
// `kafka-transactions.sh`: FindCoordinator (the transaction coordinator of a transactional
// id), DescribeProducers (a partition leader's producer states, with each open
// transaction's first offset), ListTransactions (the transactions one coordinator tracks)
// and DescribeTransactions (one transaction's state and the partitions still awaiting
// its marker).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// FindCoordinatorRequest's key types (CoordinatorType).
inline constexpr std::int8_t kGroupCoordinator = 0;
inline constexpr std::int8_t kTransactionCoordinator = 1;

// v4+ batches the keys; below, one key per request (`keys` must hold one).
Struct make_find_coordinator_request(std::int16_t version, std::int8_t key_type,
                                     const std::vector<std::string>& keys);

struct Coordinator {
  std::string key;
  std::int32_t node_id = -1;
  std::string host;
  std::int32_t port = -1;
  std::int16_t error_code = 0;
  std::optional<std::string> error_message;
};

// Each key's coordinator; below v4 the one answer, named `single_key`.
std::vector<Coordinator> coordinators_from(const Struct& body, const std::string& single_key);

struct PartitionQuery {
  std::string topic;
  std::int32_t partition = 0;
};

Struct make_describe_producers_request(const std::vector<PartitionQuery>& partitions);

struct ProducerStateEntry {
  std::int64_t producer_id = -1;
  std::int32_t producer_epoch = -1;
  std::int32_t last_sequence = -1;
  std::int64_t last_timestamp = -1;
  std::int32_t coordinator_epoch = -1;
  std::int64_t current_txn_start_offset = -1;  // -1: no open transaction
};

struct PartitionProducers {
  std::string topic;
  std::int32_t partition = 0;
  std::int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::vector<ProducerStateEntry> active_producers;
};

std::vector<PartitionProducers> describe_producers_from(const Struct& body);

// Empty filters list every transaction (duration_filter -1: any age; v1+).
Struct make_list_transactions_request(const std::vector<std::int64_t>& producer_ids,
                                      const std::vector<std::string>& states = {});

struct TransactionListing {
  std::string transactional_id;
  std::int64_t producer_id = -1;
  std::string state;
};

struct ListTransactionsResult {
  std::int16_t error_code = 0;
  std::vector<TransactionListing> transactions;
};

ListTransactionsResult list_transactions_from(const Struct& body);

Struct make_describe_transactions_request(const std::vector<std::string>& transactional_ids);

struct TransactionDescription {
  std::int16_t error_code = 0;
  std::string transactional_id;
  std::string state;
  std::int32_t timeout_ms = 0;
  std::int64_t start_time_ms = -1;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::vector<PartitionQuery> partitions;
};

std::vector<TransactionDescription> describe_transactions_from(const Struct& body);

}  // namespace kepoch::cluster::protocol
