#pragma once
// A progress line on stderr for long reads ("kepoch: reading metadata: 12.0 of 40.0 MiB,
// 30%"): only when stderr is a terminal and the output is the table (never for json, yaml,
// jsonl, nor when stderr is redirected, as in the tests), and only once a read has taken
// half a second. A streaming command whose table goes to the same terminal shows none.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "globals.hpp"

namespace kepoch::cli {

class Progress {
 public:
  // `files`: what will be read, in order (their sizes make the total).
  Progress(const Globals& globals, std::string what,
           const std::vector<std::filesystem::path>& files, bool streaming_output = false);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Reading `file` at byte `position`. Cheap when disabled or called often.
  void at(const std::string& file, std::uint64_t position);
  // Clears the line.
  void done();

 private:
  bool enabled_ = false;
  bool shown_ = false;
  std::string what_;
  std::vector<std::pair<std::string, std::uint64_t>> files_;  // path, size
  std::uint64_t total_ = 0;
  std::size_t current_ = 0;   // index of the file being read
  std::uint64_t before_ = 0;  // bytes of the files before it
  std::uint32_t calls_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

// A progress line for work whose size is not known up front (loading replicas, verifying a
// partition, writing a snapshot): what is done, which step of how many, and the seconds so
// far ("kepoch: diff: reading broker-2/d-0 (2 of 3), 4 s"), redrawn by a thread every 200 ms
// once the work has taken a second, so one long step shows too. On the same conditions as
// Progress: stderr a terminal, table output. KEPOCH_PROGRESS_AFTER_MS sets the second (the
// pseudo-terminal test sets 0, so the line shows however fast the run).
class StepProgress {
 public:
  // streaming_output: the command writes to stdout while it works (a snapshot to "-"): no
  // line when stdout is the same terminal.
  StepProgress(const Globals& globals, std::string what, bool streaming_output = false);
  ~StepProgress();
  StepProgress(const StepProgress&) = delete;
  StepProgress& operator=(const StepProgress&) = delete;

  // Step `index` (from 0) of `total`: `label`. total 0: no count.
  void step(std::size_t index, std::size_t total, std::string label);
  // `done` of `total` things (`what`) so far ("1200 of 10000 partition dirs verified"); from
  // any thread.
  void count(std::size_t done, std::size_t total, std::string_view what);
  bool enabled() const { return enabled_; }
  // Clears the line and stops the thread (before the report is printed).
  void done();
  // Runs `print` (an error line on stderr) with the line cleared and not redrawn meanwhile.
  template <typename Print>
  void interrupt(Print&& print) {
    std::lock_guard<std::mutex> lock(mutex_);
    clear();
    print();
  }

 private:
  void draw();   // with mutex_ held
  void clear();  // with mutex_ held

  bool enabled_ = false;
  bool shown_ = false;
  bool stop_ = false;
  std::string what_;
  std::string label_;
  std::chrono::milliseconds after_{1000};
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace kepoch::cli
