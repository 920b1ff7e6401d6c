// libFuzzer target for the text parsers (docs/testing.md, "Fuzzing"): FENs (parse_fen, parse_legal_position),
// material names (Material::parse) and condition names (RuleSet::parse). The input is text; the whole of it, its
// first line and the rest each go to every parser, so that an input "FEN\ncondition" can pair a position with the
// condition it is played under. Whatever parses must survive its round trip, and a legal position's moves are
// generated and played. Every failure must come back as an error value: a crash, a sanitizer report, a leak or a
// broken round trip (reported with __builtin_trap, which libFuzzer records as a crash) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/material.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/ruleset.h"

namespace {

using namespace feerie;

// Abort with a message libFuzzer shows beside the input that caused it.
[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_parsers: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

// One condition of each family, for positions whose input names none: movegen differs most between them.
const std::vector<RuleSet>& fixed_conditions() {
  static const std::vector<RuleSet> conditions = [] {
    std::vector<RuleSet> r;
    for (const char* name : {"orthodox", "madrasi-ri", "isardam-b", "eiffel", "leffie", "annan-d", "nanna-c"})
      r.push_back(*RuleSet::parse(name));
    return r;
  }();
  return conditions;
}

void check_material(std::string_view text) {
  Expected<Material> m = Material::parse(text);
  if (!m) return;
  // The canonical name names the same material, and swapping the colours twice changes nothing.
  std::string name = m->name();
  Expected<Material> again = Material::parse(name);
  if (!again || !(*again == *m)) fail("material name does not round-trip", name);
  if (!(m->colors_swapped().colors_swapped() == *m)) fail("colours swapped twice differ", name);
  if (!m->canonical_orientation().is_canonical_orientation()) fail("canonical orientation is not canonical", name);
}

std::optional<RuleSet> check_condition(std::string_view text) {
  Expected<RuleSet> r = RuleSet::parse(text);
  if (!r) return std::nullopt;
  // The canonical name (written into table headers and directory names) parses back to itself.
  Expected<RuleSet> again = RuleSet::parse(r->name());
  if (!again || again->name() != r->name()) fail("condition name does not round-trip", r->name());
  return *r;
}

// Moves of a legal position: each successor must be a legal position again, written as a FEN that parses back to
// the same FEN (the CLI prints successors that way: `feerie moves --after`).
void play_moves(const Position& pos, const RuleSet& rules) {
  MoveList moves;
  generate_legal(pos, rules, moves);
  std::vector<MoveResult> results = legal_moves_with_results(pos, rules);
  if (results.size() != moves.size()) fail("legal_moves_with_results disagrees with generate_legal", to_fen(pos));
  (void)in_check(pos, rules);
  for (const MoveResult& r : results) {
    (void)to_uci(r.move);
    std::string fen = to_fen(r.after);
    Expected<Position> reparsed = parse_fen(fen);
    if (!reparsed)
      fail("a successor's FEN does not parse", to_fen(pos) + " " + to_uci(r.move) + ": " + reparsed.error_message());
    if (to_fen(*reparsed) != fen) fail("a successor's FEN does not round-trip", fen);
  }
}

void check_fen(std::string_view text, const std::optional<RuleSet>& condition) {
  Expected<Position> pos = parse_fen(text);
  if (!pos) return;
  std::string fen = to_fen(*pos);
  Expected<Position> again = parse_fen(fen);
  if (!again) fail("to_fen output does not parse", fen + ": " + again.error_message());
  if (to_fen(*again) != fen) fail("FEN does not round-trip", fen + " -> " + to_fen(*again));
  (void)Material::of(*pos).name();

  auto under = [&](const RuleSet& rules) {
    Expected<Position> legal = parse_legal_position(text, rules);
    if (legal) play_moves(*legal, rules);
  };
  if (condition)
    under(*condition);
  else
    for (const RuleSet& rules : fixed_conditions()) under(rules);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t newline = text.find('\n');
  std::vector<std::string_view> parts = {text};
  if (newline != std::string_view::npos) {
    parts.push_back(text.substr(0, newline));
    parts.push_back(text.substr(newline + 1));
  }
  std::optional<RuleSet> condition;
  for (std::string_view part : parts) {
    check_material(part);
    std::optional<RuleSet> r = check_condition(part);
    if (r && !condition) condition = r;
  }
  for (std::string_view part : parts) check_fen(part, condition);
  return 0;
}
