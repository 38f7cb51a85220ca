/* dl_lib.cc - the C++ form of dl_lib.c: a static object whose destructor
 * and a destructor function run instrumented code inside dlclose. */
#include <cstdio>
static volatile int sink;
struct Holder {
	int n;
	Holder() : n(1) {}
	~Holder() { for (int i = 0; i < 5; i++) sink += i * n; }
};
static Holder holder;
__attribute__((destructor)) static void lib_fini(void) { for (int i = 0; i < 4; i++) sink += i; }
static void leaf(int i) { for (int k = 0; k < 3; k++) sink += i * k; }
extern "C" int lib_work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) { leaf(i); s += i; }
	return s + holder.n - 1;
}
