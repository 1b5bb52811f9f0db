// What a plan's state argument means (forecast/broker_state.hpp): the replicas of a log dir, a
// replica dir, a snapshot or SNAPSHOT:TOPIC-PARTITION, and the broker and cluster they record,
// read by the one reader of replica arguments (storage/replica_sources.hpp) on real Kafka
// 4.1.1 fixtures.

#include "kepoch/forecast/broker_state.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(KEPOCH_SOURCE_DIR) / "tests/data";
// tests/data/logdir/meta.properties: node.id=1, cluster.id=szVdbl2iRXOg29JrTu_QMg.
const std::string kCluster = "szVdbl2iRXOg29JrTu_QMg";

struct ScratchSnapshot {
  fs::path dir;
  fs::path file;
  explicit ScratchSnapshot(const fs::path& log_dir) {
    char tmpl[] = "/tmp/kepoch-plan-state-XXXXXX";
    dir = ::mkdtemp(tmpl);
    file = dir / "broker.snap";
    std::ofstream out(file);
    write_logdir_snapshot(out, {log_dir});
  }
  ~ScratchSnapshot() { fs::remove_all(dir); }
  ScratchSnapshot(const ScratchSnapshot&) = delete;
  ScratchSnapshot& operator=(const ScratchSnapshot&) = delete;
};

}  // namespace

TEST_CASE("a log dir: every replica and the broker and cluster of its meta.properties",
          "[broker_state]") {
  const BrokerState s = load_broker_state((kData / "logdir").string());
  CHECK(s.broker == 1);
  CHECK(s.cluster_id == kCluster);
  CHECK(s.replicas.size() > 1);
}

TEST_CASE("a replica dir: that replica and the broker and cluster of its log dir",
          "[broker_state]") {
  const BrokerState s = load_broker_state((kData / "logdir/t-0").string());
  REQUIRE(s.replicas.size() == 1);
  CHECK(s.replicas[0].topic == "t");
  CHECK(s.broker == 1);
  CHECK(s.cluster_id == kCluster);
  // A replica dir copied without its log dir's meta.properties records no broker.
  const BrokerState bare = load_broker_state((kData / "divergence/before/broker-1/d-0").string());
  CHECK_FALSE(bare.broker);
  CHECK_FALSE(bare.cluster_id);
}

TEST_CASE("a snapshot and SNAPSHOT:TOPIC-PARTITION: what the snapshot records", "[broker_state]") {
  const ScratchSnapshot snap(kData / "logdir");
  const BrokerState whole = load_broker_state(snap.file.string());
  CHECK(whole.broker == 1);
  CHECK(whole.cluster_id == kCluster);
  const BrokerState dir = load_broker_state((kData / "logdir").string());
  CHECK(whole.replicas.size() == dir.replicas.size());
  const BrokerState one = load_broker_state(snap.file.string() + ":t-0");
  REQUIRE(one.replicas.size() == 1);
  CHECK(one.replicas[0].topic == "t");
  CHECK(one.replicas[0].partition == 0);
  CHECK(one.broker == 1);
  CHECK(one.argument == snap.file.string() + ":t-0");
  // A partition the snapshot does not hold is a usage error; a file that is not there, an
  // input error naming the argument.
  CHECK_THROWS_AS(load_broker_state(snap.file.string() + ":nope-0"), UsageError);
  CHECK_THROWS_AS(load_broker_state((snap.dir / "none.snap:t-0").string()), InputError);
  // SNAPSHOT that is there but no file: said of it, not as a missing path.
  try {
    load_broker_state((kData / "logdir:t-0").string());
    FAIL("a directory read as a snapshot");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains((kData / "logdir").string() +
                                         ": a directory, not a snapshot file (in " +
                                         (kData / "logdir:t-0").string()));
  }
}

TEST_CASE(
    "states read on several threads keep the arguments' order: the first argument's error "
    "is the one thrown",
    "[broker_state]") {
  const std::vector<std::string> args = {(kData / "logdir/t-0").string(),
                                         (kData / "divergence/before/broker-2/d-0").string(),
                                         (kData / "divergence/before/broker-3/d-0").string()};
  const auto states = load_broker_states(args, 3);
  REQUIRE(states.size() == 3);
  for (std::size_t i = 0; i < args.size(); ++i)
    CHECK(states[i].argument == args[i]);
  CHECK(states[0].replicas.at(0).topic == "t");
  CHECK(states[2].replicas.at(0).topic == "d");
  try {
    load_broker_states({args[0], "/nonexistent/first", "/nonexistent/second"}, 3);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("/nonexistent/first") != std::string::npos);
  }
}
