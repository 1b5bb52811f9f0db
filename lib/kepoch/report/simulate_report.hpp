#pragma once
// The report shape of `simulate`:
//   {"summary" (simulate_summary), "scenario", "description",
//    "runs": [{"rule": "epoch|hw",
//      "steps": [{"step", "action", "line", "leader" (name or null), "leader_epoch", "isr",
//        "notes": [sentences],
//        "replicas": [{"replica", "broker", "state": "leader|follower|down",
//          "log": ["offset:epoch:value", "first-last:epoch" for unnamed records],
//          "log_end_offset", "high_watermark", "epochs": ["(epoch,start_offset)"]}]}],
//      "verdict": {"acknowledged": [values], "lost_acknowledged": [{"value", "offset",
//        "epoch"}], "maybe_lost_acknowledged": (the same; no leader at the end, held by some
//        of the replicas that may lead next), "divergent_offsets", "consistent",
//        "truncations": [{"replica", "step", "from", "to", "reason"}]},
//      "expect_holds": bool or null, "expect_failures": [sentences]}],
//    "differences": [{"step", "action", "replica", "field", "epoch", "hw"}],
//    "verdicts": [{"rule", "lost_acknowledged", "maybe_lost_acknowledged",
//                  "divergent_offsets", "consistent",
//                  "truncations", "expect"}],
//    "expect_holds": bool or null}

#include <string>
#include <vector>

#include "kepoch/report/value.hpp"
#include "kepoch/sim/engine.hpp"

namespace kepoch::report {

struct SimulationOutcome {
  sim::SimulationRun run;
  bool expectation_given = false;
  std::vector<std::string> expectation_failures;
};

// The log as the seeds draw it: "offset:epoch:value", runs of unnamed records as
// "first-last:epoch".
Value log_value(const std::vector<sim::SimRecord>& records);

// Whether the simulation is a finding (exit 1): an expectation that fails; with none given,
// acknowledged records lost or maybe lost under the first rule run.
bool simulation_findings(const std::vector<SimulationOutcome>& runs);
// The verdict sentence: the expectations' outcome (or, without one, the first rule's loss),
// then what each rule's run ends with.
std::string simulate_summary(const std::vector<SimulationOutcome>& runs);

Value simulate_value(const std::string& scenario_path, const sim::Scenario& scenario,
                     const std::vector<SimulationOutcome>& runs);

}  // namespace kepoch::report
