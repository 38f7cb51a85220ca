// corpus-flags: -std=c++20 -fcoroutines
// C++20 coroutines: a generator with co_yield, suspended and resumed
// from the caller, destroyed early, and a coroutine that throws.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <utility>

struct Gen {
	struct promise_type {
		long value = 0;
		std::exception_ptr err;
		Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
		std::suspend_always initial_suspend() noexcept { return {}; }
		std::suspend_always final_suspend() noexcept { return {}; }
		std::suspend_always yield_value(long v) noexcept { value = v; return {}; }
		void return_void() noexcept {}
		void unhandled_exception() { err = std::current_exception(); }
	};
	std::coroutine_handle<promise_type> h;
	explicit Gen(std::coroutine_handle<promise_type> x) : h(x) {}
	Gen(Gen &&o) noexcept : h(std::exchange(o.h, {})) {}
	~Gen() { if (h) h.destroy(); }
	bool next()
	{
		h.resume();
		if (h.promise().err)
			std::rethrow_exception(h.promise().err);
		return !h.done();
	}
	long get() const { return h.promise().value; }
};

static int destroyed;
struct Guard { ~Guard() { destroyed++; } };

static Gen fib_gen(int n)
{
	Guard g;
	long a = 0, b = 1;
	for (int i = 0; i < n; i++) {
		co_yield a;
		long t = a + b;
		a = b;
		b = t;
	}
}

static Gen thrower(int at)
{
	for (int i = 0;; i++) {
		if (i == at)
			throw std::runtime_error("gen failed");
		co_yield i * i;
	}
}

int main()
{
	long s = 0;
	{
		Gen g = fib_gen(50);
		while (g.next())
			s += g.get() % 1000;
	}
	{
		Gen g = fib_gen(100);	// destroyed after 5 values
		for (int i = 0; i < 5 && g.next(); i++)
			s += g.get();
	}
	long t = 0;
	try {
		Gen g = thrower(7);
		while (g.next())
			t += g.get();
	} catch (const std::runtime_error &e) {
		std::printf("caught %s\n", e.what());
	}
	std::printf("s %ld t %ld destroyed %d\n", s, t, destroyed);
	return 0;
}
// corpus-levels-metrics: differ (the C++ front end builds coroutine bodies differently when optimizing; blocks and statements differ)
