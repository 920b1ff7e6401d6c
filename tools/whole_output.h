// Output that Ctrl-C or SIGTERM leaves whole: `mine` once wrote half a FEN into a pipe when
// interrupted, said nothing, and left an open Popeye input. Each result is written while
// holding the output lock; the interruption, taken by a thread of its own, waits for the
// result being written, writes what closes the output (Popeye's EndProblem), says that
// the run was interrupted and ends it with 128 + the signal.
#pragma once

#include <functional>
#include <mutex>

namespace feerie::cli {

// Blocks SIGINT and SIGTERM in this thread (and the threads it starts later: call it first)
// and starts the thread that takes them.
void keep_output_whole_when_interrupted();

// The lock each result is written under (and progress lines, which share the terminal).
std::mutex& output_lock();

// While it lives, `close` is what an interruption writes last (under the output lock).
class OutputCloser {
 public:
  explicit OutputCloser(std::function<void()> close);
  ~OutputCloser();
  OutputCloser(const OutputCloser&) = delete;
  OutputCloser& operator=(const OutputCloser&) = delete;
};

}  // namespace feerie::cli
