#include "gen/table_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace feerie {

Expected<TableLock> TableLock::acquire(const std::string& path, const std::function<void()>& on_wait) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return error(ErrorKind::IOError, "cannot create the lock file '" + path + "': " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return TableLock(fd);
  if (errno == EWOULDBLOCK) {
    if (on_wait) on_wait();
    int r;
    while ((r = ::flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (r == 0) return TableLock(fd);
  }
  int err = errno;
  ::close(fd);
  return error(ErrorKind::IOError, "cannot lock '" + path + "': " + std::strerror(err));
}

TableLock::TableLock(TableLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

TableLock::~TableLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the descriptor releases the flock
}

}  // namespace feerie
