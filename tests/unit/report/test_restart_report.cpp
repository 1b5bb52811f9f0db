// The report of `cluster predict`: the known part of a partition's loss counts even when some
// removed records could not be read at the leader, such a partition stays at risk when the
// unknown records lie below the high watermark, and the exit status (committed_loss_possible)
// never says "safe" when a committed loss cannot be ruled out.
#include <catch2/catch.hpp>

#include <sstream>

#include "kepoch/report/render.hpp"
#include "kepoch/report/restart_report.hpp"

using namespace kepoch;
using namespace kepoch::report;
using forecast::PartitionRestart;
using forecast::RestartOutcome;

namespace {

PartitionRestart follows(std::int32_t partition, const ReplicaForecast& f) {
  PartitionRestart r;
  r.replica.topic = "t";
  r.replica.partition = partition;
  r.replica.loaded.log_end_offset = 10;
  r.replica.loaded.high_watermark = 10;
  r.outcome = RestartOutcome::follows;
  live::PartitionView p;
  p.topic = "t";
  p.partition = partition;
  p.leader = 2;
  p.leader_epoch = 3;
  r.live = p;
  r.forecast = f;
  return r;
}

ReplicaForecast truncated_at(std::int64_t cut, std::uint64_t lost, std::uint64_t committed,
                             std::uint64_t unknown, bool committed_unknown) {
  ReplicaForecast f;
  f.prediction.truncate_to = cut;
  f.removed_records = static_cast<std::uint64_t>(10 - cut);
  f.lost_records = lost;
  f.committed_lost_records = committed;
  f.lost_unknown_records = unknown;
  f.lost_known = unknown == 0;
  f.committed_loss_unknown = committed_unknown;
  return f;
}

std::string json(const Value& v) {
  std::ostringstream out;
  render_json_line(v, out);
  return out.str();
}

}  // namespace

TEST_CASE("cluster predict counts the known loss and keeps unknown committed loss at risk",
          "[report][restart]") {
  forecast::RestartForecast f;
  f.partitions.push_back(follows(0, truncated_at(5, 5, 5, 0, false)));  // known committed loss
  f.partitions.push_back(follows(1, truncated_at(5, 3, 0, 2, true)));   // unknown, below HW
  f.partitions.push_back(follows(2, truncated_at(8, 0, 0, 2, false)));  // unknown, above HW
  const Value v = restart_value(f, false);
  const Value& s = *v.find("summary");
  CHECK(json(*s.find("lost_records")) == "8\n");
  CHECK(json(*s.find("committed_lost_records")) == "5\n");
  CHECK(json(*s.find("lost_unknown_records")) == "4\n");
  CHECK(json(*s.find("lost_unknown_partitions")) == "2\n");
  CHECK(json(*s.find("committed_loss_partitions")) == "1\n");
  CHECK(json(*s.find("committed_loss_unknown_partitions")) == "1\n");
  CHECK(json(*s.find("at_risk")) == "[\"t-0\",\"t-1\"]\n");
  const auto& rows = v.find("partitions")->as_array();
  CHECK(json(*rows[0].find("committed_loss")) == "true\n");
  CHECK(rows[1].find("committed_loss")->is_null());
  CHECK(json(*rows[1].find("lost_records")) == "3\n");
  CHECK(json(*rows[2].find("committed_loss")) == "false\n");
  CHECK(committed_loss(f));
  CHECK(committed_loss_possible(f));

  f.partitions.erase(f.partitions.begin());
  CHECK_FALSE(committed_loss(f));
  CHECK(committed_loss_possible(f));  // partition 1: not ruled out, so not exit 0
  f.partitions.erase(f.partitions.begin());
  CHECK_FALSE(committed_loss_possible(f));
}

TEST_CASE("cluster predict: a replica with records whose leader was not asked is not safe",
          "[report][restart]") {
  forecast::RestartForecast f;
  PartitionRestart r;
  r.replica.topic = "t";
  r.outcome = RestartOutcome::unanswered;
  r.replica.loaded.log_end_offset = 0;
  f.partitions.push_back(r);
  CHECK_FALSE(committed_loss_possible(f));  // nothing to lose
  f.partitions[0].replica.loaded.log_end_offset = 4;
  CHECK(committed_loss_possible(f));
}
