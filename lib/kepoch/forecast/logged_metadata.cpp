#include "kepoch/forecast/logged_metadata.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <unordered_map>

#include "kepoch/base/error.hpp"
#include "kepoch/format/metadata_record.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/metadata/dynamic_configs.hpp"
#include "kepoch/storage/log_dir.hpp"
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

// A partition's place in the log's order, by its topic's name: a range of the order is
// [lo, hi) of these.
struct RangeKey {
  std::string name;
  std::int32_t partition = 0;
};

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
    std::vector<std::uint32_t> dense;  // from partition `base` (a ranged pass's first held)
    std::int32_t base = 0;
    std::map<std::int32_t, std::uint32_t> sparse;
    std::size_t count = 0;
    // The first pass (`track`): the partitions any PartitionRecord created, held or not (dense
    // as above, else a set), and the name those records gave them.
    std::vector<bool> exists;
    std::set<std::int32_t> exists_sparse;
    std::size_t existing = 0;
    std::uint32_t part_name = kNone;
  };
  // The first pass tracks what the ranges need and, once it holds more than `budget`
  // partitions, drops them all and holds none (`overflow`); a ranged pass holds the
  // partitions PartitionRecords created in [lo, hi) only.
  bool track = false;
  std::size_t budget = std::numeric_limits<std::size_t>::max();
  bool overflow = false;
  bool renamed = false;  // a topic's partitions created under two names: one range only
  bool ranged = false;
  std::optional<RangeKey> lo;
  std::optional<RangeKey> hi;
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
      Topic& added_topic = topics.emplace_back();
      added_topic.id = id;
      added_topic.id_text = id.to_string();
      store->topic_ids.push_back(id);
    }
    return it->second;
  }
  Slot* find(const Uuid& id, std::int32_t partition) {
    const auto t = topic_of.find(id);
    if (t == topic_of.end()) return nullptr;
    return held(t->second, partition);
  }
  Slot* held(std::uint32_t t, std::int32_t partition) {
    const Topic& topic = topics[t];
    std::uint32_t at = kNone;
    const auto p = static_cast<std::size_t>(partition) - static_cast<std::size_t>(topic.base);
    if (partition >= topic.base && p < topic.dense.size()) {
      at = topic.dense[p];
    } else if (const auto it = topic.sparse.find(partition); it != topic.sparse.end()) {
      at = it->second;
    }
    return at == kNone ? nullptr : &store->slots[at];
  }
  Slot& slot(std::uint32_t t, std::int32_t partition) {
    Topic& topic = topics[t];
    if (ranged && topic.count == 0 && topic.dense.empty() && partition >= 0) topic.base = partition;
    const auto p = static_cast<std::size_t>(partition) - static_cast<std::size_t>(topic.base);
    std::uint32_t* at = nullptr;
    if (partition >= topic.base && p < 2 * topic.count + 64) {
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
  bool in_range(std::string_view name, std::int32_t partition) const {
    const auto before = [](std::string_view n, std::int32_t p, const RangeKey& k) {
      const int c = n.compare(k.name);
      return c != 0 ? c < 0 : p < k.partition;
    };
    return !(lo && before(name, partition, *lo)) && !(hi && !before(name, partition, *hi));
  }
  bool exists(std::uint32_t t, std::int32_t partition) const {
    const Topic& topic = topics[t];
    const auto p = static_cast<std::size_t>(partition);
    if (partition >= 0 && p < topic.exists.size()) return topic.exists[p];
    return topic.exists_sparse.count(partition) > 0;
  }
  void mark_exists(std::uint32_t t, std::int32_t partition, std::uint32_t name) {
    Topic& topic = topics[t];
    if (topic.part_name == kNone)
      topic.part_name = name;
    else if (topic.part_name != name)
      renamed = true;
    if (exists(t, partition)) return;
    const auto p = static_cast<std::size_t>(partition);
    if (partition >= 0 && p < 2 * topic.existing + 64) {
      if (p >= topic.exists.size()) topic.exists.resize(p + 1, false);
      topic.exists[p] = true;
    } else {
      topic.exists_sparse.insert(partition);
    }
    ++topic.existing;
  }
  // Over the budget: every partition dropped, none held from here on (the ranges hold them).
  void drop() {
    overflow = true;
    std::deque<Slot>().swap(store->slots);
    for (Topic& t : topics) {
      std::vector<std::uint32_t>().swap(t.dense);
      t.sparse.clear();
      t.count = 0;
    }
  }
  // A ranged pass: a record it has no use for, read from the value's first bytes (frame
  // version, type, version, then PartitionRecord's and PartitionChangeRecord's partition id
  // and topic id): a change of a partition not held, a PartitionRecord of one outside the
  // range and not held. Anything else (or anything unexpected) is decoded.
  bool skip(std::span<const std::uint8_t> v) const {
    std::size_t at = 0;
    std::uint32_t head[3] = {};
    for (auto& h : head) {
      if (at >= v.size() || (v[at] & 0x80)) return false;  // one-byte varints only
      h = v[at++];
    }
    if (head[0] != 1 || (head[1] != 3 && head[1] != 5) || v.size() < at + 20) return false;
    const std::int32_t partition =
        static_cast<std::int32_t>((std::uint32_t{v[at]} << 24) | (std::uint32_t{v[at + 1]} << 16) |
                                  (std::uint32_t{v[at + 2]} << 8) | std::uint32_t{v[at + 3]});
    Uuid id;
    std::memcpy(id.bytes.data(), v.data() + at + 4, 16);
    const auto t = topic_of.find(id);
    const bool is_held =
        t != topic_of.end() && const_cast<State*>(this)->held(t->second, partition);
    if (head[1] == 5) return !is_held;
    if (is_held) return false;
    if (t == topic_of.end() || topics[t->second].name == kNone)
      return !in_range(id.to_string(), partition);
    return !in_range(store->names[topics[t->second].name], partition);
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
    const std::uint32_t name = topics[t].name != kNone ? topics[t].name : intern(topics[t].id_text);
    if (track) mark_exists(t, r.partition_id, name);
    if (overflow) return;
    if (ranged && !held(t, r.partition_id) && !in_range(store->names[name], r.partition_id)) return;
    Slot& s = slot(t, r.partition_id);
    s.name = name;
    s.topic = t;
    s.partition = r.partition_id;
    s.leader = r.leader;
    s.leader_epoch = r.leader_epoch;
    const BrokerIds none;
    step(s,
         {ids(r.replicas), ids(r.isr), ids(r.eligible_leader_replicas.value_or(none)),
          ids(r.last_known_elr ? *r.last_known_elr : none), s.lists.part(kIssued)},
         false);
    if (track && store->slots.size() > budget) drop();
  }
  // PartitionRegistration.merge, of the fields a plan reads.
  void changed(const PartitionChangeRecord& r, std::int64_t offset) {
    Slot* s = find(r.topic_id, r.partition_id);
    if (!s) {
      if (ranged) return;  // another range's (the first pass says which are orphans)
      if (track)
        if (const auto t = topic_of.find(r.topic_id);
            t != topic_of.end() && exists(t->second, r.partition_id))
          return;  // dropped
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
  void apply(const MetadataRecord& record, std::int64_t offset);
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
  s_->apply(record, offset);
}

void LoggedMetadataReplay::State::apply(const MetadataRecord& record, std::int64_t offset) {
  State& s = *this;
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

struct LoggedRangePass {
  using State = LoggedMetadataReplay::State;
  static State& state(LoggedMetadataReplay& r) { return *r.s_; }
  // The selected partitions a pass holds, in the log's order, with their topics' configs.
  static void order_store(State& s, const TopicSelection& selection);
  static std::vector<std::optional<RangeKey>> bounds(const State& s, std::size_t budget);
  static std::shared_ptr<const LoggedPartitions::Store> run(LoggedPartitions::Ranges& r);
};

LoggedMetadata LoggedMetadataReplay::finish(const TopicSelection& selection) {
  State& s = *s_;
  LoggedMetadata m;
  for (const auto& [id, up] : s.live)
    if (up) m.live.insert(id);
  LoggedRangePass::order_store(s, selection);
  m.compact = LoggedPartitions(s.store);
  for (const std::string_view name : {kUncleanLeaderElectionEnable, kMinInsyncReplicas})
    if (auto nodes = s.configs.nodes_with(std::string(name)); !nodes.empty())
      m.node_configs[std::string(name)] = std::move(nodes);
  m.problems = std::move(s.orphans);
  return m;
}

void LoggedRangePass::order_store(State& s, const TopicSelection& selection) {
  LoggedPartitions::Store& store = *s.store;
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
}

struct LoggedPartitions::Ranges {
  MetadataReplayPlan plan;
  TopicSelection selection;
  // Range k is [bounds[k], bounds[k + 1]) (unset: from the first, to the last).
  std::vector<std::optional<RangeKey>> bounds;
  std::size_t next = 0;  // the range the next pass reads
  // What the first pass read: a later pass reads the same records, those below its log end,
  // whatever a live controller appended since (a NoOpRecord every 500 ms by default).
  std::optional<std::int64_t> first_log_offset;
  std::optional<std::int64_t> log_end_offset;
};

// The ranges of the log's order the first pass's partitions fill with `budget` each (a
// partition id's topics of one name together), in name order then partition order; one
// range when a topic's partitions were created under two names (a range is chosen by the
// name a PartitionRecord gives).
std::vector<std::optional<RangeKey>> LoggedRangePass::bounds(const State& s, std::size_t budget) {
  std::vector<std::optional<RangeKey>> out{std::nullopt};
  if (!s.renamed) {
    const auto& names = s.store->names;
    std::vector<std::vector<std::uint32_t>> of(names.size());
    for (std::size_t t = 0; t < s.topics.size(); ++t)
      if (s.topics[t].part_name != kNone)
        of[s.topics[t].part_name].push_back(static_cast<std::uint32_t>(t));
    std::vector<std::uint32_t> by;
    for (std::size_t n = 0; n < names.size(); ++n)
      if (!of[n].empty()) by.push_back(static_cast<std::uint32_t>(n));
    std::sort(by.begin(), by.end(),
              [&](std::uint32_t a, std::uint32_t b) { return names[a] < names[b]; });
    std::size_t held = 0;
    for (const auto n : by) {
      const auto add = [&](std::int32_t partition, std::size_t count) {
        if (held > 0 && held + count > budget) {
          out.push_back(RangeKey{names[n], partition});
          held = 0;
        }
        held += count;
      };
      std::map<std::int32_t, std::size_t> sparse;
      std::size_t dense = 0;
      for (const auto t : of[n]) {
        for (const auto p : s.topics[t].exists_sparse)
          ++sparse[p];
        dense = std::max(dense, s.topics[t].exists.size());
      }
      auto it = sparse.begin();
      for (std::size_t p = 0; p < dense; ++p) {
        const auto partition = static_cast<std::int32_t>(p);
        for (; it != sparse.end() && it->first < partition; ++it)
          add(it->first, it->second);
        std::size_t count = 0;
        if (it != sparse.end() && it->first == partition) count += (it++)->second;
        for (const auto t : of[n])
          if (p < s.topics[t].exists.size() && s.topics[t].exists[p]) ++count;
        if (count > 0) add(partition, count);
      }
      for (; it != sparse.end(); ++it)
        add(it->first, it->second);
    }
  }
  out.push_back(std::nullopt);
  return out;
}

// The next range's partitions: the log replayed again, holding only those.
std::shared_ptr<const LoggedPartitions::Store> LoggedRangePass::run(LoggedPartitions::Ranges& r) {
  State s;
  s.ranged = true;
  s.lo = r.bounds[r.next];
  s.hi = r.bounds[r.next + 1];
  ++r.next;
  const MetadataReplaySummary summary = replay_metadata(
      r.plan,
      [&](const MetadataLogEntry& e) {
        if (!e.record) return;
        if (!e.snapshot && r.log_end_offset && e.offset >= *r.log_end_offset) return;
        s.apply(*e.record, e.snapshot ? -1 : e.offset);
      },
      [&](std::span<const std::uint8_t> v) { return s.skip(v); });
  // Appended records are left out above; a log cleaned or cut since is another log.
  const auto text = [](const std::optional<std::int64_t>& o) {
    return o ? std::to_string(*o) : std::string("none");
  };
  if (summary.first_log_offset != r.first_log_offset ||
      (r.log_end_offset &&
       (!summary.log_end_offset || *summary.log_end_offset < *r.log_end_offset)))
    throw InputError(
        r.plan.target,
        fmt::format("the metadata log changed while kepoch read it (first read: offsets {} to "
                    "{}, then {} to {}): read a copy of it, or a stopped controller's",
                    text(r.first_log_offset), text(r.log_end_offset),
                    text(summary.first_log_offset), text(summary.log_end_offset)));
  order_store(s, r.selection);
  return s.store;
}

bool LoggedPartitions::next_range() {
  store_.reset();
  if (!ranges_ || ranges_->next + 1 >= ranges_->bounds.size()) return false;
  store_ = LoggedRangePass::run(*ranges_);
  return true;
}

LoggedMetadata read_logged_metadata(const std::filesystem::path& dir,
                                    const TopicSelection& selection, const ReplayProgress& progress,
                                    std::size_t range_slots) {
  const MetadataReplayPlan plan = plan_metadata_replay(dir, {});
  // A log replayed from past its start offset 0 without a snapshot below it misses every
  // partition created (and every change made) before: a plan of the partitions it does hold
  // said "nothing to decide" (exit 0) of the ones it never saw. Unknown is never safe.
  // (A segment given alone: its name's base offset.)
  const std::int64_t log_start =
      plan.dir.empty() && plan.segments.size() == 1
          ? parse_segment_file_name(plan.segments.front().filename().string()).offset.value_or(0)
          : plan.shape.log_start_offset.value_or(0);
  if (log_start > 0 && !plan.snapshot)
    throw InputError(
        plan.dir.empty() ? dir.string() : plan.dir.string(),
        fmt::format(
            "the log starts at offset {} and no snapshot reaches it{}: the partitions created "
            "below offset {} are unknown, so no plan is made from it; give the whole {} "
            "directory with its .checkpoint snapshots",
            log_start,
            plan.start.rule == MetadataStartRule::no_covering_snapshot
                ? " (Kafka refuses to load it: KafkaMetadataLog.recoverSnapshots, \"Inconsistent "
                  "snapshot state\")"
                : "",
            log_start, kMetadataLogDirName));
  if (progress.files) {
    std::vector<std::filesystem::path> files;
    if (plan.snapshot) files.push_back(plan.snapshot->path);
    if (plan.start.read_log) files.insert(files.end(), plan.segments.begin(), plan.segments.end());
    progress.files(files);
  }
  LoggedMetadataReplay replay;
  LoggedRangePass::state(replay).track = true;
  LoggedRangePass::state(replay).budget = range_slots;
  const MetadataReplaySummary summary = replay_metadata(plan, [&](const MetadataLogEntry& e) {
    if (progress.at) progress.at(e.file, e.batch_position);
    if (!e.record) return;
    // A snapshot's records stand for the state at its end offset, not for log offsets.
    replay.apply(*e.record, e.snapshot ? -1 : e.offset);
  });
  std::vector<std::optional<RangeKey>> bounds;
  if (LoggedRangePass::state(replay).overflow)
    bounds = LoggedRangePass::bounds(LoggedRangePass::state(replay), range_slots);
  LoggedMetadata m = replay.finish(selection);
  if (!bounds.empty()) {
    auto ranges = std::make_shared<LoggedPartitions::Ranges>();
    ranges->plan = plan;
    ranges->selection = selection;
    ranges->bounds = std::move(bounds);
    ranges->first_log_offset = summary.first_log_offset;
    ranges->log_end_offset = summary.log_end_offset;
    m.compact = LoggedPartitions(nullptr, ranges);
    m.compact.next_range();
  }
  m.problems.insert(m.problems.begin(), summary.problems.begin(), summary.problems.end());
  return m;
}

}  // namespace kepoch::forecast
