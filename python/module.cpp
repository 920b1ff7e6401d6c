// The Python module `feerie` (docs/probing.md, "Python").
#include <pybind11/pybind11.h>

#include "python/bindings.h"
#include "python/errors.h"

PYBIND11_MODULE(feerie, m) {
  m.doc() =
      "Exact values of fairy-chess endgames from Feerie tables.\n\n"
      "Values are from the point of view of the side to move (for Tablebase.move_values(): of the "
      "side that plays the move). wdl: 1 win, 0 draw, -1 loss. dtm: plies (half moves) to mate, "
      "positive when that side mates, negative when it is mated, 0 for a draw and for a position "
      "where the side to move is checkmated now.";
  m.attr("__version__") = FEERIE_VERSION_STRING;
  feerie::python::add_exceptions(m);
  feerie::python::add_tablebase(m);
  feerie::python::add_generate(m);
}
