// forecast_restart's exchange with a cluster whose leadership moves while kepoch asks: the
// view kepoch read names a leader epoch the leader has left (FENCED_LEADER_EPOCH), which a
// real cluster shows only in the moment between a Metadata answer and the next request. A
// follower's fetcher waits for a newer metadata image and asks again; so does kepoch. Fake
// brokers on 127.0.0.1 (tests/unit/support/fake_broker.hpp): a bootstrap broker answering
// Metadata from a script of views, and the leader answering OffsetForLeaderEpoch from the
// Kafka-written replica of the divergence fixture (UnifiedLog.endOffsetForEpoch on its cache).
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/forecast/restart_forecast.hpp"
#include "support/fake_broker.hpp"
#include "support/loopback_server.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;
using cluster::protocol::ApiKey;
using cluster::protocol::DecodedRequest;
using cluster::protocol::Struct;
namespace fs = std::filesystem;
namespace errors = cluster::protocol::errors;
using test::answer;
using test::is;

namespace {

const fs::path kBefore = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/divergence/before";
constexpr std::int32_t kLeaderEpoch = 2;  // the leader's epoch in the fixture

test::Frame api_versions(const DecodedRequest& r) {
  return answer(r, test::api_versions_body(0, {{ApiKey::kApiVersions, 0, 4},
                                               {ApiKey::kMetadata, 0, 12},
                                               {ApiKey::kDescribeConfigs, 1, 4},
                                               {ApiKey::kListOffsets, 1, 10},
                                               {ApiKey::kOffsetForLeaderEpoch, 2, 4}}));
}

// Metadata: broker 2 (the leader, at leader_port) and 3; topic d, partition 0 led by broker
// 2 at `epoch`, replicas 1,2,3, ISR 2,3.
test::Frame metadata(const DecodedRequest& r, std::uint16_t leader_port, std::int32_t epoch,
                     const Uuid& topic_id, const std::string& cluster_id = "") {
  Struct body = cluster::protocol::make_response_body(ApiKey::kMetadata);
  if (!cluster_id.empty()) body.set_string("cluster_id", cluster_id);
  body.add_element("brokers")
      .set_int32("node_id", 2)
      .set_string("host", "127.0.0.1")
      .set_int32("port", leader_port);
  body.add_element("brokers")
      .set_int32("node_id", 3)
      .set_string("host", "127.0.0.1")
      .set_int32("port", test::closed_port());
  auto& topic = body.add_element("topics");
  topic.set_int16("error_code", 0).set_string("name", "d").set_uuid("topic_id", topic_id);
  topic.add_element("partitions")
      .set_int16("error_code", 0)
      .set_int32("partition_index", 0)
      .set_int32("leader_id", 2)
      .set_int32("leader_epoch", epoch)
      .set_int32_array("replica_nodes", {1, 2, 3})
      .set_int32_array("isr_nodes", {2, 3});
  return answer(r, body);
}

// DescribeConfigs: topic d with min.insync.replicas=2 (the rest are broker defaults).
test::Frame configs(const DecodedRequest& r) {
  Struct body = cluster::protocol::make_response_body(ApiKey::kDescribeConfigs);
  auto& result = body.add_element("results");
  result.set_int16("error_code", 0).set_int8("resource_type", 2).set_string("resource_name", "d");
  result.add_element("configs")
      .set_string("name", "min.insync.replicas")
      .set_string("value", "2")
      .set_int8("config_source", 1);
  return answer(r, body);
}

// The leader: answers each question from its replica's cache, fenced as Kafka fences it
// (a current_leader_epoch below its own is FENCED_LEADER_EPOCH); with `always_fenced`, it
// has moved on from every epoch kepoch is told.
struct FakeLeader {
  PartitionReplica replica = load_partition_replica(kBefore / "broker-2/d-0");
  bool always_fenced = false;
  std::vector<std::int32_t> fences;  // current_leader_epoch of each question

