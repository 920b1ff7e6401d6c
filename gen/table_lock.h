// An advisory lock on the tables of a component being written (the reliability issue: two
// `feerie gen` runs of one table used to solve it twice and race on the files). The lock
// is flock(2) on a hidden file beside the tables, ".<first member>.lock": the kernel drops it
// when its holder exits or dies, so a killed run never leaves a table locked. The lock file
// itself stays (removing it would let a third run lock a new file while a second still
// holds the old one).
#pragma once

#include <functional>
#include <string>

#include "rules/expected.h"

namespace feerie {

class TableLock {
 public:
  // Takes the lock at `path`, waiting for another holder to finish; `on_wait` is called
  // once before waiting (to say so). Errors (IOError) when the lock file cannot be made.
  static Expected<TableLock> acquire(const std::string& path, const std::function<void()>& on_wait);
  TableLock(TableLock&& other) noexcept;
  TableLock& operator=(TableLock&&) = delete;
  TableLock(const TableLock&) = delete;
  ~TableLock();  // releases the lock

 private:
  explicit TableLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace feerie
