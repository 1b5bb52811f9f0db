// kepoch metadata dump|history TARGET
// The KRaft metadata log (__cluster_metadata-0) read offline: every record decoded
// (dump, streamed), or each partition's history replayed the way brokers apply it
// (PartitionRegistration.merge), with broker registrations and fencing alongside.

#include <algorithm>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/metadata_report.hpp"
#include "kepoch/storage/metadata_log.hpp"

namespace kepoch::cli {
namespace {

struct MetadataOptions {
  std::string target;
  std::optional<std::string> topic;
  std::optional<std::int32_t> partition;
};

report::Value target_fields(const std::string& target, const MetadataLogSummary& s) {
  return report::Value::object().set("target", target).set("files", report::strings_value(s.files));
}

int run_dump(const MetadataOptions& o, const Globals& globals) {
  const auto files = metadata_log_files(o.target);  // throws before any output
  auto stream = make_output_stream(globals);
  report::Value fields =
      report::Value::object().set("target", o.target).set("files", report::strings_value([&] {
                                                            std::vector<std::string> names;
                                                            for (const auto& f : files)
                                                              names.push_back(f.string());
                                                            return names;
                                                          }()));
  stream->begin_item(fields, "records", report::metadata_entry_table_columns());
  const auto summary = read_metadata_log(
      files, [&](const MetadataLogEntry& e) { stream->element(report::metadata_entry_value(e)); });
  stream->end_item(report::Value::object()
                       .set("record_count", summary.records)
                       .set("problems", report::metadata_problems(summary.problems)));
  stream->finish();
  return summary.problems.empty() ? kOk : kFindings;
}

int run_history(const MetadataOptions& o, const Globals& globals) {
  const auto files = metadata_log_files(o.target);
  PartitionHistory history(PartitionHistoryFilter{o.topic, o.partition});
  const auto summary = read_metadata_log(files, [&](const MetadataLogEntry& e) {
    if (e.record) history.apply(*e.record, MetadataPosition{e.offset, e.timestamp});
  });
  report::Value partitions = report::Value::array();
  for (const auto* t : history.timelines())
    partitions.push(report::partition_timeline_value(*t));
  report::Value brokers = report::Value::array();
  for (const auto& b : history.broker_events())
    brokers.push(report::broker_event_value(b));
  auto problems = summary.problems;
  problems.insert(problems.end(), history.orphans().begin(), history.orphans().end());
  emit(target_fields(o.target, summary)
           .set("partitions", std::move(partitions))
           .set("brokers", std::move(brokers))
           .set("problems", report::metadata_problems(problems)),
       globals);
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
  dump->footer(
      "Examples:\n"
      "  kepoch metadata dump /var/lib/kafka/meta/__cluster_metadata-0\n"
      "  kepoch metadata dump -o jsonl /var/lib/kafka/meta | grep PARTITION_CHANGE\n"
      "\nEach record: offset, timestamp, leader_epoch (the Raft epoch of the batch), type\n"
      "(Kafka's MetadataRecordType name, UNKNOWN(n), or control:<type>), version, and the\n"
      "fields of the types kepoch decodes (topics, partitions and their changes, broker\n"
      "registrations and fencing, feature levels); other types and newer versions are named\n"
      "only. Exit status: 0, 1 a record or batch that cannot be decoded, 3 unreadable target.");
  dump->callback([&globals] { globals.exit_code = run_dump(o, globals); });

  CLI::App* hist =
      group->add_subcommand("history", "Each partition's leaders, epochs and ISR over time");
  hist->add_option("target", o.target, target_help)->required()->type_name("DIR|FILE");
  hist->add_option("--topic", o.topic, "Only this topic (name, or topic id)")->type_name("TOPIC");
  hist->add_option("--partition", o.partition, "Only this partition number")->type_name("N");
  hist->footer(
      "Examples:\n"
      "  kepoch metadata history /var/lib/kafka/meta --topic orders --partition 0\n"
      "  kepoch metadata history -o json /var/lib/kafka/meta/__cluster_metadata-0\n"
      "\nReplays PartitionRecord and each PartitionChangeRecord in offset order as Kafka's\n"
      "PartitionRegistration.merge does: a Leader field bumps the leader epoch by one,\n"
      "every change bumps the partition epoch, absent fields keep their value. Each step\n"
      "names its causes: created, leader_change, leader_lost, unclean_election,\n"
      "leader_epoch_bump, recovered, isr_shrink, isr_expand, isr_change, elr_change,\n"
      "reassignment, directories, deleted. Broker registrations, fencing and controlled\n"
      "shutdowns are listed alongside. Exit status: 0, 1 undecodable records or change\n"
      "records of an unknown partition, 3 unreadable target.");
  hist->callback([&globals] { globals.exit_code = run_history(o, globals); });
}

}  // namespace kepoch::cli
