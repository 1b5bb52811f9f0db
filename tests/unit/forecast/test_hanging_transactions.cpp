// Pins the hanging-transaction forecast (forecast/hanging_transactions) to
// TransactionsCommand.FindHangingTransactionsCommand.filterHangingTransactions: an open
// transaction whose producer id no transactional id currently holds is hanging (with every
// __transaction_state partition read; otherwise unknown, never "not hanging"); one whose
// transactional id's topicPartitions list the partition is tracked (the coordinator writes
// the marker or aborts it); otherwise hanging. The last stable offset is the oldest open
// transaction's first offset (UnifiedLog.lastStableOffset); the remedy is
// AbortTransactionCommand's --topic/--partition/--start-offset.
#include <catch2/catch.hpp>

#include <fstream>

#include "kepoch/base/error.hpp"

#include "kepoch/forecast/hanging_transactions.hpp"
#include "kepoch/report/hanging_report.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

const report::Value& at(const report::Value& v, std::string_view key) {
  const report::Value* m = v.find(key);
  REQUIRE(m);
  return *m;
}
std::string text(const report::Value& v, std::string_view key) {
  return report::scalar_text(at(v, key));
}

OpenTransaction txn(std::int64_t pid, std::int64_t first) {
  OpenTransaction t;
  t.producer_id = pid;
  t.producer_epoch = 1;
  t.first_offset = first;
  t.last_timestamp = 5;
  return t;
}

// A coordinator state with one transactional id per (id, producer id, state, partitions).
CoordinatorKnowledge coordinator_with(
    const std::vector<std::tuple<std::string, std::int64_t, int,
                                 std::vector<std::pair<std::string, std::int32_t>>>>& ids) {
  CoordinatorKnowledge k;
  const auto* type = coordinator_record_type(CoordinatorLog::transactions, 0);
  std::int64_t offset = 0;
  for (const auto& [name, pid, status, parts] : ids) {
    CoordinatorRecord r;
    r.type = type;
    r.key.kind = SchemaValue::Kind::object;
    SchemaValue text;
    text.kind = SchemaValue::Kind::text;
    text.text = name;
    r.key.members.push_back({"transactional_id", text});
    r.value_version = 1;
    r.value.kind = SchemaValue::Kind::object;
    SchemaValue integer;
    integer.kind = SchemaValue::Kind::integer;
    integer.integer = pid;
    r.value.members.push_back({"producer_id", integer});
    integer.integer = status;
    r.value.members.push_back({"transaction_status", integer});
    SchemaValue list;
    list.kind = SchemaValue::Kind::array;
    for (const auto& [topic, partition] : parts) {
      SchemaValue tp;
      tp.kind = SchemaValue::Kind::object;
      text.text = topic;
      tp.members.push_back({"topic", text});
      SchemaValue ps;
      ps.kind = SchemaValue::Kind::array;
      integer.integer = partition;
      ps.items.push_back(integer);
      tp.members.push_back({"partition_ids", ps});
      list.items.push_back(tp);
    }
    r.value.members.push_back({"transaction_partitions", list});
    k.state.apply(r, offset++, "test");
  }
  return k;
}

constexpr int kOngoing = 1, kCompleteCommit = 4;

}  // namespace

TEST_CASE("No open transaction: nothing hangs and no last stable offset", "[forecast][hanging]") {
  const auto t = judge_transactions("t", 0, std::vector<OpenTransaction>{}, "src", {}, nullptr);
  CHECK(t.known);
  CHECK(t.open.empty());
  CHECK_FALSE(t.last_stable_offset);
  CHECK_FALSE(t.danger());
}

TEST_CASE("The leader's producer state not known: unknown and no verdict", "[forecast][hanging]") {
  const auto t = judge_transactions("t", 0, std::nullopt, "a log dir snapshot", {}, nullptr);
  CHECK_FALSE(t.known);
  CHECK(t.source == "a log dir snapshot");
  CHECK(at(report::transactions_value(t), "hanging_transactions").is_null());
}

