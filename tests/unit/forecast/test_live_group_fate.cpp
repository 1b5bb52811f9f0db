// Pins forecast/live_group_fate: consumer groups' fates where a live forecast elects a replica
// whose log is given (cluster predict --groups), from OffsetFetch's answers, on
// tests/data/consumer-fate's broker 2 (Kafka 4.4.0: cache {0:0, 2:10}, log end 18) elected
// once more at epoch 3 (Partition.makeLeader adds 3 at 18). The old leader's log is not given:
// only a committed leader epoch places what a group consumed (KIP-320's lookup). What Kafka's
// consumers do with such a forecast: tests/oracle/consumer-fate-vs-kafka.sh.
#include <catch2/catch.hpp>

#include <string>

#include <sstream>

#include "kepoch/forecast/live_group_fate.hpp"
#include "kepoch/report/group_fate_report.hpp"
#include "kepoch/report/render.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
using cluster::protocol::FetchedOffset;
using cluster::protocol::GroupOffsets;

namespace {

std::string fixture(const std::string& path) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/consumer-fate/" + path;
}

FetchedOffset offset(const std::string& group, std::int32_t partition, std::int64_t at,
                     std::int32_t epoch, std::int16_t error = 0) {
  FetchedOffset o;
  o.group_id = group;
  o.topic = "f";
  o.partition = partition;
  o.committed_offset = at;
  o.committed_leader_epoch = epoch;
  o.error_code = error;
  return o;
}

LiveGroupOffsets scene_offsets() {
  std::vector<GroupOffsets> fetched;
  fetched.push_back({"e0-past", 0, {offset("e0-past", 0, 20, 0)}});
  fetched.push_back({"none-inside", 0, {offset("none-inside", 0, 15, -1)}});
  fetched.push_back({"none-past", 0, {offset("none-past", 0, 25, -1)}});
  // Another partition, and OffsetFetch's -1 (nothing committed): no row here.
  fetched.push_back(
      {"elsewhere", 0, {offset("elsewhere", 1, 5, 0), offset("elsewhere", 0, -1, -1)}});
  fetched.push_back({"partition-error", 0, {offset("partition-error", 0, -1, -1, 16)}});
  fetched.push_back({"coordinator-down", 15, {}});  // COORDINATOR_NOT_AVAILABLE
  return live_group_offsets({"e0-past", "none-inside", "none-past", "elsewhere", "partition-error",
                             "coordinator-down", "not-answered"},
                            fetched, true);
}

const GroupFate& group(const PartitionGroupFates& f, const std::string& name) {
  for (const auto& g : f.groups)
    if (g.group == name) return g;
  FAIL("no group " << name);
  throw;
}

}  // namespace

TEST_CASE("OffsetFetch's answers: offsets, epochs, and what could not be read",
          "[live_group_fate]") {
  const auto live = scene_offsets();
  CHECK(live.complete);
  CHECK(live.offsets.offsets.size() == 4);
  const auto& e0 = live.offsets.offsets.at({"e0-past", "f", 0});
  CHECK(e0.offset == 20);
  CHECK(e0.leader_epoch == 0);
  CHECK_FALSE(live.offsets.offsets.at({"none-inside", "f", 0}).leader_epoch);
  CHECK(live.offsets.offsets.count({"elsewhere", "f", 1}) == 1);
  CHECK(live.offsets.offsets.count({"elsewhere", "f", 0}) == 0);
  CHECK(live.offsets.pending_keys.count({"partition-error", "f", 0}) == 1);
  // An error code for the group, or no answer at all: unread.
  CHECK(live.unread_groups == std::set<std::string>{"coordinator-down", "not-answered"});
}

TEST_CASE("a returning replica elected: each group judged against its log, the old log unknown",
          "[live_group_fate]") {
  const PartitionReplica b2 = load_partition_replica(fixture("broker-2/f-0"));
  const auto f = elected_group_fates(
      b2, 3, scene_offsets(),
      {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::none});
  CHECK(f.topic == "f");
  CHECK(f.leader_epoch == 3);
  CHECK(f.leader.log_end_offset == 18);
  CHECK(f.leader.latest_offset == 18);
  CHECK_FALSE(f.consumed_known);
  // e0-past, none-inside, none-past, partition-error, coordinator-down, not-answered.
  CHECK(f.groups.size() == 6);

  // Committed 20 at epoch 0: endOffsetFor(0) is 10 (epoch 2's start) -> seek to 10, and the
  // epoch places what it read: 10-19 gone for good, known without the old log.
  const auto& e0 = group(f, "e0-past");
  REQUIRE(e0.outcomes.size() == 3);
  for (const auto& o : e0.outcomes) {
    CHECK(o.fate.lost_known);
    CHECK(o.fate.consumed_lost.from == 10);
    CHECK(o.fate.consumed_lost.to == 20);
  }
  CHECK(e0.outcomes[0].fate.action == FateAction::truncation_seek);
  CHECK(e0.outcomes[0].fate.next_position == 10);
  CHECK(e0.outcomes[2].fate.action == FateAction::log_truncation_exception);
  CHECK(e0.outcomes[2].fate.divergent_offset == 10);

  // Committed 15 without an epoch, inside the log: fetched at 15; whether 10-14 are new
  // records skipped unseen is the old log's to tell: unknown, not "unaffected".
  for (const auto& o : group(f, "none-inside").outcomes) {
    CHECK(o.fate.next_position == 15);
    CHECK_FALSE(o.fate.lost_known);
    CHECK_FALSE(o.fate.counts_known);
  }
  // Committed 25 without an epoch, past the log end 18: OFFSET_OUT_OF_RANGE.
  const auto& past = group(f, "none-past");
  CHECK(past.outcomes[0].fate.action == FateAction::out_of_range_reset);
  CHECK(past.outcomes[0].fate.next_position == 0);
  CHECK(past.outcomes[1].fate.next_position == 18);
  CHECK(past.outcomes[2].fate.action == FateAction::out_of_range_exception);

  for (const char* name : {"partition-error", "coordinator-down", "not-answered"}) {
    const auto& g = group(f, name);
    CHECK_FALSE(g.committed);
    CHECK(g.outcomes.empty());
    CHECK_FALSE(g.unknown_reason.empty());
  }
}

