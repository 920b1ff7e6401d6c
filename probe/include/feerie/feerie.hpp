// A C++ interface to libfeerie, header-only over the C API of feerie.h, for programs that
// link the installed library (find_package(Feerie) or pkg-config feerie). Failures throw
// feerie::api::Error, whose code() is the C API's feerie_status (which says the kind: a
// missing table, a corrupt one, a bad FEN, ...).
//
// Values are from the point of view of the side to move (for move_values: of the side that
// plays the move). dtm_plies counts plies (half moves) to mate: odd = the side to move
// mates, even = it is mated (0 = mated now), -1 = draw. mate_in counts moves: > 0 the side
// to move mates in that many, < 0 it is mated in that many, 0 draw or mated now.
//
// Thread-safety: one Tablebase may be probed from several threads at once. Ownership: a
// Tablebase owns its handle and closes it when destroyed; it can be moved, not copied.
#ifndef FEERIE_FEERIE_HPP
#define FEERIE_FEERIE_HPP

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "feerie/feerie.h"

namespace feerie::api {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }  // a feerie_status (FEERIE_ERROR_NOT_FOUND, ...)

 private:
  int code_;
};

struct Result {
  int wdl = 0;         // 1 win, 0 draw, -1 loss
  int dtm_plies = -1;  // plies to mate, -1 for a draw
  int mate_in = 0;     // moves, signed
};

// One position's helpmate or selfmate (feerie_help_result).
struct HelpResult {
  int plies = -1;     // the fewest plies to the mate of the colour mated (0: mated now); -1: never
  int solutions = 0;  // helpmates: the shortest sequences (255: 255 or more); 0 for selfmates
};

struct MoveValue {
  std::string move;  // long algebraic: "a2b2", "e7e8q"
  Result value;      // for the side that plays the move
  bool checkmate = false;
  bool stalemate = false;
};

namespace detail {
inline void check(int status, const char* error) {
  if (status != FEERIE_OK) throw Error(status, error);
}
inline std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}
inline Result result(const feerie_result& r) { return Result{r.wdl, r.dtm_plies, r.mate_in}; }
}  // namespace detail

// "MAJOR.MINOR.PATCH" of the library the program runs with.
inline std::string version() { return feerie_version(); }

// Generates `material` and what it depends on into `directory` (see feerie_generate).
inline void generate(const std::string& directory, const std::string& material,
                     const std::string& condition = "orthodox", int threads = 0) {
  char error[512] = "";
  detail::check(feerie_generate(directory.c_str(), condition.c_str(), material.c_str(), threads, error, sizeof error),
                error);
}

class Tablebase {
 public:
  // Tables of `condition` are read from <directory>/<condition>/, each when first needed.
  explicit Tablebase(const std::string& directory, const std::string& condition = "orthodox") {
    char error[512] = "";
    handle_ = feerie_open(directory.c_str(), condition.c_str(), error, sizeof error);
    if (!handle_) throw Error(FEERIE_ERROR_INVALID_ARGUMENT, error);
  }
  Tablebase(Tablebase&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Tablebase& operator=(Tablebase&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  Tablebase(const Tablebase&) = delete;
  Tablebase& operator=(const Tablebase&) = delete;
  ~Tablebase() {
    if (handle_) feerie_close(handle_);
  }

  Result probe(const std::string& fen) const {
    char error[512] = "";
    feerie_result r;
    detail::check(feerie_probe(handle_, fen.c_str(), &r, error, sizeof error), error);
    return detail::result(r);
  }
  int probe_wdl(const std::string& fen) const {
    char error[512] = "";
    int wdl = 0;
    detail::check(feerie_probe_wdl(handle_, fen.c_str(), &wdl, error, sizeof error), error);
    return wdl;
  }
  // The helpmate ("h#") or selfmate ("s#") of `fen` with `mated` ("white", "black"; empty:
  // Black for h#, White for s#) mated, from the tables of feerie gen --stipulation.
  HelpResult probe_help(const std::string& fen, const std::string& stipulation = "h#",
                        const std::string& mated = "") const {
    char error[512] = "";
    feerie_help_result r;
    detail::check(feerie_probe_help(handle_, fen.c_str(), stipulation.c_str(), mated.empty() ? nullptr : mated.c_str(),
                                    &r, error, sizeof error),
                  error);
    return HelpResult{r.plies, r.solutions};
  }
  std::vector<std::string> best_moves(const std::string& fen) const { return moves(fen, feerie_best_moves); }
  std::vector<std::string> principal_variation(const std::string& fen) const {
    return moves(fen, feerie_principal_variation);
  }
  std::vector<MoveValue> move_values(const std::string& fen) const {
    char error[512] = "";
    std::vector<feerie_move_value> raw(256);
    std::size_t count = 0;
    detail::check(feerie_move_values(handle_, fen.c_str(), raw.data(), raw.size(), &count, error, sizeof error), error);
    std::vector<MoveValue> out;
    for (std::size_t i = 0; i < count; ++i)
      out.push_back({raw[i].move, detail::result(raw[i].value), raw[i].checkmate != 0, raw[i].stalemate != 0});
    return out;
  }
  // The materials with a table on disk for this condition, sorted.
  std::vector<std::string> tables() const {
    char error[512] = "";
    std::string names(1 << 16, '\0');
    detail::check(feerie_list_tables(handle_, names.data(), names.size(), error, sizeof error), error);
    return detail::words(names.c_str());
  }

 private:
  template <class Call>
  std::vector<std::string> moves(const std::string& fen, Call call) const {
    char error[512] = "";
    std::string text(1 << 14, '\0');  // 1,000 plies of 6 characters at most, and room to spare
    detail::check(call(handle_, fen.c_str(), text.data(), text.size(), error, sizeof error), error);
    return detail::words(text.c_str());
  }

  feerie_tablebase* handle_ = nullptr;
};

}  // namespace feerie::api

#endif  // FEERIE_FEERIE_HPP
