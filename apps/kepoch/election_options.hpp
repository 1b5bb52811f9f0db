#pragma once
// The flags of an offline election (`predict --elect`, `salvage --elect`): the partition
// state forecast/election_forecast's elect_among runs on, as the operator gives it.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/forecast/election_forecast.hpp"

namespace kepoch::cli {

// Adds --ids, --replicas, --isr, --elr, --alive, --unclean, --preferred and --min-isr to
// `cmd`, each needing `elect`.
void add_election_options(CLI::App* cmd, CLI::Option* elect, forecast::ElectionSetting& setting);

// The replica arguments, the leader's first: with an election that elected one, the elected
// argument moves from `followers` to `leader`; without an election, --leader must be given.
// Refuses one replica given twice.
std::vector<std::string> leader_first(std::string& leader, std::vector<std::string>& followers,
                                      const std::optional<forecast::Election>& election);

}  // namespace kepoch::cli
