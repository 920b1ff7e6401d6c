#include "tools/whole_output.h"

#include <cstdlib>
#include <iostream>

#include "tools/cli.h"

namespace feerie::cli {

namespace {

std::function<void()>& closer() {
  static std::function<void()> close;
  return close;
}

}  // namespace

std::mutex& output_lock() {
  static std::mutex lock;
  return lock;
}

OutputCloser::OutputCloser(std::function<void()> close) {
  std::lock_guard lock(output_lock());
  closer() = std::move(close);
}

OutputCloser::~OutputCloser() {
  std::lock_guard lock(output_lock());
  closer() = nullptr;
}

void keep_output_whole_when_interrupted() {
  on_interrupt([](int signal) {
    // Held for good: no result is written after this one.
    output_lock().lock();
    if (closer()) closer()();
    std::cout.flush();
    clear_progress();
    std::cerr << "feerie: interrupted" << std::endl;
    std::_Exit(128 + signal);
  });
}

}  // namespace feerie::cli
