#include "metadata_source.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/metadata/compact_history.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/document_stream.hpp"
#include "kepoch/report/metadata_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {

// A record's place: a snapshot's records stand for the state at its end offset, not for
// log offsets.
MetadataPosition position_of(const MetadataLogEntry& e) {
  return e.snapshot ? MetadataPosition{-1, e.snapshot->last_contained_log_timestamp, e.snapshot->id}
                    : MetadataPosition{e.offset, e.timestamp, std::nullopt};
}

std::vector<std::filesystem::path> replayed_files(const MetadataReplayPlan& plan) {
  std::vector<std::filesystem::path> files;
  if (plan.snapshot) files.push_back(plan.snapshot->path);
  if (plan.start.read_log) files.insert(files.end(), plan.segments.begin(), plan.segments.end());
  return files;
}

// One replay of the plan into `visit`, with a progress line (only before any output).
MetadataReplaySummary replay_pass(const MetadataReplayPlan& plan,
                                  const PartitionHistoryFilter& filter,
                                  PartitionReplayVisitor& visit, const Globals& globals,
                                  bool output_started) {
  Progress progress(globals, "reading the metadata log", replayed_files(plan), output_started);
  PartitionReplay replay(filter);
  auto summary = replay_metadata(plan, [&](const MetadataLogEntry& e) {
    progress.at(e.file, e.batch_position);
    if (e.record) replay.apply(*e.record, position_of(e), visit);
  });
  progress.done();
  return summary;
}

using PartitionKey = std::tuple<std::string, std::int32_t>;  // topic id text, partition

// The first pass: what the report says before each list, each list's length and the bytes
// its steps take held compactly (compact_history.hpp). While they all fit in `held_bytes`,
// the steps and events are held too, and the report is written from them with no other
// pass; past that, what is held is dropped and only counted.
struct HistoryIndex : PartitionReplayVisitor {
  struct Partition {
    PartitionTimeline timeline;  // topic, topic_id, partition as last named (no steps)
    std::size_t steps = 0;
    std::optional<std::int32_t> last_led;  // last_led_epoch
    report::TableLayoutBuilder layout;
    CompactSteps held;
  };
  HistoryIndex(bool as_table, const TimeRange& range, std::size_t budget, const Globals& g)
      : table(as_table), time(range), held_bytes(budget), globals(g) {}
  void step(const PartitionTimeline& t, const PartitionStep& s) override {
    auto [it, added] = partitions.try_emplace({t.topic_id.to_string(), t.partition});
    Partition& p = it->second;
    if (added && !holding) p.held.discard();
    p.timeline = t;
    if (s.state.leader != -1) p.last_led = s.state.leader_epoch;  // over every step
    tally.step(t, s, time.contains(s.at.timestamp));
    if (!time.contains(s.at.timestamp)) return;
    ++p.steps;
    if (table) p.layout.add(output_times(report::partition_step_value(s), globals));
    const std::size_t before = p.held.capacity();
    p.held.append(s);
    grew(p.held.capacity() - before);
  }
  void broker(const BrokerEvent& e) override {
    if (!time.contains(e.at.timestamp)) return;
    ++broker_events;
    if (table) brokers.add(output_times(report::broker_event_value(e), globals));
    const std::size_t before = held_brokers.capacity();
    held_brokers.append(e);
    grew(held_brokers.capacity() - before);
  }
  void orphan(std::string message) override { orphans.push_back(std::move(message)); }
  // Past the budget, everything held is let go.
  void grew(std::size_t bytes) {
    held += bytes;
    if (!holding || held <= held_bytes) return;
    holding = false;
    for (auto& [key, p] : partitions)
      p.held.discard();
    held_brokers.discard();
  }

  bool table;
  const TimeRange& time;
  std::size_t held_bytes;
  const Globals& globals;
  std::map<PartitionKey, Partition> partitions;
  std::size_t broker_events = 0;
  report::TableLayoutBuilder brokers;
  CompactBrokerEvents held_brokers;
  std::vector<std::string> orphans;
  report::HistoryTally tally;  // the verdict's facts
  bool holding = true;         // every step and event so far is held
  std::size_t held = 0;
};

