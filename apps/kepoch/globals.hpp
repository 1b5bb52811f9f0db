#pragma once
// What every subcommand shares: output format, colour, and the exit code it sets.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <memory>
#include <optional>

#include "kepoch/base/time_text.hpp"

#include "kepoch/report/document_stream.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::cli {

// -o/--output, parsed once: commands ask the type, never compare the flag's text.
enum class OutputFormat { table, wide, json, yaml, jsonl };

struct Globals {
  OutputFormat output = OutputFormat::table;
  bool no_color = false;
  bool local_time = false;           // --local: times in the local zone (else UTC)
  bool quiet = false;                // -q: no output, the exit code only
  bool overwrite = false;            // --overwrite: outputs may replace files kepoch did not write
  std::optional<std::size_t> limit;  // --limit: table rows per list (0: all)
  int exit_code = 0;

  // A table for people (`table` or `wide`): progress lines, cut rows, colour.
  bool table_output() const {
    return output == OutputFormat::table || output == OutputFormat::wide;
  }
  // The renderer's format (`wide` is the table with RenderOptions::wide).
  report::Format render_format() const;
};

// A table's rows per list when --limit is not given and stdout is a terminal.
inline constexpr std::size_t kTerminalRows = 50;

// Adds -o/--output, --no-color, --local, --limit, -q/--quiet and --overwrite to the main app.
void add_global_options(CLI::App& app, Globals& globals);

// --from-time/--until as given; parsed by time_range() once --local is known.
struct TimeRangeOptions {
  std::optional<std::string> from;
  std::optional<std::string> until;
};

// Adds --from-time and --until to `cmd`. For --help, `what` says what the times filter
// ("records whose timestamp is"), `note` (a sentence, or empty) how the filter reads them:
// "Only <what> at or after TIME (inclusive). <note> TIME: ...".
void add_time_range_options(CLI::App* cmd, TimeRangeOptions& o, const std::string& what,
                            const std::string& note = "");

// The range the flags give (base/time_text.hpp); UsageError naming the flag for a text that
// is no time, or a range that ends before it starts.
TimeRange time_range(const TimeRangeOptions& o, const Globals& globals);

// Renders a command's report with the shared renderer in the chosen format.
void emit(const report::Value& value, const Globals& globals);

// A streaming renderer on stdout/stderr in the chosen format, for large reports.
std::unique_ptr<report::ReportStream> make_output_stream(const Globals& globals);
// One report object written piece by piece to stdout (document_stream.hpp). It shows the
// pieces as given: pass each through output_times first, as render() would.
std::unique_ptr<report::DocumentStream> make_output_document(const Globals& globals,
                                                             const report::Value& outline);
// `v` with its times shown as the chosen format shows them (report/time_fields.hpp).
report::Value output_times(const report::Value& v, const Globals& globals);
// Whether a table's rows would be cut at --limit (given, or on a terminal by default).
bool table_rows_limited(const Globals& globals);

// Prints a one-line error for an input kepoch could not judge ("kepoch: <message>").
void print_error(const std::string& message, const Globals& globals);

// Replicas to compare (diff, predict) must be different: throws UsageError when two
// arguments name the same file or dir (or "-" twice). stdin_only: check only "-" (before
// reading; the rest is checked after the inputs were read, so unreadable input says so first).
void refuse_same_replica(const std::vector<std::string>& arguments, bool stdin_only);

// One registration function per subcommand file.
void register_checkpoint(CLI::App& app, Globals& globals);
void register_segment(CLI::App& app, Globals& globals);
void register_predict(CLI::App& app, Globals& globals);
void register_plan(CLI::App& app, Globals& globals);
void register_salvage(CLI::App& app, Globals& globals);
void register_replay(CLI::App& app, Globals& globals);
void register_diff(CLI::App& app, Globals& globals);
void register_partition(CLI::App& app, Globals& globals);
void register_logdir(CLI::App& app, Globals& globals);
void register_completion(CLI::App& app, Globals& globals);
void register_simulate(CLI::App& app, Globals& globals);
void register_metadata(CLI::App& app, Globals& globals);
void register_cluster(CLI::App& app, Globals& globals);
void register_profile(CLI::App& app, Globals& globals);

// Broker ids from a flag's "1,2,3" ("" is an empty list); UsageError naming FLAG otherwise.
std::vector<std::int32_t> parse_ids(const std::string& flag, const std::string& text);

}  // namespace kepoch::cli
