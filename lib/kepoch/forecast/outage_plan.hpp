#pragma once
// `plan`'s one library call: the brokers' states (broker_state.hpp, checked by
// check_one_cluster) joined to the controller's partition states (plan_metadata.hpp), the
// recovery plan made (recovery_plan.hpp), and what the report says beside it: each broker
// (live, gone, where its state came from) and what the inputs leave unknown.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/forecast/broker_state.hpp"
#include "kepoch/forecast/plan_metadata.hpp"
#include "kepoch/forecast/recovery_plan.hpp"

namespace kepoch::forecast {

// One broker of the plan: assigned a replica by the metadata, or given a state.
struct PlanBroker {
  std::int32_t broker = -1;
  bool live = false;
  bool gone = false;
  std::string source;  // the argument its state came from; empty: not given
};

// A follower whose truncation under the plan's chosen leader loses records (known lost, or
// removed and not known held by that leader: ReplicaForecast's lost_records and
// lost_unknown_records; records the leader holds again are not lost), and the
// `kepoch salvage` command that archives them first. The truncation happens when the
// follower's broker starts (a stopped follower) or right after the election (a live one:
// its fetcher truncates against the new leader), so the command runs on the follower's host
// before that: before its broker starts, or before the plan's election step. It reads the
// follower's replica dir (a snapshot keeps no record bytes: the dir the snapshot recorded on
// that host) against the leader's state as the plan read it (a replica dir, or
// SNAPSHOT:TOPIC-PARTITION: the file copied to that host).
struct PlanSalvage {
  std::string topic;
  std::int32_t partition = 0;
  std::int32_t leader = -1;
  std::int32_t follower = -1;
  bool follower_live = false;
  std::uint64_t lost_records = 0;          // known lost
  std::uint64_t lost_unknown_records = 0;  // removed, not known whether the leader holds them
  bool follower_dir_known = true;          // false: a snapshot that did not record its log dir
  std::string command;
};

// The salvage runs `plan` calls for, partition by partition in plan order, followers in
// broker order; none for a partition without a chosen leader whose state is given.
std::vector<PlanSalvage> plan_salvages(const RecoveryPlan& plan, const PlanInput& input,
                                       const std::set<std::int32_t>& live_brokers);

struct OutagePlan {
  // The states the plan's replicas are (input's partitions point into them): held here.
  std::vector<BrokerState> states;
  // plan_outage_streamed: the replicas of the partitions the plan lists with candidates
  // (input's partitions point into them); the states hold none.
  std::deque<PartitionReplica> kept_replicas;
  PlanInput input;
  RecoveryPlan plan;
  std::string metadata;                   // PlanMetadata::description
  std::optional<std::string> cluster_id;  // the metadata's, else the first state's that says
  std::vector<PlanBroker> brokers;        // by id
  // Brokers whose state is missing or holds nothing usable, partitions of the states the
  // metadata does not hold, the states' notes, the metadata's notes, in that order.
  std::vector<std::string> notes;
  std::vector<PlanSalvage> salvages;  // plan_salvages of plan
  // plan_outage_streamed with a sink: the partitions needing a decision beyond those
  // plan.partitions holds.
  std::uint64_t unheld_decisions = 0;
};

// Refuses (UsageError) what check_one_cluster refuses (without ids) and a state of another
// cluster than the metadata's (check_metadata_cluster).
// A broker in `gone` is never shown live, whatever the metadata says. `jobs` as PlanInput's.
// `prepare`, when set, is run on each replica before it is planned (`plan` attaches the
// remote tier there: storage/tiered_view's RemoteTierAttacher), on the calling thread.
using ReplicaPrepare = std::function<void(PartitionReplica&)>;

OutagePlan plan_outage(std::vector<BrokerState> states, PlanMetadata metadata,
                       const std::vector<std::int32_t>& gone, unsigned jobs = 0,
                       const ReplicaPrepare& prepare = {});

// The same plan from the brokers' replicas as streams in partition order (broker_state.hpp),
// merged a block of partitions at a time: each block's replicas are read (one stream per
// thread), joined to the metadata's partitions, planned (on every core) and let go, so memory
// holds one block's replicas, not the cluster's. What the report lists is kept (the
// partitions RecoveryPlanBuilder::listed names, every one with `all`, and the replicas of
// those with candidates, for the timelines), so the report is byte for byte plan_outage's.
// `input.partitions` and `plan.partitions` then hold the kept partitions, in the metadata's
// order.
//
// With `sink`, the listed partitions are handed to it a block at a time (their plans, and an
// input of their partitions whose replicas live until it returns), in the metadata's order,
// instead of kept: memory then holds one block whatever the cluster's size. `plan.partitions`
// keeps only the first kNamedDecisions partitions needing a decision (the verdict names them)
// and `unheld_decisions` counts the others; `salvages` and `input.partitions` stay empty (the
// sink has each block's: plan_salvages of it). A metadata whose partitions are not in
// partition order (a live cluster's answer) is sorted for the merge, so its blocks are not in
// its order: the listed partitions are then kept and handed over once, at the end.
//
// With `start_names`, the start steps' partition names go there, not to memory
// (RecoveryPlanBuilder::spill_partitions): for a report that writes them from it.
//
// `block_size`: the metadata's partitions planned at a time (tests make it small to cross blocks).
using ListedSink = std::function<void(RecoveryPlan& listed, PlanInput& input)>;
inline constexpr std::size_t kNamedDecisions = 3;  // as report::plan_verdict's
// What the replicas, inputs, plans and report values of a block cost bounds the memory (~1,024
// x RF replica objects), and each stream takes a turn (a read of its window) per block, so
// fewer partitions a block cost reads: at 1,000 streams a turn reads ~3 replicas. 1,024 keeps
// both small (bench/results/2026-12-05-plan-flat6.md).
inline constexpr std::size_t kPlanBlock = 1024;

OutagePlan plan_outage_streamed(std::vector<StreamedBrokerState> states, PlanMetadata metadata,
                                const std::vector<std::int32_t>& gone, bool all, unsigned jobs = 0,
                                const ReplicaPrepare& prepare = {}, const ListedSink& sink = {},
                                std::shared_ptr<SpilledLists> start_names = {},
                                std::size_t block_size = kPlanBlock);

}  // namespace kepoch::forecast