// A later pass: the steps of one partition (`live`) written as they come, those of the
// next ones (`held_steps`) kept compactly until the pass ends; likewise the broker events,
// the last list.
struct HistoryPass : PartitionReplayVisitor {
  static constexpr std::size_t kBrokers = static_cast<std::size_t>(-1);
  HistoryPass(report::DocumentStream* stream, const std::map<PartitionKey, std::size_t>& keys,
              std::size_t live_item, const TimeRange& range, const Globals& g)
      : out(stream), order(keys), live(live_item), time(range), globals(g) {}
  void step(const PartitionTimeline& t, const PartitionStep& s) override {
    if (!time.contains(s.at.timestamp)) return;
    const auto it = order.find({t.topic_id.to_string(), t.partition});
    if (it == order.end()) return;
    if (it->second == live) {
      out->element(output_times(report::partition_step_value(s), globals));
    } else if (const auto h = held_steps.find(it->second); h != held_steps.end()) {
      h->second.append(s);
    }
  }
  void broker(const BrokerEvent& e) override {
    if (!time.contains(e.at.timestamp)) return;
    if (live == kBrokers) {
      out->element(output_times(report::broker_event_value(e), globals));
    } else if (hold_brokers) {
      held_brokers.append(e);
    }
  }
  void orphan(std::string) override {}

  report::DocumentStream* out;
  const std::map<PartitionKey, std::size_t>& order;
  std::size_t live;
  const TimeRange& time;
  const Globals& globals;
  std::map<std::size_t, CompactSteps> held_steps;
  bool hold_brokers = false;
  CompactBrokerEvents held_brokers;
};

}  // namespace

std::optional<std::string> nothing_selected(const PartitionHistoryFilter& filter,
                                            const TimeRange& time, std::size_t replayed,
                                            std::size_t shown, std::size_t broker_events) {
  if (replayed == 0 && (filter.topic || filter.partition))
    return std::string(
        "nothing selected: no partition of the log matches --topic/--partition (see "
        "`kepoch metadata history` without them for the partitions it holds)");
  if (time.any() && shown == 0 && broker_events == 0 && replayed > 0)
    return std::string(
        "nothing selected: no step and no broker event falls in the --from-time/--until "
        "range (the replay read the whole log; widen the range)");
  return std::nullopt;
}

bool write_metadata_history(const std::string& target, const MetadataReplayOptions& options,
                            const PartitionHistoryFilter& filter, const TimeRange& time,
                            const Globals& globals) {
  const MetadataReplayPlan plan = plan_metadata_replay(target, options);
  const bool table = globals.table_output();
  std::size_t held_bytes = kHistoryHeldBytes;
  if (const char* knob = std::getenv("KEPOCH_HISTORY_HELD_BYTES"))
    held_bytes = std::strtoull(knob, nullptr, 10);
  HistoryIndex index(table, time, held_bytes, globals);
  const MetadataReplaySummary summary = replay_pass(plan, filter, index, globals, false);
  auto problems = summary.problems;
  problems.insert(problems.end(), index.orphans.begin(), index.orphans.end());

  // The partitions in the report's order (PartitionHistory::timelines).
  std::vector<HistoryIndex::Partition*> partitions;
  for (auto& [key, p] : index.partitions)
    if (p.steps > 0 || !time.any()) partitions.push_back(&p);  // none in the range: left out
  if (auto none = nothing_selected(filter, time, index.partitions.size(), partitions.size(),
                                   index.broker_events))
    problems.push_back(*none);
  std::stable_sort(partitions.begin(), partitions.end(), [](const auto* a, const auto* b) {
    return timeline_order(a->timeline, b->timeline);
  });
  std::map<PartitionKey, std::size_t> order;
  for (std::size_t i = 0; i < partitions.size(); ++i)
    order[{partitions[i]->timeline.topic_id.to_string(), partitions[i]->timeline.partition}] = i;

  auto listed = [](bool any) {
    return any ? report::Value::array().push(report::Value::object()) : report::Value::array();
  };
  const report::Value files = report::strings_value(summary.files);
  const report::Value start = output_times(report::metadata_start_value(plan, summary), globals);
  const report::Value problem_list = report::metadata_problems(problems);
  const std::string sentence = index.tally.sentence(partitions.size(), problems);
  const auto out = make_output_document(globals, report::Value::object()
                                                     .set("summary", sentence)
                                                     .set("target", target)
                                                     .set("files", files)
                                                     .set("start", start)
                                                     .set("partitions", listed(!partitions.empty()))
                                                     .set("brokers", listed(index.broker_events))
                                                     .set("problems", problem_list));
  out->member("summary", sentence);
  out->member("target", target);
  out->member("files", files);
  out->member("start", start);
  out->begin_list("partitions", report::TableLayout{});

  auto begin_partition = [&](std::size_t i) {
    const auto* p = partitions[i];
    out->begin_element(
        output_times(report::partition_timeline_leading(p->timeline, p->last_led), globals),
        "steps", p->layout.layout());
  };
  bool in_brokers = false;
  auto begin_brokers = [&] {
    in_brokers = true;
    out->end_list();
    out->begin_list("brokers", index.brokers.layout());
  };
  // A held list written, then let go.
  auto write_partition = [&](std::size_t i, CompactSteps& steps) {
    begin_partition(i);
    PartitionStep s;
    for (CompactSteps::Reader r(steps); r.next(s);)
      out->element(output_times(report::partition_step_value(s), globals));
    out->end_element();
    steps = {};
  };
  auto write_brokers = [&](CompactBrokerEvents& events) {
    begin_brokers();
    BrokerEvent e;
    for (CompactBrokerEvents::Reader r(events); r.next(e);)
      out->element(output_times(report::broker_event_value(e), globals));
    events = {};
  };
  // Items in the report's order: the partitions, then the broker events (kBrokers).
  const std::size_t items = partitions.size() + (index.broker_events ? 1 : 0);
  if (index.holding) {  // all held by the first pass: no other
    for (std::size_t i = 0; i < partitions.size(); ++i)
      write_partition(i, partitions[i]->held);
    if (index.broker_events) write_brokers(index.held_brokers);
  }
  for (std::size_t i = index.holding ? items : 0; i < items;) {
    HistoryPass pass(out.get(), order, i < partitions.size() ? i : HistoryPass::kBrokers, time,
                     globals);
    // The next lists, while their compact form (its blocks, as the first pass counted them)
    // fits.
    std::size_t held = 0;
    std::size_t next = i + 1;
    for (; next < items; ++next) {
      const std::size_t n =
          next < partitions.size() ? partitions[next]->held.bytes() : index.held_brokers.bytes();
      if (held + n > held_bytes) break;
      held += n;
      if (next < partitions.size()) {
        pass.held_steps[next];
      } else {
        pass.hold_brokers = true;
      }
    }
    if (pass.live == HistoryPass::kBrokers) {
      begin_brokers();
    } else {
      begin_partition(i);
    }
    replay_pass(plan, filter, pass, globals, true);
    if (pass.live != HistoryPass::kBrokers) out->end_element();
    for (auto& [at, steps] : pass.held_steps)
      write_partition(at, steps);
    if (pass.hold_brokers) write_brokers(pass.held_brokers);
    i = next;
  }
  if (!in_brokers) begin_brokers();  // no broker event
  out->end_list();
  out->member("problems", problem_list);
  out->finish();
  return !problems.empty();
}

