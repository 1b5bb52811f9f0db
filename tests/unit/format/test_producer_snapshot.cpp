// Pins ProducerStateManager.readSnapshot (ProducerSnapshot.json v1) on snapshots written by
// Kafka 4.1.1 (tests/unit/data/indexes/README.md): entries agree with DumpLogSegments and
// with the producers' batches in the .log; damaged copies fail with Kafka's
// CorruptSnapshotException text and the byte kepoch blames.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/crc32c.hpp"
#include "kepoch/format/producer_snapshot.hpp"
#include "support/log_batches.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

const std::string kData = std::string(KEPOCH_SOURCE_DIR) + "/tests/unit/data/indexes/";

Bytes read_bytes(const std::string& rel) {
  std::ifstream in(kData + rel, std::ios::binary);
  REQUIRE(in.good());
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string seg(std::int64_t base, const char* suffix) {
  std::string digits = std::to_string(base);
  return std::string(20 - digits.size(), '0') + digits + suffix;
}

// What Kafka 4.1.1's DumpLogSegments (ProducerStateManager.readSnapshot) printed for a
// damaged copy: dump/damaged.txt, made by make-damaged-oracle with the same damage.
std::string kafka_said(const std::string& damage) {
  const auto b = read_bytes("dump/damaged.txt");
  const std::string text(b.begin(), b.end());
  const auto start = text.find("== " + damage + "\n");
  REQUIRE(start != std::string::npos);
  const auto end = text.find("\n== ", start + 1);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Lines DumpLogSegments printed under "Dumping <file>".
std::vector<std::string> dump_lines(const std::string& file) {
  const auto b = read_bytes("dump/ix-0.txt");
  std::istringstream in(std::string(b.begin(), b.end()));
  std::vector<std::string> out;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("Dumping ", 0) == 0)
      inside = line == "Dumping " + file;
    else if (inside)
      out.push_back(line);
  }
  return out;
}

// DumpLogSegments' line for a ProducerStateEntry (ProducerStateEntry fields, then the
// BatchMetadata fields only when there is batch metadata).
std::string dump_line(const kepoch::ProducerSnapshotEntry& e) {
  std::string s =
      "producerId: " + std::to_string(e.producer_id) +
      " producerEpoch: " + std::to_string(e.epoch) +
      " coordinatorEpoch: " + std::to_string(e.coordinator_epoch) + " currentTxnFirstOffset: " +
      (e.has_ongoing_txn() ? "OptionalLong[" + std::to_string(e.current_txn_first_offset) + "]"
                           : std::string("OptionalLong.empty")) +
      " lastTimestamp: " + std::to_string(e.timestamp) + " ";
  if (e.has_batch_metadata())
    s += "firstSequence: " + std::to_string(e.first_sequence()) +
         " lastSequence: " + std::to_string(e.last_sequence) +
         " lastOffset: " + std::to_string(e.last_offset) +
         " offsetDelta: " + std::to_string(e.offset_delta) +
         " timestamp: " + std::to_string(e.timestamp);
  return s;
}

struct Batch {
  std::int64_t last_offset;
  std::int64_t max_timestamp;
  std::int64_t producer_id;
  std::int16_t producer_epoch;
  std::int32_t base_sequence;
  std::int32_t last_offset_delta;
};

std::vector<Batch> log_batches(const Bytes& log) {
  std::vector<Batch> out;
  for (const auto& h : test::log_batch_headers(log)) {
    out.push_back({h.last_offset(), h.max_timestamp, h.producer_id, h.producer_epoch,
                   h.base_sequence, h.last_offset_delta});
  }
  return out;
}

void put_be32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

void fix_crc(Bytes& b) {
  put_be32(b, 2, kepoch::crc32c(std::span<const std::uint8_t>(b).subspan(6)));
}

}  // namespace

