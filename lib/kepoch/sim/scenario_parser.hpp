#pragma once
// Reads a simulate scenario from YAML text (the caller reads the file). Every error is an
// InputError naming the file and line, what was expected and what was found.
//
//   description: text
//   replicas: [A, B]                  # or maps: {name, log, epochs, log_end_offset,
//                                     #           high_watermark, alive}
//   leader: A                         # default: the first replica
//   leader_epoch: 0
//   isr: [A, B]                       # default: every replica
//   min_insync_replicas: 1
//   unclean_leader_election: false
//   eligible_leader_replicas: false
//   steps:
//     - produce: {values: [m1, m2], acks: all}   # acks: 0, 1, all
//     - fetch: B                                 # or {replica: B}
//     - crash: A                                 # or {replica: A, fence: false}
//     - restart: A
//     - shrink_isr: B
//     - elect: unclean                           # or preferred, online
//   expect:
//     epoch: {lost_acknowledged: [], divergent_offsets: [], consistent: true,
//             truncations: {A: [1]}}
//     hw: {...}

#include <string>
#include <string_view>

#include "kepoch/sim/scenario.hpp"

namespace kepoch::sim {

Scenario parse_scenario(const std::string& yaml_text, const std::string& path);

}  // namespace kepoch::sim
