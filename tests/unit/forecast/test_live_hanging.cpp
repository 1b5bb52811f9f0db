// The find-hanging rule of Kafka's TransactionsCommand.FindHangingTransactionsCommand, branch
// by branch: collectCandidateOpenTransactions (an open transaction, last write older than
// the timeout, strictly), filterHangingTransactions (no transactional id, no description,
// the partition not in the description), and kepoch's unknowns where find-hanging would
// fail the run.
#include <catch2/catch.hpp>

#include "kepoch/forecast/live_hanging.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;
using forecast::judge_open;
using forecast::open_candidates;

constexpr std::int64_t kNow = 10'000'000;
constexpr std::int64_t kTimeout = 15 * 60 * 1000;

PartitionProducers partition(std::string topic, std::int32_t p,
                             std::vector<ProducerStateEntry> producers) {
  return {std::move(topic), p, 0, std::nullopt, std::move(producers)};
}

ProducerStateEntry open_since(std::int64_t pid, std::int64_t last, std::int64_t start) {
  return {pid, 2, 9, last, 4, start};
}

TransactionDescription described(std::string id, std::int64_t pid, std::string state,
                                 std::vector<PartitionQuery> partitions) {
  TransactionDescription d;
  d.transactional_id = std::move(id);
  d.producer_id = pid;
  d.state = std::move(state);
  d.partitions = std::move(partitions);
  return d;
}

}  // namespace

TEST_CASE("Candidates: open transactions whose last write is older than the timeout",
          "[forecast][hanging]") {
  const auto c = open_candidates(
      {partition("h", 0,
                 {open_since(1, kNow - kTimeout - 1, 3),     // older: candidate
                  open_since(2, kNow - kTimeout, 5),         // exactly the timeout: not (> only)
                  open_since(3, kNow - kTimeout - 1, -1)}),  // no open transaction
       {"h", 1, 6, std::string("NOT_LEADER_OR_FOLLOWER"), {open_since(4, 0, 0)}}},
      kNow, kTimeout);
  REQUIRE(c.size() == 1);
  CHECK(c[0].producer_id == 1);
  CHECK(c[0].start_offset == 3);
  CHECK(c[0].coordinator_epoch == 4);
  CHECK(c[0].duration_minutes == 15);  // TimeUnit.MILLISECONDS.toMinutes(900001)
  const auto zero = open_candidates({partition("h", 0, {open_since(1, kNow - 1, 3)})}, kNow, 0);
  CHECK(zero.size() == 1);  // --max-transaction-timeout 0: any open transaction 1 ms old
}

TEST_CASE("Hanging: each branch of filterHangingTransactions", "[forecast][hanging]") {
  auto open = open_candidates({partition("h", 0,
                                         {open_since(10, 0, 3), open_since(11, 0, 4),
                                          open_since(12, 0, 5), open_since(13, 0, 6)})},
                              kNow, 0);
  REQUIRE(open.size() == 4);
  const std::vector<TransactionListing> listings = {
      {"gone", 11, "Ongoing"},      // described as not found
      {"moved-on", 12, "Ongoing"},  // tracked, without h-0
      {"writing", 13, "Ongoing"},   // tracked, with h-0
      {"stranger", 99, "Ongoing"},  // not asked for: ignored
  };
  TransactionDescription gone = described("gone", 11, "", {});
  gone.error_code = 105;  // TRANSACTIONAL_ID_NOT_FOUND
  const std::vector<TransactionDescription> descriptions = {
      gone, described("moved-on", 12, "Ongoing", {{"h", 1}}),
      described("writing", 13, "PrepareCommit", {{"h", 0}})};
  judge_open(open, listings, true, descriptions, "kafka-1:9092");
  CHECK(open[0].hanging == true);  // producer id 10: no transactional id
  CHECK_FALSE(open[0].transactional_id);
  CHECK(open[1].hanging == true);  // no description
  CHECK(open[2].hanging == true);  // partition not in the transaction
  CHECK(open[2].coordinator_state == "Ongoing");
  CHECK(open[3].hanging == false);  // the coordinator will write the marker
  CHECK(open[0].abort_command ==
        "kafka-transactions.sh --bootstrap-server kafka-1:9092 abort --topic h --partition 0 "
        "--start-offset 3");
}

TEST_CASE("What find-hanging would fail on is unknown, never not hanging", "[forecast][hanging]") {
  auto open = open_candidates(
      {partition("h", 0, {open_since(10, 0, 3), open_since(11, 0, 4), open_since(12, 0, 5)})}, kNow,
      0);
  TransactionDescription unasked = described("a", 11, "", {});
  unasked.error_code = -1;  // coordinator not reachable
  TransactionDescription loading = described("b", 12, "", {});
  loading.error_code = 14;  // COORDINATOR_LOAD_IN_PROGRESS
  // A broker failed ListTransactions: producer id 10 may be tracked there.
  judge_open(open, {{"a", 11, "Ongoing"}, {"b", 12, "Ongoing"}}, false, {unasked, loading}, "b:1");
  for (const auto& o : open) {
    INFO(o.producer_id << ": " << o.reason);
    CHECK_FALSE(o.hanging.has_value());
  }
  forecast::LiveHangingSearch s;
  s.open = open;
  s.unanswered.push_back({"h", 1, "no leader"});
  CHECK(s.hanging() == 0);
  CHECK(s.unknown() == 4);
}

TEST_CASE("A producer id an authorizer may withhold from ListTransactions is unknown, not hanging",
          "[forecast][hanging]") {
  auto open =
      open_candidates({partition("h", 0, {open_since(10, 0, 3), open_since(11, 0, 4)})}, kNow, 0);
  REQUIRE(open.size() == 2);
  // Every broker answered, but the principal may not Describe every transactional id:
  // producer id 10's may be one of those (ListTransactions leaves them out without a word).
  judge_open(open, {{"seen", 11, "Ongoing"}}, true, {described("seen", 11, "Ongoing", {{"h", 0}})},
             "b:1", /*ids_may_be_withheld=*/true);
  CHECK_FALSE(open[0].hanging.has_value());
  CHECK_THAT(open[0].reason, Catch::Contains("may not Describe"));
  CHECK(open[1].hanging == false);  // listed and awaited: judged as before
  // Without an authorizer's filter, the same listing makes producer id 10 hang.
  judge_open(open, {{"seen", 11, "Ongoing"}}, true, {described("seen", 11, "Ongoing", {{"h", 0}})},
             "b:1");
  CHECK(open[0].hanging == true);
}
