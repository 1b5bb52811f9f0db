#pragma once
// `kepoch plan -o json` in bounded memory (issue 41): the plan's JSON document
// (recovery_plan_report.hpp's shape, byte for byte render_json's) written from a plan whose
// listed partitions were handed over a block at a time (forecast::plan_outage_streamed's
// sink). Each block's list elements (partitions, candidates, followers, salvage,
// salvage_commands, problems, timelines) are rendered at once, as render_json renders them
// inside the document (nlohmann's dump(2) at their depth), to anonymous temporary files
// (std::tmpfile: no name, gone when closed, never in a log dir); write() then writes the
// document: its head (the verdict and totals first, which need every partition) from the
// plan, each list copied from its file. Memory holds one block, not the report. The start
// steps' partition names are kept in a temporary file too (start_names(), handed to the plan:
// forecast::RecoveryPlanBuilder::spill_partitions) and written from it.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "kepoch/base/spilled_lists.hpp"
#include "kepoch/forecast/outage_plan.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

class PlanJsonStream {
 public:
  // `iso_times`, `local`: as RenderOptions' (the time members shown as render() shows them).
  PlanJsonStream(bool all, bool iso_times, bool local);
  ~PlanJsonStream();
  PlanJsonStream(const PlanJsonStream&) = delete;
  PlanJsonStream& operator=(const PlanJsonStream&) = delete;

  // One block of listed partitions, in the plan's order.
  void add(const forecast::RecoveryPlan& listed, const forecast::PlanInput& input);
  // Where the plan keeps its start steps' partition names (plan_outage_streamed's
  // `start_names`).
  const std::shared_ptr<SpilledLists>& start_names() const { return start_names_; }
  // The document: `head` is recovery_plan_value's (with "timelines") of the plan without its
  // listed partitions; its lists named above are replaced by what add() gathered, and each
  // of its start steps' (`start_order`, the plan's) spilled names are written from there.
  void write(const Value& head, const std::vector<forecast::StartStep>& start_order,
             std::ostream& out);

 private:
  struct Spill {
    std::FILE* file = nullptr;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;  // written to `file`: copy() checks it read them all back
  };
  Spill& spill(const std::string& key);
  void put(Spill& s, const Value& element);
  // InputError ("temporary file") when a list's bytes cannot all be written (a full /tmp)
  // or read back: never a report cut short.
  void flush(Spill& s);
  void copy(Spill& s, std::ostream& out, bool& first);
  void write_start_order(const Value& steps, const std::vector<forecast::StartStep>& start_order,
                         std::ostream& out);

  bool all_;
  bool iso_times_;
  bool local_;
  std::vector<std::pair<std::string, Spill>> spills_;
  Spill warnings_;    // problems of severity "warning": after every "error" (as the report)
  std::string text_;  // put()'s element text, its capacity kept
  std::shared_ptr<SpilledLists> start_names_;
};

}  // namespace kepoch::report
