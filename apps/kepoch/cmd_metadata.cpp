// kepoch metadata dump|history TARGET
// The KRaft metadata log (__cluster_metadata-0) read offline: every record decoded
// (dump, streamed), or each partition's history replayed the way brokers apply it
// (PartitionRegistration.merge), from the snapshot a cleaned log needs
// (storage/metadata_replay.hpp), with broker registrations and fencing alongside.

#include <algorithm>
#include <limits>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "html_output.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/html_page.hpp"
#include "kepoch/report/metadata_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/metadata_log.hpp"
#include "metadata_source.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {

struct MetadataOptions {
  std::string target;
  std::optional<std::string> topic;
  std::optional<std::int32_t> partition;
  std::optional<std::string> snapshot;
  bool no_snapshot = false;
  std::optional<std::string> html;  // history only
  TimeRangeOptions time;
};

int run_dump(const MetadataOptions& o, const Globals& globals) {
  const TimeRange time = time_range(o.time, globals);
  const auto files = metadata_log_files(o.target);  // throws before any output
  // The verdict opens the dump, so the log is walked twice: first for its facts, then
  // written (as `segment dump` does a .log).
  report::MetadataDumpFacts facts;
  facts.filtered = time.any();
  facts.snapshot = files.size() == 1 && files.front().extension() == ".checkpoint";
  MetadataLogSummary opening;
  {
    Progress progress(globals, "reading the metadata log", files);
    opening = read_metadata_log(files, [&](const MetadataLogEntry& e) {
      progress.at(e.file, e.batch_position);
      ++facts.read;
      if (!time.contains(e.timestamp)) return;
      facts.add(e.offset, e.timestamp, e.batch_leader_epoch, !e.error.has_value());
    });
    progress.done();
  }
  // A range that selects none of the records read is an answer with nothing in it: said,
  // and not exit 0.
  const auto nothing_selected = [&](MetadataLogSummary& summary, std::uint64_t shown) {
    if (time.any() && shown == 0 && summary.records > 0)
      summary.problems.push_back(
          "nothing selected: no record falls in the --from-time/--until range");
  };
  nothing_selected(opening, facts.selected);
  auto stream = make_output_stream(globals);
  report::Value fields =
      report::Value::object()
          .set("summary", report::metadata_dump_summary(o.target, facts, opening.problems))
          .set("target", o.target)
          .set("files", report::strings_value([&] {
                 std::vector<std::string> names;
                 for (const auto& f : files)
                   names.push_back(f.string());
                 return names;
               }()));
  stream->begin_item(fields, "records", report::metadata_entry_table_columns());
  stream->min_column_width("type", report::metadata_type_width());
  Progress progress(globals, "reading the metadata log", files, /*streaming_output=*/true);
  report::TopicNames names;  // for the summaries of partition records
  std::uint64_t shown = 0;
  auto summary = read_metadata_log(files, [&](const MetadataLogEntry& e) {
    progress.at(e.file, e.batch_position);
    if (e.record)
      if (const auto* t = std::get_if<TopicRecord>(&e.record->body))
        names[t->topic_id.to_string()] = t->name;
    if (!time.contains(e.timestamp)) return;
    ++shown;
    stream->element(report::metadata_entry_value(e, names));
  });
  progress.done();
  nothing_selected(summary, shown);
  stream->end_item(report::Value::object()
                       .set("record_count", summary.records)
                       .set("problems", report::metadata_problems(summary.problems)));
  stream->finish();
  // The opening's exit code, the one its sentence states (a log a controller appends to
  // meanwhile may list more).
  return opening.problems.empty() ? kOk : kFindings;
}

