// kepoch: Kafka replica and leader-epoch diagnostics.
// main only wires the subcommands and maps every error to the documented exit codes.

#include <CLI/CLI.hpp>

#include <iostream>
#include <new>
#include <string>

#include "exit_codes.hpp"
#include "globals.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "suggest.hpp"
#include "version.hpp"

namespace {

// The inputs the command was given: the positional arguments of the subcommand that ran.
std::string inputs_of(const CLI::App& app) {
  const CLI::App* leaf = &app;
  for (;;) {
    const auto subs = leaf->get_subcommands();
    if (subs.empty()) break;
    leaf = subs.front();
  }
  std::string out;
  for (const CLI::Option* o : leaf->get_options()) {
    if (o->nonpositional()) continue;
    for (const std::string& r : o->results())
      out += (out.empty() ? "" : ", ") + r;
  }
  return out.empty() ? "the input" : out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kepoch::cli;
  CLI::App app{
      "kepoch: read a Kafka broker's on-disk replication state and reason about it "
      "with Kafka's own rules"};
  app.name("kepoch");
  app.set_version_flag("-V,--version", version_text(),
                       "Print kepoch's version, the git commit it was built from and the Kafka "
                       "versions its tests run against, and exit");
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand
  app.footer(
      "Examples:\n"
      "  kepoch checkpoint validate /var/lib/kafka/data/orders-0\n"
      "  kepoch checkpoint dump -o json /var/lib/kafka/data\n"
      "  kepoch segment dump /var/lib/kafka/data/orders-0/00000000000000000000.log\n"
      "\nExit status: 0 ok, 1 findings, 2 usage error, 3 unreadable input, 4 cluster error.");

  Globals globals;
  add_global_options(app, globals);
  register_checkpoint(app, globals);
  register_segment(app, globals);
  register_partition(app, globals);
  register_logdir(app, globals);
  register_diff(app, globals);
  register_predict(app, globals);
  register_plan(app, globals);
  register_salvage(app, globals);
  register_replay(app, globals);
  register_simulate(app, globals);
  register_metadata(app, globals);
  register_cluster(app, globals);
  register_profile(app, globals);
  register_completion(app, globals);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A typo gets the closest name alone: CLI11's own message for it ("A subcommand is
    // required", "The following arguments were not expected") says what is missing, not what
    // was mistyped.
    if (e.get_exit_code() != 0) {
      if (const auto s = suggest_for(app, argc, argv)) {
        std::cerr << "kepoch: '" << s->typed << "' is unknown; did you mean '" << s->closest
                  << "'?\nRun with --help for more information.\n";
        return kUsage;
      }
    }
    const int code = app.exit(e);  // prints help, version or the usage error
    if (code == 0) return kOk;
    return kUsage;
  } catch (const kepoch::UsageError& e) {
    print_error(e.what(), globals);
    return kUsage;
  } catch (const kepoch::InputError& e) {
    print_error(e.what(), globals);
    return kInput;
  } catch (const kepoch::cluster::ClusterError& e) {
    print_error(e.what(), globals);
    return kCluster;
  } catch (const kepoch::ProtocolError& e) {  // a broker's answer kepoch cannot read
    print_error(e.what(), globals);
    return kCluster;
  } catch (const std::bad_alloc&) {
    // Every read is capped, but the caps are sized for a machine with memory to spare; under
    // a tighter limit (ulimit -v) the input, not kepoch, is what did not fit.
    print_error("out of memory reading " + inputs_of(app), globals);
    return kInput;
  } catch (const std::exception& e) {
    print_error(std::string("internal error: ") + e.what(), globals);
    return kInput;
  }
  return globals.exit_code;
}
