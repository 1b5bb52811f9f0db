// kepoch replay ARCHIVE -b HOST:PORT
// The records of a salvage archive produced back (forecast/replay), resumable.

#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "cluster_options.hpp"
#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/forecast/replay.hpp"
#include "kepoch/report/summary.hpp"
#include "output_file.hpp"
#include "progress.hpp"

namespace kepoch::cli {
namespace {

struct ReplayOptions {
  std::string archive;
  forecast::ReplaySelection selection;
  bool dry_run = false;
  std::string progress;  // default: ARCHIVE.progress
  bool from_start = false;
};

std::atomic<bool> g_stop{false};
void on_stop(int) {
  g_stop.store(true);
}

std::string what_changes() {
  return "replayed records are new records: they are appended after every record written "
         "since the truncation, at new offsets, with a new producer id and sequence, and carry "
         "the header kepoch.salvaged.from naming their old offset and leader epoch; a consumer "
         "reads them as new data in their original order, a consumer group whose offsets are "
         "past them reads them now, and one that had read them before the truncation reads "
         "them a second time";
}

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path, not_file_or_dir_text(path));
  if (S_ISDIR(st.st_mode))
    throw InputError(path, "is a directory, expected the archive file `kepoch salvage` wrote");
  if (!S_ISREG(st.st_mode))
    throw InputError(path, fmt::format("not a regular file ({}): give the archive file `kepoch "
                                       "salvage` wrote",
                                       file_type_text(st.st_mode)));
  return static_cast<std::uint64_t>(st.st_size);
}

std::string verdict(const forecast::ReplayCounts& c, const std::string& target,
                    const std::string& progress) {
  const std::uint64_t skipped =
      c.skipped_control + c.skipped_aborted + c.skipped_open + c.skipped_present;
  const std::string skips =
      skipped == 0
          ? std::string()
          : fmt::format(
                " ({} skipped: {} control, {} aborted, {} open, {} on the new "
                "leader already)",
                skipped, c.skipped_control, c.skipped_aborted, c.skipped_open, c.skipped_present);
  if (c.dry_run)
    return fmt::format("Dry run: {} record{} would be replayed to {}{}; nothing was produced.",
                       c.selected, c.selected == 1 ? "" : "s", target, skips);
  if (c.failed > 0)
    return fmt::format(
        "{} record{} could not be delivered to {} ({} delivered); {} says where a new run "
        "resumes.",
        c.failed, c.failed == 1 ? "" : "s", target, c.delivered, progress);
  if (c.interrupted)
    return fmt::format(
        "Interrupted: {} record{} delivered to {}, {} of {} archive records done; run the "
        "same command again to resume (nothing delivered is produced twice).",
        c.delivered, c.delivered == 1 ? "" : "s", target, c.done, c.records);
  return fmt::format(
      "Every record to replay was delivered: {} to {}{}{}.", c.delivered, target, skips,
      c.resumed_past ? fmt::format(", resuming after record {}", c.resumed_past) : std::string());
}

