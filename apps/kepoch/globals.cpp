#include "globals.hpp"
#include <charconv>
#include "output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/time_fields.hpp"

namespace kepoch::cli {
namespace {

bool use_color(int fd, const Globals& globals) {
  const char* no_color = std::getenv("NO_COLOR");
  return !globals.no_color && (no_color == nullptr || *no_color == '\0') && ::isatty(fd) == 1;
}

// The width tables fit: the terminal's when stdout is one (TIOCGWINSZ, as `ls` and `less`
// ask), else COLUMNS when it is set to a number (a pager or a script that wants another
// width), else 120 (pipes and files: the goldens' width). Kept within 40..1000: narrower
// nothing reads, wider is a broken COLUMNS.
std::size_t table_width() {
  std::size_t width = 0;
  if (::isatty(STDOUT_FILENO) == 1) {
    struct winsize ws {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) width = ws.ws_col;
  }
  if (width == 0) {
    if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && *columns != '\0') {
      const std::string_view text(columns);
      std::size_t value = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec == std::errc{} && end == text.data() + text.size()) width = value;
    }
  }
  if (width == 0) width = 120;
  return std::clamp<std::size_t>(width, 40, 1000);
}

// -o's names, in the order --help lists them.
constexpr std::pair<std::string_view, OutputFormat> kOutputFormats[] = {
    {"table", OutputFormat::table},
    {"wide", OutputFormat::wide},
    {"json", OutputFormat::json},
    {"yaml", OutputFormat::yaml},
    {"jsonl", OutputFormat::jsonl}};

}  // namespace

report::Format Globals::render_format() const {
  switch (output) {
    case OutputFormat::table:
    case OutputFormat::wide:
      return report::Format::table;
    case OutputFormat::json:
      return report::Format::json;
    case OutputFormat::yaml:
      return report::Format::yaml;
    case OutputFormat::jsonl:
      return report::Format::jsonl;
  }
  return report::Format::table;
}

void add_global_options(CLI::App& app, Globals& globals) {
  std::vector<std::string> names;
  for (const auto& [name, format] : kOutputFormats)
    names.emplace_back(name);
  app.add_option_function<std::string>(
         "-o,--output",
         [&globals](const std::string& name) {
           for (const auto& [n, format] : kOutputFormats)
             if (n == name) globals.output = format;
         },
         "Output format: table (people; fits 120 columns), wide (the table with every "
         "column in full), json, yaml, or jsonl (JSON lines: one object per "
         "batch, index entry or partition in the streaming outputs, else the document "
         "on one line)")
      ->check(CLI::IsMember(names))
      ->type_name("FORMAT")
      ->default_str("table");
  app.add_flag("--no-color", globals.no_color, "Never colour the output (also: NO_COLOR=1)");
  app.add_flag("--local", globals.local_time,
               "Times in the local zone (TZ), with its offset, instead of UTC; also the zone "
               "of a --from-time/--until written without one");
  app.add_option("--limit", globals.limit,
                 "Table rows shown per list, then \"N more (use -o json or --limit)\"; 0 shows "
                 "all. Default: 50 when stdout is a terminal, else all. JSON and YAML are never "
                 "cut")
      ->type_name("N")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 40));
  app.add_flag("-q,--quiet", globals.quiet,
               "Print nothing on stdout and no findings on stderr: the exit code is the answer "
               "(an input kepoch cannot read or a usage error is still one line on stderr)");
  app.add_flag("--overwrite", globals.overwrite,
               "Let an output flag (--html, --file, --out-dir) replace an existing file kepoch "
               "did not write; never one the command reads, nor one inside a log dir");
  // Before any command runs (CLI11 runs this ahead of the subcommands' callbacks): with -q,
  // stdout is /dev/null for every writer, the renderers and the rest alike.
  app.parse_complete_callback([&globals] {
    set_overwrite(globals.overwrite);
    if (!globals.quiet) return;
    std::cout.flush();
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd >= 0) {
      ::dup2(null_fd, STDOUT_FILENO);
      ::close(null_fd);
    }
  });
}

namespace {

report::RenderOptions render_options(const Globals& globals) {
  report::RenderOptions options;
  options.color_out = use_color(STDOUT_FILENO, globals);
  options.color_err = use_color(STDERR_FILENO, globals);
  options.wide = globals.output == OutputFormat::wide;
  options.width = table_width();
  options.iso_times = true;
  options.local_time = globals.local_time;
  options.limit = globals.limit ? *globals.limit : ::isatty(STDOUT_FILENO) == 1 ? kTerminalRows : 0;
  return options;
}

// -q: findings are not listed on stderr either (the table's problem lines).
std::ostream& null_stream() {
  static std::ostream discard(nullptr);
  return discard;
}

}  // namespace

