#pragma once
// An outage recovery plan: for every partition of a cluster whose leader is gone, which
// replica should lead, what each choice loses, and whether Kafka's own choice is already the
// best. Pure: the replicas are values (read from log dirs or log dir snapshots by storage/),
// the metadata is the controller's partition state (a live cluster, the KRaft metadata log,
// or flags), and nothing here does I/O (but writing the start steps' names to the caller's
// SpilledLists when it asks: RecoveryPlanBuilder::spill_partitions).
//
// Per partition:
//   - its condition: healthy (a live leader, ISR at least min.insync.replicas), under min
//     ISR (a live leader, a smaller ISR), leaderless (no live leader and no ISR/ELR member
//     can lead: Kafka elects nobody while unclean.leader.election.enable is false), or
//     unclean (the same, with unclean election enabled: Kafka elects its first live replica
//     in assignment order, PartitionChangeBuilder.electAnyLeader);
//   - a replica whose topic id differs from the metadata's (the topic was deleted and
//     created again under its name; Kafka treats the old dir as a stray,
//     LogManager.findStrayReplicas / isStrayKraftReplica) is left out: its broker's state
//     for this partition counts as unknown;
//   - for a partition without a live leader, every replica whose state is known as a
//     candidate leader: each other known replica fetches from it and truncates as Kafka's
//     fetcher does (storage/replica_forecast, Fetch mode, against the candidate at a new
//     leader epoch, as Partition.makeLeader starts it), and what that removes and loses;
//     committed loss counts records below the highest high watermark any replica recorded;
//   - the candidates ranked: no committed loss first, then fewest lost records, then (equal
//     loss) a live broker before one that has to be waited for, then KIP-966's order
//     (highest last epoch, then longest log), then Kafka's own choice, then broker id;
//   - a recommendation: healthy; Kafka's default is already the best (a clean leader is
//     available, or Kafka's unclean choice ranks first); wait for broker N (a stopped
//     broker's replica ranks first); elect broker M uncleanly (a live replica Kafka would not
//     choose ranks first); unknown (no replica's state is known).
//
// A partition's loss for one candidate is the most any one other replica loses (records at
// the same offsets on several replicas count once), so it is exact when the replicas'
// histories differ only in how far they reach, and a lower bound when two replicas hold
// different records at the same offsets.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kepoch/base/spilled_lists.hpp"
#include "kepoch/epoch/election.hpp"
#include "kepoch/forecast/config_source.hpp"
#include "kepoch/storage/partition_replica.hpp"
#include "kepoch/storage/replica_forecast.hpp"

