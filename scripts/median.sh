# The median of the numbers on standard input, one per line, to three decimals; of an even
# count, the mean of the two middle ones (the lower one alone flattered one side: 0.481 of
# two rounds at 0.481 and 0.583). Sourced by the timing scripts, not run:
#
#   source scripts/median.sh
#   printf '%s\n' 0.481 0.583 | median    # 0.532
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
