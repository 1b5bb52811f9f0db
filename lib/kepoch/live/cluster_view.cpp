#include "kepoch/live/cluster_view.hpp"

#include <charconv>

namespace kepoch::live {
namespace {

const std::string* config(const std::map<std::string, std::string>& configs, const char* name) {
  auto it = configs.find(name);
  return it == configs.end() ? nullptr : &it->second;
}

}  // namespace

int TopicView::replication_factor() const {
  return partitions.empty() ? 0 : static_cast<int>(partitions.front().replicas.size());
}

std::optional<int> TopicView::min_insync_replicas() const {
  const std::string* text = config(configs, "min.insync.replicas");
  if (text == nullptr) return std::nullopt;
  int value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return value;
}

std::optional<bool> TopicView::unclean_leader_election() const {
  const std::string* text = config(configs, "unclean.leader.election.enable");
  if (text == nullptr) return std::nullopt;
  // Kafka's ConfigDef parses booleans case-insensitively.
  std::string lower;
  for (char c : *text)
    lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return std::nullopt;
}

std::set<std::int32_t> ClusterView::live_broker_ids() const {
  std::set<std::int32_t> ids;
  for (const auto& b : brokers)
    ids.insert(b.id);
  return ids;
}

const TopicView* ClusterView::find_topic(const std::string& name) const {
  for (const auto& t : topics)
    if (t.name == name) return &t;
  return nullptr;
}

const PartitionView* ClusterView::find_partition(const std::string& topic,
                                                 std::int32_t partition) const {
  const TopicView* t = find_topic(topic);
  if (t == nullptr) return nullptr;
  for (const auto& p : t->partitions)
    if (p.partition == partition) return &p;
  return nullptr;
}

namespace {

template <typename View, typename Pointer>
std::map<PartitionKey, Pointer> index_of(View& view) {
  std::map<PartitionKey, Pointer> index;
  for (auto& t : view.topics)
    for (auto& p : t.partitions)
      index[{t.name, p.partition}] = &p;
  return index;
}

}  // namespace

std::map<PartitionKey, const PartitionView*> partitions_by_key(const ClusterView& view) {
  return index_of<const ClusterView, const PartitionView*>(view);
}

std::map<PartitionKey, PartitionView*> partitions_by_key(ClusterView& view) {
  return index_of<ClusterView, PartitionView*>(view);
}

ClusterView select_topics(const ClusterView& view, const std::optional<std::regex>& topic,
                          bool exclude_internal) {
  ClusterView out = view;
  std::erase_if(out.topics, [&](const TopicView& t) {
    return (exclude_internal && t.internal) || (topic && !std::regex_match(t.name, *topic));
  });
  return out;
}

}  // namespace kepoch::live
