// Pins MetaProperties.Builder / MetaPropertiesEnsemble.Loader and verify().
#include "check_helpers.hpp"

using kepoch::CheckpointKind;
using kepoch::KafkaOutcome;
using test::validate;

namespace {
const kepoch::CheckpointType kProps{CheckpointKind::meta_properties};
const char* kGood =
    "#\n#Sun Nov 29 08:00:00 UTC 2026\nnode.id=1\ndirectory.id=b8tRS7h4TJ2Vt43Dp85v2A\n"
    "version=1\ncluster.id=q1Sh-9_ISia_zwGINzRvyQ\n";
}  // namespace

TEST_CASE("meta.properties v1 as Kafka writes it", "[format][meta_properties]") {
  const auto r = validate(kGood, kProps);
  CHECK(r.valid);
  CHECK(r.node_id == 1);
  CHECK(r.cluster_id == "q1Sh-9_ISia_zwGINzRvyQ");
  REQUIRE(r.directory_id);
  CHECK(r.directory_id->to_string() == "b8tRS7h4TJ2Vt43Dp85v2A");
  CHECK(r.problems.empty());
}

TEST_CASE("meta.properties: java.util.Properties syntax", "[format][meta_properties]") {
  const auto r = validate("version : 1\nnode.id 7\ncluster.id=a\\\n    bc\n", kProps);
  CHECK(r.valid);
  CHECK(r.node_id == 7);
  CHECK(r.cluster_id == "abc");
}

TEST_CASE("meta.properties failures: the loader marks the dir as an error dir",
          "[format][meta_properties]") {
  struct Case {
    const char* text;
    const char* needle;
  };
  const Case cases[] = {
      {"version=1\ncluster.id=x\n", "Failed to find node.id"},
      {"version=1\nnode.id=1\n", "cluster.id was not found."},
      {"version=2\nnode.id=1\ncluster.id=x\n", "Unknown meta.properties version number 2"},
      {"version=one\n", "Invalid meta.properties version string 'one'"},
      {"version=1\nnode.id=1 \ncluster.id=x\n", "Unable to read node.id as a base-10 number."},
      {"version=1\nnode.id=1\ncluster.id=x\ndirectory.id=zz\n", "Unable to read directory.id"},
      {"version=1\nnode.id=\\u12\n", "Malformed \\uxxxx encoding."},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto r = validate(c.text, kProps);
    CHECK_FALSE(r.valid);
    CHECK(r.outcome == KafkaOutcome::dir_offline);
    CHECK_THAT(test::first_error(r), Catch::Contains(c.needle));
    kepoch::CheckpointContext metadata_dir;
    metadata_dir.metadata_log_dir = true;
    CHECK(validate(c.text, kProps, metadata_dir).outcome == KafkaOutcome::startup_fatal);
  }
}

TEST_CASE("meta.properties: a reserved directory.id fails verify()", "[format][meta_properties]") {
  const auto r =
      validate("version=1\nnode.id=1\ncluster.id=x\ndirectory.id=AAAAAAAAAAAAAAAAAAAAAQ\n", kProps);
  CHECK_FALSE(r.valid);
  CHECK(r.outcome == KafkaOutcome::startup_fatal);
}

TEST_CASE("meta.properties lint", "[format][meta_properties]") {
  const auto r = validate("broker.id=3\nnode.id=1\nnode.id=2\nfoo=bar\n", kProps);
  CHECK(r.valid);  // version 0 (absent): broker.id optional, node.id not read
  CHECK(r.node_id == 3);
  CHECK_FALSE(test::has_warning(r, "ZooKeeper"));  // broker.id: a ZooKeeper-mode file, a note
  CHECK(test::has_warning(r, "unknown key \"foo\""));
  CHECK(test::has_warning(r, "already set on line 2"));
}

namespace {
bool has_note(const kepoch::CheckpointReport& r, std::string_view needle) {
  for (const auto& p : r.problems)
    if (p.severity == kepoch::Severity::info && p.message.find(needle) != std::string::npos)
      return true;
  return false;
}
// As a ZooKeeper-mode Kafka 3.9.1 broker wrote it (tests/data/zk-mode/broker-3).
const char* kZooKeeperMode =
    "#\n#Wed Dec 02 00:54:34 UTC 2026\nbroker.id=3\nversion=0\ncluster.id=5mldfJUdT4K0JMpxy9pWIQ\n";
}  // namespace

TEST_CASE(
    "meta.properties v0 with broker.id (MetaPropertiesVersion.V0, what a ZooKeeper-mode "
    "broker writes) is a note, not a warning",
    "[format][meta_properties]") {
  const auto r = validate(kZooKeeperMode, kProps);
  CHECK(r.valid);
  CHECK(r.node_id == 3);
  CHECK(test::warnings(r).empty());
  CHECK_FALSE(r.has_warnings());  // --strict passes
  CHECK(has_note(r, "the format a ZooKeeper-mode broker writes"));
}

TEST_CASE("meta.properties v0 beside a __cluster_metadata-0 dir (KRaft) is a warning",
          "[format][meta_properties]") {
  kepoch::CheckpointContext kraft_dir;
  kraft_dir.metadata_log_dir = true;
  const auto r = validate(kZooKeeperMode, kProps, kraft_dir);
  CHECK(test::has_warning(r, "holds a __cluster_metadata-0 directory (KRaft)"));
  CHECK(r.has_warnings());
}

TEST_CASE("meta.properties v0 without broker.id is a warning (no broker's file)",
          "[format][meta_properties]") {
  const auto r = validate("version=0\ncluster.id=x\n", kProps);
  CHECK(test::has_warning(r, "version 0 is the ZooKeeper-era format"));
}
