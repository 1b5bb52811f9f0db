#include "kepoch/report/html_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "kepoch/base/time_text.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/report/svg.hpp"
#include "kepoch/report/timeline.hpp"

namespace kepoch::report {
namespace {

using svg::coord;
using svg::escape;

std::optional<std::int64_t> int_of(const Value* v) {
  if (!v) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(&v->data())) return *i;
  return std::nullopt;
}

std::string text_of(const Value* v) {
  return v ? scalar_text(*v) : std::string();
}

std::string attr(std::optional<std::int64_t> v) {
  return v ? std::to_string(*v) : std::string();
}

constexpr std::string_view kStyle =
    "body{font-family:sans-serif;margin:16px 24px;color:#1d1d1d;background:#fff}"
    "h1{font-size:19px;font-weight:600;margin:0 0 6px}"
    "h2{font-size:15px;margin:22px 0 4px}"
    "p{margin:2px 0 8px;font-size:13px;color:#444}"
    "svg{display:block}svg text{font-family:sans-serif;font-size:11px;fill:#1d1d1d}"
    "svg text.small{font-size:10px;fill:#555}"
    "ul.legend{list-style:none;padding:0;margin:4px 0 0;display:flex;flex-wrap:wrap;"
    "gap:4px 12px;font-size:12px}"
    "ul.legend li{display:flex;align-items:center;gap:4px}"
    "ul.legend span.sw{display:inline-block;width:14px;height:11px;border:1px solid #0004}"
    "table.candidates{border-collapse:collapse;font-size:12px;margin:10px 0 0}"
    "table.candidates caption{text-align:left;font-size:13px;color:#444;padding:0 0 4px}"
    "table.candidates td,table.candidates th{border:1px solid #ddd;padding:2px 8px;text-align:left}"
    "footer{margin-top:18px;font-size:11px;color:#777}";

std::string page_open(std::string_view title, std::string_view heading) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n<h1 id=\"verdict\">{}</h1>\n",
      escape(title), kStyle, escape(heading));
}

std::string page_close() {
  return "<footer>Drawn by kepoch from the same report its -o json prints.</footer>\n"
         "</body>\n</html>\n";
}

// --- Timelines ---------------------------------------------------------------------------

// The page is this wide; the plot starts after the replica names.
constexpr double kWidth = 1100;
constexpr double kPlotLeft = 230;
constexpr double kPlotRight = 1080;
constexpr double kBreakGap = 12;     // the break between the cut offsets and the zoomed ones
constexpr double kCutShare = 0.12;   // of the plot, for the cut offsets
constexpr double kLaneHeight = 22;   // a replica's bar
constexpr double kLaneStride = 60;   // bar, its marks' three label rows, the gap
constexpr double kTop = 34;          // the axis above the first bar
constexpr std::int64_t kRoom = 850;  // offsets the plot draws one by one at most

// The offset axis: [lo, hi] onto the plot, the part below `from` squeezed behind a break.
struct Axis {
  std::int64_t lo = 0, from = 0, hi = 1;
  bool cut() const { return from > lo; }
  // Where the squeezed offsets end: the break lies between here and zoom_left().
  double cut_right() const { return kPlotLeft + (kPlotRight - kPlotLeft) * kCutShare; }
  double zoom_left() const {
    return cut() ? kPlotLeft + (kPlotRight - kPlotLeft) * kCutShare + kBreakGap : kPlotLeft;
  }
  double x(std::int64_t o) const {
    if (cut() && o < from) {
      const double w = (kPlotRight - kPlotLeft) * kCutShare;
      return kPlotLeft + w * static_cast<double>(o - lo) / static_cast<double>(from - lo);
    }
    const double left = zoom_left();
    return left + (kPlotRight - left) * static_cast<double>(o - from) /
                      static_cast<double>(std::max<std::int64_t>(hi - from, 1));
  }
};

struct Section {
  std::string title;     // topic-partition
  std::string sentence;  // the section's own verdict, when the page has several
  std::string topic;
  std::string partition;
  const Value* timeline = nullptr;
};