int run_history(const MetadataOptions& o, const Globals& globals) {
  const TimeRange time = time_range(o.time, globals);
  MetadataReplayOptions replay;
  if (o.snapshot) replay.snapshot = *o.snapshot;
  replay.no_snapshot = o.no_snapshot;
  // Written as it is replayed, in memory bounded by the partition count, except where the
  // whole report is needed at once: the HTML page is drawn from it, and a table cut at
  // --limit rows (on a terminal by default) is laid out from the rows it shows.
  if (!o.html && !table_rows_limited(globals))
    return write_metadata_history(o.target, replay, PartitionHistoryFilter{o.topic, o.partition},
                                  time, globals)
               ? kFindings
               : kOk;
  if (o.html) {
    std::vector<std::string> inputs{o.target};
    if (o.snapshot) inputs.push_back(*o.snapshot);
    refuse_html_in_log_dir(*o.html, inputs);
  }
  const LoadedMetadata loaded = load_metadata_history(
      o.target, replay, PartitionHistoryFilter{o.topic, o.partition}, globals);
  report::Value partitions = report::Value::array();
  report::HistoryTally tally;
  for (const auto* t : loaded.history.timelines())
    for (const auto& s : t->steps)
      tally.step(*t, s, time.contains(s.at.timestamp));
  // The whole log is replayed (a step's state needs every record before it); the time range
  // chooses which steps and events are shown.
  for (const auto* t : loaded.history.timelines()) {
    report::Value timeline = report::partition_timeline_value(*t, time);
    if (!time.any() || !timeline.find("steps")->as_array().empty())
      partitions.push(std::move(timeline));
  }
  report::Value brokers = report::Value::array();
  for (const auto& b : loaded.history.broker_events())
    if (time.contains(b.at.timestamp)) brokers.push(report::broker_event_value(b));
  auto problems = metadata_problems(loaded);
  if (auto none = nothing_selected(PartitionHistoryFilter{o.topic, o.partition}, time,
                                   loaded.history.timelines().size(), partitions.as_array().size(),
                                   brokers.as_array().size()))
    problems.push_back(*none);
  report::Value value = report::Value::object()
                            .set("summary", tally.sentence(partitions.as_array().size(), problems))
                            .set("target", o.target)
                            .set("files", report::strings_value(loaded.summary.files))
                            .set("start", report::metadata_start_value(loaded.plan, loaded.summary))
                            .set("partitions", std::move(partitions))
                            .set("brokers", std::move(brokers))
                            .set("problems", report::metadata_problems(problems));
  // The picture from the very Value the output renders (html_page.hpp).
  if (o.html) write_html(*o.html, report::history_page(value));
  emit(value, globals);
  return problems.empty() ? kOk : kFindings;
}

}  // namespace

