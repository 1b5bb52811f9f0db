#include "kepoch/report/plan_json_stream.hpp"

#include <cerrno>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

#include "kepoch/base/error.hpp"
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

// An anonymous file for a spilled list: tmpfile() (on /tmp's disk, so a big plan's lists do
// not sit in memory), else an anonymous memory file - a host or a chroot with no writable /tmp
// still gets its report, the same bytes.
std::FILE* temporary_file() {
  if (std::FILE* f = std::tmpfile()) return f;
  const int tmpfile_errno = errno;
  const int fd = ::memfd_create("kepoch-plan-report", MFD_CLOEXEC);
  if (fd >= 0) {
    if (std::FILE* f = ::fdopen(fd, "w+")) return f;
    ::close(fd);
  }
  throw InputError("temporary file", std::string("cannot create one for the report: ") +
                                         std::strerror(tmpfile_errno));
}

}  // namespace

PlanJsonStream::PlanJsonStream(bool all, bool iso_times, bool local)
    : all_(all), iso_times_(iso_times), local_(local) {
  for (const char* key : kLists)
    spills_.emplace_back(key, Spill{temporary_file(), 0});
  warnings_.file = temporary_file();
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

void PlanJsonStream::copy(Spill& s, std::ostream& out, bool& first) {
  if (s.elements == 0) return;
  if (!first) out << ",\n";
  first = false;
  std::fflush(s.file);
  std::rewind(s.file);
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, s.file)) > 0)
    out.write(buffer, static_cast<std::streamsize>(n));
}

void PlanJsonStream::write(const Value& head, std::ostream& out) {
  out << "{";
  bool first_member = true;
  for (const auto& [key, member] : head.as_object()) {
    out << (first_member ? "\n  " : ",\n  ") << indented_json(Value(key), 1) << ": ";
    first_member = false;
    Spill* s = nullptr;
    for (auto& [k, spilled] : spills_)
      if (k == key) s = &spilled;
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