TEST_CASE("producer snapshots written by Kafka", "[format][producer_snapshot]") {
  std::vector<Batch> all;
  for (std::int64_t base : {0, 8, 16, 24}) {
    const auto b = log_batches(read_bytes("ix-0/" + seg(base, ".log")));
    all.insert(all.end(), b.begin(), b.end());
  }
  // 8 (roll): the idempotent producer "r" only; 16: + the aborted txn "a"'s producer (epoch
  // bumped by the abort, batch metadata gone); 24: + "b", the committed txn "t", and txn
  // "c", which began at offset 23 and was still open when the segment rolled at 24;
  // 31 (clean shutdown): "c" aborted (epoch bumped), + "d".
  struct File {
    std::int64_t offset;
    std::size_t count;
    std::int64_t open_txn_producer;  // -1: none
    std::int64_t open_txn_first_offset;
  };
  const File files[] = {{8, 1, -1, 0}, {16, 2, -1, 0}, {24, 5, 2001, 23}, {31, 6, -1, 0}};
  for (const auto& [offset, count, open_producer, open_first] : files) {
    INFO("snapshot " << offset);
    const auto bytes = read_bytes("ix-0/" + seg(offset, ".snapshot"));
    const auto s = kepoch::parse_producer_snapshot(bytes);
    CHECK(s.valid());
    CHECK(s.findings.empty());
    CHECK(s.version == 1);
    REQUIRE(s.stored_crc);
    CHECK(s.stored_crc == s.computed_crc);
    CHECK(s.entry_count == static_cast<std::int32_t>(count));
    REQUIRE(s.entries.size() == count);
    CHECK(bytes.size() == 10 + 46 * count);
    CHECK(s.trailing_bytes == 0);

    const auto lines = dump_lines(seg(offset, ".snapshot"));
    REQUIRE(lines.size() == count);
    std::size_t with_batches = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const auto& e = s.entries[i];
      CHECK(e.file_position == 10 + 46 * i);
      CHECK(lines[i] == dump_line(e));
      if (e.producer_id == open_producer) {
        CHECK(e.current_txn_first_offset == open_first);
        bool found = false;
        for (const auto& b : all)
          found = found || (b.last_offset == open_first && b.producer_id == e.producer_id);
        CHECK(found);
      } else {
        CHECK_FALSE(e.has_ongoing_txn());
      }
      if (!e.has_batch_metadata()) continue;
      ++with_batches;
      // The state covers offsets below the file name's offset, and its last batch is in the
      // log with the same producer, epoch, sequence range and timestamp.
      CHECK(e.last_offset < offset);
      const Batch* hit = nullptr;
      for (const auto& b : all)
        if (b.last_offset == e.last_offset) hit = &b;
      REQUIRE(hit != nullptr);
      CHECK(hit->producer_id == e.producer_id);
      CHECK(hit->producer_epoch == e.epoch);
      CHECK(hit->base_sequence + hit->last_offset_delta == e.last_sequence);
      CHECK(hit->last_offset_delta == e.offset_delta);
      CHECK(hit->max_timestamp == e.timestamp);
    }
    CHECK(with_batches >= 1);
  }
}