// Every object holding a "timeline", in report order.
void collect(const Value& v, bool root, std::vector<Section>& out) {
  if (v.is_object()) {
    if (const Value* t = v.find("timeline"); t && is_timeline(*t)) {
      Section s;
      s.topic = text_of(v.find("topic"));
      s.partition = text_of(v.find("partition"));
      s.title = s.topic.empty() ? std::string("partition") : s.topic + "-" + s.partition;
      if (!root)
        if (const Value* sentence = summary_text(v)) s.sentence = scalar_text(*sentence);
      // A plan's partition (recovery_plan_report.hpp): the leader it is drawn against.
      if (const Value* leader = v.find("leader"); leader && leader->is_scalar() && !root)
        s.sentence += (s.sentence.empty() ? "" : " ") +
                      fmt::format("Drawn against broker {}, the leader the plan chooses.",
                                  scalar_text(*leader));
      s.timeline = t;
      out.push_back(std::move(s));
      return;
    }
    for (const auto& [k, m] : v.as_object())
      collect(m, false, out);
  } else if (v.is_array()) {
    for (const auto& e : v.as_array())
      collect(e, false, out);
  }
}

// The ticks of the axis: its ends, the break, and a few round offsets in the zoomed part.
std::vector<std::int64_t> ticks(const Axis& a) {
  std::set<std::int64_t> t{a.lo, a.from, a.hi};
  const std::int64_t span = a.hi - a.from;
  // Round steps (1, 2, 5, 10, 20, 50, ...): at most six in the zoomed part.
  std::int64_t step = 1;
  for (std::int64_t m = 1;; m *= 10) {
    if (span / m <= 6) {
      step = m;
      break;
    }
    if (span / (2 * m) <= 6) {
      step = 2 * m;
      break;
    }
    if (span / (5 * m) <= 6) {
      step = 5 * m;
      break;
    }
  }
  for (std::int64_t o = (a.from / step + 1) * step; o < a.hi; o += step)
    if (a.x(a.hi) - a.x(o) > 40 && a.x(o) - a.x(a.from) > 40) t.insert(o);
  return {t.begin(), t.end()};
}

// A removed span's committed_loss as an attribute: "true", "false" or "unknown" (null).
std::string_view committed_word(const Value* v) {
  if (!v || !std::holds_alternative<bool>(v->data())) return "unknown";
  return std::get<bool>(v->data()) ? "true" : "false";
}

// Diagonal hatching inside the box (x, y, w, h) as one path: lines rising left to right every
// 6 px, each cut at the box's sides (no pattern: the page references nothing, not even
// its own ids through url()).
std::string hatch(double x, double y, double w, double h) {
  std::string d;
  for (double xb = x - h; xb < x + w; xb += 6) {
    const double x0 = std::max(xb, x), x1 = std::min(xb + h, x + w);
    if (x1 <= x0) continue;
    d += fmt::format("M{} {}L{} {}", coord(x0), coord(y + h - (x0 - xb)), coord(x1),
                     coord(y + h - (x1 - xb)));
  }
  return d;
}

std::string removed_mark(const Axis& a, const std::string& dir, const Value& gone, double y) {
  const auto start = int_of(gone.find("start"));
  const auto end = int_of(gone.find("end"));
  if (!start || !end || *end <= *start) return {};
  const auto records = int_of(gone.find("records"));
  const auto lost = int_of(gone.find("lost_records"));
  const std::string_view committed = committed_word(gone.find("committed_loss"));
  const double x1 = a.x(std::max(*start, a.lo));
  const double w = std::max(a.x(std::min(*end, a.hi)) - x1, 2.0);
  const std::string count = records ? fmt::format("{} record{}", *records, *records == 1 ? "" : "s")
                                    : std::string("records not counted");
  const std::string lost_text =
      lost ? fmt::format("{} lost", *lost) : std::string("lost not known");
  const std::string_view committed_text = committed == "true"    ? "committed records among them"
                                          : committed == "false" ? "none committed"
                                                                 : "committed cannot be ruled out";
  std::string out = fmt::format(
      "<g class=\"removed\" data-replica=\"{}\" data-start=\"{}\" data-end=\"{}\" "
      "data-records=\"{}\" data-lost-records=\"{}\" data-committed-loss=\"{}\">"
      "<title>removed by the truncation: offsets {}..{}, {}, {}; {}</title>"
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffffa0\" stroke=\"#c62828\" "
      "stroke-width=\"1.5\"/><path d=\"{}\" stroke=\"#c62828\" stroke-width=\"1.5\"/>",
      escape(dir), *start, *end, attr(records), attr(lost), committed, *start, *end - 1, count,
      lost_text, committed_text, coord(x1), coord(y), coord(w), coord(kLaneHeight),
      hatch(x1, y, w, kLaneHeight));
  // The count above the bar, where no other mark writes.
  const bool right = x1 + w / 2 > kPlotRight - 120;
  out += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"{}\" style=\"fill:#c62828\">"
      "removes {}{}</text></g>\n",
      coord(right ? x1 + w - 3 : x1 + 3), coord(y - 3), right ? "end" : "start",
      records ? std::to_string(*records) : std::string("?"),
      committed == "true"    ? ", committed"
      : committed == "false" ? ""
                             : ", committed?");
  return out;
}

