// kepoch logdir scan LOGDIR... [--all] [--jobs N]
// Every partition dir of broker log dirs verified as `partition verify` does, in parallel,
// plus the log dir's root checkpoint files; a summary per log dir.
// kepoch logdir snapshot LOGDIR... --file FILE [--window N]
// What diff and predict need of every partition replica, in one small file to copy off the
// machine (logdir_snapshot.hpp).

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/scan_report.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "kepoch/storage/remote_index_cache.hpp"
#include "kepoch/storage/tiered_view.hpp"
#include "output_file.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {

struct ScanOptions {
  std::vector<std::string> dirs;
  bool all = false;
  unsigned jobs = 0;
};

// JSON lines: one line per partition ({"dir": log dir, "partition": row}), then one line
// per log dir with its summary (the document's log dir object without partitions_report).
void emit_lines(const report::Value& value) {
  auto stream = report::make_stream(report::Format::jsonl, std::cout, std::cerr, {});
  for (const auto& dir : value.find("log_dirs")->as_array()) {
    report::Value fields = report::Value::object();
    for (const auto& [k, v] : dir.as_object())
      if (k != "partitions_report") fields.set(k, v);
    stream->begin_item(fields, "partitions");
    if (const report::Value* rows = dir.find("partitions_report")) {
      for (const auto& row : rows->as_array())
        stream->element(row);
    }
    stream->end_item(report::Value::object());
  }
  stream->finish();
}

int run_scan(const ScanOptions& o, const Globals& globals) {
  std::vector<std::filesystem::path> dirs(o.dirs.begin(), o.dirs.end());
  LogDirScanOptions options;
  options.jobs = o.jobs;
  StepProgress progress(globals, "logdir scan");
  if (progress.enabled()) {
    options.progress = [&progress](std::size_t done, std::size_t total) {
      progress.count(done, total, "partition dirs verified");
    };
  }
  std::vector<LogDirScan> scans = scan_log_dirs(dirs, options);
  progress.done();
  // Tiered storage: each log dir's __remote_log_metadata partitions replayed; a record that
  // does not decode is an error of the log dir.
  // The remote index cache, cross-checked against that view; a name or index that stops
  // the broker at start-up is an error of the log dir.
  std::vector<TieredLogDirView> tiered;
  std::vector<std::optional<RemoteIndexCacheView>> caches;
  for (auto& s : scans) {
    tiered.push_back(s.unreadable ? TieredLogDirView{} : read_tiered_view(s));
    for (const auto& p : tiered.back().problems)
      s.problems.push_back(p);
    caches.push_back(s.unreadable ? std::nullopt : read_log_dir_index_cache(s, tiered.back()));
    if (caches.back())
      for (auto& p : remote_index_cache_problems(*caches.back()))
        s.problems.push_back(std::move(p));
  }

  int code = kOk;
  bool any_readable = false;
  std::size_t unreadable = 0;
  for (const auto& s : scans) {
    if (s.unreadable) {
      print_error(*s.unreadable, globals);
      code = std::max(code, static_cast<int>(kInput));
      ++unreadable;
      continue;
    }
    any_readable = true;
    if (s.has_errors()) code = std::max(code, static_cast<int>(kFindings));
  }
  if (!any_readable) return code;
  report::Value value =
      report::scan_value(scans, o.all, globals.output == OutputFormat::table, &tiered, &caches);
  value = report::with_summary(value, report::scan_summary(value, unreadable));
  if (globals.output == OutputFormat::jsonl) {
    emit_lines(value);
  } else {
    emit(value, globals);
  }
  return code;
}

struct SnapshotCommandOptions {
  std::vector<std::string> dirs;
  std::string file;
  std::uint32_t window = kDefaultSnapshotWindow;
};

