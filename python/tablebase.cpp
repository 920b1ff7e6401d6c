// feerie.Tablebase: the prober of probe/tablebase.h for Python, shaped like python-chess's
// chess.syzygy and chess.gaviota (open_tablebase, probe_*, get_* with a default, a context
// manager). Every probe runs without the GIL on a copy of the C++ Tablebase, which shares
// the open tables and is safe to probe from several threads at once.
#include "probe/tablebase.h"

#include <pybind11/operators.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <array>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "probe/help_tablebase.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/text.h"
#include "study/help_study.h"

namespace py = pybind11;

namespace feerie::python {

namespace {

// One legal move with the value of the position after it, for the side that plays it.
struct MoveValueForPython {
  std::string move;
  int wdl = 0;
  int dtm = 0;
  bool checkmate = false;
  bool stalemate = false;
  std::string fen_after;

  bool operator==(const MoveValueForPython&) const = default;
};

// One position's helpmate or selfmate (Tablebase.probe_helpmate(), probe_selfmate()).
struct HelpResultForPython {
  std::string mated;                   // "white" or "black"
  std::optional<int> plies;            // none: the colour can never be mated so
  std::optional<int> solutions;        // shortest helpmates (capped); none for selfmates and without a mate
  bool solutions_capped = false;       // `solutions` is HelpSolutionsCap: that many or more
  std::optional<std::string> problem;  // "h#2", "h#1.5", "s#3"; none where the length states no problem

  bool operator==(const HelpResultForPython&) const = default;
};

int wdl_number(Wdl wdl) { return wdl == Wdl::Win ? 1 : wdl == Wdl::Loss ? -1 : 0; }

// Plies to mate with the sign of the result; a draw and "mated now" are both 0.
int signed_dtm(const ProbeResult& r) {
  if (r.wdl == Wdl::Win) return r.dtm_plies;
  if (r.wdl == Wdl::Loss) return -r.dtm_plies;
  return 0;
}

// The bytes of a str: UTF-8, with the lone surrogates of bytes read as surrogateescape
// (a file of Latin-1 lines) turned back into those bytes, which a message then quotes
// escaped (issue 27 B), where a plain cast throws; other lone surrogates as \udXXX text.
std::string bytes_of(const py::handle& text) {
  PyObject* bytes = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogateescape");
  if (!bytes) {
    PyErr_Clear();
    bytes = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "backslashreplace");
    if (!bytes) throw py::error_already_set();
  }
  return py::reinterpret_steal<py::bytes>(bytes).cast<std::string>();
}

// A board as python-chess passes it around: a FEN string or anything with fen().
std::string fen_of(const py::object& board) {
  if (py::isinstance<py::str>(board)) return bytes_of(board);
  if (py::hasattr(board, "fen")) {
    py::object fen = board.attr("fen")();
    if (py::isinstance<py::str>(fen)) return bytes_of(fen);
  }
  throw py::type_error("board must be a FEN string or an object whose fen() returns one, not " +
                       std::string(py::str(py::type::of(board).attr("__name__"))));
}

Position legal_position(const RuleSet& rules, const std::string& fen) {
  Expected<Position> pos = parse_legal_position(fen, rules);
  if (!pos) throw Failure(ExceptionType::IllegalPosition, pos.error());
  return *pos;
}

class TablebaseForPython {
 public:
  TablebaseForPython(const std::filesystem::path& directory, const std::string& condition)
      : directory_(directory.string()) {
    Expected<RuleSet> rules = RuleSet::parse(condition);
    if (!rules) throw Failure(ExceptionType::UnknownCondition, rules.error());
    condition_ = rules->name();
    tb_ = Tablebase::open(directory_, *rules);
  }

  const std::string& directory() const { return directory_; }
  const std::string& condition() const { return condition_; }
  bool closed() const { return !tb_; }
  // Probes already running keep their own copy of the tables (tablebase()) and finish.
  void close() {
    tb_.reset();
    std::lock_guard lock(*help_mutex_);
    for (auto& help : help_) help.reset();
  }

  int probe_wdl(py::object board) const { return wdl_number(probe(board).wdl); }
  int probe_dtm(py::object board) const { return signed_dtm(probe(board)); }

