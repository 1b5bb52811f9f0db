#include "kepoch/forecast/logged_metadata.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <span>
#include <unordered_map>

#include "kepoch/format/metadata_record.hpp"
#include "kepoch/metadata/dynamic_configs.hpp"
#include "kepoch/storage/metadata_replay.hpp"

namespace kepoch::forecast {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// A partition's lists in one piece: replicas, ISR, ELR, last known ELR, then the issued
// (epoch, leader) pairs flattened. Up to eight numbers (three replicas, three in the ISR, one
// issued epoch) inline; more on the heap, led by the five counts.
class Lists {
 public:
  static constexpr std::size_t kParts = 5;
  static constexpr std::size_t kInline = 8;
  using Parts = std::array<std::span<const std::int32_t>, kParts>;

  Lists() = default;
  Lists(const Lists&) = delete;
  Lists& operator=(const Lists&) = delete;
  Lists(Lists&& o) noexcept { take(o); }
  Lists& operator=(Lists&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~Lists() { release(); }

  std::span<const std::int32_t> part(std::size_t k) const {
    if (!heap_) {
      std::size_t from = 0;
      for (std::size_t i = 0; i < k; ++i)
        from += n_[i];
      return {in_ + from, n_[k]};
    }
    std::size_t from = kParts;
    for (std::size_t i = 0; i < k; ++i)
      from += static_cast<std::size_t>(ptr_[i]);
    return {ptr_ + from, static_cast<std::size_t>(ptr_[k])};
  }

  void set(const Parts& parts) {
    std::size_t total = 0;
    bool small = true;
    for (const auto& p : parts) {
      total += p.size();
      small = small && p.size() <= std::numeric_limits<std::uint8_t>::max();
    }
    small = small && total <= kInline;
    std::int32_t* data = nullptr;
    if (small) {
      std::int32_t staged[kInline];
      std::size_t at = 0;
      for (const auto& p : parts) {
        std::copy(p.begin(), p.end(), staged + at);
        at += p.size();
      }
      release();
      for (std::size_t k = 0; k < kParts; ++k)
        n_[k] = static_cast<std::uint8_t>(parts[k].size());
      std::memcpy(in_, staged, sizeof staged);
      return;
    }
    data = new std::int32_t[kParts + total];
    std::size_t at = kParts;
    for (std::size_t k = 0; k < kParts; ++k) {
      data[k] = static_cast<std::int32_t>(parts[k].size());
      std::copy(parts[k].begin(), parts[k].end(), data + at);
      at += parts[k].size();
    }
    release();  // after the copy: the parts may be this one's own
    heap_ = true;
    ptr_ = data;
  }

 private:
  void release() {
    if (heap_) delete[] ptr_;
    heap_ = false;
    std::memset(n_, 0, sizeof n_);
  }
  void take(Lists& o) {
    std::memcpy(n_, o.n_, sizeof n_);
    heap_ = o.heap_;
    if (heap_)
      ptr_ = o.ptr_;
    else
      std::memcpy(in_, o.in_, sizeof in_);
    o.heap_ = false;
    std::memset(o.n_, 0, sizeof o.n_);
  }

  std::uint8_t n_[kParts] = {};
  bool heap_ = false;
  union {
    std::int32_t in_[kInline];
    std::int32_t* ptr_;
  };
};

enum Part : std::size_t { kReplicas, kIsr, kElr, kLastKnownElr, kIssued };

struct Slot {
  std::uint32_t name = 0;   // the topic's name when its last PartitionRecord was read
  std::uint32_t topic = 0;  // its topic id (State::topics)
  std::int32_t partition = 0;
  std::int32_t leader = -1;
  std::int32_t leader_epoch = -1;
  bool removed = false;  // the last step was its topic's RemoveTopicRecord
  Lists lists;
};

struct UuidHash {
  std::size_t operator()(const Uuid& id) const {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::memcpy(&a, id.bytes.data(), 8);
    std::memcpy(&b, id.bytes.data() + 8, 8);
    return static_cast<std::size_t>(a * 0x9E3779B97F4A7C15ull ^ b);
  }
};

std::optional<LoggedTopicConfig> logged_config(const DynamicConfigs& configs,
                                               const std::string& topic, std::string_view name) {
  const auto v = configs.topic_config(topic, std::string(name));
  if (!v) return std::nullopt;
  return LoggedTopicConfig{v->value, v->cluster_default};
}

std::span<const std::int32_t> ids(const BrokerIds& v) {
  return {v.data(), v.size()};
}

}  // namespace

struct LoggedPartitions::Store {
  std::deque<Slot> slots;  // a deque: growing never copies what is held
  std::vector<std::string> names;
  std::vector<Uuid> topic_ids;
  // By name: the topic's configs.
  std::vector<std::optional<LoggedTopicConfig>> unclean;
  std::vector<std::optional<LoggedTopicConfig>> min_isr;
  std::vector<std::uint32_t> order;  // the slots listed, in the log's order
};

std::size_t LoggedPartitions::size() const {
  return store_ ? store_->order.size() : 0;
}

std::string_view LoggedPartitions::topic(std::size_t i) const {
  return store_->names[store_->slots[store_->order[i]].name];
}

std::int32_t LoggedPartitions::partition(std::size_t i) const {
  return store_->slots[store_->order[i]].partition;
}

LoggedPartition LoggedPartitions::at(std::size_t i) const {
  const Slot& s = store_->slots[store_->order[i]];
  LoggedPartition p;
  p.topic = store_->names[s.name];
  p.topic_id = store_->topic_ids[s.topic];
  p.partition = s.partition;
  const auto list = [&](Part k) {
    const auto v = s.lists.part(k);
    return std::vector<std::int32_t>(v.begin(), v.end());
  };
  p.replicas = list(kReplicas);
  p.isr = list(kIsr);
  p.elr = list(kElr);
  p.last_known_elr = list(kLastKnownElr);
  p.leader = s.leader;
  p.leader_epoch = s.leader_epoch;
  p.unclean = store_->unclean[s.name];
  p.min_isr = store_->min_isr[s.name];
  const auto issued = s.lists.part(kIssued);
  p.issued.reserve(issued.size() / 2);
  for (std::size_t k = 0; k + 1 < issued.size(); k += 2)
    p.issued.emplace_back(issued[k], issued[k + 1]);
  return p;
}

// The replay, as PartitionReplay applies each record (its comments say which Kafka rule),
// keeping per partition what the plan reads.
struct LoggedMetadataReplay::State {
  struct Topic {
    Uuid id;
    std::string id_text;
    std::uint32_t name = kNone;  // the last TopicRecord's; none read: kNone
    // Partition id -> slot: dense while the ids are (Kafka's are 0..n-1), else a map, so a
    // hostile id costs no more than one entry.
    std::vector<std::uint32_t> dense;
    std::map<std::int32_t, std::uint32_t> sparse;
    std::size_t count = 0;
  };
  std::shared_ptr<LoggedPartitions::Store> store = std::make_shared<LoggedPartitions::Store>();
  std::vector<Topic> topics;
  std::unordered_map<Uuid, std::uint32_t, UuidHash> topic_of;
  std::unordered_map<std::string, std::uint32_t> name_of;
  std::map<std::int32_t, bool> live;  // the brokers' last events (as PlanReplay kept them)
  DynamicConfigs configs;
  std::vector<std::string> orphans;

