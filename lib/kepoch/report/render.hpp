#pragma once
// The renderers shared by every command: one report value, three formats.
//
// Table (people): objects as aligned "key  value" lines, arrays of objects as aligned
// columns, records of a top-level array separated by a blank line. A record's verdict
// sentence ("summary", summary.hpp) opens it as plain text. Every line fits
// RenderOptions::width columns (long values end in an ellipsis, prose wraps, the rightmost
// columns of a table too wide go), unless RenderOptions::wide. Arrays named
// "problems" (objects with severity, line, message) are diagnostics: in table form each is
// one line on the error stream, "file:line: severity: message", and stdout keeps a count.
// JSON and YAML (scripts): the value as is, problems included.
// JSON lines (jsonl): the same document as JSON on one line; the streaming renderer
// (stream.hpp) writes one object per line instead.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "kepoch/report/value.hpp"

namespace kepoch::report {

enum class Format { table, json, yaml, jsonl };

// "wide" is the table with RenderOptions::wide.
std::optional<Format> format_from_name(std::string_view name);

struct RenderOptions {
  bool color_out = false;  // ANSI colour on the output stream (a TTY, NO_COLOR unset)
  bool color_err = false;  // likewise for the error stream
  // Table: every column in full (`-o wide`); else the table fits `width` columns (fit.hpp):
  // the terminal's (the command sets it), 120 when the output is not a terminal.
  bool wide = false;
  std::size_t width = 120;
  // Times (time_fields.hpp) as ISO 8601: in table and YAML instead of epoch milliseconds,
  // in JSON beside them ("<name>_iso"); in the local zone with local_time, else UTC.
  bool iso_times = false;
  bool local_time = false;
  // Table: the rows a table shows before "N more (use -o json or --limit)"; 0: all.
  std::size_t limit = 0;
};

void render(const Value& value, Format format, std::ostream& out, std::ostream& err,
            const RenderOptions& options = {});

void render_json(const Value& value, std::ostream& out);
// render_json's text of `value` as it stands `indent` spaces deep in a document: every line
// after the first indented by that much more (a JSON string never holds a raw line break), no
// final newline; appended to `out`.
void append_json(const Value& value, std::size_t indent, std::string& out);
void render_json_line(const Value& value, std::ostream& out);
void render_yaml(const Value& value, std::ostream& out);
void render_table(const Value& value, std::ostream& out, std::ostream& err,
                  const RenderOptions& options);

}  // namespace kepoch::report