TEST_CASE("Without __transaction_state: unknown and a lost marker makes it a danger",
          "[forecast][hanging]") {
  const auto t = judge_transactions("t", 3, std::vector<OpenTransaction>{txn(7, 10), txn(8, 4)},
                                    "src", {{7, 12}, {8, 2}, {9, 20}}, nullptr);
  REQUIRE(t.open.size() == 2);
  const auto& a = t.open[0];  // producer 7 at 10: its marker at 12 removed
  CHECK(a.marker_lost);
  CHECK(a.lost_marker_offset == 12);
  CHECK(a.coordinator == Tracking::unknown);
  CHECK_FALSE(a.hanging);
  const auto& b = t.open[1];  // producer 8 at 4: the marker at 2 ended an earlier transaction
  CHECK_FALSE(b.marker_lost);
  CHECK(t.last_stable_offset == 4);
  CHECK(t.unknown == 2);
  CHECK(t.danger());  // a lost marker, the coordinator unknown: cannot be ruled out
  CHECK(report::hanging_sentence({t}).find("may hang") != std::string::npos);
}

TEST_CASE("An open transaction no marker was lost for and coordinator unknown: not a danger",
          "[forecast][hanging]") {
  const auto t =
      judge_transactions("t", 0, std::vector<OpenTransaction>{txn(7, 10)}, "src", {}, nullptr);
  CHECK_FALSE(t.danger());
  CHECK(report::hanging_sentence({t}).empty());
}

TEST_CASE("find-hanging: the transactional id lists the partition: tracked and not hanging",
          "[forecast][hanging]") {
  const CoordinatorKnowledge k = coordinator_with({{"tx", 7, kOngoing, {{"t", 3}}}});
  const auto t =
      judge_transactions("t", 3, std::vector<OpenTransaction>{txn(7, 10)}, "src", {{7, 12}}, &k);
  REQUIRE(t.open.size() == 1);
  CHECK(t.open[0].coordinator == Tracking::tracked);
  CHECK(t.open[0].hanging == false);
  CHECK(t.open[0].transactional_id == "tx");
  CHECK(t.open[0].coordinator_state == "Ongoing");
  CHECK_FALSE(t.danger());
}

TEST_CASE("find-hanging: CompleteCommit lists no partition: hanging", "[forecast][hanging]") {
  const CoordinatorKnowledge k =
      coordinator_with({{"tx", 7, kOngoing, {{"t", 3}}}, {"tx", 7, kCompleteCommit, {}}});
  const auto t =
      judge_transactions("t", 3, std::vector<OpenTransaction>{txn(7, 10)}, "src", {{7, 12}}, &k);
  REQUIRE(t.open.size() == 1);
  CHECK(t.open[0].coordinator == Tracking::not_tracked);
  CHECK(t.open[0].hanging == true);
  CHECK(t.open[0].coordinator_state == "CompleteCommit");
  CHECK(t.hanging == 1);
  CHECK(t.danger());
  CHECK(t.open[0].abort_command ==
        "kafka-transactions.sh --bootstrap-server BROKER:9092 abort --topic t --partition 3 "
        "--start-offset 10");
  CHECK(report::hanging_sentence({t}).find("1 transaction will hang (first: t-3 at offset 10)") !=
        std::string::npos);
}

TEST_CASE("find-hanging: Ongoing on other partitions only: hanging here", "[forecast][hanging]") {
  const CoordinatorKnowledge k = coordinator_with({{"tx", 7, kOngoing, {{"t", 1}, {"u", 3}}}});
  const auto t =
      judge_transactions("t", 3, std::vector<OpenTransaction>{txn(7, 10)}, "src", {}, &k);
  CHECK(t.open[0].hanging == true);
}

TEST_CASE("find-hanging: a producer id no transactional id holds", "[forecast][hanging]") {
  // The transactional id moved on to producer id 8 (ListTransactions filters by the current
  // producer id): 7 is held by none.
  CoordinatorKnowledge k = coordinator_with({{"tx", 8, kCompleteCommit, {}}});
  const std::vector<OpenTransaction> open{txn(7, 10)};
  SECTION("not every partition of __transaction_state read: unknown") {
    const auto t = judge_transactions("t", 3, open, "src", {}, &k);
    CHECK(t.open[0].coordinator == Tracking::unknown);
    CHECK_FALSE(t.open[0].hanging);
    CHECK_FALSE(k.complete());
  }
  SECTION("every partition read (--transaction-state-partitions): hanging") {
    // apply() records no partition read: read_replica does; mark them as a reader would.
    k.partition_count = 0;  // zero partitions: all of them read
    CHECK(k.complete());
    const auto t = judge_transactions("t", 3, open, "src", {}, &k);
    CHECK(t.open[0].coordinator == Tracking::not_tracked);
    CHECK(t.open[0].hanging == true);
  }
}