  py::object get_wdl(py::object board, py::object fallback) const {
    std::optional<ProbeResult> r = probe_unless_missing(board);
    return r ? py::int_(wdl_number(r->wdl)) : fallback;
  }
  py::object get_dtm(py::object board, py::object fallback) const {
    std::optional<ProbeResult> r = probe_unless_missing(board);
    return r ? py::int_(signed_dtm(*r)) : fallback;
  }

  std::vector<std::string> best_moves(py::object board) const {
    return move_names(board, [](const Tablebase& tb, const Position& pos) { return tb.best_moves(pos); });
  }
  std::vector<std::string> principal_variation(py::object board) const {
    return move_names(board, [](const Tablebase& tb, const Position& pos) { return tb.principal_variation(pos); });
  }

  std::vector<MoveValueForPython> move_values(py::object board) const {
    const std::string fen = fen_of(board);
    const Tablebase tb = tablebase();
    return without_gil([&] {
      const Position pos = legal_position(tb.rules(), fen);
      std::vector<MoveValueForPython> out;
      for (const MoveValue& mv : value_or_throw(tb.move_values(pos))) {
        const ProbeResult r = ProbeResult::of(mv.value);
        out.push_back(
            {to_uci(mv.move), wdl_number(r.wdl), signed_dtm(r), mv.checkmate, mv.stalemate, to_fen(mv.after)});
      }
      return out;
    });
  }

  HelpResultForPython probe_help(py::object board, const std::optional<std::string>& mated_name,
                                 StipulationKind kind) const {
    const std::string fen = fen_of(board);
    const Color mated = mated_colour(mated_name, kind);
    const std::shared_ptr<const HelpTablebase> help = help_tablebase(kind);
    return without_gil([&] {
      const HelpEntry e = value_or_throw(help->entry(legal_position(help->rules(), fen), mated));
      HelpResultForPython r;
      r.mated = mated == WHITE ? "white" : "black";
      if (!value::is_mate(e.plies)) return r;
      r.plies = value::plies(e.plies);
      if (kind == StipulationKind::Helpmate) {
        r.solutions = e.solutions;
        r.solutions_capped = e.solutions >= HelpSolutionsCap;
      }
      if (std::string problem = e.problem_name(kind); !problem.empty()) r.problem = problem;
      return r;
    });
  }

  std::vector<std::vector<std::string>> helpmate_solutions(py::object board,
                                                           const std::optional<std::string>& mated_name,
                                                           int limit) const {
    if (limit < 1 || limit > MaxSolutionLines)
      throw py::value_error("limit must be 1 to " + std::to_string(MaxSolutionLines) + ", not " +
                            std::to_string(limit));
    const std::string fen = fen_of(board);
    const Color mated = mated_colour(mated_name, StipulationKind::Helpmate);
    const std::shared_ptr<const HelpTablebase> help = help_tablebase(StipulationKind::Helpmate);
    return without_gil([&] {
      std::vector<std::vector<std::string>> lines;
      for (const std::vector<Move>& line :
           value_or_throw(feerie::helpmate_solutions(*help, legal_position(help->rules(), fen), mated, limit))) {
        lines.emplace_back();
        for (Move m : line) lines.back().push_back(to_uci(m));
      }
      return lines;
    });
  }

  std::vector<std::string> tables() const {
    const Tablebase tb = tablebase();
    return without_gil([&] {
      std::vector<std::string> names;
      for (const Material& m : value_or_throw(tb.tables_on_disk())) names.push_back(m.name());
      return names;
    });
  }

 private:
  // A copy to call without the GIL: it shares the open tables, so that close() from another
  // thread never pulls them away from a running probe.
  Tablebase tablebase() const {
    if (!tb_) throw py::value_error("the Tablebase of '" + directory_ + "' is closed");
    return *tb_;
  }

  ProbeResult probe(py::object board) const {
    const std::string fen = fen_of(board);
    const Tablebase tb = tablebase();
    return without_gil([&] {
      const Position pos = legal_position(tb.rules(), fen);
      return value_or_throw(tb.probe(pos));
    });
  }

