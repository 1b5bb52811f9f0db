#include "kepoch/report/time_fields.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "kepoch/base/time_text.hpp"

namespace kepoch::report {
namespace {

bool beside(Format format) {
  return format == Format::json || format == Format::jsonl;
}

// The shown form of a time: its ISO text, or for NO_TIMESTAMP "none" (table) or null.
Value shown_time(std::int64_t ms, Format format, bool local) {
  if (auto text = iso_time_text(ms, local)) return Value(std::move(*text));
  return format == Format::table ? Value("none") : Value();
}

const std::int64_t* time_of(std::string_view key, const Value& v) {
  if (!is_time_field(key)) return nullptr;
  return std::get_if<std::int64_t>(&v.data());
}

// A time's shown text, the last one kept: a batch's records often share their time.
class TimeText {
 public:
  // The text of `ms`, empty for NO_TIMESTAMP; valid until the next call.
  std::string_view of(std::int64_t ms, bool local) {
    if (ms != ms_ || !known_) {
      size_ = write_iso_time(ms, local, text_);
      ms_ = ms;
      known_ = true;
    }
    return {text_, size_};
  }

 private:
  std::int64_t ms_ = 0;
  bool known_ = false;
  std::size_t size_ = 0;
  char text_[kIsoTimeMax];
};

// How a run of integer members is shown: which are time fields and, with the ISO text beside
// the milliseconds, the run's names with "<name>_iso" after each time field. Made once per
// run (MemberNames are static arrays: the same array means the same names).
struct RunTimes {
  RunTimes() = default;
  RunTimes(const RunTimes&) = delete;  // shown_names point into iso_names' strings
  RunTimes& operator=(const RunTimes&) = delete;
  std::span<const std::string_view> of;  // the run's names
  std::vector<std::size_t> times;        // the indexes of its time fields, in order
  std::vector<std::string> iso_names;    // beside: "<name>_iso" per time field
  std::vector<std::string_view> shown_names;
  std::vector<TimeText> texts;  // per time field: its own, as a run may hold two
  // The members as shown, rewritten per call: the integers in place (value i at to[i]), each
  // time field's shown text at text_at[t]; the kinds of the others stay integer.
  std::vector<Scalar> shown;
  std::vector<std::uint16_t> to;  // a run has a few members
  std::vector<std::size_t> text_at;
};

// Fills `r`, in its place for good.
void make_run_times(RunTimes& r, const MemberNames& names, bool beside) {
  r.of = names.names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (is_time_field(names.names()[i])) r.times.push_back(i);
  r.texts.resize(r.times.size());
  // Each value's place among the shown members; with the ISO text beside, every time field
  // adds one after its milliseconds.
  std::size_t at = 0, next = 0;  // next: the next time field's index in times
  for (std::size_t i = 0; i < names.size(); ++i) {
    r.to.push_back(static_cast<std::uint16_t>(at++));
    if (next < r.times.size() && r.times[next] == i) {
      if (beside) ++at;
      r.text_at.push_back(at - 1);
      ++next;
    }
  }
  r.shown.assign(at, Scalar::of(0));
  if (!beside) return;
  r.iso_names.reserve(r.times.size());  // never moved: no string's text moves
  std::size_t from = 0;
  for (const std::size_t t : r.times) {
    r.shown_names.insert(r.shown_names.end(), r.of.begin() + from, r.of.begin() + t + 1);
    r.iso_names.emplace_back(r.of[t]).append("_iso");
    r.shown_names.push_back(r.iso_names.back());
    from = t + 1;
  }
  r.shown_names.insert(r.shown_names.end(), r.of.begin() + from, r.of.end());
}

// An ObjectWriter that shows times on the way to another (a streamed element). One serves
// every element of a stream (set_inner before each), so what it keeps (how each run is
// shown, the last times' texts) lasts from batch to batch.
class TimeWriter : public ObjectWriter {
 public:
  TimeWriter(Format format, bool local) : format_(format), local_(local) {}
  void set_inner(ObjectWriter& inner) { inner_ = &inner; }
  void null(std::string_view key) override { inner_->null(key); }
  void boolean(std::string_view key, bool v) override { inner_->boolean(key, v); }
  // Called for every record of a streamed dump: no Value, no allocation past the first.
  void integer(std::string_view key, std::int64_t v) override {
    if (!is_time_field(key)) return inner_->integer(key, v);
    if (beside(format_)) {
      inner_->integer(key, v);
      return iso_text(key, v);
    }
    write_time(key, last_.of(v, local_));
  }
  // A run holding time fields goes on as one run of scalars: each time field's milliseconds
  // followed by its ISO text, or its text instead of them.
  void integers(const MemberNames& names, std::span<const std::int64_t> values) override {
    RunTimes& run = run_times(names);
    if (run.times.empty()) return inner_->integers(names, values);
    const MemberNames shown_names = show(run, names, values);
    inner_->scalars(shown_names, run.shown);
  }
  void integers_object(const MemberNames& names, std::span<const std::int64_t> values) override {
    RunTimes& run = run_times(names);
    if (run.times.empty()) return inner_->integers_object(names, values);
    const MemberNames shown_names = show(run, names, values);
    inner_->scalars_object(shown_names, run.shown);
  }
  // A decoded record: with the ISO texts beside the times (JSON) or instead of them (YAML),
  // its whole run shown at once and handed on in one call; a table takes the calls one by
  // one, as before.
  void integers_object_with(const MemberNames& names, std::span<const std::int64_t> values,
                            std::size_t at, std::string_view key,
                            const LazyMember& member) override {
    if (!beside(format_) && format_ != Format::yaml)
      return ObjectWriter::integers_object_with(names, values, at, key, member);
    RunTimes& run = run_times(names);
    const MemberNames shown_names = show(run, names, values);
    const std::size_t shown_at = at < values.size() ? run.to[at] : run.shown.size();
    const Shown shown(member, format_, local_);
    inner_->scalars_object_with(shown_names, run.shown, shown_at, key, shown,
                                LazyTimes{true, local_});
  }
  void string(std::string_view key, std::string_view v) override { inner_->string(key, v); }
  void time_text(std::string_view key, std::string_view v) override { inner_->time_text(key, v); }
  void value(std::string_view key, const Value& v) override {
    if (const std::int64_t* ms = time_of(key, v)) return integer(key, *ms);
    if (!has_time_fields(v)) return inner_->value(key, v);
    inner_->value(key, with_iso_times(v, format_, local_));
  }
  // The member rendered by the inner writer with its times shown; value() shows them too,
  // for a writer that takes it.
  void lazy_shown(std::string_view key, const LazyMember& member, LazyTimes) override {
    const Shown shown(member, format_, local_);
    inner_->lazy_shown(key, shown, LazyTimes{true, local_});
  }
  void begin_objects(std::string_view key) override { inner_->begin_objects(key); }
  void begin_object() override { inner_->begin_object(); }
  void end_object() override { inner_->end_object(); }
  void end_objects() override { inner_->end_objects(); }

