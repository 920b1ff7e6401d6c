#include "probe/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

namespace feerie {

std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

AtomicFile::AtomicFile(std::string path, std::string temporary, std::FILE* file)
    : path_(std::move(path)), temporary_(std::move(temporary)), file_(file) {}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temporary_(std::move(other.temporary_)),
      file_(std::exchange(other.file_, nullptr)) {
  other.temporary_.clear();
}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

Expected<AtomicFile> AtomicFile::create(const std::string& path) {
  std::string temporary = temporary_name(path);
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (!f)
    return error(ErrorKind::IOError,
                 "cannot write '" + path + "': cannot create '" + temporary + "': " + std::strerror(errno));
  return AtomicFile(path, std::move(temporary), f);
}

Status AtomicFile::fail(const std::string& step, int err) {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  std::remove(temporary_.c_str());
  temporary_.clear();
  return error(ErrorKind::IOError, "cannot write '" + path_ + "': " + step + ": " + std::strerror(err));
}

Status AtomicFile::write(const void* data, std::size_t size) {
  if (!file_) return error(ErrorKind::Internal, "cannot write '" + path_ + "': the file is closed");
  if (size && std::fwrite(data, 1, size, file_) != size) return fail("write failed", errno);
  return Ok{};
}

Status AtomicFile::commit() {
  if (!file_) return error(ErrorKind::Internal, "cannot write '" + path_ + "': the file is closed");
  if (std::fflush(file_) != 0) return fail("write failed", errno);
  if (::fsync(fileno(file_)) != 0) return fail("fsync failed", errno);
  int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) return fail("close failed", errno);
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) return fail("cannot rename '" + temporary_ + "'", errno);
  temporary_.clear();
  return Ok{};
}

namespace {

// The process id of a temporary file Feerie writes, "<name>.tmp.<pid>.<n>" where <name>
// is a table ("*.ftb"), a checkpoint ("*.ckpt") or the directory's write test; 0 for any
// other file (a user's "notes.txt.tmp.12.0" is not ours to remove).
long temporary_file_pid(const std::string& name) {
  const std::size_t tmp = name.rfind(".tmp.");
  if (tmp == std::string::npos) return 0;
  const std::string stem = name.substr(0, tmp);
  auto ends_with = [&](const std::string& end) {
    return stem.size() >= end.size() && stem.compare(stem.size() - end.size(), end.size(), end) == 0;
  };
  if (!ends_with(".ftb") && !ends_with(".ckpt") && stem != "write-test") return 0;
  const std::string rest = name.substr(tmp + 5);  // "<pid>.<n>"
  const std::size_t dot = rest.find('.');
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == s.npos;
  };
  if (dot == std::string::npos || !digits(rest.substr(0, dot)) || !digits(rest.substr(dot + 1))) return 0;
  return std::strtol(rest.c_str(), nullptr, 10);
}

// Calls remove_if(pid) for each temporary file of Feerie's in `dir` (temporary_file_pid)
// and removes the file when it answers true. Returns how many were removed.
template <class Predicate>
int remove_temporaries(const std::string& dir, Predicate&& remove_if) {
  namespace fs = std::filesystem;
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const long pid = temporary_file_pid(it->path().filename().string());
    std::error_code rm;
    if (pid > 0 && remove_if(pid) && fs::remove(it->path(), rm)) ++removed;
  }
  return removed;
}

}  // namespace

int remove_stale_temporaries(const std::string& dir) {
  // kill(pid, 0) tests whether the process exists without signalling it.
  return remove_temporaries(dir, [](long pid) { return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH; });
}

int remove_temporaries_of(const std::string& dir, long pid) {
  return remove_temporaries(dir, [pid](long p) { return p == pid; });
}

}  // namespace feerie
