// What every function of the C API (feerie/feerie.h) does with errors, shared by the
// prober's functions (probe/c_api.cpp) and the generator's (gen/c_api.cpp): an Error's kind
// becomes the return value, its message is copied into the caller's buffer, and no C++
// exception ever crosses into a C caller. Internal header.
#pragma once

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <utility>

#include "feerie/feerie.h"
#include "rules/expected.h"

namespace feerie::c_api {

// The C API's return value for an error of `kind` (feerie.h, feerie_status).
inline int status_of(feerie::ErrorKind kind) {
  switch (kind) {
    case feerie::ErrorKind::Internal:
      return FEERIE_ERROR_INTERNAL;
    case feerie::ErrorKind::InvalidArgument:
      return FEERIE_ERROR_INVALID_ARGUMENT;
    case feerie::ErrorKind::NotFound:
      return FEERIE_ERROR_NOT_FOUND;
    case feerie::ErrorKind::Corruption:
      return FEERIE_ERROR_CORRUPT;
    case feerie::ErrorKind::IOError:
      return FEERIE_ERROR_IO;
    case feerie::ErrorKind::NotSupported:
      return FEERIE_ERROR_NOT_SUPPORTED;
    case feerie::ErrorKind::ResourceLimit:
      return FEERIE_ERROR_RESOURCE_LIMIT;
    case feerie::ErrorKind::Interrupted:
      return FEERIE_ERROR_INTERRUPTED;
    case feerie::ErrorKind::ConditionMismatch:
      return FEERIE_ERROR_CONDITION_MISMATCH;
  }
  return FEERIE_ERROR_INTERNAL;
}

inline int fail(const feerie::Error& e, char* error, size_t error_size) {
  if (error && error_size > 0) {
    size_t n = std::min(e.message.size(), error_size - 1);
    std::memcpy(error, e.message.data(), n);
    error[n] = '\0';
  }
  return status_of(e.kind);
}

inline int fail(const std::string& message, char* error, size_t error_size,
                feerie::ErrorKind kind = feerie::ErrorKind::InvalidArgument) {
  return fail(feerie::error(kind, message), error, error_size);
}

// No C++ exception may cross into a C caller: any one (bad_alloc, a filesystem error)
// becomes an error return with its message.
template <class F>
auto guarded(char* error, size_t error_size, decltype(std::declval<F>()()) on_error, F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    fail(std::string("internal error: ") + e.what(), error, error_size, feerie::ErrorKind::Internal);
  } catch (...) {
    fail("internal error", error, error_size, feerie::ErrorKind::Internal);
  }
  return on_error;
}

}  // namespace feerie::c_api
