#pragma once
// The report shape of `kepoch plan`:
//   {"summary": "<the decision first, then the totals>",
//    "metadata": "<where the partition states come from>", "cluster_id": str|null,
//    "totals": {"partitions", "affected", "leaderless", "under_min_isr", "wait",
//               "elect_unclean", "unknown",
//               "kafka_default_lost_records", "kafka_default_committed_lost_records",
//               "plan_lost_records", "plan_committed_lost_records",
//               "plan_committed_loss_partitions", "complete"},
//    "brokers": [{"broker", "live", "gone", "state": "given"|"missing", "source"}],
//    "partitions": [{"topic", "partition", "condition", "leader", "isr", "replicas",
//                    "recommendation", "chosen",
//                    "lost_records", "committed_lost_records", "kafka_choice",
//                    "kafka_lost_records", "kafka_committed_lost_records", "reason",
//                    "min_insync_replicas", "min_insync_replicas_source",
//                    "unclean_leader_election", "unclean_leader_election_source"}],
//                   (sources: "topic", "node", "cluster_default", "static", "kafka_default",
//                    "flags", "unknown": forecast::config_source_name; null when not said)
//    "candidates": [{"topic", "partition", "rank", "broker", "live", "clean", "kafka_choice",
//                    "last_epoch", "log_end_offset", "leader_epoch", "removed_records",
//                    "lost_records", "committed_lost_records", "loss_known",
//                    "truncations"}],   (truncations: "<broker>@<offset>" per follower)
//    "start_order": [{"broker", "phase", "partitions"}],
//    "salvage": [{"topic", "partition", "follower", "follower_live", "leader", "lost_records",
//                 "lost_unknown_records"}],   (forecast::plan_salvages: a follower's
//                 truncation loses records)
//    "salvage_commands": [str],   (the `kepoch salvage` run that keeps them, one per entry of
//                 salvage in order: on the follower's host, before its broker starts or the
//                 election runs)
//    "notes": [str], "problems": [{"severity", "message"}],   (problems: replicas of another
//                                   topic id than the metadata's, left out)
//    "timelines": [see plan_timelines_value]}
// Healthy partitions (a live leader, an ISR of at least min.insync.replicas) are counted in
// totals and listed only with `all`; those under min ISR (nothing to elect, but acks=all
// writes refused) are affected and listed; counts that cannot be known are null.

#include <string>
#include <vector>

#include "kepoch/forecast/outage_plan.hpp"
#include "kepoch/forecast/recovery_plan.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

using PlanBroker = forecast::PlanBroker;

struct PlanContext {
  std::string metadata;  // "live cluster host:port", "metadata log DIR", "flags"
  std::optional<std::string> cluster_id;
  std::vector<PlanBroker> brokers;
  std::vector<std::string> notes;
  bool all = false;  // list healthy partitions too
  std::vector<forecast::PlanSalvage> salvages;
  // Partitions needing a decision that plan.partitions does not hold (a streamed plan holds
  // the first forecast::kNamedDecisions: OutagePlan::unheld_decisions), counted in the verdict.
  std::uint64_t unheld_decisions = 0;
};

// The verdict ("summary"): the decision per partition without a live leader (at most three
// named) and the start order, then the totals.
// `unheld_decisions` as PlanContext's.
std::string plan_verdict(const forecast::RecoveryPlan& plan, std::uint64_t unheld_decisions = 0);
// Why a partition's recommendation is what it is, in a sentence (with the replicas left out
// for another topic id, which partition_reason adds).
std::string partition_reason(const forecast::PartitionPlan& p);
std::string recommendation_reason(const forecast::PartitionPlan& p);

Value recovery_plan_value(const forecast::RecoveryPlan& plan, const PlanContext& context);

// The plan's "timelines": per partition with candidates (no live leader),
//   {"topic", "partition", "leader" (the broker the plan has lead: its choice, else its best
//    candidate), "timeline" (timeline.hpp: the known replicas against that leader's, each
//    cut where it truncates when that leader leads)}.
// `input` is the plan's own (its partitions in the plan's order).
Value plan_timelines_value(const forecast::RecoveryPlan& plan, const forecast::PlanInput& input);

// The files that carry the plan out with Kafka's own tools (file name, contents): kepoch
// writes them, never runs them.
struct CommandFile {
  std::string name;
  std::string contents;
};
// steps.sh names each salvage run (as comments and an echo: it runs on other hosts) before
// the first step.
std::vector<CommandFile> recovery_command_files(
    const forecast::RecoveryPlan& plan, const std::vector<forecast::PlanSalvage>& salvages = {});

}  // namespace kepoch::report
