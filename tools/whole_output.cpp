#include "tools/whole_output.h"

#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <iostream>
#include <thread>

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
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals] {
    int signal = 0;
    if (sigwait(&signals, &signal) != 0) return;
    // Held for good: no result is written after this one.
    output_lock().lock();
    if (closer()) closer()();
    std::cout.flush();
    clear_progress();
    std::cerr << "feerie: interrupted" << std::endl;
    std::_Exit(128 + signal);
  }).detach();
}

}  // namespace feerie::cli
