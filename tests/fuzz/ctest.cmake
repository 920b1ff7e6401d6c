# The fuzz runs as ctest tests of the ordinary build (included from tests/CMakeLists.txt): tests/fuzz/fuzz.sh builds the
# targets with clang in its own directory (build-fuzz) and runs them; `fuzz_short` (20 s per target) and `fuzz_long`
# (10^6 inputs per target), both under the `slow` label: the clang build alone takes minutes on 2 cores. The default
# suite replays the committed inputs through ordinary builds of the targets instead (fuzz_replay_*, tests/CMakeLists.txt). Registered only where clang links a libFuzzer program, so that a
# machine without clang still builds and runs everything else.
find_program(FEERIE_FUZZ_CLANGXX NAMES clang++-14 clang++)
if(FEERIE_FUZZ_CLANGXX AND NOT FEERIE_FUZZ_LINKS)
  # The packages can be half there (clang without its runtimes): only a real link tells.
  set(check_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz_link_check)
  file(WRITE ${check_dir}/check.cpp
       "#include <cstddef>\n#include <cstdint>\n"
       "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${FEERIE_FUZZ_CLANGXX} -fsanitize=fuzzer,address,undefined check.cpp -o check
                  WORKING_DIRECTORY ${check_dir} RESULT_VARIABLE link_result OUTPUT_QUIET ERROR_QUIET)
  if(link_result EQUAL 0)
    # Cached once it links; a failure is tried again at the next configure (after scripts/setup.sh installs clang).
    set(FEERIE_FUZZ_LINKS ON CACHE INTERNAL "clang links libFuzzer programs")
  endif()
endif()

if(FEERIE_FUZZ_CLANGXX AND FEERIE_FUZZ_LINKS)
  foreach(mode short long)
    add_test(NAME fuzz_${mode} COMMAND ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz.sh ${mode} --feerie $<TARGET_FILE:feerie>)
  endforeach()
  # fuzz_short: the clang build (about a minute on 2 cores the first time) and 20 s per target at most.
  set_tests_properties(fuzz_short PROPERTIES LABELS "slow;fuzz" TIMEOUT 900)
  set_tests_properties(fuzz_long PROPERTIES LABELS "slow;fuzz" TIMEOUT 7200)
else()
  message(STATUS "clang with libFuzzer not found: the fuzz tests are not registered (scripts/setup.sh installs them)")
endif()
