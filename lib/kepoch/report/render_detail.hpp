#pragma once
// Pieces shared by the whole-value renderers (render.cpp) and the streaming ones
// (stream.cpp). Not part of the library's interface.

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "kepoch/report/fit.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report::detail {

nlohmann::ordered_json to_json(const Value& v);
// A table cell: "-" for null, comma-joined scalars for arrays.
std::string cell_text(const Value& v);
// A nested value on one line: scalars as cell_text, objects as "{key: value, ...}", arrays
// as "[a, b]", recursively (a control record under its batch's row).
std::string inline_text(const Value& v);
// One diagnostics line: "file:line: severity: message (Kafka: ...)".
std::string problem_text(const Value& problem, const std::string& file, bool color);
std::string problem_summary(int errors, int warnings, int notes);
// The line under a table cut at RenderOptions::limit rows: "N more (use -o json or --limit)".
std::string more_rows_text(std::size_t hidden);
// The width a table is laid out in: kUnbounded with -o wide, else RenderOptions::width
// (never below 40 columns: narrower, no table reads, and the floors would not fit).
inline std::size_t table_width(const RenderOptions& options) {
  return options.wide ? kUnbounded : std::max<std::size_t>(options.width, 40);
}

}  // namespace kepoch::report::detail