TEST_CASE("damaged producer snapshot copies", "[format][producer_snapshot]") {
  const auto real = read_bytes("ix-0/" + seg(16, ".snapshot"));  // 2 entries, 102 bytes
  REQUIRE(real.size() == 102);
  const std::string schema = "Snapshot failed schema validation: ";

  SECTION("a flipped bit in an entry") {
    Bytes b = real;
    b[10 + 46 + 20] ^= 0x01;
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->exception ==
          "org.apache.kafka.storage.internals.log.CorruptSnapshotException");
    const auto computed = kepoch::crc32c(std::span<const std::uint8_t>(b).subspan(6));
    CHECK(s.failure->kafka_message == "Snapshot is corrupt (CRC is no longer valid). Stored crc: " +
                                          std::to_string(*s.stored_crc) +
                                          ". Computed crc: " + std::to_string(computed));
    CHECK_THAT(kafka_said("snapshot-bit-flip"), Catch::Contains(s.failure->kafka_message));
    CHECK(s.failure->position == 2);
    CHECK(s.entries.size() == 2);  // the schema still reads
  }
  SECTION("version 2") {
    Bytes b = real;
    b[1] = 2;
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->kafka_message == schema + "Snapshot contained an unknown file version 2");
    CHECK_THAT(kafka_said("snapshot-version-2"), Catch::Contains(s.failure->kafka_message));
    CHECK(s.failure->position == 0);
  }
  SECTION("truncated by one byte: the schema fails before the CRC is looked at") {
    const Bytes b(real.begin(), real.end() - 1);
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->kafka_message == schema + "null");  // BufferUnderflowException
    CHECK_THAT(kafka_said("snapshot-truncated"), Catch::Contains(s.failure->kafka_message));
    CHECK(s.failure->position == 56);  // the cut-off second entry
    CHECK(s.entries.size() == 1);
  }
  SECTION("zero-filled") {
    const Bytes b(real.size(), 0);
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->kafka_message == schema + "Snapshot contained an unknown file version 0");
    CHECK_THAT(kafka_said("snapshot-zero"), Catch::Contains(s.failure->kafka_message));
  }
  SECTION("empty, or shorter than the header") {
    for (std::size_t n : {0, 1, 5, 9}) {
      INFO(n);
      const Bytes b(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(n));
      const auto s = kepoch::parse_producer_snapshot(b);
      REQUIRE(s.failure);
      CHECK(s.failure->kafka_message == schema + "null");
      CHECK_THAT(kafka_said("snapshot-first-" + std::to_string(n)),
                 Catch::Contains(s.failure->kafka_message));
    }
  }
  SECTION("negative entry count") {
    Bytes b = real;
    put_be32(b, 6, 0xFFFFFFFF);
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->kafka_message ==
          schema + "non-nullable field producerEntries was serialized as null");
    CHECK_THAT(kafka_said("snapshot-count-negative"), Catch::Contains(s.failure->kafka_message));
    CHECK(s.failure->position == 6);
  }
  SECTION("entry count larger than the bytes left") {
    Bytes b = real;
    put_be32(b, 6, 1000);
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->kafka_message ==
          schema +
              "Tried to allocate a collection of size 1000, but there are only 92 bytes "
              "remaining.");
    CHECK_THAT(kafka_said("snapshot-count-1000"), Catch::Contains(s.failure->kafka_message));
  }
  SECTION("entry count within the bytes left but beyond the entries") {
    Bytes b = real;
    put_be32(b, 6, 3);
    fix_crc(b);
    const auto s = kepoch::parse_producer_snapshot(b);
    REQUIRE(s.failure);
    CHECK(s.failure->kafka_message == schema + "null");
    CHECK_THAT(kafka_said("snapshot-count-3"), Catch::Contains(s.failure->kafka_message));
    CHECK(s.failure->position == 102);
  }
  SECTION("bytes after the entries: ignored by Kafka when the CRC covers them") {
    Bytes b = real;
    b.insert(b.end(), {1, 2, 3});
    const auto stale = kepoch::parse_producer_snapshot(b);
    REQUIRE(stale.failure);
    CHECK_THAT(kafka_said("snapshot-trailing-stale-crc"),
               Catch::Contains(stale.failure->kafka_message));
    fix_crc(b);
    const auto s = kepoch::parse_producer_snapshot(b);
    CHECK(s.valid());
    for (const auto& e : s.entries)  // Kafka read and printed both entries
      CHECK_THAT(kafka_said("snapshot-trailing"), Catch::Contains(dump_line(e)));
    CHECK(s.trailing_bytes == 3);
    REQUIRE(s.findings.size() == 1);
    CHECK(s.findings[0].position == 102);
  }
  SECTION("a producer id twice") {
    Bytes b = real;
    std::copy(b.begin() + 10, b.begin() + 18, b.begin() + 56);
    fix_crc(b);
    const auto s = kepoch::parse_producer_snapshot(b);
    CHECK(s.valid());
    for (const auto& e : s.entries)
      CHECK_THAT(kafka_said("snapshot-duplicate-producer"), Catch::Contains(dump_line(e)));
    REQUIRE(s.findings.size() == 1);
    CHECK(s.findings[0].position == 56);
  }
}

TEST_CASE("first sequence wraps as DefaultRecordBatch.decrementSequence",
          "[format][producer_snapshot]") {
  kepoch::ProducerSnapshotEntry e;
  e.last_sequence = 10;
  e.offset_delta = 4;
  CHECK(e.first_sequence() == 6);
  e.last_sequence = 2;
  e.offset_delta = 4;
  CHECK(e.first_sequence() == INT32_MAX - 1);  // MAX - (4 - 2) + 1
}
