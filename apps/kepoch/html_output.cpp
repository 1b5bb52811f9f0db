#include "html_output.hpp"

#include <map>

#include "output_file.hpp"

namespace kepoch::cli {
namespace {

// The inputs each page was checked against, so that the write checks against them again.
std::map<std::string, std::vector<std::string>>& checked_inputs() {
  static std::map<std::string, std::vector<std::string>> inputs;
  return inputs;
}

}  // namespace

CLI::Option* add_html_option(CLI::App* cmd, std::optional<std::string>& file) {
  return cmd
      ->add_option("--html", file,
                   "Also write the picture as one self-contained HTML page (inline SVG, no "
                   "script, no network) to FILE")
      ->type_name("FILE");
}

void refuse_html_in_log_dir(const std::string& file, const std::vector<std::string>& arguments) {
  check_output("--html", file, OutputKind::html_page, arguments);
  checked_inputs()[file] = arguments;
}

void write_html(const std::string& file, const std::string& page) {
  write_output("--html", file, OutputKind::html_page, checked_inputs()[file], "HTML page",
               [&page](std::ostream& out) { out << page; });
}

}  // namespace kepoch::cli