std::string timeline_svg(const Section& s,
                         std::map<std::optional<std::int64_t>, std::string>& legend) {
  const Value& t = *s.timeline;
  Axis a;
  a.lo = int_of(t.find("from")).value_or(0);
  a.hi = std::max(int_of(t.find("to")).value_or(0), a.lo + 1);
  a.from = timeline_axis_from(t, kRoom);
  const auto fork = int_of(t.find("fork"));
  const auto& replicas = t.find("replicas")->as_array();
  const double height = kTop + kLaneStride * static_cast<double>(replicas.size()) + 18;

  std::string out = fmt::format(
      "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" data-topic=\"{}\" data-partition=\"{}\" "
      "data-from=\"{}\" data-to=\"{}\" data-axis-from=\"{}\" data-fork=\"{}\">\n"
      "<title>{}: each replica's leader epochs along the offsets</title>\n",
      coord(kWidth), coord(height), coord(kWidth), coord(height), escape(s.topic),
      escape(s.partition), a.lo, a.hi, a.from, attr(fork), escape(s.title));

  // The axis: a line, ticks with their offsets, the break.
  const double axis_y = kTop - 10;
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n",
                     coord(kPlotLeft), coord(axis_y), coord(kPlotRight), coord(axis_y));
  out +=
      fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\">offset</text>\n", 8, coord(axis_y + 3));
  double last_label = -1e9;
  for (const auto o : ticks(a)) {
    const double x = a.x(o);
    out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#888\"/>\n",
                       coord(x), coord(axis_y - 3), coord(axis_y + 3));
    if (x - last_label < 48 && o != a.hi) continue;
    last_label = x;
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"{}\">{}</text>\n",
                       coord(x), coord(axis_y - 6),
                       o == a.hi   ? "end"
                       : o == a.lo ? "start"
                                   : "middle",
                       o);
  }
  if (a.cut()) {
    const double bx = a.zoom_left() - kBreakGap / 2;
    const double y1 = axis_y - 6, y2 = kTop + kLaneStride * static_cast<double>(replicas.size());
    out += fmt::format(
        "<g class=\"marker\" data-kind=\"break\" data-offset=\"{}\" data-cut-from=\"{}\">"
        "<title>offsets {}..{} are squeezed into the left of the break; from {} on, to "
        "scale</title><path d=\"M{} {} l-3 4 l6 4 l-6 4 l6 4 l-3 4 V{}\" fill=\"none\" "
        "stroke=\"#666\" stroke-dasharray=\"3 3\"/></g>\n",
        a.from, a.lo, a.lo, a.from - 1, a.from, coord(bx), coord(y1), coord(y2));
  }

  std::vector<std::string> dirs;
  for (const auto& r : replicas)
    dirs.push_back(text_of(r.find("dir")));
  const std::vector<std::string> names = distinct_replica_names(dirs);
  for (std::size_t i = 0; i < replicas.size(); ++i) {
    const Value& r = replicas[i];
    const std::string dir = text_of(r.find("dir"));
    const std::string rel = text_of(r.find("relation"));
    const double y = kTop + kLaneStride * static_cast<double>(i);
    out += fmt::format("<g class=\"replica\" data-replica=\"{}\" data-relation=\"{}\">\n",
                       escape(dir), escape(rel));
    out += fmt::format("<text x=\"8\" y=\"{}\"><title>{}</title>{}</text>\n",
                       coord(y + kLaneHeight / 2 + 4), escape(dir), escape(names[i]));
    out += fmt::format("<text x=\"8\" y=\"{}\" class=\"small\">{}..{}{}</text>\n",
                       coord(y + kLaneHeight + 11), text_of(r.find("log_start_offset")),
                       text_of(r.find("log_end_offset")),
                       rel.empty() || rel == "identical" ? "" : " " + escape(rel));
    // The plot's background: offsets this replica does not hold.
    out +=
        fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f3f3f3\"/>\n",
                    coord(kPlotLeft), coord(y), coord(kPlotRight - kPlotLeft), coord(kLaneHeight));
    for (const auto& sp : r.find("spans")->as_array()) {
      const auto epoch = int_of(sp.find("epoch"));
      const std::int64_t start = int_of(sp.find("start")).value_or(0);
      const std::int64_t end = int_of(sp.find("end")).value_or(start);
      const std::string color = svg::epoch_color(epoch);
      legend.emplace(epoch, color);
      auto rect = [&](std::int64_t from, std::int64_t to, std::string_view part) {
        const double x1 = a.x(from);
        // The squeezed offsets stop short of the break (a gap shows it).
        const double x2 = a.cut() && to <= a.from ? std::min(a.x(to), a.cut_right()) : a.x(to);
        // At least one pixel: every span is drawn, however short against the axis.
        const double w = std::max(x2 - x1, 1.0);
        out += fmt::format(
            "<rect class=\"span\" data-replica=\"{}\" data-epoch=\"{}\" data-start=\"{}\" "
            "data-end=\"{}\" data-part=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
            "fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.5\"><title>epoch {}: offsets {}..{}"
            "</title></rect>\n",
            escape(dir), attr(epoch), start, end, part, coord(x1), coord(y), coord(w),
            coord(kLaneHeight), color, epoch ? std::to_string(*epoch) : "none (below the cache)",
            start, end - 1);
        const std::string label = epoch ? std::to_string(*epoch) : "";
        if (!label.empty() && w >= 7.0 * static_cast<double>(label.size()) + 6)
          out += fmt::format(
              "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#fff\" "
              "style=\"fill:#fff;font-weight:600\" pointer-events=\"none\">{}</text>\n",
              coord(x1 + w / 2), coord(y + kLaneHeight / 2 + 4), label);
      };
      if (a.cut() && start < a.from && end > a.from) {
        rect(start, a.from, "cut");
        rect(a.from, end, "zoomed");
      } else {
        rect(start, end, "whole");
      }
    }
    // What the replica's truncation removes (`predict`, `plan`): hatched over its bar, with
    // the count and whether any of it was committed, as the report's "removed" says.
    if (const Value* gone = r.find("removed"); gone && gone->is_object())
      out += removed_mark(a, dir, *gone, y);
    // Marks under the bar: high watermark, recovery point, truncation point.
    struct Mark {
      const char* key;
      const char* label;
      const char* color;
    };
    for (const Mark m : {Mark{"hw", "hw", "#1f4fbf"}, Mark{"truncate_to", "truncate", "#c62828"},
                         Mark{"recovery_point", "rp", "#2a8a3a"}}) {
      const auto o = int_of(r.find(m.key));
      if (!o || *o < a.lo || *o > a.hi) continue;
      const std::string_view key = m.key;
      const double x = a.x(*o);
      const auto leo = int_of(r.find("log_end_offset"));
      // A truncation point at the log end cuts nothing: drawn faint, without a label.
      const bool faint = key == "truncate_to" && leo && *o >= *leo;
      // One row of labels under the bar per kind, so marks at one offset stay readable.
      const double label_y = y + kLaneHeight + (key == "hw" ? 10 : key == "truncate_to" ? 20 : 30);
      const bool right = x > kPlotRight - 80;
      out += fmt::format(
          "<g class=\"marker\" data-kind=\"{}\" data-replica=\"{}\" data-offset=\"{}\"{}>"
          "<title>{} {}</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
          "stroke-width=\"2\"{}/>",
          m.key, escape(dir), *o, faint ? " data-cuts=\"false\"" : "",
          key == "truncate_to" ? "truncates to" : m.label, *o, coord(x),
          coord(key == "truncate_to" ? y - 3 : y + kLaneHeight), coord(x), coord(label_y - 8),
          m.color, faint ? " stroke-dasharray=\"2 2\" opacity=\"0.5\"" : "");
      if (!faint)
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"{}\" style=\"fill:{}\">{} "
            "{}</text>",
            coord(right ? x - 3 : x + 3), coord(label_y), right ? "end" : "start", m.color, m.label,
            *o);
      out += "</g>\n";
    }
    out += "</g>\n";
  }
  if (fork && *fork >= a.lo && *fork <= a.hi) {
    const double x = a.x(*fork);
    const double y2 = kTop + kLaneStride * static_cast<double>(replicas.size()) - 4;
    out += fmt::format(
        "<g class=\"marker\" data-kind=\"fork\" data-offset=\"{}\"><title>the histories fork "
        "at offset {}</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"{}\" y=\"{}\" "
        "style=\"font-weight:600\" text-anchor=\"{}\">fork at {}</text></g>\n",
        *fork, *fork, coord(x), coord(kTop - 4), coord(x), coord(y2), coord(x + (x > 900 ? -4 : 4)),
        coord(y2 + 12), x > 900 ? "end" : "start", *fork);
  }
  out += "</svg>\n";
  return out;
}

