#pragma once
// The flags of consumer groups' fates (`predict`, `plan`): --offsets, --auto-offset-reset,
// --client; the rules are forecast/consumer_fate's.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kepoch/forecast/consumer_fate.hpp"
#include "kepoch/storage/committed_offsets.hpp"

namespace kepoch::cli {

struct GroupFateOptions {
  // A __consumer_offsets partition dir or a log dir holding them.
  std::optional<std::string> offsets;
  std::string auto_offset_reset = "all";
  std::string client = "java";

  std::vector<forecast::OffsetResetPolicy> policies() const;
  forecast::ConsumerClient consumer_client() const;
};

void add_group_fate_options(CLI::App* cmd, GroupFateOptions& o);
// --auto-offset-reset and --client alone (the live commands read the offsets live).
void add_group_policy_options(CLI::App* cmd, GroupFateOptions& o);

// The __consumer_offsets partitions read, as the report lists them.
std::vector<std::string> offsets_partitions_of(const CommittedOffsets& offsets);

}  // namespace kepoch::cli
