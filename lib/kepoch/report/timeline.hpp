#pragma once
// The replicas of one partition on one offset axis: the structured form scripts draw from,
// and the text picture the table shows (drawn from that structured form only, so the
// picture and the JSON cannot disagree).
//
// Structured (`diff`'s "timeline"):
//   {"from", "to" (the offsets any replica holds: [from, to)), "fork" (the first offset
//    where a replica's history leaves the reference's, or null), "reference" (its dir),
//    "replicas": [{"dir", "relation", "log_start_offset", "log_end_offset", "hw",
//      "recovery_point", "truncate_to", "spans": [{"epoch", "start", "end"}]}]}
// `predict` and `plan` timelines add to each replica "removed": the offsets its truncation
// removes, {"start", "end", "records", "lost_records", "committed_loss"} (predict_report.hpp's
// removed_span_value), null for the leader and a replica that loses nothing.
// A span is the offsets [start, end) the replica holds at one leader epoch, as its epoch
// cache says (epoch null: offsets below the cache's first entry). "relation" is the
// replica's against the reference: reference, identical, lagging (a strict prefix of it:
// it has not fetched the rest yet, no divergence), ahead (the reference is a strict prefix
// of it), diverged (their histories fork), unknown (a snapshot cannot tell). "truncate_to"
// is where the replica truncates if the reference leads (Fetch divergence, as `predict`),
// null for the reference; "hw" and "recovery_point" come from the log dir's checkpoints.
//
// Picture: one bar per replica, one glyph per column for the epoch the column's first
// offset has (a legend maps glyphs to epochs, so epochs of any size stay distinct), blank
// where the replica holds nothing; under it the high watermark (h), recovery point (r) and
// truncation point (t); a caret at the fork. When the log is longer than the bar and there
// is a fork, the axis starts a little before the fork (a "~" marks the offsets cut off).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/replica_diff.hpp"

namespace kepoch::report {

// `truncate_to` (one per replica, when given): where each replica truncates, as the caller
// forecast it (`predict`'s mode); by default the Fetch divergence rule against the reference.
// `removed` (one per replica, when given): each replica's "removed" value.
Value timeline_value(const std::vector<PartitionReplica>& replicas, std::size_t reference,
                     const std::vector<ReplicaComparison>& comparisons,
                     const std::vector<std::optional<std::int64_t>>* truncate_to = nullptr,
                     const std::vector<Value>* removed = nullptr);
// The same over replicas held elsewhere (no copy of them).
Value timeline_value(const std::vector<const PartitionReplica*>& replicas, std::size_t reference,
                     const std::vector<ReplicaComparison>& comparisons,
                     const std::vector<std::optional<std::int64_t>>* truncate_to = nullptr,
                     const std::vector<Value>* removed = nullptr);

// The first offset an axis of `room` units draws: the timeline's "from", or, when the
// offsets do not fit and there is a fork, a little before the fork (the offsets below it
// are cut off: the table marks them "~", the HTML picture squeezes them behind a break).
std::int64_t timeline_axis_from(const Value& timeline, std::int64_t room);

// Whether `v` is a structured timeline (so the table draws it).
bool is_timeline(const Value& v);

// The picture of a structured timeline, each line at most `width` columns when it can be
// (a replica's name is shortened to fit).
std::vector<std::string> timeline_drawing(const Value& timeline, std::size_t width);

// Each replica's short name for a drawing: its dir's last two components (summary.hpp's
// replica_name), with as many more leading components as it takes to tell two apart (two
// brokers' "/b1/data/p-0" and "/b2/data/p-0" are "b1/data/p-0" and "b2/data/p-0").
std::vector<std::string> distinct_replica_names(const std::vector<std::string>& dirs);

}  // namespace kepoch::report
