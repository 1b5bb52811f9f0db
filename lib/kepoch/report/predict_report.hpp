#pragma once
// The report shape of `predict`:
//   {"topic", "partition", "mode",
//    "leader": {"dir", "log_end_offset", "high_watermark", "log_start_offset", "epochs"},
//    "replicas": [{"dir", "log_end_offset", "high_watermark", "epochs", "truncate_to",
//      "fetch_from", "removed_records", "removed_bytes", "removed_range", "lost_records",
//      "committed_lost_records", "committed_loss", "first_lost_offset", "log_end_offset_after",
//      "epochs_after", "note", "unanswered", "rounds": [{"request_epoch", "leader_epoch",
//      "leader_end_offset", "follower_epoch", "follower_end_offset", "branch", "truncate_to",
//      "completed"}], "modes"?: {"fetch": {...}, "ofle": {...}, "hw": {...}}}],
//    "assumptions": [...]}
// From snapshots, removed_records/removed_bytes and lost_records/committed_lost_records/
// committed_loss are null when the snapshot did not keep the batches they need; "unanswered"
// says which (it is empty for replica dirs).

#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/storage/replica_forecast.hpp"

namespace kepoch::report {

struct ReplicaForecasts {
  const PartitionReplica* replica;
  std::vector<ReplicaForecast> forecasts;  // one per mode asked for; the first is the main one
};

Value predict_value(const PartitionReplica& leader, const std::vector<ReplicaForecasts>& replicas,
                    std::string_view mode);

// The parts, for reports of the same shape whose leader is not a replica on disk
// (`cluster predict`): one entry of "replicas", the assumptions a replica's loading makes,
// and the section around them.
Value replica_forecast_value(const ReplicaForecasts& rf);
void add_replica_assumptions(Value& assumptions, const PartitionReplica& replica);
Value predict_section(const std::string& topic, std::int32_t partition, std::string_view mode,
                      Value leader, Value replicas, Value assumptions);
std::string_view mode_name(TruncationMode mode);

}  // namespace kepoch::report