TEST_CASE("CoordinatorKnowledge::complete needs every partition of the count",
          "[forecast][hanging]") {
  CoordinatorKnowledge k;
  k.state.read_replica(
      load_partition_replica(std::filesystem::path(KEPOCH_SOURCE_DIR) /
                                 "tests/data/coordinator/4.4.0/__transaction_state-0",
                             ReplicaOverrides{std::nullopt, std::nullopt, 0, true}));
  CHECK_FALSE(k.complete());  // count not known
  k.partition_count = 1;
  CHECK(k.complete());
  k.partition_count = 2;
  CHECK_FALSE(k.complete());
}

TEST_CASE("The abort command quotes what a shell would split", "[forecast][hanging]") {
  CHECK(abort_command("b1:9092,b2:9092", "my topic", 0, 5) ==
        "kafka-transactions.sh --bootstrap-server b1:9092,b2:9092 abort --topic 'my topic' "
        "--partition 0 --start-offset 5");
  CHECK(abort_command("h:1", "it's", 1, 2).find("--topic 'it'\\''s'") != std::string::npos);
}

TEST_CASE("The report's fields", "[forecast][hanging]") {
  const CoordinatorKnowledge k = coordinator_with({{"tx", 7, kCompleteCommit, {}}});
  const auto t =
      judge_transactions("t", 3, std::vector<OpenTransaction>{txn(7, 10)}, "src", {{7, 12}}, &k);
  const report::Value v = report::transactions_value(t);
  CHECK(text(v, "last_stable_offset") == "10");
  CHECK(text(v, "hanging_transactions") == "1");
  const report::Value& o = at(v, "open_transactions").as_array().at(0);
  CHECK(text(o, "producer_id") == "7");
  CHECK(text(o, "start_offset") == "10");
  CHECK(text(o, "marker_lost") == "true");
  CHECK(text(o, "lost_marker_offset") == "12");
  CHECK(text(o, "coordinator") == "not_tracked");
  CHECK(text(o, "hanging") == "true");
}

TEST_CASE("read_coordinator: a log dir's __transaction_state partitions and the longest copy wins",
          "[forecast][hanging]") {
  const auto fixtures = std::filesystem::path(KEPOCH_SOURCE_DIR) / "tests/data/coordinator/4.4.0";
  char tmpl[] = "/tmp/kepoch-coordinator-XXXXXX";
  const std::filesystem::path root = ::mkdtemp(tmpl);
  struct Cleanup {
    std::filesystem::path p;
    ~Cleanup() { std::filesystem::remove_all(p); }
  } cleanup{root};
  // Two log dirs: a holds both partitions, b an empty copy of partition 0 (shorter: not read).
  for (const char* d : {"a", "b"}) {
    std::filesystem::create_directories(root / d);
    std::ofstream(root / d / "replication-offset-checkpoint") << "0\n0\n";
  }
  for (const char* p : {"__transaction_state-0", "__transaction_state-1"})
    std::filesystem::copy(fixtures / p, root / "a" / p);
  std::filesystem::create_directories(root / "b/__transaction_state-0");
  std::ofstream(root / "b/__transaction_state-0/00000000000000000000.log");
  const CoordinatorKnowledge k = read_coordinator({}, {root / "b", root / "a"}, 2);
  CHECK(k.complete());
  CHECK(k.state.partitions_read().at(0) == (root / "a/__transaction_state-0").string());
  REQUIRE(k.state.ids().count("tx-ongoing"));
  // A replica dir given directly, and a path that is neither: refused.
  const CoordinatorKnowledge one =
      read_coordinator({}, {root / "a/__transaction_state-1"}, std::nullopt);
  CHECK(one.state.partitions_read().size() == 1);
  CHECK_THROWS_AS(read_coordinator({}, {root}, std::nullopt), InputError);
  // A forecast's leader of __transaction_state is read first; one from a log dir snapshot
  // (no records) is not read at all.
  PartitionReplica from_snapshot = load_partition_replica(root / "a/__transaction_state-1");
  const CoordinatorKnowledge led = read_coordinator({&from_snapshot}, {}, std::nullopt);
  CHECK(led.state.partitions_read().size() == 1);
  from_snapshot.stored.emplace();
  const CoordinatorKnowledge blind = read_coordinator({&from_snapshot}, {}, std::nullopt);
  CHECK(blind.state.partitions_read().empty());
}
