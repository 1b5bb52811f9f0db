#include "kepoch/report/timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "kepoch/base/text.hpp"
#include "kepoch/epoch/truncation.hpp"
#include "kepoch/report/common_values.hpp"
#include "kepoch/report/fit.hpp"
#include "kepoch/report/summary.hpp"

namespace kepoch::report {
namespace {

using detail::display_width;
using detail::shorten;

// The replica's relation to the reference, from their comparison (replica_diff.hpp).
std::string_view relation(const ReplicaComparison& c) {
  if (c.identical()) return "identical";
  if (!c.unanswered.empty() && !c.fork_by_epochs && !c.fork_by_batches) return "unknown";
  if (c.fork_by_epochs || c.fork_by_batches || !c.differing_batches.empty()) return "diverged";
  if (c.only_there && !c.only_here) return "lagging";
  if (c.only_here && !c.only_there) return "ahead";
  return "diverged";
}

// The offsets [log start, log end) as spans of one epoch each.
Value spans_value(const PartitionReplica& r) {
  Value spans = Value::array();
  const std::int64_t lso = r.loaded.log_start_offset;
  const std::int64_t leo = r.log_end_offset;
  const auto entries = r.loaded.cache.entries();
  auto push = [&](Value epoch, std::int64_t start, std::int64_t end) {
    start = std::max(start, lso);
    end = std::min(end, leo);
    if (start < end)
      spans.push(
          Value::object().set("epoch", std::move(epoch)).set("start", start).set("end", end));
  };
  if (entries.empty() || entries.front().start_offset > lso)
    push(Value(), lso, entries.empty() ? leo : entries.front().start_offset);
  for (std::size_t i = 0; i < entries.size(); ++i)
    push(entries[i].epoch, entries[i].start_offset,
         i + 1 < entries.size() ? entries[i + 1].start_offset : leo);
  return spans;
}

std::optional<std::int64_t> int_of(const Value* v) {
  if (!v) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(&v->data())) return *i;
  return std::nullopt;
}

// The glyphs of the legend, in epoch order; past the last they start again, so that
// neighbouring epochs never share one and the legend names every epoch a glyph stands for.
constexpr std::string_view kGlyphs =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

}  // namespace

Value timeline_value(const std::vector<PartitionReplica>& replicas, std::size_t reference,
                     const std::vector<ReplicaComparison>& comparisons,
                     const std::vector<std::optional<std::int64_t>>* truncations,
                     const std::vector<Value>* removed) {
  std::vector<const PartitionReplica*> held;
  held.reserve(replicas.size());
  for (const auto& r : replicas)
    held.push_back(&r);
  return timeline_value(held, reference, comparisons, truncations, removed);
}

Value timeline_value(const std::vector<const PartitionReplica*>& replicas, std::size_t reference,
                     const std::vector<ReplicaComparison>& comparisons,
                     const std::vector<std::optional<std::int64_t>>* truncations,
                     const std::vector<Value>* removed) {
  std::int64_t lo = replicas.front()->loaded.log_start_offset, hi = 0;
  for (const PartitionReplica* r : replicas) {
    lo = std::min(lo, r->loaded.log_start_offset);
    hi = std::max(hi, r->log_end_offset);
  }
  std::optional<std::int64_t> fork;
  for (const auto& c : comparisons)
    for (auto f : {c.fork_by_batches, c.fork_by_epochs})
      if (f && (!fork || *f < *fork)) fork = f;
  const PartitionReplica& ref = *replicas[reference];
  Value list = Value::array();
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    const PartitionReplica& r = *replicas[i];
    std::string_view rel = "reference";
    Value truncate_to;
    if (i != reference) {
      for (const auto& c : comparisons)
        if (c.replica == i) rel = relation(c);
      // Where it truncates if the reference leads: the Fetch divergence rule `predict` runs
      // (AbstractFetcherThread.truncateOnFetchResponse against the leader's epoch cache).
      // A tiered reference (PartitionReplica::remote_tier): the path through its remote tier
      // (TierStateMachine), unknown (null) where the remote metadata is not given.
      if (truncations) {
        truncate_to = optional_value((*truncations)[i]);
      } else {
        LeaderAnswers answers = answers_of(ref.as_leader, r.loaded.cache);
        add_tier_answers(answers, ref, ref.as_leader);
        const TruncationPrediction p = predict_truncation(answers, r.loaded, TruncationMode::fetch);
        truncate_to = p.tier && p.tier->outcome == TierOutcome::remote_unknown
                          ? Value()
                          : Value(p.truncate_to);
      }
    }
    Value replica = Value::object()
                        .set("dir", r.dir.string())
                        .set("relation", rel)
                        .set("log_start_offset", r.loaded.log_start_offset)
                        .set("log_end_offset", r.log_end_offset)
                        .set("hw", optional_value(r.high_watermark))
                        .set("recovery_point", optional_value(r.recovery_point))
                        .set("truncate_to", std::move(truncate_to));
    if (removed) replica.set("removed", i < removed->size() ? (*removed)[i] : Value());
    list.push(std::move(replica.set("spans", spans_value(r))));
  }
  return Value::object()
      .set("from", lo)
      .set("to", hi)
      .set("fork", optional_value(fork))
      .set("reference", ref.dir.string())
      .set("replicas", std::move(list));
}

