#pragma once
// Kafka's times in a report, for people: one field-name rule for every command. A member
// named "timestamp" or ending in "_timestamp" whose value is an integer holds epoch
// milliseconds (a batch's base_timestamp and max_timestamp, a record's, an index entry's, a
// metadata record's, a snapshot's last_contained_log_timestamp). The renderers show it
//   table  as ISO 8601 (base/time_text.hpp: UTC, or the local zone with its offset), and
//          Kafka's NO_TIMESTAMP (-1) as "none";
//   yaml   likewise, NO_TIMESTAMP as null;
//   json, jsonl  unchanged, with a member "<name>_iso" right after it: the ISO text, or null
//          for NO_TIMESTAMP.
// Commands keep writing integers; RenderOptions::iso_times turns the rule on (the log dir
// snapshot, a kepoch file kind, is written without it).

#include <memory>
#include <string_view>

#include "kepoch/report/render.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

// The rule: "timestamp" or "*_timestamp".
bool is_time_field(std::string_view key);

// Whether `v` holds a time member anywhere (so render() copies only reports that have one).
bool has_time_fields(const Value& v);

// `v` with every time member shown as `format` shows it (above).
Value with_iso_times(const Value& v, Format format, bool local);

// A stream that passes every piece to `inner` with its times shown as `format` shows them.
std::unique_ptr<ReportStream> with_iso_times(std::unique_ptr<ReportStream> inner, Format format,
                                             bool local);

}  // namespace kepoch::report