std::string legend_html(const std::map<std::optional<std::int64_t>, std::string>& legend) {
  std::string out = "<ul class=\"legend\">\n";
  for (const auto& [epoch, color] : legend)
    out += fmt::format(
        "<li data-epoch=\"{}\" data-color=\"{}\"><span class=\"sw\" style=\"background:{}\">"
        "</span>{}</li>\n",
        attr(epoch), color, color, epoch ? fmt::format("epoch {}", *epoch) : "no epoch");
  return out + "</ul>\n";
}

// --- Metadata history -------------------------------------------------------------------

// Where a step or event sits on the metadata log's offsets: its offset, or a snapshot's end.
std::optional<std::int64_t> position(const Value& v) {
  if (const auto o = int_of(v.find("offset"))) return o;
  const std::string snap = text_of(v.find("snapshot"));
  if (snap.empty()) return std::nullopt;
  try {
    return std::stoll(snap.substr(0, snap.find('-')));
  } catch (...) {
    return std::nullopt;
  }
}

bool has_cause(const Value& step, std::string_view cause) {
  if (const Value* c = step.find("causes"); c && c->is_array())
    for (const auto& x : c->as_array())
      if (scalar_text(x) == cause) return true;
  return false;
}

std::string ids_text(const Value* v) {
  std::string out;
  if (v && v->is_array())
    for (const auto& x : v->as_array()) {
      if (!out.empty()) out += ',';
      out += scalar_text(x);
    }
  return "[" + out + "]";
}

}  // namespace

