#pragma once
// The report shape of `segment dump` for the other files of a segment (one item per file,
// its entries streamed), beside the .log shape of segment_report.hpp:
//   {"summary" (index_summary), "file", "kind": "index|timeindex|txnindex|snapshot",
//    "base_offset", "size",
//    snapshot only: "version", "crc", "crc_valid",
//    "entries": [
//      index:     {"offset", "position"}                       (absolute offset)
//      timeindex: {"timestamp", "offset"}
//      txnindex:  {"version", "producer_id", "first_offset", "last_offset",
//                  "last_stable_offset"}
//      snapshot:  {"producer_id", "producer_epoch", "last_sequence", "last_offset",
//                  "offset_delta", "timestamp", "coordinator_epoch",
//                  "current_txn_first_offset"}],
//    "entry_count",           whole entries as Kafka counts them (snapshot: the declared count)
//    "valid_entries",         index/timeindex: entries before the first that breaks the
//                             append rules or starts the zero padding (else null)
//    "zero_padding",          index/timeindex: how many all-zero preallocated entries end
//                             the file (an untrimmed index); not listed in "entries"
//                             (else null)
//    "trailing_bytes",        bytes after the last whole entry (snapshot: after the declared
//                             entries)
//    "sanity_check",          null, or the message of what Kafka's check throws:
//                             OffsetIndex/TimeIndex/TransactionIndex.sanityCheck,
//                             ProducerStateManager.readSnapshot
//    "problems": [{"severity", "position" (byte in this file), "message",
//                  "kafka_exception"?, "kafka_message"?}]}

#include <functional>
#include <string>
#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/index_files.hpp"

namespace kepoch::report {

// The leading fields, "summary" first: index_summary.
Value index_fields(const std::string& file, const IndexFileDump& dump);
// The verdict sentence of one index or snapshot file: damaged or not (an error among the
// trailer's problems, the exit code's predicate), what it holds (entries and the offsets
// they span; a snapshot's producers, open transactions and offset) and what Kafka does
// with it.
std::string index_summary(const std::string& file, const IndexFileDump& dump);
// Calls `emit` with each listed entry, in file order.
void for_each_index_entry(const IndexFileDump& dump, const std::function<void(Value)>& emit);
// `file` stands in for the path Kafka prints in its messages.
Value index_trailer(const std::string& file, const IndexFileDump& dump);
// The columns a person sees in table form.
std::vector<std::string> index_table_columns(SegmentFileKind kind);
// Whether a trailer's problems hold an error (exit status 1).
bool has_error_problem(const Value& trailer);

}  // namespace kepoch::report
