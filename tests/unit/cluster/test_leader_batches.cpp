// ClusterClient::leader_batches against fake brokers on 127.0.0.1: a bootstrap broker that
// answers Metadata, and a leader that serves a real Kafka-written segment (the lc-0
// fixture) to Fetch the way a Kafka leader does: from the batch holding the fetch offset,
// only below its high watermark, cut at a byte limit wherever that falls (mid-batch).
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/cluster_client.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/protocol/error_codes.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/format/record_batch.hpp"
#include "support/fake_broker.hpp"
#include "support/loopback_server.hpp"
#include "support/scratch_files.hpp"

using namespace kepoch;
using namespace kepoch::cluster;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;
using protocol::ApiKey;
using protocol::Struct;

namespace {

using test::answer;
using test::fake_broker;
using test::Frame;
using test::Responder;

Frame api_versions(const protocol::DecodedRequest& r, std::int16_t fetch_min,
                   std::int16_t fetch_max) {
  return answer(r, test::api_versions_body(0, {{ApiKey::kApiVersions, 0, 4},
                                               {ApiKey::kMetadata, 0, 12},
                                               {ApiKey::kFetch, fetch_min, fetch_max}}));
}

// The leader: `log` (one segment's bytes) below `high_watermark`, at most `cut` bytes per
// answer. `fetches` lists "vN offset topic|id" per Fetch (read after the server is done).
struct FakeLeader {
  Frame log;
  std::int64_t high_watermark = 0;
  std::size_t cut = 1 << 20;
  std::int16_t error = 0;
  std::int16_t fetch_min = 4;
  std::int16_t fetch_max = 17;
  std::vector<std::string> fetches;

  Frame fetch(const protocol::DecodedRequest& r) {
    const Struct& topic = r.body.get_array("topics").at(0).as_struct();
    const Struct& part = topic.get_array("partitions").at(0).as_struct();
    const std::int64_t offset = part.get_int64("fetch_offset");
    fetches.push_back(fmt::format("v{} {} {}", r.header.api_version, offset,
                                  r.header.api_version >= 13
                                      ? topic.get_uuid("topic_id").to_string()
                                      : topic.get_string("topic")));
    // Positions of the first batch holding `offset` and of the first at the high watermark.
    std::size_t start = log.size(), end = log.size();
    for (std::size_t pos = 0; pos < log.size();) {
      const auto h = read_batch_header(std::span(log).subspan(pos), pos);
      if (start == log.size() && h.last_offset() >= offset) start = pos;
      if (h.base_offset >= high_watermark) {
        end = pos;
        break;
      }
      pos += h.size_in_bytes();
    }
    start = std::min(start, end);
    Struct body = protocol::make_response_body(ApiKey::kFetch);
    auto& t = body.add_element("responses");
    t.set_string("topic", topic.get_string("topic"))
        .set_uuid("topic_id", topic.get_uuid("topic_id"));
    auto& p = t.add_element("partitions");
    p.set_int32("partition_index", part.get_int32("partition"))
        .set_int16("error_code", error)
        .set_int64("high_watermark", high_watermark)
        .set_int64("log_start_offset", 0)
        .set_bytes("records",
                   Frame(log.begin() + static_cast<std::ptrdiff_t>(start),
                         log.begin() + static_cast<std::ptrdiff_t>(std::min(end, start + cut))));
    if (error == protocol::errors::kNotLeaderOrFollower)
      p.set_struct("current_leader").set_int32("leader_id", 2).set_int32("leader_epoch", 5);
    return answer(r, body);
  }
};

struct Outcome {
  std::optional<LeaderBatches> batches;
  std::string error;
};

// leader_batches(1, "lc", topic_id, 0, 4, from, until) through a bootstrap broker whose
// Metadata names broker 1 at the fake leader's port.
Outcome run(FakeLeader& leader, const std::string& topic_id, std::int64_t from,
            std::int64_t until) {
  Outcome out;
  test::LoopbackServer leader_server(fake_broker([&](const protocol::DecodedRequest& r) {
    if (r.header.api_key == static_cast<std::int16_t>(ApiKey::kApiVersions))
      return std::optional(api_versions(r, leader.fetch_min, leader.fetch_max));
    if (r.header.api_key == static_cast<std::int16_t>(ApiKey::kFetch))
      return std::optional(leader.fetch(r));
    return std::optional<Frame>();
  }));
  const std::uint16_t leader_port = leader_server.port();
  test::LoopbackServer bootstrap(fake_broker([&](const protocol::DecodedRequest& r) {
    if (r.header.api_key == static_cast<std::int16_t>(ApiKey::kApiVersions))
      return std::optional(api_versions(r, 4, 17));
    Struct body = protocol::make_response_body(ApiKey::kMetadata);
    body.add_element("brokers")
        .set_int32("node_id", 1)
        .set_string("host", "127.0.0.1")
        .set_int32("port", leader_port);
    return std::optional(answer(r, body));
  }));
  ConnectionSettings settings;
  settings.bootstrap = {{"127.0.0.1", bootstrap.port()}};
  settings.timeout = 3s;
  try {
    ClusterClient client(settings);
    out.batches = client.leader_batches(1, "lc", topic_id, 0, 4, from, until);
  } catch (const ClusterError& e) {
    out.error = e.what();
  }
  return out;
}

FakeLeader lc_leader(std::int64_t high_watermark, std::size_t cut) {
  FakeLeader leader;
  leader.log = test::slurp(std::string(KEPOCH_SOURCE_DIR) +
                           "/tests/data/leader-changes/broker-1/lc-0/00000000000000000000.log");
  leader.high_watermark = high_watermark;
  leader.cut = cut;
  return leader;
}

std::vector<std::int64_t> base_offsets(const LeaderBatches& b) {
  std::vector<std::int64_t> out;
  for (const auto& batch : b.batches)
    out.push_back(batch.base_offset);
  return out;
}

const std::string kTopicId = "ASNFZ4mrze_-3LqYdlQyEA";

}  // namespace

