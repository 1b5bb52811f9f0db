// Pins LogFileUtils.offsetFromFileName, the suffix rules of LogLoader (endsWith, which
// names Kafka reads an offset from) and LocalLog.parseTopicPartitionName.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <filesystem>
#include <string>

#include "kepoch/format/segment_file_name.hpp"

using kepoch::LeftoverState;
using kepoch::PartitionDirState;
using kepoch::SegmentFileKind;

TEST_CASE("every file Kafka wrote in a partition dir is classified", "[format][file_names]") {
  // The partition dir of tests/unit/data/indexes/ix-0 plus the two files left out there.
  const std::string dir = std::string(KEPOCH_SOURCE_DIR) + "/tests/unit/data/indexes/ix-0";
  int segment_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    INFO(name);
    const auto f = kepoch::parse_segment_file_name(name);
    CHECK(f.kind != SegmentFileKind::other);
    CHECK(f.state == LeftoverState::none);
    CHECK(f.canonical);
    CHECK(f.offset_read_by_kafka);
    REQUIRE(f.offset);
    CHECK(name.substr(0, 20) ==
          std::string(20 - std::to_string(*f.offset).size(), '0') + std::to_string(*f.offset));
    ++segment_files;
  }
  CHECK(segment_files == 18);
  for (const char* name : {"leader-epoch-checkpoint", "partition.metadata"}) {
    const auto f = kepoch::parse_segment_file_name(name);
    CHECK_FALSE(f.offset_read_by_kafka);
    CHECK_FALSE(f.kafka_failure);
    CHECK_FALSE(f.canonical);
  }
}

TEST_CASE("segment file kinds, leftovers and offsets", "[format][file_names]") {
  struct Case {
    const char* name;
    SegmentFileKind kind;
    LeftoverState state;
    std::int64_t offset;  // -99: none
    bool canonical;
    bool read_by_kafka;
  };
  const Case cases[] = {
      {"00000000000000368769.log", SegmentFileKind::log, LeftoverState::none, 368769, true, true},
      {"00000000000000368769.index", SegmentFileKind::index, LeftoverState::none, 368769, true,
       true},
      {"00000000000000000000.timeindex", SegmentFileKind::timeindex, LeftoverState::none, 0, true,
       true},
      {"00000000000000000005.txnindex", SegmentFileKind::txnindex, LeftoverState::none, 5, true,
       true},
      {"00000000000000000031.snapshot", SegmentFileKind::snapshot, LeftoverState::none, 31, true,
       true},
      {"09223372036854775807.log", SegmentFileKind::log, LeftoverState::none, INT64_MAX, true,
       true},
      {"00000000000000000000.log.deleted", SegmentFileKind::log, LeftoverState::deleted, 0, true,
       false},
      {"00000000000000000008.snapshot.deleted", SegmentFileKind::snapshot, LeftoverState::deleted,
       8, true, false},
      {"00000000000000000000.index.cleaned", SegmentFileKind::index, LeftoverState::cleaned, 0,
       true, true},
      {"00000000000000000000.log.swap", SegmentFileKind::log, LeftoverState::swap, 0, true, true},
      {"00000000000000000016.txnindex.swap", SegmentFileKind::txnindex, LeftoverState::swap, 16,
       true, true},
      // offsetFromFileName: the text before the FIRST '.', by Long.parseLong.
      {"7.log", SegmentFileKind::log, LeftoverState::none, 7, false, true},
      {"+7.log", SegmentFileKind::log, LeftoverState::none, 7, false, true},
      {"00000000000000000007.old.log", SegmentFileKind::log, LeftoverState::none, 7, false, true},
      {"-0000000000000000001.log", SegmentFileKind::log, LeftoverState::none, -1, false, true},
      // endsWith: ".timeindex" does not end with ".index"; a leftover suffix only once.
      {"00000000000000000000.log.swap.deleted", SegmentFileKind::other, LeftoverState::deleted, 0,
       false, false},
      {"00000000000000000000.log.tmp", SegmentFileKind::other, LeftoverState::none, 0, false,
       false},
      {"leader-epoch-checkpoint", SegmentFileKind::leader_epoch_checkpoint, LeftoverState::none,
       -99, false, false},
      {"leader-epoch-checkpoint.tmp", SegmentFileKind::leader_epoch_checkpoint, LeftoverState::none,
       -99, false, false},
      {"partition.metadata", SegmentFileKind::partition_metadata, LeftoverState::none, -99, false,
       false},
      {"partition.metadata.tmp", SegmentFileKind::partition_metadata, LeftoverState::none, -99,
       false, false},
      {"00000000000000000000-0000000001.checkpoint", SegmentFileKind::other, LeftoverState::none,
       -99, false, false},
      {"notes.txt", SegmentFileKind::other, LeftoverState::none, -99, false, false},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto f = kepoch::parse_segment_file_name(c.name);
    CHECK(f.kind == c.kind);
    CHECK(f.state == c.state);
    if (c.offset == -99)
      CHECK_FALSE(f.offset);
    else
      CHECK(f.offset == c.offset);
    CHECK(f.canonical == c.canonical);
    CHECK(f.offset_read_by_kafka == c.read_by_kafka);
    CHECK_FALSE(f.kafka_failure);
  }
  CHECK(kepoch::parse_segment_file_name("leader-epoch-checkpoint.tmp").tmp);
  CHECK_FALSE(kepoch::parse_segment_file_name("leader-epoch-checkpoint").tmp);
  CHECK(kepoch::to_string(SegmentFileKind::leader_epoch_checkpoint) == "leader-epoch-checkpoint");
  CHECK(kepoch::to_string(LeftoverState::swap) == "swap");
}

