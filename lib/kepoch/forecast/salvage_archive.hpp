#pragma once
// The salvage archive: the records `kepoch salvage` keeps, one JSON object per line (JSON
// Lines; docs/salvage-archive.md is its reference), readable with jq, binary-safe (every
// byte string in standard base64, RFC 4648 section 4):
//
//   line 1      {"format":"kepoch-salvage-archive","version":1,"written_by":"kepoch 1.2.3"}
//   records     {"topic":"orders","partition":0,"offset":5,"leader_epoch":2,
//                "timestamp":1700000000000,"timestamp_type":"create_time",
//                "key":"YS0x"|null,"value":"..."|null,"headers":[{"key":"...","value":...}],
//                "producer_id":1000,"producer_epoch":0,"sequence":5,"transactional":false,
//                "class":"data","control_type":null,"committed":true|false|null,
//                "on_new_leader":{"present":true|false|null,"by":"producer_sequence",
//                                 "certainty":"certain"},
//                "replica":"/var/lib/kafka/orders-0"}
//   last line   {"end":{"records":N}}: the archive is complete (a reader refuses one
//               without it: a copy cut short)
//
// A reader takes a newer minor addition (an unknown member) as it is, and refuses another
// format or a version above its own.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kepoch/forecast/salvage.hpp"

namespace kepoch::forecast {

inline constexpr std::string_view kSalvageFormat = "kepoch-salvage-archive";
inline constexpr std::int64_t kSalvageVersion = 1;
// The longest line a reader takes (the snapshot files' bound, kMaxSnapshotLineBytes): a
// record of up to ~48 MiB of key, value and headers (base64 is 4/3 of the bytes), far above
// the ~1 MiB Kafka takes by default (max.message.bytes). A longer line (a file without
// newlines, a damaged archive) is refused before it is held whole; salvage refuses to write
// one (write_archive_line).
inline constexpr std::size_t kMaxArchiveLineBytes = 64u << 20;

// Writing, line by line (each ends with '\n').
void write_archive_header(std::ostream& out, std::string_view written_by);
void write_archive_record(std::ostream& out, const SalvagedRecord& record);
void write_archive_end(std::ostream& out, std::uint64_t records);
// The same lines as text, for a writer that gathers many lines before writing them (one
// line of a 1 KiB value is larger than a file stream's direct-write threshold, so a stream
// written line by line makes a system call per record).
std::string archive_header_line(std::string_view written_by);
std::string archive_end_line(std::uint64_t records);
void append_archive_record(std::string& out, const SalvagedRecord& record);
// A record's line written at `out`, which has room for archive_record_max_size(record)
// bytes; returns its end. No allocation for a plain ASCII topic and replica dir. InputError
// naming the replica dir when the line is longer than kMaxArchiveLineBytes (a reader would
// refuse the whole archive).
std::size_t archive_record_max_size(const SalvagedRecord& record);
char* write_archive_line(char* out, const SalvagedRecord& record);

// One record read back.
struct ArchivedRecord {
  std::string topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::int32_t leader_epoch = -1;
  std::int64_t timestamp = -1;
  bool log_append_time = false;
  std::optional<std::vector<std::uint8_t>> key;
  std::optional<std::vector<std::uint8_t>> value;
  struct Header {
    std::vector<std::uint8_t> key;
    std::optional<std::vector<std::uint8_t>> value;
  };
  std::vector<Header> headers;
  std::int64_t producer_id = -1;
  std::int16_t producer_epoch = -1;
  std::int32_t sequence = -1;
  bool transactional = false;
  SalvageClass kind = SalvageClass::data;
  std::optional<bool> committed;
  std::optional<bool> present;
  std::string replica;
};

// Reads an archive line by line: header() once, then next() until it returns nullopt at the
// end line. Throws InputError naming `path` and the line for anything else: not JSON, another
// format, a newer version, a missing or mistyped member, bad base64, no end line, a line
// longer than kMaxArchiveLineBytes, anything after the end line, and a record the archive
// cannot hold twice: the same partition, leader epoch and offset as an earlier record (salvage
// archives a record once), or a partition's records after another partition's came between
// (salvage writes a partition's records together): a duplicated or moved line, which replay
// would produce twice.
class ArchiveReader {
 public:
  ArchiveReader(std::istream& in, std::string path);
  // The first line's version (throws when line 1 is not an archive's header).
  std::int64_t version() const { return version_; }
  std::optional<ArchivedRecord> next();
  int line() const { return line_; }  // of the last record returned
  std::uint64_t records() const { return records_; }

 private:
  // The next line, without its '\n', in text_ (the last may lack one); false at the end.
  // `number` names it in errors.
  bool read_line(int number);
  // The order check of a record read from line_.
  void check_order(const ArchivedRecord& r);

  std::istream& in_;
  std::string path_;
  int line_ = 0;
  std::int64_t version_ = 0;
  std::uint64_t records_ = 0;
  bool ended_ = false;
  // Bytes read ahead of the lines returned: buffer_[pos_, end) unread; no '\n' before
  // scanned_. Grown by exact reserves, so it never holds more than a line's bound and a read.
  std::vector<char> buffer_;
  std::size_t pos_ = 0;
  std::size_t scanned_ = 0;
  bool input_ended_ = false;
  std::string_view text_;
  // The order check: the partitions whose records are done, and the current partition's
  // replica and (leader epoch, offset)s.
  std::optional<std::pair<std::string, std::int32_t>> partition_;
  std::string replica_;
  ArchivedRecords keys_;
  std::set<std::pair<std::string, std::int32_t>> finished_;
};

}  // namespace kepoch::forecast
