// The plan's compact metadata replay (forecast::LoggedMetadataReplay) against the replay
// `metadata history` makes (PartitionReplay, Kafka's PartitionRegistration constructor and
// merge; metadata/partition_history.hpp) with the plan's old visitor over it: both must hand
// the plan the same partitions, field for field and in the same order (topic name, then
// partition, ties in topic id order), on made-up logs that delete and recreate a topic under
// its name, reassign partitions, create and change partitions out of partition order,
// restate a partition, clear ELR (ClearElrRecord, Kafka 4.1+), name a topic only after its
// partitions, hold lists too long to keep inline and a hostile partition id; and on the log
// Kafka 4.1.1 wrote in tests/data/metadata.

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <limits>
#include <map>
#include <unordered_map>

#include "kepoch/forecast/logged_metadata.hpp"
#include "kepoch/format/metadata_record.hpp"
#include "kepoch/metadata/dynamic_configs.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_replay.hpp"
#include "support/logged_partition_checks.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
namespace fs = std::filesystem;

namespace {

// The plan's replay before the compact one (forecast/logged_metadata.cpp at 6b5844f): the
// registrations PartitionReplay holds, and per partition the issued epochs and whether the
// last step removed it.
class Reference final : public PartitionReplayVisitor {
 public:
  void apply(const MetadataRecord& r, MetadataPosition at) {
    replay_.apply(r, at, *this);
    configs_.apply(r);
  }
  std::vector<LoggedPartition> partitions(const TopicSelection& selection) const {
    struct Current {
      const PartitionTimeline* timeline;
      const PartitionRegistration* state;
      const Kept* kept;
    };
    std::vector<Current> current;
    replay_.for_each_partition([&](const PartitionTimeline& t, const PartitionRegistration& r) {
      const auto k = kept_.find(&t);
      if (k == kept_.end() || k->second.removed) return;
      current.push_back({&t, &r, &k->second});
    });
    std::stable_sort(current.begin(), current.end(), [](const Current& a, const Current& b) {
      return timeline_order(*a.timeline, *b.timeline);
    });
    std::vector<LoggedPartition> out;
    for (const Current& c : current) {
      if (selection.topic && !std::regex_match(c.timeline->topic, *selection.topic)) continue;
      if (selection.exclude_internal && c.timeline->topic == "__consumer_offsets") continue;
      LoggedPartition p;
      p.topic = c.timeline->topic;
      p.topic_id = c.timeline->topic_id;
      p.partition = c.timeline->partition;
      p.replicas = c.state->replicas;
      p.isr = c.state->isr;
      p.elr = c.state->eligible_leader_replicas;
      p.last_known_elr = c.state->last_known_elr;
      p.leader = c.state->leader;
      p.leader_epoch = c.state->leader_epoch;
      const auto config = [&](std::string_view name) -> std::optional<LoggedTopicConfig> {
        const auto v = configs_.topic_config(p.topic, std::string(name));
        if (!v) return std::nullopt;
        return LoggedTopicConfig{v->value, v->cluster_default};
      };
      p.unclean = config(kUncleanLeaderElectionEnable);
      p.min_isr = config(kMinInsyncReplicas);
      p.issued = c.kept->issued;
      out.push_back(std::move(p));
    }
    return out;
  }
  std::set<std::int32_t> live() const {
    std::set<std::int32_t> out;
    for (const auto& [id, up] : live_)
      if (up) out.insert(id);
    return out;
  }
  std::vector<std::string> orphans;

 private:
  struct Kept {
    bool removed = false;
    std::vector<std::pair<std::int32_t, std::int32_t>> issued;
  };
  void step(const PartitionTimeline& partition, const PartitionStep& step) override {
    Kept& k = kept_[&partition];
    k.removed = step.record_type == "REMOVE_TOPIC_RECORD";
    if (k.issued.empty() || k.issued.back().first != step.state.leader_epoch)
      k.issued.emplace_back(step.state.leader_epoch, step.state.leader);
  }
  void broker(const BrokerEvent& e) override {
    if (e.event == "unfenced")
      live_[e.broker_id] = true;
    else if (e.event == "fenced" || e.event == "unregistered" || e.event == "controlled_shutdown")
      live_[e.broker_id] = false;
    else if (e.event == "registered" || e.event == "as_of_snapshot")
      live_[e.broker_id] = e.fenced.has_value() && !*e.fenced;
  }
  void orphan(std::string message) override { orphans.push_back(std::move(message)); }

