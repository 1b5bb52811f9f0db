#pragma once
// --html FILE: the report's picture as one HTML page (report/html_page.hpp), written where
// FILE says. kepoch writes nothing into a log dir: FILE may not lie inside one (nor inside
// an argument's dir), as the log dir snapshot writer refuses.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kepoch::cli {

// Adds --html FILE to `cmd`.
CLI::Option* add_html_option(CLI::App* cmd, std::optional<std::string>& file);

// UsageError when `file` is inside a log dir (a directory holding a broker log dir's or a
// partition dir's files, or a metadata log dir), or inside one of `arguments` (the dirs and
// files the command reads; a file argument's dir counts). Call before reading the inputs.
void refuse_html_in_log_dir(const std::string& file, const std::vector<std::string>& arguments);

// Writes `page` to `file` (truncating it); InputError naming the file when that fails.
void write_html(const std::string& file, const std::string& page);

}  // namespace kepoch::cli