std::int64_t timeline_axis_from(const Value& t, std::int64_t room) {
  const std::int64_t lo = int_of(t.find("from")).value_or(0);
  const std::int64_t hi = std::max(int_of(t.find("to")).value_or(0), lo + 1);
  const auto fork = int_of(t.find("fork"));
  if (!fork || hi - lo <= room) return lo;
  const std::int64_t margin = std::max<std::int64_t>(2, (hi - *fork) / 4);
  return std::clamp<std::int64_t>(*fork - margin, lo, hi - 1);
}

namespace {
// The last `n` components of a path (trailing slashes dropped), the whole when it has fewer.
std::string last_components(std::string_view dir, std::size_t n) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.remove_suffix(1);
  std::size_t at = dir.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (at == 0) return std::string(dir);
    const auto slash = dir.rfind('/', at - 1);
    if (slash == std::string_view::npos || slash == 0) return std::string(dir);
    at = slash;
  }
  return std::string(dir.substr(at + 1));
}
}  // namespace

std::vector<std::string> distinct_replica_names(const std::vector<std::string>& dirs) {
  std::vector<std::string> names;
  for (const auto& d : dirs)
    names.push_back(replica_name(d));
  for (std::size_t n = 3; n < 64; ++n) {
    bool repeated = false;
    for (std::size_t i = 0; i < names.size(); ++i)
      for (std::size_t j = i + 1; j < names.size(); ++j)
        if (names[i] == names[j] && dirs[i] != dirs[j]) {
          names[i] = last_components(dirs[i], n);
          names[j] = last_components(dirs[j], n);
          repeated = true;
        }
    if (!repeated) break;
  }
  return names;
}

bool is_timeline(const Value& v) {
  return v.is_object() && v.find("from") && v.find("to") && v.find("replicas") &&
         v.find("replicas")->is_array();
}