  test::Frame end_offsets(const DecodedRequest& r) {
    Struct body = cluster::protocol::make_response_body(ApiKey::kOffsetForLeaderEpoch);
    for (const auto& t : r.body.get_array("topics")) {
      auto& out = body.add_element("topics");
      out.set_string("topic", t.as_struct().get_string("topic"));
      for (const auto& p : t.as_struct().get_array("partitions")) {
        const Struct& q = p.as_struct();
        const std::int32_t fence = q.get_int32("current_leader_epoch");
        fences.push_back(fence);
        const EpochEntry e = replica.as_leader.cache.end_offset_for(
            q.get_int32("leader_epoch"), replica.as_leader.log_end_offset);
        const bool fenced = always_fenced || fence < kLeaderEpoch;
        out.add_element("partitions")
            .set_int16("error_code", fenced ? errors::kFencedLeaderEpoch : std::int16_t{0})
            .set_int32("partition", q.get_int32("partition"))
            .set_int32("leader_epoch", fenced ? -1 : e.epoch)
            .set_int64("end_offset", fenced ? -1 : e.start_offset);
      }
    }
    return answer(r, body);
  }

  // ListOffsets: earliest (-2) is the log start offset, latest (-1) the high watermark.
  test::Frame offsets(const DecodedRequest& r) {
    Struct body = cluster::protocol::make_response_body(ApiKey::kListOffsets);
    for (const auto& t : r.body.get_array("topics")) {
      auto& out = body.add_element("topics");
      out.set_string("name", t.as_struct().get_string("name"));
      for (const auto& p : t.as_struct().get_array("partitions")) {
        const Struct& q = p.as_struct();
        // -2 and -4 (EARLIEST_LOCAL): a log without a remote tier starts locally where it
        // starts (UnifiedLog.localLogStartOffset == logStartOffset).
        const bool earliest = q.get_int64("timestamp") == -2 || q.get_int64("timestamp") == -4;
        out.add_element("partitions")
            .set_int32("partition_index", q.get_int32("partition_index"))
            .set_int16("error_code", 0)
            .set_int64("timestamp", -1)
            .set_int64("offset", earliest ? replica.as_leader.log_start_offset
                                          : replica.loaded.high_watermark)
            .set_int32("leader_epoch", kLeaderEpoch);
      }
    }
    return answer(r, body);
  }
};

// forecast_restart for broker 1's replica of the fixture; the bootstrap broker's Metadata
// names the leader epochs in `epochs`, one per view (the last one again after that).
RestartForecast run(FakeLeader& leader, const std::vector<std::int32_t>& epochs,
                    int& metadata_answers, const fs::path& log_dir = kBefore / "broker-1",
                    const std::string& cluster_id = "") {
  const Uuid topic_id = *leader.replica.topic_id;
  test::LoopbackServer leader_server(test::fake_broker([&](const DecodedRequest& r) {
    if (is(r, ApiKey::kApiVersions)) return std::optional(api_versions(r));
    if (is(r, ApiKey::kOffsetForLeaderEpoch)) return std::optional(leader.end_offsets(r));
    if (is(r, ApiKey::kListOffsets)) return std::optional(leader.offsets(r));
    return std::optional<test::Frame>();
  }));
  const std::uint16_t leader_port = leader_server.port();
  test::LoopbackServer bootstrap(test::fake_broker([&](const DecodedRequest& r) {
    if (is(r, ApiKey::kApiVersions)) return std::optional(api_versions(r));
    if (is(r, ApiKey::kDescribeConfigs)) return std::optional(configs(r));
    if (!is(r, ApiKey::kMetadata)) return std::optional<test::Frame>();
    const auto view = std::min<std::size_t>(metadata_answers++, epochs.size() - 1);
    return std::optional(metadata(r, leader_port, epochs[view], topic_id, cluster_id));
  }));
  cluster::ConnectionSettings settings;
  settings.bootstrap = {{"127.0.0.1", bootstrap.port()}};
  settings.timeout = 3s;
  cluster::ClusterClient client(settings);
  return forecast_restart(log_dir, 1, client);
}

}  // namespace

TEST_CASE("FENCED_LEADER_EPOCH: kepoch reads the cluster again and asks the leader anew",
          "[forecast][cluster]") {
  FakeLeader leader;
  int metadata_answers = 0;
  // The first view is stale (epoch 1), the second current.
  const RestartForecast f = run(leader, {kLeaderEpoch - 1, kLeaderEpoch}, metadata_answers);
  CHECK(metadata_answers == 2);
  CHECK(f.views == 2);
  REQUIRE(f.partitions.size() == 1);
  const PartitionRestart& r = f.partitions[0];
  REQUIRE(r.outcome == RestartOutcome::follows);
  CHECK(r.live->leader_epoch == kLeaderEpoch);
  // One fenced question, then every question carries the new epoch.
  REQUIRE(leader.fences.size() >= 2);
  CHECK(leader.fences[0] == kLeaderEpoch - 1);
  for (std::size_t i = 1; i < leader.fences.size(); ++i)
    CHECK(leader.fences[i] == kLeaderEpoch);
  CHECK_THAT(fmt::format("{}", fmt::join(f.notes, "\n")), Contains("leadership of 1 partition"));
  // The same truncation as offline predict against the leader's replica.
  REQUIRE(r.forecast);
  const ReplicaForecast offline =
      forecast_replica(leader.replica, r.replica, TruncationMode::fetch);
  CHECK(r.forecast->prediction.truncate_to == offline.prediction.truncate_to);
  CHECK(r.forecast->prediction.truncate_to < r.replica.log_end_offset);
}

