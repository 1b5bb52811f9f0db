#include "kepoch/report/plan_json_stream.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/base/spilled_lists.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/report/time_fields.hpp"

namespace kepoch::report {
namespace {

// The lists of the document add() gathers, in no particular order (write() follows head's).
const char* const kLists[] = {"partitions",       "candidates", "followers", "salvage",
                              "salvage_commands", "problems",   "timelines"};

// render_json's text of `v` as a member at `depth` (2 spaces a level) shows it: every line
// after the first indented, no final newline.
std::string indented_json(const Value& v, std::size_t depth) {
  std::string out;
  append_json(v, 2 * depth, out);
  return out;
}

}  // namespace

PlanJsonStream::PlanJsonStream(bool all, bool iso_times, bool local)
    : all_(all),
      iso_times_(iso_times),
      local_(local),
      start_names_(std::make_shared<SpilledLists>("the report")) {
  for (const char* key : kLists)
    spills_.emplace_back(key, Spill{anonymous_temporary_file("the report"), 0, 0});
  warnings_.file = anonymous_temporary_file("the report");
}

PlanJsonStream::~PlanJsonStream() {
  for (auto& [key, s] : spills_)
    if (s.file) std::fclose(s.file);
  if (warnings_.file) std::fclose(warnings_.file);
}

PlanJsonStream::Spill& PlanJsonStream::spill(const std::string& key) {
  for (auto& [k, s] : spills_)
    if (k == key) return s;
  throw std::logic_error("plan report: no list " + key);
}

void PlanJsonStream::put(Spill& s, const Value& element) {
  const Value& shown = iso_times_ && has_time_fields(element)
                           ? with_iso_times(element, Format::json, local_)
                           : element;
  // Elements of a list at depth 1: each at depth 2.
  text_.assign(s.elements == 0 ? "    " : ",\n    ");
  append_json(shown, 4, text_);
  if (std::fwrite(text_.data(), 1, text_.size(), s.file) != text_.size())
    throw InputError("temporary file",
                     std::string("cannot write the report: ") + std::strerror(errno));
  s.bytes += text_.size();
  ++s.elements;
}

void PlanJsonStream::add(const forecast::RecoveryPlan& listed, const forecast::PlanInput& input) {
  PlanContext context;
  context.all = all_;
  context.salvages = forecast::plan_salvages(listed, input, input.live_brokers);
  const Value block = recovery_plan_value(listed, context);
  for (const char* key : {"partitions", "candidates", "followers", "salvage", "salvage_commands"})
    for (const auto& element : block.find(key)->as_array())
      put(spill(key), element);
  // The report lists every "error" (stale metadata) before every "warning" (another topic's
  // replica), each in partition order.
  for (const auto& element : block.find("problems")->as_array())
    put(scalar_text(*element.find("severity")) == "warning" ? warnings_ : spill("problems"),
        element);
  const Value timelines = plan_timelines_value(listed, input);  // held: the loop reads into it
  for (const auto& element : timelines.as_array())
    put(spill("timelines"), element);
}

void PlanJsonStream::flush(Spill& s) {
  // fwrite fills the stream's buffer: the last bytes reach the file (or meet a full disk)
  // only here. Unchecked, a /tmp that filled up cut the report short, silently (exit 1).
  if (std::fflush(s.file) != 0 || std::ferror(s.file))
    throw InputError("temporary file",
                     std::string("cannot write the report: ") + std::strerror(errno));
}

void PlanJsonStream::copy(Spill& s, std::ostream& out, bool& first) {
  if (s.elements == 0) return;
  if (!first) out << ",\n";
  first = false;
  flush(s);
  std::rewind(s.file);
  char buffer[1 << 16];
  std::size_t n;
  std::uint64_t copied = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, s.file)) > 0) {
    out.write(buffer, static_cast<std::streamsize>(n));
    copied += n;
  }
  if (std::ferror(s.file) || copied != s.bytes)
    throw InputError(
        "temporary file",
        fmt::format("cannot read the report back: {} of its {} bytes{}", copied, s.bytes,
                    std::ferror(s.file) ? fmt::format(" ({})", std::strerror(errno)) : ""));
}

// `steps` (head's start_order, not empty) as render_json writes it at depth 1, each step's
// spilled names (an empty "partitions" in `steps`) written from their file.
void PlanJsonStream::write_start_order(const Value& steps,
                                       const std::vector<forecast::StartStep>& start_order,
                                       std::ostream& out) {
  const auto& elements = steps.as_array();
  if (elements.size() != start_order.size())
    throw std::logic_error("plan report: start_order is not the plan's");
  constexpr std::string_view kEmpty = "[]\n    }";  // "partitions", the step's last member
  std::string name;
  out << "[\n";
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const Value& element = elements[i];
    const Value& shown = iso_times_ && has_time_fields(element)
                             ? with_iso_times(element, Format::json, local_)
                             : element;
    text_.assign(i == 0 ? "    " : ",\n    ");
    append_json(shown, 4, text_);
    const forecast::StartStep& step = start_order[i];
    if (!step.spilled || step.partition_count() == 0) {
      out << text_;
      continue;
    }
    if (text_.size() < kEmpty.size() ||
        std::string_view(text_).substr(text_.size() - kEmpty.size()) != kEmpty)
      throw std::logic_error("plan report: a spilled start step's partitions are not last");
    text_.resize(text_.size() - kEmpty.size());
    out << text_ << "[";
    bool first = true;
    step.spilled->for_each(step.spilled_list, [&](std::string_view partition) {
      name.assign(first ? "\n        " : ",\n        ");
      first = false;
      append_json(Value(std::string(partition)), 8, name);
      out << name;
    });
    out << "\n      ]\n    }";
  }
  out << "\n  ]";
}

void PlanJsonStream::write(const Value& head, const std::vector<forecast::StartStep>& start_order,
                           std::ostream& out) {
  // Every list's bytes in its file before the document's first byte: a full disk is an
  // error with nothing written, not a document cut short half-way.
  for (auto& [key, s] : spills_)
    flush(s);
  flush(warnings_);
  out << "{";
  bool first_member = true;
  for (const auto& [key, member] : head.as_object()) {
    out << (first_member ? "\n  " : ",\n  ") << indented_json(Value(key), 1) << ": ";
    first_member = false;
    Spill* s = nullptr;
    for (auto& [k, spilled] : spills_)
      if (k == key) s = &spilled;
    if (key == "start_order" && !member.as_array().empty()) {
      write_start_order(member, start_order, out);
      continue;
    }
    if (!s) {
      const Value& shown = iso_times_ && has_time_fields(member)
                               ? with_iso_times(member, Format::json, local_)
                               : member;
      out << indented_json(shown, 1);
      continue;
    }
    Spill* warnings = key == "problems" ? &warnings_ : nullptr;
    if (s->elements == 0 && (!warnings || warnings->elements == 0)) {
      out << "[]";
      continue;
    }
    out << "[\n";
    bool first = true;
    copy(*s, out, first);
    if (warnings) copy(*warnings, out, first);
    out << "\n  ]";
  }
  out << (first_member ? "}\n" : "\n}\n");
}

}  // namespace kepoch::report
