// Pins Kafka's acceptance of leader-epoch-checkpoint: CheckpointFile.CheckpointReadBuffer,
// LeaderEpochCheckpointFile.Formatter and the LeaderEpochFileCache constructor, and the
// effect of each failure (shared/spec kafka-formats 2.1, 2.2, 2.7, 3.8).
#include "check_helpers.hpp"

using kepoch::EpochEntry;
using kepoch::KafkaOutcome;
using Entries = std::vector<EpochEntry>;
using test::kEpochs;
using test::validate;

TEST_CASE("an empty file, or a version line alone, is an empty checkpoint", "[format][epochs]") {
  for (const char* text : {"", "0\n", "0", "0\n0\n"}) {
    const auto r = validate(text, kEpochs);
    CHECK(r.valid);
    CHECK(r.outcome == KafkaOutcome::ok);
    CHECK(r.loaded_entries == Entries{});
  }
}

TEST_CASE("the spec's example loads as written", "[format][epochs]") {
  const auto r = validate("0\n3\n0 0\n2 1\n4 2\n", kEpochs);
  CHECK(r.valid);
  CHECK(r.epoch_entries == Entries{{0, 0}, {2, 1}, {4, 2}});
  CHECK(r.loaded_entries == r.epoch_entries);
  CHECK(r.problems.empty());
}

TEST_CASE("IOException cases take the log dir offline", "[format][epochs]") {
  struct Case {
    const char* text;
    int line;
    const char* kafka;
  };
  const Case cases[] = {
      {"x\n0\n", 1, "Malformed line in checkpoint file [/data/t-0/file]: x"},
      {" 0\n0\n", 1, "Malformed line"},
      {"1\n0\n", 1,
       "Unrecognised version:1, expected version: 0 in checkpoint file at: /data/t-0/file"},
      {"0\nabc\n", 2, "Malformed line in checkpoint file [/data/t-0/file]: abc"},
      {"0\n3\n0 0\n", 3,
       "Expected [3] entries in checkpoint file [/data/t-0/file], but found only [1]"},
      {"0\n1\n0 0\n1 5\n", 4, "Expected [1] entries"},
      {"0\n1\n0 0 7\n", 3, "Malformed line in checkpoint file [/data/t-0/file]: 0 0 7"},
      {"0\n1\n 0 0\n", 3, "Malformed line"},
      {"0\n1\n3\n", 3, "Malformed line"},
      {"0\n1\n0 0\n\n", 4, "Malformed line"},            // a trailing blank line
      {"0\n2\n0 0\n0 1 2\n3 x\n", 4, "Malformed line"},  // first failure in reading order
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto r = validate(c.text, kEpochs);
    CHECK_FALSE(r.valid);
    CHECK(r.outcome == KafkaOutcome::dir_offline);
    CHECK(test::error_line(r) == c.line);
    CHECK_THAT(test::first_error(r), Catch::Contains(c.kafka));
    CHECK_FALSE(r.loaded_entries);
  }
}

