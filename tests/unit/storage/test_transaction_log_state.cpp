// Pins what kepoch takes the transaction coordinator to know (storage/transaction_log_state)
// to TransactionStateManager.loadTransactionsForTxnTopicPartition: the latest
// TransactionLogValue of each transactional id wins, a tombstone removes it; and to what
// find-hanging asks of it: ListTransactions by *current* producer id, DescribeTransactions'
// topicPartitions (empty once CompleteCommit/CompleteAbort). Read from the real Kafka 4.4.0
// and 3.9.1 coordinator fixtures (tests/data/coordinator: tx-commit committed, tx-abort
// aborted, tx-ongoing still Ongoing on orders-0 and orders-2).
#include <catch2/catch.hpp>

#include "kepoch/storage/transaction_log_state.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

TransactionLogState read_fixture(const std::string& version) {
  TransactionLogState state;
  for (int p : {0, 1})
    state.read_replica(
        load_partition_replica(std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/coordinator" /
                                   version / ("__transaction_state-" + std::to_string(p)),
                               ReplicaOverrides{std::nullopt, std::nullopt, 0, true}));
  return state;
}

}  // namespace

TEST_CASE("The coordinator's latest state per transactional id and Kafka 4.4.0 and 3.9.1",
          "[storage][transaction_log_state]") {
  for (const std::string version : {"4.4.0", "3.9.1"}) {
    INFO(version);
    const TransactionLogState state = read_fixture(version);
    CHECK(state.partitions_read().size() == 2);
    const auto& ids = state.ids();
    REQUIRE(ids.count("tx-commit"));
    REQUIRE(ids.count("tx-abort"));
    REQUIRE(ids.count("tx-ongoing"));
    CHECK(ids.at("tx-commit").state == "CompleteCommit");
    CHECK(ids.at("tx-commit").partitions.empty());
    CHECK(ids.at("tx-abort").state == "CompleteAbort");
    const TransactionalIdState& ongoing = ids.at("tx-ongoing");
    CHECK(ongoing.state == "Ongoing");
    CHECK(ongoing.partitions ==
          std::vector<std::pair<std::string, std::int32_t>>{{"orders", 0}, {"orders", 2}});
    const TransactionalIdState* found = state.by_producer(ongoing.producer_id);
    REQUIRE(found);
    CHECK(found->transactional_id == "tx-ongoing");
    CHECK_FALSE(state.by_producer(-42));
  }
}

TEST_CASE("A tombstone removes the transactional id (transactional.id.expiration.ms)",
          "[storage][transaction_log_state]") {
  TransactionLogState state = read_fixture("4.4.0");
  const auto* type = coordinator_record_type(CoordinatorLog::transactions, 0);
  REQUIRE(type);
  CoordinatorRecord tombstone;
  tombstone.type = type;
  tombstone.key.kind = SchemaValue::Kind::object;
  SchemaValue id;
  id.kind = SchemaValue::Kind::text;
  id.text = "tx-ongoing";
  tombstone.key.members.push_back({"transactional_id", id});
  const std::int64_t pid = state.ids().at("tx-ongoing").producer_id;
  state.apply(tombstone, 1000, "test");
  CHECK_FALSE(state.ids().count("tx-ongoing"));
  CHECK_FALSE(state.by_producer(pid));
}
