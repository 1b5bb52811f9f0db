#include "kepoch/forecast/plan_metadata.hpp"

#include <fmt/format.h>

#include <set>
#include <utility>

#include "kepoch/base/error.hpp"
#include "kepoch/forecast/config_note.hpp"
#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/storage/broker_identity.hpp"

namespace kepoch::forecast {
namespace {

std::optional<std::string> source_of(const live::TopicView& t, std::string_view name) {
  const auto it = t.config_sources.find(std::string(name));
  if (it == t.config_sources.end()) return std::nullopt;
  return it->second;
}

// The notes of both configs, in one order for every source.
void add_config_notes(PlanMetadata& m, const std::string& read_from, const std::string& answered_by,
                      const std::string& unclean_flag, const std::string& min_isr_flag) {
  m.notes.push_back(config_note(
      true, m.partitions, {read_from, answered_by, std::string(kUncleanDeciders), unclean_flag}));
  m.notes.push_back(config_note(
      false, m.partitions, {read_from, answered_by, std::string(kMinIsrDeciders), min_isr_flag}));
}

}  // namespace

PlanMetadata metadata_from_cluster(const live::ClusterView& view) {
  PlanMetadata m;
  m.description = "live cluster (" + view.metadata_from + ")";
  m.cluster_id = view.cluster_id;
  m.live = view.live_broker_ids();
  // One rule with `cluster what-if`: the finalized feature, else the partitions' ELR.
  const bool elr_enabled = live::elr_setting(view).enabled;
  for (const auto& topic : view.topics) {
    const ResolvedConfig<bool> unclean = live_unclean_leader_election(
        topic.unclean_leader_election(), source_of(topic, kUncleanLeaderElectionEnable));
    const ResolvedConfig<std::int32_t> min_isr =
        live_min_insync_replicas(topic.min_insync_replicas(), source_of(topic, kMinInsyncReplicas));
    for (const auto& p : topic.partitions) {
      PlanPartitionInput in;
      in.topic = p.topic;
      in.partition = p.partition;
      in.state.replicas = p.replicas;
      in.state.isr = p.isr;
      in.state.elr = p.elr.value_or(std::vector<std::int32_t>{});
      in.state.last_known_elr = p.last_known_elr.value_or(std::vector<std::int32_t>{});
      in.state.leader = p.leader;
      in.state.leader_epoch = p.leader_epoch;
      in.leader_epoch_known = true;
      in.unclean_allowed = unclean.value;
      in.unclean_source = unclean.source;
      in.min_isr = min_isr.value;
      in.min_isr_source = min_isr.source;
      in.elr_enabled = elr_enabled;
      in.live_metadata = true;
      if (const UuidParse id = parse_uuid(topic.topic_id); id.ok && !id.uuid.is_zero())
        in.topic_id = id.uuid;
      m.partitions.push_back(std::move(in));
    }
  }
  for (const auto& w : view.warnings)
    m.notes.push_back(w);
  const std::string who = view.metadata_from.empty() ? "the broker that answered"
                                                     : "the broker at " + view.metadata_from;
  add_config_notes(m, "DescribeConfigs", who, "", "");
  return m;
}

namespace {

// A partition of the log as the plan takes it: its topic's config, else the cluster
// default, else `assumed`.
PlanPartitionInput plan_input(LoggedPartition p, const AssumedConfig& assumed) {
  PlanPartitionInput in;
  in.elr_enabled = !p.elr.empty() || !p.last_known_elr.empty();
  in.topic = std::move(p.topic);
  in.partition = p.partition;
  in.state.replicas = std::move(p.replicas);
  in.state.isr = std::move(p.isr);
  in.state.elr = std::move(p.elr);
  in.state.last_known_elr = std::move(p.last_known_elr);
  in.state.leader = p.leader;
  in.state.leader_epoch = p.leader_epoch;
  in.leader_epoch_known = true;
  const ResolvedConfig<bool> unclean = logged_unclean_leader_election(p.unclean, assumed.unclean);
  const ResolvedConfig<std::int32_t> min_isr =
      logged_min_insync_replicas(p.min_isr, assumed.min_isr);
  in.unclean_allowed = unclean.value;
  in.unclean_source = unclean.source;
  in.min_isr = min_isr.value;
  in.min_isr_source = min_isr.source;
  if (!p.topic_id.is_zero()) in.topic_id = p.topic_id;
  in.issued_epochs.reserve(p.issued.size());
  for (const auto& [epoch, leader] : p.issued)
    in.issued_epochs.push_back({epoch, leader});
  return in;
}

}  // namespace

bool PlanMetadata::has(std::size_t i) {
  if (!logged.ranged()) return i < size();
  while (!logged_done && i >= logged_base + logged.size()) {
    logged_base += logged.size();
    if (!logged.next_range()) logged_done = true;
  }
  const std::size_t end = logged_base + logged.size();
  return i < end || (logged_done && i - end < partitions.size());
}

std::string_view PlanMetadata::topic(std::size_t i) const {
  const std::size_t end = logged_base + logged.size();
  return i < end ? logged.topic(i - logged_base) : std::string_view(partitions[i - end].topic);
}

std::int32_t PlanMetadata::partition(std::size_t i) const {
  const std::size_t end = logged_base + logged.size();
  return i < end ? logged.partition(i - logged_base) : partitions[i - end].partition;
}

PlanPartitionInput PlanMetadata::take(std::size_t i) {
  const std::size_t end = logged_base + logged.size();
  if (i < end) {
    PlanPartitionInput in = plan_input(logged.at(i - logged_base), assumed);
    if (pending_notes && (note_topics.empty() || note_topics.back().topic != in.topic)) {
      PlanPartitionInput note;
      note.topic = in.topic;
      note.unclean_allowed = in.unclean_allowed;
      note.unclean_source = in.unclean_source;
      note.min_isr = in.min_isr;
      note.min_isr_source = in.min_isr_source;
      note_topics.push_back(std::move(note));
    }
    return in;
  }
  PlanPartitionInput in = std::move(partitions[i - end]);
  partitions[i - end] = PlanPartitionInput();
  return in;
}

void PlanMetadata::materialize() {
  if (logged.ranged()) {
    std::vector<PlanPartitionInput> all;
    for (std::size_t i = 0; has(i); ++i)
      all.push_back(take(i));
    partitions = std::move(all);
    logged = LoggedPartitions();
    logged_base = 0;
    logged_done = false;
    finish_notes();
    return;
  }
  if (logged.size() == 0) return;
  std::vector<PlanPartitionInput> all;
  all.reserve(size());
  for (std::size_t i = 0; i < logged.size(); ++i)
    all.push_back(plan_input(logged.at(i), assumed));
  for (auto& p : partitions)
    all.push_back(std::move(p));
  partitions = std::move(all);
  logged = LoggedPartitions();
}

void PlanMetadata::finish_notes() {
  if (!pending_notes) return;
  auto notes_now = std::move(pending_notes);
  pending_notes = {};
  notes_now(*this);
}

PlanMetadata metadata_from_log(LoggedMetadata logged, const std::string& dir,
                               const AssumedConfig& assumed) {
  PlanMetadata m;
  m.description = "metadata log " + dir;
  // The cluster of the log (meta.properties beside it, as `diff --metadata` reads it): a
  // state of another cluster is refused (check_metadata_cluster), never planned with this
  // cluster's partitions. Unset when no meta.properties says.
  m.cluster_id = metadata_identity(dir).cluster_id;
  m.live = logged.live;
  m.assumed = assumed;
  // The compact partitions stay compact (made one at a time by take); those made by hand
  // are moved.
  m.logged = std::move(logged.compact);
  m.partitions.reserve(logged.partitions.size());
  for (auto& p : logged.partitions) {
    m.partitions.push_back(plan_input(std::move(p), assumed));
    p = LoggedPartition();
  }
  m.notes = logged.problems;
  // The notes read each topic's config once: one partition per topic stands for all of
  // its partitions (their configs are the topic's).
  const auto node_notes = [](PlanMetadata& to, const LoggedMetadata& from) {
    // A node's own dynamic config comes before the cluster-wide default on that node
    // (KafkaConfigSchema.resolveEffectiveTopicConfig: topic, node, cluster default, static),
    // for the active controller's elections and for a leader's acks=all check; the log does
    // not say which node is which, so the plan does not use them: it says they are there.
    for (const auto& [name, nodes] : from.node_configs)
      for (const auto& [node, value] : nodes)
        to.notes.push_back(fmt::format(
            "node {}'s own dynamic config sets {}={} (metadata log): where node {} is the "
            "active controller (elections) or a partition's leader (acks=all), Kafka takes it "
            "before the cluster-wide default and the static config; the plan's values do not",
            node, name, value, node));
  };
  if (m.logged.ranged()) {  // the topics are known once every range has been read
    m.pending_notes =
        [extra = m.partitions, node_notes,
         nodes = LoggedMetadata{{}, {}, {}, logged.node_configs, {}}](PlanMetadata& to) mutable {
          std::vector<PlanPartitionInput> topics = std::move(to.note_topics);
          to.note_topics.clear();
          topics.insert(topics.end(), extra.begin(), extra.end());
          std::swap(topics, to.partitions);
          add_config_notes(to, "metadata log", "", "--unclean", "--min-isr");
          std::swap(topics, to.partitions);
          node_notes(to, nodes);
        };
    return m;
  }
  std::vector<PlanPartitionInput> topics;
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < m.logged.size(); ++i)
    if (seen.insert(m.logged.topic(i)).second)
      topics.push_back(plan_input(m.logged.at(i), assumed));
  topics.insert(topics.end(), m.partitions.begin(), m.partitions.end());
  std::swap(topics, m.partitions);
  add_config_notes(m, "metadata log", "", "--unclean", "--min-isr");
  std::swap(topics, m.partitions);
  node_notes(m, logged);
  return m;
}

