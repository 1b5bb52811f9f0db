#include "kepoch/forecast/outage_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "kepoch/base/text.hpp"
#include "kepoch/forecast/one_cluster.hpp"

namespace kepoch::forecast {

std::vector<PlanSalvage> plan_salvages(const RecoveryPlan& plan, const PlanInput& input,
                                       const std::set<std::int32_t>& live_brokers) {
  std::vector<PlanSalvage> out;
  for (std::size_t i = 0; i < plan.partitions.size() && i < input.partitions.size(); ++i) {
    const PartitionPlan& p = plan.partitions[i];
    const PlanPartitionInput& in = input.partitions[i];
    const CandidateOutcome* chosen = p.chosen_candidate();
    if (!chosen) continue;
    const auto leader = in.replicas.find(chosen->broker);
    if (leader == in.replicas.end() || !leader->second) continue;
    for (const FollowerOutcome& f : chosen->followers) {
      const ReplicaForecast& rf = f.forecast;
      if (rf.lost_records == 0 && rf.lost_unknown_records == 0) continue;
      if (input.gone_brokers.count(f.broker)) continue;  // its disk is lost: nothing to read
      const auto follower = in.replicas.find(f.broker);
      if (follower == in.replicas.end() || !follower->second) continue;
      const PartitionReplica& r = *follower->second;
      PlanSalvage s;
      s.topic = p.topic;
      s.partition = p.partition;
      s.leader = chosen->broker;
      s.follower = f.broker;
      s.follower_live = live_brokers.count(f.broker) > 0;
      s.lost_records = rf.lost_records;
      s.lost_unknown_records = rf.lost_unknown_records;
      std::string dir = r.dir.string();
      if (r.stored) {
        s.follower_dir_known = !r.recorded_dir.empty();
        dir = s.follower_dir_known
                  ? r.recorded_dir
                  : fmt::format("BROKER-{}-LOG-DIR/{}-{}", f.broker, p.topic, p.partition);
      }
      s.command = fmt::format(
          "kepoch salvage --archive {} --leader {} {}",
          shell_word(fmt::format("{}-{}.broker-{}.salvage.jsonl", p.topic, p.partition, f.broker)),
          shell_word(leader->second->dir.string()), shell_word(dir));
      out.push_back(std::move(s));
    }
  }
  return out;
}

OutagePlan plan_outage(std::vector<BrokerState> states, PlanMetadata metadata,
                       const std::vector<std::int32_t>& gone, unsigned jobs) {
  check_one_cluster(states, {});  // every broker known (a caller's check_one_cluster set them)
  check_metadata_cluster(states, metadata.cluster_id);
  OutagePlan out;
  out.states = std::move(states);
  // Each partition's replicas with known state, by broker.
  std::map<std::pair<std::string, std::int32_t>, std::map<std::int32_t, const PartitionReplica*>>
      known;
  std::map<std::int32_t, std::string> source_of;
  for (const auto& s : out.states) {
    source_of[*s.broker] = s.argument;
    for (const auto& r : s.replicas)
      known[{r.topic, r.partition}][*s.broker] = &r;
  }
  PlanInput& input = out.input;
  input.live_brokers = metadata.live;
  input.gone_brokers = {gone.begin(), gone.end()};
  input.jobs = jobs;
  std::set<std::int32_t> assigned;
  std::uint64_t not_in_metadata = known.size();
  for (auto& p : metadata.partitions) {
    const auto it = known.find({p.topic, p.partition});
    if (it != known.end()) {
      --not_in_metadata;
      for (const auto& [broker, r] : it->second)
        if (std::find(p.state.replicas.begin(), p.state.replicas.end(), broker) !=
            p.state.replicas.end())
          p.replicas[broker] = r;
    }
    assigned.insert(p.state.replicas.begin(), p.state.replicas.end());
    input.partitions.push_back(std::move(p));
  }
  out.plan = plan_recovery(input);
  out.salvages = plan_salvages(out.plan, input, input.live_brokers);

  out.metadata = std::move(metadata.description);
  out.cluster_id = std::move(metadata.cluster_id);
  for (const auto& s : out.states)
    if (s.cluster_id && !out.cluster_id) out.cluster_id = s.cluster_id;
  std::set<std::int32_t> brokers = assigned;
  for (const auto& [id, src] : source_of)
    brokers.insert(id);
  for (const auto id : brokers) {
    const auto src = source_of.find(id);
    out.brokers.push_back({id, input.live_brokers.count(id) > 0 && !input.gone_brokers.count(id),
                           input.gone_brokers.count(id) > 0,
                           src == source_of.end() ? std::string() : src->second});
  }
  // What a missing broker leaves unknown.
  std::map<std::int32_t, std::uint64_t> missing;
  for (const auto& p : out.plan.partitions)
    if (p.kind != RecommendationKind::healthy)
      for (const auto id : p.unknown_replicas)
        ++missing[id];
  for (const auto& [id, count] : missing)
    out.notes.push_back(
        source_of.count(id)
            ? fmt::format("broker {}: its state holds no usable replica of {} partition(s) "
                          "without a live leader (none there, or one of another topic id): "
                          "what it holds of them is not counted",
                          id, count)
            : fmt::format("broker {}: no state given; what its replicas of {} partition(s) "
                          "without a live leader hold is not counted",
                          id, count));
  if (not_in_metadata > 0)
    out.notes.push_back(fmt::format(
        "{} partition(s) in the states are not in the metadata (deleted topics, or not selected)",
        not_in_metadata));
  for (const auto& s : out.states)
    out.notes.insert(out.notes.end(), s.notes.begin(), s.notes.end());
  out.notes.insert(out.notes.end(), metadata.notes.begin(), metadata.notes.end());
  return out;
}

}  // namespace kepoch::forecast
