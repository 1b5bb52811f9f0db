// Pins PartitionRegistration.merge (a Leader field bumps the leader epoch by one, every
// change bumps the partition epoch, absent fields keep their value, LeaderRecoveryState -1
// keeps the state) and the causes kepoch tells, on the PartitionChangeRecords Kafka 4.1.1
// wrote: the divergence run's topic d (ISR shrink, leader -1, unclean election, recovery;
// tests/data/divergence/metadata-records.jsonl, Kafka's own decoder output) and the whole
// metadata log of run A (tests/data/metadata), whose final leader epochs must equal the
// latest epoch of the replicas' leader-epoch-checkpoint written by the same run.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_log.hpp"

namespace {

using namespace kepoch;
using Causes = std::vector<std::string>;

std::string data_path(const std::string& rel) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/" + rel;
}

std::optional<BrokerIds> ids(const nlohmann::json& d, const char* key) {
  if (!d.contains(key)) return std::nullopt;
  return d[key].get<BrokerIds>();
}

Uuid uuid_of(const nlohmann::json& d) {
  const auto u = parse_uuid(d["topicId"].get<std::string>());
  REQUIRE(u.ok);
  return u.uuid;
}

// Kafka's decoder output (one JSON record per line) back into kepoch's records.
std::vector<MetadataRecord> records_from_kafka_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<MetadataRecord> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    const auto& d = j["data"];
    MetadataRecord r;
    r.version = j["version"].get<std::uint32_t>();
    const auto type = j["type"].get<std::string>();
    if (type == "TOPIC_RECORD") {
      r.api_key = 2;
      r.body = TopicRecord{d["name"].get<std::string>(), uuid_of(d)};
    } else if (type == "PARTITION_RECORD") {
      PartitionRecord p;
      p.partition_id = d["partitionId"];
      p.topic_id = uuid_of(d);
      p.replicas = *ids(d, "replicas");
      p.isr = *ids(d, "isr");
      p.leader = d["leader"];
      p.leader_epoch = d["leaderEpoch"];
      p.partition_epoch = d["partitionEpoch"];
      r.api_key = 3;
      r.body = p;
    } else if (type == "PARTITION_CHANGE_RECORD") {
      PartitionChangeRecord c;
      c.partition_id = d["partitionId"];
      c.topic_id = uuid_of(d);
      c.isr = ids(d, "isr");
      if (d.contains("leader")) c.leader = d["leader"];
      if (d.contains("leaderRecoveryState")) c.leader_recovery_state = d["leaderRecoveryState"];
      r.api_key = 5;
      r.body = c;
    }
    out.push_back(r);
  }
  return out;
}

std::int32_t latest_checkpoint_epoch(const std::string& rel) {
  std::ifstream in(data_path(rel));
  REQUIRE(in.good());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto c = read_leader_epoch_checkpoint(text, rel);
  REQUIRE(!c.entries.empty());
  return c.entries.back().epoch;
}

PartitionHistory replay_fixture_log() {
  PartitionHistory history;
  const auto files = metadata_log_files(data_path("metadata"));
  const auto summary = read_metadata_log(files, [&](const MetadataLogEntry& e) {
    if (e.record) history.apply(*e.record, {e.offset, e.timestamp, std::nullopt});
  });
  REQUIRE(summary.problems.empty());
  return history;
}

}  // namespace

TEST_CASE("merge: a leader bumps the leader epoch, every change the partition epoch",
          "[metadata][PartitionHistory]") {
  PartitionRegistration s;
  s.replicas = s.isr = {1, 2, 3};
  s.leader = 1;
  s.leader_epoch = 0;
  s.partition_epoch = 0;
  PartitionChangeRecord isr_only;
  isr_only.isr = BrokerIds{1, 3};
  const auto a = merge(s, isr_only);
  CHECK(a.leader == 1);
  CHECK(a.leader_epoch == 0);
  CHECK(a.partition_epoch == 1);
  CHECK(a.replicas == BrokerIds{1, 2, 3});
  CHECK(change_causes(s, a, isr_only) == Causes{"isr_shrink"});

  PartitionChangeRecord same_leader;
  same_leader.leader = 1;  // the controller forcing an epoch bump
  const auto b = merge(a, same_leader);
  CHECK(b.leader_epoch == 1);
  CHECK(b.partition_epoch == 2);
  CHECK(b.isr == BrokerIds{1, 3});
  CHECK(change_causes(a, b, same_leader) == Causes{"leader_epoch_bump"});

  PartitionChangeRecord move;
  move.replicas = BrokerIds{1, 3, 4};
  move.adding_replicas = BrokerIds{4};
  const auto c = merge(b, move);
  CHECK(c.leader_epoch == 1);
  CHECK(change_causes(b, c, move) == Causes{"reassignment"});
}

