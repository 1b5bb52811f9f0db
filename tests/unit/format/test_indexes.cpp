// Pins OffsetIndex, TimeIndex and TransactionIndex (AbortedTxn) reading on files written by
// Kafka 4.1.1 (tests/unit/data/indexes/README.md): entries agree with the sibling .log and
// with DumpLogSegments; Kafka's sanityCheck passes on a crashed .index and fails on the
// crashed .timeindex, as DumpLogSegments --index-sanity-check did; damaged copies are found
// at the exact byte.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/offset_index.hpp"
#include "kepoch/format/time_index.hpp"
#include "kepoch/format/transaction_index.hpp"
#include "support/log_batches.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using kepoch::IndexFinding;

const std::string kData = std::string(KEPOCH_SOURCE_DIR) + "/tests/unit/data/indexes/";

Bytes read_bytes(const std::string& rel) {
  std::ifstream in(kData + rel, std::ios::binary);
  REQUIRE(in.good());
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string read_text(const std::string& rel) {
  const auto b = read_bytes(rel);
  return std::string(b.begin(), b.end());
}

// What Kafka 4.1.1's DumpLogSegments printed for a damaged copy: dump/damaged.txt, made by
// make-damaged-oracle with the same damage as the sections below (paths cut to file names).
std::string kafka_said(const std::string& damage) {
  const auto text = read_text("dump/damaged.txt");
  const auto start = text.find("== " + damage + "\n");
  REQUIRE(start != std::string::npos);
  const auto end = text.find("\n== ", start + 1);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// DumpLogSegments output: the lines printed under each "Dumping <file>".
std::map<std::string, std::vector<std::string>> dump_sections(const std::string& rel) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(read_text(rel));
  std::string line, current;
  while (std::getline(in, line)) {
    if (line.rfind("Dumping ", 0) == 0) {
      current = line.substr(8);
      out[current];
    } else if (!current.empty()) {
      out[current].push_back(line);
    }
  }
  return out;
}

// The v2 batch headers of a .log (spec 5.1): the fields the index tests need.
struct Batch {
  std::uint32_t position;
  std::int64_t base_offset;
  std::int64_t last_offset;
  std::int64_t max_timestamp;
  std::int16_t attributes;
  std::int64_t producer_id;
};

std::vector<Batch> log_batches(const Bytes& log) {
  std::vector<Batch> out;
  std::uint64_t end = 0;
  for (const auto& h : test::log_batch_headers(log)) {
    out.push_back({static_cast<std::uint32_t>(h.position), h.base_offset, h.last_offset(),
                   h.max_timestamp, h.attributes, h.producer_id});
    end = h.position + h.size_in_bytes();
  }
  REQUIRE(end == log.size());
  return out;
}

const Batch* batch_at(const std::vector<Batch>& batches, std::int64_t position) {
  for (const auto& b : batches)
    if (b.position == position) return &b;
  return nullptr;
}

const Batch* batch_with_last_offset(const std::vector<Batch>& batches, std::int64_t offset) {
  for (const auto& b : batches)
    if (b.last_offset == offset) return &b;
  return nullptr;
}

std::string seg(std::int64_t base, const char* suffix) {
  std::string digits = std::to_string(base);
  return std::string(20 - digits.size(), '0') + digits + suffix;
}

std::vector<IndexFinding> of_severity(const std::vector<IndexFinding>& fs,
                                      IndexFinding::Severity s) {
  std::vector<IndexFinding> out;
  for (const auto& f : fs)
    if (f.severity == s) out.push_back(f);
  return out;
}

void put_be32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}
void put_be64(Bytes& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (56 - 8 * i));
}

const std::int64_t kSegments[] = {0, 8, 16, 24};

}  // namespace

