#pragma once
// The flags of an offline election (`predict --elect`, `salvage --elect`): the partition
// state forecast/election_forecast's elect_among runs on, as the operator gives it.

#include <CLI/CLI.hpp>

#include "kepoch/forecast/election_forecast.hpp"

namespace kepoch::cli {

// Adds --ids, --replicas, --isr, --elr, --alive, --unclean, --preferred and --min-isr to
// `cmd`, each needing `elect`.
void add_election_options(CLI::App* cmd, CLI::Option* elect, forecast::ElectionSetting& setting);

}  // namespace kepoch::cli
