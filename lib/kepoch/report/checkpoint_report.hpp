#pragma once
// The report shape of `checkpoint dump` and `checkpoint validate`.
//
//   {"file", "kind", "role"?, "tmp", "version", "count", "entries" | "topic_id" | ...,
//    validate: "valid", "kafka_outcome", "kafka_action", "loaded_entries"?,
//    "problems": [{"severity", "line", "message", "kafka_exception"?, "kafka_message"?}]}

#include "kepoch/format/checkpoint_check.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value checkpoint_value(const CheckpointReport& r, CheckDepth depth);

}  // namespace kepoch::report
