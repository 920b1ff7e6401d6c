// The exceptions of the Python module and how a library error becomes one of them. The
// class is chosen by the error's ErrorKind and by what the call was doing (reading the
// board, parsing a condition name, probing), never by its message.
//
// Library calls run without the GIL and report an error by throwing Failure, a plain C++
// exception; the translator installed by add_exceptions() turns it into the Python
// exception once the GIL is held again, so no Python object is touched without it.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <utility>

#include "rules/expected.h"

namespace feerie::python {

// The Python class an error is raised as (docs/probing.md, "Python", lists them).
enum class ExceptionType {
  FeerieError,        // every kind without a class of its own (I/O, resource limit, ...)
  MissingTable,       // MissingTableError(FeerieError, KeyError)
  CorruptTable,       // CorruptTableError(FeerieError)
  ConditionMismatch,  // ConditionMismatchError(FeerieError, ValueError)
  IllegalPosition,    // IllegalPositionError(FeerieError, ValueError)
  UnknownCondition,   // UnknownConditionError(FeerieError, ValueError)
};

// The class of an error of `kind` met while probing or generating.
ExceptionType exception_type_of(ErrorKind kind);

// A library error on its way to Python.
struct Failure : std::exception {
  Failure(ExceptionType t, Error e) : type(t), error(std::move(e)) {}
  const char* what() const noexcept override { return error.message.c_str(); }

  ExceptionType type;
  Error error;
};

// The value of `result`, or its error thrown as the exception of its kind.
template <class T>
T value_or_throw(Expected<T> result) {
  if (!result) throw Failure(exception_type_of(result.error_kind()), result.error());
  return std::move(*result);
}

// Creates FeerieError and its subclasses in `m` and installs the translator of Failure.
void add_exceptions(pybind11::module_& m);

}  // namespace feerie::python
