// kepoch logdir scan LOGDIR... [--all] [--jobs N]
// Every partition dir of broker log dirs verified as `partition verify` does, in parallel,
// plus the log dir's root checkpoint files; a summary per log dir.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/report/scan_report.hpp"
#include "kepoch/storage/logdir_scan.hpp"

namespace kepoch::cli {
namespace {

struct ScanOptions {
  std::vector<std::string> dirs;
  bool all = false;
  unsigned jobs = 0;
};

// A one-line bar redrawn in place on stderr; only used when stderr is a terminal.
class ProgressBar {
 public:
  void update(std::size_t done, std::size_t total) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (total == 0) return;
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = done * kWidth / total;
    std::string bar(filled, '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\rscanning [%s] %zu/%zu partitions", bar.c_str(), done, total);
    std::fflush(stderr);
    drawn_ = true;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!drawn_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  std::mutex mutex_;
  bool drawn_ = false;
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
  ProgressBar bar;
  if (::isatty(STDERR_FILENO) == 1) {
    options.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
  }
  const std::vector<LogDirScan> scans = scan_log_dirs(dirs, options);
  bar.clear();

  int code = kOk;
  bool any_readable = false;
  for (const auto& s : scans) {
    if (s.unreadable) {
      print_error(*s.unreadable, globals);
      code = std::max(code, static_cast<int>(kInput));
      continue;
    }
    any_readable = true;
    if (s.has_errors()) code = std::max(code, static_cast<int>(kFindings));
  }
  if (!any_readable) return code;
  const report::Value value = report::scan_value(scans, o.all, globals.output == "table");
  if (globals.output == "jsonl") {
    emit_lines(value);
  } else {
    emit(value, globals);
  }
  return code;
}

}  // namespace

void register_logdir(CLI::App& app, Globals& globals) {
  CLI::App* group = app.add_subcommand("logdir", "Look at whole broker log dirs");
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
      "\nEach partition dir (topic-partition, and the -delete/-future/-stray forms) is checked\n"
      "as `partition verify` does; __cluster_metadata-0 is included (the KRaft metadata log);\n"
      "other dirs are skipped with a note. The root checkpoint files are validated too.\n"
      "Per log dir: partitions, those with errors or warnings, segments, bytes, batches,\n"
      "checkpoints_valid; partitions_report lists the partitions with problems (--all: every\n"
      "one). A progress bar is drawn on stderr when it is a terminal.\n"
      "Exit status: 0 no errors, 1 error findings, 3 a log dir cannot be read.");
  scan->callback([&globals] { globals.exit_code = run_scan(o, globals); });
}

}  // namespace kepoch::cli