TEST_CASE("leader_batches: rounds continue from a batch the answer cut short", "[cluster][fetch]") {
  auto leader = lc_leader(17, 200);  // every answer but the last ends mid-batch
  const auto out = run(leader, kTopicId, 0, 17);
  REQUIRE(out.error.empty());
  REQUIRE(out.batches);
  const auto& b = *out.batches;
  CHECK(b.complete);
  CHECK(b.notes.empty());
  CHECK(b.high_watermark == 17);
  CHECK(b.log_start_offset == 0);
  CHECK(base_offsets(b) == std::vector<std::int64_t>{0, 3, 6, 9, 12, 15});
  CHECK(b.batches[1].last_offset == 5);
  CHECK(b.batches[1].records == 3);
  CHECK(b.batches[1].partition_leader_epoch == 1);
  CHECK(b.batches[5].last_offset == 16);
  CHECK(b.batches[5].partition_leader_epoch == 4);
  const auto headers = read_batch_header(leader.log, 0);
  CHECK(b.batches[0].crc == headers.crc);
  // Fetch v17 by topic id, one round per batch.
  CHECK(leader.fetches == std::vector<std::string>{"v17 0 " + kTopicId, "v17 3 " + kTopicId,
                                                   "v17 6 " + kTopicId, "v17 9 " + kTopicId,
                                                   "v17 12 " + kTopicId, "v17 15 " + kTopicId});
}

TEST_CASE("leader_batches: from the batch holding `from` to the last starting before `until`",
          "[cluster][fetch]") {
  auto leader = lc_leader(17, 1 << 20);
  const auto out = run(leader, kTopicId, 7, 12);
  REQUIRE(out.batches);
  CHECK(out.batches->complete);
  CHECK(base_offsets(*out.batches) == std::vector<std::int64_t>{6, 9});
  CHECK(leader.fetches.size() == 1);
}

TEST_CASE("leader_batches: a range past the high watermark is incomplete, with a note",
          "[cluster][fetch]") {
  auto leader = lc_leader(12, 1 << 20);
  const auto out = run(leader, kTopicId, 3, 17);
  REQUIRE(out.batches);
  CHECK_FALSE(out.batches->complete);
  CHECK(out.batches->high_watermark == 12);
  CHECK(base_offsets(*out.batches) == std::vector<std::int64_t>{3, 6, 9});
  REQUIRE(out.batches->notes.size() == 1);
  CHECK_THAT(out.batches->notes[0],
             Contains("below the high watermark 12") && Contains("offsets 12 to 16 were not read"));
}

TEST_CASE("leader_batches: without a topic id, Fetch v12 names the topic", "[cluster][fetch]") {
  auto leader = lc_leader(17, 1 << 20);
  const auto out = run(leader, "", 0, 17);
  REQUIRE(out.batches);
  CHECK(out.batches->complete);
  CHECK(out.batches->batches.size() == 6);
  CHECK(leader.fetches == std::vector<std::string>{"v12 0 lc"});

  auto ids_only = lc_leader(17, 1 << 20);
  ids_only.fetch_min = 13;
  CHECK_THAT(run(ids_only, "", 0, 17).error, Contains("speaks Fetch only by topic id"));
}

TEST_CASE("leader_batches: a partition error is a ClusterError naming it", "[cluster][fetch]") {
  auto leader = lc_leader(17, 1 << 20);
  leader.error = protocol::errors::kNotLeaderOrFollower;
  const auto out = run(leader, kTopicId, 0, 17);
  CHECK_FALSE(out.batches);
  CHECK_THAT(out.error,
             Contains("answered Fetch of lc-0 at offset 0 with NOT_LEADER_OR_FOLLOWER") &&
                 Contains("names broker 2 leader, epoch 5"));
}

TEST_CASE("leader_batches: a legacy message set stops the read, with a note", "[cluster][fetch]") {
  auto leader = lc_leader(17, 1 << 20);
  leader.log.resize(124);  // the first batch, offsets 0-2, then a v0 message at offset 3
  const Frame legacy = {0, 0, 0, 0, 0, 0,    0,    3,    0,    0,    0,    14,   0,
                        0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  leader.log.insert(leader.log.end(), legacy.begin(), legacy.end());
  leader.high_watermark = 4;
  const auto out = run(leader, kTopicId, 0, 4);
  REQUIRE(out.batches);
  CHECK_FALSE(out.batches->complete);
  CHECK(base_offsets(*out.batches) == std::vector<std::int64_t>{0});
  REQUIRE(out.batches->notes.size() == 1);
  CHECK_THAT(out.batches->notes[0], Contains("legacy message set (magic 0)"));
}
