/* c_loop_levels.c - loop shapes whose names, counts or metrics once
 * depended on the -O level (issue 11): the shapes of
 * programs/loop_levels.c (while (1), for (;;), constant tests, tests with
 * several parts, goto loops, a while (1) opening with a loop, empty
 * bodies), here compared region by region and decision by decision at
 * -O0 and -O2, plus an unreferenced static function (emitted at -O0 only). */
// corpus-levels-metrics: differ (GCC folds "a || b" of simple operands into one test when optimizing: a block fewer, two statements more)
static int never_called(int x) { return x * 3; }
#include "../programs/loop_levels.c"