void add_time_range_options(CLI::App* cmd, TimeRangeOptions& o, const std::string& what,
                            const std::string& note) {
  const std::string forms =
      " TIME: epoch milliseconds, or ISO 8601 (2026-12-02T03:41:13.123Z, a date, +01:00 "
      "offsets; without a zone UTC, or the local zone with --local).";
  const std::string after = note.empty() ? "" : " " + note;
  cmd->add_option("--from-time", o.from,
                  "Only " + what + " at or after TIME (inclusive)." + after + forms)
      ->type_name("TIME");
  cmd->add_option("--until", o.until, "Only " + what + " before TIME (exclusive).")
      ->type_name("TIME");
}

TimeRange time_range(const TimeRangeOptions& o, const Globals& globals) {
  auto parse = [&](const std::optional<std::string>& text, const char* flag) {
    std::optional<std::int64_t> ms;
    if (!text) return ms;
    ms = parse_time_text(*text, globals.local_time);
    if (!ms)
      throw UsageError(fmt::format(
          "{} {}: not a time (epoch milliseconds, or ISO 8601 such as 2026-12-02T03:41:13Z)", flag,
          *text));
    return ms;
  };
  TimeRange range{parse(o.from, "--from-time"), parse(o.until, "--until")};
  if (range.from && range.until && *range.until <= *range.from)
    throw UsageError(fmt::format("--until {} is not after --from-time {}: the range is empty",
                                 *o.until, *o.from));
  return range;
}

void emit(const report::Value& value, const Globals& globals) {
  if (globals.quiet) return;
  report::render(value, globals.render_format(), std::cout, std::cerr, render_options(globals));
  std::cout.flush();
}

std::unique_ptr<report::ReportStream> make_output_stream(const Globals& globals) {
  if (globals.quiet)
    return report::make_stream(report::Format::jsonl, null_stream(), null_stream(), {});
  return report::make_stream(globals.render_format(), std::cout, std::cerr,
                             render_options(globals));
}

std::unique_ptr<report::DocumentStream> make_output_document(const Globals& globals,
                                                             const report::Value& outline) {
  report::RenderOptions options = render_options(globals);
  options.iso_times = false;  // the caller's pieces come through output_times
  options.limit = 0;          // the caller streams only when no table is cut
  std::ostream& err = globals.quiet ? null_stream() : std::cerr;
  return report::make_document_stream(globals.render_format(), std::cout, err, options,
                                      output_times(outline, globals));
}

report::Value output_times(const report::Value& v, const Globals& globals) {
  return report::has_time_fields(v)
             ? report::with_iso_times(v, globals.render_format(), globals.local_time)
             : v;
}

bool table_rows_limited(const Globals& globals) {
  return globals.table_output() && render_options(globals).limit != 0;
}

void refuse_same_replica(const std::vector<std::string>& arguments, bool stdin_only) {
  if (stdin_only) {
    if (std::count(arguments.begin(), arguments.end(), "-") > 1)
      throw UsageError("\"-\" is given twice: standard input can be read once");
    return;
  }
  // Two arguments are the same replica when they are the same text, or name the same file or
  // dir (std::filesystem::equivalent's test: both exist, neither a FIFO, socket or device, the
  // same device and inode). Each argument is stat'ed once and the pairs found by sorting: a
  // stat per pair made ~1,000,000 of them for a plan of 1,000 brokers' snapshots. The pair
  // reported is the first in argument order, as a check of every pair in turn finds it.
  struct Key {
    bool file = false;  // dev and ino are the file's; otherwise only the text names it
    dev_t dev = 0;
    ino_t ino = 0;
    std::size_t index = 0;
  };
  std::vector<Key> keys(arguments.size());
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    keys[i].index = i;
    struct stat st {};
    if (::stat(arguments[i].c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
      keys[i].file = true;
      keys[i].dev = st.st_dev;
      keys[i].ino = st.st_ino;
    }
  }
  const auto same = [&](const Key& x, const Key& y) {
    return x.file == y.file &&
           (x.file ? x.dev == y.dev && x.ino == y.ino : arguments[x.index] == arguments[y.index]);
  };
  std::sort(keys.begin(), keys.end(), [&](const Key& x, const Key& y) {
    if (x.file != y.file) return x.file;
    if (x.file) {
      if (x.dev != y.dev) return x.dev < y.dev;
      if (x.ino != y.ino) return x.ino < y.ino;
    } else if (const int c = arguments[x.index].compare(arguments[y.index]); c != 0) {
      return c < 0;
    }
    return x.index < y.index;
  });
  // In each run of the same replica, its first two arguments: the run whose first comes
  // first holds the first pair.
  std::size_t first = arguments.size();
  std::size_t second = 0;
  for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
    if ((k > 0 && same(keys[k - 1], keys[k])) || !same(keys[k], keys[k + 1])) continue;
    if (keys[k].index < first) {
      first = keys[k].index;
      second = keys[k + 1].index;
    }
  }
  if (first == arguments.size()) return;
  const std::string& a = arguments[first];
  const std::string& b = arguments[second];
  if (a == "-" && b == "-")
    throw UsageError("\"-\" is given twice: standard input can be read once");
  throw UsageError(
      fmt::format("{} and {} are the same replica: compare replicas from different brokers", a, b));
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