report::Value snapshot_value(const std::string& file, const std::vector<std::string>& dirs,
                             const SnapshotSummary& s) {
  report::Value skipped = report::Value::array();
  for (const auto& k : s.skipped)
    skipped.push(report::Value::object()
                     .set("dir", k.dir)
                     .set("reason", k.reason)
                     .set("unreadable", k.unreadable));
  report::Value log_dirs = report::Value::array();
  for (const auto& d : dirs)
    log_dirs.push(d);
  report::Value value = report::Value::object()
                            .set("file", file)
                            .set("broker", s.node_id ? report::Value(*s.node_id) : report::Value())
                            .set("log_dirs", std::move(log_dirs))
                            .set("replicas", s.replicas)
                            .set("batches", s.batches)
                            .set("kept_batches", s.kept_batches)
                            .set("skipped", std::move(skipped));
  std::string sentence = report::logdir_snapshot_summary(value);
  return report::with_summary(std::move(value), std::move(sentence));
}

int run_snapshot(const SnapshotCommandOptions& o, const Globals& globals) {
  const std::vector<std::filesystem::path> dirs(o.dirs.begin(), o.dirs.end());
  const SnapshotOptions options{o.window};
  StepProgress progress(globals, "logdir snapshot", /*streaming_output=*/o.file == "-");
  std::string label = "snapshotting";
  for (const auto& d : o.dirs)
    label += " " + d;
  progress.step(0, 0, label);
  check_log_dirs_distinct(dirs);
  // A replica that could not be read is left out of the snapshot: written, but not the whole
  // broker, so never exit 0 (a script gathering snapshots must not take it for complete).
  const auto left_out = [&globals](const SnapshotSummary& summary) {
    int code = kOk;
    for (const auto& k : summary.skipped) {
      if (!k.unreadable) continue;
      if (!globals.quiet)
        print_error(k.reason + " (" + k.dir + " left out of the snapshot)", globals);
      code = kFindings;
    }
    return code;
  };
  if (o.file == "-") {
    const SnapshotSummary summary = write_logdir_snapshot(std::cout, dirs, options);
    progress.done();
    std::cout.flush();
    return std::cout ? left_out(summary) : kInput;
  }
  for (const auto& d : dirs) {  // unreadable or wrong dirs fail before the file is created
    std::vector<SnapshotSkip> skipped;
    partition_dirs_of_log_dir(d, skipped);
  }
  // Where the snapshot may go: output_file.hpp (never an input, never inside a log dir).
  check_output("--file", o.file, OutputKind::logdir_snapshot, o.dirs);
  SnapshotSummary summary;
  write_output("--file", o.file, OutputKind::logdir_snapshot, o.dirs, "snapshot file",
               [&](std::ostream& out) { summary = write_logdir_snapshot(out, dirs, options); });
  progress.done();
  emit(snapshot_value(o.file, o.dirs, summary), globals);
  return left_out(summary);
}

}  // namespace