TEST_CASE("offset index of rolled and cleanly closed segments maps batch last offsets",
          "[format][indexes]") {
  const auto dump = dump_sections("dump/ix-0.txt");
  for (const auto base : kSegments) {
    INFO("segment " << base);
    const auto idx = kepoch::parse_offset_index(read_bytes("ix-0/" + seg(base, ".index")), base);
    const auto batches = log_batches(read_bytes("ix-0/" + seg(base, ".log")));

    CHECK(idx.findings.empty());
    CHECK(idx.trailing_bytes == 0);
    CHECK(idx.zero_padding_entries == 0);
    CHECK(idx.valid_entries == idx.entries.size());
    CHECK_FALSE(idx.sanity_check("x.index"));

    // index.interval.bytes=0: every append but the segment's first gets an entry, and
    // OffsetIndex maps the batch's LAST offset to its START position (spec 13 item 10).
    REQUIRE(idx.entries.size() == batches.size() - 1);
    for (std::size_t i = 0; i < idx.entries.size(); ++i) {
      const auto& e = idx.entries[i];
      const auto* b = batch_at(batches, e.position);
      REQUIRE(b != nullptr);
      CHECK(b == &batches[i + 1]);
      CHECK(e.offset == b->last_offset);
      CHECK(e.relative_offset == b->last_offset - base);
      CHECK(e.file_position == i * 8);
    }
    CHECK(idx.last_offset() == batches.back().last_offset);

    // Same entries as Kafka's DumpLogSegments printed.
    const auto& lines = dump.at(seg(base, ".index"));
    REQUIRE(lines.size() == idx.entries.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
      CHECK(lines[i] == "offset: " + std::to_string(idx.entries[i].offset) +
                            " position: " + std::to_string(idx.entries[i].position));
  }
}

TEST_CASE("time index of rolled and cleanly closed segments follows batch max timestamps",
          "[format][indexes]") {
  const auto dump = dump_sections("dump/ix-0.txt");
  for (const auto base : kSegments) {
    INFO("segment " << base);
    const auto idx = kepoch::parse_time_index(read_bytes("ix-0/" + seg(base, ".timeindex")), base);
    const auto batches = log_batches(read_bytes("ix-0/" + seg(base, ".log")));

    CHECK(idx.findings.empty());
    CHECK(idx.valid_entries == idx.entries.size());
    CHECK_FALSE(idx.sanity_check("x.timeindex"));
    REQUIRE_FALSE(idx.entries.empty());

    std::int64_t running_max = -1;
    std::size_t next = 0;
    for (const auto& b : batches) {
      if (b.max_timestamp <= running_max) continue;
      running_max = b.max_timestamp;
      if (b.position == 0) continue;  // the first append is not indexed
      // Each entry: (max timestamp so far, last offset of the batch that carried it).
      REQUIRE(next < idx.entries.size());
      CHECK(idx.entries[next].timestamp == b.max_timestamp);
      CHECK(idx.entries[next].offset == b.last_offset);
      ++next;
    }
    CHECK(next == idx.entries.size());

    const auto& lines = dump.at(seg(base, ".timeindex"));
    REQUIRE(lines.size() == idx.entries.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
      CHECK(lines[i] == "timestamp: " + std::to_string(idx.entries[i].timestamp) +
                            " offset: " + std::to_string(idx.entries[i].offset));
  }
}

TEST_CASE("untrimmed active-segment indexes: zero padding counted by Kafka, sanityCheck differs",
          "[format][indexes]") {
  struct Case {
    const char* dir;
    std::int64_t base;
    std::size_t real_entries;
    const char* dump;
  };
  // ix-0.running: copied from a live broker; crash-0.killed: after kill -9.
  const Case cases[] = {{"ix-0.running/", 24, 6, "dump/ix-0.running.txt"},
                        {"crash-0.killed/", 0, 4, "dump/crash-0.killed.txt"}};
  for (const auto& c : cases) {
    INFO(c.dir);
    const auto dump = read_text(c.dump);
    // segment.index.bytes=96: both files are preallocated to 96 bytes.
    const auto oi =
        kepoch::parse_offset_index(read_bytes(std::string(c.dir) + seg(c.base, ".index")), c.base);
    CHECK(oi.length == 96);
    CHECK(oi.entries.size() == 12);  // Kafka's entry count on open: floor(96 / 8)
    CHECK(oi.valid_entries == c.real_entries);
    CHECK(oi.zero_padding_entries == 12 - c.real_entries);
    CHECK(oi.entries.back().offset == c.base);  // a zero entry reads as (base offset, 0)
    REQUIRE(oi.findings.size() == 1);
    CHECK(oi.findings[0].severity == IndexFinding::Severity::info);
    CHECK(oi.findings[0].position == c.real_entries * 8);
    // Kafka: "<file> passed sanity check." -- the last offset equals the base offset.
    CHECK_FALSE(oi.sanity_check("x"));
    CHECK_THAT(dump, Catch::Contains(seg(c.base, ".index") + " passed sanity check."));

    const auto ti = kepoch::parse_time_index(
        read_bytes(std::string(c.dir) + seg(c.base, ".timeindex")), c.base);
    CHECK(ti.entries.size() == 8);
    CHECK(ti.valid_entries == c.real_entries);
    CHECK(ti.zero_padding_entries == 8 - c.real_entries);
    REQUIRE(ti.findings.size() == 1);
    CHECK(ti.findings[0].position == c.real_entries * 12);
    // The real entries are the ones DumpLogSegments printed before stopping at the padding.
    for (std::size_t i = 0; i < c.real_entries; ++i)
      CHECK_THAT(dump, Catch::Contains("timestamp: " + std::to_string(ti.entries[i].timestamp) +
                                       " offset: " + std::to_string(ti.entries[i].offset) + "\n"));
    const auto f = ti.sanity_check("PATH");
    REQUIRE(f);
    CHECK(f->exception == "org.apache.kafka.storage.internals.log.CorruptIndexException");
    CHECK(f->position == 7 * 12);
    // Kafka's text, path aside, as DumpLogSegments --index-sanity-check printed it.
    const std::string tail =
        ") has non-zero size but the last timestamp is 0 which is less "
        "than the first timestamp " +
        std::to_string(ti.entries[0].timestamp);
    CHECK(f->kafka_message == "Corrupt time index found, time index file (PATH" + tail);
    CHECK_THAT(dump, Catch::Contains(seg(c.base, ".timeindex") + tail));
  }
}

TEST_CASE("damaged offset index copies", "[format][indexes]") {
  const auto real = read_bytes("ix-0/" + seg(8, ".index"));  // 7 entries, 56 bytes
  REQUIRE(real.size() == 56);
  using Sev = IndexFinding::Severity;

  SECTION("truncated inside the last entry") {
    const Bytes b(real.begin(), real.end() - 3);
    const auto idx = kepoch::parse_offset_index(b, 8);
    CHECK(idx.entries.size() == 6);
    CHECK(idx.trailing_bytes == 5);
    const auto errors = of_severity(idx.findings, Sev::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].position == 48);
    const auto f = idx.sanity_check("00000000000000000008.index");
    REQUIRE(f);
    CHECK(f->kafka_message ==
          "Index file 00000000000000000008.index is corrupt, found 53 bytes which is "
          "neither positive nor a multiple of 8");
    CHECK_THAT(kafka_said("index-truncated"),
               Catch::Contains(f->exception + ": " + f->kafka_message));
    CHECK(f->position == 48);
  }
  SECTION("odd length: one byte appended") {
    Bytes b = real;
    b.push_back(0);
    const auto idx = kepoch::parse_offset_index(b, 8);
    CHECK(idx.entries.size() == 7);
    CHECK(idx.trailing_bytes == 1);
    REQUIRE(idx.sanity_check("p"));
    CHECK(idx.sanity_check("p")->position == 56);
  }
  SECTION("zero-filled: Kafka's sanityCheck passes, kepoch sees only padding") {
    const Bytes b(real.size(), 0);
    const auto idx = kepoch::parse_offset_index(b, 8);
    CHECK(idx.entries.size() == 7);
    CHECK(idx.valid_entries == 0);
    CHECK(idx.zero_padding_entries == 7);
    CHECK_FALSE(idx.sanity_check("p"));
    CHECK_THAT(kafka_said("index-zero"),
               Catch::Contains("00000000000000000008.index passed sanity check."));
    REQUIRE(idx.findings.size() == 1);
    CHECK(idx.findings[0].position == 0);
  }
  SECTION("an entry pointing backwards in offset") {
    Bytes b = real;
    put_be32(b, 3 * 8, 2);  // entry 3: relative offset 2 (< entry 2's 3)
    const auto idx = kepoch::parse_offset_index(b, 8);
    CHECK(idx.valid_entries == 3);
    const auto errors = of_severity(idx.findings, Sev::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].position == 24);
    CHECK_THAT(errors[0].message, Catch::Contains("offset 10 is not greater than the previous "
                                                  "entry's offset 11"));
    CHECK_FALSE(idx.sanity_check("p"));  // Kafka does not look at the order
  }
  SECTION("an entry pointing backwards in the .log") {
    Bytes b = real;
    put_be32(b, 2 * 8 + 4, 100);  // entry 2: position 100 (< entry 1's 160)
    const auto idx = kepoch::parse_offset_index(b, 8);
    CHECK(idx.valid_entries == 7);
    const auto errors = of_severity(idx.findings, Sev::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].position == 20);
    CHECK_THAT(errors[0].message, Catch::Contains("position 100 is not after"));
  }
  SECTION("last offset below the base offset fails Kafka's sanityCheck") {
    Bytes b(real.begin(), real.begin() + 8);
    put_be32(b, 0, 0xFFFFFFFF);  // relative offset -1
    const auto idx = kepoch::parse_offset_index(b, 8);
    const auto f = idx.sanity_check("00000000000000000008.index");
    REQUIRE(f);
    CHECK(f->kafka_message ==
          "Corrupt index found, index file 00000000000000000008.index has non-zero size but the "
          "last offset is 7 which is less than the base offset 8");
    CHECK_THAT(kafka_said("index-last-below-base"),
               Catch::Contains(f->exception + ": " + f->kafka_message));
    CHECK(f->position == 0);
    CHECK(of_severity(idx.findings, Sev::error).size() == 1);
  }
  SECTION("empty file") {
    const auto idx = kepoch::parse_offset_index({}, 8);
    CHECK(idx.entries.empty());
    CHECK(idx.findings.empty());
    CHECK(idx.last_offset() == 8);
    CHECK_FALSE(idx.sanity_check("p"));
  }
}

