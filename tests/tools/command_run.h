// Running the build's `feerie` from a test as a user would: a shell command line, its
// stderr joined to its stdout, and its exit code. (tests/tools/mine_cli_util.h keeps the
// two apart for the mining tests, under other names: one program links both.)
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace feerie::test {

struct JoinedRun {
  int exit_code;
  std::string output;  // stdout and stderr
};

inline JoinedRun run_joined(const std::string& command_line) {
  std::string command = command_line + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  JoinedRun r{-1, {}};
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) r.output += buffer.data();
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// What a bash script prints (stdout and stderr).
inline std::string run_script(const std::string& script) { return run_joined("bash -c '" + script + "'").output; }

#ifdef FEERIE_BINARY
inline JoinedRun run_feerie_joined(const std::string& args) {
  return run_joined(std::string(FEERIE_BINARY) + " " + args);
}
#endif

}  // namespace feerie::test
