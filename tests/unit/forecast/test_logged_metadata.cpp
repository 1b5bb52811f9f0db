// What a plan takes from the KRaft metadata log (forecast/logged_metadata.hpp), on the log
// Kafka 4.1.1 wrote in tests/data/metadata: it created __transaction_state with its own
// min.insync.replicas=2 and unclean.leader.election.enable=false (ConfigRecords of resource
// TOPIC), set no cluster-wide default, and its brokers were stopped (fenced) at the end.

#include "kepoch/forecast/logged_metadata.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
namespace fs = std::filesystem;

namespace {

const fs::path kLog = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/metadata/__cluster_metadata-0";

std::vector<LoggedPartition> all_of(const LoggedMetadata& m) {
  std::vector<LoggedPartition> out;
  for (std::size_t i = 0; i < m.size(); ++i)
    out.push_back(m.at(i));
  return out;
}

std::optional<LoggedPartition> find(const LoggedMetadata& m, const std::string& topic,
                                    int partition) {
  for (auto& p : all_of(m))
    if (p.topic == topic && p.partition == partition) return p;
  return std::nullopt;
}

}  // namespace

TEST_CASE("each partition's last registration with its topic's own config", "[logged_metadata]") {
  std::size_t files = 0;
  std::size_t batches = 0;
  const LoggedMetadata m =
      read_logged_metadata(kLog, {},
                           {[&](const auto& f) { files = f.size(); },
                            [&](const std::string&, std::uint64_t) { ++batches; }});
  CHECK(files >= 1);
  CHECK(batches > 0);
  const auto tx = find(m, "__transaction_state", 0);
  REQUIRE(tx);
  REQUIRE(tx->min_isr);
  CHECK(tx->min_isr->value == "2");
  CHECK_FALSE(tx->min_isr->cluster_default);
  REQUIRE(tx->unclean);
  CHECK(tx->unclean->value == "false");
  CHECK_FALSE(tx->topic_id.is_zero());
  CHECK_FALSE(tx->replicas.empty());
  CHECK_FALSE(tx->issued.empty());  // PartitionRecord's epoch at least
  // A topic created without configs, and no cluster-wide default: nothing logged.
  const auto t = find(m, "t", 0);
  REQUIRE(t);
  CHECK_FALSE(t->min_isr);
  CHECK_FALSE(t->unclean);
  CHECK(m.node_configs.empty());
  // Every broker's last event fenced it (the cluster was stopped).
  CHECK(m.live.empty());
}

TEST_CASE("the topics selected: a whole-name regex", "[logged_metadata]") {
  const LoggedMetadata all = read_logged_metadata(kLog, {});
  const LoggedMetadata t = read_logged_metadata(kLog, {std::regex("t"), false});
  REQUIRE(t.size() > 0);
  for (const auto& p : all_of(t))
    CHECK(p.topic == "t");
  CHECK(t.size() < all.size());
}