TEST_CASE("damaged time index copies", "[format][indexes]") {
  const auto real = read_bytes("ix-0/" + seg(16, ".timeindex"));  // 7 entries, 84 bytes
  REQUIRE(real.size() == 84);
  using Sev = IndexFinding::Severity;

  SECTION("truncated") {
    const Bytes b(real.begin(), real.end() - 5);
    const auto idx = kepoch::parse_time_index(b, 16);
    CHECK(idx.entries.size() == 6);
    CHECK(idx.trailing_bytes == 7);
    const auto f = idx.sanity_check("00000000000000000016.timeindex");
    REQUIRE(f);
    CHECK(f->kafka_message ==
          "Time index file 00000000000000000016.timeindex is corrupt, found 79 bytes which is "
          "neither positive nor a multiple of 12");
    CHECK_THAT(kafka_said("timeindex-truncated"),
               Catch::Contains(f->exception + ": " + f->kafka_message));
    CHECK(f->position == 72);
  }
  SECTION("zero-filled: passes Kafka's sanityCheck (0 is not less than 0)") {
    const Bytes b(real.size(), 0);
    const auto idx = kepoch::parse_time_index(b, 16);
    CHECK(idx.valid_entries == 0);
    CHECK(idx.zero_padding_entries == 7);
    CHECK_FALSE(idx.sanity_check("p"));
    CHECK_THAT(kafka_said("timeindex-zero"),
               Catch::Contains("00000000000000000016.timeindex passed sanity check."));
  }
  SECTION("a timestamp going backwards") {
    Bytes b = real;
    put_be64(b, 4 * 12, 1000);  // entry 4's timestamp far in the past
    const auto idx = kepoch::parse_time_index(b, 16);
    CHECK(idx.valid_entries == 4);
    const auto errors = of_severity(idx.findings, Sev::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].position == 48);
    CHECK_FALSE(idx.sanity_check("p"));  // only the last timestamp is compared with the first
  }
  SECTION("an offset going backwards") {
    Bytes b = real;
    put_be32(b, 5 * 12 + 8, 1);  // entry 5: relative offset 1 (< entry 4's 5)
    const auto idx = kepoch::parse_time_index(b, 16);
    CHECK(idx.valid_entries == 5);
    const auto errors = of_severity(idx.findings, Sev::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].position == 68);
  }
  SECTION("last offset below the base offset") {
    Bytes b = real;
    put_be32(b, 6 * 12 + 8, 0xFFFFFFFE);  // last entry: relative offset -2
    const auto idx = kepoch::parse_time_index(b, 16);
    const auto f = idx.sanity_check("00000000000000000016.timeindex");
    REQUIRE(f);
    CHECK(f->kafka_message ==
          "Corrupt time index found, time index file (00000000000000000016.timeindex) has "
          "non-zero size but the last offset is 14 which is less than the first offset 16");
    CHECK_THAT(kafka_said("timeindex-last-below-base"),
               Catch::Contains(f->exception + ": " + f->kafka_message));
    CHECK(f->position == 80);
  }
}

