#include "kepoch/report/time_fields.hpp"

#include <cstdint>
#include <span>
#include <string>

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

// An ObjectWriter that shows times on the way to another (a streamed element). One serves
// every element of a stream (set_inner before each), so what it keeps (a run's time fields,
// the last time's text) lasts from batch to batch.
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
    write_time(key, v);
  }
  // The run's parts between time fields go on as runs. When the ISO text goes beside the
  // epoch milliseconds, a time field ends its part of the run (the integer is written as it
  // was) and only its ISO text goes on its own. Which names are time fields is decided once
  // per run: MemberNames are static arrays, so the same array means the same names.
  void integers(const MemberNames& names, std::span<const std::int64_t> values) override {
    if (!names.same(times_of_)) {
      times_of_ = names.names();
      times_ = 0;
      for (std::size_t i = 0; i < names.size(); ++i)
        if (is_time_field(names.names()[i])) times_ |= std::uint64_t{1} << (i % 64);
      if (names.size() > 64) times_ = ~std::uint64_t{0};  // a long run: each name checked
    }
    std::size_t from = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!(times_ >> (i % 64) & 1) || (names.size() > 64 && !is_time_field(names.names()[i])))
        continue;
      if (beside(format_)) {
        inner_->integers(names.part(from, i + 1 - from), values.subspan(from, i + 1 - from));
        iso_text(names.names()[i], values[i]);
      } else {
        if (i > from) inner_->integers(names.part(from, i - from), values.subspan(from, i - from));
        integer(names.names()[i], values[i]);
      }
      from = i + 1;
    }
    if (from < values.size())
      inner_->integers(names.part(from, values.size() - from), values.subspan(from));
  }
  void string(std::string_view key, std::string_view v) override { inner_->string(key, v); }
  void value(std::string_view key, const Value& v) override {
    if (const std::int64_t* ms = time_of(key, v)) return integer(key, *ms);
    if (!has_time_fields(v)) return inner_->value(key, v);
    inner_->value(key, with_iso_times(v, format_, local_));
  }
  void begin_objects(std::string_view key) override { inner_->begin_objects(key); }
  void begin_object() override { inner_->begin_object(); }
  void end_object() override { inner_->end_object(); }
  void end_objects() override { inner_->end_objects(); }

 private:
  // `<key>_iso` beside the time field `key`.
  void iso_text(std::string_view key, std::int64_t v) {
    if (iso_key_.size() != key.size() + 4 || !iso_key_.starts_with(key)) {
      iso_key_.assign(key);
      iso_key_ += "_iso";
    }
    write_time(iso_key_, v);
  }
  void write_time(std::string_view shown_key, std::int64_t v) {
    if (v != last_time_ || last_size_ == 0) {  // a batch's records often share their time
      last_size_ = write_iso_time(v, local_, last_text_);
      last_time_ = v;
    }
    if (last_size_ > 0)
      inner_->time_text(shown_key, std::string_view(last_text_, last_size_));
    else if (format_ == Format::table)
      inner_->string(shown_key, "none");
    else
      inner_->null(shown_key);
  }

  ObjectWriter* inner_ = nullptr;
  Format format_;
  bool local_;
  std::int64_t last_time_ = 0;  // the time whose text is last_text_ (when last_size_ > 0)
  char last_text_[kIsoTimeMax];
  std::size_t last_size_ = 0;
  std::string iso_key_;
  std::span<const std::string_view> times_of_;  // the run whose time fields are in times_
  std::uint64_t times_ = 0;                     // bit i: names[i] may be a time field
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
  std::unique_ptr<ReportStream> inner_;
  Format format_;
  bool local_;
  TimeWriter times_;
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
