// ClusterClient::tier_boundaries: ListOffsets EARLIEST_LOCAL (-4) and LATEST_TIERED (-5), each
// only at a version that carries it (ListOffsetsRequest.Builder's minVersion: 8 for -4,
// KIP-405; 9 for -5, KIP-1005), the answer's offset and epoch kept per partition, an error
// kept as a reason, never as an offset. Real brokers' answers are pinned by
// tests/oracle/tiered-unclean-vs-kafka.sh (`cluster predict` on a tiered partition); here fake
// brokers on 127.0.0.1 with chosen version ranges show what is asked.
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

// A leader speaking ListOffsets up to `max_version`: t-0 has local start 1200 at epoch 2 and
// latest tiered offset 1199; t-1 answers -4 with an error.
struct FakeTierBroker {
  std::int16_t max_version = 10;
  std::vector<std::pair<std::int16_t, std::int64_t>> asked;  // (version, timestamp)

  std::optional<test::Frame> respond(const DecodedRequest& r) {
    if (is(r, ApiKey::kApiVersions))
      return answer(r, test::api_versions_body(0, {{ApiKey::kApiVersions, 0, 4},
                                                   {ApiKey::kMetadata, 0, 12},
                                                   {ApiKey::kListOffsets, 1, max_version}}));
    if (is(r, ApiKey::kMetadata)) {
      Struct body = protocol::make_response_body(ApiKey::kMetadata);
      body.add_element("brokers")
          .set_int32("node_id", 1)
          .set_string("host", "127.0.0.1")
          .set_int32("port", port);
      return answer(r, body);
    }
    if (is(r, ApiKey::kListOffsets)) {
      Struct body = protocol::make_response_body(ApiKey::kListOffsets);
      for (const auto& t : r.body.get_array("topics")) {
        auto& out = body.add_element("topics");
        out.set_string("name", t.as_struct().get_string("name"));
        for (const auto& p : t.as_struct().get_array("partitions")) {
          const Struct& q = p.as_struct();
          const std::int64_t ts = q.get_int64("timestamp");
          asked.push_back({r.header.api_version, ts});
          const std::int32_t index = q.get_int32("partition_index");
          const bool error = index == 1 && ts == protocol::kEarliestLocalTimestamp;
          out.add_element("partitions")
              .set_int32("partition_index", index)
              .set_int16("error_code",
                         error ? protocol::errors::kNotLeaderOrFollower : std::int16_t{0})
              .set_int64("timestamp", -1)
              .set_int64("offset", error                                     ? -1
                                   : ts == protocol::kEarliestLocalTimestamp ? 1200
                                                                             : 1199)
              .set_int32("leader_epoch", 2);
        }
      }
      return answer(r, body);
    }
    return std::nullopt;
  }
  std::uint16_t port = 0;
};

std::map<std::pair<std::string, std::int32_t>, TierBoundary> ask(FakeTierBroker& fake) {
  test::LoopbackServer broker_server(
      test::fake_broker([&](const DecodedRequest& r) { return fake.respond(r); }));
  fake.port = broker_server.port();
  // The bootstrap broker names broker 1 (Metadata); tier_boundaries asks broker 1 itself.
  test::LoopbackServer bootstrap(test::fake_broker([&](const DecodedRequest& r) {
    if (is(r, ApiKey::kListOffsets)) return std::optional<test::Frame>();
    return fake.respond(r);
  }));
  ConnectionSettings settings;
  settings.bootstrap = {{"127.0.0.1", bootstrap.port()}};
  settings.timeout = 3s;
  ClusterClient client(settings);
  return client.tier_boundaries(1, {{"t", 0, 0, 5}, {"t", 1, 0, 5}});
}

}  // namespace

TEST_CASE("list_offsets_min_version: ListOffsetsRequest.Builder's minVersion per timestamp",
          "[cluster][protocol]") {
  CHECK(protocol::list_offsets_min_version(protocol::kLatestTieredTimestamp) == 9);
  CHECK(protocol::list_offsets_min_version(protocol::kEarliestLocalTimestamp) == 8);
  CHECK(protocol::list_offsets_min_version(protocol::kMaxTimestamp) == 7);
  CHECK(protocol::list_offsets_min_version(protocol::kEarliestTimestamp) == 0);
  CHECK(protocol::list_offsets_min_version(protocol::kLatestTimestamp) == 0);
  CHECK(protocol::list_offsets_min_version(1700000000000) == 0);
}

TEST_CASE("tier_boundaries: -4 and -5 asked of a 3.9+ broker, offsets and epochs kept",
          "[cluster][tiered]") {
  FakeTierBroker fake;
  const auto got = ask(fake);
  // Both timestamps, at the broker's highest version (10), one request each.
  CHECK(fake.asked ==
        std::vector<std::pair<std::int16_t, std::int64_t>>{{10, -4}, {10, -4}, {10, -5}, {10, -5}});
  const TierBoundary& t0 = got.at({"t", 0});
  REQUIRE(t0.earliest_local);
  CHECK(t0.earliest_local->offset == 1200);
  CHECK(t0.earliest_local->leader_epoch == 2);
  REQUIRE(t0.latest_tiered);
  CHECK(t0.latest_tiered->offset == 1199);
  CHECK(t0.why.empty());
  CHECK_FALSE(t0.predates_tiered_storage);
  // An error answer is a reason, not an offset.
  const TierBoundary& t1 = got.at({"t", 1});
  CHECK_FALSE(t1.earliest_local);
  REQUIRE(t1.why.size() == 1);
  CHECK(t1.why[0].find("NOT_LEADER_OR_FOLLOWER") != std::string::npos);
}

TEST_CASE("tier_boundaries: a 3.4-3.8 broker (ListOffsets v8) is asked -4 only",
          "[cluster][tiered]") {
  FakeTierBroker fake;
  fake.max_version = 8;
  const auto got = ask(fake);
  CHECK(fake.asked == std::vector<std::pair<std::int16_t, std::int64_t>>{{8, -4}, {8, -4}});
  const TierBoundary& t0 = got.at({"t", 0});
  REQUIRE(t0.earliest_local);
  CHECK(t0.earliest_local->offset == 1200);
  CHECK_FALSE(t0.latest_tiered);
  REQUIRE(t0.why.size() == 1);
  CHECK(t0.why[0].find("needs v9") != std::string::npos);
  CHECK_FALSE(t0.predates_tiered_storage);
}

TEST_CASE("tier_boundaries: a broker before 3.4 (ListOffsets v7) is asked nothing",
          "[cluster][tiered]") {
  FakeTierBroker fake;
  fake.max_version = 7;
  const auto got = ask(fake);
  CHECK(fake.asked.empty());
  const TierBoundary& t0 = got.at({"t", 0});
  CHECK_FALSE(t0.earliest_local);
  CHECK_FALSE(t0.latest_tiered);
  CHECK(t0.predates_tiered_storage);
}
