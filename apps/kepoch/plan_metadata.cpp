#include "plan_metadata.hpp"

#include <map>

#include "kepoch/metadata/dynamic_configs.hpp"
#include "kepoch/metadata/epoch_agreement.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_replay.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {

constexpr const char* kUnclean = "unclean.leader.election.enable";
constexpr const char* kMinIsr = "min.insync.replicas";

std::optional<LoggedConfig> logged_config(const DynamicConfigs& configs, const std::string& topic,
                                          const std::string& name) {
  const auto v = configs.topic_config(topic, name);
  if (!v) return std::nullopt;
  return LoggedConfig{v->value, v->cluster_default};
}

}  // namespace

LoggedMetadata read_logged_metadata(const std::string& dir, const std::optional<std::regex>& topic,
                                    bool exclude_internal, const Globals& globals) {
  // The replay of metadata_source.cpp's load_metadata_history, with the topic configs read
  // from the same records.
  const MetadataReplayPlan plan = plan_metadata_replay(dir, {});
  PartitionHistory history;
  DynamicConfigs configs;
  std::vector<std::filesystem::path> files;
  if (plan.snapshot) files.push_back(plan.snapshot->path);
  if (plan.start.read_log) files.insert(files.end(), plan.segments.begin(), plan.segments.end());
  Progress progress(globals, "reading the metadata log", files);
  const MetadataReplaySummary summary = replay_metadata(plan, [&](const MetadataLogEntry& e) {
    progress.at(e.file, e.batch_position);
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
    if (topic && !std::regex_match(t->topic, *topic)) continue;
    if (exclude_internal && t->topic == "__consumer_offsets") continue;
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
    p.unclean = logged_config(configs, t->topic, kUnclean);
    p.min_isr = logged_config(configs, t->topic, kMinIsr);
    for (const auto& i : issued_epochs(*t))
      p.issued.emplace_back(i.epoch, i.leader);
    m.partitions.push_back(std::move(p));
  }
  for (const char* name : {kUnclean, kMinIsr})
    if (auto nodes = configs.nodes_with(name); !nodes.empty())
      m.node_configs[name] = std::move(nodes);
  m.problems = summary.problems;
  m.problems.insert(m.problems.end(), history.orphans().begin(), history.orphans().end());
  return m;
}

}  // namespace kepoch::cli
