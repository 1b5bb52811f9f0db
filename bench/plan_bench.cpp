// kepoch-plan-bench: `kepoch plan`'s work at scale, on the inputs bench/gen-plan-snapshots.py
// makes: every snapshot read (storage/logdir_snapshot, as `kepoch plan` reads them), the
// partition states from states.jsonl (standing in for the live cluster's Metadata answer),
// the plan (forecast/recovery_plan) and its report rendered as JSON. Prints one JSON object:
// seconds per phase and peak RSS.
//
//   kepoch-plan-bench STATES.jsonl SNAPSHOT...
//   (KEPOCH_PLAN_JOBS=N: threads, default every core; KEPOCH_PLAN_REPORT=FILE: the report)
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kepoch/forecast/recovery_plan.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/storage/logdir_scan.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"

using namespace kepoch;
using Clock = std::chrono::steady_clock;

// Passes bytes on to another buffer and counts them.
struct CountingBuffer : std::streambuf {
  explicit CountingBuffer(std::streambuf* to) : to_(to) {}
  std::uint64_t bytes = 0;

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    ++bytes;
    return to_->sputc(traits_type::to_char_type(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    bytes += static_cast<std::uint64_t>(n);
    return to_->sputn(s, n);
  }
  int sync() override { return to_->pubsync(); }

 private:
  std::streambuf* to_;
};

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: kepoch-plan-bench STATES.jsonl SNAPSHOT...\n";
    return 2;
  }
  // KEPOCH_PLAN_JOBS: threads for reading and planning (default: every core, as `kepoch plan`).
  const char* jobs_env = std::getenv("KEPOCH_PLAN_JOBS");
  const unsigned jobs = jobs_env ? static_cast<unsigned>(std::atoi(jobs_env)) : default_jobs();
  const auto t0 = Clock::now();
  std::vector<LogDirSnapshot> snaps(static_cast<std::size_t>(argc - 2));
  parallel_for(snaps.size(), jobs, [&](std::size_t i) {
    snaps[i] = read_logdir_snapshot(argv[i + 2]);
    for (auto& r : snaps[i].replicas)  // as `kepoch plan` does
      forecast::keep_what_plans_read(r);
  });
  const auto t1 = Clock::now();
  rusage after_read{};
  getrusage(RUSAGE_SELF, &after_read);

  std::map<std::pair<std::string, std::int32_t>, std::map<std::int32_t, const PartitionReplica*>>
      known;
  std::size_t replicas = 0;
  for (const auto& s : snaps)
    for (const auto& r : s.replicas) {
      known[{r.topic, r.partition}][*s.node_id] = &r;
      ++replicas;
    }
  forecast::PlanInput input;
  std::ifstream states(argv[1]);
  std::string line;
  std::getline(states, line);
  const auto header = nlohmann::json::parse(line);
  for (const auto& id : header["live"])
    input.live_brokers.insert(id.get<std::int32_t>());
  while (std::getline(states, line)) {
    const auto j = nlohmann::json::parse(line);
    forecast::PlanPartitionInput p;
    p.topic = j["topic"].get<std::string>();
    p.partition = j["partition"].get<std::int32_t>();
    p.state.replicas = j["replicas"].get<std::vector<std::int32_t>>();
    p.state.isr = j["isr"].get<std::vector<std::int32_t>>();
    p.state.leader = j["leader"].get<std::int32_t>();
    p.state.leader_epoch = j["leader_epoch"].get<std::int32_t>();
    p.replicas = known[{p.topic, p.partition}];
    input.partitions.push_back(std::move(p));
  }
  const auto t2 = Clock::now();
  input.jobs = jobs;
  const forecast::RecoveryPlan plan = forecast::plan_recovery(input);
  const auto t3 = Clock::now();
  // Rendered as `kepoch plan` renders it to standard output: streamed, here to
  // KEPOCH_PLAN_REPORT=FILE (to compare runs: before/after, threads) or /dev/null.
  const char* report_file = std::getenv("KEPOCH_PLAN_REPORT");
  std::ofstream file(report_file ? report_file : "/dev/null", std::ios::binary | std::ios::trunc);
  CountingBuffer counted(file.rdbuf());
  std::ostream out(&counted);
  std::ostringstream err;
  report::render(report::recovery_plan_value(plan, {}), report::Format::json, out, err, {});
  out.flush();
  const std::uint64_t report_bytes = counted.bytes;
  const auto t4 = Clock::now();

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto s = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::cout << nlohmann::json{{"snapshots", snaps.size()},
                              {"replicas", replicas},
                              {"partitions", input.partitions.size()},
                              {"affected", plan.totals.affected},
                              {"read_s", s(t0, t1)},
                              {"states_s", s(t1, t2)},
                              {"plan_s", s(t2, t3)},
                              {"render_s", s(t3, t4)},
                              {"jobs", jobs},
                              {"user_s", static_cast<double>(usage.ru_utime.tv_sec) +
                                             static_cast<double>(usage.ru_utime.tv_usec) / 1e6},
                              {"sys_s", static_cast<double>(usage.ru_stime.tv_sec) +
                                            static_cast<double>(usage.ru_stime.tv_usec) / 1e6},
                              {"total_s", s(t0, t4)},
                              {"report_bytes", report_bytes},
                              {"peak_rss_after_read_mib",
                               static_cast<double>(after_read.ru_maxrss) / 1024.0},
                              {"peak_rss_mib", static_cast<double>(usage.ru_maxrss) / 1024.0}}
                   .dump()
            << "\n";
  return 0;
}
