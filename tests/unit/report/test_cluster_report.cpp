// Report shapes of the live-cluster commands: field names scripts rely on, the
// kafka-topics-style partition selection, and the summary counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "kepoch/report/cluster_report.hpp"
#include "kepoch/report/event_stream.hpp"
#include "kepoch/report/render.hpp"

using namespace kepoch;
using namespace kepoch::report;

namespace {

live::ClusterView sample() {
  live::ClusterView v;
  v.cluster_id = "abc";
  v.controller_id = 100;
  v.brokers = {{1, "127.0.0.1", 9091, std::nullopt}, {2, "127.0.0.1", 9092, "r2"}};
  live::TopicView t;
  t.name = "t";
  t.configs["min.insync.replicas"] = "2";
  for (int i = 0; i < 3; ++i) {
    live::PartitionView p;
    p.topic = "t";
    p.partition = i;
    p.leader = i == 2 ? live::kNoLeader : 1;
    p.leader_epoch = 7;
    p.replicas = {1, 2};
    p.isr = i == 0 ? std::vector<std::int32_t>{1, 2} : std::vector<std::int32_t>{1};
    p.high_watermark = 10 + i;
    t.partitions.push_back(p);
  }
  v.topics = {t};
  return v;
}

std::string json(const Value& v) {
  std::ostringstream out;
  render_json_line(v, out);
  return out.str();
}

}  // namespace

TEST_CASE("describe lists every partition with its flags and a summary", "[report][cluster]") {
  Value v = cluster_describe_value(sample(), {});
  const auto& parts = v.find("partitions")->as_array();
  REQUIRE(parts.size() == 3);
  CHECK(json(*parts[0].find("flags")) == "[\"at_min_isr\"]\n");
  CHECK(json(*parts[1].find("flags")) == "[\"under_replicated\",\"under_min_isr\"]\n");
  CHECK(parts[2].find("leader")->is_null());
  CHECK(parts[2].find("elr")->is_null());
  CHECK(json(*v.find("summary")) ==
        "{\"text\":\"3 partitions of 1 topic on 2 brokers: 1 unavailable, 2 under min ISR, 2 "
        "under-replicated, 1 at min "
        "ISR.\",\"topics\":1,\"partitions\":3,\"under_replicated\":2,\"under_min_isr\":2,"
        "\"at_min_isr\":1,\"unavailable\":1,\"leader_not_preferred\":0}\n");
}

TEST_CASE("describe's report flags select partitions matching any flag given",
          "[report][cluster]") {
  PartitionSelection s;
  s.unavailable = true;
  Value v = cluster_describe_value(sample(), s);
  REQUIRE(v.find("partitions")->as_array().size() == 1);
  CHECK(scalar_text(*v.find("partitions")->as_array()[0].find("partition")) == "2");
  s.at_min_isr = true;
  CHECK(cluster_describe_value(sample(), s).find("partitions")->as_array().size() == 2);
  // The summary still counts every partition.
  CHECK(scalar_text(*v.find("summary")->find("partitions")) == "3");
  // Its sentence is the verdict the exit status gives (1 when a partition is listed).
  CHECK(scalar_text(*v.find("summary")->find("text")) ==
        "1 of 3 partitions of 1 topic is unavailable (first: t-2).");
  CHECK(scalar_text(*cluster_describe_value(sample(), s).find("summary")->find("text")) ==
        "2 of 3 partitions of 1 topic are at min ISR or unavailable (first: t-0).");
  PartitionSelection none;
  none.leader_not_preferred = true;
  CHECK(scalar_text(*cluster_describe_value(sample(), none).find("summary")->find("text")) ==
        "No partition is led by a replica other than the preferred (3 partitions of 1 topic).");
}

TEST_CASE("describe of a healthy cluster says so in its opening sentence", "[report][cluster]") {
  live::ClusterView v = sample();
  v.topics[0].configs["min.insync.replicas"] = "1";
  for (auto& p : v.topics[0].partitions) {
    p.leader = 1;
    p.isr = {1, 2};
  }
  const Value report = cluster_describe_value(v, {});
  CHECK(scalar_text(*report.find("summary")->find("text")) ==
        "3 partitions of 1 topic on 2 brokers: every replica in sync, every partition led by "
        "its preferred replica.");
  std::ostringstream table, err;
  render(report, Format::table, table, err);
  CHECK(table.str().rfind("3 partitions of 1 topic on 2 brokers: ", 0) == 0);
}

TEST_CASE("watch events carry only the members their kind has", "[report][cluster]") {
  live::ClusterEvent gone;
  gone.kind = live::EventKind::broker_gone;
  gone.broker = 3;
  CHECK(json(cluster_event_value(gone, 0)) ==
        "{\"time\":\"1970-01-01T00:00:00.000Z\",\"event\":\"broker_gone\",\"description\":"
        "\"broker 3 is gone (unregistered or fenced)\",\"broker\":3}\n");
  live::ClusterEvent shrink;
  shrink.kind = live::EventKind::isr_shrink;
  shrink.topic = "t";
  shrink.partition = 0;
  shrink.old_leader = shrink.new_leader = 1;
  shrink.old_epoch = shrink.new_epoch = 4;
  shrink.before = {1, 2};
  shrink.after = {1};
  shrink.changed = {2};
  CHECK(json(cluster_event_value(shrink, 1764424987123)) ==
        "{\"time\":\"2025-11-29T14:03:07.123Z\",\"event\":\"isr_shrink\",\"description\":"
        "\"t-0 ISR shrank by [2]: [1,2] -> [1]\",\"topic\":\"t\","
        "\"partition\":0,\"old_leader\":1,\"new_leader\":1,\"old_epoch\":4,\"new_epoch\":4,"
        "\"before\":[1,2],\"after\":[1],\"changed\":[2]}\n");
}

TEST_CASE("the event stream writes one line per event, NDJSON in json", "[report][cluster]") {
  live::ClusterEvent change;
  change.kind = live::EventKind::leader_change;
  change.topic = "orders";
  change.partition = 2;
  change.old_leader = 1;
  change.new_leader = 3;
  change.old_epoch = 4;
  change.new_epoch = 5;
  const Value event = cluster_event_value(change, 0);
  std::ostringstream table, json_out, yaml;
  EventStream(Format::table, table).write(event);
  CHECK(table.str() ==
        "1970-01-01T00:00:00.000Z  leader_change        orders-2 leader 1 -> 3, epoch 4 -> 5\n");
  EventStream ndjson(Format::json, json_out);
  ndjson.write(event);
  ndjson.write_summary(Value::object().set("summary", Value::object().set("events", 1)));
  const std::string text = json_out.str();
  CHECK(std::count(text.begin(), text.end(), '\n') == 2);
  CHECK(text.ends_with("{\"summary\":{\"events\":1}}\n"));
  EventStream(Format::yaml, yaml).write(event);
  CHECK(yaml.str().starts_with("---\ntime: "));
}