namespace kepoch::forecast {

struct IssuedLeaderEpoch {
  std::int32_t epoch = -1;
  std::int32_t leader = -1;
};

// One partition as the plan gets it: the controller's state and the replicas whose state is
// known, by broker id.
struct PlanPartitionInput {
  std::string topic;
  std::int32_t partition = 0;
  PartitionState state;          // replicas (assignment order), ISR, ELR, leader, leader epoch
  bool unclean_allowed = false;  // the topic's unclean.leader.election.enable
  bool elr_enabled = false;      // eligible.leader.replicas.version >= 1
  std::int32_t min_isr = 1;      // the topic's min.insync.replicas
  // Where the metadata found those two values (config_source.hpp), for the report only (the
  // plan does not read them).
  ConfigSource unclean_source = ConfigSource::unsaid;
  ConfigSource min_isr_source = ConfigSource::unsaid;
  // The topic's id in the metadata, when it says: a replica with another id is of a topic of
  // the same name deleted before this one was created (a stray to Kafka), not a candidate.
  std::optional<Uuid> topic_id;
  std::map<std::int32_t, const PartitionReplica*> replicas;
  // state.leader_epoch is the controller's (live or from the metadata log), not a default:
  // a replica holding a later epoch shows that state is older than the disks.
  bool leader_epoch_known = false;
  // From a metadata log: the leader epochs its controller issued for the partition, in order
  // (PartitionRecord's, then one per PartitionChangeRecord that changed the leader), with the
  // leader of each (kNoLeader: none). Empty: not known (a live cluster, flags).
  std::vector<IssuedLeaderEpoch> issued_epochs;
  // The metadata is the live cluster's answer now (not a metadata log that may be a stopped
  // broker's own copy).
  bool live_metadata = false;
};

struct PlanInput {
  std::set<std::int32_t> live_brokers;  // registered and unfenced
  // Brokers that will not come back (their disks are gone): their replicas' records count
  // when they are lost, but they cannot lead and are never waited for.
  std::set<std::int32_t> gone_brokers;
  std::vector<PlanPartitionInput> partitions;
  unsigned jobs = 0;  // partitions planned at once (0: every core); the plan is the same
};

enum class PartitionCondition { healthy, under_min_isr, leaderless, unclean };
enum class RecommendationKind {
  healthy,
  kafka_default_best,
  wait_for_broker,
  elect_unclean,
  unknown
};

const char* condition_name(PartitionCondition c);
const char* recommendation_name(RecommendationKind k);

struct FollowerOutcome {
  std::int32_t broker = -1;
  ReplicaForecast forecast;
};

struct CandidateOutcome {
  std::int32_t broker = -1;
  bool live = false;             // its broker is up and unfenced
  bool clean = false;            // in the ISR (or the ELR when the ISR is empty): a clean election
  bool kafka_choice = false;     // the replica Kafka's own election picks
  std::int32_t last_epoch = -1;  // the latest epoch of its cache (-1: none)
  std::int64_t log_end_offset = 0;
  std::int32_t leader_epoch = 0;           // the epoch it would lead at (at least)
  std::vector<FollowerOutcome> followers;  // every other replica with known state
  std::uint64_t removed_records = 0;       // summed over the followers
  std::uint64_t lost_records = 0;          // the most one follower loses
  std::uint64_t committed_lost_records = 0;
  bool loss_known = true;  // every follower's lost records are known
  bool committed_loss_possible = false;
  int rank = 0;  // 1 = the best
};

// A replica whose topic id is not the metadata's: its data is never used.
struct OtherTopicReplica {
  std::int32_t broker = -1;
  Uuid topic_id;  // the replica's (partition.metadata)
};

struct PartitionPlan {
  std::string topic;
  std::int32_t partition = 0;
  PartitionCondition condition = PartitionCondition::healthy;
  PartitionState state;
  bool unclean_allowed = false;
  std::int32_t min_isr = 1;
  ConfigSource unclean_source = ConfigSource::unsaid;  // as PlanPartitionInput's
  ConfigSource min_isr_source = ConfigSource::unsaid;
  std::optional<Uuid> topic_id;                         // the metadata's
  std::vector<std::int32_t> unknown_replicas;           // assigned brokers whose state is not given
                                                        // (or is another topic's: below)
  std::vector<OtherTopicReplica> other_topic_replicas;  // replicas of an older same-named topic
  std::vector<std::int32_t> stopped_replicas;           // assigned brokers not live (gone included)
  std::optional<std::int64_t> highest_high_watermark;   // of the known replicas
  // Kafka's own choice: a clean election among the live brokers, else its unclean one;
  // when no live broker holds a replica, the one it makes when every broker holding a known
  // replica is back (kafka_choice_now false).
  std::optional<std::int32_t> kafka_choice;
  bool kafka_choice_clean = false;
  bool kafka_choice_now = false;
  // Where the metadata is older than the brokers' disks (what `diff --metadata` finds: a
  // replica caching a leader epoch the metadata log never issued, or issued without a
  // leader; a leader the metadata calls live whose given state shows it shut down), one
  // sentence each. The plan then rests on a stale state: never safe.
  std::vector<std::string> metadata_findings;
  // No finding, and no replica holds a leader epoch above the metadata's.
  bool state_current = true;
  // Replicas whose state is not given that may hold committed records no known replica holds
  // (ISR members, or any when the metadata is not current): their committed end is unknown.
  std::vector<std::int32_t> unknown_holders;
  std::vector<CandidateOutcome> candidates;  // ranked, best first; empty when healthy
  RecommendationKind kind = RecommendationKind::healthy;
  std::optional<std::int32_t> chosen;  // the broker to lead (wait for, or elect)

