// kepoch-crc-bench: the CRC-32C throughput of this machine with kepoch's own crc32c (the
// code `partition verify` runs per batch), on one core, over an in-memory buffer that is
// walked in chunks like record batches. Prints one JSON object.
//
//   kepoch-crc-bench [--mib N] [--chunk BYTES] [--seconds S]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kepoch/base/crc32c.hpp"

namespace {
// CPU time of this thread: on a shared machine, the speed the core gives while it runs us.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
}  // namespace

int main(int argc, char** argv) {
  std::size_t mib = 64;          // buffer: larger than L2, like batches streamed from a file
  std::size_t chunk = 1u << 20;  // bytes per crc32c call (a batch)
  double seconds = 1.0;          // measure at least this much CPU time
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--mib")
      mib = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--chunk")
      chunk = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--seconds")
      seconds = std::strtod(argv[i + 1], nullptr);
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (chunk == 0 || mib == 0) return 2;
  std::vector<std::uint8_t> buf(mib << 20);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& b : buf) {  // xorshift fill: no page of zeros
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::uint8_t>(x);
  }
  using clock = std::chrono::steady_clock;
  std::uint32_t sink = 0;
  std::uint64_t bytes = 0;
  double best = 0, best_cpu = 0;  // best pass, GB/s (wall clock, thread CPU time)
  const auto start = clock::now();
  const double cpu_start = thread_cpu_seconds();
  int passes = 0;
  do {
    const auto t0 = clock::now();
    const double c0 = thread_cpu_seconds();
    for (std::size_t off = 0; off < buf.size(); off += chunk) {
      const std::size_t n = std::min(chunk, buf.size() - off);
      sink ^= kepoch::crc32c({buf.data() + off, n});
    }
    const double dt = std::chrono::duration<double>(clock::now() - t0).count();
    const double dc = thread_cpu_seconds() - c0;
    best = std::max(best, static_cast<double>(buf.size()) / dt / 1e9);
    if (dc > 0) best_cpu = std::max(best_cpu, static_cast<double>(buf.size()) / dc / 1e9);
    bytes += buf.size();
    ++passes;
  } while (thread_cpu_seconds() - cpu_start < seconds || passes < 3);
  const double total = std::chrono::duration<double>(clock::now() - start).count();
  const double total_cpu = thread_cpu_seconds() - cpu_start;
  std::printf(
      "{\"hardware\": %s, \"chunk_bytes\": %zu, \"buffer_mib\": %zu, \"passes\": %d, "
      "\"mean_gb_s\": %.3f, \"best_gb_s\": %.3f, \"cpu_mean_gb_s\": %.3f, "
      "\"cpu_best_gb_s\": %.3f, \"sink\": %u}\n",
      kepoch::crc32c_uses_hardware() ? "true" : "false", chunk, mib, passes,
      static_cast<double>(bytes) / total / 1e9, best, static_cast<double>(bytes) / total_cpu / 1e9,
      best_cpu, sink);
  return 0;
}
