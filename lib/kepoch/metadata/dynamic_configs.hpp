#pragma once
// The dynamic configs the KRaft metadata log holds, replayed as Kafka's MetadataDelta and
// ConfigurationsDelta do: a ConfigRecord sets a config of a resource (a TOPIC by name; a
// BROKER by node id, or with an empty name the cluster-wide default), with a null value
// deletes it; a RemoveTopicRecord deletes every config of the topic (MetadataDelta.replay
// (RemoveTopicRecord)). Which value a controller uses for a topic is the topic's, else the
// cluster default, else its own static config (server.properties, not in the log), else
// Kafka's default (ConfigurationControlManager.getTopicConfig's synonyms, in that order):
// `topic_config` says which of the first two it found. Between the topic's and the cluster
// default Kafka puts the deciding node's own dynamic config (a BROKER resource named by its
// node id; KafkaConfigSchema.resolveEffectiveTopicConfig's dynamicNodeConfigs): the log does
// not say which node is the active controller or a partition's leader, so `topic_config`
// leaves it out and `nodes_with` says where one is set.

#include <map>
#include <optional>
#include <string>

#include "kepoch/format/metadata_record.hpp"

namespace kepoch {

inline constexpr std::int8_t kConfigResourceTopic = 2;   // ConfigResource.Type.TOPIC
inline constexpr std::int8_t kConfigResourceBroker = 4;  // ConfigResource.Type.BROKER

struct TopicConfigValue {
  std::string value;
  bool cluster_default = false;  // from the BROKER resource "" (not the topic's own)
};

class DynamicConfigs {
 public:
  void apply(const MetadataRecord& record);

  // The topic's config, else the cluster-wide default; nullopt when the log has neither.
  std::optional<TopicConfigValue> topic_config(const std::string& topic,
                                               const std::string& name) const;
  // The topics whose own config `name` is set.
  std::map<std::string, std::string> topics_with(const std::string& name) const;
  // The nodes (by id text) whose own config `name` is set.
  std::map<std::string, std::string> nodes_with(const std::string& name) const;

 private:
  std::map<std::string, std::string> topic_names_;  // topic id text -> name
  std::map<std::string, std::map<std::string, std::string>> topics_;
  std::map<std::string, std::string> cluster_;                       // BROKER ""
  std::map<std::string, std::map<std::string, std::string>> nodes_;  // BROKER "<node id>"
};

}  // namespace kepoch
