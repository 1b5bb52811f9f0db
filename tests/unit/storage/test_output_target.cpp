// storage/output_target: where kepoch may write (the one rule every output flag goes
// through), decided over stat facts without a file system, then the facts gathered from a
// real scratch tree (symbolic links, hard links, log dirs, FIFOs).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "kepoch/storage/output_target.hpp"

namespace fs = std::filesystem;
using namespace kepoch;
using Catch::Matchers::Contains;

namespace {

FileId id(std::uint64_t inode) {
  return {1, inode};
}

OutputFacts page(FileKind kind, std::uint64_t inode = 100, std::uint64_t size = 10) {
  OutputFacts o;
  o.flag = "--html";
  o.given = "p.html";
  o.resolved = "/w/p.html";
  o.target = {kind, id(inode), size};
  o.dirs = {{"/w", id(2), false, false, false}, {"/", id(1), false, false, false}};
  return o;
}

InputFacts file_input(std::string given, std::uint64_t inode) {
  return {std::move(given), {FileKind::regular, id(inode), 50}, {}};
}

}  // namespace

TEST_CASE("output_target: a new file outside every input and log dir is written whole") {
  const auto d = decide_output(page(FileKind::missing), OutputKind::html_page, {}, false);
  CHECK(d.allowed);
  CHECK(d.method == WriteMethod::replace);
  CHECK(d.write_path == "/w/p.html");
}

TEST_CASE("output_target: never a file the run reads (same inode: hard or symbolic link)") {
  // kepoch diff --html b1.snap b2.snap b3.snap with b1.snap also an argument, or any link to it
  const auto d = decide_output(page(FileKind::regular, 7), OutputKind::html_page,
                               {file_input("b2.snap", 8), file_input("b1-link.snap", 7)}, true);
  CHECK_FALSE(d.allowed);
  CHECK_THAT(d.refusal, Contains("--html p.html is the same file as b1-link.snap, an input"));
}

TEST_CASE("output_target: never over a file kepoch did not write, unless asked") {
  OutputFacts snapshot = page(FileKind::regular, 9, 4096);  // `--html b1.snap` forgetting the name
  const auto refused = decide_output(snapshot, OutputKind::html_page, {}, false);
  CHECK_FALSE(refused.allowed);
  CHECK_THAT(refused.refusal, Contains("exists and is not an HTML page kepoch wrote"));
  CHECK_THAT(refused.refusal, Contains("--overwrite"));
  CHECK(decide_output(snapshot, OutputKind::html_page, {}, true).allowed);
  snapshot.kepoch_wrote = true;  // a page kepoch wrote before is replaced without asking
  CHECK(decide_output(snapshot, OutputKind::html_page, {}, false).allowed);
  // An empty file holds nothing to lose (mktemp's).
  CHECK(decide_output(page(FileKind::regular, 9, 0), OutputKind::html_page, {}, false).allowed);
  // The config file a command edits on purpose.
  CHECK(decide_output(page(FileKind::regular, 9, 99), OutputKind::config_edit, {}, false).allowed);
}

TEST_CASE("output_target: never inside a log dir, a partition dir or a metadata log dir") {
  for (int which = 0; which < 3; ++which) {
    OutputFacts o = page(FileKind::missing);
    o.dirs = {{"/l/t-0", id(3), false, which == 0, false},
              {"/l", id(2), which == 1, false, false},
              {"/", id(1), false, false, false}};
    if (which == 2) o.dirs[0] = {"/l/__cluster_metadata-0", id(3), false, false, true};
    const auto d = decide_output(o, OutputKind::html_page, {}, true);
    CHECK_FALSE(d.allowed);
    // A partition dir's (or metadata log's) log dir is named: the operator knows log dirs.
    CHECK_THAT(d.refusal, Contains("inside the log dir /l:"));
  }
}

TEST_CASE("output_target: never inside a directory the run reads (a log dir without files yet)") {
  OutputFacts o = page(FileKind::missing);
  o.dirs = {{"/fresh", id(5), false, false, false}, {"/", id(1), false, false, false}};
  InputFacts in{
      "/fresh", {FileKind::directory, id(5), 0}, {{"/fresh", id(5), false, false, false}}};
  const auto d = decide_output(o, OutputKind::logdir_snapshot, {in}, true);
  CHECK_FALSE(d.allowed);
  CHECK_THAT(d.refusal, Contains("inside /fresh, which this run reads"));
}

TEST_CASE("output_target: a FIFO or a character device is written in place, a dir never") {
  const auto fifo = decide_output(page(FileKind::fifo), OutputKind::html_page, {}, false);
  CHECK(fifo.allowed);
  CHECK(fifo.method == WriteMethod::in_place);
  CHECK(fifo.waits_for_reader);
  const auto dev = decide_output(page(FileKind::char_device), OutputKind::html_page, {}, false);
  CHECK(dev.allowed);
  CHECK(dev.method == WriteMethod::in_place);
  CHECK_FALSE(dev.waits_for_reader);
  for (auto k : {FileKind::directory, FileKind::socket, FileKind::block_device}) {
    const auto d = decide_output(page(k), OutputKind::html_page, {}, true);
    CHECK_FALSE(d.allowed);
    CHECK_THAT(d.refusal, Contains("not a file kepoch can write"));
  }
}

