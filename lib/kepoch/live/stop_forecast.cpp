#include "kepoch/live/stop_forecast.hpp"

#include <algorithm>

#include "kepoch/live/zk_controller.hpp"

namespace kepoch::live {
namespace {

constexpr const char* kElrFeature = "eligible.leader.replicas.version";

bool contains(const std::vector<std::int32_t>& ids, std::int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

PartitionState partition_state(const PartitionView& p) {
  PartitionState s;
  s.replicas = p.replicas;
  s.isr = p.isr;
  s.elr = p.elr.value_or(std::vector<std::int32_t>{});
  s.last_known_elr = p.last_known_elr.value_or(std::vector<std::int32_t>{});
  s.leader = p.leader;
  s.leader_epoch = p.leader_epoch;
  return s;
}

namespace {

bool reports_elr(const ClusterView& view) {
  for (const auto& t : view.topics)
    for (const auto& p : t.partitions)
      if ((p.elr && !p.elr->empty()) || (p.last_known_elr && !p.last_known_elr->empty()))
        return true;
  return false;
}

// Leaderless, with a replica that is alive but neither in the ISR nor (with the ISR empty)
// in the ELR: PartitionChangeBuilder.electAnyLeader finds nobody until its UNCLEAN branch.
bool only_unclean_could_lead(const PartitionState& s, const std::set<std::int32_t>& active,
                             bool elr_enabled, int min_isr) {
  if (s.leader != kNoLeader) return false;
  PartitionChangeRequest request;
  request.target_isr = s.isr;
  request.acceptable = active;
  request.elr_enabled = elr_enabled;
  request.min_isr = min_isr;
  request.election = ElectionType::online;
  if (elect_leader(s, s.isr, s.elr, request).node != kNoLeader) return false;
  request.election = ElectionType::unclean;
  return elect_leader(s, s.isr, s.elr, request).node != kNoLeader;
}

// The partition once the brokers stopped, judged alike in both modes. A leaderless
// partition refuses every write (and, with ELR off, still lists its last ISR member), so
// only a partition with a leader is judged against min ISR.
// `active`: the brokers alive after the stops. An ISR member that is not (a broker the view
// does not list) counts toward Kafka's ISR only until the controller removes it
// (handleBrokerFenced), so the ISR without it decides whether min ISR is met for sure.
void set_outcome(PartitionForecast& f, const PartitionState& after, const TopicSettings& settings,
                 const std::set<std::int32_t>& active) {
  f.after = after;
  if (f.before.leader_epoch < 0) f.after.leader_epoch = -1;  // the broker did not say
  f.effective_min_isr =
      std::min(settings.min_insync_replicas.value_or(1), static_cast<int>(after.replicas.size()));
  f.unavailable = after.leader == kNoLeader;
  f.under_min_isr = !f.unavailable && static_cast<int>(after.isr.size()) < f.effective_min_isr;
  const auto alive_in_isr = std::count_if(after.isr.begin(), after.isr.end(),
                                          [&](std::int32_t id) { return active.count(id) > 0; });
  f.under_min_isr_unknown =
      !f.unavailable && !f.under_min_isr &&
      ((!settings.min_insync_replicas && after.isr.size() < after.replicas.size()) ||
       alive_in_isr < f.effective_min_isr);
}

}  // namespace

std::string_view shutdown_kind_name(ShutdownKind kind) {
  return kind == ShutdownKind::controlled ? "controlled" : "kill";
}

ElrSetting elr_setting(const ClusterView& view) {
  if (view.finalized_features) {
    const auto it = view.finalized_features->find(kElrFeature);
    const int level = it == view.finalized_features->end() ? 0 : it->second;
    return {level >= 1, std::string(kElrFeature) + "=" + std::to_string(level) +
                            " finalized (ApiVersions)" +
                            (it == view.finalized_features->end() ? ", as not listed" : "")};
  }
  if (reports_elr(view))
    return {true,
            "the broker did not report finalized features; partitions have eligible leader "
            "replicas (DescribeTopicPartitions)"};
  return {false,
          "the broker did not report finalized features and no partition has eligible leader "
          "replicas: assumed off"};
}

TopicSettings topic_settings(const TopicView& topic) {
  TopicSettings s;
  s.topic = topic.name;
  s.replication_factor = topic.replication_factor();
  s.min_insync_replicas = topic.min_insync_replicas();
  // getTopicEffectiveMinIsr: min(min.insync.replicas, replicas of partition 0).
  s.effective_min_isr = std::min(s.min_insync_replicas.value_or(1), s.replication_factor);
  s.unclean_leader_election = topic.unclean_leader_election();
  return s;
}

std::vector<std::int32_t> brokers_not_alive(const ClusterView& view,
                                            const std::vector<std::int32_t>& stop) {
  const auto alive = view.live_broker_ids();
  std::vector<std::int32_t> out;
  for (auto id : stop)
    if (!alive.count(id) && !contains(out, id)) out.push_back(id);
  return out;
}

PartitionForecast forecast_partition(const PartitionView& partition, const TopicSettings& settings,
                                     std::set<std::int32_t> active,
                                     const std::vector<std::int32_t>& stop, ShutdownKind kind,
                                     bool elr_enabled) {
  PartitionForecast f;
  f.topic = partition.topic;
  f.partition = partition.partition;
  f.before = partition_state(partition);
  PartitionState state = f.before;
  const bool unclean = settings.unclean_leader_election.value_or(false);
  const auto handle = [&](std::int32_t broker) {
    // generateLeaderAndIsrUpdates(brokerToRemove = broker) over the partitions with the
    // broker in their ISR; fence_broker skips the others as that iterator does.
    const PartitionChange c =
        fence_broker(state, broker, active, unclean, elr_enabled, settings.effective_min_isr);
    if (c.leader_changed) {
      ++f.leader_changes;
      f.unclean_election = f.unclean_election || c.election.unclean;
    }
    state = c.after;
  };
  for (auto broker : stop) {
    if (kind == ShutdownKind::controlled) {
      handle(broker);  // handleBrokerInControlledShutdown
      handle(broker);  // handleBrokerFenced at SHUTDOWN_NOW: finds nothing left to change
    } else {
      handle(broker);  // maybeFenceOneStaleBroker -> handleBrokerFenced
    }
    active.erase(broker);  // fenced: no longer ClusterControlManager.isActive
  }
  set_outcome(f, state, settings, active);
  f.needs_unclean_election =
      only_unclean_could_lead(state, active, elr_enabled, settings.effective_min_isr);
  if (kind == ShutdownKind::kill && elr_enabled)
    for (auto id : state.elr)
      if (contains(stop, id)) f.leaves_elr_on_return.push_back(id);
  return f;
}

PartitionForecast forecast_partition_zk(const PartitionView& partition,
                                        const TopicSettings& settings,
                                        std::set<std::int32_t> active,
                                        const std::vector<std::int32_t>& stop, ShutdownKind kind,
                                        std::int32_t controller) {
  PartitionForecast f;
  f.topic = partition.topic;
  f.partition = partition.partition;
  f.before = partition_state(partition);
  f.before.elr.clear();
  f.before.last_known_elr.clear();
  PartitionState state = f.before;
  const bool unclean = settings.unclean_leader_election.value_or(false);
  const auto apply = [&](const zk::ZkChange& c) {
    if (c.leader_changed) {
      ++f.leader_changes;
      f.unclean_election = f.unclean_election || c.unclean;
    }
    state = c.after;
  };
  for (auto broker : stop) {
    if (kind == ShutdownKind::controlled)
      apply(zk::controlled_shutdown(state, broker, active));  // doControlledShutdown
    active.erase(broker);  // its ZooKeeper session ends: gone from /brokers/ids
    if (broker == controller) {
      apply(zk::controller_failover(state, active, unclean));  // another broker takes over
      controller = kNoLeader;                                  // which one is not known
    } else {
      apply(zk::on_broker_failure(state, broker, active, unclean));
    }
  }
  set_outcome(f, state, settings, active);
  // Leaderless, and only the topic's unclean.leader.election.enable would elect a live
  // replica (offlinePartitionLeaderElection finds none in the ISR).
  f.needs_unclean_election =
      f.unavailable &&
      zk::offline_partition_leader_election(state.replicas, state.isr, active, false).leader ==
          kNoLeader &&
      zk::offline_partition_leader_election(state.replicas, state.isr, active, true).leader !=
          kNoLeader;
  return f;
}

StopCounts count_outcomes(const StopForecast& forecast) {
  StopCounts c;
  c.topics = static_cast<int>(forecast.topics.size());
  for (const auto& p : forecast.partitions) {
    ++c.partitions;
    c.leaders_moved += p.leader_changes > 0 && !p.unavailable;
    c.isr_changes += p.after.isr != p.before.isr;
    c.under_min_isr += p.under_min_isr;
    c.under_min_isr_unknown += p.under_min_isr_unknown;
    c.unavailable += p.unavailable;
    c.unclean_election += p.unclean_election;
    c.needs_unclean_election += p.needs_unclean_election;
  }
  return c;
}

StopForecast forecast_stop(const ClusterView& view, const std::vector<std::int32_t>& stop,
                           ShutdownKind kind) {
  StopForecast out;
  out.kind = kind;
  out.stopped = stop;
  out.controller = controller_mode(view);
  const bool zookeeper = out.controller.kind == ControllerKind::zookeeper;
  out.elr = zookeeper ? ElrSetting{false, "ZooKeeper mode: no eligible leader replicas"}
                      : elr_setting(view);
  out.controller_stopped = zookeeper && contains(stop, out.controller.controller_id);
  const auto alive = view.live_broker_ids();
  out.alive_before.assign(alive.begin(), alive.end());
  for (auto id : alive)
    if (!contains(stop, id)) out.alive_after.push_back(id);
  for (const auto& t : view.topics) {
    out.topics.push_back(topic_settings(t));
    for (const auto& p : t.partitions)
      out.partitions.push_back(
          zookeeper ? forecast_partition_zk(p, out.topics.back(), alive, stop, kind,
                                            out.controller.controller_id)
                    : forecast_partition(p, out.topics.back(), alive, stop, kind, out.elr.enabled));
  }
  return out;
}

}  // namespace kepoch::live
