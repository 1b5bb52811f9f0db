#pragma once
// A progress line on stderr for long reads ("kepoch: reading metadata: 12.0 of 40.0 MiB,
// 30%"): only when stderr is a terminal and the output is the table (never for json, yaml,
// jsonl, nor when stderr is redirected, as in the tests), and only once a read has taken
// half a second. A streaming command whose table goes to the same terminal shows none.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
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

}  // namespace kepoch::cli