void register_metadata(CLI::App& app, Globals& globals) {
  CLI::App* group =
      app.add_subcommand("metadata", "Read a KRaft metadata log (__cluster_metadata-0) offline");
  group->require_subcommand(1);
  static MetadataOptions o;
  const char* target_help =
      "A __cluster_metadata-0 directory, a log dir holding one, or one .log or .checkpoint file";

  CLI::App* dump = group->add_subcommand("dump", "Print every metadata record, decoded");
  dump->add_option("target", o.target, target_help)->required()->type_name("DIR|FILE");
  add_time_range_options(dump, o.time, "records whose timestamp is",
                         "A record without one is left out by either flag.");
  dump->footer(
      "Examples:\n"
      "  kepoch metadata dump /var/lib/kafka/meta/__cluster_metadata-0\n"
      "  kepoch metadata dump -o jsonl /var/lib/kafka/meta | grep PARTITION_CHANGE\n"
      "  kepoch metadata dump --from-time '2026-11-29 08:28' --until 2026-11-29T08:29Z meta\n"
      "\nEach record: offset, timestamp, leader_epoch (the Raft epoch of the batch), type\n"
      "(Kafka's MetadataRecordType name, UNKNOWN(n), or control:<type>), version, and the\n"
      "fields of the types kepoch decodes (topics, partitions and their changes, broker\n"
      "registrations and fencing, feature levels); other types and newer versions are named\n"
      "only. The table shows one row per record: offset, type and `summary`, the key fields\n"
      "on one line. A directory's .log segments are read; name a .checkpoint file to dump a\n"
      "snapshot. Exit status: 0, 1 a record or batch that cannot be decoded, or a time range\n"
      "that selects no record, 3 unreadable target.");
  dump->callback([&globals] { globals.exit_code = run_dump(o, globals); });

  CLI::App* hist =
      group->add_subcommand("history", "Each partition's leaders, epochs and ISR over time");
  hist->add_option("target", o.target, target_help)->required()->type_name("DIR|FILE");
  hist->add_option("--topic", o.topic, "Only this topic (name, or topic id)")->type_name("TOPIC");
  hist->add_option("--partition", o.partition, "Only this partition number")
      ->type_name("N")
      ->check(CLI::Range(std::int32_t{0}, std::numeric_limits<std::int32_t>::max()));
  auto* snap = hist->add_option("--snapshot", o.snapshot,
                                "Start from this snapshot (<end offset>-<epoch>.checkpoint), then "
                                "the log from its end offset")
                   ->type_name("FILE");
  hist->add_flag("--no-snapshot", o.no_snapshot,
                 "Replay the log segments alone, from the log start, without a snapshot")
      ->excludes(snap);
  add_html_option(hist, o.html);
  add_time_range_options(hist, o.time, "steps and broker events whose timestamp is",
                         "The replay still reads the whole log; a partition with no step in "
                         "the range is left out.");
  hist->footer(
      "Examples:\n"
      "  kepoch metadata history /var/lib/kafka/meta --topic orders --partition 0\n"
      "  kepoch metadata history -o json /var/lib/kafka/meta/__cluster_metadata-0\n"
      "  kepoch metadata history --local --from-time 2026-11-29T08:28 /var/lib/kafka/meta\n"
      "  kepoch metadata history /var/lib/kafka/meta --snapshot "
      "00000000000000000340-0000000001.checkpoint\n"
      "  kepoch metadata history --html history.html /var/lib/kafka/meta --topic orders\n"
      "\nReplays PartitionRecord and each PartitionChangeRecord in offset order as Kafka's\n"
      "PartitionRegistration.merge does: a Leader field bumps the leader epoch by one,\n"
      "every change bumps the partition epoch, absent fields keep their value. Each step\n"
      "names its causes: created, leader_change, leader_lost, unclean_election,\n"
      "leader_epoch_bump, recovered, isr_shrink, isr_expand, isr_change, elr_change,\n"
      "reassignment, directories, deleted. Broker registrations, fencing and controlled\n"
      "shutdowns are listed alongside.\n"
      "\nWhere it starts (`start`): a log that still begins at offset 0 is replayed whole.\n"
      "Once Kafka has cleaned the log (its first segments deleted after a snapshot), the\n"
      "replay starts from the oldest snapshot (<end offset>-<epoch>.checkpoint) that reaches\n"
      "the log start, then the log from the snapshot's end offset; if Kafka would discard\n"
      "the log for a newer snapshot (KafkaMetadataLog.truncateToLatestSnapshot), from that\n"
      "snapshot alone. Partitions and brokers the snapshot restates are steps and events\n"
      "`as_of_snapshot` (offset null, `snapshot` its id), not changes.\n"
      "--html FILE also draws it: one swimlane per partition along the metadata offsets\n"
      "(leader and epoch per registration, ISR shrink and expand ticks), one per broker\n"
      "(fenced or not).\n"
      "Exit status: 0, 1 undecodable records, change records of a partition no\n"
      "PartitionRecord created, a cleaned log no snapshot covers, or nothing selected (no\n"
      "partition matches --topic/--partition, no step falls in the time range), 3\n"
      "unreadable target or damaged snapshot.");
  hist->callback([&globals] { globals.exit_code = run_history(o, globals); });
}

}  // namespace kepoch::cli
