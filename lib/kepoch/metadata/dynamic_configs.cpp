#include "kepoch/metadata/dynamic_configs.hpp"

namespace kepoch {

void DynamicConfigs::apply(const MetadataRecord& record) {
  if (const auto* t = std::get_if<TopicRecord>(&record.body)) {
    topic_names_[t->topic_id.to_string()] = t->name;
  } else if (const auto* rm = std::get_if<RemoveTopicRecord>(&record.body)) {
    const auto it = topic_names_.find(rm->topic_id.to_string());
    if (it != topic_names_.end()) {
      topics_.erase(it->second);
      topic_names_.erase(it);
    }
  } else if (const auto* c = std::get_if<ConfigRecord>(&record.body)) {
    std::map<std::string, std::string>* configs = nullptr;
    if (c->resource_type == kConfigResourceTopic)
      configs = &topics_[c->resource_name];
    else if (c->resource_type == kConfigResourceBroker && c->resource_name.empty())
      configs = &cluster_;
    else if (c->resource_type == kConfigResourceBroker)
      configs = &nodes_[c->resource_name];
    if (!configs) return;  // other resources (loggers, client metrics, groups): not topics'
    if (c->value)
      (*configs)[c->name] = *c->value;
    else
      configs->erase(c->name);
  }
}

std::optional<TopicConfigValue> DynamicConfigs::topic_config(const std::string& topic,
                                                             const std::string& name) const {
  if (const auto t = topics_.find(topic); t != topics_.end())
    if (const auto v = t->second.find(name); v != t->second.end())
      return TopicConfigValue{v->second, false};
  if (const auto v = cluster_.find(name); v != cluster_.end())
    return TopicConfigValue{v->second, true};
  return std::nullopt;
}

std::map<std::string, std::string> DynamicConfigs::topics_with(const std::string& name) const {
  std::map<std::string, std::string> out;
  for (const auto& [topic, configs] : topics_)
    if (const auto v = configs.find(name); v != configs.end()) out.emplace(topic, v->second);
  return out;
}

std::map<std::string, std::string> DynamicConfigs::nodes_with(const std::string& name) const {
  std::map<std::string, std::string> out;
  for (const auto& [node, configs] : nodes_)
    if (const auto v = configs.find(name); v != configs.end()) out.emplace(node, v->second);
  return out;
}

}  // namespace kepoch
