#pragma once
// The report shape of `kepoch cluster what-if --stop`:
//   {"stop": [broker ids, in order], "shutdown": "controlled|kill",
//    "assumed": {"alive_brokers", "alive_after", "eligible_leader_replicas": bool,
//                "eligible_leader_replicas_basis": a sentence, "reassignment_in_progress":
//                false, "log_dirs_online": true, "controller": the Kafka methods that react,
//                "notes": [sentences]},
//    "topics": [{"topic", "replication_factor", "min_insync_replicas" (null: not read; 1
//                assumed for the ELR only), "effective_min_isr", "unclean_leader_election_enable"
//                (null: not read, false assumed)}],
//    "partitions": [{"topic", "partition", "replicas", "leader_before", "leader_after" (null:
//                    none), "leader_changed", "leader_epoch_before", "leader_epoch_after",
//                    "isr_before", "isr_after", "elr_before", "elr_after",
//                    "last_known_elr_after" (the ELR fields null when the cluster keeps no
//                    ELR), "effective_min_isr", "under_min_isr" (null: min.insync.replicas
//                    not read and the ISR after below the replicas), "unavailable",
//                    "unclean_election", "needs_unclean_election", "leaves_elr_on_return",
//                    "outcome"}],
//    "summary": {"topics", "partitions", "leaders_moved", "isr_changes", "under_min_isr",
//                "under_min_isr_unknown", "unavailable", "unclean_election",
//                "needs_unclean_election"},
//    "problems": [{"severity": "warning", "message"}] (what could not be read)}
// outcome, the worst that applies: offline (no leader, no replica alive),
// offline_unless_unclean (no leader; only an unclean election could give one),
// unclean_election, under_min_isr, maybe_under_min_isr (not ruled out: min.insync.replicas
// not read), leader_moves, isr_shrinks, unchanged.

#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

std::string_view stop_outcome(const live::PartitionForecast& p);

Value what_if_value(const live::ClusterView& view, const live::StopForecast& forecast);

}  // namespace kepoch::report
