/* sel_main.cc - functions for every kind of selection-file rule (t-plugin-config.sh). */
namespace ns { __attribute__((noinline)) int g(int x) { return x * 3; } }
__attribute__((noinline)) int tiny(int x) { return x + 1; }
__attribute__((noinline)) int helper_a(int x) { return x - 1; }
__attribute__((noinline)) int helper_main(int x) { return x * 2; }
__attribute__((noinline)) int big(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int from_gtest(int);
int main(int argc, char **) { return tiny(argc) + ns::g(argc) + helper_a(argc) + helper_main(argc) + big(argc) + from_gtest(argc) - 100; }
