#pragma once
// The report shape of `segment dump` for a .log (one item per file, its batches streamed;
// index files and snapshots: index_report.hpp):
//   {"file", "kind": "log", "base_offset", "batches": [{"position", "size", "base_offset",
//    "last_offset", "count", "partition_leader_epoch", "magic", "crc", "crc_valid",
//    "compression", "timestamp_type", "is_control", "is_transactional", "producer_id",
//    "producer_epoch", "base_sequence", "base_timestamp", "max_timestamp",
//    "records"?: [{"offset", "timestamp", "sequence", "size", "key_size", "value_size",
//    "headers", legacy v0/v1: "magic", "timestamp_type", "crc", "crc_valid",
//    control batches: "control": {"type", "type_id", "key_version", "version"?, the type's
//    fields (coordinator_epoch | leader_id, voters, granting_voters |
//    last_contained_log_timestamp | kraft_version | voters: [{"voter_id",
//    "voter_directory_id", "endpoints": [{"name", "host", "port"}], "kraft_version_feature":
//    {"min_supported_version", "max_supported_version"}}]), "notes"?, "error"?},
//    "remote_log_metadata"? (with RecordDecoding: remote_log_metadata_report.hpp),
//    "key"?, "value"?}], "records_error"?, "records_notes"?}], "batch_count",
//    "trailing_bytes", "end", "problems"}

#include <string>
#include <vector>

#include "kepoch/report/object_writer.hpp"
#include "kepoch/report/value.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch::report {

class ReportStream;

enum class DataFormat { none, text, hex, base64 };

// Which record values are decoded as well (`segment dump` of a __remote_log_metadata
// partition, or --remote-log-metadata-decoder), and the records that did not decode: a
// problem each (the first kMaxProblems), {"severity": "error", "position" (of the value in
// the file; of the batch for compressed data), "message": "record at offset N: ..."}.
struct RecordDecoding {
  static constexpr std::size_t kMaxProblems = 100;
  bool remote_log_metadata = false;
  std::vector<Value> problems;
  std::uint64_t errors = 0;
};

Value segment_fields(const std::string& file, std::optional<std::int64_t> base_offset);
// One batch, written member by member (for a stream's write_element), or as a Value.
// A batch whose records are unwalked (SegmentDumpOptions::walk_records) is walked here.
void write_batch(ObjectWriter& w, DumpedBatch& batch, bool with_records, DataFormat data,
                 RecordDecoding* decoding = nullptr);
Value batch_value(DumpedBatch& batch, bool with_records, DataFormat data);
// The next element of `stream`: write_batch's, as a table's flat row when the stream is a
// table and the batch's records are not written (ReportStream::table_row), with the same
// text.
void stream_batch(ReportStream& stream, DumpedBatch& batch, bool with_records, DataFormat data,
                  RecordDecoding* decoding = nullptr);
Value segment_trailer(const SegmentDumpSummary& summary, const std::vector<DumpedBatch>& bad);
// A control record: {"type", "type_id", "key_version", its fields, "notes"?, "error"?}.
Value control_value(const DumpedControl& control);
// A coordinator log's record decoded: type, type_id, key, value_version and value (both null
// for a tombstone), notes; or error. A deferred record (DumpedCoordinator::deferred) is
// checked first.
Value coordinator_value(const DumpedCoordinator& coordinator);
// w.value(key, coordinator_value(coordinator)), written by `w` from the record's bytes as it
// reads them when its writer can (ObjectWriter::lazy). A deferred record's fields are
// checked as they are written where the writer can take back what it wrote (JSON, a table's
// line): read once; where it cannot, or when they do not write, by
// check_deferred_coordinator, its error counted in `batch` (when given).
void write_coordinator_member(ObjectWriter& w, std::string_view key,
                              const DumpedCoordinator& coordinator, DumpedBatch* batch = nullptr);
// The columns a person sees in table form.
std::vector<std::string> batch_table_columns();

}  // namespace kepoch::report
