// Loops left by C++ exceptions: from the body, from an inner loop (both
// loops left), from the exit test of a while loop, and through a try
// inside the loop that does not catch.  Each count is exact.
#include <cstdio>
#include <stdexcept>
#include <string>

__attribute__((noinline)) int check(int i, int limit)
{
	if (i == limit)
		throw std::runtime_error("limit");
	return i;
}

// Body throws at iteration limit+1 (i == limit): iterations = limit + 1.
int body_throw(int n, int limit)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += check(i, limit);
	return s;
}

// Nested: inner throws; both loops left.
int nested_throw(int limit)
{
	int s = 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 10; j++)
			s += check(i * 10 + j, limit);
	return s;
}

static int calls;
__attribute__((noinline)) bool more(int limit)
{
	if (++calls > limit)
		throw std::runtime_error("more");
	return true;
}

// The test throws: the header's test ran limit+1 times, the body limit.
int test_throw(int limit)
{
	int s = 0;
	calls = 0;
	while (more(limit))
		s++;
	return s;
}

// A try inside the loop that does not catch this type, with a local object.
struct Guard { int *p; ~Guard() { (*p)++; } };
int inner_try(int limit)
{
	int s = 0, dtors = 0;
	try {
		for (int i = 0; i < 100; i++) {
			Guard g{&dtors};
			try {
				s += check(i, limit);
			} catch (const std::logic_error &) {
				s = -1;
			}
		}
	} catch (const std::runtime_error &) {
		s += 1000 * dtors;
	}
	return s;
}

// Many throwing calls in one loop, the landing pad (the guard's
// destructor) outside it: one pad of ours gathers many EH edges.
int many_calls(int limit)
{
	int dtors = 0, s = 0;
	{
		Guard g{&dtors};
		for (int i = 0; i < 50; i++) {
			s += check(6 * i, limit);
			s += check(6 * i + 1, limit);
			s += check(6 * i + 2, limit);
			s += check(6 * i + 3, limit);
			s += check(6 * i + 4, limit);
			s += check(6 * i + 5, limit);
		}
	}
	return s + dtors;
}

int main()
{
	int r = 0;
	for (int k = 0; k < 3; k++) {
		try { r += body_throw(100, 5 + k); } catch (const std::exception &) { r++; }
	}
	try { r += nested_throw(25); } catch (const std::exception &) { r++; }
	try { r += test_throw(7); } catch (const std::exception &) { r++; }
	r += inner_try(9);
	try { r += many_calls(40); } catch (const std::exception &) { r++; }
	std::printf("%d\n", r);
	return 0;
}
