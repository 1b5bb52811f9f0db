#include "kepoch/forecast/logged_metadata.hpp"

#include <algorithm>
#include <unordered_map>

#include "kepoch/metadata/dynamic_configs.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_replay.hpp"

namespace kepoch::forecast {
namespace {

std::optional<LoggedTopicConfig> logged_config(const DynamicConfigs& configs,
                                               const std::string& topic, std::string_view name) {
  const auto v = configs.topic_config(topic, std::string(name));
  if (!v) return std::nullopt;
  return LoggedTopicConfig{v->value, v->cluster_default};
}

// What a plan keeps of the replay (PartitionReplay holds each partition's registration now):
// of each partition's steps only what the plan reads, the leader epochs issued (each with its
// leader, metadata/epoch_agreement's issued_epochs) and whether the last step removed it, and
// the brokers' last events; not every step's registration and causes (PartitionHistory), so
// the replay's memory is the partitions' current state, not their history.
class PlanReplay final : public PartitionReplayVisitor {
 public:
  struct Kept {
    bool removed = false;
    std::vector<std::pair<std::int32_t, std::int32_t>> issued;  // (epoch, leader)
  };
  std::unordered_map<const PartitionTimeline*, Kept> kept;
  // The controller's view at the end of the log: a broker is live when its last event
  // (registration, fencing, unfencing, controlled shutdown) left it unfenced.
  std::map<std::int32_t, bool> live;
  std::vector<std::string> orphans;

 private:
  void step(const PartitionTimeline& partition, const PartitionStep& step) override {
    Kept& k = kept[&partition];
    k.removed = step.record_type == "REMOVE_TOPIC_RECORD";
    if (k.issued.empty() || k.issued.back().first != step.state.leader_epoch)
      k.issued.emplace_back(step.state.leader_epoch, step.state.leader);
  }
  void broker(const BrokerEvent& e) override {
    if (e.event == "unfenced") {
      live[e.broker_id] = true;
    } else if (e.event == "fenced" || e.event == "unregistered" ||
               e.event == "controlled_shutdown") {
      live[e.broker_id] = false;
    } else if (e.event == "registered" || e.event == "as_of_snapshot") {
      live[e.broker_id] = e.fenced.has_value() && !*e.fenced;
    }
  }
  void orphan(std::string message) override { orphans.push_back(std::move(message)); }
};

}  // namespace

LoggedMetadata read_logged_metadata(const std::filesystem::path& dir,
                                    const TopicSelection& selection,
                                    const ReplayProgress& progress) {
  const MetadataReplayPlan plan = plan_metadata_replay(dir, {});
  if (progress.files) {
    std::vector<std::filesystem::path> files;
    if (plan.snapshot) files.push_back(plan.snapshot->path);
    if (plan.start.read_log) files.insert(files.end(), plan.segments.begin(), plan.segments.end());
    progress.files(files);
  }
  // The replay `metadata history` makes (partition_history), with the topic configs read
  // from the same records.
  PartitionReplay replay;
  PlanReplay visitor;
  DynamicConfigs configs;
  const MetadataReplaySummary summary = replay_metadata(plan, [&](const MetadataLogEntry& e) {
    if (progress.at) progress.at(e.file, e.batch_position);
    if (!e.record) return;
    // A snapshot's records stand for the state at its end offset, not for log offsets.
    const MetadataPosition at =
        e.snapshot ? MetadataPosition{-1, e.snapshot->last_contained_log_timestamp, e.snapshot->id}
                   : MetadataPosition{e.offset, e.timestamp, std::nullopt};
    replay.apply(*e.record, at, visitor);
    configs.apply(*e.record);
  });
  LoggedMetadata m;
  for (const auto& [id, up] : visitor.live)
    if (up) m.live.insert(id);
  // PartitionHistory::timelines' order: topic name, then partition, ties in topic id order.
  struct Current {
    const PartitionTimeline* timeline;
    const PartitionRegistration* state;
    PlanReplay::Kept* kept;
  };
  std::vector<Current> current;
  replay.for_each_partition([&](const PartitionTimeline& t, const PartitionRegistration& r) {
    const auto k = visitor.kept.find(&t);
    if (k == visitor.kept.end() || k->second.removed) return;
    current.push_back({&t, &r, &k->second});
  });
  std::stable_sort(current.begin(), current.end(), [](const Current& a, const Current& b) {
    return timeline_order(*a.timeline, *b.timeline);
  });
  m.partitions.reserve(current.size());
  for (const Current& c : current) {
    const PartitionTimeline* t = c.timeline;
    if (selection.topic && !std::regex_match(t->topic, *selection.topic)) continue;
    if (selection.exclude_internal && t->topic == "__consumer_offsets") continue;
    const PartitionRegistration& r = *c.state;
    LoggedPartition p;
    p.topic = t->topic;
    p.topic_id = t->topic_id;
    p.partition = t->partition;
    p.replicas = r.replicas;
    p.isr = r.isr;
    p.elr = r.eligible_leader_replicas;
    p.last_known_elr = r.last_known_elr;
    p.leader = r.leader;
    p.leader_epoch = r.leader_epoch;
    p.unclean = logged_config(configs, t->topic, kUncleanLeaderElectionEnable);
    p.min_isr = logged_config(configs, t->topic, kMinInsyncReplicas);
    p.issued = std::move(c.kept->issued);
    m.partitions.push_back(std::move(p));
  }
  for (const std::string_view name : {kUncleanLeaderElectionEnable, kMinInsyncReplicas})
    if (auto nodes = configs.nodes_with(std::string(name)); !nodes.empty())
      m.node_configs[std::string(name)] = std::move(nodes);
  m.problems = summary.problems;
  m.problems.insert(m.problems.end(), visitor.orphans.begin(), visitor.orphans.end());
  return m;
}

}  // namespace kepoch::forecast