void register_logdir(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand("logdir", "Look at whole broker log dirs, or snapshot them");
  group->require_subcommand(1);
  static ScanOptions o;
  CLI::App* scan = group->add_subcommand(
      "scan", "Verify every partition dir of broker log dirs in parallel; summary per log dir");
  scan->add_option("dirs", o.dirs, "Broker log dirs (log.dirs entries)")
      ->required()
      ->type_name("LOGDIR");
  scan->add_flag("--all", o.all, "List every partition, not only those with problems");
  scan->add_option("-j,--jobs", o.jobs, "Partitions verified at once (default: all cores)")
      ->check(CLI::Range(1u, 1024u))
      ->type_name("N");
  scan->footer(
      "Examples:\n"
      "  kepoch logdir scan /var/lib/kafka/data\n"
      "  kepoch logdir scan --all -o json /data/kafka-1 /data/kafka-2\n"
      "  kepoch logdir scan -o json /var/lib/kafka/data  # a tiered topic: each remote segment's "
      "retention_fate\n"
      "\nEach partition dir (topic-partition, and the -delete/-future/-stray forms) is checked\n"
      "as `partition verify` does; __cluster_metadata-0 is included (the KRaft metadata log),\n"
      "remote-log-index-cache is no partition (read as the remote index cache, below). Any\n"
      "other dir (lost+found, t-abc) is an\n"
      "error: Kafka's LogManager refuses its name and the broker does not start. A partition\n"
      "dir that is a symbolic link to the log dir or above is a warning. The root checkpoint\n"
      "files are validated too. A partition dir given instead of a log dir is refused (exit 3).\n"
      "Per log dir: partitions, those with errors or warnings, segments, bytes, batches,\n"
      "checkpoints_valid; partitions_report lists the partitions with problems (--all: every\n"
      "one). A progress bar is drawn on stderr when it is a terminal.\n"
      "A log dir holding __remote_log_metadata partitions (tiered storage) gets a tiered\n"
      "section: each tiered partition's remote segments, lineage findings, and per segment\n"
      "its retention_fate, what the leader's remote retention does to it (retention,\n"
      "log_start, delete_retried, epoch_cache_truncation, awaits_truncation, leaked).\n"
      "remote-log-index-cache (tiered storage's RemoteIndexCache) gets a remote_index_cache\n"
      "section: per cached entry (<offset>_<segment id>.index|.timeindex|.txnindex, .deleted,\n"
      ".tmp) its state, at_startup (what RemoteIndexCache.init does: loaded, deleted, left,\n"
      "broker_fails) and metadata (its segment in __remote_log_metadata: live, deleted, unknown,\n"
      "...). A name init cannot read or a corrupt cached index stops the broker: an error.\n"
      "Exit status: 0 no errors, 1 error findings, 3 a log dir cannot be read.");
  scan->callback([&globals] { globals.exit_code = run_scan(o, globals); });

  static SnapshotCommandOptions so;
  CLI::App* snap = group->add_subcommand(
      "snapshot", "Write what diff and predict need of every replica in log dirs to one file");
  snap->add_option("dirs", so.dirs, "One broker's log dirs (log.dirs entries)")
      ->required()
      ->type_name("LOGDIR");
  snap->add_option("--file", so.file, "Where to write the snapshot (- for stdout)")
      ->required()
      ->type_name("FILE");
  snap->add_option("--window", so.window,
                   "Batches kept before and after each epoch boundary and the high watermark")
      ->check(CLI::Range(1u, 1u << 20))
      ->default_str(std::to_string(kDefaultSnapshotWindow))
      ->type_name("N");
  snap->footer(
      "Examples:\n"
      "  kepoch logdir snapshot /var/lib/kafka/data --file /tmp/broker-1.snap\n"
      "  kepoch diff broker-1.snap broker-2.snap broker-3.snap     # on another machine\n"
      "\nFor every partition replica (as `diff` and `predict` load it): the epoch caches,\n"
      "checkpoint entries, log start/end, high watermark, recovery point, segments, and the\n"
      "batch headers (offsets, records, size, CRC, epoch) in windows: N batches around each\n"
      "epoch start offset, the log start, the recovery point and the high watermark, and the\n"
      "tail from the high watermark to the log end (at most 64*N batches), each with the\n"
      "records and bytes before it and a digest of the batches before it. `diff` and `predict`\n"
      "take the file (or FILE:TOPIC-PARTITION) where they take replica dirs and say what its\n"
      "windows cannot answer. The format is JSON Lines, first line\n"
      "{\"format\": \"kepoch-logdir-snapshot\", \"version\": 1, ...}.\n"
      "Nothing is created in the log dirs; --file may not point inside one.\n"
      "Exit status: 0 written, 1 written but a replica could not be read (left out, one line\n"
      "each on stderr), 2 usage (--file inside a log dir), 3 a log dir cannot be read.");
  snap->callback([&globals] { globals.exit_code = run_snapshot(so, globals); });
}

}  // namespace kepoch::cli
