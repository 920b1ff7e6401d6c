// What the `feerie mine` and `feerie probe` command-line tests share: running the
// command on the mining fixture tables, reading its output, and the brute force written
// from probe() and move_values() alone (nothing of probe/mine) that they are checked
// against.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "probe/indexer.h"
#include "probe/tablebase.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "tests/study/mine_fixture.h"
#include "tests/test_util.h"

namespace feerie::test {

struct CommandRun {
  int exit_code;
  std::string out;  // stdout only
  std::string err;  // stderr only
};

inline CommandRun run_feerie(const std::string& args) {
  const std::string err_file = mine_fixture_tables() + "/stderr." + std::to_string(::getpid()) + ".txt";
  std::string command = std::string(FEERIE_BINARY) + " " + args + " 2> " + err_file;
  FILE* pipe = popen(command.c_str(), "r");
  CommandRun r{-1, {}, {}};
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) r.out += buffer.data();
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = test::file_bytes(err_file);
  std::filesystem::remove(err_file);
  return r;
}

// `feerie mine` on the fixture tables.
inline CommandRun run_mine(const std::string& args) {
  return run_feerie("mine --tables " + mine_fixture_tables() + " " + args);
}

inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline std::set<std::string> line_set(const std::string& s) {
  std::vector<std::string> l = lines(s);
  return {l.begin(), l.end()};
}

// Every legal position of a table, once per stored entry, with its value.
inline void for_each_entry(const std::string& material_name, const RuleSet& rules,
                           const std::function<void(const Position&)>& visit) {
  Material material = *Material::parse(material_name);
  Indexer indexer(material, rules);
  for (Color side : {WHITE, BLACK})
    for (std::uint64_t i = 0; i < indexer.size(); ++i) {
      Position pos;
      if (!indexer.decode(i, side, pos) || !is_legal_position(pos, rules)) continue;
      // A decodable legal position whose canonical entry is another one is a duplicate.
      if (indexer.index(pos) != i) continue;
      visit(pos);
    }
}

inline bool touching(Square a, Square b) {
  return a != b && std::abs(file_of(a) - file_of(b)) <= 1 && std::abs(rank_of(a) - rank_of(b)) <= 1;
}

// --- the brute force: only probe() and move_values(), nothing of probe/mine ---

// The moves that keep the shortest mate of a won position.
inline std::vector<MoveValue> shortest_moves(const Tablebase& tb, const Position& pos) {
  ProbeResult r = *tb.probe(pos);
  std::vector<MoveValue> out;
  if (r.wdl != Wdl::Win) return out;
  const std::vector<MoveValue> moves = *tb.move_values(pos);
  for (const MoveValue& mv : moves) {
    ProbeResult after = ProbeResult::of(mv.value);
    if (after.wdl == Wdl::Win && after.dtm_plies == r.dtm_plies) out.push_back(mv);
  }
  return out;
}

inline bool brute_unique_key(const Tablebase& tb, const Position& pos) { return shortest_moves(tb, pos).size() == 1; }

// Sound: one shortest move, and after it every defence leads to a position that is sound
// again, down to the mate.
inline bool brute_sound(const Tablebase& tb, const Position& pos, std::map<std::string, bool>& known) {
  const std::string fen = to_fen(pos);
  if (auto it = known.find(fen); it != known.end()) return it->second;
  std::vector<MoveValue> keys = shortest_moves(tb, pos);
  bool sound = keys.size() == 1;
  if (sound && !keys[0].checkmate)
    for (const MoveValue& defence : std::vector<MoveValue>(*tb.move_values(keys[0].after)))
      if (!brute_sound(tb, defence.after, known)) {
        sound = false;
        break;
      }
  known[fen] = sound;
  return sound;
}

}  // namespace feerie::test
