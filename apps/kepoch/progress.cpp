#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace kepoch::cli {

Progress::Progress(const Globals& globals, std::string what,
                   const std::vector<std::filesystem::path>& files, bool streaming_output)
    : what_(std::move(what)) {
  enabled_ = !globals.quiet && (globals.output == "table" || globals.output == "wide") &&
             ::isatty(STDERR_FILENO) == 1 && !(streaming_output && ::isatty(STDOUT_FILENO) == 1);
  if (!enabled_) return;
  for (const auto& f : files) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(f, ec);
    files_.emplace_back(f.string(), ec ? 0 : size);
    total_ += ec ? 0 : size;
  }
  start_ = last_ = std::chrono::steady_clock::now();
}

Progress::~Progress() {
  done();
}

void Progress::at(const std::string& file, std::uint64_t position) {
  if (!enabled_ || (++calls_ & 63) != 0) return;
  while (current_ < files_.size() && files_[current_].first != file) {
    before_ += files_[current_].second;
    ++current_;
  }
  if (current_ == files_.size()) return;  // a file not announced: nothing to measure
  const auto now = std::chrono::steady_clock::now();
  using std::chrono::milliseconds;
  if (now - start_ < milliseconds(500) || (shown_ && now - last_ < milliseconds(100))) return;
  last_ = now;
  shown_ = true;
  const double mib = 1024.0 * 1024.0;
  const std::uint64_t done_bytes = before_ + position;
  std::fputs(fmt::format("\rkepoch: {}: {:.1f} of {:.1f} MiB, {}%\x1b[K", what_,
                         static_cast<double>(done_bytes) / mib, static_cast<double>(total_) / mib,
                         total_ ? done_bytes * 100 / total_ : 100)
                 .c_str(),
             stderr);
  std::fflush(stderr);
}

void Progress::done() {
  if (!shown_) return;
  shown_ = false;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
}

}  // namespace kepoch::cli
