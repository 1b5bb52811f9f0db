// Pins which records a consumer reads as data (storage/consumer_view): a producer's
// transactional batches are aborted by its next ABORT marker and committed by a COMMIT
// marker (EndTransactionMarker; a read_committed consumer skips aborted batches by the
// Fetch answer's aborted transactions), control batches are never returned, and a
// transaction without a marker is open (it may still commit). Read from the real Kafka
// fixture tests/data/transactions (a committed and an aborted transaction, plain records).
#include <catch2/catch.hpp>

#include "kepoch/storage/consumer_view.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;

namespace {

TransactionBatch data(std::int64_t base, std::int64_t pid, bool transactional = true) {
  TransactionBatch b;
  b.base_offset = b.last_offset = base;
  b.records = 1;
  b.transactional = transactional;
  b.producer_id = pid;
  return b;
}

TransactionBatch marker(std::int64_t base, std::int64_t pid,
                        std::optional<ControlRecordType> type) {
  TransactionBatch b = data(base, pid);
  b.control = true;
  b.marker = type;
  return b;
}

}  // namespace

TEST_CASE("EndTransactionMarker: ABORT aborts, COMMIT commits, per producer id",
          "[storage][consumer_view]") {
  const std::vector<TransactionBatch> log{data(0, 1),
                                          data(1, 2),
                                          data(2, 1),
                                          data(3, -1, false),
                                          marker(4, 1, ControlRecordType::abort),
                                          marker(5, 2, ControlRecordType::commit),
                                          data(6, 1)};
  const auto kinds = consumer_kinds(log);
  CHECK(kinds == std::vector<RecordKind>{RecordKind::aborted, RecordKind::data, RecordKind::aborted,
                                         RecordKind::data, RecordKind::control, RecordKind::control,
                                         RecordKind::data});  // 6: open, may still commit
}

TEST_CASE("A marker that cannot be read does not abort", "[storage][consumer_view]") {
  const auto kinds = consumer_kinds({data(0, 1), marker(1, 1, std::nullopt)});
  CHECK(kinds == std::vector<RecordKind>{RecordKind::data, RecordKind::control});
}

TEST_CASE("Kafka's transactions fixture: committed, aborted, markers, plain records",
          "[storage][consumer_view]") {
  const PartitionReplica r = load_partition_replica(
      std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/transactions/tx-0",
      ReplicaOverrides{9, 9, 0, true});
  const auto batches = transaction_batches_from(r, 0);
  REQUIRE(batches);
  const auto kinds = consumer_kinds(*batches);
  std::map<RecordKind, std::int64_t> records;
  std::vector<std::int64_t> aborted;
  for (std::size_t i = 0; i < batches->size(); ++i) {
    records[kinds[i]] += (*batches)[i].records;
    if (kinds[i] == RecordKind::aborted)
      for (auto o = (*batches)[i].base_offset; o <= (*batches)[i].last_offset; ++o)
        aborted.push_back(o);
  }
  CHECK(records[RecordKind::data] == 5);     // commit-0..2, plain-0..1
  CHECK(records[RecordKind::aborted] == 2);  // abort-0..1
  CHECK(records[RecordKind::control] == 2);  // the COMMIT and ABORT markers
  CHECK(aborted == std::vector<std::int64_t>{4, 5});
  // From offset 4 on (the batch holding it): the aborted transaction, its marker, the rest.
  const auto tail = transaction_batches_from(r, 4);
  REQUIRE(tail);
  REQUIRE_FALSE(tail->empty());
  CHECK(tail->front().base_offset == 4);
}

TEST_CASE("The batches from an offset, entered at the offset index's entry, are batches_from's",
          "[storage][consumer_view]") {
  // ix-0: 31 one-record batches with an offset index (LogSegment.translateOffset's seek).
  const PartitionReplica r = load_partition_replica(std::filesystem::path(KEPOCH_SOURCE_DIR) /
                                                    "tests/unit/data/indexes/ix-0");
  // From offset 0 every segment is read from its start: the reference for the attributes.
  const auto whole = transaction_batches_from(r, 0);
  REQUIRE(whole);
  std::map<std::int64_t, std::pair<bool, std::int64_t>> attributes;
  for (const auto& b : *whole)
    attributes[b.base_offset] = {b.transactional, b.producer_id};
  for (std::int64_t from : {1, 12, 25, 30, 31}) {
    const auto got = transaction_batches_from(r, from);
    REQUIRE(got);
    const BatchRange want = batches_from(r, from);
    REQUIRE(got->size() == want.batches.size());
    for (std::size_t i = 0; i < got->size(); ++i) {
      CHECK((*got)[i].base_offset == want.batches[i].base_offset);
      CHECK((*got)[i].last_offset == want.batches[i].last_offset);
      CHECK(attributes[(*got)[i].base_offset] ==
            std::pair{(*got)[i].transactional, (*got)[i].producer_id});
    }
  }
}
