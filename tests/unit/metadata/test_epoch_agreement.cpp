// Pins the rule that every epoch in a replica's leader-epoch cache is one the controller
// issued with a leader (PartitionRegistration.merge; UnifiedLog.maybeAssignEpochStartOffset),
// on run A's metadata log and the lc-0 replicas the same run wrote, and on damaged caches.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <fstream>
#include <iterator>
#include <string>

#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/metadata/epoch_agreement.hpp"
#include "kepoch/storage/metadata_log.hpp"

namespace {

using namespace kepoch;

std::vector<IssuedEpoch> lc0_issued() {
  PartitionHistory history(PartitionHistoryFilter{"lc", 0});
  read_metadata_log(metadata_log_files(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/metadata"),
                    [&](const MetadataLogEntry& e) {
                      if (e.record) history.apply(*e.record, {e.offset, e.timestamp, std::nullopt});
                    });
  REQUIRE(history.timelines().size() == 1);
  return issued_epochs(*history.timelines().front());
}

std::vector<EpochEntry> cache_of(const std::string& rel) {
  std::ifstream in(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/" + rel);
  REQUIRE(in.good());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return read_leader_epoch_checkpoint(text, rel).entries;
}

}  // namespace

TEST_CASE("the epochs the controller issued for lc-0 and the replicas' caches agree",
          "[metadata][EpochAgreement]") {
  const auto issued = lc0_issued();
  std::vector<std::pair<std::int32_t, std::int32_t>> epochs;
  for (const auto& i : issued)
    epochs.emplace_back(i.epoch, i.leader);
  CHECK(epochs == std::vector<std::pair<std::int32_t, std::int32_t>>{
                      {0, 1}, {1, 2}, {2, 1}, {3, 2}, {4, 1}, {5, -1}});
  CHECK(issued[1].offset == 66);
  for (int n = 1; n <= 3; ++n) {
    const auto cache =
        cache_of("leader-changes/broker-" + std::to_string(n) + "/lc-0/leader-epoch-checkpoint");
    REQUIRE(cache.size() == 5);
    CHECK(check_epoch_cache(issued, cache).empty());
  }
}

TEST_CASE("a cached epoch the controller never issued, or issued without a leader",
          "[metadata][EpochAgreement]") {
  const auto issued = lc0_issued();
  const auto findings = check_epoch_cache(issued, {{0, 0}, {4, 12}, {5, 17}, {7, 20}});
  REQUIRE(findings.size() == 2);
  CHECK(findings[0] ==
        "epoch 5 (from offset 17) had no leader (metadata offset 633): no replica can hold "
        "records of it");
  CHECK(findings[1] ==
        "epoch 7 (from offset 20) was never issued by the controller (last issued: 5)");
}
