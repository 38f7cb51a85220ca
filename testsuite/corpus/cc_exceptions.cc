// Exceptions thrown through several frames and caught; rethrow with
// throw;, nested try blocks, catch by base class, catch(...), exceptions
// thrown from loops, std::exception hierarchy, exception_ptr.
#include <cstdio>
#include <stdexcept>
#include <exception>
#include <string>

struct MyErr : std::runtime_error {
	int code;
	MyErr(const std::string &m, int c) : std::runtime_error(m), code(c) {}
};

static int level3(int x)
{
	for (int i = 0; i < 10; i++) {
		if (x == i * 7)
			throw MyErr("found", i);
		if (x == 1000 + i)
			throw std::out_of_range("range");
	}
	if (x == 99)
		throw 42;
	return x;
}
static int level2(int x) { int r = level3(x); return r * 2; }
static int level1(int x) { int r = level2(x) + 1; return r; }

static int classify(int x)
{
	try {
		return level1(x);
	} catch (const MyErr &e) {
		return -100 - e.code;
	} catch (const std::logic_error &e) {
		return -2;
	} catch (...) {
		return -3;
	}
}

static int rethrower(int x)
{
	try {
		return level1(x);
	} catch (const MyErr &e) {
		if (e.code % 2)
			throw;	// rethrow the same object
		return e.code;
	}
}

static int outer(int x)
{
	try {
		return rethrower(x);
	} catch (const std::runtime_error &e) {
		return -1000;
	} catch (int v) {
		return -v;
	}
}

static int nested(int x)
{
	int r = 0;
	try {
		try {
			level1(x);
			r += 1;
		} catch (const std::out_of_range &) {
			r += 10;
			throw std::runtime_error("translated");
		}
	} catch (const std::exception &e) {
		r += 100 + (int)std::string(e.what()).size();
	}
	return r;
}

int main()
{
	long sum = 0;
	for (int x = 0; x < 1100; x += 3)
		sum += classify(x);
	std::printf("classify sum %ld\n", sum);
	std::printf("outer %d %d %d %d\n", outer(7), outer(14), outer(99), outer(5));
	std::printf("nested %d %d %d\n", nested(5), nested(1003), nested(0));
	std::exception_ptr p;
	try { level1(21); } catch (...) { p = std::current_exception(); }
	try { std::rethrow_exception(p); } catch (const MyErr &e) { std::printf("exception_ptr %s %d\n", e.what(), e.code); }
	int thrown = 0;
	for (int i = 0; i < 20000; i++) {
		try { level1(i % 50); } catch (const MyErr &) { thrown++; }
	}
	std::printf("thrown %d\n", thrown);
	return 0;
}
