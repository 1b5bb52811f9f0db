#pragma once
// The report shape of `checkpoint dump` and `checkpoint validate`.
//
//   {"summary", "file", "kind", "role"?, "tmp", "version", "count", "entries" | "topic_id" | ...,
//    validate: "valid", "kafka_outcome", "kafka_action", "loaded_entries"?,
//    "problems": [{"severity", "line", "message", "kafka_exception"?, "kafka_message"?}]}

#include "kepoch/format/checkpoint_check.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

// The verdict on one file, its report's opening sentence ("summary"): intact, readable with
// warnings, or not usable as written (its first error, where), then what Kafka does with it.
std::string checkpoint_summary(const CheckpointReport& r, CheckDepth depth);

Value checkpoint_value(const CheckpointReport& r, CheckDepth depth);

// The same report written to a stream, its entries (and loaded entries) element by element
// rather than built as Values: a 64 MiB checkpoint holds up to 16 M entries, ~0.3 KiB each
// as a Value. A file without entries (partition.metadata) is written whole.
void write_checkpoint(ReportStream& stream, const CheckpointReport& r, CheckDepth depth);

}  // namespace kepoch::report