 private:
  class Shown final : public LazyMember {
   public:
    Shown(const LazyMember& member, Format format, bool local)
        : member_(member), format_(format), local_(local) {}
    Value value() const override { return with_iso_times(member_.value(), format_, local_); }
    void append_json(detail::TextBuffer& out, LazyTimes times) const override {
      member_.append_json(out, times);
    }
    void append_inline(std::string& out, LazyTimes times) const override {
      member_.append_inline(out, times);
    }
    void emit_yaml(detail::YamlEmitter& e, LazyTimes times) const override {
      member_.emit_yaml(e, times);
    }

   private:
    const LazyMember& member_;
    Format format_;
    bool local_;
  };
  // The run's members as shown, into run.shown; returns their names.
  MemberNames show(RunTimes& run, const MemberNames& names, std::span<const std::int64_t> values) {
    Scalar* const out = run.shown.data();
    const std::uint16_t* const to = run.to.data();  // held here: the stores could alias run.to
    const std::int64_t* const value = values.data();
    const std::size_t n = values.size();
    for (std::size_t i = 0; i < n; ++i)
      out[to[i]].integer = value[i];
    for (std::size_t t = 0; t < run.times.size(); ++t)
      out[run.text_at[t]] = shown_text(run.texts[t].of(values[run.times[t]], local_));
    return beside(format_) ? MemberNames::kept(run.shown_names) : names;
  }
  // The shown form of a time whose ISO text is `text` (empty for NO_TIMESTAMP).
  Scalar shown_text(std::string_view text) const {
    if (!text.empty()) return {Scalar::Kind::time_text, 0, text};
    if (format_ == Format::table) return {Scalar::Kind::string, 0, "none"};
    return {};
  }
  // `<key>_iso` beside the time field `key`.
  void iso_text(std::string_view key, std::int64_t v) {
    if (iso_key_.size() != key.size() + 4 || !iso_key_.starts_with(key)) {
      iso_key_.assign(key);
      iso_key_ += "_iso";
    }
    write_time(iso_key_, last_.of(v, local_));
  }
  void write_time(std::string_view shown_key, std::string_view text) {
    const Scalar shown = shown_text(text);
    if (shown.kind == Scalar::Kind::time_text)
      inner_->time_text(shown_key, shown.text);
    else if (shown.kind == Scalar::Kind::string)
      inner_->string(shown_key, shown.text);
    else
      inner_->null(shown_key);
  }
  // The run's RunTimes, made on first use.
  RunTimes& run_times(const MemberNames& names) {
    RunTimes*& found = found_runs_[names.slot(kRunSlotBits)];
    if (found && names.same(found->of)) return *found;
    for (RunTimes& r : runs_)
      if (names.same(r.of)) return *(found = &r);
    found = &runs_.emplace_back();
    make_run_times(*found, names, beside(format_));
    return *found;
  }