TEST_CASE("the divergence run's topic d, replayed from Kafka's decoder output",
          "[metadata][PartitionHistory]") {
  PartitionHistory history;
  std::int64_t offset = 0;
  for (const auto& r : records_from_kafka_json(data_path("divergence/metadata-records.jsonl")))
    history.apply(r, {offset++, 0, std::nullopt});
  const auto timelines = history.timelines();
  REQUIRE(timelines.size() == 1);
  const auto& t = *timelines[0];
  CHECK(t.topic == "d");
  CHECK(t.partition == 0);
  REQUIRE(t.steps.size() == 7);
  std::vector<Causes> causes;
  std::vector<std::pair<std::int32_t, std::int32_t>> leaders;  // (leader, leader epoch)
  for (const auto& s : t.steps) {
    causes.push_back(s.causes);
    leaders.emplace_back(s.state.leader, s.state.leader_epoch);
  }
  CHECK(causes == std::vector<Causes>{{"created"},
                                      {"isr_shrink"},
                                      {"isr_shrink"},
                                      {"leader_lost"},
                                      {"unclean_election", "isr_change"},
                                      {"recovered", "isr_expand"},
                                      {"isr_expand"}});
  CHECK(leaders == std::vector<std::pair<std::int32_t, std::int32_t>>{
                       {1, 0}, {1, 0}, {1, 0}, {-1, 1}, {2, 2}, {2, 2}, {2, 2}});
  CHECK(t.steps[3].state.isr == BrokerIds{1});  // leader -1 keeps the ISR
  CHECK(t.steps[4].state.leader_recovery_state == 1);
  CHECK(t.steps[5].state.leader_recovery_state == 0);
  CHECK(t.steps.back().state.partition_epoch == 6);
  CHECK(t.steps.back().state.isr == BrokerIds{2, 3, 1});
  // Every replica's epoch cache after the run ends at the epoch the controller issued last.
  for (int n = 1; n <= 3; ++n)
    CHECK(latest_checkpoint_epoch("divergence/after/broker-" + std::to_string(n) +
                                  "/d-0/leader-epoch-checkpoint") ==
          t.steps.back().state.leader_epoch);
}

TEST_CASE("run A's metadata log: the last led epochs equal the replicas' epoch caches",
          "[metadata][PartitionHistory]") {
  const auto history = replay_fixture_log();
  std::map<std::string, const PartitionTimeline*> by_name;
  for (const auto* t : history.timelines())
    by_name[t->topic + "-" + std::to_string(t->partition)] = t;
  REQUIRE(by_name.count("lc-0") == 1);
  const std::map<std::string, std::string> checkpoints = {
      {"lc-0", "leader-changes/broker-1/lc-0"},
      {"t-0", "clean-3replica/broker-1/t-0"},
      {"codec-gzip-0", "codecs/codec-gzip-0"},
      {"codec-zstd-0", "codecs/codec-zstd-0"},
      {"tx-0", "transactions/tx-0"},
  };
  for (const auto& [name, dir] : checkpoints) {
    INFO(name);
    REQUIRE(by_name.count(name) == 1);
    // The final shutdown left some partitions with leader -1 one epoch later: an epoch no
    // replica leads, so none caches it.
    REQUIRE(last_led_epoch(*by_name[name]));
    CHECK(*last_led_epoch(*by_name[name]) ==
          latest_checkpoint_epoch(dir + "/leader-epoch-checkpoint"));
  }
  // lc-0: the leader changes of the leader-changes fixture, epochs 0..4 with leaders
  // 1, 2, 1, 2, 1 (kill -9, preferred election, controlled shutdown, hung leader), then
  // epoch 5 without a leader when broker 1, last in the ISR, shut down.
  std::vector<std::pair<std::int32_t, std::int32_t>> epochs;
  for (const auto& s : by_name["lc-0"]->steps) {
    if (epochs.empty() || epochs.back().first != s.state.leader_epoch)
      epochs.emplace_back(s.state.leader_epoch, s.state.leader);
  }
  CHECK(epochs == std::vector<std::pair<std::int32_t, std::int32_t>>{
                      {0, 1}, {1, 2}, {2, 1}, {3, 2}, {4, 1}, {5, -1}});
  CHECK(by_name["lc-0"]->steps[1].at.offset == 66);
  CHECK(by_name["lc-0"]->steps[1].causes == Causes{"leader_change", "isr_shrink"});
  // Broker 1 was fenced when killed (offset 67) and shut down in a controlled way (158).
  const auto& events = history.broker_events();
  CHECK(std::any_of(events.begin(), events.end(), [](const BrokerEvent& e) {
    return e.at.offset == 67 && e.broker_id == 1 && e.event == "fenced";
  }));
  CHECK(std::any_of(events.begin(), events.end(), [](const BrokerEvent& e) {
    return e.at.offset == 158 && e.broker_id == 1 && e.event == "controlled_shutdown";
  }));
}

