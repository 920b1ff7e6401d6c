# Checks one example program of docs/probing.md (the ctest tests `example_*`, tests/CMakeLists.txt):
# the doc quotes the source file whole as a code block, the program runs on a tables directory
# and exits with 0, and the doc quotes what it printed whole as a ```text block. So the doc's
# C and C++ code is the code the suite compiles, and its output is the output the suite sees.
#
# cmake -DPROGRAM=<built example> -DSOURCE=<examples/NAME> -DLANG=<c|cpp> -DDOC=<docs/probing.md>
#       -DTABLES=<scratch tables directory> -P check_example.cmake
foreach(var PROGRAM SOURCE LANG DOC TABLES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_example.cmake: -D${var}=... missing")
  endif()
endforeach()

file(READ "${DOC}" doc)
file(READ "${SOURCE}" source)
get_filename_component(name "${SOURCE}" NAME)
string(FIND "${doc}" "```${LANG}\n${source}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not quote examples/${name} whole in a ```${LANG} block: "
                      "copy the file into the doc (or the doc's changes into the file)")
endif()

execute_process(COMMAND "${PROGRAM}" "${TABLES}" RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message("${output}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "examples/${name} failed (exit status ${status}): ${errors}")
endif()
string(FIND "${doc}" "```text\n${output}```\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not show the output of examples/${name} (above) whole in a ```text block")
endif()
