// Pins the simulate scenario parser: a good file in every form it accepts, and malformed
// files rejected with the file, the line, what was expected and what was found.
#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"
#include "kepoch/sim/scenario_parser.hpp"

using namespace kepoch;
using namespace kepoch::sim;

namespace {

// The message of the InputError parsing `text` throws ("" when it parses).
std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "s.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a scenario with every step form parses", "[simulate][parser]") {
  const Scenario s = parse_scenario(R"(description: all forms
replicas:
  - A
  - name: B
    log: [m0, {epoch: 1, value: m1}]
    high_watermark: 1
  - name: C
    epochs: [[0, 0], [2, 5]]
    log_end_offset: 7
    alive: false
leader: B
leader_epoch: 2
isr: [A, B]
min_insync_replicas: 2
unclean_leader_election: true
steps:
  - produce: {values: [x, y], acks: 1}
  - fetch: A
  - fetch: {replica: A}
  - crash: {replica: B, fence: false}
  - restart: B
  - shrink_isr: A
  - elect: preferred
expect:
  epoch: {lost_acknowledged: [x], divergent_offsets: [1], consistent: false, truncations: {A: [3]}}
)",
                                    "s.yaml");
  CHECK(s.description == "all forms");
  REQUIRE(s.replicas.size() == 3);
  CHECK(s.replicas[1].log.size() == 2);
  CHECK(s.replicas[1].log[1].epoch == 1);
  CHECK(s.replicas[1].log_end_offset == 2);
  CHECK(s.replicas[2].epochs == std::vector<EpochEntry>{{0, 0}, {2, 5}});
  CHECK(s.replicas[2].log_end_offset == 7);
  CHECK_FALSE(s.replicas[2].alive);
  CHECK(s.leader == "B");
  CHECK(s.leader_epoch == 2);
  CHECK(s.isr == std::vector<std::string>{"A", "B"});
  CHECK(s.min_insync_replicas == 2);
  CHECK(s.unclean_leader_election);
  REQUIRE(s.steps.size() == 7);
  CHECK(s.steps[0].kind == StepKind::produce);
  CHECK(s.steps[0].acks == Acks::leader);
  CHECK(s.steps[0].line == 17);
  CHECK(s.steps[2].replica == "A");
  CHECK_FALSE(s.steps[3].fence);
  CHECK(s.steps[6].election == ElectionType::preferred);
  REQUIRE(s.expect_epoch);
  CHECK(s.expect_epoch->lost_acknowledged == std::vector<std::string>{"x"});
  CHECK(s.expect_epoch->consistent == false);
  CHECK_FALSE(s.expect_hw);
}

TEST_CASE("defaults: the first replica leads at epoch 0 with every replica in the ISR",
          "[simulate][parser]") {
  const Scenario s = parse_scenario("replicas: [A, B]\nsteps: []\n", "s.yaml");
  CHECK(s.leader == "A");
  CHECK(s.leader_epoch == 0);
  CHECK(s.isr == std::vector<std::string>{"A", "B"});
  CHECK(s.min_insync_replicas == 1);
  CHECK_FALSE(s.unclean_leader_election);
}

TEST_CASE("malformed scenarios name the file, the line, expected and found", "[simulate][parser]") {
  CHECK(error_of("replicas: [A]\nsteps:\n  - fetch: A\n  - jump: A\n") ==
        "s.yaml:4: unknown step 'jump' (expected one of: produce, fetch, crash, restart, "
        "shrink_isr, elect)");
  CHECK(error_of("replicas: [A]\nsteps:\n  - produce: {acks: all}\n") ==
        "s.yaml:3: missing 'values'");
  CHECK(error_of("replicas: [A]\n") == "s.yaml:1: missing 'steps'");
  CHECK(error_of("replicas: [A]\nleader_epoch: three\nsteps: []\n") ==
        "s.yaml:2: expected an integer, found 'three'");
  CHECK(error_of("replicas: [A]\nsteps:\n  - produce: {values: m1}\n") ==
        "s.yaml:3: expected a list of record values, found 'm1'");
  CHECK(error_of("replicas: [A]\nsteps:\n  - produce: {values: [m1], acks: 2}\n") ==
        "s.yaml:3: expected acks 0, 1 or all, found '2'");
  CHECK(error_of("replicas: [A]\nsteps:\n  - crash: C\n") ==
        "s.yaml:3: unknown replica 'C' (replicas: A)");
  CHECK(error_of("replicas: [A]\nstep: []\n") ==
        "s.yaml:2: unknown key 'step' (expected one of: description, replicas, leader, "
        "leader_epoch, isr, min_insync_replicas, unclean_leader_election, "
        "eligible_leader_replicas, steps, expect)");
  CHECK(error_of("replicas: [A]\nsteps: []\nexpect: {epoch: {consistent: maybe}}\n") ==
        "s.yaml:3: expected true or false, found 'maybe'");
  CHECK(error_of("replicas:\n  - name: A\n    log: [m0]\n    high_watermark: 2\nsteps: []\n") ==
        "s.yaml:4: expected a high watermark <= the log end offset 1, found 2");
  CHECK(error_of("replicas: [A, A]\nsteps: []\n") == "s.yaml:1: replica 'A' is listed twice");
  CHECK(error_of("replicas: [A, B]\nleader: B\nisr: [A]\nsteps: []\n") ==
        "s.yaml:2: expected the leader 'B' in the ISR [A]");
  CHECK(error_of("replicas: [A\nsteps: []\n").rfind("s.yaml:", 0) == 0);
}