PlanMetadata metadata_from_flags(const FlagsPartition& flags,
                                 const std::vector<BrokerState>& states) {
  std::set<std::pair<std::string, std::int32_t>> partitions;
  for (const auto& s : states)
    for (const auto& r : s.replicas)
      partitions.emplace(r.topic, r.partition);
  if (partitions.size() != 1)
    throw UsageError(fmt::format(
        "--replicas describes one partition, but the states hold {} partitions: give the "
        "metadata with -b or --metadata, or replica dirs (or SNAPSHOT:TOPIC-PARTITION) of one "
        "partition",
        partitions.size()));
  PlanMetadata m;
  m.description = "flags";
  PlanPartitionInput in;
  in.topic = partitions.begin()->first;
  in.partition = partitions.begin()->second;
  in.state.replicas = flags.replicas;
  in.state.isr = flags.isr;
  in.state.elr = flags.elr;
  in.state.leader = kNoLeader;
  in.unclean_allowed = flags.config.unclean;
  in.min_isr = flags.config.min_isr;
  in.unclean_source = ConfigSource::flags;
  in.min_isr_source = ConfigSource::flags;
  in.elr_enabled = !flags.elr.empty();
  if (flags.alive) {
    m.live = {flags.alive->begin(), flags.alive->end()};
  } else {
    for (const auto& s : states)
      if (s.broker) m.live.insert(*s.broker);
  }
  m.partitions.push_back(std::move(in));
  return m;
}

}  // namespace kepoch::forecast
