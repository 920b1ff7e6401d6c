// libfeerie has no code of its own: it is the static libraries of rules/, probe/ and gen/
// linked in whole (lib/CMakeLists.txt), with the C API of feerie/feerie.h as its only
// exported symbols (libfeerie.map). This file exists because a library target needs one.