TEST_CASE("a snapshot's partitions and brokers are as of the snapshot, not changes",
          "[metadata][PartitionHistory]") {
  // MetadataLoader.handleLoadSnapshot builds the image from the snapshot alone.
  PartitionHistory history;
  const kepoch::SnapshotId id{128, 1};
  kepoch::MetadataRecord topic;
  topic.body = kepoch::TopicRecord{"s", kepoch::Uuid{}};
  history.apply(topic, {-1, 50, id});
  kepoch::PartitionRecord p;
  p.partition_id = 0;
  p.replicas = {1, 2, 3};
  p.isr = {2, 3};
  p.leader = 2;
  p.leader_epoch = 1;
  p.partition_epoch = 1;
  kepoch::MetadataRecord pr;
  pr.body = p;
  history.apply(pr, {-1, 50, id});
  kepoch::RegisterBrokerRecord b;
  b.broker_id = 1;
  b.broker_epoch = 16;
  b.fenced = true;
  kepoch::MetadataRecord br;
  br.body = b;
  history.apply(br, {-1, 50, id});
  PartitionChangeRecord c;
  c.partition_id = 0;
  c.isr = BrokerIds{2, 3, 1};
  kepoch::MetadataRecord cr;
  cr.body = c;
  history.apply(cr, {135, 60, std::nullopt});

  const auto timelines = history.timelines();
  REQUIRE(timelines.size() == 1);
  const auto& steps = timelines[0]->steps;
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].causes == Causes{"as_of_snapshot"});
  CHECK(steps[0].at.snapshot == id);
  CHECK(steps[1].causes == Causes{"isr_expand"});
  CHECK(steps[1].state.partition_epoch == 2);
  CHECK(history.orphans().empty());
  REQUIRE(history.broker_events().size() == 1);
  CHECK(history.broker_events()[0].event == "as_of_snapshot");
  CHECK(history.broker_events()[0].fenced == true);
}

// TopicsDelta.replay(ClearElrRecord) and TopicDelta.maybeClearElr (Kafka 4.1+, written when
// ELR is turned off): each partition of the named topic (every topic for an empty name) that
// has an ELR or a last known ELR is merged with a PartitionChangeRecord emptying both, so its
// partition epoch moves on; one with neither is untouched; a name no TopicRecord gave cannot
// be replayed ("Unable to clear elr for topic with name X: no such topic found.").
TEST_CASE("ClearElrRecord clears the ELR and last known ELR as Kafka's merge does",
          "[metadata][PartitionHistory]") {
  const auto a = parse_uuid("jHCv2dyMRo6LTdOknqosGQ").uuid;
  const auto b = parse_uuid("HN6JvWOOQiO2JFs4BOVLLQ").uuid;
  auto rec = [](std::uint32_t key, MetadataBody body) {
    MetadataRecord r;
    r.api_key = key;
    r.body = std::move(body);
    return r;
  };
  auto partition = [](const Uuid& topic, std::int32_t id, BrokerIds elr, BrokerIds lke) {
    PartitionRecord p;
    p.topic_id = topic;
    p.partition_id = id;
    p.replicas = {1, 2, 3};
    p.isr = {1};
    p.leader = 1;
    p.leader_epoch = 4;
    p.partition_epoch = 7;
    p.eligible_leader_replicas = std::move(elr);
    p.last_known_elr = std::move(lke);
    return p;
  };
  PartitionHistory h;
  std::int64_t offset = 0;
  auto apply = [&](MetadataRecord r) { h.apply(r, MetadataPosition{offset++, 0, std::nullopt}); };
  apply(rec(2, TopicRecord{"a", a}));
  apply(rec(2, TopicRecord{"b", b}));
  apply(rec(3, partition(a, 0, {2}, {3})));
  apply(rec(3, partition(a, 1, {}, {})));
  apply(rec(3, partition(b, 0, {}, {2})));

  apply(rec(28, ClearElrRecord{"a"}));  // offset 5: a-0 only (a-1 has neither)
  auto steps = [&](const std::string& topic, std::int32_t p) {
    for (const auto* t : h.timelines())
      if (t->topic == topic && t->partition == p) return t->steps;
    FAIL("no timeline " << topic << "-" << p);
    return std::vector<PartitionStep>{};
  };
  auto a0 = steps("a", 0);
  REQUIRE(a0.size() == 2);
  CHECK(a0[1].record_type == "CLEAR_ELR_RECORD");
  CHECK(a0[1].at.offset == 5);
  CHECK(a0[1].state.eligible_leader_replicas.empty());
  CHECK(a0[1].state.last_known_elr.empty());
  CHECK(a0[1].state.partition_epoch == 8);
  CHECK(a0[1].state.leader_epoch == 4);
  CHECK(a0[1].state.leader == 1);
  CHECK(a0[1].state.isr == BrokerIds{1});
  CHECK(a0[1].causes == Causes{"elr_change"});
  CHECK(steps("a", 1).size() == 1);
  CHECK(steps("b", 0).size() == 1);

  apply(rec(28, ClearElrRecord{""}));  // offset 6: every topic; b-0 has a last known ELR
  auto b0 = steps("b", 0);
  REQUIRE(b0.size() == 2);
  CHECK(b0[1].state.last_known_elr.empty());
  CHECK(b0[1].state.partition_epoch == 8);
  CHECK(steps("a", 0).size() == 2);  // already clear: untouched

  CHECK(h.orphans().empty());
  apply(rec(28, ClearElrRecord{"gone"}));
  REQUIRE(h.orphans().size() == 1);
  CHECK(h.orphans()[0].find("Unable to clear elr for topic with name gone: no such topic found.") !=
        std::string::npos);
}