LoadedMetadata load_metadata_history(const std::string& target,
                                     const MetadataReplayOptions& options,
                                     PartitionHistoryFilter filter, const Globals& globals) {
  LoadedMetadata out{
      plan_metadata_replay(target, options), {}, PartitionHistory(std::move(filter))};
  std::vector<std::filesystem::path> files;
  if (out.plan.snapshot) files.push_back(out.plan.snapshot->path);
  if (out.plan.start.read_log)
    files.insert(files.end(), out.plan.segments.begin(), out.plan.segments.end());
  Progress progress(globals, "reading the metadata log", files);
  out.summary = replay_metadata(out.plan, [&](const MetadataLogEntry& e) {
    progress.at(e.file, e.batch_position);
    if (!e.record) return;
    // A snapshot's records stand for the state at its end offset, not for log offsets.
    const MetadataPosition at =
        e.snapshot ? MetadataPosition{-1, e.snapshot->last_contained_log_timestamp, e.snapshot->id}
                   : MetadataPosition{e.offset, e.timestamp, std::nullopt};
    out.history.apply(*e.record, at);
  });
  return out;
}

void refuse_other_cluster(const std::string& metadata_target,
                          const std::optional<std::string>& replicas_cluster_id,
                          const std::string& replicas_file) {
  const LogDirIdentity meta = metadata_identity(metadata_target);
  if (replicas_cluster_id && meta.cluster_id && *replicas_cluster_id != *meta.cluster_id)
    throw UsageError(fmt::format(
        "{} records cluster id {} but {} records cluster id {}: the metadata log of another "
        "cluster",
        meta.file, *meta.cluster_id, replicas_file, *replicas_cluster_id));
}

std::vector<std::string> metadata_problems(const LoadedMetadata& loaded) {
  auto problems = loaded.summary.problems;
  problems.insert(problems.end(), loaded.history.orphans().begin(), loaded.history.orphans().end());
  return problems;
}

}  // namespace kepoch::cli
