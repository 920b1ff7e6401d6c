// An outside C++ program: the header-only C++ interface over the installed libfeerie.
#include <iostream>

#include <feerie/feerie.hpp>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: " << argv[0] << " TABLES CONDITION FEN\n";
    return 2;
  }
  try {
    feerie::api::Tablebase tb(argv[1], argv[2]);
    feerie::api::Result r = tb.probe(argv[3]);
    std::cout << "version " << feerie::api::version() << " wdl " << r.wdl << " dtm " << r.dtm_plies << " mate_in "
              << r.mate_in << "\n";
    std::cout << "best";
    for (const std::string& m : tb.best_moves(argv[3])) std::cout << " " << m;
    std::cout << "\ntables";
    for (const std::string& t : tb.tables()) std::cout << " " << t;
    std::cout << "\n";
    try {
      tb.probe("not a fen");
    } catch (const feerie::api::Error& e) {
      std::cout << "error code " << e.code() << "\n";
    }
  } catch (const feerie::api::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