  std::uint32_t intern(const std::string& name) {
    const auto [it, added] = name_of.try_emplace(name, 0);
    if (added) {
      it->second = static_cast<std::uint32_t>(store->names.size());
      store->names.push_back(name);
    }
    return it->second;
  }
  std::uint32_t topic(const Uuid& id) {
    const auto [it, added] = topic_of.try_emplace(id, 0);
    if (added) {
      it->second = static_cast<std::uint32_t>(topics.size());
      topics.push_back({id, id.to_string(), kNone, {}, {}, 0});
      store->topic_ids.push_back(id);
    }
    return it->second;
  }
  Slot* find(const Uuid& id, std::int32_t partition) {
    const auto t = topic_of.find(id);
    if (t == topic_of.end()) return nullptr;
    const Topic& topic = topics[t->second];
    std::uint32_t at = kNone;
    if (partition >= 0 && static_cast<std::size_t>(partition) < topic.dense.size()) {
      at = topic.dense[static_cast<std::size_t>(partition)];
    } else if (const auto it = topic.sparse.find(partition); it != topic.sparse.end()) {
      at = it->second;
    }
    return at == kNone ? nullptr : &store->slots[at];
  }
  Slot& slot(std::uint32_t t, std::int32_t partition) {
    Topic& topic = topics[t];
    const auto p = static_cast<std::size_t>(partition);
    std::uint32_t* at = nullptr;
    if (partition >= 0 && p < 2 * topic.count + 64) {
      if (p >= topic.dense.size()) topic.dense.resize(p + 1, kNone);
      at = &topic.dense[p];
    } else {
      at = &topic.sparse.try_emplace(partition, kNone).first->second;
    }
    if (*at == kNone) {
      *at = static_cast<std::uint32_t>(store->slots.size());
      store->slots.emplace_back();
      ++topic.count;
    }
    return store->slots[*at];
  }
  // A step of the partition: PlanReplay's issued epochs (a new one when the epoch moved).
  static void step(Slot& s, Lists::Parts parts, bool removed) {
    s.removed = removed;
    const auto issued = parts[kIssued];
    std::vector<std::int32_t> more;
    if (issued.size() < 2 || issued[issued.size() - 2] != s.leader_epoch) {
      more.assign(issued.begin(), issued.end());
      more.push_back(s.leader_epoch);
      more.push_back(s.leader);
      parts[kIssued] = {more.data(), more.size()};
    }
    s.lists.set(parts);
  }