TEST_CASE("FENCED_LEADER_EPOCH on every view: the replica stays unanswered after four",
          "[forecast][cluster]") {
  FakeLeader leader;
  leader.always_fenced = true;
  int metadata_answers = 0;
  const RestartForecast f = run(leader, {kLeaderEpoch}, metadata_answers);
  CHECK(f.views == 4);
  CHECK(metadata_answers == 4);
  REQUIRE(f.partitions.size() == 1);
  CHECK(f.partitions[0].outcome == RestartOutcome::unanswered);
  CHECK(f.partitions[0].leader_error == errors::kFencedLeaderEpoch);
  CHECK_THAT(f.partitions[0].reason, Contains("FENCED_LEADER_EPOCH"));
  CHECK(leader.fences.size() == 4);
}

TEST_CASE("A crashed broker's recorded high watermark is a lower bound in cluster predict too",
          "[forecast][cluster]") {
  // Broker 1 of the divergence fixture stopped without a clean shutdown: its
  // replication-offset-checkpoint says 5, while Kafka's own log on its restart says it held
  // 8 ("Non-monotonic update of high watermark from (offset=8 ...) to (offset=5 ...)").
  // ReplicaManager writes the checkpoint every replica.high.watermark.checkpoint.interval.ms
  // and at a clean shutdown only, so the records it loses above 5 may have been committed:
  // as offline predict says, a committed loss cannot be ruled out; the live leader's high
  // watermark and log end speak of its own log, not of the records broker 1 alone holds.
  FakeLeader leader;
  int metadata_answers = 0;
  const RestartForecast f = run(leader, {kLeaderEpoch}, metadata_answers);
  REQUIRE(f.partitions.size() == 1);
  const PartitionRestart& r = f.partitions[0];
  REQUIRE(r.outcome == RestartOutcome::follows);
  REQUIRE(r.forecast);
  REQUIRE_FALSE(r.replica.clean_shutdown);
  const ReplicaForecast offline =
      forecast_replica(leader.replica, r.replica, TruncationMode::fetch);
  REQUIRE(offline.committed_loss_unknown);
  CHECK(r.forecast->prediction.truncate_to == 5);
  CHECK(r.forecast->committed_loss_unknown);
  CHECK(r.forecast->committed_loss_possible());
  CHECK_THAT(fmt::format("{}", fmt::join(r.forecast->unanswered, "\n")),
             Contains("did not shut down cleanly"));
}

TEST_CASE("cluster predict refuses a log dir of another cluster", "[forecast][cluster]") {
  // meta.properties' cluster.id names the cluster a log dir belongs to (a broker refuses to
  // start on another cluster's: MetaPropertiesEnsemble.verify). Judged against the live
  // cluster's partitions it would be a forecast for a broker that never joins it.
  char tmpl[] = "/tmp/kepoch-restart-XXXXXX";
  const fs::path dir = ::mkdtemp(tmpl);
  fs::copy(kBefore / "broker-1", dir, fs::copy_options::recursive);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add);
  {
    std::ofstream meta(dir / "meta.properties");
    meta << "version=1\nnode.id=1\ncluster.id=AAAAAAAAAAAAAAAAAAAAAQ\n";
  }
  FakeLeader leader;
  int metadata_answers = 0;
  CHECK_THROWS_WITH(run(leader, {kLeaderEpoch}, metadata_answers, dir, "szVdbl2iRXOg29JrTu_QMg"),
                    Contains("meta.properties records cluster id AAAAAAAAAAAAAAAAAAAAAQ") &&
                        Contains("szVdbl2iRXOg29JrTu_QMg"));
  // The same cluster: forecast as before.
  const RestartForecast same =
      run(leader, {kLeaderEpoch}, metadata_answers, dir, "AAAAAAAAAAAAAAAAAAAAAQ");
  CHECK(same.partitions.size() == 1);
  fs::remove_all(dir);
}
