// The findings of a tiered partition's view (storage/tiered_view.hpp): remote segments that
// overlap (KAFKA-15168) or leave a gap, offsets neither remote nor local, finished segments
// outside the local replica's lineage (RemoteLogManager.isRemoteSegmentWithinLeaderEpochs:
// Kafka's retention never deletes them, KAFKA-16511), unfinished copies. The clean case is
// pinned on a real cluster by the oracle remote-log-metadata-vs-kafka (its view equals
// kafka-get-offsets -2/-4/-5); these are the shapes a clean run cannot make on demand.
#include <catch2/catch.hpp>

#include "kepoch/storage/tiered_view.hpp"

using namespace kepoch;

namespace {

RemoteSegmentView segment(std::int64_t start, std::int64_t end, std::vector<EpochEntry> epochs,
                          std::string state = "COPY_SEGMENT_FINISHED") {
  RemoteSegmentView s;
  s.segment_id.bytes[0] = static_cast<std::uint8_t>(start);
  s.start_offset = start;
  s.end_offset = end;
  s.leader_epochs = std::move(epochs);
  s.state = std::move(state);
  return s;
}

std::vector<std::string> kinds(const TieredPartitionView& p) {
  std::vector<std::string> out;
  for (const auto& f : p.findings)
    out.push_back(f.kind);
  return out;
}

}  // namespace

TEST_CASE("a clean tiered partition: remote then local, one lineage") {
  TieredPartitionView p;
  p.segments = {segment(1024, 2047, {{0, 1024}}), segment(0, 1023, {{0, 0}})};
  p.local_replica = true;
  p.local_start = 2048;
  p.local_end = 3000;
  p.local_epochs = {{0, 0}};
  judge_tiered_partition(p);
  CHECK(p.segments.front().start_offset == 0);  // sorted
  CHECK(p.remote_start == 0);
  CHECK(p.remote_end == 2047);
  CHECK(p.findings.empty());
  CHECK(p.segments[0].within_lineage == true);
}

TEST_CASE("gaps and overlaps between remote segments, and a gap before the local log") {
  TieredPartitionView p;
  p.segments = {segment(0, 99, {{0, 0}}), segment(50, 149, {{0, 50}}),
                segment(200, 299, {{0, 200}}),
                segment(300, 310, {{0, 300}}, "COPY_SEGMENT_STARTED")};
  p.local_replica = true;
  p.local_start = 400;
  p.local_end = 500;
  p.local_epochs = {{0, 0}};
  judge_tiered_partition(p);
  CHECK(kinds(p) == std::vector<std::string>{"overlap", "gap", "copy_unfinished", "local_gap"});
  CHECK(p.findings[0].message.find("offsets 50-99 held twice") != std::string::npos);
  CHECK(p.findings[1].message.find("offsets 150-199 are in no remote segment") !=
        std::string::npos);
  CHECK(p.findings[3].message.find("offsets 300-399 are neither in remote storage") !=
        std::string::npos);
  CHECK(p.remote_end == 299);  // the unfinished copy is not the remote log
}

TEST_CASE("a remote segment of a losing branch is outside the new leader's lineage") {
  // Broker A led epoch 1 and uploaded 100-199; after an unclean election B leads epoch 2 from
  // offset 100: A's segment holds epoch 1 past B's end of it.
  TieredPartitionView p;
  p.segments = {segment(0, 99, {{0, 0}}), segment(100, 199, {{0, 50}, {1, 100}})};
  p.local_replica = true;
  p.local_start = 100;
  p.local_end = 300;
  p.local_epochs = {{0, 0}, {2, 100}};
  judge_tiered_partition(p);
  CHECK(p.segments[0].within_lineage == true);
  CHECK(p.segments[1].within_lineage == false);
  CHECK(kinds(p) == std::vector<std::string>{"outside_lineage"});
}

TEST_CASE("without a local replica the lineage is not judged") {
  TieredPartitionView p;
  p.segments = {segment(0, 99, {{0, 0}})};
  judge_tiered_partition(p);
  CHECK_FALSE(p.segments[0].within_lineage.has_value());
  CHECK(p.findings.empty());
}

TEST_CASE("each remote segment's retention fate, from the metadata cache replayed") {
  // The unclean election of tiered-unclean-vs-kafka: the losing leader's 1024-2043 was
  // replaced in epoch 0 by the new leader's copy from 1024 (leaked); its 2044-3067 goes by
  // the leader-epoch-cache truncation once retention moves the log start to 3068.
  TieredPartitionView p;
  auto index = std::make_shared<RemoteLogIndex>();
  const auto add = [&](std::int64_t start, std::int64_t end, std::vector<EpochEntry> epochs,
                       std::uint8_t tag) {
    RemoteSegmentView s = segment(start, end, epochs);
    s.segment_id.bytes[1] = tag;  // distinct ids (segment() tags only the start's low byte)
    p.segments.push_back(s);
    RemoteSegment r;
    r.segment_id = s.segment_id.to_string();
    r.start_offset = start;
    r.end_offset = end;
    r.leader_epochs = epochs;
    index->add_copy_started(r);
    index->update(r.segment_id, RemoteSegmentState::copy_segment_finished);
    return r.segment_id;
  };
  const auto s0 = add(0, 1023, {{0, 0}}, 1);
  const auto s1 = add(1024, 2043, {{0, 1024}}, 2);
  const auto s2 = add(2044, 3067, {{0, 2044}}, 3);
  const auto t1 = add(1024, 2043, {{0, 1024}, {2, 1500}}, 4);
  const auto t2 = add(2044, 3067, {{2, 2044}}, 5);
  p.index = index;
  p.local_replica = true;
  p.local_start = 3068;
  p.local_end = 3500;
  p.log_start_checkpoint = 0;
  p.local_epochs = {{0, 0}, {2, 1500}};
  judge_tiered_partition(p);
  std::map<std::string, std::string> fate;
  for (const auto& s : p.segments) {
    REQUIRE(s.fate);
    fate[s.segment_id.to_string()] = std::string(remote_fate_name(s.fate->fate));
    CHECK_FALSE(s.fate_kafka_3_9);  // 3.9's rules agree here
  }
  CHECK(fate[s0] == "retention");
  CHECK(fate[t1] == "retention");
  CHECK(fate[t2] == "retention");
  CHECK(fate[s2] == "epoch_cache_truncation");
  CHECK(fate[s1] == "leaked");
  CHECK(p.log_start_after_retention == 3068);
  const auto k = kinds(p);
  CHECK(std::count(k.begin(), k.end(), "leaked") == 1);
  CHECK(std::count(k.begin(), k.end(), "outside_lineage") == 2);
}