std::vector<std::string> timeline_drawing(const Value& t, std::size_t width) {
  const std::int64_t lo = int_of(t.find("from")).value_or(0);
  const std::int64_t hi = std::max(int_of(t.find("to")).value_or(0), lo + 1);
  const auto fork = int_of(t.find("fork"));
  const auto& replicas = t.find("replicas")->as_array();

  std::size_t name_width = 4;
  std::vector<std::string> dirs;
  for (const auto& r : replicas)  // drawn lines go out as they are: control characters escaped
    dirs.push_back(r.find("dir") ? escape_control(scalar_text(*r.find("dir"))) : "");
  const std::vector<std::string> names = distinct_replica_names(dirs);
  for (const auto& n : names)
    name_width = std::max(name_width, display_width(n));
  name_width = std::min<std::size_t>(name_width, 28);
  // A line: name, two spaces, "~|" bar "|", then "  a..b hw h t x relation" (up to 50).
  const std::size_t fixed = name_width + 2 + 3 + 50;
  const std::int64_t bar_room = static_cast<std::int64_t>(
      width > fixed + 20 ? std::min<std::size_t>(width - fixed, 200) : 20);

  // The axis: every offset when they fit; else, with a fork, from a little before it.
  const std::int64_t from = timeline_axis_from(t, bar_room);
  const bool cut = from > lo;
  const std::int64_t span = hi - from;
  const std::int64_t columns = std::min(span, bar_room);
  auto column_start = [&](std::int64_t c) { return from + c * span / columns; };
  // The column holding offset o (o == hi: the closing bar, one past the last column).
  auto column_of = [&](std::int64_t o) -> std::optional<std::int64_t> {
    if (o < from || o > hi) return std::nullopt;
    if (o == hi) return columns;
    std::int64_t c = (o - from) * columns / span;
    while (c + 1 < columns && column_start(c + 1) <= o)
      ++c;
    while (c > 0 && column_start(c) > o)
      --c;
    return c;
  };

  // Each column's epoch per replica, and the legend over the epochs drawn.
  auto epoch_at = [](const Value& r, std::int64_t o) -> std::optional<std::optional<std::int64_t>> {
    for (const auto& s : r.find("spans")->as_array()) {
      const auto start = int_of(s.find("start")), end = int_of(s.find("end"));
      if (start && end && o >= *start && o < *end) return int_of(s.find("epoch"));
    }
    return std::nullopt;  // not held
  };
  std::map<std::int64_t, char> glyph;
  std::vector<std::vector<std::optional<std::optional<std::int64_t>>>> cells;
  for (const auto& r : replicas) {
    cells.emplace_back();
    for (std::int64_t c = 0; c < columns; ++c) {
      cells.back().push_back(epoch_at(r, column_start(c)));
      if (cells.back().back() && *cells.back().back()) glyph[**cells.back().back()] = '#';
    }
  }
  std::size_t next = 0;
  for (auto& [epoch, g] : glyph)
    g = kGlyphs[next++ % kGlyphs.size()];

  std::vector<std::string> lines;
  std::string legend;
  for (const auto& [epoch, g] : glyph)
    legend += fmt::format("{}{}={}", legend.empty() ? "" : " ", g, epoch);
  lines.push_back(
      fmt::format("offsets {}..{}, {} per column{}", from, hi,
                  span == columns ? std::string("1 offset")
                                  : fmt::format("~{} offsets", (span + columns - 1) / columns),
                  cut ? fmt::format(" (~: offsets {}..{} not drawn)", lo, from - 1) : ""));
  for (auto& l :
       detail::wrap(fmt::format("epochs {}; h high watermark, r recovery point, t truncation point",
                                legend.empty() ? "none" : legend),
                    width))
    lines.push_back(std::move(l));
  const std::string indent(name_width + 2 + (cut ? 1 : 0), ' ');
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    const Value& r = replicas[i];
    std::string bar;
    for (const auto& cell : cells[i])
      bar += !cell ? ' ' : *cell ? glyph[**cell] : '?';
    const std::string name = shorten(names[i], name_width);
    std::string tail = fmt::format("{}..{}", int_of(r.find("log_start_offset")).value_or(0),
                                   int_of(r.find("log_end_offset")).value_or(0));
    if (const auto hw = int_of(r.find("hw"))) tail += fmt::format(" hw {}", *hw);
    // A truncation point is drawn where it cuts something: at the log end it is none.
    const auto leo = int_of(r.find("log_end_offset"));
    auto cut_at = int_of(r.find("truncate_to"));
    if (cut_at && leo && *cut_at >= *leo) cut_at.reset();
    if (cut_at) tail += fmt::format(" t {}", *cut_at);
    const std::string rel = r.find("relation") ? scalar_text(*r.find("relation")) : "";
    if (rel != "identical" && rel != "reference" && !rel.empty()) tail += " " + rel;
    lines.push_back(fmt::format("{}{}  {}|{}|  {}", name,
                                std::string(name_width - display_width(name), ' '), cut ? "~" : "",
                                bar, tail));
    // The marks under the bar: t over h over r where they share a column.
    std::string marks(static_cast<std::size_t>(columns) + 2, ' ');
    bool any = false;
    auto mark = [&](const char* key, char c) {
      const auto o = int_of(r.find(key));
      if (!o) return;
      const auto col = column_of(*o);
      if (!col) return;
      char& at = marks[static_cast<std::size_t>(*col) + 1];
      if (at == ' ' || (c == 't') || (c == 'h' && at == 'r')) at = c;
      any = true;
    };
    mark("recovery_point", 'r');
    mark("hw", 'h');
    if (cut_at) mark("truncate_to", 't');
    if (any) {
      while (!marks.empty() && marks.back() == ' ')
        marks.pop_back();
      lines.push_back(indent + marks);
    }
  }
  if (fork) {
    if (const auto col = column_of(*fork))
      lines.push_back(fmt::format("{}{}^ fork at offset {}", indent,
                                  std::string(static_cast<std::size_t>(*col) + 1, ' '), *fork));
  }
  return lines;
}

}  // namespace kepoch::report