TEST_CASE("transaction index entries are the aborted transactions of the .log",
          "[format][indexes]") {
  const auto dump = dump_sections("dump/ix-0.txt");
  struct Case {
    std::int64_t base;
    std::int64_t producer_id, first, last, lso;
  };
  // 8: "a" transaction (offsets 12-14) aborted by the marker at 15, no other open txn, so
  // LSO = last + 1. 24: "c" transaction started at 23, in the PREVIOUS segment (16).
  const Case cases[] = {{8, 1001, 12, 15, 16}, {24, 2001, 23, 25, 26}};
  for (const auto& c : cases) {
    INFO("segment " << c.base);
    const auto idx =
        kepoch::parse_transaction_index(read_bytes("ix-0/" + seg(c.base, ".txnindex")), c.base);
    CHECK(idx.findings.empty());
    CHECK_FALSE(idx.read_failure("p"));
    CHECK_FALSE(idx.sanity_check("p"));
    REQUIRE(idx.entries.size() == 1);
    const auto& e = idx.entries[0];
    CHECK(e.version == 0);
    CHECK(e.producer_id == c.producer_id);
    CHECK(e.first_offset == c.first);
    CHECK(e.last_offset == c.last);
    CHECK(e.last_stable_offset == c.lso);
    CHECK(dump.at(seg(c.base, ".txnindex")) ==
          std::vector<std::string>{"version: 0 producerId: " + std::to_string(c.producer_id) +
                                   " firstOffset: " + std::to_string(c.first) +
                                   " lastOffset: " + std::to_string(c.last) +
                                   " lastStableOffset: " + std::to_string(c.lso)});

    // lastOffset is this segment's control batch (attributes: transactional 0x10, control
    // 0x20) of the same producer; firstOffset is that producer's first transactional batch.
    const auto here = log_batches(read_bytes("ix-0/" + seg(c.base, ".log")));
    const auto* marker = batch_with_last_offset(here, c.last);
    REQUIRE(marker != nullptr);
    CHECK((marker->attributes & 0x30) == 0x30);
    CHECK(marker->producer_id == c.producer_id);
    const std::int64_t first_seg = c.first >= c.base ? c.base : 16;
    const auto there = log_batches(read_bytes("ix-0/" + seg(first_seg, ".log")));
    const auto* first = batch_with_last_offset(there, c.first);
    REQUIRE(first != nullptr);
    CHECK((first->attributes & 0x30) == 0x10);
    CHECK(first->producer_id == c.producer_id);
  }
  // Segments without aborted transactions have no .txnindex at all.
  CHECK_FALSE(std::ifstream(kData + "ix-0/" + seg(0, ".txnindex")).good());
  CHECK_FALSE(std::ifstream(kData + "ix-0/" + seg(16, ".txnindex")).good());
}

