#include "html_output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch::cli {
namespace fs = std::filesystem;

CLI::Option* add_html_option(CLI::App* cmd, std::optional<std::string>& file) {
  return cmd
      ->add_option("--html", file,
                   "Also write the picture as one self-contained HTML page (inline SVG, no "
                   "script, no network) to FILE")
      ->type_name("FILE");
}

namespace {

bool within(const fs::path& dir, const fs::path& target) {
  const auto [end, _] = std::mismatch(dir.begin(), dir.end(), target.begin(), target.end());
  return end == dir.end();
}

}  // namespace

void refuse_html_in_log_dir(const std::string& file, const std::vector<std::string>& arguments) {
  if (file.empty()) throw UsageError("--html: give a file name");
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::absolute(file), ec);
  auto refuse = [&](const fs::path& dir) {
    throw UsageError(fmt::format(
        "--html {} is inside the log dir {}: kepoch writes nothing into a log dir; write the "
        "page elsewhere",
        file, dir.string()));
  };
  // Any log dir, partition dir or metadata log dir above the page.
  for (fs::path d = target.parent_path(); !d.empty(); d = d.parent_path()) {
    if (holds_log_dir_files(d) || holds_partition_files(d) ||
        d.filename() == "__cluster_metadata-0")
      refuse(d);
    if (d == d.root_path()) break;
  }
  // The arguments' own dirs (a log dir that holds no checkpoint yet), and a file's dir.
  for (const auto& a : arguments) {
    if (a == "-") continue;
    const size_t colon = a.rfind(':');  // SNAPSHOT:TOPIC-PARTITION
    fs::path p = fs::weakly_canonical(fs::absolute(a), ec);
    if (!fs::exists(p, ec) && colon != std::string::npos)
      p = fs::weakly_canonical(fs::absolute(a.substr(0, colon)), ec);
    if (fs::is_directory(p, ec) &&
        (holds_partition_files(p) || p.filename() == "__cluster_metadata-0")) {
      p = p.parent_path();  // a partition dir's (or metadata log's) parent is its log dir
    } else if (!fs::is_directory(p, ec)) {
      // A snapshot file's dir may be anything (the operator's own); a segment's is in a log's.
      if (holds_partition_files(p.parent_path()) ||
          p.parent_path().filename() == "__cluster_metadata-0")
        p = p.parent_path().parent_path();
      else
        continue;
    }
    if (within(p, target)) refuse(p);
  }
}

void write_html(const std::string& file, const std::string& page) {
  errno = 0;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out)
    throw InputError(file, "cannot create the HTML page: " +
                               std::string(errno ? std::strerror(errno) : "an I/O error"));
  out << page;
  out.close();
  if (!out) {
    const std::string why = errno ? std::strerror(errno) : "an I/O error";
    std::error_code ec;
    // A half page is no page: ours, outside every log dir; only a regular file (never
    // --html /dev/full itself).
    if (fs::is_regular_file(fs::symlink_status(file, ec))) fs::remove(file, ec);
    throw InputError(file, "cannot write the HTML page: " + why);
  }
}

}  // namespace kepoch::cli
