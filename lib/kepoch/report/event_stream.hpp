#pragma once
// Output of an unbounded run of events (`cluster watch`), written as each event happens:
//   table  one line per event: "<time>  <event>  <description>", padded to align
//   json, jsonl  one JSON object per line (NDJSON)
//   yaml   one YAML document per event ("---")
// and a closing summary in the same form (table: the renderer's key/value lines).

#include <iosfwd>

#include "kepoch/report/render.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

class EventStream {
 public:
  EventStream(Format format, std::ostream& out) : format_(format), out_(out) {}

  // An object with "time", "event" and "description" members (and any others).
  void write(const Value& event);
  void write_summary(const Value& summary);

 private:
  Format format_;
  std::ostream& out_;
};

}  // namespace kepoch::report
