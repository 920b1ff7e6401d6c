// examples/tablebase.cpp: probing inside this tree (probe/tablebase.h), for code built with
// Feerie's sources, on a table it generates (gen/generate.h). Usage: tablebase TABLES_DIR.
// Quoted whole in docs/probing.md; the test suite runs it.
#include "probe/tablebase.h"

#include <iostream>

#include "gen/generate.h"
#include "rules/fen.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " TABLES_DIR\n";
    return 2;
  }
  const feerie::RuleSet rules = *feerie::RuleSet::parse("orthodox");
  feerie::GenerateOptions options;
  options.tables_dir = argv[1];
  auto generated = feerie::generate({*feerie::Material::parse("KQvK")}, rules, options);  // and KvK
  if (!generated) {
    std::cerr << generated.error_message() << "\n";
    return 1;
  }

  feerie::Tablebase tb = feerie::Tablebase::open(argv[1], rules);
  feerie::Position pos = *feerie::parse_fen("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
  feerie::Expected<feerie::ProbeResult> r = tb.probe(pos);
  if (!r) {
    std::cerr << r.error_message() << "\n";  // a missing table, a corrupt file, an illegal position
    return 1;
  }
  std::cout << "probe: dtm_plies " << r->dtm_plies << " mate_in " << r->mate_in() << "\n";
  feerie::Expected<std::vector<feerie::Move>> pv = tb.principal_variation(pos);
  feerie::Expected<std::vector<feerie::Move>> best =
      tb.best_moves(*feerie::parse_fen("8/8/8/5k2/8/8/1Q6/K7 b - - 0 1"));  // Black to move
  if (!best || !pv) return 1;
  std::cout << "best_moves, Black to move:";
  for (feerie::Move m : *best) std::cout << " " << feerie::to_uci(m);
  std::cout << "\nprincipal_variation: " << pv->size() << " plies\n";

  // Errors carry a kind (rules/expected.h): NotFound, Corruption, InvalidArgument, IOError, ...
  r = tb.probe(*feerie::parse_fen("8/8/8/5k2/8/8/1B6/K7 w - - 0 1"));
  std::cout << "KBvK: " << (!r && r.error_kind() == feerie::ErrorKind::NotFound ? "not found" : "?") << "\n";
  return 0;
}
