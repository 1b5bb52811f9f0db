#pragma once
// What every subcommand shares: output format, colour, and the exit code it sets.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <memory>

#include "kepoch/report/document_stream.hpp"
#include "kepoch/report/stream.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::cli {

struct Globals {
  std::string output = "table";
  bool no_color = false;
  int exit_code = 0;
};

// Adds -o/--output and --no-color to the main app.
void add_global_options(CLI::App& app, Globals& globals);

// Renders a command's report with the shared renderer in the chosen format.
void emit(const report::Value& value, const Globals& globals);

// A streaming renderer on stdout/stderr in the chosen format, for large reports.
std::unique_ptr<report::ReportStream> make_output_stream(const Globals& globals);
// One report object written piece by piece to stdout (document_stream.hpp).
std::unique_ptr<report::DocumentStream> make_output_document(const Globals& globals,
                                                             const report::Value& outline);

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
void register_diff(CLI::App& app, Globals& globals);
void register_partition(CLI::App& app, Globals& globals);
void register_logdir(CLI::App& app, Globals& globals);
void register_completion(CLI::App& app, Globals& globals);
void register_simulate(CLI::App& app, Globals& globals);
void register_metadata(CLI::App& app, Globals& globals);
void register_cluster(CLI::App& app, Globals& globals);

// Broker ids from a flag's "1,2,3" ("" is an empty list); UsageError naming FLAG otherwise.
std::vector<std::int32_t> parse_ids(const std::string& flag, const std::string& text);

}  // namespace kepoch::cli
