#pragma once
// Request builders take flat (topic, partition) lists; Kafka's requests nest partitions
// under their topic. TopicGroups finds or adds a topic's element in a body's topic array,
// in the order topics are first seen. Internal to the typed request builders.

#include <map>
#include <string>
#include <string_view>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

class TopicGroups {
 public:
  // `array`: the body's topic array; `name_field`: the topic name's field in its elements.
  TopicGroups(Struct& body, std::string_view array, std::string_view name_field)
      : body_(body), array_(array), name_field_(name_field) {}

  // The topic's element (references stay valid until the next new topic is added, so
  // callers use it at once).
  Struct& of(const std::string& topic) {
    const auto it = index_.find(topic);
    if (it != index_.end()) {
      return body_.mutable_array(array_)[it->second].as_struct();
    }
    index_[topic] = body_.mutable_array(array_).size();
    return body_.add_element(array_).set_string(name_field_, topic);
  }

 private:
  Struct& body_;
  std::string_view array_;
  std::string_view name_field_;
  std::map<std::string, std::size_t> index_;
};

}  // namespace kepoch::cluster::protocol
