#include "kepoch/forecast/config_note.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <utility>

namespace kepoch::forecast {

std::string config_note(bool unclean, const std::vector<PlanPartitionInput>& partitions,
                        const ConfigWhere& w) {
  const std::string_view name = unclean ? kUncleanLeaderElectionEnable : kMinInsyncReplicas;
  std::map<std::string, std::string> own;  // topic -> value
  // (source, value) -> topics, in the order of the sources' report names.
  struct Others {
    ConfigSource source;
    std::set<std::string> topics;
  };
  std::map<std::pair<std::string_view, std::string>, Others> others;
  for (const auto& p : partitions) {
    const std::string value =
        unclean ? (p.unclean_allowed ? "true" : "false") : std::to_string(p.min_isr);
    const ConfigSource source = unclean ? p.unclean_source : p.min_isr_source;
    if (source == ConfigSource::topic)
      own[p.topic] = value;
    else
      others.try_emplace({config_source_name(source), value}, Others{source, {}})
          .first->second.topics.insert(p.topic);
  }
  std::string s = fmt::format("{}: ", name);
  if (!own.empty()) {
    s += "the topic config of ";
    std::size_t i = 0;
    for (const auto& [topic, value] : own) {
      if (i++ == 8) {
        s += fmt::format(", and {} more", own.size() - 8);
        break;
      }
      s += fmt::format("{}{}={}", i > 1 ? ", " : "", topic, value);
    }
    s += fmt::format(" ({})", w.read_from);
    if (others.empty()) return s;
    s += "; other topics: ";
  } else if (others.empty()) {
    return s + "no topic selected";
  }
  const std::string kafka_default = unclean ? (kDefaultUncleanLeaderElection ? "true" : "false")
                                            : std::to_string(kDefaultMinInsyncReplicas);
  std::size_t i = 0;
  for (const auto& [key, o] : others) {
    const std::string& value = key.second;
    const auto& [source, topics] = o;
    if (i++ > 0) s += "; ";
    switch (source) {
      case ConfigSource::cluster_default:
        s += fmt::format("the cluster-wide default {} ({})", value, w.read_from);
        break;
      case ConfigSource::node:
        s += fmt::format("{} from the own dynamic config of {} (DYNAMIC_BROKER_CONFIG): {} config",
                         value, w.answered_by, w.deciders);
        break;
      case ConfigSource::static_broker:
        s += fmt::format("{} from the server.properties of {} (STATIC_BROKER_CONFIG): {} config",
                         value, w.answered_by, w.deciders);
        break;
      case ConfigSource::kafka_default:
        s += fmt::format("{}, Kafka's default (DEFAULT_CONFIG: {} sets none): {} config", value,
                         w.answered_by, w.deciders);
        break;
      case ConfigSource::flags:
        s += fmt::format(
            "{}{} assumed: the metadata log sets no cluster-wide default, and a static {} (in "
            "server.properties) is not in it: {} config ({} gives it)",
            value, value == kafka_default ? " (Kafka's default)" : "", name, w.deciders, w.flag);
        break;
      case ConfigSource::topic:  // counted in `own` above
      case ConfigSource::unsaid:
      case ConfigSource::unknown:
        s += fmt::format("{} assumed: not read", value);
        break;
    }
    if (others.size() > 1) s += fmt::format(" ({} topic(s))", topics.size());
  }
  return s;
}

}  // namespace kepoch::forecast