  ObjectWriter* inner_ = nullptr;
  Format format_;
  bool local_;
  TimeText last_;  // of integer() and value()
  std::string iso_key_;
  std::deque<RunTimes> runs_;  // one per run written; never moved
  static constexpr int kRunSlotBits = 4;
  std::array<RunTimes*, std::size_t{1} << kRunSlotBits> found_runs_{};
};

class TimeStream : public ReportStream {
 public:
  TimeStream(std::unique_ptr<ReportStream> inner, Format format, bool local)
      : inner_(std::move(inner)), format_(format), local_(local), times_(format, local) {}
  void begin_item(const Value& fields, std::string_view list_key,
                  std::vector<std::string> table_columns) override {
    inner_->begin_item(shown(fields), list_key, std::move(table_columns));
  }
  void min_column_width(std::string_view column, std::size_t width) override {
    inner_->min_column_width(column, width);
  }
  void element(const Value& e) override { inner_->element(shown(e)); }
  void write_element(const std::function<void(ObjectWriter&)>& write) override {
    inner_->write_element([&](ObjectWriter& w) {
      times_.set_inner(w);
      write(times_);
    });
  }
  // A table's flat row: each time field's milliseconds as its text ("none" for
  // NO_TIMESTAMP), as TimeWriter shows it in a table.
  bool table_row(const MemberNames& names, std::span<const Scalar> values) override {
    if (format_ != Format::table) return false;
    FlatTimes& run = flat_times(names);
    run.shown.assign(values.begin(), values.end());
    for (std::size_t t = 0; t < run.times.size(); ++t) {
      const std::size_t i = run.times[t];
      if (values[i].kind != Scalar::Kind::integer) continue;
      // A batch of one record has one time twice (base and max): its text is made once.
      std::size_t same = 0;
      while (same < t && !(values[run.times[same]].kind == Scalar::Kind::integer &&
                           values[run.times[same]].integer == values[i].integer))
        ++same;
      if (same < t) {
        run.shown[i] = run.shown[run.times[same]];
        continue;
      }
      const std::string_view text = run.texts[t].of(values[i].integer, local_);
      run.shown[i] = text.empty() ? Scalar{Scalar::Kind::string, 0, "none"}
                                  : Scalar{Scalar::Kind::time_text, 0, text};
    }
    return inner_->table_row(names, run.shown);
  }
  void next_list(const Value& fields, std::string_view list_key,
                 std::vector<std::string> table_columns) override {
    inner_->next_list(shown(fields), list_key, std::move(table_columns));
  }
  void end_item(const Value& trailer) override { inner_->end_item(shown(trailer)); }
  void item(const Value& whole) override { inner_->item(shown(whole)); }
  void finish() override { inner_->finish(); }

 private:
  Value shown(const Value& v) const {
    return has_time_fields(v) ? with_iso_times(v, format_, local_) : v;
  }
  // A flat row's run: its time fields' indexes, a text per time field, the values shown.
  struct FlatTimes {
    std::span<const std::string_view> of;
    std::vector<std::size_t> times;
    std::vector<TimeText> texts;
    std::vector<Scalar> shown;
  };
  FlatTimes& flat_times(const MemberNames& names) {
    for (FlatTimes& r : flat_runs_)
      if (names.same(r.of)) return r;
    FlatTimes& r = flat_runs_.emplace_back();
    r.of = names.names();
    for (std::size_t i = 0; i < r.of.size(); ++i)
      if (is_time_field(r.of[i])) r.times.push_back(i);
    r.texts.resize(r.times.size());
    return r;
  }

  std::unique_ptr<ReportStream> inner_;
  Format format_;
  bool local_;
  TimeWriter times_;
  std::deque<FlatTimes> flat_runs_;  // one per run of flat rows (a few); never moved
};

}  // namespace

bool is_time_field(std::string_view key) {
  return key == "timestamp" || key.ends_with("_timestamp");
}

bool has_time_fields(const Value& v) {
  if (v.is_array()) {
    for (const auto& e : v.as_array())
      if (has_time_fields(e)) return true;
  } else if (v.is_object()) {
    for (const auto& [k, e] : v.as_object())
      if (time_of(k, e) || has_time_fields(e)) return true;
  }
  return false;
}

Value with_iso_times(const Value& v, Format format, bool local) {
  if (v.is_array()) {
    Value out = Value::array();
    for (const auto& e : v.as_array())
      out.push(with_iso_times(e, format, local));
    return out;
  }
  if (!v.is_object()) return v;
  Value out = Value::object();
  for (const auto& [k, e] : v.as_object()) {
    if (const std::int64_t* ms = time_of(k, e)) {
      if (beside(format)) {
        out.set(k, e);
        out.set(k + "_iso", shown_time(*ms, format, local));
      } else {
        out.set(k, shown_time(*ms, format, local));
      }
    } else {
      out.set(k, with_iso_times(e, format, local));
    }
  }
  return out;
}

std::unique_ptr<ReportStream> with_iso_times(std::unique_ptr<ReportStream> inner, Format format,
                                             bool local) {
  return std::make_unique<TimeStream>(std::move(inner), format, local);
}

}  // namespace kepoch::report