  std::optional<ProbeResult> probe_unless_missing(py::object board) const {
    const std::string fen = fen_of(board);
    const Tablebase tb = tablebase();
    return without_gil([&]() -> std::optional<ProbeResult> {
      const Position pos = legal_position(tb.rules(), fen);
      Expected<ProbeResult> r = tb.probe(pos);
      if (!r && r.error_kind() == ErrorKind::NotFound) return std::nullopt;
      return value_or_throw(std::move(r));
    });
  }

  template <class Call>
  std::vector<std::string> move_names(py::object board, Call call) const {
    const std::string fen = fen_of(board);
    const Tablebase tb = tablebase();
    return without_gil([&] {
      const Position pos = legal_position(tb.rules(), fen);
      std::vector<std::string> names;
      for (Move m : value_or_throw(call(tb, pos))) names.push_back(to_uci(m));
      return names;
    });
  }

  // The helpmate or selfmate tables, opened on the first probe of their kind; shared with
  // the probes running without the GIL, so that close() never pulls them away.
  std::shared_ptr<const HelpTablebase> help_tablebase(StipulationKind kind) const {
    const Tablebase tb = tablebase();
    std::lock_guard lock(*help_mutex_);
    std::shared_ptr<const HelpTablebase>& help = help_[kind == StipulationKind::Selfmate];
    if (!help) help = std::make_shared<const HelpTablebase>(tb.rules(), directory_, kind);
    return help;
  }

  // `mated`: "white", "black", or None for the stipulation's default (Black mated in a
  // helpmate, White in a selfmate, as `feerie probe` takes them).
  static Color mated_colour(const std::optional<std::string>& name, StipulationKind kind) {
    Expected<Color> mated = parse_mated_colour(name, kind);
    if (!mated)
      throw py::value_error("mated must be 'white', 'black' or None, not '" + printable_excerpt(*name, 40) + "'");
    return *mated;
  }

  std::string directory_;
  std::string condition_;
  std::optional<Tablebase> tb_;
  std::unique_ptr<std::mutex> help_mutex_ = std::make_unique<std::mutex>();
  mutable std::array<std::shared_ptr<const HelpTablebase>, 2> help_;  // [selfmate]
};

// A probing method's docstring: what it returns, then what every one of them says about its
// argument, its errors and threads.
std::string board_doc(const std::string& returns) {
  return returns +
         "\n\n`board` is a FEN string or an object whose fen() returns one (a chess.Board for orthodox "
         "positions). Raises MissingTableError (a KeyError) when a table the call needs is not on disk, "
         "CorruptTableError for a damaged table, ConditionMismatchError for a table built for another "
         "condition, IllegalPositionError (a ValueError) for a bad FEN or a position illegal under the "
         "condition, ValueError after close(). Runs without the GIL; one Tablebase may be probed from "
         "several threads at once.";
}

void add_move_value(py::module_& m) {
  py::class_<MoveValueForPython>(m, "MoveValue",
                                 "One legal move and the value of the position after it, from the point of "
                                 "view of the side that plays the move (Tablebase.move_values()).")
      .def_readonly("move", &MoveValueForPython::move, "The move in long algebraic notation: 'a1b2', 'e7e8q'.")
      .def_readonly("wdl", &MoveValueForPython::wdl,
                    "1 if the move wins for the side that plays it, 0 if it draws, -1 if it loses.")
      .def_readonly("dtm", &MoveValueForPython::dtm,
                    "Signed plies to mate counting the move itself, for the side that plays it: +1 for a "
                    "mating move, +p (odd) when that side mates with the p-th ply from here, -p (even) "
                    "when it is mated after p plies, 0 for a draw.")
      .def_readonly("checkmate", &MoveValueForPython::checkmate, "True if the move mates at once.")
      .def_readonly("stalemate", &MoveValueForPython::stalemate, "True if the move stalemates (a draw).")
      .def_readonly("fen_after", &MoveValueForPython::fen_after,
                    "The position after the move (captures, promotions, mutations applied), as FEN.")
      .def(py::self == py::self)
      .def("__repr__", [](const MoveValueForPython& v) {
        return "MoveValue(move='" + v.move + "', wdl=" + std::to_string(v.wdl) + ", dtm=" + std::to_string(v.dtm) +
               ", checkmate=" + (v.checkmate ? "True" : "False") + ", stalemate=" + (v.stalemate ? "True" : "False") +
               ", fen_after='" + v.fen_after + "')";
      });
}

void add_help_result(py::module_& m) {
  py::class_<HelpResultForPython>(m, "HelpResult",
                                  "One position's helpmate or selfmate for one colour mated "
                                  "(Tablebase.probe_helpmate(), probe_selfmate()).")
      .def_readonly("mated", &HelpResultForPython::mated, "The colour mated: 'white' or 'black'.")
      .def_readonly("plies", &HelpResultForPython::plies,
                    "The fewest plies (half moves) from the position to the mate of that colour: in a "
                    "helpmate both sides play for it, in a selfmate that colour forces it and the other "
                    "avoids it as long as it can; 0 when it is mated now. None when it can never be mated "
                    "so.")
      .def_readonly("solutions", &HelpResultForPython::solutions,
                    "Helpmates: the number of shortest move sequences (two promotions of one pawn are two), "
                    "at most 255 (see solutions_capped). None for selfmates and without a mate.")
      .def_readonly("solutions_capped", &HelpResultForPython::solutions_capped,
                    "True when solutions is 255: that many or more.")
      .def_readonly("problem", &HelpResultForPython::problem,
                    "The problem the length states, as problemists write it: 'h#2' (4 plies, the colour "
                    "mated to move), 'h#1.5' (3 plies, the other colour to move), 's#3'. None without a "
                    "mate, and for a selfmate of an odd number of plies (the other colour to move), which "
                    "states no problem.")
      .def(py::self == py::self)
      .def("__repr__", [](const HelpResultForPython& r) {
        auto text = [](const auto& v) -> std::string {
          if (!v) return "None";
          if constexpr (std::is_same_v<std::decay_t<decltype(*v)>, std::string>)
            return "'" + *v + "'";
          else
            return std::to_string(*v);
        };
        return "HelpResult(mated='" + r.mated + "', plies=" + text(r.plies) + ", solutions=" + text(r.solutions) +
               ", solutions_capped=" + (r.solutions_capped ? "True" : "False") + ", problem=" + text(r.problem) + ")";
      });
}

}  // namespace

