#pragma once
// Runs a scenario step by step under one truncation rule. The replication rules are not
// restated here: a returning or demoted follower truncates with predict_truncation (Fetch
// divergence for the epoch rule, the high-watermark rule for hw), a new leader takes its
// epoch with become_leader, and every leader change is the controller's (fence_broker,
// unfence_broker, change_partition). What the engine adds is the data path: the leader's
// appends, follower fetches with Kafka's high-watermark propagation, ISR changes and
// producer acknowledgements.
//
// High watermark (Partition.fetchRecords / updateFollowerFetchState): a fetch at offset F
// returns the leader's records from F and the high watermark the leader had *before* this
// fetch; the leader then records F as the follower's log end offset, adds the follower to
// the ISR when F reaches its high watermark, and raises its high watermark to the smallest
// log end offset in the ISR. So a follower learns that a record is committed one fetch
// after the leader does: the lag the seed scenarios turn on.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/epoch/election.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/sim/scenario.hpp"

namespace kepoch::sim {

// A record is identified by its epoch and value: within one leader epoch one leader writes
// each offset once. Records of an initial state given as epochs have no value.
struct SimRecord {
  std::int32_t epoch = 0;
  std::string value;
  bool named = true;
  friend bool operator==(const SimRecord&, const SimRecord&) = default;
};

struct SimReplica {
  std::string name;
  std::int32_t broker = 0;
  std::vector<SimRecord> records;  // records[o] is at offset o
  ReplicaLog log;                  // epoch cache, log end offset (= records.size()), HW
  bool alive = true;
  // The leader epoch it has reconciled its log with (truncated against) as a follower.
  std::optional<std::int32_t> follows_epoch;
};

enum class AckState { pending, acknowledged, failed, not_requested };

struct Produced {
  std::string value;
  std::int64_t offset = 0;
  std::int32_t epoch = 0;
  Acks acks = Acks::all;
  AckState state = AckState::pending;
  std::size_t step = 0;
};

struct Truncation {
  std::string replica;
  std::size_t step = 0;
  std::int64_t from = 0;  // log end offset before
  std::int64_t to = 0;
  std::string reason;
};

// The state after one step (index 0: the initial state).
struct StepResult {
  std::size_t index = 0;
  std::string action;
  int line = 0;
  std::vector<std::string> notes;  // what happened, in sentences
  PartitionState partition;
  std::vector<SimReplica> replicas;
};

struct Verdict {
  std::vector<Produced> acknowledged;
  std::vector<Produced> lost_acknowledged;  // not in the final leader's log (verdict.hpp)
  // No final leader, and only some of the replicas that may lead next hold it: kept or lost
  // by which of them returns first (verdict.hpp).
  std::vector<Produced> maybe_lost_acknowledged;
  std::vector<std::int64_t> divergent_offsets;  // alive replicas hold different records
  bool consistent = true;
  std::vector<Truncation> truncations;
};

struct SimulationRun {
  Rule rule = Rule::epoch;
  std::vector<StepResult> steps;
  std::vector<Produced> produced;
  Verdict verdict;
};

// Runs the scenario from its initial state. Throws std::invalid_argument only for a step
// naming a replica the scenario does not list (parse_scenario rejects those).
SimulationRun simulate(const Scenario& scenario, Rule rule);

// The records of an initial replica given as an epoch cache and a log end offset.
std::vector<SimRecord> records_of_epochs(const LeaderEpochCache& cache,
                                         std::int64_t log_end_offset);

}  // namespace kepoch::sim
