/* An outside C program: built against the installed libfeerie with
 * `pkg-config --cflags --libs feerie`, it probes a table and lists every move's value. */
#include <stdio.h>

#include <feerie/feerie.h>

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s TABLES CONDITION FEN\n", argv[0]);
    return 2;
  }
  char error[512];
  feerie_tablebase* tb = feerie_open(argv[1], argv[2], error, sizeof error);
  if (!tb) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  feerie_result r;
  int status = feerie_probe(tb, argv[3], &r, error, sizeof error);
  if (status != FEERIE_OK) {
    fprintf(stderr, "status %d: %s\n", status, error);
    feerie_close(tb);
    return 1;
  }
  printf("version %s wdl %d dtm %d mate_in %d\n", feerie_version(), r.wdl, r.dtm_plies, r.mate_in);
  feerie_move_value values[256];
  size_t count = 0;
  if (feerie_move_values(tb, argv[3], values, 256, &count, error, sizeof error) == FEERIE_OK && count > 0)
    printf("first %s checkmate %d of %zu\n", values[0].move, values[0].checkmate, count);
  feerie_close(tb);
  return 0;
}
