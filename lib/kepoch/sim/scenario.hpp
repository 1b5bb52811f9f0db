#pragma once
// A replication scenario for `kepoch simulate`: replicas of one partition, their initial
// state, the steps to run (appends with acks, follower fetches, crashes, restarts, ISR
// shrinks, elections) and, optionally, the verdict expected under each truncation rule.
// The values only; scenario_parser reads them from YAML and the engine runs them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/epoch/election.hpp"
#include "kepoch/epoch/epoch_entry.hpp"

namespace kepoch::sim {

// How a returning follower decides where to truncate.
//   epoch  Fetch with LastFetchedEpoch / DivergingEpoch (what every KRaft broker does)
//   hw     the pre-0.11 rule: truncate to the replica's own high watermark
enum class Rule { epoch, hw };

// The producer's acks: 0 never acknowledged, 1 on the leader's append, all once the high
// watermark passes the record (with at least min.insync.replicas in the ISR).
enum class Acks { none, leader, all };

struct InitialRecord {
  std::int32_t epoch = 0;
  std::string value;
};

struct ReplicaSpec {
  std::string name;
  int line = 0;
  std::vector<InitialRecord> log;  // named records from offset 0
  // Or the log as an epoch cache and a log end offset: unnamed records, each of the epoch
  // the cache gives for its offset.
  std::vector<EpochEntry> epochs;
  std::int64_t log_end_offset = 0;
  std::int64_t high_watermark = 0;
  bool alive = true;
};

enum class StepKind { produce, fetch, crash, restart, shrink_isr, elect };

struct Step {
  StepKind kind = StepKind::fetch;
  int line = 0;
  std::string replica;              // fetch, crash, restart, shrink_isr
  std::vector<std::string> values;  // produce
  Acks acks = Acks::all;            // produce
  bool fence = true;  // crash: the controller fences the broker (false: back before it notices)
  ElectionType election = ElectionType::unclean;  // elect
};

// What a scenario expects of one rule's verdict; unset fields are not checked.
struct Expectation {
  std::optional<std::vector<std::string>> lost_acknowledged;  // record values
  std::optional<std::vector<std::int64_t>> divergent_offsets;
  std::optional<bool> consistent;
  // Per replica, the offsets it truncated to, in order.
  std::optional<std::vector<std::pair<std::string, std::vector<std::int64_t>>>> truncations;
};

struct Scenario {
  std::string description;
  std::vector<ReplicaSpec> replicas;  // assignment order: the first is the preferred leader
  std::string leader;                 // initial leader (default: the first replica)
  std::int32_t leader_epoch = 0;
  std::vector<std::string> isr;  // initial ISR (default: every replica)
  std::int32_t min_insync_replicas = 1;
  bool unclean_leader_election = false;
  bool eligible_leader_replicas = false;
  std::vector<Step> steps;
  std::optional<Expectation> expect_epoch;
  std::optional<Expectation> expect_hw;
};

std::string_view rule_name(Rule rule);
std::string_view acks_name(Acks acks);
// One line for people: "produce m1,m2 (acks=all)", "crash A", ...
std::string describe(const Step& step);

}  // namespace kepoch::sim
