// kepoch simulate SCENARIO.yaml
// Runs a replication scenario step by step under the leader-epoch rule and the pre-0.11
// high-watermark rule, with each replica's log, LEO, HW and epoch cache after every step and
// the verdict: acknowledged records lost, offsets where replicas disagree.

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/report/simulate_report.hpp"
#include "kepoch/sim/scenario_parser.hpp"
#include "kepoch/sim/verdict.hpp"

namespace kepoch::cli {
namespace {

constexpr std::uint64_t kMaxScenarioBytes = 1 << 20;

struct SimulateOptions {
  std::string scenario;
  std::string rule = "both";
};

std::vector<sim::Rule> rules_for(const std::string& rule) {
  if (rule == "epoch") return {sim::Rule::epoch};
  if (rule == "hw") return {sim::Rule::hw};
  return {sim::Rule::epoch, sim::Rule::hw};
}

int run(const SimulateOptions& o, const Globals& globals) {
  const sim::Scenario scenario =
      sim::parse_scenario(read_input_file(o.scenario, kMaxScenarioBytes), input_name(o.scenario));
  std::vector<report::SimulationOutcome> outcomes;
  for (auto rule : rules_for(o.rule)) {
    report::SimulationOutcome out{sim::simulate(scenario, rule), false, {}};
    const auto& expected = rule == sim::Rule::epoch ? scenario.expect_epoch : scenario.expect_hw;
    if (expected) {
      out.expectation_given = true;
      out.expectation_failures = sim::expectation_failures(*expected, out.run.verdict);
    }
    outcomes.push_back(std::move(out));
  }
  emit(report::simulate_value(o.scenario, scenario, outcomes), globals);
  return report::simulation_findings(outcomes) ? kFindings : kOk;
}

}  // namespace

void register_simulate(CLI::App& app, Globals& globals) {
  static SimulateOptions o;
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Run a replication scenario (appends, fetches, crashes, elections) under the epoch and "
      "high-watermark truncation rules");
  cmd->add_option("scenario", o.scenario, "The scenario, a YAML file (see examples/scenarios/)")
      ->required()
      ->type_name("SCENARIO.yaml");
  cmd->add_option("--rule", o.rule,
                  "epoch: Fetch divergence on the leader epoch (every KRaft broker); hw: the "
                  "pre-0.11 rule, truncate to the replica's own high watermark; both: side by side")
      ->check(CLI::IsMember({"epoch", "hw", "both"}))
      ->default_str("both");
  cmd->footer(
      "Examples:\n"
      "  kepoch simulate examples/scenarios/hw-truncation-loses-acked.yaml\n"
      "  kepoch simulate --rule hw -o json examples/scenarios/divergent-offset.yaml\n"
      "\nA scenario lists the replicas (the first leads at epoch 0 unless `leader` says\n"
      "otherwise) and the steps: produce {values, acks}, fetch R, crash R, restart R,\n"
      "shrink_isr R, elect unclean|preferred|online; `expect` gives the verdict per rule.\n"
      "Exit status: 0 the expect block holds (without one: no acknowledged record lost under\n"
      "the epoch rule), 1 it does not (or records are lost), 2 usage, 3 the scenario cannot be\n"
      "read or is invalid (file:line).");
  cmd->callback([&globals] { globals.exit_code = run(o, globals); });
}

}  // namespace kepoch::cli
