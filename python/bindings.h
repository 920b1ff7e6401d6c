// The parts of the Python module `feerie`, each adding its names to the module
// (python/module.cpp puts them together).
#pragma once

#include <pybind11/pybind11.h>

namespace feerie::python {

// Tablebase, MoveValue and open_tablebase() (python/tablebase.cpp).
void add_tablebase(pybind11::module_& m);
// generate() (python/generate.cpp).
void add_generate(pybind11::module_& m);

// Runs `f` with the GIL released and returns what it returns. `f` must touch no Python
// object; an exception it throws goes on once the GIL is held again.
template <class F>
auto without_gil(F&& f) {
  pybind11::gil_scoped_release released;
  return f();
}

}  // namespace feerie::python
