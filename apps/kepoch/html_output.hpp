#pragma once
// --html FILE: the report's picture as one HTML page (report/html_page.hpp), written where
// FILE says, through output_file.hpp (the one rule of where kepoch writes:
// storage/output_target.hpp).

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kepoch::cli {

// Adds --html FILE to `cmd`.
CLI::Option* add_html_option(CLI::App* cmd, std::optional<std::string>& file);

// UsageError when the page may not be written where `file` says by a run reading
// `arguments` (one of them, inside one, inside any log dir, a file kepoch did not write
// without --overwrite: output_target.hpp). Call before reading the inputs.
void refuse_html_in_log_dir(const std::string& file, const std::vector<std::string>& arguments);

// Writes `page` to `file` (checked again against the arguments `file` was checked with),
// replacing it whole; InputError naming the file when that fails.
void write_html(const std::string& file, const std::string& page);

}  // namespace kepoch::cli
