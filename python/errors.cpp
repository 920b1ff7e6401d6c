#include "python/errors.h"

#include <array>
#include <string>

namespace py = pybind11;

namespace feerie::python {

namespace {

// The classes, indexed by ExceptionType; created once at import and kept for the life of
// the interpreter (the module holds them too).
std::array<PyObject*, 6> exception_classes{};

PyObject* new_class(py::module_& m, const char* name, const char* doc, py::tuple bases, py::dict attributes) {
  const std::string qualified = std::string("feerie.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), attributes.ptr());
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // a new reference of its own for the module
  return cls;
}

void raise_python(const Failure& f) {
  py::handle cls(exception_classes[std::size_t(f.type)]);
  py::object instance = cls(f.error.message);
  instance.attr("kind") = kind_name(f.error.kind);
  PyErr_SetObject(cls.ptr(), instance.ptr());
}

}  // namespace

ExceptionType exception_type_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::NotFound:
      return ExceptionType::MissingTable;
    case ErrorKind::Corruption:
      return ExceptionType::CorruptTable;
    case ErrorKind::ConditionMismatch:
      return ExceptionType::ConditionMismatch;
    default:
      return ExceptionType::FeerieError;
  }
}

void add_exceptions(py::module_& m) {
  py::handle exception(PyExc_Exception), key_error(PyExc_KeyError), value_error(PyExc_ValueError);
  // KeyError's str() quotes its argument as a repr (a key); the messages here are sentences,
  // so every class takes BaseException's plain str() through the common base.
  py::dict base_attributes;
  base_attributes["__str__"] = py::handle(PyExc_BaseException).attr("__str__");
  base_attributes["kind"] = py::none();  // for instances made by hand; the library's errors set it
  PyObject* base = new_class(m, "FeerieError",
                             "Base of every error the library reports. `kind` names the library's error kind: "
                             "'not found', 'corrupt', 'invalid argument', 'I/O error', 'not supported', "
                             "'resource limit', 'interrupted', 'condition mismatch' or 'internal'.",
                             py::make_tuple(exception), base_attributes);
  py::handle feerie_error(base);
  exception_classes[std::size_t(ExceptionType::FeerieError)] = base;
  exception_classes[std::size_t(ExceptionType::MissingTable)] =
      new_class(m, "MissingTableError",
                "A table the probe needs is not on disk (kind 'not found'). A KeyError, as in "
                "chess.syzygy and chess.gaviota; get_wdl() and get_dtm() return their default instead.",
                py::make_tuple(feerie_error, key_error), py::dict());
  exception_classes[std::size_t(ExceptionType::CorruptTable)] =
      new_class(m, "CorruptTableError",
                "A table file is damaged, truncated, not a Feerie table, or built for another index "
                "(kind 'corrupt').",
                py::make_tuple(feerie_error), py::dict());
  exception_classes[std::size_t(ExceptionType::ConditionMismatch)] =
      new_class(m, "ConditionMismatchError",
                "A table file whose header names another condition than the tablebase's (kind "
                "'condition mismatch').",
                py::make_tuple(feerie_error, value_error), py::dict());
  exception_classes[std::size_t(ExceptionType::IllegalPosition)] =
      new_class(m, "IllegalPositionError",
                "A board that is not a valid FEN, or a position that is illegal under the tablebase's "
                "condition (kind 'invalid argument').",
                py::make_tuple(feerie_error, value_error), py::dict());

  exception_classes[std::size_t(ExceptionType::UnknownCondition)] =
      new_class(m, "UnknownConditionError",
                "A condition name the library does not know (open_tablebase, generate; kind 'invalid "
                "argument'). Its message lists the known names.",
                py::make_tuple(feerie_error, value_error), py::dict());

  // Local to this module: another pybind11 module in the process never sees Failure.
  py::register_local_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Failure& f) {
      raise_python(f);
    }
  });
}

}  // namespace feerie::python
