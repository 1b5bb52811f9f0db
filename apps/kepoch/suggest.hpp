#pragma once
// "Did you mean ...?" for a mistyped subcommand or flag. CLI11 2.1 only says that an argument
// was not expected; this walks the command tree along argv and names the closest known name.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace kepoch::cli {

// The first argv token that names no subcommand or flag where it stands, with the closest
// name that does (edit distance at most 2, or a third of the token's length), if any.
struct Suggestion {
  std::string typed;
  std::string closest;
};
std::optional<Suggestion> suggest_for(const CLI::App& app, int argc, const char* const* argv);

}  // namespace kepoch::cli
