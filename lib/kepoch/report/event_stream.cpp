#include "kepoch/report/event_stream.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "kepoch/base/text.hpp"

namespace kepoch::report {
namespace {

std::string member_text(const Value& v, std::string_view key) {
  const Value* m = v.find(key);
  return m == nullptr ? std::string() : escape_control(scalar_text(*m));
}

}  // namespace

void EventStream::write(const Value& event) {
  switch (format_) {
    case Format::table:
      // The longest event name (leader_epoch_change) sets the column.
      out_ << fmt::format("{}  {:<19}  {}\n", member_text(event, "time"),
                          member_text(event, "event"), member_text(event, "description"));
      break;
    case Format::json:
    case Format::jsonl:
      render_json_line(event, out_);
      break;
    case Format::yaml:
      out_ << "---\n";
      render_yaml(event, out_);
      break;
  }
  out_.flush();  // a watcher reads each event as it happens, also through a pipe
}

void EventStream::write_summary(const Value& summary) {
  if (format_ == Format::table) {
    std::ostringstream ignored;  // the summary holds no problems list
    render_table(summary, out_, ignored, RenderOptions{});
  } else {
    write(summary);
  }
  out_.flush();
}

}  // namespace kepoch::report