TEST_CASE("names whose offset Kafka cannot parse fail log loading", "[format][file_names]") {
  struct Case {
    const char* name;
    const char* message;
  };
  const Case cases[] = {
      {"foo.log", "java.lang.NumberFormatException: For input string: \"foo\""},
      {".index", "java.lang.NumberFormatException: For input string: \"\""},
      {"copy of 00000000000000000000.timeindex",
       "java.lang.NumberFormatException: For input string: \"copy of 00000000000000000000\""},
      {"99999999999999999999.log",  // beyond Long.MAX_VALUE
       "java.lang.NumberFormatException: For input string: \"99999999999999999999\""},
      {"x.snapshot", "java.lang.NumberFormatException: For input string: \"x\""},
      {"x.log.cleaned", "java.lang.NumberFormatException: For input string: \"x\""},
      {"x.index.swap", "java.lang.NumberFormatException: For input string: \"x\""},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const auto f = kepoch::parse_segment_file_name(c.name);
    CHECK(f.offset_read_by_kafka);
    CHECK_FALSE(f.offset);
    CHECK(f.kafka_failure == std::string(c.message));
  }
  // Deleted leftovers are removed without reading the offset.
  CHECK_FALSE(kepoch::parse_segment_file_name("x.log.deleted").kafka_failure);
}

TEST_CASE("partition dir names as LocalLog.parseTopicPartitionName reads them",
          "[format][file_names]") {
  struct Case {
    const char* name;
    const char* topic;
    std::int32_t partition;
    PartitionDirState state;
    const char* unique_id;
    bool uuid;
  };
  const Case ok[] = {
      {"ix-0", "ix", 0, PartitionDirState::normal, "", false},
      {"__consumer_offsets-49", "__consumer_offsets", 49, PartitionDirState::normal, "", false},
      {"__cluster_metadata-0", "__cluster_metadata", 0, PartitionDirState::normal, "", false},
      {"my-topic-12", "my-topic", 12, PartitionDirState::normal, "", false},  // last '-'
      {"my.topic-3", "my.topic", 3, PartitionDirState::normal, "", false},
      {"t-+5", "t", 5, PartitionDirState::normal, "", false},  // Integer.parseInt takes '+'
      {"t--1", "t-", 1, PartitionDirState::normal, "", false},
      {"ix-0.4b1e6f0a1c2d4e5f8a9b0c1d2e3f4a5b-delete", "ix", 0, PartitionDirState::deleted,
       "4b1e6f0a1c2d4e5f8a9b0c1d2e3f4a5b", true},
      {"my.topic-7.4b1e6f0a1c2d4e5f8a9b0c1d2e3f4a5b-future", "my.topic", 7,
       PartitionDirState::future, "4b1e6f0a1c2d4e5f8a9b0c1d2e3f4a5b", true},
      {"a-b-2.0123456789abcdef0123456789abcdef-stray", "a-b", 2, PartitionDirState::stray,
       "0123456789abcdef0123456789abcdef", true},
      {"t-0.x-delete", "t", 0, PartitionDirState::deleted, "x", false},  // id never checked
  };
  for (const auto& c : ok) {
    INFO(c.name);
    const auto r = kepoch::parse_partition_dir_name(c.name);
    REQUIRE(r.name);
    CHECK_FALSE(r.kafka_failure);
    CHECK(r.name->topic == c.topic);
    CHECK(r.name->partition == c.partition);
    CHECK(r.name->state == c.state);
    CHECK(r.name->unique_id == c.unique_id);
    CHECK(r.name->unique_id_is_uuid == c.uuid);
  }

  const char* bad[] = {
      "",
      "topic",          // no '-'
      "-0",             // empty topic
      "t-",             // empty partition
      "t-x",            // not an int
      "t-2147483648",   // beyond Integer.MAX_VALUE
      "t-0-delete",     // suffix without ".uniqueId"
      "t-0.-delete",    // empty uniqueId
      "t.0-1-future",   // no '-' before the '.'
      "t-0.a b-stray",  // white space
      "t-0.a.-delete",  // matches the pattern, then "0.a" is not an int
      "lost+found",
      "remote-log-index-cache",
  };
  for (const char* name : bad) {
    INFO(name);
    const auto r = kepoch::parse_partition_dir_name(name, std::string("/data/") + name);
    CHECK_FALSE(r.name);
    REQUIRE(r.kafka_failure);
    CHECK(*r.kafka_failure ==
          std::string("Found directory /data/") + name + ", '" + name +
              "' is not in the form of topic-partition or topic-partition.uniqueId-delete (if "
              "marked for deletion).\nKafka's log directories (and children) should only contain "
              "Kafka topic data.");
  }
  CHECK(kepoch::to_string(PartitionDirState::deleted) == "delete");
}
