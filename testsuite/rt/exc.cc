// exc.cc - C++ exceptions crossing instrumented frames.  Hooks are called
// from an RAII guard (what the plugin's cleanup pads do); the loop region
// in mid() is left open by the exception and must be closed by mid's exit.
#include <stdexcept>
#include <cstdio>
#include "selinst.h"

static const selinst_region r_main = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 1, 0, "main", "exc.cc", nullptr };
static const selinst_region r_mid = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 2, 0, "mid", "exc.cc", nullptr };
static const selinst_region r_thr = { SELINST_ABI_VERSION, SELINST_KIND_FUNCTION, 3, 0, "thrower", "exc.cc", nullptr };
static const selinst_region r_loop = { SELINST_ABI_VERSION, SELINST_KIND_LOOP, 4, 0, "exc.cc:4", "exc.cc", "mid" };

struct Guard {
	const selinst_region *r;
	explicit Guard(const selinst_region *r_) : r(r_) { __selinst_enter(r); }
	~Guard() { __selinst_exit(r); }
};

__attribute__((noinline)) static void thrower(int i)
{
	Guard g(&r_thr);
	if (i % 2)
		throw std::runtime_error("odd");
}

__attribute__((noinline)) static void mid(int i)
{
	Guard g(&r_mid);
	uint64_t *cell = __selinst_loop_enter(&r_loop);
	uint64_t it = 0;
	for (int k = 0; k < 3; k++, it++) {
		*cell = it + 1;		/* as the plugin does before each call */
		thrower(i + k * 2);	/* same parity: throws in the first iteration if i is odd */
	}
	__selinst_loop_exit(&r_loop, it);
}

int main()
{
	Guard g(&r_main);
	int caught = 0;
	for (int i = 0; i < 1000; i++) {
		try {
			mid(i);
		} catch (const std::exception &) {
			caught++;
		}
	}
	std::printf("%d\n", caught);
	return 0;
}
