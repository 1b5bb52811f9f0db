#pragma once
// `plan`'s one library call: the brokers' states (broker_state.hpp, checked by
// check_one_cluster) joined to the controller's partition states (plan_metadata.hpp), the
// recovery plan made (recovery_plan.hpp), and what the report says beside it: each broker
// (live, gone, where its state came from) and what the inputs leave unknown.

#include <cstdint>
#include <deque>
#include <optional>
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
};

// Refuses (UsageError) what check_one_cluster refuses (without ids) and a state of another
// cluster than the metadata's (check_metadata_cluster).
// A broker in `gone` is never shown live, whatever the metadata says. `jobs` as PlanInput's.
OutagePlan plan_outage(std::vector<BrokerState> states, PlanMetadata metadata,
                       const std::vector<std::int32_t>& gone, unsigned jobs = 0);

// The same plan from the brokers' replicas as streams in partition order (broker_state.hpp),
// merged a block of partitions at a time: each block's replicas are read (one stream per
// thread), joined to the metadata's partitions, planned (on every core) and let go, so memory
// holds one block's replicas, not the cluster's. What the report lists is kept (the
// partitions RecoveryPlanBuilder::listed names, every one with `all`, and the replicas of
// those with candidates, for the timelines), so the report is byte for byte plan_outage's.
// `input.partitions` and `plan.partitions` then hold the kept partitions, in the metadata's
// order.
OutagePlan plan_outage_streamed(std::vector<StreamedBrokerState> states, PlanMetadata metadata,
                                const std::vector<std::int32_t>& gone, bool all, unsigned jobs = 0);

}  // namespace kepoch::forecast
