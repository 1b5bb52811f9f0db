#include "globals.hpp"
#include <charconv>

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/report/render.hpp"

namespace kepoch::cli {
namespace {

bool use_color(int fd, const Globals& globals) {
  const char* no_color = std::getenv("NO_COLOR");
  return !globals.no_color && (no_color == nullptr || *no_color == '\0') && ::isatty(fd) == 1;
}

}  // namespace

void add_global_options(CLI::App& app, Globals& globals) {
  app.add_option("-o,--output", globals.output,
                 "Output format: table (people; fits 120 columns), wide (the table with every "
                 "column in full), json, yaml, or jsonl (JSON lines: one object per "
                 "batch, index entry or partition in the streaming outputs, else the document "
                 "on one line)")
      ->check(CLI::IsMember({"table", "wide", "json", "yaml", "jsonl"}))
      ->type_name("FORMAT")
      ->default_str("table");
  app.add_flag("--no-color", globals.no_color, "Never colour the output (also: NO_COLOR=1)");
}

void emit(const report::Value& value, const Globals& globals) {
  report::RenderOptions options;
  options.color_out = use_color(STDOUT_FILENO, globals);
  options.color_err = use_color(STDERR_FILENO, globals);
  options.wide = globals.output == "wide";
  report::render(value, *report::format_from_name(globals.output), std::cout, std::cerr, options);
  std::cout.flush();
}

std::unique_ptr<report::ReportStream> make_output_stream(const Globals& globals) {
  report::RenderOptions options;
  options.color_out = use_color(STDOUT_FILENO, globals);
  options.color_err = use_color(STDERR_FILENO, globals);
  options.wide = globals.output == "wide";
  return report::make_stream(*report::format_from_name(globals.output), std::cout, std::cerr,
                             options);
}

std::unique_ptr<report::DocumentStream> make_output_document(const Globals& globals,
                                                             const report::Value& outline) {
  report::RenderOptions options;
  options.color_out = use_color(STDOUT_FILENO, globals);
  options.color_err = use_color(STDERR_FILENO, globals);
  options.wide = globals.output == "wide";
  return report::make_document_stream(*report::format_from_name(globals.output), std::cout,
                                      std::cerr, options, outline);
}

void refuse_same_replica(const std::vector<std::string>& arguments, bool stdin_only) {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    for (std::size_t j = i + 1; j < arguments.size(); ++j) {
      const std::string& a = arguments[i];
      const std::string& b = arguments[j];
      if (a == "-" && b == "-")
        throw UsageError("\"-\" is given twice: standard input can be read once");
      if (stdin_only) continue;
      std::error_code ec;
      if (a == b || std::filesystem::equivalent(a, b, ec))
        throw UsageError(fmt::format(
            "{} and {} are the same replica: compare replicas from different brokers", a, b));
    }
  }
}

void print_error(const std::string& message, const Globals& globals) {
  const bool color = use_color(STDERR_FILENO, globals);
  // A path or value in the message may hold control characters (a dir named with an escape
  // sequence); shown escaped, and bounded, so the one line stays one line.
  std::cerr << (color ? "\x1b[31mkepoch:\x1b[0m " : "kepoch: ")
            << escape_control(excerpt(message, 4096)) << '\n';
}

// Broker ids as --replicas/--isr/--elr/--alive/--ids take them: "1,2,3"; "" is none.
std::vector<std::int32_t> parse_ids(const std::string& flag, const std::string& text) {
  std::vector<std::int32_t> ids;
  if (text.empty()) return ids;  // --isr '' : an empty ISR (ELR on)
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    std::int32_t id = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || id < 0)
      throw UsageError(
          fmt::format("{}: '{}' is not a broker id (expected ids like 1,2,3)", flag, item));
    ids.push_back(id);
    start = end + 1;
  }
  return ids;
}

}  // namespace kepoch::cli
