#pragma once
// Reports as one self-contained HTML page (`--html FILE`): inline SVG and a little inline
// CSS, no script, no network, no external font, so the page opens anywhere and can be
// pasted into an incident document. The pictures are drawn from the report's own Values
// (the same ones the JSON renders), so the picture and the JSON cannot disagree; all text
// is escaped.
//
// Drawn elements carry stable attributes for scripts and tests to read back:
//   timeline pages (diff, predict, plan): one <svg class="timeline"> per partition with
//     data-topic, data-partition, data-from, data-to, data-axis-from (the first offset drawn
//     to scale: the offsets below it sit behind a break), data-fork; each span
//     <rect class="span" data-replica (its dir) data-epoch ("" when none) data-start
//     data-end data-part ("whole", or "cut"/"zoomed" for the two halves of a span that
//     crosses the break)>; markers <g class="marker" data-kind="fork|hw|recovery_point|
//     truncate_to|break" data-replica data-offset>; the legend <li data-epoch data-color>.
//   history pages (metadata history): per partition <g class="lane" data-topic
//     data-partition>, a <rect class="step" data-offset data-leader data-epoch> per
//     registration, ISR ticks <g class="marker" data-kind="isr_shrink|isr_expand"
//     data-offset>; per broker <g class="lane" data-broker> with <rect class="state"
//     data-state="fenced|unfenced|unknown"> and <g class="marker" data-kind="broker_event"
//     data-event data-offset>.

#include <string>
#include <string_view>

#include "kepoch/report/value.hpp"

namespace kepoch::report {

// Every timeline (timeline.hpp) in `report` (a `diff`, `predict` or `plan` report, or one of
// them over log dirs: each section's), headed by the report's verdict sentence.
// `command` names the page ("kepoch diff").
std::string timeline_page(const Value& report, std::string_view command);

// A `metadata history` report: one swimlane per partition along the metadata log's offsets
// (the leader and epoch of each registration, ISR shrink and expand ticks), one per broker
// (fenced or not, its registration events).
std::string history_page(const Value& history);

}  // namespace kepoch::report