  PartitionReplay replay_;
  DynamicConfigs configs_;
  std::unordered_map<const PartitionTimeline*, Kept> kept_;
  std::map<std::int32_t, bool> live_;
};

using test::same_partition;

void same(const LoggedMetadata& m, const Reference& ref, const TopicSelection& selection) {
  const auto want = ref.partitions(selection);
  REQUIRE(m.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(m.compact.topic(i) == want[i].topic);
    CHECK(m.compact.partition(i) == want[i].partition);
    same_partition(m.at(i), want[i]);
  }
  CHECK(m.live == ref.live());
}

Uuid id(std::uint8_t n) {
  Uuid u;
  u.bytes[0] = n;
  u.bytes[15] = static_cast<std::uint8_t>(n * 7 + 1);
  return u;
}

MetadataRecord rec(MetadataBody body) {
  MetadataRecord r;
  r.body = std::move(body);
  return r;
}

MetadataRecord topic(const std::string& name, const Uuid& u) {
  return rec(TopicRecord{name, u});
}

MetadataRecord created(const Uuid& u, std::int32_t p, BrokerIds replicas, std::int32_t leader,
                       std::int32_t epoch) {
  PartitionRecord r;
  r.topic_id = u;
  r.partition_id = p;
  r.isr = replicas;
  r.replicas = std::move(replicas);
  r.leader = leader;
  r.leader_epoch = epoch;
  r.partition_epoch = epoch;
  return rec(std::move(r));
}

PartitionChangeRecord change(const Uuid& u, std::int32_t p) {
  PartitionChangeRecord c;
  c.topic_id = u;
  c.partition_id = p;
  return c;
}

// The records to both replays, each at its own offset (a snapshot's: -1).
struct Both {
  LoggedMetadataReplay compact;
  Reference ref;
  std::int64_t offset = 0;
  void operator()(const MetadataRecord& r, bool snapshot = false) {
    const std::int64_t at = snapshot ? -1 : offset++;
    compact.apply(r, at);
    ref.apply(r, snapshot ? MetadataPosition{-1, 0, SnapshotId{10, 1}}
                          : MetadataPosition{at, 0, std::nullopt});
  }
};

}  // namespace

TEST_CASE("the compact replay hands the plan what PartitionReplay's registrations give",
          "[logged_metadata]") {
  Both apply;
  RegisterBrokerRecord b;
  for (std::int32_t n = 1; n <= 4; ++n) {
    b.broker_id = n;
    b.fenced = n == 4;
    apply(rec(b), /*snapshot=*/n == 1);
  }
  apply(rec(UnfenceBrokerRecord{4, 1}));
  apply(rec(FenceBrokerRecord{2, 1}));
  // Topic "orders" (id 1): partitions created out of order, changed out of order.
  apply(topic("orders", id(1)));
  apply(created(id(1), 2, {3, 1, 2}, 3, 0));
  apply(created(id(1), 0, {1, 2, 3}, 1, 0));
  apply(created(id(1), 1, {2, 3, 1}, 2, 0));
  auto c = change(id(1), 1);
  c.leader = 3;
  c.isr = BrokerIds{3, 1};
  apply(rec(c));
  c = change(id(1), 0);
  c.isr = BrokerIds{1};
  apply(rec(c));
  c = change(id(1), 2);
  c.leader = -1;  // leader lost: an issued epoch without a leader
  apply(rec(c));
  // Reassigned: new replicas, then the leader moves to the added broker.
  c = change(id(1), 0);
  c.replicas = BrokerIds{1, 2, 4};
  c.adding_replicas = BrokerIds{4};
  apply(rec(c));
  c = change(id(1), 0);
  c.leader = 4;
  c.isr = BrokerIds{4, 1, 2};
  c.eligible_leader_replicas = BrokerIds{2};
  c.last_known_elr = BrokerIds{3};
  apply(rec(c));
  // Restated (a PartitionRecord for a known partition replaces its registration).
  apply(created(id(1), 1, {2, 3}, 2, 9));
  // Topic "gone" deleted, then created again under its name with a new id; the old id's
  // change after the deletion still applies (PartitionReplay keeps its registration).
  apply(topic("gone", id(2)));
  apply(created(id(2), 0, {1, 2, 3}, 1, 4));
  apply(created(id(2), 1, {1, 2, 3}, 2, 4));
  apply(rec(RemoveTopicRecord{id(2)}));
  apply(topic("gone", id(3)));
  apply(created(id(3), 1, {2, 3, 4}, 2, 0));
  apply(created(id(3), 0, {3, 4, 1}, 3, 0));
  c = change(id(2), 0);
  c.leader = 2;
  apply(rec(c));
  // Another deleted topic recreated under the same id (a PartitionRecord after the
  // removal makes the partition live again).
  apply(topic("back", id(4)));
  apply(created(id(4), 0, {1, 2}, 1, 0));
  apply(rec(RemoveTopicRecord{id(4)}));
  apply(created(id(4), 0, {2, 1}, 2, 3));
  // Partitions read before their topic's name: named by the topic id's text.
  apply(created(id(5), 0, {1}, 1, 0));
  apply(topic("late", id(5)));
  apply(created(id(5), 1, {1}, 1, 0));
  // ELR cleared for one topic (the last in id order of that name) and for all.
  c = change(id(3), 0);
  c.eligible_leader_replicas = BrokerIds{4};
  apply(rec(c));
  apply(rec(ClearElrRecord{"gone"}));
  apply(rec(ClearElrRecord{"nobody"}));
  c = change(id(1), 1);
  c.last_known_elr = BrokerIds{1};
  apply(rec(c));
  apply(rec(ClearElrRecord{""}));
  // Orphans: a change for a partition no PartitionRecord created.
  apply(rec(change(id(1), 7)));
  apply(rec(change(id(9), 0)));
  // Lists too long to hold inline, many issued epochs, a hostile partition id.
  apply(topic("wide", id(6)));
  BrokerIds many;
  for (std::int32_t n = 0; n < 300; ++n)
    many.push_back(n);
  apply(created(id(6), 0, many, 0, 0));
  for (std::int32_t n = 0; n < 300; ++n) {
    c = change(id(6), 0);
    c.leader = n % 5;
    apply(rec(c));
  }
  apply(created(id(6), std::numeric_limits<std::int32_t>::max(), {1, 2}, 1, 0));
  apply(created(id(6), -5, {1, 2}, 1, 0));
  apply(created(id(6), 1'000'000, {1, 2}, 1, 0));
  c = change(id(6), 1'000'000);
  c.leader = 2;
  apply(rec(c));
  // Configs: the topic's own, and a cluster default.
  apply(rec(ConfigRecord{2, "orders", "min.insync.replicas", "2"}));
  apply(rec(ConfigRecord{2, "gone", "unclean.leader.election.enable", "true"}));
  apply(rec(ConfigRecord{4, "", "min.insync.replicas", "3"}));

  Reference& ref = apply.ref;
  const std::vector<std::string> orphans = ref.orphans;
  CHECK(orphans.size() == 3);
  const LoggedMetadata m = apply.compact.finish({});
  CHECK(m.problems == orphans);
  same(m, ref, {});
  CHECK(m.live == std::set<std::int32_t>{1, 3, 4});
  // What the made-up log must show, beside the equality: the recreated topic's new id, the
  // reassignment, the restatement, the deleted partition gone.
  // The deleted topic's partition a change record reached after the removal is back (as
  // PartitionReplay holds it); its other partition is not.
  std::vector<std::string> names;
  for (std::size_t i = 0; i < m.size(); ++i)
    names.push_back(fmt::format("{}-{}", m.compact.topic(i), m.compact.partition(i)));
  CHECK(names == std::vector<std::string>{"BQAAAAAAAAAAAAAAAAAAJA-0", "back-0", "gone-0", "gone-0",
                                          "gone-1", "late-1", "orders-0", "orders-1", "orders-2",
                                          "wide--5", "wide-0", "wide-1000000", "wide-2147483647"});
  const LoggedPartition gone0 = m.at(3);
  CHECK(gone0.topic_id == id(3));  // ties in topic id order: the new id's text is later
  const LoggedPartition orders0 = m.at(6);
  CHECK(orders0.replicas == BrokerIds{1, 2, 4});
  CHECK(orders0.leader == 4);
  CHECK(orders0.issued == std::vector<std::pair<std::int32_t, std::int32_t>>{{0, 1}, {1, 4}});
  CHECK(m.at(7).leader_epoch == 9);
  CHECK(m.at(1).issued == std::vector<std::pair<std::int32_t, std::int32_t>>{{0, 1}, {3, 2}});
  CHECK(m.at(10).replicas.size() == 300);
  CHECK(m.at(10).issued.size() == 301);
}

