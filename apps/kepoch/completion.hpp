#pragma once
// Shell completion scripts generated from the CLI11 command tree, so they can never drift from
// the real subcommands and flags (CLI11 2.1 has no generator). The tree is first reduced to a
// plain description (Command), then written for bash, zsh or fish.
//
// What is read from each option: its long and short names, whether it takes a value, the
// choices of an IsMember check (CLI11 renders them into the type name as "NAME:{a,b,c}"), and
// the type name itself, which says what to complete: DIR, LOGDIR or METADATA_DIR a directory;
// FILE, REPLICA, STATE, TEXT or *.yaml (alone or among "A|B" alternatives) a path; PROFILE a
// profile name of the config file (asked of `kepoch profile list --names` as the user
// types); anything else (IDS, N, OFFSET, TIME, ...) nothing.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace kepoch::cli {

enum class ValueKind { none, file, dir, choice, profile };

struct Flag {
  std::vector<std::string> names;  // "--mode", "-o"
  std::string description;
  bool takes_value = false;
  ValueKind kind = ValueKind::none;
  std::vector<std::string> choices;
};

struct Command {
  std::vector<std::string> path;  // {} for kepoch itself, {"checkpoint", "dump"}
  std::string description;
  std::vector<Flag> flags;  // its own and the global ones that fall through
  std::vector<Command> subcommands;
  ValueKind positional = ValueKind::none;
};

Command describe_commands(const CLI::App& app);

std::string bash_completion(const Command& root);
std::string zsh_completion(const Command& root);
std::string fish_completion(const Command& root);

}  // namespace kepoch::cli