// A plan's candidates for one partition side by side (its "candidates" entries, best first):
// who could lead, whether Kafka would pick it, and what each choice loses. Empty for reports
// without candidates (diff, predict).
std::string candidates_table(const Value& report, const Section& s) {
  const Value* all = report.find("candidates");
  if (!all || !all->is_array()) return {};
  std::string rows;
  for (const auto& c : all->as_array()) {
    if (text_of(c.find("topic")) != s.topic || text_of(c.find("partition")) != s.partition)
      continue;
    auto yes = [&c](std::string_view k) { return text_of(c.find(k)) == "true" ? "yes" : ""; };
    const std::string lost = text_of(c.find("lost_records"));
    const std::string committed = text_of(c.find("committed_lost_records"));
    const bool possible = text_of(c.find("committed_loss_possible")) == "true";
    rows += fmt::format(
        "<tr data-topic=\"{}\" data-partition=\"{}\" data-broker=\"{}\" data-rank=\"{}\" "
        "data-lost-records=\"{}\" data-committed-lost-records=\"{}\"><td>{}</td><td>broker {}"
        "</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td></tr>\n",
        escape(s.topic), escape(s.partition), escape(text_of(c.find("broker"))),
        escape(text_of(c.find("rank"))), escape(lost), escape(committed),
        escape(text_of(c.find("rank"))), escape(text_of(c.find("broker"))), yes("live"),
        yes("clean"), yes("kafka_choice"), lost.empty() ? "unknown" : escape(lost),
        committed.empty() ? "unknown" : escape(committed),
        possible && committed == "0" ? " (a committed loss cannot be ruled out)" : "",
        escape(text_of(c.find("truncations"))));
  }
  if (rows.empty()) return {};
  return "<table class=\"candidates\"><caption>Every candidate leader, best first, and what "
         "electing it loses</caption>\n<tr><th>rank</th><th>leader</th><th>live</th>"
         "<th>in ISR</th><th>Kafka's choice</th><th>records lost</th><th>committed lost</th>"
         "<th>followers truncate to (broker@offset)</th></tr>\n" +
         rows + "</table>\n";
}

