// logdir scan: the parallel runner (every item once, results in input order, progress
// serialised and counted, exceptions after the join) and the scan of broker 1's real log dir
// (tests/data/logdir, Kafka 4.1.1): the same summaries with one job and with several.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <vector>

#include "kepoch/storage/logdir_scan.hpp"

namespace fs = std::filesystem;
using namespace kepoch;

TEST_CASE("parallel_for runs every item once and keeps results in input order") {
  for (unsigned jobs : {0u, 1u, 2u, 4u, 64u}) {
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
      std::vector<std::size_t> out(count, 0);
      std::vector<std::atomic<int>> runs(count);
      std::vector<std::size_t> progress;
      parallel_for(
          count, jobs,
          [&](std::size_t i) {
            runs[i].fetch_add(1);
            out[i] = i * i;
            if (i % 7 == 0) std::this_thread::yield();
          },
          [&](std::size_t done) { progress.push_back(done); });
      for (std::size_t i = 0; i < count; ++i) {
        REQUIRE(runs[i].load() == 1);
        REQUIRE(out[i] == i * i);
      }
      // on_done is serialised: 1, 2, ..., count, each exactly once.
      REQUIRE(progress.size() == count);
      for (std::size_t i = 0; i < progress.size(); ++i)
        REQUIRE(progress[i] == i + 1);
    }
  }
}

TEST_CASE("parallel_for uses several threads when asked") {
  std::atomic<int> active{0};
  std::atomic<int> most{0};
  parallel_for(64, 4, [&](std::size_t) {
    const int now = ++active;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --active;
  });
  REQUIRE(most.load() >= 2);
  REQUIRE(most.load() <= 4);
}

TEST_CASE("parallel_for rethrows a task's exception after finishing the others") {
  std::atomic<int> ran{0};
  REQUIRE_THROWS_AS(parallel_for(100, 3,
                                 [&](std::size_t i) {
                                   ++ran;
                                   if (i == 10) throw std::runtime_error("boom");
                                 }),
                    std::runtime_error);
  REQUIRE(ran.load() == 100);
}

TEST_CASE("scan_log_dirs on broker 1's real log dir is clean and job-count independent") {
  const fs::path logdir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/logdir";
  const fs::path missing = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/no-such-log-dir";
  LogDirScanOptions one;
  one.jobs = 1;
  LogDirScanOptions two;
  two.jobs = 2;
  std::size_t last_done = 0;
  std::size_t last_total = 0;
  two.progress = [&](std::size_t done, std::size_t total) {
    last_done = done;
    last_total = total;
  };
  const auto a = scan_log_dirs({logdir, missing}, one);
  const auto b = scan_log_dirs({logdir, missing}, two);
  REQUIRE(a.size() == 2);
  REQUIRE(b.size() == 2);
  REQUIRE(last_done == last_total);
  REQUIRE(last_total == 2);

  REQUIRE_FALSE(a[0].unreadable);
  REQUIRE(a[1].unreadable);
  REQUIRE(a[0].partitions.size() == 2);
  REQUIRE(a[0].partitions[0].name == "codec-zstd-0");
  REQUIRE(a[0].partitions[1].name == "t-0");
  REQUIRE(a[0].partitions[1].topic == "t");
  REQUIRE(a[0].partitions[1].log_end_offset == 10);
  REQUIRE_FALSE(a[0].has_errors());
  REQUIRE(a[0].checkpoints_valid());
  REQUIRE(a[0].with_warnings() == 0);

  for (std::size_t i = 0; i < a[0].partitions.size(); ++i) {
    const auto& x = a[0].partitions[i];
    const auto& y = b[0].partitions[i];
    REQUIRE(x.name == y.name);
    REQUIRE(x.log_end_offset == y.log_end_offset);
    REQUIRE(x.segments == y.segments);
    REQUIRE(x.bytes == y.bytes);
    REQUIRE(x.batches == y.batches);
    REQUIRE(x.errors == y.errors);
  }
  REQUIRE(a[0].total_batches() == b[0].total_batches());
}
