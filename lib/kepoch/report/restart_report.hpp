#pragma once
// The report shape of `cluster predict`:
//   {"broker", "log_dir", "clean_shutdown", "alive_brokers",
//    "summary": {"partitions", "follows", "truncates", "removed_records", "lost_records",
//                "committed_lost_records" (what is known, also of partitions with some
//                removed records unknown), "lost_unknown_records" (removed records whose
//                batches at the leader could not be read: past its high watermark),
//                "lost_unknown_partitions" (truncating partitions with unknown records),
//                "committed_loss_partitions" (committed records known lost),
//                "committed_loss_unknown_partitions" (none known lost, but unknown ones
//                below the high watermark), "leads", "leaderless", "stray", "unanswered",
//                "at_risk": ["<topic>-<partition>", ...] (the two kinds before)},
//    "partitions": [{"topic", "partition", "outcome", "leader", "leader_epoch", "isr", "elr",
//                    "log_end_offset", "high_watermark", "truncate_to", "removed_records",
//                    "lost_records", "committed_lost_records", "committed_loss",
//                    "lost_unknown_records", "reason"}],
//    "forecasts"?: [<one `predict` section per replica that follows a leader; its "leader"
//                   is {"broker", "leader_epoch", "log_end_offset", "high_watermark",
//                   "log_start_offset", "answers": [{"epoch_asked", "epoch", "end_offset"}]}>],
//    "assumptions": [...], "problems": [{"severity", "message"}]}
// Row fields that do not apply (a stray replica has no truncation) are null; the counts
// use the names and meaning of `predict`'s (committed_loss null: cannot be ruled out).

#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value restart_value(const forecast::RestartForecast& forecast, bool details);

// Whether any replica would certainly lose records below its high watermark.
bool committed_loss(const forecast::RestartForecast& forecast);
// Whether that cannot be ruled out (exit 1): a committed loss known or possible (unknown
// removed records below the high watermark), or a replica holding records whose leader
// could not be asked.
bool committed_loss_possible(const forecast::RestartForecast& forecast);

}  // namespace kepoch::report
