// kepoch completion bash|zsh|fish
// Prints the shell completion script, generated from the command tree itself. The one command
// whose output is not a report: it is a script for the shell to load.

#include <iostream>

#include "completion.hpp"
#include "exit_codes.hpp"
#include "globals.hpp"

namespace kepoch::cli {

void register_completion(CLI::App& app, Globals& globals) {
  static std::string shell;
  CLI::App* cmd =
      app.add_subcommand("completion", "Print the shell completion script (bash, zsh or fish)");
  cmd->add_option("shell", shell, "The shell")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}))
      ->type_name("SHELL");
  cmd->footer(
      "Examples:\n"
      "  source <(kepoch completion bash)\n"
      "  kepoch completion fish > ~/.config/fish/completions/kepoch.fish\n"
      "  kepoch completion zsh > \"${fpath[1]}/_kepoch\"\n"
      "\nThe scripts come from kepoch's own command tree, so they offer exactly its\n"
      "subcommands, flags and flag values (completions/ in the source holds them too).\n"
      "Exit status: 0, or 2 for an unknown shell.");
  cmd->callback([&app, &globals] {
    const Command root = describe_commands(app);
    if (shell == "bash") std::cout << bash_completion(root);
    if (shell == "zsh") std::cout << zsh_completion(root);
    if (shell == "fish") std::cout << fish_completion(root);
    globals.exit_code = kOk;
  });
}

}  // namespace kepoch::cli
