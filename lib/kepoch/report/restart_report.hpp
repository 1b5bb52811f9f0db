#pragma once
// The report shape of `cluster predict`:
//   {"broker", "log_dir", "clean_shutdown", "alive_brokers",
//    "summary": {"partitions", "follows", "truncates", "removed_records", "lost_records",
//                "committed_lost_records", "lost_unknown_partitions" (truncating partitions
//                whose lost counts are unknown, left out of the two before),
//                "committed_loss_partitions", "leads", "leaderless",
//                "stray", "unanswered", "at_risk": ["<topic>-<partition>", ...]},
//    "partitions": [{"topic", "partition", "outcome", "leader", "leader_epoch", "isr", "elr",
//                    "log_end_offset", "high_watermark", "truncate_to", "removed_records",
//                    "lost_records", "committed_lost_records", "committed_loss", "reason"}],
//    "forecasts"?: [<one `predict` section per replica that follows a leader; its "leader"
//                   is {"broker", "leader_epoch", "log_end_offset", "high_watermark",
//                   "log_start_offset", "answers": [{"epoch_asked", "epoch", "end_offset"}]}>],
//    "assumptions": [...], "problems": [{"severity", "message"}]}
// Row fields that do not apply (a stray replica has no truncation) are null; the counts
// use the names and meaning of `predict`'s.

#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

Value restart_value(const forecast::RestartForecast& forecast, bool details);

// Whether any replica would lose records below its high watermark (exit 1).
bool committed_loss(const forecast::RestartForecast& forecast);

}  // namespace kepoch::report
