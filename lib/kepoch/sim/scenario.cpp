#include "kepoch/sim/scenario.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kepoch::sim {

std::string_view rule_name(Rule rule) {
  return rule == Rule::epoch ? "epoch" : "hw";
}

std::string_view acks_name(Acks acks) {
  switch (acks) {
    case Acks::none:
      return "0";
    case Acks::leader:
      return "1";
    case Acks::all:
      break;
  }
  return "all";
}

std::string describe(const Step& step) {
  switch (step.kind) {
    case StepKind::produce:
      return fmt::format("produce {} (acks={})", fmt::join(step.values, ","), acks_name(step.acks));
    case StepKind::fetch:
      return "fetch " + step.replica;
    case StepKind::crash:
      return step.fence ? "crash " + step.replica
                        : "crash " + step.replica + " (back before the controller fences it)";
    case StepKind::restart:
      return "restart " + step.replica;
    case StepKind::shrink_isr:
      return "shrink_isr " + step.replica;
    case StepKind::elect:
      return step.election == ElectionType::preferred ? "elect (preferred)"
             : step.election == ElectionType::online  ? "elect (online)"
                                                      : "elect (unclean)";
  }
  return "?";
}

}  // namespace kepoch::sim
