#include "kepoch/forecast/logged_metadata.hpp"

#include "kepoch/metadata/dynamic_configs.hpp"
#include "kepoch/metadata/epoch_agreement.hpp"
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
  PartitionHistory history;
  DynamicConfigs configs;
  const MetadataReplaySummary summary = replay_metadata(plan, [&](const MetadataLogEntry& e) {
    if (progress.at) progress.at(e.file, e.batch_position);
    if (!e.record) return;
    // A snapshot's records stand for the state at its end offset, not for log offsets.
    const MetadataPosition at =
        e.snapshot ? MetadataPosition{-1, e.snapshot->last_contained_log_timestamp, e.snapshot->id}
                   : MetadataPosition{e.offset, e.timestamp, std::nullopt};
    history.apply(*e.record, at);
    configs.apply(*e.record);
  });
  LoggedMetadata m;
  // The controller's view at the end of the log: a broker is live when its last event
  // (registration, fencing, unfencing, controlled shutdown) left it unfenced.
  std::map<std::int32_t, bool> live;
  for (const auto& e : history.broker_events()) {
    if (e.event == "unfenced") {
      live[e.broker_id] = true;
    } else if (e.event == "fenced" || e.event == "unregistered" ||
               e.event == "controlled_shutdown") {
      live[e.broker_id] = false;
    } else if (e.event == "registered" || e.event == "as_of_snapshot") {
      live[e.broker_id] = e.fenced.has_value() && !*e.fenced;
    }
  }
  for (const auto& [id, up] : live)
    if (up) m.live.insert(id);
  for (const PartitionTimeline* t : history.timelines()) {
    if (t->steps.empty() || t->steps.back().record_type == "REMOVE_TOPIC_RECORD") continue;
    if (selection.topic && !std::regex_match(t->topic, *selection.topic)) continue;
    if (selection.exclude_internal && t->topic == "__consumer_offsets") continue;
    const PartitionRegistration& r = t->steps.back().state;
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
    for (const auto& i : issued_epochs(*t))
      p.issued.emplace_back(i.epoch, i.leader);
    m.partitions.push_back(std::move(p));
  }
  for (const std::string_view name : {kUncleanLeaderElectionEnable, kMinInsyncReplicas})
    if (auto nodes = configs.nodes_with(std::string(name)); !nodes.empty())
      m.node_configs[std::string(name)] = std::move(nodes);
  m.problems = summary.problems;
  m.problems.insert(m.problems.end(), history.orphans().begin(), history.orphans().end());
  return m;
}

}  // namespace kepoch::forecast