  const CandidateOutcome* candidate(std::int32_t broker) const;
  const CandidateOutcome* kafka_candidate() const;
  const CandidateOutcome* chosen_candidate() const;
};

// A stopped broker's place in the start order.
enum class StartPhase {
  first,            // a partition waits for it: start it before running any election
  after_elections,  // a replica of a planned partition: start it once the elections are done,
                    // so Kafka's rule (first live replica in assignment order) cannot pick it
  any_time,         // nothing planned depends on it
};
const char* start_phase_name(StartPhase p);

struct StartStep {
  std::int32_t broker = -1;
  StartPhase phase = StartPhase::any_time;
  std::vector<std::string> partitions;  // topic-partition names it leads (first) or holds
  // From a builder that spills them (RecoveryPlanBuilder::spill_partitions): `partitions` is
  // empty and the names are list `spilled_list` of `spilled`.
  std::shared_ptr<SpilledLists> spilled;
  std::size_t spilled_list = 0;
  std::uint64_t partition_count() const {
    return spilled ? spilled->size(spilled_list) : partitions.size();
  }
};

struct PlanTotals {
  std::uint64_t partitions = 0;
  std::uint64_t affected = 0;  // not healthy: without a live leader, or under min ISR
  std::uint64_t leaderless = 0;
  std::uint64_t under_min_isr = 0;  // a live leader refusing acks=all writes
  std::uint64_t wait = 0;
  std::uint64_t elect_unclean = 0;
  std::uint64_t unknown = 0;
  // Records lost if Kafka's own choice leads every affected partition, and by the plan.
  std::uint64_t kafka_default_lost_records = 0;
  std::uint64_t kafka_default_committed_lost_records = 0;
  std::uint64_t plan_lost_records = 0;
  std::uint64_t plan_committed_lost_records = 0;
  // Partitions where the plan loses committed records, or cannot rule it out.
  std::uint64_t plan_committed_loss_partitions = 0;
  // A committed loss not ruled out where the counts above say none: "0 committed" would
  // call safe what is unknown.
  bool kafka_default_committed_unknown = false;
  bool plan_committed_unknown = false;
  bool complete = true;                // every count is known (no unknown loss, no unknown replica)
  std::uint64_t stale_partitions = 0;  // with metadata_findings
  // Exit 0 material: the plan loses no committed record and every state it rests on is
  // known and current.
  bool safe() const {
    return plan_committed_loss_partitions == 0 && complete && stale_partitions == 0;
  }
};

struct RecoveryPlan {
  std::vector<PartitionPlan> partitions;  // in input order
  PlanTotals totals;
  std::vector<StartStep> start_order;
};

// Frees what a plan never reads of a replica read from a snapshot (its segment list, the
// checkpoint's and the rebuilt epoch entries): a plan of a hundred brokers holds every
// replica of the cluster. A replica read from a log dir is left as it is.
void keep_what_plans_read(PartitionReplica& replica);

// The ranking: true when `a` should lead rather than `b`.
bool ranks_before(const CandidateOutcome& a, const CandidateOutcome& b);

PartitionPlan plan_partition(const PlanPartitionInput& input,
                             const std::set<std::int32_t>& live_brokers,
                             const std::set<std::int32_t>& gone_brokers);

// Every partition planned (plan_partition) on `jobs` threads (0: every core), in input order;
// the first partition's error is the one thrown.
std::vector<PartitionPlan> plan_partitions(const std::vector<PlanPartitionInput>& partitions,
                                           const std::set<std::int32_t>& live_brokers,
                                           const std::set<std::int32_t>& gone_brokers,
                                           unsigned jobs);

// Gathers partition plans, added in input order, into a RecoveryPlan: the totals, the start
// order, and the partitions it is asked to keep (plan_recovery keeps every one; a plan that
// streams its partitions keeps those its report lists, `listed`).
class RecoveryPlanBuilder {
 public:
  explicit RecoveryPlanBuilder(std::set<std::int32_t> gone_brokers);
  // The start steps' partition names kept in `lists` (an anonymous temporary file:
  // StartStep::spilled) instead of memory, where they grow with the partitions without a live
  // leader: for a report that writes them from there (report::PlanJsonStream). Before any add
  // or count.
  void spill_partitions(std::shared_ptr<SpilledLists> lists) { spill_ = std::move(lists); }
  void add(PartitionPlan plan, bool keep = true);
  // add(plan, false) without a copy: its totals and start order, the plan not kept.
  void count(const PartitionPlan& plan);
  RecoveryPlan finish();
  // What the report says of a partition beyond the totals: it is not healthy (under min ISR
  // included), or the metadata is older than its replicas, or a replica is another topic's.
  // A healthy one otherwise is listed only with --all.
  static bool listed(const PartitionPlan& plan);

 private:
  void step(std::int32_t broker, StartPhase phase, const std::string& partition);
  std::set<std::int32_t> gone_;
  std::map<std::int32_t, StartStep> steps_;
  std::shared_ptr<SpilledLists> spill_;
  RecoveryPlan plan_;
};

RecoveryPlan plan_recovery(const PlanInput& input);

}  // namespace kepoch::forecast
