#include "progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "kepoch/base/text.hpp"

namespace kepoch::cli {

Progress::Progress(const Globals& globals, std::string what,
                   const std::vector<std::filesystem::path>& files, bool streaming_output)
    : what_(std::move(what)) {
  enabled_ = !globals.quiet && globals.table_output() && ::isatty(STDERR_FILENO) == 1 &&
             !(streaming_output && ::isatty(STDOUT_FILENO) == 1);
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

StepProgress::StepProgress(const Globals& globals, std::string what, bool streaming_output)
    : what_(std::move(what)) {
  enabled_ = globals.table_output() && ::isatty(STDERR_FILENO) == 1 &&
             !(streaming_output && ::isatty(STDOUT_FILENO) == 1);
  if (!enabled_) return;
  if (const char* ms = std::getenv("KEPOCH_PROGRESS_AFTER_MS"))
    after_ = std::chrono::milliseconds(std::strtol(ms, nullptr, 10));
  start_ = std::chrono::steady_clock::now();
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_until(lock, start_ + after_, [this] { return stop_; })) return;
    while (!stop_) {
      draw();
      wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; });
    }
  });
}

StepProgress::~StepProgress() {
  done();
}

void StepProgress::step(std::size_t index, std::size_t total, std::string label) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  // Names go to the terminal as they are: their control characters escaped (as tables do).
  label = escape_control(label);
  label_ = total > 1 ? fmt::format("{} ({} of {})", label, index + 1, total) : std::move(label);
  if (std::chrono::steady_clock::now() - start_ >= after_) draw();
}

void StepProgress::count(std::size_t done, std::size_t total, std::string_view what) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  label_ = fmt::format("{} of {} {}", done, total, what);
  if (std::chrono::steady_clock::now() - start_ >= after_) draw();
}

void StepProgress::draw() {
  if (stop_) return;
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_)
          .count();
  std::string line = fmt::format("kepoch: {}: {}, {} s", what_, label_, seconds);
  // One terminal line at most: a wrapped line could not be redrawn in place by "\r".
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 && line.size() >= ws.ws_col)
    line = line.substr(0, ws.ws_col - 4) + "...";
  std::fputs(("\r" + line + "\x1b[K").c_str(), stderr);
  std::fflush(stderr);
  shown_ = true;
}

void StepProgress::clear() {
  if (!shown_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

void StepProgress::done() {
  if (!enabled_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    stop_ = true;
    clear();
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace kepoch::cli
