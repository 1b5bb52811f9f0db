// kepoch-plan-bench: `kepoch plan`'s work at scale, on the inputs bench/gen-plan-snapshots.py
// makes: every snapshot read (storage/logdir_snapshot, as `kepoch plan` reads them), the
// partition states from states.jsonl (standing in for the live cluster's Metadata answer),
// the plan (forecast/recovery_plan) and its report rendered as JSON. Prints one JSON object:
// seconds per phase and peak RSS.
//
//   kepoch-plan-bench STATES.jsonl SNAPSHOT...
#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kepoch/forecast/recovery_plan.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"

using namespace kepoch;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: kepoch-plan-bench STATES.jsonl SNAPSHOT...\n";
    return 2;
  }
  const auto t0 = Clock::now();
  std::vector<LogDirSnapshot> snaps;
  for (int i = 2; i < argc; ++i)
    snaps.push_back(read_logdir_snapshot(argv[i]));
  const auto t1 = Clock::now();

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
  const forecast::RecoveryPlan plan = forecast::plan_recovery(input);
  const auto t3 = Clock::now();
  std::ostringstream out, err;
  report::render(report::recovery_plan_value(plan, {}), report::Format::json, out, err, {});
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
                              {"total_s", s(t0, t4)},
                              {"report_bytes", out.str().size()},
                              {"peak_rss_mib", static_cast<double>(usage.ru_maxrss) / 1024.0}}
                   .dump()
            << "\n";
  return 0;
}
