// Whether a remote segment lies within a replica's leader epoch lineage: Kafka's
// RemoteLogManager.isRemoteSegmentWithinLeaderEpochs and buildFilteredLeaderEpochMap, pinned
// with the vectors of Kafka's own RemoteLogManagerTest (testBuildFilteredLeaderEpochMap,
// testRemoteSegmentWithinLeaderEpochs, testRemoteSegmentWithinLeaderEpochsForOverlappingSegments).
#include <catch2/catch.hpp>

#include "kepoch/epoch/remote_lineage.hpp"

using kepoch::EpochEntry;
using kepoch::filtered_leader_epochs;
using kepoch::remote_segment_within_leader_epochs;

namespace {
using Epochs = std::vector<EpochEntry>;
bool within(const Epochs& segment, std::int64_t end, std::int64_t leo, const Epochs& leader) {
  return remote_segment_within_leader_epochs(segment, end, leo, leader).within;
}
}  // namespace

TEST_CASE("buildFilteredLeaderEpochMap drops the epochs that hold no records") {
  const Epochs in{{0, 0}, {1, 0}, {2, 0}, {3, 30}, {4, 40}, {5, 60}, {6, 60}, {7, 70}, {8, 70}};
  CHECK(filtered_leader_epochs(in) == Epochs{{2, 0}, {3, 30}, {4, 40}, {6, 60}, {8, 70}});
}

TEST_CASE("isRemoteSegmentWithinLeaderEpochs: RemoteLogManagerTest's vectors") {
  const std::int64_t leo = 90;
  const Epochs leader{{0, 0}, {1, 10}, {2, 20}, {3, 30}, {4, 40}, {5, 50}, {7, 70}};
  CHECK(within({{1, 15}, {2, 20}, {3, 30}}, 35, leo, leader));
  CHECK(within({{1, 15}}, 19, leo, leader));
  CHECK(within({{0, 0}}, 5, leo, leader));
  CHECK(within({{7, 70}}, 75, leo, leader));
  CHECK(within({{1, 15}, {2, 20}}, 29, leo, leader));                 // epoch 2's last offset
  CHECK_FALSE(within({{5, 55}, {6, 60}, {7, 70}}, 85, leo, leader));  // epoch 6 not in the lineage
  CHECK_FALSE(within({{1, 15}, {2, 20}, {4, 40}}, 45, leo, leader));  // epoch 3 skipped
  CHECK_FALSE(within(leader, 95, leo, leader));                       // past the log end
  CHECK_FALSE(within(leader, 90, leo, leader));                       // at the log end
  CHECK_FALSE(within({{1, 5}, {2, 20}}, 25, leo, leader));            // before epoch 1's start
  CHECK_FALSE(within({{1, 15}, {2, 20}}, 35, leo, leader));           // past epoch 2's end
}

TEST_CASE("isRemoteSegmentWithinLeaderEpochs: overlapping segments after a log start move") {
  const Epochs leader{{7, 51}, {9, 100}};
  CHECK(within({{5, 14}, {7, 15}, {9, 100}}, 150, 210, leader));
  CHECK_FALSE(within({{2, 5}, {3, 6}}, 7, 210, leader));
  CHECK_FALSE(within({{7, 15}, {9, 100}, {10, 200}}, 250, 210, leader));
  CHECK_FALSE(within({{8, 75}}, 100, 210, leader));
  CHECK_FALSE(within({{7, 15}, {9, 101}}, 150, 210, leader));
}

TEST_CASE("a segment outside the lineage says why") {
  const auto r = remote_segment_within_leader_epochs({{5, 55}, {6, 60}, {7, 70}}, 85, 90,
                                                     {{0, 0}, {5, 50}, {7, 70}});
  CHECK_FALSE(r.within);
  CHECK(r.reason.find("the epoch after 5 differs from the lineage") != std::string::npos);
  CHECK(remote_segment_within_leader_epochs({}, 1, 2, {{0, 0}}).reason.find("no leader epoch") !=
        std::string::npos);
}