std::string timeline_page(const Value& report, std::string_view command) {
  std::vector<Section> sections;
  collect(report, true, sections);
  std::string heading;
  if (const Value* s = summary_text(report)) heading = scalar_text(*s);
  if (heading.empty()) heading = std::string(command);
  std::string out = page_open(command, heading);
  if (sections.empty()) out += "<p>No partition to draw: the report holds no timeline.</p>\n";
  for (const auto& s : sections) {
    std::map<std::optional<std::int64_t>, std::string> legend;
    out += fmt::format("<section data-topic=\"{}\" data-partition=\"{}\">\n<h2>{}</h2>\n",
                       escape(s.topic), escape(s.partition), escape(s.title));
    if (!s.sentence.empty()) out += fmt::format("<p>{}</p>\n", escape(s.sentence));
    out += fmt::format(
        "<p>Reference: {}. Colours are leader epochs; hw high watermark, rp "
        "recovery point, truncate where the replica truncates to.</p>\n",
        escape(text_of(s.timeline->find("reference"))));
    std::string picture = timeline_svg(s, legend);
    out += picture;
    out += legend_html(legend);
    out += candidates_table(report, s);
    out += "</section>\n";
  }
  return out + page_close();
}

std::string history_page(const Value& h) {
  const auto& partitions = h.find("partitions") && h.find("partitions")->is_array()
                               ? h.find("partitions")->as_array()
                               : Value::Array{};
  const auto& brokers = h.find("brokers") && h.find("brokers")->is_array()
                            ? h.find("brokers")->as_array()
                            : Value::Array{};
  // The axis: the metadata log's offsets the history covers.
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  auto see = [&](std::optional<std::int64_t> o) {
    if (!o) return;
    lo = std::min(lo, *o);
    hi = std::max(hi, *o);
  };
  for (const auto& p : partitions)
    for (const auto& s : p.find("steps")->as_array())
      see(position(s));
  for (const auto& b : brokers)
    see(position(b));
  if (const Value* start = h.find("start")) see(int_of(start->find("log_end_offset")));
  if (lo > hi) lo = hi = 0;
  hi = std::max(hi, lo + 1);
  const double left = 230, right = 1080;
  auto x = [&](std::int64_t o) {
    return left + (right - left) * static_cast<double>(o - lo) / static_cast<double>(hi - lo);
  };

  // The time axis beside the offsets: the records' own timestamps, in UTC (a page is read
  // anywhere), each tick labelled with the last one at or before its offset.
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> times;  // offset -> (ms, iso)
  auto seen_at = [&times](const Value& v) {
    const auto at = position(v);
    const auto ms = int_of(v.find("timestamp"));
    if (!at || !ms || *ms < 0) return;
    if (auto iso = iso_time_text(*ms)) times.emplace(*at, std::make_pair(*ms, std::move(*iso)));
  };
  for (const auto& p : partitions)
    for (const auto& s : p.find("steps")->as_array())
      seen_at(s);
  for (const auto& b : brokers)
    seen_at(b);

  std::set<std::int64_t> broker_ids;
  for (const auto& b : brokers)
    if (const auto id = int_of(b.find("broker_id"))) broker_ids.insert(*id);
  const double lane = 30, top = times.empty() ? 34 : 48;
  const double height =
      top + lane * static_cast<double>(partitions.size() + broker_ids.size()) + 30;
  const std::string target = text_of(h.find("target"));
  std::size_t changes = 0;
  for (const auto& p : partitions)
    for (const auto& s : p.find("steps")->as_array())
      if (has_cause(s, "leader_change") || has_cause(s, "leader_lost")) ++changes;
  const std::string heading =
      fmt::format("Metadata history of {}: {} partition{}, {} leader change{}, {} broker{}", target,
                  partitions.size(), partitions.size() == 1 ? "" : "s", changes,
                  changes == 1 ? "" : "s", broker_ids.size(), broker_ids.size() == 1 ? "" : "s");

  std::string out = page_open("kepoch metadata history", heading);
  out +=
      "<p>Along the metadata log's offsets (and above them the time the records were written): "
      "each partition's registrations (colour: leader "
      "epoch, label: leader/epoch; grey: no leader), ISR shrink (&#9660;) and expand "
      "(&#9650;) ticks; each broker fenced (red) or unfenced (green).</p>\n";
  out += fmt::format(
      "<svg class=\"history\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1100\" "
      "height=\"{}\" viewBox=\"0 0 1100 {}\" role=\"img\" data-from=\"{}\" data-to=\"{}\">\n"
      "<title>metadata history</title>\n",
      coord(height), coord(height), lo, hi);
  const double axis_y = top - 10;
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n",
                     coord(left), coord(axis_y), coord(right), coord(axis_y));
  out += fmt::format("<text x=\"8\" y=\"{}\" class=\"small\">metadata offset</text>\n",
                     coord(axis_y + 3));
  for (int k = 0; k <= 5; ++k) {
    const std::int64_t o = lo + (hi - lo) * k / 5;
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"{}\">{}</text>\n",
                       coord(x(o)), coord(axis_y - 6),
                       k == 0   ? "start"
                       : k == 5 ? "end"
                                : "middle",
                       o);
  }
  if (!times.empty()) {
    // The day once, beside the axis; each tick the time of day (with the day when it differs).
    const std::string& first = times.begin()->second.second;
    const std::string day = first.substr(0, first.find('T'));
    out += fmt::format("<text x=\"8\" y=\"{}\" class=\"small\">time (UTC) {}</text>\n",
                       coord(axis_y - 15), escape(day));
    for (int k = 0; k <= 5; ++k) {
      const std::int64_t o = lo + (hi - lo) * k / 5;
      auto it = times.upper_bound(o);
      if (it == times.begin()) continue;  // no record with a time at or before this offset
      --it;
      const std::string& iso = it->second.second;
      const auto t = iso.find('T');
      const std::string label = t == std::string::npos    ? iso
                                : iso.substr(0, t) == day ? iso.substr(t + 1)
                                                          : iso.substr(5);
      out += fmt::format(
          "<g class=\"time-tick\" data-offset=\"{}\" data-at-offset=\"{}\" "
          "data-timestamp=\"{}\"><title>offset {}: the last record at or before it was written "
          "at {}</title><text x=\"{}\" y=\"{}\" class=\"small\" text-anchor=\"{}\">{}</text></g>\n",
          o, it->first, it->second.first, o, escape(iso), coord(x(o)), coord(axis_y - 18),
          k == 0   ? "start"
          : k == 5 ? "end"
                   : "middle",
          escape(label));
    }
  }
  std::map<std::optional<std::int64_t>, std::string> legend;
  double y = top;
  for (const auto& p : partitions) {
    const std::string topic = text_of(p.find("topic"));
    const std::string partition = text_of(p.find("partition"));
    out += fmt::format("<g class=\"lane\" data-topic=\"{}\" data-partition=\"{}\">\n",
                       escape(topic), escape(partition));
    out += fmt::format("<text x=\"8\" y=\"{}\">{}-{}</text>\n", coord(y + 15), escape(topic),
                       escape(partition));
    const auto& steps = p.find("steps")->as_array();
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Value& s = steps[i];
      const auto at = position(s);
      if (!at) continue;
      std::int64_t end = hi;
      for (std::size_t j = i + 1; j < steps.size(); ++j)
        if (const auto next = position(steps[j])) {
          end = *next;
          break;
        }
      const auto leader = int_of(s.find("leader"));
      const auto epoch = int_of(s.find("leader_epoch"));
      const bool led = leader && *leader >= 0;
      const std::string color = led ? svg::epoch_color(epoch) : "#b0b0b0";
      if (led) legend.emplace(epoch, color);
      const double x1 = x(*at), w = std::max(x(end) - x1, 2.0);
      std::string causes;
      if (const Value* c = s.find("causes"); c && c->is_array())
        for (const auto& cv : c->as_array())
          causes += (causes.empty() ? "" : ", ") + scalar_text(cv);
      out += fmt::format(
          "<rect class=\"step\" data-offset=\"{}\" data-snapshot=\"{}\" data-leader=\"{}\" "
          "data-epoch=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"20\" fill=\"{}\" "
          "stroke=\"#fff\" stroke-width=\"0.5\"><title>{}: leader {}, epoch {}, ISR {} "
          "({})</title></rect>\n",
          attr(int_of(s.find("offset"))), escape(text_of(s.find("snapshot"))), attr(leader),
          attr(epoch), coord(x1), coord(y), coord(w), color,
          int_of(s.find("offset"))
              ? fmt::format("offset {}", *at)
              : fmt::format("snapshot {}", escape(text_of(s.find("snapshot")))),
          led ? std::to_string(*leader) : "none", attr(epoch), escape(ids_text(s.find("isr"))),
          escape(causes));
      const std::string label =
          fmt::format("{}/{}", led ? std::to_string(*leader) : "-", attr(epoch));
      if (w >= 6.5 * static_cast<double>(label.size()) + 6)
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"fill:#fff;font-weight:600\" "
            "pointer-events=\"none\">{}</text>\n",
            coord(x1 + w / 2), coord(y + 14), label);
      for (const char* kind : {"isr_shrink", "isr_expand"}) {
        if (!has_cause(s, kind)) continue;
        const bool shrink = std::string_view(kind) == "isr_shrink";
        out += fmt::format(
            "<g class=\"marker\" data-kind=\"{}\" data-offset=\"{}\"><title>{} at {}: ISR "
            "{}</title><path d=\"M{} {} l-4 {} h8 z\" fill=\"{}\"/></g>\n",
            kind, *at, shrink ? "ISR shrinks" : "ISR expands", *at, escape(ids_text(s.find("isr"))),
            coord(x1), coord(shrink ? y + 27 : y + 21), shrink ? -6 : 6,
            shrink ? "#c62828" : "#2a8a3a");
      }
    }
    out += "</g>\n";
    y += lane;
  }
  for (const auto id : broker_ids) {
    out += fmt::format("<g class=\"lane\" data-broker=\"{}\">\n", id);
    out += fmt::format("<text x=\"8\" y=\"{}\">broker {}</text>\n", coord(y + 15), id);
    // The broker's fencing state between its events.
    std::vector<std::pair<std::int64_t, std::string>> states;  // from offset, state
    for (const auto& b : brokers) {
      if (int_of(b.find("broker_id")) != id) continue;
      const auto at = position(b);
      if (!at) continue;
      const std::string event = text_of(b.find("event"));
      std::string state = states.empty() ? "unknown" : states.back().second;
      if (const Value* f = b.find("fenced"); f && std::holds_alternative<bool>(f->data()))
        state = std::get<bool>(f->data()) ? "fenced" : "unfenced";
      else if (event == "fenced")
        state = "fenced";
      else if (event == "unfenced")
        state = "unfenced";
      else if (event == "unregistered")
        state = "unknown";
      states.emplace_back(*at, state);
      out += fmt::format(
          "<g class=\"marker\" data-kind=\"broker_event\" data-broker=\"{}\" data-event=\"{}\" "
          "data-offset=\"{}\"><title>{} at {}</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" "
          "y2=\"{}\" stroke=\"#333\"/></g>\n",
          id, escape(event), *at, escape(event),
          int_of(b.find("offset")) ? fmt::format("offset {}", *at)
                                   : "snapshot " + escape(text_of(b.find("snapshot"))),
          coord(x(*at)), coord(y - 2), coord(x(*at)), coord(y + 22));
    }
    for (std::size_t i = 0; i < states.size(); ++i) {
      const std::int64_t from = states[i].first;
      const std::int64_t to = i + 1 < states.size() ? states[i + 1].first : hi;
      const std::string& st = states[i].second;
      out += fmt::format(
          "<rect class=\"state\" data-state=\"{}\" data-start=\"{}\" data-end=\"{}\" x=\"{}\" "
          "y=\"{}\" width=\"{}\" height=\"12\" fill=\"{}\"><title>{} from {}</title></rect>\n",
          st, from, to, coord(x(from)), coord(y + 4), coord(std::max(x(to) - x(from), 1.0)),
          st == "fenced"     ? "#e57373"
          : st == "unfenced" ? "#81c784"
                             : "#cfcfcf",
          st, from);
    }
    out += "</g>\n";
    y += lane;
  }
  out += "</svg>\n";
  out += legend_html(legend);
  return out + page_close();
}

}  // namespace kepoch::report
