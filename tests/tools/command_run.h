// Running the build's `feerie` from a test as a user would: a shell command line, its
// stderr joined to its stdout, and its exit code.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace feerie::test {

struct CommandRun {
  int exit_code;
  std::string output;  // stdout and stderr
};

inline CommandRun run_command(const std::string& command_line) {
  std::string command = command_line + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  CommandRun r{-1, {}};
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) r.output += buffer.data();
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

#ifdef FEERIE_BINARY
inline CommandRun run_feerie(const std::string& args) { return run_command(std::string(FEERIE_BINARY) + " " + args); }
#endif

}  // namespace feerie::test
