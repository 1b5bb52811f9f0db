#include "output_file.hpp"

#include "bulk_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "kepoch/base/error.hpp"

namespace kepoch::cli {
namespace {

bool g_overwrite = false;

std::string errno_text(int err) {
  return err == 0 ? std::string("an I/O error") : std::string(std::strerror(err));
}

OutputDecision decided(const std::string& flag, const std::string& path, OutputKind kind,
                       const std::vector<std::string>& inputs) {
  const OutputDecision d =
      decide_output(output_facts(flag, path, kind), kind, input_facts(inputs), g_overwrite);
  if (!d.allowed) throw UsageError(d.refusal);
  return d;
}

// A FIFO without a reader blocks open(2): say so instead of hanging with nothing printed.
void wait_for_reader(const std::string& shown, const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  if (errno == ENXIO)
    std::cerr << fmt::format("kepoch: {}: a FIFO nobody reads yet: waiting for a reader\n", shown)
              << std::flush;
}

void write_in_place(const std::string& shown, const OutputDecision& d, std::string_view what,
                    const std::function<void(std::ostream&)>& body) {
  if (d.waits_for_reader) wait_for_reader(shown, d.write_path);
  // Our own standard output or error: written through the descriptor itself, so the report
  // that follows lands after the page, not over it (a new open would start at offset 0).
  if (d.write_path == "/dev/stdout" || d.write_path == "/dev/stderr") {
    std::ostream& out = d.write_path == "/dev/stdout" ? std::cout : std::cerr;
    errno = 0;
    body(out);
    out.flush();
    if (!out)
      throw InputError(shown, fmt::format("cannot write the {}: {}", what, errno_text(errno)));
    return;
  }
  errno = 0;
  std::ofstream out(d.write_path, std::ios::binary);
  if (!out)
    throw InputError(shown, fmt::format("cannot create the {}: {}", what, errno_text(errno)));
  errno = 0;  // what a failed write sets is kept until the close says it failed
  body(out);
  out.close();
  if (!out)
    throw InputError(shown, fmt::format("cannot write the {}: {}", what, errno_text(errno)));
}

// The temporary file beside d.write_path that replace_whole and bulk_replace_whole fill and
// rename over it: created new (never an existing file or a symlink's target), with the
// replaced file's permission bits (a config file of mode 0600 stays 0600). Returns its fd.
int create_temp_beside(const std::string& shown, const OutputDecision& d, std::string_view what,
                       const std::string& tmp) {
  struct stat st {};
  const bool existed = ::stat(d.write_path.c_str(), &st) == 0;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0)
    throw InputError(shown, fmt::format("cannot create the {}: {}", what, errno_text(errno)));
  if (existed) (void)::fchmod(fd, st.st_mode & 07777);
  return fd;
}

void replace_whole(const std::string& shown, const OutputDecision& d, std::string_view what,
                   const std::function<void(std::ostream&)>& body) {
  const std::string tmp = fmt::format("{}.kepoch-{}.tmp", d.write_path, ::getpid());
  ::close(create_temp_beside(shown, d, what, tmp));
  try {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError(shown, fmt::format("cannot create the {}: {}", what, errno_text(errno)));
    errno = 0;
    body(out);
    out.close();
    if (!out)
      throw InputError(shown, fmt::format("cannot write the {}: {}", what, errno_text(errno)));
    const int sync = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (sync >= 0) {
      (void)::fsync(sync);
      ::close(sync);
    }
    if (::rename(tmp.c_str(), d.write_path.c_str()) != 0)
      throw InputError(shown, fmt::format("cannot replace the {}: {}", what, errno_text(errno)));
  } catch (...) {
    ::unlink(tmp.c_str());  // ours, made above: a half file is no file
    throw;
  }
}

// A FIFO, a character device or our own standard output or error, written with a
// BulkFileWriter (no O_DIRECT, no fsync: as write_in_place writes them).
void bulk_in_place(const std::string& shown, const OutputDecision& d, std::string_view what,
                   const std::function<void(BulkFileWriter&)>& body) {
  if (d.waits_for_reader) wait_for_reader(shown, d.write_path);
  int fd = -1;
  bool own = false;
  if (d.write_path == "/dev/stdout" || d.write_path == "/dev/stderr") {
    // Through the descriptor itself (as write_in_place), after what the stream holds.
    std::ostream& out = d.write_path == "/dev/stdout" ? std::cout : std::cerr;
    out.flush();
    fd = d.write_path == "/dev/stdout" ? STDOUT_FILENO : STDERR_FILENO;
  } else {
    fd = ::open(d.write_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
      throw InputError(shown, fmt::format("cannot create the {}: {}", what, errno_text(errno)));
    own = true;
  }
  try {
    BulkFileWriter writer(fd, {});
    body(writer);
    writer.finish();
  } catch (const FileWriteError& e) {
    if (own) ::close(fd);
    throw InputError(shown, fmt::format("cannot write the {}: {}", what, e.what()));
  } catch (...) {
    if (own) ::close(fd);
    throw;
  }
  if (own && ::close(fd) != 0)
    throw InputError(shown, fmt::format("cannot write the {}: {}", what, errno_text(errno)));
}

// replace_whole's temporary file, rename and cleanup, the bytes written with a
// BulkFileWriter (O_DIRECT where the file system takes it) and fsynced before the rename.
void bulk_replace_whole(const std::string& shown, const OutputDecision& d, std::string_view what,
                        const std::function<void(BulkFileWriter&)>& body) {
  const std::string tmp = fmt::format("{}.kepoch-{}.tmp", d.write_path, ::getpid());
  const int fd = create_temp_beside(shown, d, what, tmp);
  bool fd_open = true;
  try {
    try {
      BulkFileWriter writer(fd, {.direct = true, .sync = true});
      body(writer);
      writer.finish();  // every byte written and fsynced
    } catch (const FileWriteError& e) {
      throw InputError(shown, fmt::format("cannot write the {}: {}", what, e.what()));
    }
    fd_open = false;
    if (::close(fd) != 0)
      throw InputError(shown, fmt::format("cannot write the {}: {}", what, errno_text(errno)));
    if (::rename(tmp.c_str(), d.write_path.c_str()) != 0)
      throw InputError(shown, fmt::format("cannot replace the {}: {}", what, errno_text(errno)));
  } catch (...) {
    if (fd_open) ::close(fd);
    ::unlink(tmp.c_str());  // ours, made above: a half file is no file
    throw;
  }
}

}  // namespace

void set_overwrite(bool overwrite) {
  g_overwrite = overwrite;
}

void check_output(const std::string& flag, const std::string& path, OutputKind kind,
                  const std::vector<std::string>& inputs) {
  (void)decided(flag, path, kind, inputs);
}

void write_output(const std::string& flag, const std::string& path, OutputKind kind,
                  const std::vector<std::string>& inputs, std::string_view what,
                  const std::function<void(std::ostream&)>& body) {
  const OutputDecision d = decided(flag, path, kind, inputs);
  if (d.method == WriteMethod::in_place)
    write_in_place(path, d, what, body);
  else
    replace_whole(path, d, what, body);
}

void write_output_bulk(const std::string& flag, const std::string& path, OutputKind kind,
                       const std::vector<std::string>& inputs, std::string_view what,
                       const std::function<void(BulkFileWriter&)>& body) {
  const OutputDecision d = decided(flag, path, kind, inputs);
  if (d.method == WriteMethod::in_place)
    bulk_in_place(path, d, what, body);
  else
    bulk_replace_whole(path, d, what, body);
}

}  // namespace kepoch::cli