TEST_CASE("damaged transaction index copies", "[format][indexes]") {
  const auto real = read_bytes("ix-0/" + seg(24, ".txnindex"));
  REQUIRE(real.size() == 34);
  Bytes two = real;
  two.insert(two.end(), real.begin(), real.end());
  put_be64(two, 34 + 18, 27);  // second entry: lastOffset 27
  using Sev = IndexFinding::Severity;

  SECTION("the version is one byte: a non-zero low byte is accepted") {
    Bytes b = two;
    b[34 + 1] = 0x07;
    const auto idx = kepoch::parse_transaction_index(b, 24);
    CHECK(idx.entries[1].version == 0);
    CHECK(idx.entries[1].version_field == 7);
    CHECK_FALSE(idx.read_failure("p"));
    CHECK_THAT(kafka_said("txnindex-version-low-byte"),
               Catch::Contains("version: 0 producerId: 2001 firstOffset: 23 lastOffset: 27"));
    CHECK_FALSE(idx.sanity_check("p"));
    REQUIRE(idx.findings.size() == 1);
    CHECK(idx.findings[0].severity == Sev::warning);
    CHECK(idx.findings[0].position == 34);
  }
  SECTION("a negative version byte is accepted too") {
    Bytes b = two;
    b[34] = 0xFF;
    const auto idx = kepoch::parse_transaction_index(b, 24);
    CHECK(idx.entries[1].version == -1);
    CHECK_FALSE(idx.read_failure("p"));
    CHECK_THAT(kafka_said("txnindex-version-negative"),
               Catch::Contains("version: -1 producerId: 2001 firstOffset: 23 lastOffset: 27"));
  }
  SECTION("a newer version byte makes reading throw, at that entry") {
    Bytes b = two;
    b[34] = 0x01;
    const auto idx = kepoch::parse_transaction_index(b, 24);
    const auto f = idx.read_failure("00000000000000000024.txnindex");
    REQUIRE(f);
    CHECK(f->exception == "org.apache.kafka.common.KafkaException");
    CHECK(f->kafka_message ==
          "Unexpected aborted transaction version 1 in transaction index "
          "00000000000000000024.txnindex, current version is 0");
    CHECK_THAT(kafka_said("txnindex-version-1"),
               Catch::Contains(f->exception + ": " + f->kafka_message));
    CHECK(f->position == 34);
    REQUIRE(idx.sanity_check("p"));
    CHECK(idx.sanity_check("p")->exception == f->exception);
    // Not a CorruptIndexException, so LogLoader does not recover: a real broker with this
    // byte in its first entry's version died at startup.
    CHECK_THAT(read_text("dump/broker-load.txt"), Catch::Contains("Error starting LogManager"));
    REQUIRE(of_severity(idx.findings, Sev::error).size() == 1);
  }
  SECTION("a partial tail is ignored") {
    const Bytes b(two.begin(), two.end() - 10);
    const auto idx = kepoch::parse_transaction_index(b, 24);
    CHECK(idx.entries.size() == 1);
    CHECK(idx.trailing_bytes == 24);
    REQUIRE(idx.findings.size() == 1);
    CHECK(idx.findings[0].position == 34);
    CHECK_FALSE(idx.sanity_check("p"));
  }
  SECTION("lastOffset below the segment: a broker recovers the segment") {
    Bytes bad = real;
    put_be64(bad, 18, 20);
    const auto idx = kepoch::parse_transaction_index(bad, 24);
    const auto f = idx.sanity_check("00000000000000000024.txnindex");
    REQUIRE(f);
    CHECK(f->exception == "org.apache.kafka.storage.internals.log.CorruptIndexException");
    CHECK(f->kafka_message ==
          "Last offset of aborted transaction AbortedTxn(version=0, producerId=2001, "
          "firstOffset=23, lastOffset=20, lastStableOffset=26) in index "
          "00000000000000000024.txnindex is less than start offset 24");
    CHECK(f->position == 18);
    // A real broker started on this file logged the same text and rebuilt the segment.
    CHECK_THAT(read_text("dump/broker-load.txt"),
               Catch::Contains("Found a corrupted index file corresponding to log file "
                               "00000000000000000024.log due to " +
                               f->kafka_message + ", recovering segment"));
  }
  SECTION("lastOffsets that do not increase") {
    Bytes b = two;
    put_be64(b, 34 + 18, 25);
    const auto idx = kepoch::parse_transaction_index(b, 24);
    const auto errors = of_severity(idx.findings, Sev::error);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].position == 34 + 18);
    CHECK_FALSE(idx.sanity_check("p"));
  }
  SECTION("zero-filled") {
    const Bytes b(68, 0);
    const auto idx = kepoch::parse_transaction_index(b, 24);
    REQUIRE(idx.entries.size() == 2);
    const auto f = idx.sanity_check("p");
    REQUIRE(f);
    CHECK(f->position == 18);  // lastOffset 0 < 24
  }
}