  void created(const PartitionRecord& r) {
    const std::uint32_t t = topic(r.topic_id);
    Slot& s = slot(t, r.partition_id);
    s.name = topics[t].name != kNone ? topics[t].name : intern(topics[t].id_text);
    s.topic = t;
    s.partition = r.partition_id;
    s.leader = r.leader;
    s.leader_epoch = r.leader_epoch;
    const BrokerIds none;
    step(s,
         {ids(r.replicas), ids(r.isr), ids(r.eligible_leader_replicas.value_or(none)),
          ids(r.last_known_elr ? *r.last_known_elr : none), s.lists.part(kIssued)},
         false);
  }
  // PartitionRegistration.merge, of the fields a plan reads.
  void changed(const PartitionChangeRecord& r, std::int64_t offset) {
    Slot* s = find(r.topic_id, r.partition_id);
    if (!s) {
      orphans.push_back(
          fmt::format("PARTITION_CHANGE_RECORD at offset {} for {}-{}, which no "
                      "PARTITION_RECORD created",
                      offset, r.topic_id.to_string(), r.partition_id));
      return;
    }
    Lists::Parts parts;
    for (std::size_t k = 0; k < Lists::kParts; ++k)
      parts[k] = s->lists.part(k);
    if (r.replicas) parts[kReplicas] = ids(*r.replicas);
    if (r.isr) parts[kIsr] = ids(*r.isr);
    if (r.eligible_leader_replicas) parts[kElr] = ids(*r.eligible_leader_replicas);
    if (r.last_known_elr) parts[kLastKnownElr] = ids(*r.last_known_elr);
    if (r.leader != kNoLeaderChange) {
      s->leader = r.leader;
      s->leader_epoch = s->leader_epoch + 1;
    }
    step(*s, parts, false);
  }
  void removed(const RemoveTopicRecord& r) {
    const auto t = topic_of.find(r.topic_id);
    if (t == topic_of.end()) return;
    const auto mark = [&](std::uint32_t at) {
      if (at != kNone) store->slots[at].removed = true;
    };
    for (const auto at : topics[t->second].dense)
      mark(at);
    for (const auto& [p, at] : topics[t->second].sparse)
      mark(at);
  }
  // PartitionReplay::elr_cleared: the topic of that name (the last in topic id order when
  // several had it), or every topic for an empty name.
  void elr_cleared(const ClearElrRecord& r, std::int64_t offset) {
    const Topic* only = nullptr;
    if (!r.topic_name.empty()) {
      for (const Topic& t : topics)
        if (t.name != kNone && store->names[t.name] == r.topic_name &&
            (!only || only->id_text < t.id_text))
          only = &t;
      if (!only) {
        orphans.push_back(
            fmt::format("CLEAR_ELR_RECORD at offset {} for topic {}, which no "
                        "TOPIC_RECORD created: Kafka's \"Unable to clear elr for topic "
                        "with name {}: no such topic found.\"",
                        offset, r.topic_name, r.topic_name));
        return;
      }
    }
    const auto clear = [&](std::uint32_t at) {
      if (at == kNone) return;
      Slot& s = store->slots[at];
      if (s.lists.part(kElr).empty() && s.lists.part(kLastKnownElr).empty()) return;
      Lists::Parts parts;
      for (std::size_t k = 0; k < Lists::kParts; ++k)
        parts[k] = s.lists.part(k);
      parts[kElr] = {};
      parts[kLastKnownElr] = {};
      step(s, parts, false);
    };
    for (const Topic& t : topics) {
      if (only && &t != only) continue;
      for (const auto at : t.dense)
        clear(at);
      for (const auto& [p, at] : t.sparse)
        clear(at);
    }
  }
  // The controller's view at the end of the log: a broker is live when its last event
  // (registration, fencing, unfencing, controlled shutdown) left it unfenced.
  void broker(const MetadataRecord& record) {
    if (const auto* r = std::get_if<RegisterBrokerRecord>(&record.body)) {
      live[r->broker_id] = !r->fenced;
    } else if (const auto* u = std::get_if<UnregisterBrokerRecord>(&record.body)) {
      live[u->broker_id] = false;
    } else if (const auto* f = std::get_if<FenceBrokerRecord>(&record.body)) {
      live[f->id] = false;
    } else if (const auto* uf = std::get_if<UnfenceBrokerRecord>(&record.body)) {
      live[uf->id] = true;
    } else if (const auto* c = std::get_if<BrokerRegistrationChangeRecord>(&record.body)) {
      if (c->fenced == 1) live[c->broker_id] = false;
      if (c->fenced == -1) live[c->broker_id] = true;
      if (c->in_controlled_shutdown == 1) live[c->broker_id] = false;
    }
  }
};

LoggedMetadataReplay::LoggedMetadataReplay() : s_(std::make_unique<State>()) {}
LoggedMetadataReplay::~LoggedMetadataReplay() = default;

void LoggedMetadataReplay::apply(const MetadataRecord& record, std::int64_t offset) {
  State& s = *s_;
  if (const auto* t = std::get_if<TopicRecord>(&record.body)) {
    s.topics[s.topic(t->topic_id)].name = s.intern(t->name);
  } else if (const auto* p = std::get_if<PartitionRecord>(&record.body)) {
    s.created(*p);
  } else if (const auto* c = std::get_if<PartitionChangeRecord>(&record.body)) {
    s.changed(*c, offset);
  } else if (const auto* rm = std::get_if<RemoveTopicRecord>(&record.body)) {
    s.removed(*rm);
  } else if (const auto* ce = std::get_if<ClearElrRecord>(&record.body)) {
    s.elr_cleared(*ce, offset);
  } else {
    s.broker(record);
  }
  s.configs.apply(record);
}

LoggedMetadata LoggedMetadataReplay::finish(const TopicSelection& selection) {
  State& s = *s_;
  LoggedPartitions::Store& store = *s.store;
  LoggedMetadata m;
  for (const auto& [id, up] : s.live)
    if (up) m.live.insert(id);
  // Per name: selected, its configs, its rank in name order; per topic, its id's rank.
  const std::size_t names = store.names.size();
  std::vector<bool> selected(names);
  store.unclean.resize(names);
  store.min_isr.resize(names);
  for (std::size_t n = 0; n < names; ++n) {
    const std::string& name = store.names[n];
    selected[n] = !(selection.topic && !std::regex_match(name, *selection.topic)) &&
                  !(selection.exclude_internal && name == "__consumer_offsets");
    store.unclean[n] = logged_config(s.configs, name, kUncleanLeaderElectionEnable);
    store.min_isr[n] = logged_config(s.configs, name, kMinInsyncReplicas);
  }
  const auto rank = [](std::size_t size, auto less) {
    std::vector<std::uint32_t> by(size);
    for (std::size_t i = 0; i < size; ++i)
      by[i] = static_cast<std::uint32_t>(i);
    std::sort(by.begin(), by.end(), less);
    std::vector<std::uint32_t> of(size);
    for (std::size_t i = 0; i < size; ++i)
      of[by[i]] = static_cast<std::uint32_t>(i);
    return of;
  };
  const auto name_rank = rank(
      names, [&](std::uint32_t a, std::uint32_t b) { return store.names[a] < store.names[b]; });
  const auto id_rank = rank(s.topics.size(), [&](std::uint32_t a, std::uint32_t b) {
    return s.topics[a].id_text < s.topics[b].id_text;
  });
  for (std::size_t i = 0; i < store.slots.size(); ++i) {
    const Slot& slot = store.slots[i];
    if (!slot.removed && selected[slot.name]) store.order.push_back(static_cast<std::uint32_t>(i));
  }
  // PartitionHistory::timelines' order: topic name, then partition, ties in topic id order.
  std::sort(store.order.begin(), store.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Slot& x = store.slots[a];
    const Slot& y = store.slots[b];
    return std::tuple(name_rank[x.name], x.partition, id_rank[x.topic]) <
           std::tuple(name_rank[y.name], y.partition, id_rank[y.topic]);
  });
  store.order.shrink_to_fit();
  m.compact = LoggedPartitions(s.store);
  for (const std::string_view name : {kUncleanLeaderElectionEnable, kMinInsyncReplicas})
    if (auto nodes = s.configs.nodes_with(std::string(name)); !nodes.empty())
      m.node_configs[std::string(name)] = std::move(nodes);
  m.problems = std::move(s.orphans);
  return m;
}

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
  LoggedMetadataReplay replay;
  const MetadataReplaySummary summary = replay_metadata(plan, [&](const MetadataLogEntry& e) {
    if (progress.at) progress.at(e.file, e.batch_position);
    if (!e.record) return;
    // A snapshot's records stand for the state at its end offset, not for log offsets.
    replay.apply(*e.record, e.snapshot ? -1 : e.offset);
  });
  LoggedMetadata m = replay.finish(selection);
  m.problems.insert(m.problems.begin(), summary.problems.begin(), summary.problems.end());
  return m;
}

}  // namespace kepoch::forecast