void add_tablebase(py::module_& m) {
  add_move_value(m);
  add_help_result(m);
  py::class_<TablebaseForPython>(
      m, "Tablebase",
      "Feerie tables of one condition, read from <directory>/<condition>/. Each table is opened "
      "when a probe first needs it, and read again when its file was replaced on disk (looked at "
      "at most once a second). Values are from the point of view of the side to move (for "
      "move_values(): of the side that plays the move); distances are in plies (half moves). "
      "A context manager: `with feerie.open_tablebase(dir) as tb:` closes it on exit.")
      .def(py::init<const std::filesystem::path&, const std::string&>(), py::arg("directory"),
           py::arg("condition") = "orthodox", "The same as open_tablebase(directory, condition).")
      .def_property_readonly("directory", &TablebaseForPython::directory, "The tables root, as given.")
      .def_property_readonly("condition", &TablebaseForPython::condition,
                             "The canonical condition name ('orthodox', 'madrasi-ri', ...).")
      .def_property_readonly("closed", &TablebaseForPython::closed, "True after close().")
      .def("probe_wdl", &TablebaseForPython::probe_wdl, py::arg("board"),
           board_doc("Win/draw/loss of `board` for the side to move: 1 it wins, 0 draw, -1 it loses (also "
                     "when it is checkmated now).")
               .c_str())
      .def("probe_dtm", &TablebaseForPython::probe_dtm, py::arg("board"),
           board_doc("Depth to mate of `board` in plies (half moves), signed for the side to move: +p (p "
                     "odd) when it mates with the p-th ply from here, i.e. its ((p+1)/2)-th move; -p (p even) "
                     "when it is mated after p plies; 0 for a draw, and 0 when it is checkmated now "
                     "(probe_wdl() then says -1).")
               .c_str())
      .def("get_wdl", &TablebaseForPython::get_wdl, py::arg("board"), py::arg("default") = py::none(),
           board_doc("probe_wdl(board): 1 the side to move wins, 0 draw, -1 it loses; or `default` when the "
                     "table is missing, instead of MissingTableError. Other errors are raised.")
               .c_str())
      .def("get_dtm", &TablebaseForPython::get_dtm, py::arg("board"), py::arg("default") = py::none(),
           board_doc("probe_dtm(board): signed plies to mate, positive when the side to move mates, negative "
                     "when it is mated, 0 for a draw or mated now; or `default` when the table is missing, "
                     "instead of MissingTableError. Other errors are raised.")
               .c_str())
      .def("best_moves", &TablebaseForPython::best_moves, py::arg("board"),
           board_doc("Every legal move that keeps the value of `board` for the side to move (the shortest "
                     "mate when winning, the longest when losing, a draw when drawn), as long algebraic "
                     "strings ('a1b2', 'e7e8q') sorted by name; [] when there is no legal move.")
               .c_str())
      .def("principal_variation", &TablebaseForPython::principal_variation, py::arg("board"),
           board_doc("Best moves of both sides, the side to move first, played out until mate (the first "
                     "of best_moves() each ply), as long algebraic strings: as many plies as the absolute "
                     "value of probe_dtm(). [] for a draw or a checkmated position.")
               .c_str())
      .def("move_values", &TablebaseForPython::move_values, py::arg("board"),
           board_doc("Every legal move of `board` with the value after it, as MoveValue objects (move, wdl, "
                     "dtm, checkmate, stalemate, fen_after) from the point of view of the side that plays "
                     "the move, best first: the shortest win, draws, the longest loss; equal values by "
                     "move name.")
               .c_str())
      .def(
          "probe_helpmate",
          [](const TablebaseForPython& tb, py::object board, const std::optional<std::string>& mated) {
            return tb.probe_help(board, mated, StipulationKind::Helpmate);
          },
          py::arg("board"), py::arg("mated") = py::none(),
          board_doc("The helpmate of `board` in which `mated` ('white', 'black'; None: Black) is mated, as a "
                    "HelpResult (mated, plies, solutions, solutions_capped, problem), from the tables of "
                    "generate(..., stipulation='h#') (<directory>/<condition>/<material>.help-<colour>.ftb; "
                    "only the mated colour's file is read).")
              .c_str())
      .def(
          "probe_selfmate",
          [](const TablebaseForPython& tb, py::object board, const std::optional<std::string>& mated) {
            return tb.probe_help(board, mated, StipulationKind::Selfmate);
          },
          py::arg("board"), py::arg("mated") = py::none(),
          board_doc("The selfmate of `board` in which `mated` ('white', 'black'; None: White) forces the "
                    "other colour to mate it, as a HelpResult (solutions is None), from the tables of "
                    "generate(..., stipulation='s#') (<material>.self-<colour>.ftb).")
              .c_str())
      .def("helpmate_solutions", &TablebaseForPython::helpmate_solutions, py::arg("board"),
           py::arg("mated") = py::none(), py::arg("limit") = 10,
           board_doc("The shortest helpmates of `board` with `mated` mated (None: Black), at most `limit` (1 "
                     "to 10000) of them, each a list of moves in long algebraic notation from `board` to the "
                     "mate, in move-generation order; [] when there is none or the colour is mated now. "
                     "Reads the helpmate tables of the materials the moves lead to.")
               .c_str())
      .def("tables", &TablebaseForPython::tables,
           "The materials ('KQvK', ...) with a table file in this condition's directory, sorted. "
           "Files are listed, not checked. Runs without the GIL.")
      .def("close", &TablebaseForPython::close,
           "Drops the open tables; later probes raise ValueError. Probes running in other threads finish.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](TablebaseForPython& tb, py::args) { tb.close(); })
      .def("__repr__", [](const TablebaseForPython& tb) {
        return "<feerie.Tablebase directory='" + tb.directory() + "' condition='" + tb.condition() + "'" +
               (tb.closed() ? " closed" : "") + ">";
      });

  m.def(
      "open_tablebase",
      [](const std::filesystem::path& directory, const std::string& condition) {
        return TablebaseForPython(directory, condition);
      },
      py::arg("directory"), py::arg("condition") = "orthodox",
      "Opens the tables root `directory` (a str or path) for `condition` ('orthodox', "
      "'madrasi-ri', ...): tables are read from <directory>/<condition>/, each when first "
      "needed, so opening checks no file. Returns a Tablebase, usable as a context manager. "
      "Raises UnknownConditionError for an unknown condition name.");
}

}  // namespace feerie::python