TEST_CASE("the new leader's log not given: every group there unknown, never unaffected",
          "[live_group_fate]") {
  const auto f = unknown_group_fates("f", 0, scene_offsets(), "broker 3's log is not given");
  CHECK(f.groups.size() == 6);
  for (const auto& g : f.groups) {
    CHECK_FALSE(g.committed);
    CHECK(g.outcomes.empty());
  }
  CHECK(group(f, "e0-past").unknown_reason == "broker 3's log is not given");
}

TEST_CASE("consumer_fate without the consumed log equals it where the committed epoch decides",
          "[live_group_fate][consumer_fate]") {
  ConsumerLeaderView l;
  l.cache = LeaderEpochCache::load({{0, 0}, {1, 50}});
  l.log_end_offset = 50;
  l.latest_offset = 50;
  const ConsumedLog consumed{50, 100};
  for (auto policy :
       {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::none}) {
    for (std::int64_t at : {30, 80, 120}) {
      const auto a = consumer_fate(l, consumed, {at, 0}, policy);
      const auto b = consumer_fate(l, std::nullopt, {at, 0}, policy);
      CHECK(a.action == b.action);
      CHECK(a.next_position == b.next_position);
      CHECK(a.consumed_lost.count() == b.consumed_lost.count());
      CHECK(a.reread.count() == b.reread.count());
      CHECK(b.lost_known);
      // Without an epoch the next fetch is the same, what was read is not known.
      const auto c = consumer_fate(l, consumed, {at, std::nullopt}, policy);
      const auto d = consumer_fate(l, std::nullopt, {at, std::nullopt}, policy);
      CHECK(c.next_position == d.next_position);
      CHECK(c.counts_known == c.next_position.has_value());  // not after an exception
      CHECK_FALSE(d.lost_known);
    }
  }
}

TEST_CASE("what-if: the partitions led uncleanly list their groups as unknown, no others",
          "[live_group_fate]") {
  live::StopForecast stop;
  live::PartitionForecast clean;
  clean.topic = "f";
  clean.partition = 1;
  clean.after.leader = 2;
  live::PartitionForecast unclean = clean;
  unclean.partition = 0;
  unclean.after.leader = 3;
  unclean.unclean_election = true;
  stop.partitions = {unclean, clean};
  const auto fates = stop_group_fates(stop, scene_offsets());
  REQUIRE(fates.size() == 1);
  CHECK(fates[0].partition == 0);
  CHECK(fates[0].groups.size() == 6);
  for (const auto& g : fates[0].groups) {
    CHECK_FALSE(g.committed);
    CHECK(g.outcomes.empty());
  }
  CHECK(group(fates[0], "e0-past").unknown_reason.find("broker 3") != std::string::npos);
}

TEST_CASE("the live report: unknown counts are null, never 0, and the sentence says so",
          "[live_group_fate]") {
  const PartitionReplica b2 = load_partition_replica(fixture("broker-2/f-0"));
  const auto f = elected_group_fates(b2, 3, scene_offsets(), {OffsetResetPolicy::earliest});
  const report::Value v = report::live_group_fates_value(f, true);
  CHECK(report::scalar_text(*v.find("topic")) == "f");
  CHECK(v.find("consumed_from")->is_null());
  CHECK(report::scalar_text(*v.find("leader_log_end_offset")) == "18");
  CHECK(report::scalar_text(*v.find("uncertain_groups")) == "2");  // none-inside, none-past
  CHECK(report::scalar_text(*v.find("unknown_groups")) == "3");
  for (const auto& row : v.find("groups")->as_array()) {
    const std::string g = report::scalar_text(*row.find("group"));
    if (g == "none-inside") CHECK(row.find("consumed_lost")->is_null());
    if (g == "e0-past") CHECK(report::scalar_text(*row.find("consumed_lost")) == "10");
  }
  report::Value all = report::Value::array();
  all.push(v);
  CHECK(report::live_groups_affected(all));
  const std::string s = report::live_group_fates_summary(all);
  CHECK(s.find("6") != std::string::npos);
  CHECK(s.find("2 with consumed records unknown") != std::string::npos);
  CHECK(s.find("3 unknown") != std::string::npos);
  std::ostringstream out, err;
  report::render(all, report::Format::table, out, err);
  INFO(out.str());
  CHECK(out.str().find("e0-past") != std::string::npos);
  CHECK(out.str().find("unknown_groups") != std::string::npos);
}
