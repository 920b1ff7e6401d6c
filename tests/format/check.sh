#!/usr/bin/env bash
# Every C and C++ source of the tree is formatted as .clang-format says (issue 22): fails
# naming each file that `clang-format --dry-run -Werror` would change. Usage:
# tests/format/check.sh CLANG_FORMAT. To format: CLANG_FORMAT -i FILE...
set -euo pipefail
cd "$(dirname "$0")/../.."
clang_format=${1:?usage: tests/format/check.sh CLANG_FORMAT}
mapfile -t files < <(find rules probe gen study tools mpi lib python examples bench tests \
                       -type f \( -name '*.c' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) | sort)
bad=0
for f in "${files[@]}"; do
  if ! "$clang_format" --dry-run -Werror "$f" > /dev/null 2>&1; then
    echo "format: $f differs from .clang-format ($clang_format -i $f)"
    bad=$((bad + 1))
  fi
done
echo "format: ${#files[@]} files checked, $bad to format"
((bad == 0))