TEST_CASE("the compact replay selects topics as the old one did", "[logged_metadata]") {
  Both apply;
  apply(topic("__consumer_offsets", id(1)));
  apply(topic("a", id(2)));
  apply(topic("ab", id(3)));
  for (std::uint8_t t = 1; t <= 3; ++t)
    for (std::int32_t p = 2; p >= 0; --p)
      apply(created(id(t), p, {1, 2}, 1, p));
  for (const TopicSelection& s :
       {TopicSelection{}, TopicSelection{std::regex("a"), false},
        TopicSelection{std::nullopt, true}, TopicSelection{std::regex("a.*"), true}}) {
    Both again;
    again(topic("__consumer_offsets", id(1)));
    again(topic("a", id(2)));
    again(topic("ab", id(3)));
    for (std::uint8_t t = 1; t <= 3; ++t)
      for (std::int32_t p = 2; p >= 0; --p)
        again(created(id(t), p, {1, 2}, 1, p));
    same(again.compact.finish(s), again.ref, s);
  }
}

TEST_CASE("the compact replay of Kafka 4.1.1's metadata log is the old one's",
          "[logged_metadata]") {
  const fs::path dir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/metadata/__cluster_metadata-0";
  Reference ref;
  replay_metadata(plan_metadata_replay(dir, {}), [&](const MetadataLogEntry& e) {
    if (!e.record) return;
    ref.apply(*e.record, e.snapshot ? MetadataPosition{-1, 0, e.snapshot->id}
                                    : MetadataPosition{e.offset, e.timestamp, std::nullopt});
  });
  const LoggedMetadata m = read_logged_metadata(dir, {});
  REQUIRE(m.size() > 0);
  same(m, ref, {});
}
