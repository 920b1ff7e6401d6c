// examples/feerie_hpp.cpp: the C++ interface over libfeerie (feerie/feerie.hpp), on a table
// it generates. Usage: feerie_hpp TABLES_DIR. Quoted whole in docs/probing.md; the test
// suite runs it.
#include <iostream>
#include <string>

#include <feerie/feerie.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " TABLES_DIR\n";
    return 2;
  }
  try {
    feerie::api::generate(argv[1], "KQvK", "orthodox");  // and KvK; sound tables are reused
    feerie::api::Tablebase tb(argv[1], "orthodox");
    const std::string fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    feerie::api::Result r = tb.probe(fen);
    std::cout << "probe: wdl " << r.wdl << " dtm_plies " << r.dtm_plies << " mate_in " << r.mate_in << "\n";
    std::cout << "probe_wdl: " << tb.probe_wdl(fen) << "\n";
    std::cout << "best_moves, Black to move:";
    for (const std::string& m : tb.best_moves("8/8/8/5k2/8/8/1Q6/K7 b - - 0 1")) std::cout << " " << m;
    std::cout << "\nprincipal_variation: " << tb.principal_variation(fen).size() << " plies\n";
    std::cout << "move_values:";
    for (const feerie::api::MoveValue& m : tb.move_values("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1"))
      if (m.checkmate) std::cout << " " << m.move << " mates";  // every move, best first
    std::cout << "\ntables:";
    for (const std::string& t : tb.tables()) std::cout << " " << t;
    std::cout << "\n";
    try {
      tb.probe("8/8/8/5k2/8/8/1B6/K7 w - - 0 1");
    } catch (const feerie::api::Error& e) {  // code(): the C API's feerie_status
      std::cout << "KBvK: " << (e.code() == FEERIE_ERROR_NOT_FOUND ? "missing table" : e.what()) << "\n";
    }
  } catch (const feerie::api::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