TEST_CASE("unchecked exceptions make broker startup fail", "[format][epochs]") {
  struct Case {
    const char* text;
    int line;
    const char* exception;
  };
  const Case cases[] = {
      {"0\n-1\n", 2, "java.lang.IllegalArgumentException"},  // new ArrayList(-1)
      {"0\n1\n1 abc\n", 3, "java.lang.NumberFormatException"},
      {"0\n1\n2147483648 0\n", 3, "java.lang.NumberFormatException"},
      {"0\n1\n0 9223372036854775808\n", 3, "java.lang.NumberFormatException"},
      {"0\n1\n-1 0\n", 3, "java.lang.IllegalArgumentException"},  // EpochEntry rejected by assign
      {"0\n2\n0 0\n1 -5\n", 4, "java.lang.IllegalArgumentException"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto r = validate(c.text, kEpochs);
    CHECK_FALSE(r.valid);
    CHECK(r.outcome == KafkaOutcome::startup_fatal);
    CHECK(test::error_line(r) == c.line);
    REQUIRE(!r.problems.empty());
    CHECK(r.problems[0].kafka_exception == c.exception);
  }
  CHECK_THAT(test::first_error(validate("0\n1\n-1 0\n", kEpochs)),
             Catch::Contains("Received invalid partition leader epoch entry EpochEntry(epoch=-1, "
                             "startOffset=0)"));
}

TEST_CASE("white space Kafka tolerates is accepted, with a warning", "[format][epochs]") {
  const auto r = validate("0\n2\n0\t0\n2   5  \n", kEpochs);
  CHECK(r.valid);
  CHECK(r.epoch_entries == Entries{{0, 0}, {2, 5}});
  CHECK(test::has_warning(r, "trailing white space"));
  const auto crlf = validate("0\r\n1\r\n0 0\r\n", kEpochs);
  CHECK(crlf.valid);
  CHECK(test::has_warning(crlf, "carriage return"));
}

TEST_CASE("non-monotonic files are normalised on load (spec 3.8), with warnings",
          "[format][epochs]") {
  struct Case {
    const char* text;
    Entries loaded;
  };
  const Case cases[] = {
      {"0\n2\n1 10\n0 20\n", {{0, 20}}},
      {"0\n2\n1 20\n1 10\n", {{1, 10}}},
      {"0\n2\n1 10\n1 20\n", {{1, 10}}},
      {"0\n2\n0 5\n3 5\n", {{3, 5}}},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto r = validate(c.text, kEpochs);
    CHECK(r.valid);
    CHECK(r.outcome == KafkaOutcome::ok);
    CHECK(r.loaded_entries == c.loaded);
    CHECK_FALSE(test::warnings(r).empty());
  }
}

TEST_CASE("invalid UTF-8 fails the reader before any line", "[format][epochs]") {
  const auto r = validate("0\n1\n0 0\xFF\n", kEpochs);
  CHECK_FALSE(r.valid);
  CHECK(r.outcome == KafkaOutcome::dir_offline);
  CHECK_THAT(test::first_error(r), Catch::Contains("invalid UTF-8 at byte 7"));
}

TEST_CASE("lint: missing final newline, '+' signs, stale .tmp", "[format][epochs]") {
  CHECK(test::has_warning(validate("0\n1\n0 0", kEpochs), "no newline"));
  CHECK(test::has_warning(validate("+0\n1\n0 0\n", kEpochs), "never writes"));
  kepoch::CheckpointContext beside;
  beside.tmp_sibling = true;
  CHECK(test::has_warning(validate("0\n1\n0 0\n", kEpochs, beside), "stale"));
  auto tmp = kEpochs;
  tmp.tmp = true;
  const auto r = validate("0\n1\n0 0\n", tmp);
  CHECK(r.outcome == KafkaOutcome::not_read);
  CHECK(r.valid);
}

TEST_CASE("a rule broken on every line lists its first warnings and counts the rest",
          "[format][epochs]") {
  std::string text = "0\n300\n";
  for (int i = 0; i < 300; ++i)
    text += std::to_string(300 - i) + " " + std::to_string(i) + " \n";  // falling epochs, blank
  const auto r = validate(text, kEpochs);
  CHECK(r.valid);
  CHECK(r.loaded_entries == Entries{{1, 299}});
  const auto w = test::warnings(r);
  // trailing white space: 100 + 1; epochs: 100 + 1; offsets never fall.
  CHECK(w.size() == 2 * (kepoch::kMaxWarningsPerRule + 1));
  CHECK(test::has_warning(r, "200 more lines where a line ends with white space"));
  CHECK(test::has_warning(r, "199 more lines where the epoch is not greater than the previous"));
  CHECK(r.entry_line(0) == 3);
  CHECK(r.entry_line(299) == 302);
}
