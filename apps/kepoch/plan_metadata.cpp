#include "plan_metadata.hpp"

#include <map>

#include "metadata_source.hpp"

namespace kepoch::cli {

LoggedMetadata read_logged_metadata(const std::string& dir, const std::optional<std::regex>& topic,
                                    bool exclude_internal, const Globals& globals) {
  const LoadedMetadata loaded = load_metadata_history(dir, {}, {}, globals);
  LoggedMetadata m;
  // The controller's view at the end of the log: a broker is live when its last event
  // (registration, fencing, unfencing, controlled shutdown) left it unfenced.
  std::map<std::int32_t, bool> live;
  for (const auto& e : loaded.history.broker_events()) {
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
  for (const PartitionTimeline* t : loaded.history.timelines()) {
    if (t->steps.empty() || t->steps.back().record_type == "REMOVE_TOPIC_RECORD") continue;
    if (topic && !std::regex_match(t->topic, *topic)) continue;
    if (exclude_internal && t->topic == "__consumer_offsets") continue;
    const PartitionRegistration& r = t->steps.back().state;
    m.partitions.push_back({t->topic, t->partition, r.replicas, r.isr, r.eligible_leader_replicas,
                            r.last_known_elr, r.leader, r.leader_epoch});
  }
  m.problems = metadata_problems(loaded);
  return m;
}

}  // namespace kepoch::cli
