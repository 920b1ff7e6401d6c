// A small "value or error" type for library code, which never prints or exits
// (g++ 12 has no std::expected). An error carries a one-line message that names what was
// wrong (the FEN, the table file, the limit involved).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace feerie {

struct Error {
  std::string message;
};

// Builds an Error; reads well at call sites: `return error("bad rank in FEN")`.
inline Error error(std::string message) { return Error{std::move(message)}; }

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

 private:
  std::variant<T, Error> state_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;

}  // namespace feerie