int run(const ConnectionOptions& conn, ReplayOptions o, const Globals& globals) {
  if (o.progress.empty()) o.progress = o.archive + ".progress";
  const std::uint64_t archive_bytes = file_size(o.archive);
  const std::vector<std::string> inputs{o.archive};
  if (!o.dry_run) check_output("--progress", o.progress, OutputKind::replay_progress, inputs);
  const std::string target_topic = o.selection.to_topic.value_or("");
  std::uint64_t resume_from = 0;
  if (!o.from_start && !o.dry_run) {
    // A progress file that is there but cannot be read is an error, never "none": replaying
    // from the start would produce every delivered record a second time.
    struct stat st {};
    if (::stat(o.progress.c_str(), &st) == 0) {
      std::ifstream in(o.progress, std::ios::binary);
      if (!in)
        throw InputError(o.progress, fmt::format("cannot be opened: {} (--from-start ignores it)",
                                                 std::strerror(errno)));
      const forecast::ArchiveReplayProgress p = forecast::read_replay_progress(in, o.progress);
      if (p.archive_bytes != archive_bytes)
        throw UsageError(fmt::format(
            "{} is the progress of another archive ({} bytes, this one {}); --from-start "
            "replays this one from its first record",
            o.progress, p.archive_bytes, archive_bytes));
      if (p.target != target_topic)
        throw UsageError(
            fmt::format("{} is the progress of a replay to {}; give the same "
                        "target, or --from-start",
                        o.progress, p.target.empty() ? "the records' own topics" : p.target));
      resume_from = p.done;
    }
  }
  const auto open_archive = [&o] {
    std::ifstream in(o.archive, std::ios::binary);
    if (!in) throw InputError(o.archive, fmt::format("cannot be opened: {}", std::strerror(errno)));
    return in;
  };
  // Ctrl-C from here on stops the run cleanly (a stop during the check below: nothing is
  // produced, the archive is read on and counted).
  struct sigaction action {};
  action.sa_handler = on_stop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::ifstream archive = open_archive();
  std::uint64_t largest_record_bytes = 0;
  if (!o.dry_run) {
    // The whole archive is read before anything is produced: a copy cut short or a damaged
    // line is refused with nothing sent, not after part of the archive was.
    const forecast::ArchiveCheck check = forecast::check_archive(archive, o.archive);
    const std::uint64_t records = check.records;
    largest_record_bytes = check.largest_record_bytes;
    if (resume_from > records)
      throw InputError(o.progress,
                       fmt::format("says {} records are done, the archive holds {}: the "
                                   "progress of another archive (--from-start ignores it)",
                                   resume_from, records));
    archive = open_archive();
  }
  std::optional<cluster::ConnectionSettings> settings;
  if (!o.dry_run) settings = settings_from(conn);
  StepProgress progress(globals, "replay");
  const auto write_progress = [&](std::uint64_t done, bool complete) {
    forecast::ArchiveReplayProgress p{o.archive, archive_bytes, target_topic, done, complete};
    write_output("--progress", o.progress, OutputKind::replay_progress, inputs,
                 "replay progress file",
                 [&p](std::ostream& out) { forecast::write_replay_progress(out, p); });
  };
  const forecast::ReplayCounts c = forecast::replay_archive(
      archive, o.archive, o.selection, resume_from, settings ? &*settings : nullptr,
      largest_record_bytes,
      [&](std::uint64_t done) {
        if (!o.dry_run) write_progress(done, false);
      },
      [&](std::uint64_t delivered) { progress.count(delivered, 0, "records delivered"); }, g_stop);
  if (resume_from > c.records)  // nothing was produced: every record counted as done before
    throw InputError(o.progress,
                     fmt::format("says {} records are done, the archive holds {}: the progress "
                                 "of another archive (--from-start ignores it)",
                                 resume_from, c.records));
  if (!o.dry_run) write_progress(c.done, c.done == c.records);
  progress.done();
  const std::string target =
      o.selection.to_topic ? "topic " + *o.selection.to_topic : "their own topics and partitions";
  report::Value errors = report::Value::array();
  for (const auto& e : c.errors)
    errors.push(e);
  report::Value value =
      report::Value::object()
          .set("archive", o.archive)
          .set("target", target_topic.empty() ? report::Value() : report::Value(target_topic))
          .set("dry_run", c.dry_run)
          .set("records", c.records)
          .set("resumed_past", c.resumed_past)
          .set("selected", c.selected)
          .set("delivered", c.delivered)
          .set("failed", c.failed)
          .set("skipped", report::Value::object()
                              .set("control", c.skipped_control)
                              .set("aborted", c.skipped_aborted)
                              .set("open", c.skipped_open)
                              .set("on_new_leader", c.skipped_present))
          .set("done", c.done)
          .set("interrupted", c.interrupted)
          .set("progress_file", o.dry_run ? report::Value() : report::Value(o.progress))
          .set("errors", std::move(errors))
          .set("what_changes_for_consumers", what_changes());
  emit(report::with_summary(std::move(value), verdict(c, target, o.progress)), globals);
  if (c.failed > 0) return kCluster;
  if (c.interrupted) return kFindings;
  return kOk;
}

}  // namespace

void register_replay(CLI::App& app, Globals& globals) {
  static ConnectionOptions c;
  static ReplayOptions o;
  CLI::App* cmd = app.add_subcommand(
      "replay", "Produce the records of a salvage archive back to the cluster (librdkafka)");
  cmd->add_option("archive", o.archive, "The archive `kepoch salvage` wrote")
      ->required()
      ->type_name("ARCHIVE");
  add_connection_options(cmd, c);
  cmd->add_option_function<std::string>(
         "--to-topic", [](const std::string& t) { o.selection.to_topic = t; },
         "Produce to this topic instead (same partition numbers), to inspect first")
      ->type_name("TOPIC");
  cmd->add_flag("--include-open", o.selection.include_open,
                "Also replay records of transactions left open on the old leader");
  cmd->add_flag("--include-aborted", o.selection.include_aborted,
                "Also replay records of aborted transactions (as plain records)");
  cmd->add_flag("--include-present", o.selection.include_present,
                "Also replay records the new leader holds already");
  cmd->add_option("--max-rate", o.selection.max_rate,
                  "Records a second at most, to spare a cluster under load (default: no limit)")
      ->check(CLI::Range(0.0, 1e9))
      ->type_name("N");
  cmd->add_flag("--dry-run", o.dry_run, "Count what would be replayed; connect to nothing");
  cmd->add_option("--progress", o.progress,
                  "The progress file (default: ARCHIVE.progress), written after delivery "
                  "reports; a new run resumes after what it says is done")
      ->type_name("FILE");
  cmd->add_flag("--from-start", o.from_start,
                "Ignore the progress file and replay from the archive's first record");
  cmd->footer(
      "Examples:\n"
      "  kepoch replay --dry-run lost.jsonl\n"
      "  kepoch replay -b broker-2:9092 lost.jsonl  # live\n"
      "  kepoch replay -b broker-2:9092 --to-topic orders-salvaged lost.jsonl  # live\n"
      "\nProduces, in archive order, the records of class data and committed_transaction\n"
      "the new leader does not hold (control records never), with the idempotent producer\n"
      "(enable.idempotence, acks=all: each record once, in order per partition), keys,\n"
      "values, headers and timestamps as they were, and the header kepoch.salvaged.from =\n"
      "<topic>-<partition>@<offset>:<leader epoch>. What it changes for consumers: the\n"
      "records come back at new offsets, after every record written since the truncation;\n"
      "a consumer that read them before the truncation reads them again. Ctrl-C stops after\n"
      "the records in flight are acknowledged; the same command resumes. Exit status: 0\n"
      "every selected record delivered (or a dry run), 1 interrupted, 2 usage, 3 unreadable\n"
      "archive or progress file, 4 the cluster refused records or could not be reached.");
  cmd->callback([&globals] { globals.exit_code = run(c, o, globals); });
}

}  // namespace kepoch::cli
