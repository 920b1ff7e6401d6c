// A file that appears under its name only when complete (tables, checkpoints): written
// under a temporary name of its own, "<path>.tmp.<pid>.<n>", flushed to the disk and then
// renamed. Two processes (or threads) writing the same file never share a temporary name,
// so neither can rename or remove the other's half-written file; a crash leaves at most a
// temporary file, which remove_stale_temporaries() clears later.
#pragma once

#include <cstdio>
#include <string>

#include "rules/expected.h"

namespace feerie {

// "<path>.tmp.<pid>.<n>", unique within this process.
std::string temporary_name(const std::string& path);

// Not thread-safe; movable, not copyable. Errors (kind IOError) name `path` and the step
// that failed (create, write, fsync, rename) with the system's reason, e.g. a full disk.
class AtomicFile {
 public:
  static Expected<AtomicFile> create(const std::string& path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  ~AtomicFile();  // an uncommitted file is removed

  Status write(const void* data, std::size_t size);
  // fsync before the rename: otherwise a crash shortly after could leave the new name
  // pointing at an empty file on some file systems.
  Status commit();

  const std::string& path() const { return path_; }

 private:
  AtomicFile(std::string path, std::string temporary, std::FILE* file);
  Status fail(const std::string& step, int err);

  std::string path_, temporary_;
  std::FILE* file_ = nullptr;
};

// Removes the temporary files that writers which no longer run left in `dir` (a `gen`
// interrupted by Ctrl-C, killed, or cut off by a power loss): "<name>.tmp.<pid>.<n>" whose
// process is gone, <name> a table ("*.ftb") or checkpoint ("*.ckpt"), or the directory's
// write test. Files of running writers, and files that are not Feerie's, are kept. Returns
// how many were removed.
int remove_stale_temporaries(const std::string& dir);
// Removes the temporary files of process `pid` in `dir` (a run being interrupted cleans up
// after itself). Returns how many were removed.
int remove_temporaries_of(const std::string& dir, long pid);

}  // namespace feerie
