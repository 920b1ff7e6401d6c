// A small "value or error" type for library code, which never prints or exits
// (g++ 12 has no std::expected). An error carries a kind, so that callers and exit codes
// can tell a missing table from a damaged one (leveldb's Status), and a one-line message
// that names what was wrong (the FEN, the table file, the limit involved).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace feerie {

// What went wrong, for programs: the CLI's exit codes and the C API's return values are
// derived from it (docs/cli.md, probe/include/feerie/feerie.h).
enum class ErrorKind {
  Internal,           // a bug or an inconsistency found by a check (never the user's input)
  InvalidArgument,    // a bad FEN, material, condition name, option value; an illegal position
  NotFound,           // a table that is not on disk
  Corruption,         // a file that is damaged, truncated or foreign, or built for another material or index
  IOError,            // the system refused: cannot create, write, rename, read; disk full
  NotSupported,       // valid, but not something this program does (yet)
  ResourceLimit,      // beyond the memory or index size this job may use
  Interrupted,        // stopped on request (a signal, a cancelled call)
  ConditionMismatch,  // a sound table file built for another condition than the one asked for
};

// The kind's name as written in messages and JSON ("not found", "corrupt", ...).
const char* kind_name(ErrorKind kind);

struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
};

// Builds an Error; reads well at call sites: `return error(ErrorKind::InvalidArgument, "bad rank in FEN")`.
inline Error error(ErrorKind kind, std::string message) { return Error{kind, std::move(message)}; }
// The same error with `context` in front of its message ("solving KQvK: " + message): the
// kind of the cause is kept.
inline Error with_context(const std::string& context, Error e) {
  e.message = context + e.message;
  return e;
}

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error e) : state_(std::move(e)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // Precondition: !ok().
  const std::string& error_message() const { return std::get<1>(state_).message; }
  const Error& error() const { return std::get<1>(state_); }
  ErrorKind error_kind() const { return std::get<1>(state_).kind; }

 private:
  std::variant<T, Error> state_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;

inline const char* kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Internal:
      return "internal";
    case ErrorKind::InvalidArgument:
      return "invalid argument";
    case ErrorKind::NotFound:
      return "not found";
    case ErrorKind::Corruption:
      return "corrupt";
    case ErrorKind::IOError:
      return "I/O error";
    case ErrorKind::NotSupported:
      return "not supported";
    case ErrorKind::ResourceLimit:
      return "resource limit";
    case ErrorKind::Interrupted:
      return "interrupted";
    case ErrorKind::ConditionMismatch:
      return "condition mismatch";
  }
  return "internal";
}

}  // namespace feerie
