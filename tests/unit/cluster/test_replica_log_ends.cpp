// ClusterClient::read_view with log dirs: after a broker's DescribeLogDirs, its replicas' own
// log end offsets, asked of that broker with ListOffsets latest and the debugging replica id
// (-2), the id for which Kafka answers from a follower's local log too
// (ReplicaManager.fetchOffset: fetchOnlyFromLeader = replicaId != DEBUGGING_REPLICA_ID, and
// no isolation level, so the log end offset rather than the high watermark). The real
// brokers' answers are pinned by tests/oracle/cluster-describe-vs-kafka.sh; here, fake
// brokers on 127.0.0.1 show what is asked and how an error is kept out of the view.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/cluster/protocol/list_offsets.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "support/fake_broker.hpp"
#include "support/loopback_server.hpp"

using namespace kepoch;
using namespace kepoch::cluster;
using namespace std::chrono_literals;
using protocol::ApiKey;
using protocol::DecodedRequest;
using protocol::Struct;
using test::answer;
using test::is;

namespace {

// Broker 1 holds t-0 (a follower: the leader, broker 9, is not listed) and t-1 (the leader).
struct FakeReplicaBroker {
  std::vector<std::int32_t> replica_ids;  // of each ListOffsets
  std::vector<std::int64_t> timestamps;

  std::optional<test::Frame> respond(const DecodedRequest& r) {
    if (is(r, ApiKey::kApiVersions))
      return answer(r, test::api_versions_body(0, {{ApiKey::kApiVersions, 0, 4},
                                                   {ApiKey::kDescribeLogDirs, 1, 4},
                                                   {ApiKey::kListOffsets, 1, 10}}));
    if (is(r, ApiKey::kDescribeLogDirs)) {
      Struct body = protocol::make_response_body(ApiKey::kDescribeLogDirs);
      auto& dir = body.add_element("results");
      dir.set_int16("error_code", 0).set_string("log_dir", "/var/lib/kafka/data");
      auto& topic = dir.add_element("topics");
      topic.set_string("name", "t");
      for (std::int32_t p : {0, 1})
        topic.add_element("partitions")
            .set_int32("partition_index", p)
            .set_int64("partition_size", 100 * (p + 1))
            .set_int64("offset_lag", 0)
            .set_bool("is_future_key", false);
      return answer(r, body);
    }
    if (is(r, ApiKey::kListOffsets)) {
      replica_ids.push_back(r.body.get_int32("replica_id"));
      Struct body = protocol::make_response_body(ApiKey::kListOffsets);
      for (const auto& t : r.body.get_array("topics")) {
        auto& out = body.add_element("topics");
        out.set_string("name", t.as_struct().get_string("name"));
        for (const auto& p : t.as_struct().get_array("partitions")) {
          const Struct& q = p.as_struct();
          timestamps.push_back(q.get_int64("timestamp"));
          const std::int32_t index = q.get_int32("partition_index");
          // t-0 answers its log end offset; t-1 an error (a replica not available yet).
          out.add_element("partitions")
              .set_int32("partition_index", index)
              .set_int16("error_code",
                         index == 0 ? std::int16_t{0} : protocol::errors::kReplicaNotAvailable)
              .set_int64("timestamp", -1)
              .set_int64("offset", index == 0 ? 42 : -1)
              .set_int32("leader_epoch", 3);
        }
      }
      return answer(r, body);
    }
    return std::nullopt;
  }
};

test::Frame metadata(const DecodedRequest& r, std::uint16_t broker_port) {
  Struct body = protocol::make_response_body(ApiKey::kMetadata);
  body.add_element("brokers")
      .set_int32("node_id", 1)
      .set_string("host", "127.0.0.1")
      .set_int32("port", broker_port);
  auto& topic = body.add_element("topics");
  topic.set_int16("error_code", 0).set_string("name", "t");
  for (std::int32_t p : {0, 1})
    topic.add_element("partitions")
        .set_int16("error_code", 0)
        .set_int32("partition_index", p)
        .set_int32("leader_id", p == 0 ? 9 : 1)
        .set_int32("leader_epoch", 3)
        .set_int32_array("replica_nodes", {1, 9})
        .set_int32_array("isr_nodes", {1, 9});
  return answer(r, body);
}

}  // namespace

TEST_CASE("replica log ends: ListOffsets latest with the debugging replica id to each replica",
          "[cluster][describe]") {
  FakeReplicaBroker replica;
  std::optional<live::ClusterView> view;
  {
    test::LoopbackServer broker_server(
        test::fake_broker([&](const DecodedRequest& r) { return replica.respond(r); }));
    const std::uint16_t broker_port = broker_server.port();
    test::LoopbackServer bootstrap(test::fake_broker([&](const DecodedRequest& r) {
      if (is(r, ApiKey::kApiVersions))
        return std::optional(answer(r, test::api_versions_body(0, {{ApiKey::kApiVersions, 0, 4},
                                                                   {ApiKey::kMetadata, 0, 12}})));
      if (is(r, ApiKey::kMetadata)) return std::optional(metadata(r, broker_port));
      return std::optional<test::Frame>();
    }));
    ConnectionSettings settings;
    settings.bootstrap = {{"127.0.0.1", bootstrap.port()}};
    settings.timeout = 3s;
    ClusterClient client(settings);
    view = client.read_view(ViewRequest{std::nullopt, false, /*configs=*/false, /*offsets=*/false,
                                        /*log_dirs=*/true});
  }
  CHECK(replica.replica_ids == std::vector<std::int32_t>{protocol::kDebuggingReplicaId});
  CHECK(replica.timestamps ==
        std::vector<std::int64_t>{protocol::kLatestTimestamp, protocol::kLatestTimestamp});
  const live::PartitionView* follower = view->find_partition("t", 0);
  const live::PartitionView* leader = view->find_partition("t", 1);
  REQUIRE(follower);
  REQUIRE(leader);
  REQUIRE(follower->replica_logs.size() == 1);
  REQUIRE(leader->replica_logs.size() == 1);
  // The follower's own answer, not its leader's (broker 9 is not even listed).
  CHECK(follower->replica_logs[0].log_end_offset == std::optional<std::int64_t>(42));
  CHECK(follower->replica_logs[0].size_bytes == 100);
  // A partition error leaves the offset unknown, with the rest of the replica's log kept.
  CHECK_FALSE(leader->replica_logs[0].log_end_offset);
  CHECK(leader->replica_logs[0].size_bytes == 200);
}
