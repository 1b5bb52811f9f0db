#include "suggest.hpp"

#include <algorithm>
#include <vector>

namespace kepoch::cli {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest(const std::string& typed,
                                   const std::vector<std::string>& names) {
  const std::size_t limit = std::max<std::size_t>(2, typed.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const auto& name : names) {
    const std::size_t d = edit_distance(typed, name);
    if (d < best_distance) best = name, best_distance = d;
  }
  return best;
}

std::vector<std::string> flag_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (; app != nullptr; app = app->get_parent())  // global flags may follow (fallthrough)
    for (const CLI::Option* opt : app->get_options()) {
      for (const auto& l : opt->get_lnames())
        names.push_back("--" + l);
      for (const auto& s : opt->get_snames())
        names.push_back("-" + s);
    }
  return names;
}

bool takes_value(const CLI::App* app, const std::string& flag) {
  for (; app != nullptr; app = app->get_parent())
    for (const CLI::Option* opt : app->get_options())
      if (opt->check_name(flag)) return opt->get_type_size() != 0;
  return false;
}

}  // namespace

std::optional<Suggestion> suggest_for(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* at = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (token == "--") break;
    if (token.size() > 1 && token[0] == '-') {
      const std::string flag = token.substr(0, token.find('='));
      const auto names = flag_names(at);
      if (std::find(names.begin(), names.end(), flag) != names.end()) {
        if (token.find('=') == std::string::npos && takes_value(at, flag)) ++i;
        continue;
      }
      if (auto c = closest(flag, names)) return Suggestion{flag, *c};
      return std::nullopt;
    }
    const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) continue;  // a positional argument
    std::vector<std::string> names;
    for (const CLI::App* sub : subs) {
      if (sub->check_name(token)) {
        at = sub;
        names.clear();
        break;
      }
      names.push_back(sub->get_name());
    }
    if (names.empty()) continue;
    if (auto c = closest(token, names)) return Suggestion{token, *c};
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace kepoch::cli