TEST_CASE("output_target: the marks of what kepoch wrote") {
  CHECK(kepoch_wrote(OutputKind::html_page, "<!DOCTYPE html>\n<html",
                     "<footer>Drawn by kepoch from the same report</footer>\n</body>\n</html>\n"));
  CHECK_FALSE(kepoch_wrote(OutputKind::html_page, "<!DOCTYPE html>\n<html", "</html>\n"));
  CHECK(kepoch_wrote(OutputKind::logdir_snapshot,
                     "{\"broker\":1,\"format\":\"kepoch-logdir-snapshot\",\"version\":1}\n{}", ""));
  CHECK_FALSE(
      kepoch_wrote(OutputKind::logdir_snapshot, "{}\n\"format\":\"kepoch-logdir-snapshot\"", ""));
  CHECK(kepoch_wrote(OutputKind::plan_file, "#!/bin/sh\n# kepoch plan: the steps", ""));
  CHECK_FALSE(kepoch_wrote(OutputKind::plan_file, "#!/bin/sh\nrm -rf /\n", ""));
  CHECK(kepoch_wrote(OutputKind::salvage_archive,
                     "{\"format\":\"kepoch-salvage-archive\",\"version\":1}\n{}", ""));
  CHECK_FALSE(kepoch_wrote(OutputKind::salvage_archive,
                           "{\"format\":\"kepoch-replay-progress\",\"version\":1}\n", ""));
  CHECK(kepoch_wrote(OutputKind::replay_progress,
                     "{\"format\":\"kepoch-replay-progress\",\"version\":1,\"done\":3}\n", ""));
  CHECK_FALSE(kepoch_wrote(OutputKind::replay_progress, "orders,1,2\n", ""));
}

TEST_CASE("output_target: facts from a real tree: links are followed, log dirs seen") {
  char tmpl[] = "/tmp/kepoch-output-XXXXXX";
  const fs::path root = ::mkdtemp(tmpl);
  fs::create_directories(root / "l" / "t-0");
  std::ofstream(root / "l" / "meta.properties") << "node.id=1\n";
  std::ofstream(root / "l" / "t-0" / "00000000000000000000.log") << "";
  std::ofstream(root / "in.snap") << "{\"format\":\"kepoch-logdir-snapshot\"}\n";
  fs::create_hard_link(root / "in.snap", root / "hard.snap");
  fs::create_symlink(root / "in.snap", root / "soft.snap");
  fs::create_symlink("real.yaml", root / "config.yaml");
  std::ofstream(root / "real.yaml") << "clusters: {}\n";
  ::mkfifo((root / "fifo").c_str(), 0600);

  const auto inputs = input_facts({(root / "in.snap").string(), (root / "l" / "t-0").string()});
  REQUIRE(inputs.size() == 2);
  CHECK(inputs[1].read_dirs.size() == 2);  // the partition dir and its log dir
  for (const char* name : {"hard.snap", "soft.snap", "in.snap"}) {
    const auto o = output_facts("--html", (root / name).string(), OutputKind::html_page);
    CHECK_FALSE(decide_output(o, OutputKind::html_page, inputs, true).allowed);
  }
  const auto in_log =
      output_facts("--html", (root / "l" / "t-0" / "p.html").string(), OutputKind::html_page);
  CHECK_THAT(decide_output(in_log, OutputKind::html_page, {}, true).refusal,
             Contains("inside the log dir " + (root / "l").string()));
  const auto config =
      output_facts("profile use", (root / "config.yaml").string(), OutputKind::config_edit);
  CHECK(config.symlink);
  const auto edit = decide_output(config, OutputKind::config_edit, {}, false);
  CHECK(edit.allowed);
  CHECK(edit.write_path == (root / "real.yaml").string());  // the link stays a link
  const auto fifo = output_facts("--file", (root / "fifo").string(), OutputKind::logdir_snapshot);
  CHECK(fifo.target.kind == FileKind::fifo);
  CHECK(decide_output(fifo, OutputKind::logdir_snapshot, inputs, false).method ==
        WriteMethod::in_place);
  // A loop of links leads to no file: the rename would replace the link (an operator's, not
  // kepoch's), so it is refused, even with --overwrite; a dangling link is written through.
  fs::create_symlink("loop-b", root / "loop-a");
  fs::create_symlink("loop-a", root / "loop-b");
  fs::create_symlink("new.jsonl", root / "dangling");
  const auto loop =
      output_facts("--archive", (root / "loop-a").string(), OutputKind::salvage_archive);
  CHECK(loop.link_loop);
  const auto refused = decide_output(loop, OutputKind::salvage_archive, {}, true);
  CHECK_FALSE(refused.allowed);
  CHECK_THAT(refused.refusal, Contains("--archive " + (root / "loop-a").string() +
                                       " is a symbolic link that leads to no file"));
  const auto dangling =
      output_facts("--archive", (root / "dangling").string(), OutputKind::salvage_archive);
  CHECK_FALSE(dangling.link_loop);
  CHECK(decide_output(dangling, OutputKind::salvage_archive, {}, false).write_path ==
        (root / "new.jsonl").string());
  fs::remove_all(root);
}
