/* Under a gtest folder: excluded by a file glob (t-plugin-config.sh). */
__attribute__((noinline)) int from_gtest(int x) { return x ^ 5; }
