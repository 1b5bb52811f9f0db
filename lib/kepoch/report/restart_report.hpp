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
//                below the high watermark), "lost_aborted_records", "lost_control_records"
//                (lost records of aborted transactions and lost markers, not in
//                lost_records), "fails" (followers whose first fetch after the truncation
//                throws UnexpectedAppendOffsetException: marked failed, out of the ISR),
//                "leads", "leaderless", "stray", "unanswered",
//                "at_risk": ["<topic>-<partition>", ...] (the two loss kinds before, and
//                the failing followers or those whose failure cannot be ruled out)},
//    "partitions": [{"topic", "partition", "outcome" (stray, follows, fails, leads,
//                    leaderless, unanswered), "leader", "leader_epoch", "isr", "elr",
//                    "log_end_offset", "high_watermark", "truncate_to", "removed_records",
//                    "lost_records", "committed_lost_records", "committed_loss",
//                    "lost_unknown_records", "lost_aborted_records", "lost_control_records",
//                    "divergent_records" (fails: kept records the leader does not hold),
//                    "reason" (fails: with the operator's action)}],
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
// removed records below the high watermark), a replica holding records whose leader
// could not be asked, or a follower that fails (or may fail) on its first fetch.
bool committed_loss_possible(const forecast::RestartForecast& forecast);

}  // namespace kepoch::report
